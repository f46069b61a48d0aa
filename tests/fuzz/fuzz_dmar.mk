# ACPI tables from firmware (hv/acpi.c: DMAR, MADT, MCFG): libFuzzer target.
FUZZ_TARGETS += fuzz_dmar
fuzz_dmar_SRCS := hv/acpi.c
