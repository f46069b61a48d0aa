# ACPI table walk (hv/acpi.c): host unit test.
UNIT_TESTS += test_acpi
test_acpi_SRCS := hv/acpi.c
