/* SPDX-License-Identifier: MIT */
/* Host tests of the check-reporting library (tests/harness/report.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/harness/check.h"
#include "tests/harness/env.h"

struct check_env env;	/* the harness's, filled here by each test */

static struct check_ctx fresh(void)
{
	struct check_ctx c;

	memset(&c, 0, sizeof(c));
	c.status = CHECK_FAIL;
	return c;
}

static void test_range_inside_and_outside(void **state)
{
	struct expect_range r = { 750, 8096, "one miss a step" };
	struct check_ctx c = fresh();

	(void)state;
	assert_int_equal(check_range(&c, 1000, &r, "N=%u%s", 1000, " reps=5"), CHECK_PASS);
	assert_string_equal(c.detail, "measured=1000 expected=750..8096 (one miss a step) N=1000 reps=5");
	assert_int_equal(c.status, CHECK_PASS);
	/* a dead counter fails the lower bound */
	assert_int_equal(check_range(&c, 0, &r, NULL), CHECK_FAIL);
	assert_string_equal(c.detail, "measured=0 expected=750..8096 (one miss a step)");
	assert_int_equal(check_range(&c, 8097, &r, NULL), CHECK_FAIL);
	assert_int_equal(check_range(&c, 750, &r, NULL), CHECK_PASS);
	assert_int_equal(check_range(&c, 8096, &r, NULL), CHECK_PASS);
	assert_int_equal(check_range(&c, -1, &r, NULL), CHECK_FAIL);
}

static void test_range_one_sided(void **state)
{
	struct expect_range hi_only = { INT64_MIN, 1086, "quiet" };
	struct expect_range lo_only = { 9, INT64_MAX, "driven" };
	struct check_ctx c = fresh();

	(void)state;
	assert_int_equal(check_range(&c, -5, &hi_only, NULL), CHECK_PASS);
	assert_string_equal(c.detail, "measured=-5 expected=<=1086 (quiet)");
	assert_int_equal(check_range(&c, 1087, &hi_only, NULL), CHECK_FAIL);
	assert_int_equal(check_range(&c, 8, &lo_only, "x"), CHECK_FAIL);
	assert_string_equal(c.detail, "measured=8 expected=>=9 (driven) x");
}

static void test_eq_and_error(void **state)
{
	struct check_ctx c = fresh();

	(void)state;
	assert_int_equal(check_eq(&c, 4000, 4000, "N=%u", 1000), CHECK_PASS);
	assert_string_equal(c.detail, "measured=4000 expected=4000 N=1000");
	assert_int_equal(check_eq(&c, 3999, 4000, NULL), CHECK_FAIL);
	assert_string_equal(c.detail, "measured=3999 expected=4000");
	assert_int_equal(check_error(&c, "GP0: #GP writing PERFEVTSEL0", "a run of %s", "loop4"),
			 CHECK_FAIL);
	assert_string_equal(c.detail, "measured=GP0: #GP writing PERFEVTSEL0 expected=a run of loop4");
	assert_int_equal(c.status, CHECK_FAIL);
}

/* The force-pmu rule: SKIP for what is missing, unless force-pmu; nothing when present. */
static void test_skip_unless_forced(void **state)
{
	struct check_ctx c = fresh();

	(void)state;
	env.force_pmu = false;
	assert_false(check_skip_unless_forced(&c, false, "needs %u GP counters", 2));
	assert_int_equal(c.status, CHECK_FAIL);	/* untouched */
	assert_string_equal(c.detail, "");
	assert_true(check_skip_unless_forced(&c, true, "needs %u GP counters", 2));
	assert_int_equal(c.status, CHECK_SKIP);
	assert_string_equal(c.detail, "needs 2 GP counters");
	c = fresh();
	env.force_pmu = true;
	assert_false(check_skip_unless_forced(&c, true, "needs %u GP counters", 2));
	assert_int_equal(c.status, CHECK_FAIL);
	assert_string_equal(c.detail, "");
	env.force_pmu = false;
}

/* Details are cut at CHECK_DETAIL_LEN, never overrun. */
static void test_detail_bounded(void **state)
{
	char long_err[600];
	struct check_ctx c = fresh();

	(void)state;
	memset(long_err, 'e', sizeof(long_err) - 1);
	long_err[sizeof(long_err) - 1] = '\0';
	check_error(&c, long_err, "x");
	assert_int_equal(strlen(c.detail), CHECK_DETAIL_LEN - 1);
	assert_memory_equal(c.detail, "measured=eee", 12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_range_inside_and_outside),
		cmocka_unit_test(test_range_one_sided),
		cmocka_unit_test(test_eq_and_error),
		cmocka_unit_test(test_skip_unless_forced),
		cmocka_unit_test(test_detail_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
