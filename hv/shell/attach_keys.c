/* Detach-sequence recognition for `console <vm>`; see attach_keys.h. */
#include "hv/shell/attach_keys.h"

bool attach_keys_feed(struct attach_keys *k, uint8_t c,
		      uint8_t out[ATTACH_MAX_OUT], unsigned *n)
{
	*n = 0;
	if (!k->esc) {
		if (c == ATTACH_ESC)
			k->esc = true;	/* decided by the next byte */
		else
			out[(*n)++] = c;
		return false;
	}
	k->esc = false;
	if (c == ATTACH_DETACH)
		return true;
	out[(*n)++] = ATTACH_ESC;
	if (c != ATTACH_ESC)
		out[(*n)++] = c;
	return false;
}
