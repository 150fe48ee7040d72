/* SPDX-License-Identifier: MIT */
/*
 * Host unit tests of the seed-event table (tests/events_table.c) and its relations
 * (tests/events.c): every row well-formed and able to fail on a dead counter, each event
 * once, rows of a model together, at least 90% of each model's events bound, every name in
 * the event catalog; each relation passes a count a real part gives and fails a dead one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/catalog.h"
#include "tests/events.h"
#include "tests/expect_uncore.h"

#define iters events_iters

static void test_rows_well_formed(void **state)
{
	unsigned bad = 0;
	(void)state;

	for (unsigned i = 0; i < events_nrows; i++) {
		const struct events_row *r = &events_rows[i];
		const char *why;

		if (!events_row_ok(r, &why)) {
			printf("row %u %s.%s: %s\n", i, r->model, r->event, why);
			bad++;
			continue;
		}
		if (r->rel == EVR_NONE)
			continue;
		/* The lower bound must stand above the slack on the iterations the row gets: a
		 * dead counter (0) and noise alone stay below it. */
		if ((int64_t)r->lo * (int64_t)iters(r->kernel, r->size) / 1000 <= EV_SLACK) {
			printf("row %s.%s: lower bound %d/1000 x %llu iterations within the slack\n",
			       r->model, r->event, r->lo,
			       (unsigned long long)iters(r->kernel, r->size));
			bad++;
		}
		if (r->kernel == EVK_CHASE_COLD && r->size / 64 < 2) {
			printf("row %s.%s: cold chase too small\n", r->model, r->event);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

static void test_each_event_once_models_contiguous(void **state)
{
	unsigned bad = 0;
	(void)state;

	for (unsigned i = 0; i < events_nrows; i++) {
		for (unsigned j = i + 1; j < events_nrows; j++) {
			if (!strcmp(events_rows[i].model, events_rows[j].model) &&
			    !strcmp(events_rows[i].event, events_rows[j].event)) {
				printf("%s.%s twice (rows %u, %u)\n", events_rows[i].model,
				       events_rows[i].event, i, j);
				bad++;
			}
		}
		/* A model's rows together: once it changes, the earlier model never returns. */
		if (i > 0 && strcmp(events_rows[i].model, events_rows[i - 1].model))
			for (unsigned j = 0; j + 1 < i; j++)
				if (!strcmp(events_rows[j].model, events_rows[i].model)) {
					printf("model %s's rows are not together (row %u)\n",
					       events_rows[i].model, i);
					bad++;
					break;
				}
	}
	assert_int_equal(bad, 0);
}

/* The counts: seed 000's 430 distinct events by the rule of tests/events.h, seed
 * 001's 20. */
static void test_models_and_counts(void **state)
{
	const struct events_model *m;
	unsigned n = events_models(&m);
	(void)state;

	assert_int_equal(n, 2);
	assert_non_null(events_model_by_name("nhm"));
	assert_int_equal(events_model_by_name("nhm")->count, 430);
	assert_int_equal(events_model_by_name("skl")->count, 20);
}

static void coverage(const char *model, unsigned *with, unsigned *all)
{
	const struct events_model *m = events_model_by_name(model);

	*with = *all = 0;
	for (unsigned i = m->first; i < m->first + m->count; i++) {
		(*all)++;
		*with += events_rows[i].rel != EVR_NONE ||
			 ux_ev_rel(events_rows[i].model, events_rows[i].event, NULL) != EVR_NONE;
	}
}

/* Rows still being written carry this reason (tests/events_table.c TODO, UNC_TODO). */
static bool placeholder(const struct events_row *r)
{
	return r->rel == EVR_NONE && r->why && strstr(r->why, "not bound yet");
}

/* At least 90% of each model's events bound to a relation. While rows are still being
 * written (placeholders) the test reports the coverage and skips; once none is left it
 * must hold. */
static void test_coverage(void **state)
{
	const struct events_model *m;
	unsigned n = events_models(&m), placeholders = 0, short_of = 0;
	(void)state;

	for (unsigned k = 0; k < n; k++) {
		unsigned with, all, todo = 0;

		coverage(m[k].model, &with, &all);
		for (unsigned i = m[k].first; i < m[k].first + m[k].count; i++)
			todo += placeholder(&events_rows[i]);
		placeholders += todo;
		printf("coverage %s: %u of %u events have an expectation (%u%%), %u rows not bound "
		       "yet\n", m[k].model, with, all, all ? with * 100 / all : 0, todo);
		if (with * 10 < all * 9)
			short_of++;
	}
	if (placeholders) {
		printf("%u rows not bound yet: coverage not enforced\n", placeholders);
		skip();
	}
	assert_int_equal(short_of, 0);
}

/* Every name a row or an identity uses resolves in the model's catalogs. */
static void test_names_in_catalog(void **state)
{
	unsigned bad = 0;
	(void)state;

	for (unsigned i = 0; i < events_nrows; i++) {
		const struct events_row *r = &events_rows[i];
		const struct pmu_catalog *cats[3];
		unsigned nc = 0;
		char buf[256];
		const char *names[EV_MAX_TERMS + 1];
		int signs[EV_MAX_TERMS];
		unsigned nt;

		if (!strcmp(r->model, "nhm")) {
			cats[nc++] = pmu_catalog_by_model("nhm");
			cats[nc++] = pmu_catalog_by_model("nhm_unc");
			cats[nc++] = pmu_catalog_by_model("arch");
		} else {
			cats[nc++] = pmu_catalog_by_model("skl_unc");
		}
		nt = events_terms(r->terms, buf, sizeof(buf), names, signs, EV_MAX_TERMS);
		names[nt++] = r->event;
		for (unsigned t = 0; t < nt; t++) {
			if (!strcmp(names[t], "n"))
				continue;
			if (!pmu_catalog_find(cats, nc, names[t], NULL)) {
				printf("%s.%s: %s not in the catalog\n", r->model, r->event, names[t]);
				bad++;
			}
		}
	}
	printf("%u names not in the catalog\n", bad);
	assert_int_equal(bad, 0);
}

/* --- Relations ------------------------------------------------------------------------ */

struct fake {
	const char *name[4];
	int64_t v[4];
};

static bool fake_get(void *ctx, const char *name, unsigned kernel, uint32_t size, int64_t *v)
{
	struct fake *f = ctx;
	(void)kernel;
	(void)size;

	for (unsigned i = 0; i < 4 && f->name[i]; i++)
		if (!strcmp(f->name[i], name)) {
			*v = f->v[i];
			return true;
		}
	return false;
}

static bool eval1(const struct events_row *r, int64_t v, uint64_t n)
{
	struct fake f = { { r->event }, { v } };
	char d[256];

	return events_eval(r, fake_get, &f, n, n, d, sizeof(d));
}

static void test_relations(void **state)
{
	static const struct events_row exact = EXACT("nhm", "A", EVK_LOOP, 1000, 4000, "t");
	static const struct events_row range = RANGE("nhm", "A", EVK_LOOP, 1000, 900, 1100, "t");
	static const struct events_row ident = IDENT("nhm", "A", EVK_LOOP, 10000, "B-C", 10, 1000,
						     NOHI, "t");
	static const struct events_row contrast = CONTRAST("nhm", "A", EVK_LOOP, 1000, 500,
							   EVK_DIV, 1000, 10, "t");
	struct fake f;
	char d[256];
	(void)state;

	assert_true(eval1(&exact, 4000, 1000));
	assert_false(eval1(&exact, 4001, 1000));
	assert_false(eval1(&exact, 0, 1000));
	assert_true(eval1(&range, 1000, 1000));
	assert_true(eval1(&range, 1100 + EV_SLACK, 1000));
	assert_false(eval1(&range, 899, 1000));
	assert_false(eval1(&range, 0, 1000));
	assert_false(eval1(&range, 1101 + EV_SLACK, 1000));

	f = (struct fake){ { "A", "B", "C" }, { 30000, 50000, 20000 } };
	assert_true(events_eval(&ident, fake_get, &f, 10000, 0, d, sizeof(d)));
	assert_non_null(strstr(d, "identity"));
	f = (struct fake){ { "A", "B", "C" }, { 30000, 60000, 20000 } };
	assert_false(events_eval(&ident, fake_get, &f, 10000, 0, d, sizeof(d)));
	/* dead counters everywhere: 0 = 0 - 0, but below the lower bound */
	f = (struct fake){ { "A", "B", "C" }, { 0, 0, 0 } };
	assert_false(events_eval(&ident, fake_get, &f, 10000, 0, d, sizeof(d)));
	/* a partner not measured fails, naming it */
	f = (struct fake){ { "A", "B" }, { 30000, 50000 } };
	assert_false(events_eval(&ident, fake_get, &f, 10000, 0, d, sizeof(d)));
	assert_non_null(strstr(d, "C not measured"));

	/* contrast: the fake returns the same count on both kernels, so one count cannot be
	 * both >= 500 on the first and <= 10 + slack on the second */
	assert_false(eval1(&contrast, 600, 1000));
	assert_false(eval1(&contrast, 0, 1000));
}

static void test_terms(void **state)
{
	char buf[128];
	const char *names[EV_MAX_TERMS];
	int signs[EV_MAX_TERMS];
	unsigned n = events_terms("A.B + C.D-E", buf, sizeof(buf), names, signs, EV_MAX_TERMS);
	(void)state;

	assert_int_equal(n, 3);
	assert_string_equal(names[0], "A.B");
	assert_string_equal(names[1], "C.D");
	assert_string_equal(names[2], "E");
	assert_int_equal(signs[0], 1);
	assert_int_equal(signs[1], 1);
	assert_int_equal(signs[2], -1);
	assert_int_equal(events_terms(NULL, buf, sizeof(buf), names, signs, EV_MAX_TERMS), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_well_formed),
		cmocka_unit_test(test_each_event_once_models_contiguous),
		cmocka_unit_test(test_models_and_counts),
		cmocka_unit_test(test_coverage),
		cmocka_unit_test(test_names_in_catalog),
		cmocka_unit_test(test_relations),
		cmocka_unit_test(test_terms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
