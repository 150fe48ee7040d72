/* SPDX-License-Identifier: MIT */
/*
 * The uncore bounds, spelled once in the relation language of tests/expect/seed.h (v: the
 * count, N: the kernel's steps) for both the uncore checks (tests/checks/uncore.c) and the
 * seed tables: what a kernel drives through the LLC, the ARB or the IMC, and the ceiling
 * where nothing leaves the core.
 */
#ifndef TESTS_EXPECT_UNCORE_H
#define TESTS_EXPECT_UNCORE_H

#include <stdint.h>
#include "tests/expect/arch.h"

/* Each step one line from DRAM, so one LLC miss and one request: at least 3/4 of them
 * (two requests may merge), at most four (page walks, adjacent-line and stream prefetches,
 * other agents); at the IMC, which sums every agent, a larger slack. */
#define UNC_DRIVE_DRAM		"v >= 3/4 N; v <= 4 N + 4096"
#define UNC_DRIVE_IMC		"v >= 3/4 N; v <= 4 N + 8192"
/* A chase of four times the L2: a step misses the L2 with p = 3/4, so at least N/2 reach
 * the LLC; prefetches only add. */
#define UNC_DRIVE_LLC		"v >= 1/2 N; v <= 3 N + 1024"
/* Streaming stores of N lines: a full-line write each (>= 9/10 N), at most 2N + 8192
 * (dirty lines an earlier run left, other agents). */
#define UNC_DRIVE_STORES	"v >= 9/10 N; v <= 2 N + 8192"
/* The kernel's lines never leave the L2: what still reaches the uncore is the frame's and
 * the firmware's own traffic; at the IMC every agent's. */
#define UNC_QUIET_CACHE		"v <= 1/16 N + 1024"
#define UNC_QUIET_IMC		"v <= 1/8 N + 8192"
#define UNC_QUIET_IMC_WRITES	"v <= 1/16 N + 8192"

/* The range relation rel puts on v for a kernel of n steps (lo INT64_MIN and hi INT64_MAX
 * where it has no such bound); why is rel. A malformed rel gives the empty range
 * (lo > hi), which no count meets. */
struct expect_range expect_unc(const char *rel, uint64_t n);

#endif /* TESTS_EXPECT_UNCORE_H */
