# VT-x availability decision (hv/platform/vtx_detect.c): host unit test. Only the
# pure vtx_decide/vtx_usable/vtx_explain are called; vtx_detect() itself
# executes CPUID and RDMSR and is linked but never run.
UNIT_TESTS += test_vtx_detect
test_vtx_detect_SRCS := hv/platform/vtx_detect.c
