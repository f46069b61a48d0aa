/* A batch that really hangs the engine, and neighbours that time their
 * rounds meanwhile (issue 17, docs/vgpu-reset.md).
 *
 * mode=gpu hang: after the GPU test, a batch that waits on a semaphore
 * (MI_SEMAPHORE_WAIT, poll mode, "memory == 1") in a page of ours that
 * nobody writes: the engine stalls for real. The hypervisor resets the
 * engine when the hang or slice timer fires and resets our vGPU; we see
 * the engine error as i915 does, recover, and the next blit round must be
 * right.
 * mode=gpu watch: after the GPU test, blit rounds for WATCH_MS of our
 * time, each timed from submission to its seqno, every pixel checked:
 * the worst and the median round say whether a neighbour's hang was
 * noticed. */
#include "guest-shim/include/g9hv/gen9_hw.h"
#include "guest-shim/testguest/gpu_dev.h"
#include "guest-shim/testguest/gpu_test.h"
#include "guest-shim/testguest/tg.h"

#define SEM_VA		0x100600000ull	/* a PPGTT page of ours, left 0 */
#define HANG_SEQNO	0x4a4e47u	/* "HNG" */
#define WATCH_MS	600	/* of our time: covers a neighbour's hang */
#define WATCH_MAX	256
#define FIRST_ROUND	200

static uint64_t tsc_khz(void)
{
	return (uint64_t)hypercall(G9HV_HC_TSC_HZ, 0, 0, 0) / 1000;
}

void hang_test(uint32_t vm)
{
	struct gpu_ranges r;
	uint64_t sem = gpu_dev_alloc(1), t0, khz = tsc_khz();
	uint32_t *batch, bad;
	bool done, recovered;

	gpu_dev_ranges(&r);
	gpu_dev_ppgtt_map(SEM_VA, sem, 1);
	batch = (uint32_t *)(uintptr_t)r.batch;
	batch[0] = MI_SEMAPHORE_WAIT | MI_SEMAPHORE_POLL | 4u << 12; /* == */
	batch[1] = 1;				/* never written */
	batch[2] = (uint32_t)SEM_VA;
	batch[3] = (uint32_t)(SEM_VA >> 32);
	batch[4] = MI_BATCH_BUFFER_END;
	{
		const uint32_t cs[12] = {
			MI_ARB_ON_OFF | MI_ARB_ENABLE,
			MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT,
			(uint32_t)r.batch_va, (uint32_t)(r.batch_va >> 32),
			MI_ARB_ON_OFF | MI_ARB_DISABLE, MI_NOOP,
			(MI_FLUSH_DW + 1) | MI_FLUSH_DW_OP_STOREDW,
			r.seq_gm | MI_FLUSH_DW_USE_GTT, 0, HANG_SEQNO,
			MI_USER_INTERRUPT, MI_NOOP,
		};

		tg_printf("GPU hang: submitting a batch that waits on a "
			  "semaphore nobody signals\n");
		t0 = rdtsc();
		gpu_dev_submit(cs, 12);
	}
	done = gpu_dev_wait(HANG_SEQNO);
	recovered = gpu_dev_recover();
	tg_check("gpu-hang-reset", !done && recovered,
		 "engine error reported %llu ms after the submission, "
		 "recovered as i915 does", (unsigned long long)
		 ((rdtsc() - t0) / (khz ? khz : 1)));
	bad = gpu_dev_blit_round(vm, FIRST_ROUND);
	tg_check("gpu-hang-next-round", bad == 0, "%u wrong dwords%s", bad,
		 bad == ~0u ? " (seqno never came)" : "");
}

static void sort(uint64_t *a, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++)
		for (uint32_t j = i; j > 0 && a[j - 1] > a[j]; j--) {
			uint64_t t = a[j];

			a[j] = a[j - 1];
			a[j - 1] = t;
		}
}

void watch_test(uint32_t vm)
{
	static uint64_t us[WATCH_MAX];
	uint64_t khz = tsc_khz(), start = rdtsc(), worst = 0;
	uint32_t n = 0, bad = 0, lost = 0;

	if (!khz)
		khz = 1;
	while (n < WATCH_MAX &&
	       (rdtsc() - start) / khz < WATCH_MS) {
		uint64_t t0 = rdtsc();
		uint32_t b = gpu_dev_blit_round(vm, FIRST_ROUND + n);

		us[n] = (rdtsc() - t0) * 1000 / khz;
		worst = us[n] > worst ? us[n] : worst;
		if (b == ~0u)
			lost++;
		else
			bad += b;
		n++;
	}
	sort(us, n);
	tg_printf("GPU watch: %u rounds in %u ms, worst %llu us, median %llu "
		  "us\n", n, WATCH_MS, (unsigned long long)worst,
		  (unsigned long long)(n ? us[n / 2] : 0));
	tg_check("gpu-watch", n && !bad && !lost,
		 "%u rounds, %u wrong dwords, %u without their seqno", n, bad,
		 lost);
}
