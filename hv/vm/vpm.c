/* VM power-off and reset by the guest; see vpm.h. A reset restarts the
 * VM (hv/vm/vm_restart.c) once the OUT that asked for it has completed. */
#include "hv/vm/vpm.h"
#include "hv/vm/vacpi.h"
#include "hv/vm/vm.h"

#define CF9_RESET	(1u << 2)	/* "reset CPU" */
#define CF9_SYS_RST	(1u << 1)	/* full (vs soft) reset */

static void sleep_io(struct vm *vm, uint16_t port, unsigned size, bool in,
		     uint32_t *val)
{
	unsigned typ;

	(void)size;
	if (in) {
		*val = 0;	/* status: not waking */
		return;
	}
	if (port != VACPI_SLEEP_CTL_PORT || !(*val & VACPI_SLP_EN))
		return;
	typ = (*val >> VACPI_SLP_TYP_SHIFT) & 7;
	if (typ == VACPI_S5_TYP)
		vm_stop(vm, "powered off by the guest (ACPI S5)");
	else
		vm_event(vm, VM_EV_UNCLAIMED_IO, "sleep type %u requested: "
			 "only S5 exists here, ignored", typ);
}

static void reset_io(struct vm *vm, uint16_t port, unsigned size, bool in,
		     uint32_t *val)
{
	(void)port;
	(void)size;
	if (in) {
		*val = 0;
		return;
	}
	if (*val & CF9_RESET)
		vm_request_reset(vm, "reset by the guest (port cf9 <- %x)",
				 *val & 0xff);
}

const struct pio_region vpm_sleep_pio = {
	"ACPI sleep", VACPI_SLEEP_CTL_PORT, 2, sleep_io,
};

const struct pio_region vpm_reset_pio = {
	"reset control", VACPI_RESET_PORT, 1, reset_io,
};
