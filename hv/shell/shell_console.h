/* `console <vm>`: the COM1 keyboard goes to one VM's UART until the
 * detach sequence (hv/shell/attach_keys.h: Ctrl-A then '.'), or until the
 * VM stops. Meanwhile that VM's output is shown raw and the other VMs'
 * output still as "[name] line". The VM may run on any CPU: its own CPU
 * takes the typed bytes (shell_console.c). */
#ifndef HV_SHELL_SHELL_CONSOLE_H
#define HV_SHELL_SHELL_CONSOLE_H

#include <stdbool.h>

struct vm;

/* Attaches the console to vm; -1 with a message if it has stopped. */
int shell_console_attach(struct vm *vm);
/* Moves typed bytes to the attached VM as its FIFO has room; detaches on
 * the sequence or when the VM stops. True while attached (the shell then
 * reads nothing). */
bool shell_console_poll(void);
bool shell_console_attached(void);
/* Run by the CPU that runs vm (for a VM on an AP: its VM_REQ_CONSOLE
 * request, hv/orchestrate.c): its vUART attached or detached as the shell
 * asked and the bytes typed for it moved into its receive FIFO, under its
 * device lock. */
void shell_console_serve(struct vm *vm);

#endif
