/* Replay of Debian 12's i915 (Linux 6.1) probing our vGPU: every BAR0
 * access the driver made in Bochs (hv.cfg vgpu_trace=yes, converted by
 * tools/vgpu-trace2fixture into tests/fixtures/i915-probe.trace) is made
 * again, in order, on a vGPU of the same type and placement over the
 * software Gen9 model, and every read must answer what the driver saw. A
 * change that alters the probe path's answers fails here in a second
 * instead of in a four-minute Linux boot (docs/linux-i915.md).
 *
 * The world matches the hypervisor's: model with 512 Ki GGTT entries (as
 * hv/gpu/gpu_host.c), gScale mode, VM 0 with the vGPU of
 * tests/emu/linux-i915/hv.cfg (64 MiB low, 384 MiB high, 4 fences). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/dymgpu/dymgpu.h"
#include "gpu/gscale/gscale_ext.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "gpu/vgpu/ppgtt/ppgtt.h"
#include "gpu/vgpu/exec/exec.h"
#include "gpu/vgpu/cmd/cmd.h"
#include "gpu/vgpu/display/display.h"
#include "gpu/gscale/mediator/gscale_mediator.h"
#include "tests/world/model_world.h"

#define MiB (1ull << 20)
#define HV_GGTT_ENTRIES (512u * 1024u) /* hv/gpu/gpu_host.c */
#define VM_RAM (192 * MiB)             /* tests/emu/linux-i915/hv.cfg */

static const struct vgpu_type linux_i915 = { "linux-i915", 64 * MiB,
					     384 * MiB, 4, 1 };

struct access {
	char op;      /* 'R', 'r' (value not compared) or 'W' */
	bool refused; /* the vGPU refused it in Bochs */
	uint64_t off, val;
	unsigned int size;
	unsigned int line;
};

struct fixture {
	struct access *a;
	size_t n;
};

static bool parse_line(const char *s, unsigned int line, struct access *a)
{
	char op[3];
	unsigned long long off, val;
	unsigned int size;

	if (sscanf(s, "%2s %llx %u %llx", op, &off, &size, &val) != 4)
		return false;
	a->op = op[0];
	a->refused = op[1] == '!';
	a->off = off;
	a->val = val;
	a->size = size;
	a->line = line;
	return (a->op == 'R' || a->op == 'r' || a->op == 'W') &&
	       (size == 1 || size == 2 || size == 4 || size == 8);
}

static void load(struct fixture *f, const char *path)
{
	FILE *fp = fopen(path, "r");
	char buf[128];
	size_t cap = 0;
	unsigned int line = 0;

	assert_non_null(fp);
	while (fgets(buf, sizeof(buf), fp)) {
		line++;
		if (buf[0] == '#' || buf[0] == '\n')
			continue;
		if (f->n == cap) {
			cap = cap ? cap * 2 : 4096;
			f->a = realloc(f->a, cap * sizeof(*f->a));
			assert_non_null(f->a);
		}
		if (!parse_line(buf, line, &f->a[f->n])) {
			fail_msg("%s:%u: bad line: %s", path, line, buf);
		}
		f->n++;
	}
	fclose(fp);
}

struct env {
	struct model_world mw;
	struct vgpu *v;
	struct fixture fx;
};

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));
	struct gvt_params p = { .ext = { &dymgpu_ext_ops, &gscale_ext_ops },
				.ext_params = { NULL, &gscale_on } };
	struct mw_config c = { .pool_mib = 96, .ram_mib = 256,
			       .ggtt_entries = HV_GGTT_ENTRIES, .params = &p };

	assert_non_null(e);
	assert_int_equal(mw_init(&e->mw, &c), 0);
	assert_int_equal(mw_add_vgpu(&e->mw, &linux_i915, 0, VM_RAM, &e->v), 0);
	/* The trace is linux-i915-bochs's vGPU, which has no monitor
	 * (vgpu_display=none): the driver finds port D dead. With one, its
	 * detect goes on to AUX (test_vgpu_display replays that part). */
	assert_int_equal(vgpu_set_display(e->v, "none"), 0);
	load(&e->fx, REPLAY_FIXTURE);
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	mw_stop(&e->mw);
	mw_fini(&e->mw);
	free(e->fx.a);
	free(e);
	return 0;
}

/* One access; false (and a message naming the fixture line) when the
 * vGPU answers other than it did for the driver. */
static bool replay_one(struct vgpu *v, const struct access *a, bool quiet)
{
	uint64_t got = 0;
	int err;

	if (a->op == 'W')
		err = vgpu_mmio_write(v, a->off, a->val, a->size);
	else
		err = vgpu_mmio_read(v, a->off, &got, a->size);
	if ((err != 0) != a->refused) {
		if (!quiet)
			print_error("line %u: %c %llx: error %d, the driver saw %s\n",
			    a->line, a->op, (unsigned long long)a->off, err,
			    a->refused ? "a refusal" : "success");
		return false;
	}
	if (a->op == 'R' && !a->refused && got != a->val) {
		if (!quiet)
			print_error("line %u: R %llx/%u = %llx, the driver read %llx\n",
			    a->line, (unsigned long long)a->off, a->size,
			    (unsigned long long)got, (unsigned long long)a->val);
		return false;
	}
	return true;
}

static void test_replay(void **state)
{
	struct env *e = *state;
	size_t i, bad = 0;

	assert_true(e->fx.n > 100); /* a real trace, not an empty file */
	/* Every access is replayed (the driver's later writes do not depend
	 * on our answers here); the first ten differences are printed. */
	for (i = 0; i < e->fx.n; i++) {
		if (!replay_one(e->v, &e->fx.a[i], bad >= (getenv("REPLAY_ALL") ? 100000u : 10u)))
			bad++;
		mw_poll(&e->mw);
	}
	if (bad)
		print_error("%zu of %zu accesses answered differently\n", bad,
			    e->fx.n);
	assert_int_equal(bad, 0);
}

/* With the OpRegion's VBT (one child: DP on port D), i915 builds one
 * encoder and probes nothing else: no DDC pin bit-banged (GPIO_CTL
 * 0xc5010-0xc5027), no EDID over GMBUS (no GMBUS1 command, GMBUS2
 * status or GMBUS3 data, 0xc5104-0xc510f; only gmbus_reset's writes of
 * GMBUS0 and GMBUS4 are left), no AUX on ports A-C. The trace
 * before the OpRegion had 1,168 GPIO, 113 GMBUS and 512 AUX A accesses. */
static void test_probe_goes_to_port_d(void **state)
{
	struct env *e = *state;
	size_t i, gpio = 0, gmbus = 0, aux_abc = 0;

	for (i = 0; i < e->fx.n; i++) {
		uint64_t o = e->fx.a[i].off;

		gpio += o >= 0xc5010 && o < 0xc5028;
		gmbus += o >= 0xc5104 && o < 0xc5110;
		aux_abc += o >= 0x64010 && o < 0x64328 && (o & 0xff) >= 0x10 &&
			   (o & 0xff) < 0x28 && o < 0x64310;
	}
	assert_int_equal(gpio, 0);
	assert_int_equal(gmbus, 0);
	assert_int_equal(aux_abc, 0);
}

/* The driver learned its slices and capabilities from PVINFO: the
 * replayed vGPU must be the one the fixture was taken on, or every later
 * comparison is meaningless. */
static void test_pvinfo_matches(void **state)
{
	struct env *e = *state;
	uint64_t base;

	assert_int_equal(vgpu_mmio_read(e->v, VGT_PVINFO_PAGE + 0x40, &base, 4), 0);
	assert_true(base == e->v->low_base);
	assert_true(e->v->low_base == 0x8000000);
	assert_true(e->v->high_base == 0x28000000);
}

/* Hotplug (docs/display.md "Hotplug"): after the recorded probe (which
 * enabled port D's detection in PCH_PORT_HOTPLUG, unmasked SDE's port D
 * bit in SDEIMR and enabled MSI), the virtual monitor's cable is pulled
 * and plugged back. Each time i915 6.1's path finds what it expects:
 * the master's PCH bit, SDEIIR's port D bit, PCH_PORT_HOTPLUG's long
 * pulse for port D (spt_port_hotplug_long_detect), acked by writing back
 * what it read; then its DP detect reads SDEISR's live bit: clear and
 * AUX timing out while unplugged, set and the DPCD answering after. */
#define MASTER_IRQ 0x44200u
#define MASTER_PCH (1u << 23)	/* GEN8_DE_PCH_IRQ */
#define SDE_ISR 0xc4000u
#define SDE_IIR 0xc4008u
#define PORTD_HPD (1u << 23)	/* SDE_PORTD_HOTPLUG_CPT */
#define PCH_HPD 0xc4030u
#define PORTD_LONG (2u << 16)
#define PORTD_EN (1u << 20)
#define AUX_D_CTL 0x64310u
#define AUX_D_DATA1 0x64314u

static uint32_t rd32(struct vgpu *v, uint32_t off)
{
	uint64_t val = 0;

	assert_int_equal(vgpu_mmio_read(v, off, &val, 4), 0);
	return (uint32_t)val;
}

static void wr32(struct vgpu *v, uint32_t off, uint32_t val)
{
	assert_int_equal(vgpu_mmio_write(v, off, val, 4), 0);
}

/* i915's interrupt handler for one hotplug: master off, SDEIIR read and
 * acked, PCH_PORT_HOTPLUG read and written back, master on. */
static void i915_hotplug_irq(struct vgpu *v)
{
	uint32_t iir, hp;

	assert_true(rd32(v, MASTER_IRQ) & MASTER_PCH);
	wr32(v, MASTER_IRQ, 0);
	iir = rd32(v, SDE_IIR);
	assert_true(iir & PORTD_HPD);
	wr32(v, SDE_IIR, iir);
	hp = rd32(v, PCH_HPD);
	assert_int_equal(hp, PORTD_EN | PORTD_LONG);
	wr32(v, PCH_HPD, hp);
	assert_int_equal(rd32(v, PCH_HPD), PORTD_EN);
	assert_int_equal(rd32(v, SDE_IIR), 0);
	wr32(v, MASTER_IRQ, 1u << 31);
	assert_false(rd32(v, MASTER_IRQ) & MASTER_PCH);
}

/* One native AUX read of DPCD_REV on port D: the reply's first data
 * byte, or -1 when the channel timed out. */
static int dpcd_rev(struct vgpu *v)
{
	uint32_t ctl;

	wr32(v, AUX_D_DATA1, 0x90000000u); /* native read, address 0, 1 byte */
	wr32(v, AUX_D_CTL, (1u << 31) | (1u << 30) | (1u << 28) | (1u << 25) |
			   (4u << 20));
	ctl = rd32(v, AUX_D_CTL);
	wr32(v, AUX_D_CTL, ctl);
	if (ctl & (1u << 28))
		return -1;
	return (int)((rd32(v, AUX_D_DATA1) >> 16) & 0xff);
}

static void test_hotplug_after_probe(void **state)
{
	struct env *e = *state;
	struct vgpu *v = e->v;
	uint64_t msi0;
	size_t i;

	for (i = 0; i < e->fx.n; i++)
		replay_one(v, &e->fx.a[i], true);
	/* MSI on, as i915 set it up in config space (not in a BAR0 trace). */
	vgpu_cfg_write(v, GEN9_PCI_MSI_ADDR, 0xfee00000, 4);
	vgpu_cfg_write(v, GEN9_PCI_MSI_DATA, 0x41, 2);
	vgpu_cfg_write(v, GEN9_PCI_MSI_CTRL, 1, 2);
	assert_true(rd32(v, MASTER_IRQ) & (1u << 31)); /* the driver's master on */
	assert_int_equal(vgpu_set_display(v, "1024x768"), 0);
	assert_int_equal(rd32(v, PCH_HPD), PORTD_EN);
	assert_true(rd32(v, SDE_ISR) & PORTD_HPD);
	assert_int_equal(dpcd_rev(v), 0x12);
	assert_int_equal(vgpu_monitor_plug(v, true), VGPU_HOTPLUG_ALREADY);
	assert_int_equal(rd32(v, SDE_IIR), 0);

	msi0 = e->mw.hv.vm[0].msi_count;
	assert_int_equal(vgpu_monitor_plug(v, false), VGPU_HOTPLUG_RAISED);
	assert_true(e->mw.hv.vm[0].msi_count > msi0);
	i915_hotplug_irq(v);
	assert_int_equal(rd32(v, SDE_ISR) & PORTD_HPD, 0);
	assert_int_equal(dpcd_rev(v), -1);
	/* A device reset keeps the cable out. */
	vgpu_display_init(v);
	assert_int_equal(rd32(v, SDE_ISR) & PORTD_HPD, 0);

	msi0 = e->mw.hv.vm[0].msi_count;
	assert_int_equal(vgpu_monitor_plug(v, true), VGPU_HOTPLUG_RAISED);
	assert_true(e->mw.hv.vm[0].msi_count > msi0);
	i915_hotplug_irq(v);
	assert_true(rd32(v, SDE_ISR) & PORTD_HPD);
	assert_int_equal(dpcd_rev(v), 0x12);
	assert_int_equal(v->stats.hotplugs, 2);

	/* Detection off (the driver unloaded): the cable moves, no event. */
	wr32(v, PCH_HPD, 0);
	assert_int_equal(vgpu_monitor_plug(v, false), VGPU_HOTPLUG_UNDETECTED);
	assert_int_equal(rd32(v, SDE_IIR), 0);
	assert_int_equal(rd32(v, SDE_ISR) & PORTD_HPD, 0);
	/* No monitor at all: nothing to plug. */
	assert_int_equal(vgpu_set_display(v, "none"), 0);
	assert_int_equal(vgpu_monitor_plug(v, true), -GPU_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pvinfo_matches, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replay, setup, teardown),
		cmocka_unit_test_setup_teardown(test_probe_goes_to_port_d, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_hotplug_after_probe, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
