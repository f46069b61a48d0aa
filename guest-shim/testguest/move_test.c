/* mode=gpu move: a guest that cooperates with re-placement (DymGPU live,
 * non-contiguous slots; docs/hypercalls.md "Moves of a vGPU's high GM").
 * After the GPU test it sets up the guest channel, asks for its ranges,
 * and blits round after round, checking every pixel through the aperture.
 * Between rounds it says it is quiet (no GM address in flight) and sleeps
 * on its timer: the hypervisor moves it then (the operator's `place`, or
 * DymGPU). Before each round it says it is no longer quiet, reads the
 * replies, and when its ranges changed re-bases what it keeps in high GM
 * (gpu_dev_rebase) from the old layout to the new one, by high offset. It
 * ends AFTER rounds after the MOVES-th change (or after MAX_ROUNDS
 * rounds): every round must be right, and PVINFO must name the first
 * range after each move. */
#include "guest-shim/include/g9hv/vmrpc_guest.h"
#include "guest-shim/testguest/gpu_dev.h"
#include "guest-shim/testguest/gpu_test.h"
#include "guest-shim/testguest/tg.h"

#define MOVES		3
#define AFTER		10	/* rounds after the last move */
#define MAX_ROUNDS	4000
#define FIRST_ROUND	100	/* after gpu_test's rounds */
#define PV_HIGH_BASE	0x48

static uint8_t area[VMRPC_PAGES * 4096] __attribute__((aligned(4096)));
static struct vmrpc_guest ch;
static struct vmrpc_layout cur, building, next;
static bool have_layout;

static uint64_t map_gm(void *ctx, uint64_t gm)
{
	(void)ctx;
	return vmrpc_rebase(&cur, &next, gm);
}

static void print_layout(const char *what, const struct vmrpc_layout *l)
{
	tg_printf("GPU move: %s: %u range(s):", what, l->n);
	for (uint32_t i = 0; i < l->n; i++)
		tg_printf(" %llx+%llx", (unsigned long long)l->base[i],
			  (unsigned long long)l->size[i]);
	tg_printf("\n");
}

/* Read every reply; a move (R_MOVED) re-bases what we keep in high GM, a
 * balloon (R_RANGES) keeps our addresses. Returns the moves seen. */
static uint32_t follow(uint32_t *pv_bad)
{
	struct vmrpc_reply r;
	uint32_t moves = 0;

	while (vmrpc_next_reply(&ch, &r)) {
		if (!vmrpc_layout_feed(&building, &r, &next))
			continue;
		if (!have_layout) {
			cur = next;
			have_layout = true;
			print_layout("ranges at start", &cur);
			continue;
		}
		if (vmrpc_layout_same(&cur, &next))
			continue;
		if (!next.moved) {
			cur = next;
			print_layout("resized", &cur);
			*pv_bad += gpu_pvinfo_read(PV_HIGH_BASE) !=
				   (uint32_t)cur.base[0];
			continue;
		}
		gpu_dev_rebase(map_gm, 0);
		cur = next;
		moves++;
		print_layout("moved", &cur);
		*pv_bad += gpu_pvinfo_read(PV_HIGH_BASE) != (uint32_t)cur.base[0];
	}
	return moves;
}

void move_test(uint32_t vm)
{
	uint32_t moves = 0, rounds = 0, bad = 0, lost = 0, pv_bad = 0;
	uint32_t after = 0;
	int64_t err = vmrpc_open(&ch, area, hypercall);

	tg_check("gpu-move-setup", !err && vmrpc_ask_ranges(&ch),
		 "channel setup %lld", (long long)err);
	if (err)
		return;
	tg_timer_start(100);
	for (uint32_t i = 0; i < 2000 && !have_layout; i++) {
		follow(&pv_bad);
		hypercall(G9HV_HC_YIELD, 0, 0, 0);
	}
	tg_printf("GPU move: ready, blitting\n");
	for (uint32_t round = FIRST_ROUND;
	     after < AFTER && rounds < MAX_ROUNDS; round++) {
		uint64_t tick = tg_ticks + 1;
		uint32_t b;

		vmrpc_set_quiet(&ch, false);
		moves += follow(&pv_bad);
		b = gpu_dev_blit_round(vm, round);
		rounds++;
		after += moves >= MOVES;
		if (b == ~0u)
			lost++;
		else
			bad += b;
		vmrpc_set_quiet(&ch, true);
		__asm__ volatile("sti");
		while (tg_ticks < tick)
			__asm__ volatile("hlt");
		__asm__ volatile("cli");
	}
	vmrpc_set_quiet(&ch, false);
	tg_check("gpu-move-blit", moves >= MOVES && !bad && !lost,
		 "%u rounds, %u moves followed, %u wrong dwords, %u rounds "
		 "without their seqno", rounds, moves, bad, lost);
	tg_check("gpu-move-pvinfo", have_layout && !pv_bad,
		 "PVINFO named the first range after every move (%u not)",
		 pv_bad);
}
