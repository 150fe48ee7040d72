/* SPDX-License-Identifier: MIT */
/*
 * What the seed models' rows share (tests/expect/seed_<model>.c; format: tests/expect/seed.h):
 * the kernels' sizes and the uncore rows' tolerances. Included by the model files only.
 *
 * The core rows' relations, once for all: a range's upper bound and an identity carry 64
 * counts of slack (events straddling the measurement frame); an identity within t/1000 of
 * the larger side is written "(1000 - t) v <= 1000 (sum) + 64000; 1000 v >= (1000 - t)
 * (sum) - 64000", reduced (t = 20: "49 v <= 50 a + ... + 3200; 50 v >= 49 a + ... - 3200").
 */
#ifndef TESTS_EXPECT_SEED_ROWS_H
#define TESTS_EXPECT_SEED_ROWS_H

#include "tests/expect/uncore.h"

#include "tests/expect/seed.h"

/* Sizes: iterations of the compute kernels, bytes of the memory kernels' working sets
 * (Nehalem: 32 KiB L1D, 256 KiB L2, 8 MiB L3; 64-entry DTLB, 32 entries for 2 MiB pages). */
#define N_LOOP		100000		/* loop4 */
#define N_DIV		10000		/* div_loop, add_chain, imul_chain */
#define N_BR		10000		/* branch_mix, branch_lfsr */
#define N_FP		10000		/* x87, MMX, SSE, LCP, denormal, FLDCW, LDMXCSR */
#define N_BIG		20		/* bigcode: 64 KiB of code a pass */
#define N_SMALL		1000		/* smallcode: 2 KiB of code a pass */
#define WS_L1		16384		/* chase within the L1D */
#define WS_L2		131072		/* chase beyond the L1D, within the L2 */
#define WS_L3		(EV_PAST_L2 | 2 << 20)	/* chase beyond the L2, within the L3: 2 MiB or twice
					 * the L2, whichever is more (events.h) */
#define WS_COLD		(8 << 20)	/* cold chase: 20000 steps, every line flushed */
#define WS_PAGES	(256 << 20)	/* chase a new 4 KiB page each step: 128 2-MiB pages */
#define WS_HITM		65536		/* chase over lines the other core holds (its L2) */
#define ST_L1		8192		/* store / lock lines: 2n within the L1D */
#define ST_L2		65536		/* 2n within the L2 */
#define ST_MEM		(8 << 20)	/* 2n beyond the L3 */
#define LD_STREAM	(2 << 20)	/* load_stream lines, flushed */

/*
 * The uncore rows (the EVK_U_* kernels; Nehalem seed 000 Tables 22-38, Skylake client seed
 * 001 Tables 3-1, 3-2). Tolerances, once for every row that uses them:
 * - "v >= 3/4 N" on the flushed DRAM chase: every step is a random line CLFLUSHed before the
 *   run, so it misses every cache; a quarter is left for steps a prefetcher served.
 * - "v <= 4 N + 4096" (8192 at the IMC): page walks, adjacent-line and stream prefetches add
 *   up to a few requests a step; the constant covers the frame and other agents.
 * - "v >= 1/2 N" on the warm LLC chase (4 x L2): a step misses the L2 with p = 3/4.
 * - quiet: "v <= 1/16 N + 1024" where the kernel's lines never leave the level; peer, remote,
 *   IOH and isochronous events "v <= 1/8 N + 4096" (one socket: no QPI peer snoops; no DMA
 *   runs once boot services are gone, a USB controller left polling reads a few lines per
 *   microframe), their cycle events "v <= 1/100 U + 4096".
 * - identities: "49/50 .. 51/50 of the whole, +- 256": parts and whole are counted in one
 *   window on different counters; 2% and 256 cover events that straddle the window's edges.
 * - a stage of a queue's period <= the whole period: "v <= 11/10 b + 4096", as each count's
 *   differential takes its own minimum over the repetitions.
 * - queues: occupancy >= allocations (an allocated entry is valid at least one cycle);
 *   cycles busy <= occupancy <= depth x cycles busy (the seed's depths: GQ read tracker 32,
 *   write tracker 16, peer probe 12; QHL trackers at most 32); a cycle count <= U + 1024.
 */


/* Repeated relations; those the uncore checks share (UNC_DRIVE_DRAM, UNC_DRIVE_IMC,
 * UNC_DRIVE_LLC, UNC_QUIET_CACHE) are tests/expect/uncore.h's. */
#define QUIET_EV	"v <= 1/8 N + 4096"
#define QUIET_CYC	"v <= 1/100 U + 4096"
#define IDENT3(lo, hi)	"v >= 49/50 a - b - c - 256; v <= 51/50 a - b - c + 256; a >= " lo \
			"; a <= " hi

#endif /* TESTS_EXPECT_SEED_ROWS_H */
