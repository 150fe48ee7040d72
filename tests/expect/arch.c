/* SPDX-License-Identifier: MIT */
/* Expectations of the counter checks: ranges and relations, each with why a real part meets it. */
#include "tests/expect/arch.h"
#include "lib/fmt.h"

bool expect_in(const struct expect_range *e, int64_t v)
{
	return v >= e->lo && v <= e->hi;
}

static struct expect_range range(int64_t lo, int64_t hi, const char *why)
{
	return (struct expect_range){ lo, hi, why };
}

/* Counts a loop that must leave an event alone may still show: the frame's and the
 * kernel's fixed parts cancel in the differential, but an interrupt-free window on real
 * hardware still sees a few (prefetchers, the stack line, the first branch), more in one
 * run than in another, so the difference of a quiet event may be a little negative too. */
#define QUIET_SLACK	64

struct expect_range expect_arch_loop(enum arch_event ev, uint64_t n, int64_t tsc, bool fixed)
{
	int64_t N = (int64_t)n;

	switch (ev) {
	case ARCH_EVENT_INSTRUCTIONS:
		return range(4 * N, 4 * N, "4 instructions per iteration");
	case ARCH_EVENT_BRANCHES:
		return range(N, N, "1 branch per iteration");
	case ARCH_EVENT_CORE_CYCLES:
		/* The dec/jnz chain carries a 1-cycle dependency; a core that takes two
		 * branches a cycle could halve that. 16 per iteration is far beyond any core. */
		return range(N / 2, 16 * N, "0.5..16 cycles per iteration");
	case ARCH_EVENT_REF_CYCLES:
		/* Fixed counter 2 ticks at the TSC rate while unhalted (SDM Vol. 3B 18.2.2,
		 * Table 18-2); on GP counters 3CH/01H ticks at a model-specific reference clock
		 * (bus clock, or the core crystal: 19.2..133 MHz against TSCs of 1..6 GHz), never
		 * faster than the TSC and not 1000 times slower. */
		/* With interrupts off and nothing halting, fixed counter 2 and the TSC tick
		 * together: 10% leaves room for a frame's TSC reads, not for a wrong ratio
		 * (pmu-errata.md W145: the maximum core:bus ratio instead of the boot one). */
		if (fixed)
			return range(tsc - tsc / 10, tsc + tsc / 10, "within 10% of the TSC");
		return range(tsc / 1000, tsc + tsc / 4,
			     "a reference clock at 1/1000 of the TSC up to the TSC");
	case ARCH_EVENT_TOPDOWN_SLOTS:
		return range(N, 8 * 16 * N, "1..128 slots per iteration");
	case ARCH_EVENT_BRANCH_MISSES:
		return range(-QUIET_SLACK, N / 100 + QUIET_SLACK, "the loop branch predicts");
	case ARCH_EVENT_LLC_REFERENCES:
	case ARCH_EVENT_LLC_MISSES:
		return range(-QUIET_SLACK, QUIET_SLACK, "the loop touches no data");
	default:
		return range(1, 0, "no expectation for this event");	/* nothing passes */
	}
}

enum expect_driver expect_arch_driver(enum arch_event ev)
{
	switch (ev) {
	case ARCH_EVENT_LLC_REFERENCES:
	case ARCH_EVENT_LLC_MISSES:
		return DRIVE_CHASE_COLD;
	case ARCH_EVENT_BRANCH_MISSES:
		return DRIVE_LFSR;
	default:
		return DRIVE_NONE;
	}
}

struct expect_range expect_arch_driven(enum arch_event ev, uint64_t n)
{
	int64_t N = (int64_t)n;

	switch (ev) {
	case ARCH_EVENT_LLC_REFERENCES:
		/* Each step loads a line no cache holds (CLFLUSHed before the run, random order
		 * over the buffer): it misses L1 and L2 and references the LLC. Hardware
		 * prefetches and page walks may add references, not remove them; the adjacent-
		 * line prefetcher turns a few steps into hits. */
		return range(N / 2, 4 * N + QUIET_SLACK,
			     "each cold chase step references the LLC (prefetches may add)");
	case ARCH_EVENT_LLC_MISSES:
		return range(N / 2, 4 * N + QUIET_SLACK,
			     "each cold chase step misses the LLC (prefetches may add)");
	case ARCH_EVENT_BRANCH_MISSES:
		/* The branch follows an LFSR bit: taken about half the time at random, so any
		 * predictor misses about half of them. */
		return range(N / 4, 3 * N / 4 + QUIET_SLACK,
			     "the LFSR branch is mispredicted about half the time");
	default:
		return range(1, 0, "no driving kernel for this event");
	}
}

bool expect_cmask_inv_edge(uint64_t n, int64_t ge1, int64_t inv, int64_t cycles, int64_t edge,
			   char *why, size_t len)
{
	int64_t N = (int64_t)n, tol = (cycles > 0 ? cycles / 1000 : 0) + QUIET_SLACK;
	int64_t noise = N / 100 + QUIET_SLACK;

	/* Seed 002 18.2.1.1 (CMASK, INV): with CMASK=1 a cycle counts when at least one
	 * instruction retires, with INV as well when none does: the two partition the cycles. */
	if (cycles <= 0 || ge1 + inv > cycles + tol || ge1 + inv + tol < cycles) {
		fmt_snprintf(why, len, "cmask1 %lld + inv %lld = %lld, cycles %lld +-%lld: the two "
			     "must partition the cycles", (long long)ge1, (long long)inv,
			     (long long)(ge1 + inv), (long long)cycles, (long long)tol);
		return false;
	}
	/* Each DIV waits for the previous iteration's last ADD, and a 64-bit DIV takes well
	 * over five cycles on every core: each iteration has cycles that retire nothing. */
	if (inv < N - noise) {
		fmt_snprintf(why, len, "inv %lld: the divider loop must stall retirement at least "
			     "once per iteration (>= %lld)", (long long)inv, (long long)(N - noise));
		return false;
	}
	/* The eight ADDs depend on each other: they complete one a cycle after the DIV, and
	 * retire as they complete; only the first few can retire together with the DIV when
	 * retirement lags completion. So an iteration has at least 4 retiring cycles (its
	 * other instructions retire alongside; an assumption about retirement granularity no
	 * manual states, with room for a lag of four), and at most one per instruction (12). */
	if (ge1 < 4 * N - noise || ge1 > 12 * N + noise) {
		fmt_snprintf(why, len, "cmask1 %lld: cycles retiring something must be %lld..%lld "
			     "(4..12 per iteration)", (long long)ge1, (long long)(4 * N - noise),
			     (long long)(12 * N + noise));
		return false;
	}
	/* EDGE (seed 002 18.2.1.1): deasserted-to-asserted transitions. Every iteration's
	 * retirement follows its DIV stall: at least one per iteration; the ADD chain retires
	 * without gaps, so a few per iteration at most (3 leaves room for a gap around the
	 * DIV and a taken-branch bubble), far fewer than the retiring cycles: an E bit that is
	 * ignored shows as edge = cmask1. */
	if (edge < N - noise || edge > 3 * N + noise || edge > ge1 / 2) {
		fmt_snprintf(why, len, "edge %lld: transitions into retiring cycles must be %lld.."
			     "min(3 per iteration, half of cmask1 %lld)", (long long)edge,
			     (long long)(N - noise), (long long)ge1);
		return false;
	}
	fmt_snprintf(why, len, "cmask1 + inv = cycles within %lld; inv, cmask1 and edge within "
		     "their per-iteration bounds", (long long)tol);
	return true;
}
