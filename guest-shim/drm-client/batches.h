/* The batches the guest DRM client submits, built without any OS call so
 * the host can decode and run the very same bytes (tests/unit/
 * test_drm_client_batches.c). Gen9 encodings: MI_STORE_DWORD_IMM (4
 * dwords, PPGTT address), XY_SRC_COPY_BLT (10 dwords on Gen8+, 32 bpp),
 * MI_BATCH_BUFFER_END. */
#ifndef GUEST_SHIM_DRM_CLIENT_BATCHES_H
#define GUEST_SHIM_DRM_CLIENT_BATCHES_H

#include <stddef.h>
#include <stdint.h>

#define DC_STORES 16 /* dwords each store batch writes */
#define DC_BLIT_W 64 /* pixels, 32 bpp */
#define DC_BLIT_H 64
#define DC_BLIT_PITCH (DC_BLIT_W * 4)

/* The value store i of a batch with this seed writes. */
uint32_t dc_store_value(uint32_t seed, unsigned int i);
/* DC_STORES MI_STORE_DWORD_IMMs of dc_store_value(seed, i) to dst + 4 i,
 * then MI_BATCH_BUFFER_END (and an MI_NOOP to an even length). Returns
 * the dwords written, 0 if max is too small. */
size_t dc_store_batch(uint32_t *b, size_t max, uint64_t dst, uint32_t seed);
/* The source pattern of the blit: pixel (x, y) for a seed. */
uint32_t dc_pattern(uint32_t x, uint32_t y, uint32_t seed);
/* XY_SRC_COPY_BLT of a DC_BLIT_W x DC_BLIT_H, 32 bpp linear surface from
 * src to dst (both pitch DC_BLIT_PITCH), then MI_BATCH_BUFFER_END. */
size_t dc_blit_batch(uint32_t *b, size_t max, uint64_t dst, uint64_t src);

#endif
