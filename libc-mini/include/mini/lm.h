/* libc-mini: naming glue.
 *
 * On the machine (freestanding) the functions carry their standard names so
 * that compiler-emitted calls (memcpy for struct copies, memset for zeroing)
 * resolve to them. In the host unit test of libc-mini itself
 * (LM_TEST_PREFIX defined) they are renamed mini_* so they can be compared
 * against the host C library in the same process. Every other host build of
 * our code simply uses the host's libc through the same headers. */
#ifndef MINI_LM_H
#define MINI_LM_H

#if defined(LM_TEST_PREFIX)
#define LM(name) mini_##name
#else
#define LM(name) name
#endif

/* True when this translation unit is built for the host (unit tests, fuzzers,
 * the evaluation harness), false when it runs on the machine. */
#if defined(HOST_BUILD)
#define LM_HOSTED 1
#else
#define LM_HOSTED 0
#endif

#endif
