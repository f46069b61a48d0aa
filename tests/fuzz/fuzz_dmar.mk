# ACPI tables from firmware (hv/platform/acpi.c: DMAR, MADT, MCFG): libFuzzer target.
FUZZ_TARGETS += fuzz_dmar
fuzz_dmar_SRCS := hv/platform/acpi.c
