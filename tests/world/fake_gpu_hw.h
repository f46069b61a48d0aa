/* A small fake Gen9 behind gpu_hw for mediator tests that do not need
 * commands executed: a register array, a GGTT array, forcewake acks that
 * mirror requests, RING_EIR that clears the bits written (as the
 * hardware does), GDRST that completes at once, and ELSP that (when
 * auto_complete is on) completes each submitted context immediately with
 * the CSB entries real hardware writes (registers and status-page
 * mirror). */
#ifndef TESTS_UNIT_FAKE_GPU_HW_H
#define TESTS_UNIT_FAKE_GPU_HW_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/hw/gpu_hw.h"

struct fake_gpu {
	uint32_t *regs; /* 2 MiB */
	uint64_t *ggtt;
	uint32_t ggtt_entries;
	uint32_t elsp[GEN9_NUM_ENGINES][4];
	unsigned int elsp_n[GEN9_NUM_ENGINES];
	uint64_t submitted[GEN9_NUM_ENGINES]; /* last element-0 descriptor */
	uint64_t submits[GEN9_NUM_ENGINES];
	bool auto_complete;
	bool pending[GEN9_NUM_ENGINES]; /* submitted, not completed */
	uint64_t ggtt_writes, flushes, reg_writes;
	struct gpu_hw hw;
};

/* aperture_mib / ggtt_mib describe the device; dma from the fake hv. */
int fake_gpu_init(struct fake_gpu *g, uint32_t aperture_mib, uint32_t ggtt_mib,
		  const struct gpu_dma *dma);
void fake_gpu_fini(struct fake_gpu *g);
/* Complete what runs on engine id (CSB entries, like the hardware). */
void fake_gpu_complete(struct fake_gpu *g, int id);

#endif
