/* The test guest's GPU test against its vGPU (gpu_test.c). */
#ifndef TESTGUEST_GPU_TEST_H
#define TESTGUEST_GPU_TEST_H

#include <stdint.h>

/* mode=gpu: probe, blit ROUNDS patterns unique to vm, read them back
 * through the aperture; results as CHECK lines. */
void gpu_test(uint32_t vm);
/* After gpu_test, with the word "fence": a fenced aperture range, detiled
 * by a physical aperture or linear without one (issue 16). */
void gpu_fence_test(void);
/* After gpu_test: one blit round every 100 ms, forever, sleeping in HLT
 * between; a line every 100 rounds (the `make run` demo). */
void gpu_demo(uint32_t vm) __attribute__((noreturn));
/* A PVINFO register (after gpu_test): offset from the PVINFO page. */
uint32_t gpu_pvinfo_read(uint32_t off);
/* mode=gpu with the word "vmrpc": the GPU-memory channel (vmrpc_test.c). */
void vmrpc_test(void);
/* mode=gpu with the word "move": blit while the hypervisor re-places our
 * high GM, re-basing on each R_RANGES layout (move_test.c). */
void move_test(uint32_t vm);
/* mode=gpu hang / watch (hang_test.c): a batch that hangs the engine on
 * a semaphore, then i915's recovery and a checked round; or 0.6 s of
 * timed, checked rounds (worst and median printed). */
void hang_test(uint32_t vm);
void watch_test(uint32_t vm);
/* mode=bench with the word "gpu": BENCH lines for the vGPU paths. */
void gpu_bench(uint32_t vm);
/* mode=gpu-attack: a foreign GGTT entry, then a privileged batch that
 * must get this VM stopped. */
void gpu_attack(uint64_t mem_bytes);
/* mode=gpu-hostile: every attack class of issue 13 against the neighbours
 * (gpu_hostile.c); "steps=NAME,..." picks some. Exits or gets stopped. */
void gpu_hostile(const char *cmdline) __attribute__((noreturn));

#endif
