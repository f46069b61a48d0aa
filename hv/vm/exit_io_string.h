/* INS/OUTS (with REP) for the I/O exit handler (hv/vm/exit_io.c). */
#ifndef HV_VM_EXIT_IO_STRING_H
#define HV_VM_EXIT_IO_STRING_H

#include <stdint.h>

#include "hv/vm/mmio.h"
#include "hv/vm/vmexit.h"

/* Emulates the string I/O instruction that exited with qualification
 * qual against dev (NULL: an unclaimed port, reads all ones). */
enum exit_action handle_io_string(struct vm *vm, uint64_t qual,
				  const struct pio_region *dev);

#endif
