# ACPI table walk (hv/platform/acpi.c): host unit test.
UNIT_TESTS += test_acpi
test_acpi_SRCS := hv/platform/acpi.c
