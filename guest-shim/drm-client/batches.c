/* Batch builders of the guest DRM client (see batches.h). The encodings
 * are Gen9's (i915 intel_gpu_commands.h names): MI_STORE_DWORD_IMM_GEN4 =
 * opcode 0x20, length 2 (4 dwords), address 47:2 in DW1-2 through the
 * context's PPGTT (no GGTT bit: user batches are non-privileged);
 * XY_SRC_COPY_BLT = 2D opcode 0x53, 10 dwords on Gen8+ (48-bit
 * addresses), BR13 = depth 32 bpp | ROP SRCCOPY | destination pitch. */
#include "guest-shim/drm-client/batches.h"

#define MI_STORE_DWORD_IMM_GEN4 ((0x20u << 23) | 2)
#define MI_BATCH_BUFFER_END (0x0au << 23)
#define MI_NOOP 0u
#define XY_SRC_COPY_BLT_CMD ((2u << 29) | (0x53u << 22) | (10 - 2))
#define BLT_WRITE_RGBA (3u << 20)
#define BR13_32BPP (3u << 24)
#define ROP_SRCCOPY (0xccu << 16)

uint32_t dc_store_value(uint32_t seed, unsigned int i)
{
	return (seed * 0x9e3779b1u) ^ (0xd0000000u | i);
}

static size_t end(uint32_t *b, size_t n, size_t max)
{
	if (n + 2 > max)
		return 0;
	b[n++] = MI_BATCH_BUFFER_END;
	if (n & 1)
		b[n++] = MI_NOOP;
	return n;
}

size_t dc_store_batch(uint32_t *b, size_t max, uint64_t dst, uint32_t seed)
{
	size_t n = 0;
	unsigned int i;

	if (max < 4 * DC_STORES)
		return 0;
	for (i = 0; i < DC_STORES; i++) {
		uint64_t a = dst + 4ull * i;

		b[n++] = MI_STORE_DWORD_IMM_GEN4;
		b[n++] = (uint32_t)a;
		b[n++] = (uint32_t)(a >> 32);
		b[n++] = dc_store_value(seed, i);
	}
	return end(b, n, max);
}

uint32_t dc_pattern(uint32_t x, uint32_t y, uint32_t seed)
{
	return (x << 24) ^ (y << 12) ^ (seed * 0x01000193u) ^ 0x00a5a5a5u;
}

size_t dc_blit_batch(uint32_t *b, size_t max, uint64_t dst, uint64_t src)
{
	size_t n = 0;

	if (max < 10)
		return 0;
	b[n++] = XY_SRC_COPY_BLT_CMD | BLT_WRITE_RGBA;
	b[n++] = BR13_32BPP | ROP_SRCCOPY | DC_BLIT_PITCH;
	b[n++] = 0;                                  /* dst y1, x1 */
	b[n++] = ((uint32_t)DC_BLIT_H << 16) | DC_BLIT_W; /* dst y2, x2 */
	b[n++] = (uint32_t)dst;
	b[n++] = (uint32_t)(dst >> 32);
	b[n++] = 0;                                  /* src y1, x1 */
	b[n++] = DC_BLIT_PITCH;
	b[n++] = (uint32_t)src;
	b[n++] = (uint32_t)(src >> 32);
	return end(b, n, max);
}
