# Calendar and MC146818 registers of the VMs' CMOS clock (hv/platform/rtc_time.c).
UNIT_TESTS += test_rtc_time
test_rtc_time_SRCS := hv/platform/rtc_time.c
