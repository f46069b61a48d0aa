/* The vGPU's virtual monitor through its BAR0 registers
 * (gpu/vgpu/display/vgpu_display.c), driven as Debian 12's i915 (Linux 6.1)
 * drives a Skylake DP port: the DP detect reads port D's live status in
 * SDEISR, then drm reads the DPCD by native AUX and the EDID by
 * I2C-over-AUX, through DP_AUX_CH_CTL(D) / DP_AUX_CH_DATA1..5 with
 * i915's send value (which asks for the AUX interrupt). The bytes must be
 * the library's (gpu/display, tested alone in test_display_aux); here
 * what is checked is the wiring: offsets, the vreg mirror, the interrupt
 * in DE_PORT_IIR, the live bit, headless vGPUs, ports A-C, reset.
 *
 * World: the model GPU and mediator of tests/world/model_world.c, as the
 * probe replay (test_vgpu_i915_replay.c) builds it. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/dymgpu/dymgpu.h"
#include "gpu/gscale/gscale_ext.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "tests/world/model_world.h"

#define MiB (1ull << 20)

static const struct vgpu_type type = { "display", 64 * MiB, 384 * MiB, 4, 1 };

#define AUX_CTL(port) DP_AUX_CH_CTL_SKL(port)
#define PORT_B 1
#define PORT_D 3
#define SFUSE_STRAP 0xc2014
#define SDE_PORTD_HOTPLUG_CPT (1u << 23)
#define GEN9_AUX_CHANNEL_D (1u << 27)
/* skl_get_aux_send_ctl: busy, w1c status, interrupt, the longest
 * time-out, 32 sync pulses (fw and precharge fields 0). */
#define SKL_SYNC ((32u - 1) << 5 | (32u - 1))
#define SEND_CTL (DP_AUX_CH_CTL_SEND_BUSY | DP_AUX_CH_CTL_DONE | \
		  DP_AUX_CH_CTL_INTERRUPT | DP_AUX_CH_CTL_TIME_OUT_ERROR | \
		  DP_AUX_CH_CTL_TIME_OUT_MASK | DP_AUX_CH_CTL_RECEIVE_ERROR | \
		  SKL_SYNC)
#define W1C (DP_AUX_CH_CTL_DONE | DP_AUX_CH_CTL_TIME_OUT_ERROR | \
	     DP_AUX_CH_CTL_RECEIVE_ERROR)

struct env {
	struct model_world mw;
	struct vgpu *v;
};

static struct vgpu *v;

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));
	struct gvt_params p = { .ext = { &dymgpu_ext_ops, &gscale_ext_ops },
				.ext_params = { NULL, &gscale_on } };
	struct mw_config c = { .pool_mib = 96, .ram_mib = 256,
			       .ggtt_entries = 512u * 1024u, .params = &p };

	assert_non_null(e);
	assert_int_equal(mw_init(&e->mw, &c), 0);
	assert_int_equal(mw_add_vgpu(&e->mw, &type, 0, 192 * MiB, &e->v), 0);
	v = e->v;
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	mw_stop(&e->mw);
	mw_fini(&e->mw);
	free(e);
	return 0;
}

static uint32_t rd(uint32_t off)
{
	uint64_t val = 0;

	assert_int_equal(vgpu_mmio_read(v, off, &val, 4), 0);
	return (uint32_t)val;
}

static void wr(uint32_t off, uint32_t val)
{
	assert_int_equal(vgpu_mmio_write(v, off, val, 4), 0);
}

/* intel_dp_aux_xfer: the request packed big-endian into DATA1..5, the
 * send, one poll (busy must already be clear), the status written back,
 * errors mapped as i915 maps them, the reply unpacked. */
static int xfer(int port, const uint8_t *tx, unsigned txn, uint8_t *rx,
		unsigned rxsize)
{
	uint32_t ctl = AUX_CTL(port), status;
	unsigned i, n;

	for (i = 0; i < txn; i += 4) {
		uint32_t w = 0;

		for (n = 0; n < 4 && i + n < txn; n++)
			w |= (uint32_t)tx[i + n] << (24 - 8 * n);
		wr(ctl + 4 + i, w);
	}
	wr(ctl, SEND_CTL | txn << DP_AUX_CH_CTL_MESSAGE_SIZE_SHIFT);
	status = rd(ctl);
	assert_false(status & DP_AUX_CH_CTL_SEND_BUSY);
	assert_true(status & DP_AUX_CH_CTL_DONE);
	wr(ctl, status | W1C);
	assert_int_equal(rd(ctl) & W1C, 0);
	if (status & DP_AUX_CH_CTL_RECEIVE_ERROR)
		return -EIO;
	if (status & DP_AUX_CH_CTL_TIME_OUT_ERROR)
		return -ETIMEDOUT;
	n = (status & DP_AUX_CH_CTL_MESSAGE_SIZE_MASK) >>
	    DP_AUX_CH_CTL_MESSAGE_SIZE_SHIFT;
	if (n == 0 || n > VDISP_AUX_MSG_MAX)
		return -EBUSY;
	if (n > rxsize)
		n = rxsize;
	for (i = 0; i < n; i++)
		rx[i] = (uint8_t)(rd(ctl + 4 + 4 * (i / 4)) >> (24 - 8 * (i % 4)));
	return (int)n;
}

/* One AUX message (intel_dp_aux_transfer's header; a bare 3-byte
 * address when size is 0): the reply code, data into buf. */
static int aux_msg(int port, uint8_t req, uint32_t addr, uint8_t *buf,
		   unsigned size, bool write)
{
	uint8_t tx[20] = { (uint8_t)(req << 4 | (addr >> 16 & 0xf)),
			   (uint8_t)(addr >> 8), (uint8_t)addr,
			   (uint8_t)(size - 1) };
	uint8_t rx[20];
	unsigned txn = size ? VDISP_AUX_HEADER : VDISP_AUX_BARE_ADDRESS;
	int ret;

	if (write && size) {
		memcpy(tx + txn, buf, size);
		txn += size;
	}
	ret = xfer(port, tx, txn, rx, write ? 1 : size + 1);
	if (ret <= 0)
		return ret < 0 ? ret : -EBUSY;
	if (!write)
		assert_int_equal(ret, size + 1);
	if (!write && size)
		memcpy(buf, rx + 1, size);
	return rx[0] >> 4;
}

/* drm_do_probe_ddc_edid over drm_dp_i2c_xfer: write the offset, read
 * 128 bytes in 16-byte chunks (each message opened with a bare MOT
 * address), stop. */
static void fetch_edid(uint8_t *edid)
{
	uint8_t off = 0;
	unsigned i;

	assert_int_equal(aux_msg(PORT_D, DP_AUX_I2C_WRITE | DP_AUX_I2C_MOT,
				 DDC_ADDR, NULL, 0, true), 0);
	assert_int_equal(aux_msg(PORT_D, DP_AUX_I2C_WRITE | DP_AUX_I2C_MOT,
				 DDC_ADDR, &off, 1, true), 0);
	assert_int_equal(aux_msg(PORT_D, DP_AUX_I2C_READ | DP_AUX_I2C_MOT,
				 DDC_ADDR, NULL, 0, false), 0);
	for (i = 0; i < VDISP_EDID_SIZE; i += DP_AUX_MAX_PAYLOAD_BYTES)
		assert_int_equal(aux_msg(PORT_D, DP_AUX_I2C_READ | DP_AUX_I2C_MOT,
					 DDC_ADDR, edid + i,
					 DP_AUX_MAX_PAYLOAD_BYTES, false), 0);
	assert_int_equal(aux_msg(PORT_D, DP_AUX_I2C_READ, DDC_ADDR, NULL, 0,
				 false), 0);
}

/* What the DP detect reads first: port D live in SDEISR (SPT's bit, as
 * i915's ibx_digital_port_connected tests it), the strap GVT sets; no
 * other ISR claims anything. */
static void test_live_status(void **state)
{
	(void)state;
	assert_int_equal(rd(SDEISR), SDE_PORTD_HOTPLUG_CPT);
	assert_int_equal(rd(SFUSE_STRAP) & 1u, 1u);
	assert_int_equal(rd(GEN8_DE_PORT_ISR), 0);
	/* ISR stays read-only. */
	wr(SDEISR, 0);
	assert_int_equal(rd(SDEISR), SDE_PORTD_HOTPLUG_CPT);
}

/* drm_dp_read_dpcd_caps: 15 receiver-capability bytes from 0x000. */
static void test_dpcd_read(void **state)
{
	uint8_t caps[15];

	(void)state;
	assert_int_equal(aux_msg(PORT_D, DP_AUX_NATIVE_READ, DP_DPCD_REV, caps,
				 sizeof(caps), false), DP_AUX_NATIVE_REPLY_ACK);
	assert_memory_equal(caps, v->aux_d.dpcd.reg, sizeof(caps));
	assert_int_equal(caps[DP_DPCD_REV], DP_DPCD_REV_12);
	assert_int_equal(caps[DP_MAX_LINK_RATE], DP_LINK_BW_5_4);
	assert_int_equal(v->stats.aux_transactions, 1);
}

static void test_edid_fetch(void **state)
{
	static const uint8_t header[8] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff,
					   0xff, 0 };
	uint8_t got[VDISP_EDID_SIZE], want[VDISP_EDID_SIZE];

	(void)state;
	fetch_edid(got);
	vdisp_edid_build(want, vdisp_mode_default(), (uint32_t)v->id);
	assert_memory_equal(got, want, sizeof(got));
	assert_memory_equal(got, header, sizeof(header));
	/* 1024x768's preferred timing: 65.00 MHz, 10 kHz units, LE. */
	assert_int_equal(got[54] | got[55] << 8, 6500);
	/* Two bare addresses, the offset, 8 chunks, the stop. */
	assert_int_equal(v->stats.aux_transactions, 12);
}

/* The AUX done interrupt: DE_PORT_IIR's port D bit and the master's
 * DE port bit when i915 has unmasked it (gen8_de_irq_postinstall: the
 * trace's IMR f1fffffe, IER e000001); nothing in IIR while masked. */
static void test_aux_irq(void **state)
{
	uint8_t b;

	(void)state;
	assert_int_equal(aux_msg(PORT_D, DP_AUX_NATIVE_READ, 0, &b, 1, false), 0);
	assert_int_equal(rd(GEN8_DE_PORT_IIR), 0); /* masked since reset */
	wr(GEN8_DE_PORT_IMR, 0xf1fffffe);
	wr(GEN8_DE_PORT_IER, 0x0e000001);
	wr(GEN8_MASTER_IRQ, GEN8_MASTER_IRQ_CONTROL);
	assert_int_equal(aux_msg(PORT_D, DP_AUX_NATIVE_READ, 0, &b, 1, false), 0);
	assert_int_equal(rd(GEN8_DE_PORT_IIR), GEN9_AUX_CHANNEL_D);
	assert_true(rd(GEN8_MASTER_IRQ) & GEN8_DE_PORT_IRQ);
	wr(GEN8_DE_PORT_IIR, GEN9_AUX_CHANNEL_D);
	assert_int_equal(rd(GEN8_DE_PORT_IIR), 0);
	/* A send without the interrupt bit raises nothing. */
	wr(AUX_CTL(PORT_D) + 4, 0x90000000);
	wr(AUX_CTL(PORT_D), (SEND_CTL & ~DP_AUX_CH_CTL_INTERRUPT) |
			    4u << DP_AUX_CH_CTL_MESSAGE_SIZE_SHIFT);
	assert_int_equal(rd(GEN8_DE_PORT_IIR), 0);
}

/* Ports A-C keep nothing behind them: a time-out, no interrupt. */
static void test_other_ports_time_out(void **state)
{
	uint8_t b;

	(void)state;
	wr(GEN8_DE_PORT_IMR, 0);
	assert_int_equal(aux_msg(PORT_B, DP_AUX_NATIVE_READ, 0, &b, 1, false),
			 -ETIMEDOUT);
	assert_int_equal(aux_msg(0, DP_AUX_NATIVE_READ, 0, &b, 1, false),
			 -ETIMEDOUT);
	assert_int_equal(rd(GEN8_DE_PORT_IIR), 0);
}

/* "none": the vGPU of before, port D dead; a mode name: its EDID. */
static void test_set_display(void **state)
{
	uint8_t b, edid[VDISP_EDID_SIZE];

	(void)state;
	assert_int_equal(vgpu_set_display(v, "1024X768"), -GPU_EINVAL);
	assert_int_equal(vgpu_set_display(v, ""), -GPU_EINVAL);
	assert_int_equal(vgpu_set_display(v, "none"), 0);
	assert_int_equal(rd(SDEISR), 0);
	assert_int_equal(rd(SFUSE_STRAP) & 1u, 0);
	assert_int_equal(aux_msg(PORT_D, DP_AUX_NATIVE_READ, 0, &b, 1, false),
			 -ETIMEDOUT);
	assert_int_equal(vgpu_set_display(v, "1920x1080"), 0);
	assert_int_equal(rd(SDEISR), SDE_PORTD_HOTPLUG_CPT);
	fetch_edid(edid);
	assert_int_equal(edid[54] | edid[55] << 8, 14850); /* 148.5 MHz */
}

/* A reset (the VM's power cycle) keeps the monitor plugged in and the
 * channel idle. */
static void test_reset_keeps_monitor(void **state)
{
	uint8_t b;

	(void)state;
	wr(AUX_CTL(PORT_D) + 4, 0x90000000);
	wr(AUX_CTL(PORT_D), SEND_CTL | 4u << DP_AUX_CH_CTL_MESSAGE_SIZE_SHIFT);
	assert_int_equal(vgpu_reset_device(v), 0);
	assert_int_equal(rd(AUX_CTL(PORT_D)) & DP_AUX_CH_CTL_DONE, 0);
	assert_int_equal(rd(SDEISR), SDE_PORTD_HOTPLUG_CPT);
	assert_int_equal(aux_msg(PORT_D, DP_AUX_NATIVE_READ, 0, &b, 1, false), 0);
	assert_int_equal(b, DP_DPCD_REV_12);
}

/* A 1-byte write to DATA1 merges into the mirrored register, as any
 * sub-dword write to a vreg-backed register. */
static void test_byte_write_merges(void **state)
{
	(void)state;
	wr(AUX_CTL(PORT_D) + 4, 0x11223344);
	assert_int_equal(vgpu_mmio_write(v, AUX_CTL(PORT_D) + 4 + 3, 0x90, 1), 0);
	assert_int_equal(rd(AUX_CTL(PORT_D) + 4), 0x90223344);
}

/* The OpRegion: ASLS reads where it was placed (0 before), keeps it
 * across a device reset, and ignores (counts) the guest's writes; a
 * place ASLS cannot hold or not page aligned is refused. */
static void test_opregion_asls(void **state)
{
	static uint8_t buf[VGPU_OPREGION_SIZE];
	uint32_t asls;

	(void)state;
	assert_int_equal(vgpu_cfg_read(v, 0xfc, &asls, 4), 0);
	assert_int_equal(asls, 0);
	assert_int_equal(vgpu_opregion_place(v, 0xf0800, buf, sizeof(buf)),
			 -GPU_EINVAL);
	assert_int_equal(vgpu_opregion_place(v, 0xfffff000ull, buf,
					     sizeof(buf)), -GPU_EINVAL);
	assert_int_equal(vgpu_opregion_place(v, 0xf0000, buf,
					     sizeof(buf) - 1), -GPU_EINVAL);
	assert_int_equal(vgpu_opregion_place(v, 0xf0000, buf, sizeof(buf)), 0);
	assert_memory_equal(buf, "IntelGraphicsMem", 16);
	assert_int_equal(vgpu_cfg_read(v, 0xfc, &asls, 4), 0);
	assert_int_equal(asls, 0xf0000);
	assert_int_equal(vgpu_cfg_write(v, 0xfc, 0x12345000, 4), 0);
	assert_int_equal(vgpu_cfg_write(v, 0xfe, 0xbeef, 2), 0);
	assert_int_equal(vgpu_cfg_read(v, 0xfc, &asls, 4), 0);
	assert_int_equal(asls, 0xf0000);
	assert_int_equal(vgpu_get_stats(v)->asls_writes, 2);
	assert_int_equal(vgpu_reset_device(v), 0);
	assert_int_equal(vgpu_cfg_read(v, 0xfc, &asls, 4), 0);
	assert_int_equal(asls, 0xf0000);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_live_status), T(test_dpcd_read), T(test_edid_fetch),
		T(test_aux_irq), T(test_other_ports_time_out),
		T(test_set_display), T(test_reset_keeps_monitor),
		T(test_byte_write_merges), T(test_opregion_asls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
