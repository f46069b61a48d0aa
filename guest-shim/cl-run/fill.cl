/* The OpenCL C kernel guest-shim/cl-run enqueues: one work-item per word,
 * out[i] = base + i. Compiled on the host by ocloc for Gen9
 * (mk/linux-guest.mk); the guest loads the binary. */
__kernel void fill(__global uint *out, uint base)
{
	size_t i = get_global_id(0);

	out[i] = base + (uint)i;
}
