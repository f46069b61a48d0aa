# Write tracking by page for the fake-GPU fuzz targets' restore (issue 13).
UNIT_TESTS += test_page_track
test_page_track_SRCS := tests/world/page_track.c
