# Per-VM ACPI tables (hv/vm/vacpi.c), read back by hv/platform/acpi.c: host unit test.
UNIT_TESTS += test_vacpi
test_vacpi_SRCS := hv/vm/vacpi.c hv/platform/acpi.c
