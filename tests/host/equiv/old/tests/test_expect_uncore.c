/* SPDX-License-Identifier: MIT */
/*
 * Host unit tests of the uncore expectation table (tests/expect_uncore.c, _rows.c): the
 * relation language parses and evaluates as documented; every row's relations parse and
 * name only what their case measures; each references only seed events of its own model;
 * the table covers the seeds' 172 Nehalem and 20 + 5 Skylake client uncore events, at most 10%
 * of them without an expectation; every driven row bounds its event from below (a dead uncore
 * fails it) and every row bounds it from above.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/catalog.h"
#include "tests/expect_uncore.h"

/* Linked only when the catalogs were generated (the top-level Makefile's host-test). */
extern const struct pmu_catalog *pmu_catalog_by_model(const char *model) __attribute__((weak));

static void test_parse_eval(void **state)
{
	struct ux_vals x = { .v = 100, .ref = { 40, 30, 30 }, .n = 120, .uclk = 1000, .us = 10 };
	char why[160];
	unsigned uses;
	bool lo, hi;
	(void)state;

	assert_int_equal(ux_rel_parse("v >= 3/4 N; v <= 4 N + 4096", &uses, &lo, &hi, why,
				      sizeof(why)), 0);
	assert_int_equal(uses, UXV_V | UXV_N);
	assert_true(lo && hi);
	assert_true(ux_rel_eval("v >= 3/4 N; v <= 4 N + 4096", &x, why, sizeof(why)));
	assert_true(ux_rel_eval("v >= a + b + c - 1; v <= a + b + c", &x, why, sizeof(why)));
	assert_false(ux_rel_eval("v >= 100 T", &x, why, sizeof(why)));
	assert_string_equal(why, "v >= 100 T: 100 < 1000");
	assert_false(ux_rel_eval("v <= 1/16 N + 1", &x, why, sizeof(why)));
	assert_string_equal(why, "v <= 1/16 N + 1: 100 > 8");
	/* v on the right: "a >= v" bounds v from above */
	assert_int_equal(ux_rel_parse("a >= v; 16 v >= a", &uses, &lo, &hi, why, sizeof(why)), 0);
	assert_true(lo && hi);
	assert_true(ux_rel_eval("v - a >= 1/2 N; 64 v + 64 a >= c", &x, why, sizeof(why)));
	assert_true(ux_rel_eval("v >= 0; v <= U", &x, why, sizeof(why)));
	/* malformed */
	assert_int_equal(ux_rel_parse("v >= ", &uses, &lo, &hi, why, sizeof(why)), -1);
	assert_int_equal(ux_rel_parse("v > 3", &uses, &lo, &hi, why, sizeof(why)), -1);
	assert_int_equal(ux_rel_parse("v >= 3/0 N", &uses, &lo, &hi, why, sizeof(why)), -1);
	assert_int_equal(ux_rel_parse("v >= 3/4", &uses, &lo, &hi, why, sizeof(why)), -1);
	assert_int_equal(ux_rel_parse("v >= x", &uses, &lo, &hi, why, sizeof(why)), -1);
	assert_int_equal(ux_rel_parse("v >= 1, v <= 2", &uses, &lo, &hi, why, sizeof(why)), -1);
	assert_int_equal(ux_rel_parse("a >= N", &uses, &lo, &hi, why, sizeof(why)), -1);
	assert_int_equal(ux_rel_parse("v >= ab", &uses, &lo, &hi, why, sizeof(why)), -1);
	assert_int_equal(ux_rel_parse(NULL, &uses, &lo, &hi, why, sizeof(why)), -1);
	assert_false(ux_rel_eval("v >= ", &x, why, sizeof(why)));
}

static bool is_row_event(const char *model, const char *name)
{
	return ux_find(model, name) != NULL;
}

/* Every row parses, names only its references, each a seed event of its model; no row twice. */
static void test_rows_well_formed(void **state)
{
	(void)state;
	for (unsigned i = 0; i < ux_nrows; i++) {
		const struct ux_row *r = &ux_rows[i];
		unsigned nc = ux_ncases(r);

		if (ux_find(r->model, r->event) != r)
			fail_msg("%s.%s: listed twice", r->model, r->event);
		if (!r->source || strncmp(r->source, "seed 00", 7) || !r->why || !*r->why)
			fail_msg("%s.%s: no seed source or reason", r->model, r->event);
		if (r->kind == UX_NONE) {
			if (r->c[0].rel)
				fail_msg("%s.%s: no expectation, but a relation", r->model, r->event);
			continue;
		}
		if (!nc)
			fail_msg("%s.%s: no case", r->model, r->event);
		if (r->kind == UX_CONTRAST && nc != 2)
			fail_msg("%s.%s: a contrast needs two kernels", r->model, r->event);
		for (unsigned c = 0; c < nc; c++) {
			const struct ux_case *k = &r->c[c];
			unsigned uses, nref = ux_nrefs(k);
			bool lo, hi;
			char err[200];

			if (ux_rel_parse(k->rel, &uses, &lo, &hi, err, sizeof(err)))
				fail_msg("%s.%s case %u: %s", r->model, r->event, c, err);
			for (unsigned j = 0; j < UX_MAX_REFS; j++) {
				bool named = uses & UXV_REF(j);

				if (named != (j < nref))
					fail_msg("%s.%s case %u: reference %c %s", r->model, r->event, c,
						 'a' + j, named ? "named but not measured" :
						 "measured but never named");
				if (j < nref && !is_row_event(r->model, k->refs[j]))
					fail_msg("%s.%s case %u: reference %s is no seed event of %s",
						 r->model, r->event, c, k->refs[j], r->model);
				if (j < nref && !strcmp(k->refs[j], r->event))
					fail_msg("%s.%s: references itself", r->model, r->event);
			}
			if ((unsigned)k->k >= UXK_NUM)
				fail_msg("%s.%s: bad kernel", r->model, r->event);
		}
	}
}

/* The seeds' event counts; at most 10% per model without an expectation. */
static void test_coverage(void **state)
{
	unsigned total[2] = { 0, 0 }, none[2] = { 0, 0 }, kinds[UX_QUIET + 1] = { 0 };
	(void)state;

	for (unsigned i = 0; i < ux_nrows; i++) {
		unsigned m = !strcmp(ux_rows[i].model, "skl");

		total[m]++;
		kinds[ux_rows[i].kind]++;
		if (ux_rows[i].kind == UX_NONE)
			none[m]++;
	}
	printf("# nhm %u rows (%u without expectation), skl %u rows (%u without)\n", total[0],
	       none[0], total[1], none[1]);
	for (unsigned k = 0; k <= UX_QUIET; k++)
		printf("#   %s: %u\n", ux_kind_name((enum ux_kind)k), kinds[k]);
	/* seed 000 Tables 22-38: 172 distinct UNC_ events; seed 001 Tables 3-1, 3-2: 20, and
	 * Table 3-3's five IMC counters. */
	assert_int_equal(total[0], 172);
	assert_int_equal(total[1], 25);
	assert_true(none[0] * 10 <= total[0]);
	assert_true(none[1] * 10 <= total[1]);
}

/* Every expectation can fail: with the uncore counting nothing (every event 0) each driven row
 * fails; every row bounds its event from above in some case, and every row but the quiet
 * ones from below. */
static void test_dead_uncore_fails(void **state)
{
	struct ux_vals dead = { .n = 50000, .uclk = 10000000, .us = 5000 };
	(void)state;

	for (unsigned i = 0; i < ux_nrows; i++) {
		const struct ux_row *r = &ux_rows[i];
		unsigned nc = ux_ncases(r);
		bool any_lo = false, any_hi = false, fails = false;

		for (unsigned c = 0; c < nc; c++) {
			unsigned uses;
			bool lo, hi;
			char why[160];

			assert_int_equal(ux_rel_parse(r->c[c].rel, &uses, &lo, &hi, NULL, 0), 0);
			any_lo |= lo;
			any_hi |= hi;
			if (!ux_rel_eval(r->c[c].rel, &dead, why, sizeof(why)))
				fails = true;
		}
		if (r->kind == UX_NONE)
			continue;
		if (!any_hi)
			fail_msg("%s.%s: no upper bound", r->model, r->event);
		if (r->kind == UX_EXACT && fails)
			fail_msg("%s.%s: an exact 0 fails on zeros", r->model, r->event);
		/* A quiet row may fail on zeros only through a guard that its kernel drove a
		 * reference event (IMC_WRITES.PARTIAL.ANY: the full writes). */
		if (r->kind == UX_QUIET || r->kind == UX_EXACT)
			continue;
		if (!any_lo)
			fail_msg("%s.%s: driven, but no lower bound", r->model, r->event);
		if (!fails)
			fail_msg("%s.%s: passes with the uncore counting nothing", r->model, r->event);
	}
}

/* A counter that counts the clock (or anything huge) fails every row: an upper bound that
 * grows with v. */
static void test_runaway_counter_fails(void **state)
{
	struct ux_vals x = { .n = 50000, .uclk = 10000000, .us = 5000 };
	(void)state;

	for (unsigned i = 0; i < ux_nrows; i++) {
		const struct ux_row *r = &ux_rows[i];
		bool fails = false;

		for (unsigned c = 0; c < ux_ncases(r); c++) {
			char why[160];

			for (unsigned j = 0; j < UX_MAX_REFS; j++)
				x.ref[j] = x.n;
			x.v = 1000 * x.uclk;
			if (!ux_rel_eval(r->c[c].rel, &x, why, sizeof(why)))
				fails = true;
		}
		if (r->kind != UX_NONE && !fails)
			fail_msg("%s.%s: passes with a runaway count", r->model, r->event);
	}
}

/* Every row's event and reference resolves in its uncore's catalog (seed spellings). */
static void test_names_in_catalog(void **state)
{
	unsigned missing = 0;
	(void)state;

	if (!pmu_catalog_by_model)
		skip();
	for (unsigned i = 0; i < ux_nrows; i++) {
		const struct ux_row *r = &ux_rows[i];
		const struct pmu_catalog *cat = pmu_catalog_by_model(strcmp(r->model, "nhm") ?
								     "skl_unc" : "nhm_unc");

		assert_non_null(cat);
		if (!pmu_catalog_find(&cat, 1, r->event, NULL)) {
			printf("# %s: %s not in the %s catalog\n", r->model, r->event, cat->model);
			missing++;
		}
	}
	assert_int_equal(missing, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_eval),
		cmocka_unit_test(test_rows_well_formed),
		cmocka_unit_test(test_coverage),
		cmocka_unit_test(test_dead_uncore_fails),
		cmocka_unit_test(test_runaway_counter_fails),
		cmocka_unit_test(test_names_in_catalog),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
