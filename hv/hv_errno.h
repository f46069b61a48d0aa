/* Error codes shared by hv/, gpu/ and boot/.
 *
 * Functions return 0 (or a non-negative count) on success and the negated
 * code on failure: `return -HV_ENOMEM;`. The numbers follow Linux/POSIX so a
 * value in a log reads the same as everywhere else, but the names carry an
 * HV_ prefix so host unit tests, which also see <errno.h>, never mix the two. */
#ifndef HV_HV_ERRNO_H
#define HV_HV_ERRNO_H

#define HV_EPERM	1	/* not allowed for this VM / caller */
#define HV_ENOENT	2	/* no such mapping, entry or object */
#define HV_EIO		5	/* device or hardware access failed */
#define HV_E2BIG	7	/* argument list or request too large */
#define HV_EAGAIN	11	/* try again later (resource busy now) */
#define HV_ENOMEM	12	/* out of memory (page allocator exhausted) */
#define HV_EFAULT	14	/* bad guest or host address */
#define HV_EBUSY	16	/* resource in use */
#define HV_EEXIST	17	/* already exists / already mapped */
#define HV_EINVAL	22	/* invalid argument */
#define HV_ENOSPC	28	/* no room left in a fixed-size table */
#define HV_ERANGE	34	/* value out of the representable range */
#define HV_ENODATA	61	/* input ended before the object did (truncated) */
#define HV_ENOTSUP	95	/* valid but not supported (by us or the CPU) */
#define HV_ETIMEDOUT	110	/* a wait ran out of time */

#endif
