/* Shell commands about the machine itself. VM and vGPU commands join the
 * table as those subsystems land. */
#include "hv/console/console.h"
#include "hv/hv.h"
#include "hv/mm/page_alloc.h"
#include "hv/platform/pci.h"
#include "hv/platform/platform.h"
#include "hv/shell/shell.h"
#include "hv/platform/tsc.h"
#include "mini/stdlib.h"

int shell_cmd_help(int argc, char **argv);
int shell_cmd_log(int argc, char **argv);	/* shell_log.c */

static int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	kprintf("g9hv %s (build %s)\n", HV_VERSION, hv_build_id);
	return 0;
}

static int cmd_mem(int argc, char **argv)
{
	struct page_alloc_stats st;
	uint64_t base, pages, left;

	(void)argc;
	(void)argv;
	page_alloc_get_stats(&st);
	kprintf("page allocator: %llu of %llu pages free (%llu MiB of %llu "
		"MiB)\n", (unsigned long long)st.free_pages,
		(unsigned long long)st.total_pages,
		(unsigned long long)(st.free_pages >> 8),
		(unsigned long long)(st.total_pages >> 8));
	kprintf("  calls: %llu alloc, %llu free, %llu failed\n",
		(unsigned long long)st.alloc_calls,
		(unsigned long long)st.free_calls,
		(unsigned long long)st.failed_calls);
	for (uint32_t i = 0; page_alloc_range(i, &base, &pages, &left); i++)
		kprintf("  range %u: %016llx-%016llx %llu pages, %llu never "
			"used\n", i, (unsigned long long)base,
			(unsigned long long)(base + pages * PAGE_SIZE - 1),
			(unsigned long long)pages, (unsigned long long)left);
	return 0;
}

static int cmd_pci(int argc, char **argv)
{
	const struct pci_bus_info *pi = pci_info();

	(void)argc;
	(void)argv;
	kprintf("PCI (%s): %u functions\n",
		pi->ecam ? "ECAM" : "ports 0xCF8/0xCFC", pi->nr_devs);
	pci_print_devices();
	return 0;
}

static int cmd_reboot(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	platform_reboot();
}

/* Let the machine run for a while before the next command (scripts). */
static int cmd_wait(int argc, char **argv)
{
	char *end;
	unsigned long long ms = argc == 2 ? strtoull(argv[1], &end, 10) : 0;

	if (argc != 2 || !argv[1][0] || *end || !ms || ms > 60000) {
		kprintf("usage: wait <ms>   (1..60000)\n");
		return -1;
	}
	shell_wait_tsc(tsc_ms(ms));
	return 0;
}

static int cmd_halt(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	platform_test_exit(0);
	platform_halt("halted from the shell");
}

static const struct shell_cmd shell_cmds[] = {
	{ "help", "", "list the commands", shell_cmd_help },
	{ "version", "", "version and build id", cmd_version },
	{ "mem", "", "physical page allocator", cmd_mem },
	{ "pci", "", "PCI functions found at boot", cmd_pci },
	{ "log", "[lines [skip]]", "replay the in-memory console log (or its "
	  "last lines, skip lines back)", shell_cmd_log },
	{ "reboot", "", "reset the machine", cmd_reboot },
	{ "wait", "<ms>", "read no input for ms milliseconds while VMs run",
	  cmd_wait },
	{ "halt", "", "stop the machine (leaves an emulator in test mode)",
	  cmd_halt },
};

void shell_base_cmds_register(void)
{
	SHELL_REGISTER(shell_cmds);
}
