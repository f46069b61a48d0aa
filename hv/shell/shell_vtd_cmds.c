/* Shell commands about VT-d: vtd (the iGPU's remapping unit: whether it
 * translates, the pages the GPU may reach by owner, the faults it
 * recorded and the invalidations done). Reads fault records first, so
 * the counters shown are current. */
#include "hv/console/console.h"
#include "hv/shell/shell.h"
#include "hv/vtd/vtd.h"

static int cmd_vtd(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	vtd_poll_faults();
	vtd_print_status();
	return 0;
}

static const struct shell_cmd shell_vtd_cmds[] = {
	{ "vtd", "", "the iGPU's VT-d unit: allowed ranges, faults", cmd_vtd },
};

void shell_vtd_cmds_register(void)
{
	SHELL_REGISTER(shell_vtd_cmds);
}
