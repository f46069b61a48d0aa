# gpu=model-mmio's table of guest aperture pages that stand for pages of
# the trapped physical aperture (hv/gpu/ap_redirect.c).
UNIT_TESTS += test_ap_redirect
test_ap_redirect_SRCS := hv/gpu/ap_redirect.c
