/* SPDX-License-Identifier: MIT */
/*
 * Cross-checks of the event catalog against libpfm4 at test time: every generated entry
 * re-encoded by libpfm4, and every hand-written encoding libpfm4 also knows (the
 * architectural events, the seeds' aliases, the seed events with a libpfm4 twin); the seed
 * events libpfm4 lacks must really be absent from its table; the constraint, fixed-counter
 * and extra-MSR rows must each apply to events libpfm4 has and be what the tables carry.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <cmocka.h>
#include <perfmon/pfmlib.h>

#include "arch/x86/msr.h"
#include "pmu/catalog.h"
#include "tests/host/catalog_rules.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define EVTSEL_EDGE	(1ULL << 18)
#define EVTSEL_ANY	(1ULL << 21)
#define EVTSEL_INV	(1ULL << 23)

struct enc {
	uint8_t event, umask, cmask;
	uint16_t flags;		/* INV, EDGE, ANY */
	uint64_t extra;		/* codes[1] */
	int count;
};

/* libpfm4's encoding of str; false if it has none. */
static bool encode(const char *str, struct enc *e)
{
	pfm_pmu_encode_arg_t a;
	uint64_t c;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	if (pfm_get_os_event_encoding(str, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &a) != PFM_SUCCESS)
		return false;
	c = a.codes[0];
	e->event = c & 0xff;
	e->umask = (c >> 8) & 0xff;
	e->cmask = (c >> 24) & 0xff;
	e->flags = (c & EVTSEL_INV ? PMU_EVF_INV : 0) | (c & EVTSEL_EDGE ? PMU_EVF_EDGE : 0) |
		   (c & EVTSEL_ANY ? PMU_EVF_ANY : 0);
	e->extra = a.count > 1 ? a.codes[1] : 0;
	e->count = a.count;
	free(a.codes);
	return true;
}

#define BITS (PMU_EVF_INV | PMU_EVF_EDGE | PMU_EVF_ANY)

static void assert_same(const char *what, const struct pmu_event_def *d, const struct enc *e,
			bool extra)
{
	if (d->event != e->event || d->umask != e->umask || d->cmask != e->cmask ||
	    (d->flags & BITS) != e->flags || (extra && d->msr_value != e->extra))
		fail_msg("%s: catalog %s %02X/%02X cmask %u flags 0x%x msr 0x%llx, libpfm4 %02X/%02X "
			 "cmask %u flags 0x%x extra 0x%llx", what, d->name, d->event, d->umask,
			 d->cmask, d->flags & BITS, (unsigned long long)d->msr_value, e->event,
			 e->umask, e->cmask, e->flags, (unsigned long long)e->extra);
}

static const struct pmu_event_def *in_cat(const char *model, const char *name)
{
	const struct pmu_catalog *c = pmu_catalog_by_model(model);

	assert_non_null(c);
	return pmu_catalog_find(&c, 1, name, NULL);
}

static bool is_hand(const char *model, const char *name)
{
	for (unsigned i = 0; i < cat_nhand; i++)
		if (cat_model_in(cat_hand_events[i].models, model) &&
		    !strcmp(cat_hand_events[i].name, name))
			return true;
	for (unsigned i = 0; i < cat_naliases; i++)
		if (cat_model_in(cat_aliases[i].models, model) && !strcmp(cat_aliases[i].name, name))
			return true;
	for (unsigned i = 0; i < cat_nseed_events; i++)
		if (cat_model_in(cat_seed_events[i].models, model) &&
		    !strcmp(cat_seed_events[i].name, name))
			return true;
	return false;
}

/* Calls fn for each model name in the comma-separated list. */
static void each_model(const char *list, void (*fn)(const char *model, const void *row),
		       const void *row)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *save = NULL, *m = strtok_r(buf, ",", &save); m; m = strtok_r(NULL, ",", &save))
		fn(m, row);
}

/* Every generated entry under libpfm4's name encodes as the table says. */
static void test_generated_match_libpfm(void **state)
{
	unsigned checked = 0;

	(void)state;
#define CHECK(m, title, unit) {							\
		const struct pmu_catalog *c = &pmu_catalog_##m;			\
		for (unsigned k = 0; k < c->count; k++) {			\
			const struct pmu_event_def *d = &c->events[k];		\
			char str[256], *dot;					\
			struct enc e;						\
			snprintf(str, sizeof(str), "%s::%s", #m, d->name);	\
			dot = strchr(str + strlen(#m) + 2, '.');		\
			if (dot)						\
				*dot = ':';					\
			if (!encode(str, &e)) {					\
				if (!is_hand(#m, d->name))			\
					fail_msg("%s: libpfm4 cannot encode it", str); \
				continue;					\
			}							\
			if (d->event == 0 && d->fixed >= 0 && e.event == 0)	\
				e.umask = d->umask;	/* pseudo-encoding */	\
			assert_same(str, d, &e, d->msr != 0);			\
			checked++;						\
		}								\
	}
	PMU_CATALOG_GENERATED(CHECK)
#undef CHECK
	print_message("%u generated entries re-encoded by libpfm4\n", checked);
	assert_true(checked > 5000);
}

/* Table 18-1 against libpfm4's names of the same events (its ix86arch PMU is built from
 * CPUID, so the model tables are asked). */
static void test_arch_vs_libpfm(void **state)
{
	static const struct { const char *name, *pfm; } rows[] = {
		{ "UNHALTED_CORE_CYCLES", "skl::UNHALTED_CORE_CYCLES" },
		{ "INSTRUCTION_RETIRED", "skl::INSTRUCTION_RETIRED" },
		/* libpfm4's UNHALTED_REFERENCE_CYCLES is fixed counter 2's pseudo-encoding; Table
		 * 18-1's 3CH/01H is its CPU_CLK_THREAD_UNHALTED:REF_XCLK */
		{ "UNHALTED_REFERENCE_CYCLES", "skl::CPU_CLK_THREAD_UNHALTED:REF_XCLK" },
		{ "LLC_REFERENCES", "nhm::LLC_REFERENCES" },
		{ "LLC_MISSES", "nhm::LLC_MISSES" },
		{ "BRANCH_INSTRUCTIONS_RETIRED", "skl::BRANCH_INSTRUCTIONS_RETIRED" },
		{ "MISPREDICTED_BRANCH_RETIRED", "skl::MISPREDICTED_BRANCH_RETIRED" },
		{ "TOPDOWN_SLOTS", "icl::TOPDOWN:SLOTS_P" },
		{ "CPU_CLK_UNHALTED.REF_TSC", "icl::CPU_CLK_UNHALTED:REF_TSC" },
		{ "INST_RETIRED.ANY_P", "nhm::INST_RETIRED:ANY_P" },
		{ "LONGEST_LAT_CACHE.MISS", "skl::LONGEST_LAT_CACHE:MISS" },
		{ "LONGEST_LAT_CACHE.REFERENCE", "skl::LONGEST_LAT_CACHE:REFERENCE" },
		{ "BR_MISP_RETIRED.ALL_BRANCHES", "skl::BR_MISP_RETIRED:ALL_BRANCHES" },
	};

	(void)state;
	for (unsigned i = 0; i < N(rows); i++) {
		const struct pmu_event_def *d = in_cat("arch", rows[i].name);
		struct enc e;

		assert_non_null(d);
		assert_true(encode(rows[i].pfm, &e));
		assert_same(rows[i].pfm, d, &e, false);
	}
}

static void check_alias(const char *model, const void *row)
{
	const struct cat_alias *a = row;
	const struct pmu_event_def *d = in_cat(model, a->name);
	char str[256];
	struct enc e;

	if (!d)
		fail_msg("%s::%s not in the catalog", model, a->name);
	snprintf(str, sizeof(str), "%s::%s", model, a->pfm);
	if (!encode(str, &e))
		fail_msg("%s: libpfm4 cannot encode it", str);
	assert_same(str, d, &e, e.count > 1);
	if (a->msr_value && e.extra != a->msr_value)
		fail_msg("%s: extra 0x%llx, seed 0x%llx", str, (unsigned long long)e.extra,
			 (unsigned long long)a->msr_value);
}

static void test_aliases_vs_libpfm(void **state)
{
	(void)state;
	for (unsigned i = 0; i < cat_naliases; i++)
		each_model(cat_aliases[i].models, check_alias, &cat_aliases[i]);
}

/* Whether libpfm4's table for model has an event/umask with this exact encoding. */
static bool libpfm_has(const char *model, const struct cat_seed_event *r)
{
	pfm_pmu_info_t pinfo;
	int pmu = -1;

	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX && pmu < 0; p++) {
		memset(&pinfo, 0, sizeof(pinfo));
		pinfo.size = sizeof(pinfo);
		if (pfm_get_pmu_info(p, &pinfo) == PFM_SUCCESS && !strcmp(pinfo.name, model))
			pmu = p;
	}
	assert_true(pmu >= 0);
	for (int i = pinfo.first_event; i != -1; i = pfm_get_event_next(i)) {
		pfm_event_info_t ei;

		memset(&ei, 0, sizeof(ei));
		ei.size = sizeof(ei);
		assert_int_equal(pfm_get_event_info(i, PFM_OS_NONE, &ei), PFM_SUCCESS);
		for (int a = -1; a < ei.nattrs; a++) {
			pfm_event_attr_info_t ai;
			char str[256];
			struct enc e;

			if (a >= 0) {
				memset(&ai, 0, sizeof(ai));
				ai.size = sizeof(ai);
				if (pfm_get_event_attr_info(i, a, PFM_OS_NONE, &ai) != PFM_SUCCESS ||
				    ai.type != PFM_ATTR_UMASK)
					continue;
				snprintf(str, sizeof(str), "%s::%s:%s", model, ei.name, ai.name);
			} else {
				snprintf(str, sizeof(str), "%s::%s", model, ei.name);
			}
			if (encode(str, &e) && e.event == r->event && e.umask == r->umask &&
			    e.cmask == r->cmask && e.flags == (r->flags & BITS) &&
			    (e.count < 2 || e.extra == r->msr_value))
				return true;
		}
	}
	return false;
}

static void check_seed_event(const char *model, const void *row)
{
	const struct cat_seed_event *r = row;
	const struct pmu_event_def *d = in_cat(model, r->name);

	if (!d)
		fail_msg("%s::%s not in the catalog", model, r->name);
	if (d->event != r->event || d->umask != r->umask || d->cmask != r->cmask ||
	    d->msr != r->msr || d->msr_value != r->msr_value)
		fail_msg("%s::%s: the catalog does not carry the row", model, r->name);
	if (r->check) {
		struct enc e;

		if (!encode(r->check, &e))
			fail_msg("%s: libpfm4 cannot encode it", r->check);
		assert_same(r->check, d, &e, e.count > 1);
	} else if (libpfm_has(model, r)) {
		fail_msg("%s::%s: libpfm4 has this encoding; make it an alias", model, r->name);
	}
}

static void test_seed_events_vs_libpfm(void **state)
{
	(void)state;
	for (unsigned i = 0; i < cat_nseed_events; i++)
		each_model(cat_seed_events[i].models, check_seed_event, &cat_seed_events[i]);
}

static bool known_model(const char *m)
{
	return pmu_catalog_by_model(m) != NULL;
}

static void check_constraint(const char *model, const void *row)
{
	const struct cat_constraint *r = row;
	const struct pmu_catalog *c = pmu_catalog_by_model(model);
	unsigned hits = 0;

	if (!known_model(model))
		fail_msg("constraint row names unknown model %s", model);
	for (unsigned k = 0; k < c->count; k++) {
		const struct pmu_event_def *d = &c->events[k];
		const struct cat_constraint *first = NULL;

		if (d->event < r->first || d->event > r->last || (r->umask >= 0 && r->umask != d->umask))
			continue;
		for (unsigned i = 0; i < cat_nconstraints && !first; i++) {
			const struct cat_constraint *x = &cat_constraints[i];

			if (d->event >= x->first && d->event <= x->last &&
			    (x->umask < 0 || x->umask == d->umask) && cat_model_in(x->models, model))
				first = x;
		}
		if (first == r) {
			hits++;
			if (d->counters != r->counters)
				fail_msg("%s::%s counters 0x%x, row (%s) 0x%x", model, d->name,
					 d->counters, r->source, r->counters);
		}
	}
	(void)hits;	/* a row may name an event libpfm4 4.13 leaves out */
}

static void test_rules_sane(void **state)
{
	unsigned live = 0;

	(void)state;
	for (unsigned i = 0; i < cat_nconstraints; i++) {
		const struct cat_constraint *r = &cat_constraints[i];

		assert_true(r->first <= r->last);
		assert_true(r->counters && r->counters < (1U << 8));
		assert_non_null(r->source);
		each_model(r->models, check_constraint, r);
	}
	/* Most rows restrict events the tables have */
	for (unsigned i = 0; i < cat_nconstraints; i++) {
		const struct cat_constraint *r = &cat_constraints[i];
		char buf[256];

		snprintf(buf, sizeof(buf), "%s", r->models);
		const struct pmu_catalog *c = pmu_catalog_by_model(strtok(buf, ","));

		for (unsigned k = 0; k < c->count; k++)
			if (c->events[k].event >= r->first && c->events[k].event <= r->last &&
			    (r->umask < 0 || r->umask == c->events[k].umask)) {
				live++;
				break;
			}
	}
	print_message("%u of %u constraint rows restrict events the tables have\n", live,
		      cat_nconstraints);
	assert_true(live * 10 >= cat_nconstraints * 8);
	for (unsigned i = 0; i < cat_nfixed; i++) {
		assert_true(cat_fixed_encodings[i].fixed >= 0 && cat_fixed_encodings[i].fixed < 4);
		assert_non_null(cat_fixed_encodings[i].source);
	}
	for (unsigned i = 0; i < cat_nextras; i++) {
		const struct cat_extra *x = &cat_extras[i];
		char buf[256];

		assert_true(x->msr == MSR_OFFCORE_RSP_0 || x->msr == MSR_OFFCORE_RSP_1 ||
			    x->msr == MSR_PEBS_LD_LAT_THRESHOLD || x->msr == MSR_PEBS_FRONTEND);
		snprintf(buf, sizeof(buf), "%s", x->models);
		for (char *save = NULL, *m = strtok_r(buf, ",", &save); m;
		     m = strtok_r(NULL, ",", &save)) {
			const struct pmu_catalog *c = pmu_catalog_by_model(m);
			unsigned carried = 0;

			assert_non_null(c);
			for (unsigned k = 0; k < c->count; k++)
				if (c->events[k].event == x->event && c->events[k].umask == x->umask &&
				    (c->events[k].flags & x->flag) && c->events[k].msr == x->msr)
					carried++;
			if (!carried)
				fail_msg("%s: no %02X/%02X event carries MSR 0x%x", m, x->event, x->umask,
					 x->msr);
		}
	}
	/* Fixed-counter events: every core catalog has the three of Table 18-2 */
	for (unsigned i = 0; pmu_catalogs[i]; i++) {
		const struct pmu_catalog *c = pmu_catalogs[i];

		if (c->unit != PMU_UNIT_CORE)
			continue;
		for (int f = 0; f < 3; f++) {
			bool found = false;

			for (unsigned k = 0; k < c->count; k++)
				found |= c->events[k].fixed == f;
			if (!found)
				fail_msg("%s: nothing on fixed counter %d", c->model, f);
		}
	}
}

static int setup(void **state)
{
	(void)state;
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	return pfm_initialize() == PFM_SUCCESS ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	pfm_terminate();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generated_match_libpfm),
		cmocka_unit_test(test_arch_vs_libpfm),
		cmocka_unit_test(test_aliases_vs_libpfm),
		cmocka_unit_test(test_seed_events_vs_libpfm),
		cmocka_unit_test(test_rules_sane),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
