/* SPDX-License-Identifier: MIT */
/* Running a kernel in the measurement frame, and telling the reference oracle what the
 * model predicts for that region. */
#ifndef TESTS_MEASURE_H
#define TESTS_MEASURE_H

#include <stdint.h>
#include "tests/kernels/kernels.h"

struct region {
	unsigned id;		/* frame slot = oracle region id */
	unsigned seq;		/* how many times that id was used before */
	uint64_t tsc;		/* TSC delta across the frame */
};

/*
 * Runs k->fn(n, arg) once in the next frame slot with interrupts disabled. With the
 * oracle option, prints the region's predicted counts (frame part + kernel model) on a
 * "# oracle: region ..." line after the measurement.
 */
struct region measure_kernel(const struct kernel_desc *k, uint64_t n, void *arg);

/* The whole region's prediction: the frame's CALL plus the kernel's model. */
void region_predict(const struct kernel_desc *k, uint64_t n, const void *arg, unsigned slot,
		    struct exec_counts *c);

/* Prints "# oracle: frame overhead=..." once, when the oracle option is on. */
void oracle_announce(void);

#endif /* TESTS_MEASURE_H */
