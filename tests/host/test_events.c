/* SPDX-License-Identifier: MIT */
/*
 * Host unit tests of the seed models (tests/expect/seed_models.h, a file tests/expect/seed_<model>.c
 * each) and their relation language (tests/expect/seed.c): the parser and evaluator; every row
 * well-formed and its model's, each event once in a model, the seeds' counts, at least 90% of
 * each model's events bound, every name in the model's catalogs; every relation but the quiet
 * ones fails on a dead counter, the uncore ones on a runaway one too.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/catalog.h"
#include "tests/expect/seed.h"

/* The rows of every model, one after the other: how many, and row i. */
static unsigned all_nrows(void)
{
	unsigned n = 0;

	for (unsigned k = 0; k < events_nmodels; k++)
		n += events_models[k]->count;
	return n;
}

static const struct events_row *all_row(unsigned i)
{
	for (unsigned k = 0; k < events_nmodels; k++) {
		if (i < events_models[k]->count)
			return &events_models[k]->rows[i];
		i -= events_models[k]->count;
	}
	return NULL;
}

/* --- The relation language -------------------------------------------------------------- */

static void test_parse_eval(void **state)
{
	struct ev_vals x = { .v = 100, .ref = { 40, 30, 30 }, .n = 120, .uclk = 1000, .us = 10 };
	char why[160];
	unsigned uses;
	bool lo, hi;
	(void)state;

	assert_int_equal(ev_rel_parse("v >= 3/4 N; v <= 4 N + 4096", &uses, &lo, &hi, why,
				      sizeof(why)), 0);
	assert_int_equal(uses, EVV_V | EVV_N);
	assert_true(lo && hi);
	assert_true(ev_rel_eval("v >= 3/4 N; v <= 4 N + 4096", &x, why, sizeof(why)));
	assert_true(ev_rel_eval("v >= a + b + c - 1; v <= a + b + c", &x, why, sizeof(why)));
	assert_false(ev_rel_eval("v >= 100 T", &x, why, sizeof(why)));
	assert_string_equal(why, "v >= 100 T: 100 < 1000");
	assert_false(ev_rel_eval("v <= 1/16 N + 1", &x, why, sizeof(why)));
	assert_string_equal(why, "v <= 1/16 N + 1: 100 > 8");
	/* v on the right: "a >= v" bounds v from above */
	assert_int_equal(ev_rel_parse("a >= v; 16 v >= a", &uses, &lo, &hi, why, sizeof(why)), 0);
	assert_true(lo && hi);
	assert_true(ev_rel_eval("v - a >= 1/2 N; 64 v + 64 a >= c", &x, why, sizeof(why)));
	assert_true(ev_rel_eval("v >= 0; v <= U", &x, why, sizeof(why)));
	/* eight references, a..h */
	assert_int_equal(ev_rel_parse("v >= a + b + c + d + e + f + g + h", &uses, &lo, &hi, why,
				      sizeof(why)), 0);
	assert_int_equal(uses, EVV_V | EVV_REF(0) | EVV_REF(1) | EVV_REF(2) | EVV_REF(3) |
			 EVV_REF(4) | EVV_REF(5) | EVV_REF(6) | EVV_REF(7));
	/* malformed */
	assert_int_equal(ev_rel_parse("v >= ", &uses, &lo, &hi, why, sizeof(why)), -1);
	assert_int_equal(ev_rel_parse("v > 3", &uses, &lo, &hi, why, sizeof(why)), -1);
	assert_int_equal(ev_rel_parse("v >= 3/0 N", &uses, &lo, &hi, why, sizeof(why)), -1);
	assert_int_equal(ev_rel_parse("v >= 3/4", &uses, &lo, &hi, why, sizeof(why)), -1);
	assert_int_equal(ev_rel_parse("v >= x", &uses, &lo, &hi, why, sizeof(why)), -1);
	assert_int_equal(ev_rel_parse("v >= i", &uses, &lo, &hi, why, sizeof(why)), -1);
	assert_int_equal(ev_rel_parse("v >= 1, v <= 2", &uses, &lo, &hi, why, sizeof(why)), -1);
	assert_int_equal(ev_rel_parse("a >= N", &uses, &lo, &hi, why, sizeof(why)), -1);
	assert_int_equal(ev_rel_parse("v >= ab", &uses, &lo, &hi, why, sizeof(why)), -1);
	assert_int_equal(ev_rel_parse(NULL, &uses, &lo, &hi, why, sizeof(why)), -1);
	assert_false(ev_rel_eval("v >= ", &x, why, sizeof(why)));
}

/* The identity form the core rows use is |v - s| <= max(v, s) t/1000 + 64 (s the sum): with
 * t = 20, 49 v <= 50 s + 3200 and 50 v >= 49 s - 3200, over every v, s >= 0 near the edges. */
static void test_identity_form(void **state)
{
	const char *rel = "49 v <= 50 a + 3200; 50 v >= 49 a - 3200";
	unsigned mismatches = 0;
	(void)state;

	for (int64_t s = 0; s < 200000; s += 997)
		for (int64_t v = s - s / 40 - 80; v <= s + s / 40 + 80; v++) {
			struct ev_vals x = { .v = v, .ref = { s } };
			int64_t big = v > s ? v : s, d = v > s ? v - s : s - v;
			bool want = v >= 0 && d <= big * 20 / 1000 + 64;

			if (v < 0)
				continue;
			mismatches += ev_rel_eval(rel, &x, NULL, 0) != want;
		}
	assert_int_equal(mismatches, 0);
}

/* The bounds a relation puts on v, for results: exact, range, identity (solved for v). */
static void test_v_bounds(void **state)
{
	struct ev_vals x = { .n = 10000, .ref = { 500000, 100000 } };
	struct ev_bounds b;
	char buf[48];
	(void)state;

	assert_true(ev_rel_v_bounds("v >= 4 N; v <= 4 N", &x, &b));
	ev_bounds_fmt(&b, buf, sizeof(buf));
	assert_string_equal(buf, "40000");
	assert_true(ev_rel_v_bounds("v >= 9/10 N; v <= 11/10 N + 64", &x, &b));
	ev_bounds_fmt(&b, buf, sizeof(buf));
	assert_string_equal(buf, "9000..11064");
	assert_true(ev_rel_v_bounds("v >= 1/2 N", &x, &b));
	ev_bounds_fmt(&b, buf, sizeof(buf));
	assert_string_equal(buf, ">=5000");
	assert_true(ev_rel_v_bounds("v <= 1/100 N + 64; a >= N", &x, &b));
	ev_bounds_fmt(&b, buf, sizeof(buf));
	assert_string_equal(buf, "<=164");
	/* 99 v <= 100 (a - b) + 6400 and 100 v >= 99 (a - b) - 6400: 395936..404105 */
	assert_true(ev_rel_v_bounds("99 v <= 100 a - 100 b + 6400; 100 v >= 99 a - 99 b - 6400; "
				    "v >= 1 N", &x, &b));
	ev_bounds_fmt(&b, buf, sizeof(buf));
	assert_string_equal(buf, "395936..404105");
	assert_false(ev_rel_v_bounds("v >= ", &x, &b));
}

/* Over every case of the table: a v just outside the bounds fails the relation, and the
 * bounds themselves pass it whenever some v does. */
static void test_v_bounds_table(void **state)
{
	unsigned bad = 0;
	(void)state;

	for (unsigned i = 0; i < all_nrows(); i++)
		for (unsigned k = 0; k < events_ncases(all_row(i)); k++) {
			const char *rel = all_row(i)->c[k].rel;
			struct ev_vals x = { .n = 5000, .uclk = 1000000, .us = 500,
					     .ref = { 4000, 3000, 2000, 1000, 500, 400, 300, 200 } };
			struct ev_bounds b;

			if (!ev_rel_v_bounds(rel, &x, &b)) {
				bad++;
				continue;
			}
			if (b.has_lo) {
				x.v = b.lo - 1;
				bad += ev_rel_eval(rel, &x, NULL, 0);
			}
			if (b.has_hi) {
				x.v = b.hi + 1;
				bad += ev_rel_eval(rel, &x, NULL, 0);
			}
			if (b.has_lo && b.has_hi && b.lo <= b.hi) {
				bool any = false, at_lo, at_hi;

				for (int64_t v = b.lo; v <= b.hi && v < b.lo + 100; v++) {
					x.v = v;
					any |= ev_rel_eval(rel, &x, NULL, 0);
				}
				x.v = b.lo;
				at_lo = ev_rel_eval(rel, &x, NULL, 0);
				x.v = b.hi;
				at_hi = ev_rel_eval(rel, &x, NULL, 0);
				if (any && (!at_lo || !at_hi)) {
					printf("%s: bounds %lld..%lld not both passing\n", rel,
					       (long long)b.lo, (long long)b.hi);
					bad++;
				}
			}
		}
	assert_int_equal(bad, 0);
}

/* --- The table ------------------------------------------------------------------------- */

static uint64_t case_n(const struct ev_case *c)
{
	return ev_kernel_uncore(c->kernel) ? 50000 : events_iters(c->kernel, c->size);
}

static void test_rows_well_formed(void **state)
{
	unsigned bad = 0;
	(void)state;

	for (unsigned i = 0; i < all_nrows(); i++) {
		const struct events_row *r = all_row(i);
		const char *why;

		if (!events_row_ok(r, &why)) {
			printf("row %u %s.%s: %s\n", i, r->model, r->event, why);
			bad++;
			continue;
		}
		for (unsigned k = 0; k < events_ncases(r); k++) {
			const struct ev_case *c = &r->c[k];

			if (c->kernel == EVK_CHASE_COLD && c->size / 64 < 2) {
				printf("row %s.%s: cold chase too small\n", r->model, r->event);
				bad++;
			}
			for (unsigned j = 0; j < events_nrefs(c); j++) {
				if (!events_find(events_model_by_name(r->model), c->refs[j])) {
					printf("row %s.%s: reference %s is no seed event of %s\n", r->model,
					       r->event, c->refs[j], r->model);
					bad++;
				}
				if (!strcmp(c->refs[j], r->event)) {
					printf("row %s.%s references itself\n", r->model, r->event);
					bad++;
				}
			}
		}
		if (r->kind == EVR_CONTRAST && events_ncases(r) != 2) {
			printf("row %s.%s: a contrast needs two cases\n", r->model, r->event);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* Within a model each event once; every row names the model of its file. */
static void test_each_event_once_rows_of_their_model(void **state)
{
	unsigned bad = 0;
	(void)state;

	for (unsigned k = 0; k < events_nmodels; k++) {
		const struct events_model *m = events_models[k];

		for (unsigned i = 0; i < m->count; i++) {
			if (!m->rows[i].model || strcmp(m->rows[i].model, m->model)) {
				printf("%s.%s: in model %s's table\n", m->rows[i].model,
				       m->rows[i].event, m->model);
				bad++;
			}
			for (unsigned j = i + 1; j < m->count; j++)
				if (!strcmp(m->rows[i].event, m->rows[j].event)) {
					printf("%s.%s twice (rows %u, %u)\n", m->model,
					       m->rows[i].event, i, j);
					bad++;
				}
		}
		for (unsigned j = 0; j < k; j++)
			if (!strcmp(events_models[j]->model, m->model)) {
				printf("model %s twice\n", m->model);
				bad++;
			}
	}
	assert_int_equal(bad, 0);
}

/* The counts: seed 000's 430 distinct events by the rule of tests/expect/seed.h, seed
 * 001's 20. */
static void test_models_and_counts(void **state)
{
	(void)state;

	assert_int_equal(events_nmodels, 2);
	assert_non_null(events_model_by_name("nhm"));
	assert_int_equal(events_model_by_name("nhm")->count, 430);
	assert_int_equal(events_model_by_name("skl")->count, 20);
	assert_null(events_model_by_name("xyz"));
	assert_true(events_model_runs_on(events_model_by_name("nhm"), UARCH_WESTMERE));
	assert_false(events_model_runs_on(events_model_by_name("nhm"), UARCH_SKYLAKE));
	assert_true(events_model_runs_on(events_model_by_name("skl"), UARCH_KABY_LAKE));
}

/* At least 90% of each model's events bound to a relation (quiet rows counted, and shown,
 * apart). The table has no placeholders: enforced. */
static void test_coverage(void **state)
{
	unsigned short_of = 0;
	(void)state;

	for (unsigned k = 0; k < events_nmodels; k++) {
		const struct events_model *m = events_models[k];
		unsigned with = 0, quiet = 0, all = m->count;

		for (unsigned i = 0; i < m->count; i++) {
			with += m->rows[i].kind != EVR_NONE;
			quiet += m->rows[i].kind == EVR_QUIET;
			if (m->rows[i].why && strstr(m->rows[i].why, "not bound yet")) {
				printf("%s.%s: a placeholder\n", m->model, m->rows[i].event);
				short_of++;
			}
		}
		printf("coverage %s: %u of %u events have an expectation (%u.%u%%), %u of them quiet\n",
		       m->model, with, all, with * 100 / all, with * 1000 / all % 10, quiet);
		if (with * 10 < all * 9)
			short_of++;
	}
	assert_int_equal(short_of, 0);
}

/* Every name a row uses resolves in the model's catalogs, and every catalog a model names
 * is in the build. */
static void test_names_in_catalog(void **state)
{
	unsigned bad = 0;
	(void)state;

	for (unsigned k = 0; k < events_nmodels; k++)
		for (unsigned c = 0; c < EV_MAX_CATALOGS && events_models[k]->catalogs[c]; c++)
			if (!pmu_catalog_by_model(events_models[k]->catalogs[c])) {
				printf("model %s: no catalog %s\n", events_models[k]->model,
				       events_models[k]->catalogs[c]);
				bad++;
			}
	for (unsigned i = 0; i < all_nrows(); i++) {
		const struct events_row *r = all_row(i);
		const struct pmu_catalog *cats[EV_MAX_CATALOGS];
		const char *names[EV_MAX_CASES * EV_MAX_REFS + 1];
		unsigned nc = events_model_catalogs(events_model_by_name(r->model), cats,
						    EV_MAX_CATALOGS), nn = 0;

		names[nn++] = r->event;
		for (unsigned k = 0; k < events_ncases(r); k++)
			for (unsigned j = 0; j < events_nrefs(&r->c[k]); j++)
				names[nn++] = r->c[k].refs[j];
		for (unsigned t = 0; t < nn; t++)
			if (!pmu_catalog_find(cats, nc, names[t], NULL)) {
				printf("%s.%s: %s not in the catalog\n", r->model, r->event, names[t]);
				bad++;
			}
	}
	printf("%u names not in the catalog\n", bad);
	assert_int_equal(bad, 0);
}

/* Every expectation can fail: with every event counting 0 each row but the quiet ones fails
 * (its lower bound stands above zero), and every row bounds its event from above somewhere
 * unless it is a range or an identity open above. */
static void test_dead_counter_fails(void **state)
{
	unsigned bad = 0;
	(void)state;

	for (unsigned i = 0; i < all_nrows(); i++) {
		const struct events_row *r = all_row(i);
		bool fails = false;

		for (unsigned k = 0; k < events_ncases(r); k++) {
			struct ev_vals dead = { .n = (int64_t)case_n(&r->c[k]), .uclk = 10000000,
						.us = 5000 };

			fails |= !ev_rel_eval(r->c[k].rel, &dead, NULL, 0);
		}
		if (r->kind == EVR_NONE || r->kind == EVR_QUIET)
			continue;
		if (!fails) {
			printf("%s.%s (%s) passes with every counter dead\n", r->model, r->event,
			       ev_kind_name(r->kind));
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* A counter that counts the clock (or anything huge) fails every uncore row: an upper bound
 * that grows with v. */
static void test_runaway_uncore_fails(void **state)
{
	unsigned bad = 0;
	(void)state;

	for (unsigned i = 0; i < all_nrows(); i++) {
		const struct events_row *r = all_row(i);
		bool fails = false;

		if (r->kind == EVR_NONE || !ev_kernel_uncore(r->c[0].kernel))
			continue;
		for (unsigned k = 0; k < events_ncases(r); k++) {
			struct ev_vals x = { .n = 50000, .uclk = 10000000, .us = 5000 };

			for (unsigned j = 0; j < EV_MAX_REFS; j++)
				x.ref[j] = x.n;
			x.v = 1000 * x.uclk;
			fails |= !ev_rel_eval(r->c[k].rel, &x, NULL, 0);
		}
		if (!fails) {
			printf("%s.%s passes with a runaway count\n", r->model, r->event);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* Working sets past the L2: 2 MiB or twice leaf 4's L2, at most half the L3; skipped with
 * the sizes named otherwise; a size without the flag, or no leaf 4, is the size itself. */
static void test_ws_bytes(void **state)
{
	char err[256] = "";
	const uint32_t past = EV_PAST_L2 | 2u << 20;
	(void)state;

	assert_int_equal(events_ws_bytes(2u << 20, 4u << 20, 16u << 20, err, sizeof(err)), 2u << 20);
	assert_int_equal(events_ws_bytes(past, 0, 0, err, sizeof(err)), 2u << 20);
	assert_int_equal(events_ws_bytes(past, 256u << 10, 8u << 20, err, sizeof(err)), 2u << 20);
	assert_int_equal(events_ws_bytes(past, 4u << 20, 16u << 20, err, sizeof(err)), 8u << 20);
	assert_int_equal(events_ws_bytes(past, 256u << 10, 3u << 20, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "takes 2097152 bytes (2097152 or twice the L2 of 262144) and "
				    "needs an L3 of twice that: L3 3145728 bytes"));
	assert_int_equal(events_ws_bytes(past, 1u << 20, 0, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "L3 0 bytes"));
	assert_int_equal(events_iters(EVK_CHASE, past), (2u << 20) / 64);
	assert_int_equal(events_iters(EVK_CHASE_HITM, 65536), 512);
}

/* The workloads: each (EVK_NONE aside) runs a kernel of the kernel table; a core workload's
 * size is bytes exactly when its kernel is a memory kernel; the uncore ones say their size. */
static void test_workloads(void **state)
{
	(void)state;

	assert_string_equal(ev_kernel_name(EVK_NONE), "none");
	assert_string_equal(ev_kernel_name(EVK_COUNT), "?");
	assert_null(ev_workload(EVK_COUNT));
	for (unsigned k = EVK_NONE + 1; k < EVK_COUNT; k++) {
		const struct ev_workload *w = ev_workload(k);

		assert_non_null(w);
		assert_true(w->kernel < K_COUNT);
		if (ev_kernel_uncore(k)) {
			assert_non_null(w->size_text);
			assert_int_equal(w->iter_bytes, 0);
		} else {
			assert_null(w->size_text);
			assert_int_equal(w->iter_bytes != 0, kernel_memory(w->kernel));
		}
	}
	assert_int_equal(events_iters(EVK_CHASE_COLD, 8u << 20), EV_COLD_STEPS);
	assert_int_equal(events_iters(EVK_CHASE_COLD, 1u << 20), 8192);
	assert_int_equal(events_iters(EVK_CHASE_PAGE, 256u << 20), 65536);
	assert_int_equal(events_iters(EVK_STORE_SHARED, 65536), 1024);
	assert_int_equal(events_iters(EVK_DIV, 10000), 10000);
	assert_int_equal(events_iters(EVK_U_DRAM, 7), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_eval),
		cmocka_unit_test(test_ws_bytes),
		cmocka_unit_test(test_workloads),
		cmocka_unit_test(test_identity_form),
		cmocka_unit_test(test_v_bounds),
		cmocka_unit_test(test_v_bounds_table),
		cmocka_unit_test(test_rows_well_formed),
		cmocka_unit_test(test_each_event_once_rows_of_their_model),
		cmocka_unit_test(test_models_and_counts),
		cmocka_unit_test(test_coverage),
		cmocka_unit_test(test_names_in_catalog),
		cmocka_unit_test(test_dead_counter_fails),
		cmocka_unit_test(test_runaway_uncore_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
