/* SPDX-License-Identifier: MIT */
/*
 * Host unit tests of the counter checks' expectations (tests/expect/arch.c): every architectural
 * event's expectation rejects a dead counter; values a real part gives pass; the
 * CMASK/INV/EDGE relations on the divider loop accept a real core and the emulated one and
 * reject each way those fields can be broken.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "tests/expect/arch.h"

#define LOOP_N	100000
#define DRIVE_N	20000
#define TSC	250000		/* TSC ticks over LOOP_N more iterations (2.5 per iteration) */

static bool accepted(enum arch_event ev, int64_t loop, int64_t driven)
{
	struct expect_range e = expect_arch_loop(ev, LOOP_N, TSC, false);
	struct expect_range d = expect_arch_driven(ev, DRIVE_N);

	if (!expect_in(&e, loop))
		return false;
	return expect_arch_driver(ev) == DRIVE_NONE || expect_in(&d, driven);
}

/* 8: a counter that counts nothing (or next to nothing) fails every event's check: LLC
 * references and misses were bounded above only (0..64), GP reference cycles below by 1. */
static void test_dead_counter_fails_every_event(void **state)
{
	static const int64_t dead[] = { 0, 1, 16, -3 };
	(void)state;

	for (int ev = 0; ev < NR_ARCH_EVENTS; ev++)
		for (size_t i = 0; i < sizeof(dead) / sizeof(dead[0]); i++)
			if (accepted((enum arch_event)ev, dead[i], dead[i]))
				fail_msg("%s accepts a dead counter reading %lld", arch_events[ev].name,
					 (long long)dead[i]);
}

/* What a working part gives passes. */
static void test_real_counts_pass(void **state)
{
	struct expect_range e;
	(void)state;

	assert_true(accepted(ARCH_EVENT_INSTRUCTIONS, 4 * LOOP_N, 0));
	assert_true(accepted(ARCH_EVENT_BRANCHES, LOOP_N, 0));
	assert_true(accepted(ARCH_EVENT_CORE_CYCLES, LOOP_N, 0));
	assert_true(accepted(ARCH_EVENT_REF_CYCLES, TSC / 100, 0));	/* 40 MHz vs 4 GHz */
	assert_true(accepted(ARCH_EVENT_TOPDOWN_SLOTS, 4 * LOOP_N, 0));
	assert_true(accepted(ARCH_EVENT_BRANCH_MISSES, 12, DRIVE_N / 2));
	assert_true(accepted(ARCH_EVENT_LLC_REFERENCES, 3, DRIVE_N - 700));
	assert_true(accepted(ARCH_EVENT_LLC_MISSES, 0, DRIVE_N + 2000));
	assert_true(accepted(ARCH_EVENT_BRANCH_MISSES, -4, DRIVE_N / 2));	/* noise: signed */
	/* Exact events are exact. */
	assert_false(accepted(ARCH_EVENT_INSTRUCTIONS, 4 * LOOP_N + 1, 0));
	assert_false(accepted(ARCH_EVENT_BRANCHES, LOOP_N - 1, 0));
	/* A quiet event that counts on the loop fails too. */
	assert_false(accepted(ARCH_EVENT_LLC_MISSES, 5000, DRIVE_N));
	/* Fixed counter 2 ticks with the TSC; at another ratio (W145) it fails. */
	e = expect_arch_loop(ARCH_EVENT_REF_CYCLES, LOOP_N, TSC, true);
	assert_true(expect_in(&e, TSC));
	assert_true(expect_in(&e, TSC - TSC / 20));
	assert_false(expect_in(&e, TSC / 100));
	assert_false(expect_in(&e, TSC + TSC / 5));	/* a 1.2x ratio */
	assert_int_equal(expect_arch_driver(ARCH_EVENT_LLC_MISSES), DRIVE_CHASE_COLD);
	assert_int_equal(expect_arch_driver(ARCH_EVENT_BRANCH_MISSES), DRIVE_LFSR);
	assert_int_equal(expect_arch_driver(ARCH_EVENT_INSTRUCTIONS), DRIVE_NONE);
}

/* 5: CMASK/INV/EDGE on the divider loop (n iterations of xor, div, 8 dependent adds, dec,
 * jnz). */
static void test_cmask_inv_edge(void **state)
{
	const int64_t n = 10000;
	char why[200];
	(void)state;

	/* A big core: a 25-cycle DIV then the ADD chain, one a cycle: 9 retiring cycles
	 * (DIV, 8 ADDs; xor/dec/jnz alongside) and one burst per iteration. */
	assert_true(expect_cmask_inv_edge(n, 9 * n, 25 * n, 34 * n, n, why, sizeof(why)));
	/* ... retiring late, the first ADDs with the DIV: 5 retiring cycles. */
	assert_true(expect_cmask_inv_edge(n, 5 * n, 29 * n, 34 * n, n, why, sizeof(why)));
	/* ... with a gap between the DIV and the first ADD: two bursts. */
	assert_true(expect_cmask_inv_edge(n, 9 * n, 26 * n, 35 * n, 2 * n, why, sizeof(why)));
	/* The emulated PMU's cycle model: one instruction per cycle, 20 DIV cycles and a
	 * taken-branch cycle retiring nothing. */
	assert_true(expect_cmask_inv_edge(n, 12 * n, 21 * n, 33 * n, 2 * n, why, sizeof(why)));

	/* The 4-instruction loop on a big core, which the check used: one retiring cycle per
	 * iteration, nothing for INV and EDGE to count. */
	assert_false(expect_cmask_inv_edge(n, n, 0, n, 0, why, sizeof(why)));
	assert_non_null(strstr(why, "inv 0"));
	/* A dead INV counter, and INV ignored (counts as CMASK=1). */
	assert_false(expect_cmask_inv_edge(n, 9 * n, 0, 34 * n, n, why, sizeof(why)));
	assert_false(expect_cmask_inv_edge(n, 9 * n, 9 * n, 34 * n, n, why, sizeof(why)));
	assert_non_null(strstr(why, "partition"));
	/* CMASK ignored: the first counter counts instructions (12 per iteration). */
	assert_false(expect_cmask_inv_edge(n, 12 * n, 25 * n, 34 * n, n, why, sizeof(why)));
	/* EDGE ignored: it counts every retiring cycle, on a real core and on the model. */
	assert_false(expect_cmask_inv_edge(n, 9 * n, 25 * n, 34 * n, 9 * n, why, sizeof(why)));
	assert_non_null(strstr(why, "edge"));
	assert_false(expect_cmask_inv_edge(n, 12 * n, 21 * n, 33 * n, 12 * n, why, sizeof(why)));
	/* A dead EDGE counter, and a dead cycles counter. */
	assert_false(expect_cmask_inv_edge(n, 9 * n, 25 * n, 34 * n, 0, why, sizeof(why)));
	assert_false(expect_cmask_inv_edge(n, 0, 0, 0, 0, why, sizeof(why)));
	/* Differences are signed: a negative one is reported as such. */
	assert_false(expect_cmask_inv_edge(n, 9 * n, 25 * n, 34 * n, -5, why, sizeof(why)));
	assert_non_null(strstr(why, "edge -5"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dead_counter_fails_every_event),
		cmocka_unit_test(test_real_counts_pass),
		cmocka_unit_test(test_cmask_inv_edge),
	};

	return cmocka_run_group_tests_name("expect", tests, NULL, NULL);
}
