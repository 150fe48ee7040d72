/* SPDX-License-Identifier: MIT */
/*
 * What a correct PMU must count on the calibrated kernels: the ranges and relations the
 * counter checks hold measurements to, kept pure (no hardware access) so host tests can
 * prove every expectation able to fail, a dead counter above all.
 */
#ifndef TESTS_EXPECT_ARCH_H
#define TESTS_EXPECT_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "pmu/event.h"

/* An inclusive range for a signed differential count, and why a real part meets it. */
struct expect_range {
	int64_t lo, hi;
	const char *why;
};

bool expect_in(const struct expect_range *e, int64_t v);

/*
 * What the calibrated loop's extra n iterations (loop4: add, add, dec, jnz) add to
 * architectural event ev, counted on a GP counter or, with `fixed`, on the fixed counter
 * that counts it. tsc: the TSC difference over the same runs.
 */
struct expect_range expect_arch_loop(enum arch_event ev, uint64_t n, int64_t tsc, bool fixed);

/*
 * Events the loop leaves (nearly) quiet must also be shown to count: the kernel that must
 * drive ev, and what its extra n iterations must add. LLC references and misses: the
 * pointer chase over the test buffer from cold caches (each line it visits CLFLUSHed before each run), one new
 * line per step; branch mispredictions: the LFSR branch, taken at random.
 */
enum expect_driver {
	DRIVE_NONE = 0,		/* the loop itself drives the event */
	DRIVE_CHASE_COLD,
	DRIVE_LFSR,
};
enum expect_driver expect_arch_driver(enum arch_event ev);
struct expect_range expect_arch_driven(enum arch_event ev, uint64_t n);

/*
 * CMASK/INV/EDGE on instructions retired over the divider loop's extra n iterations
 * (xor, div, 8 dependent adds, dec, jnz; each DIV depends on the previous iteration's last
 * ADD): ge1 = cycles retiring >= 1 instruction (CMASK=1), inv = cycles retiring none
 * (CMASK=1, INV), cycles = core cycles, edge = transitions into retiring cycles (CMASK=1,
 * EDGE). True when the five agree with each other and with the loop; otherwise false with
 * why naming the broken relation.
 */
bool expect_cmask_inv_edge(uint64_t n, int64_t ge1, int64_t inv, int64_t cycles, int64_t edge,
			   char *why, size_t len);

#endif /* TESTS_EXPECT_ARCH_H */
