/* fuzz_vgpu_diff under gVirt partitioning (no gScale): each vGPU's GM is
 * its own slice of the GGTT, the neighbour's right next to it, resident
 * all the time - where an access a few bytes past the attacker's range
 * lands in the victim's memory. */
#define FZD_GVIRT 1
#include "tests/fuzz/fuzz_vgpu_diff.c"
