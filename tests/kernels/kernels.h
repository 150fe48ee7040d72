/* SPDX-License-Identifier: MIT */
/* Microbenchmark kernels (assembly) and the exact model of what each one executes. */
#ifndef TESTS_KERNELS_KERNELS_H
#define TESTS_KERNELS_KERNELS_H

#include <stdint.h>

/*
 * What a kernel executes for n iterations: per-iteration counts plus a fixed part (entry
 * and return). Counts are architectural: instructions retired, branches by kind, and
 * instructions that load / store (one that does both counts once in each).
 */
struct kernel_model {
	const char *name;
	uint64_t insns_per_iter, insns_fixed;
	uint64_t cond_branches_per_iter;	/* all but the last iteration are taken */
	uint64_t loads_per_iter, stores_per_iter;
};

/* Instructions the model predicts for n iterations. */
static inline uint64_t kernel_insns(const struct kernel_model *m, uint64_t n)
{
	return m->insns_per_iter * n + m->insns_fixed;
}

typedef void (*kernel_fn)(uint64_t n);

/* tests/kernels/loop.S: the calibrated loop. n >= 1. */
void kernel_loop4(uint64_t n);
extern const struct kernel_model kernel_loop4_model;

/*
 * tests/kernels/frame.S: TSC ticks across one call of k(n): RDTSC, the call, RDTSC, with
 * LFENCE before the first read. Under QEMU -icount shift=0 the TSC advances once per
 * retired instruction, so the result is the kernel's instruction count plus the frame's
 * fixed overhead. Call with interrupts disabled.
 */
uint64_t frame_tsc(kernel_fn k, uint64_t n);

#endif /* TESTS_KERNELS_KERNELS_H */
