/* SPDX-License-Identifier: MIT */
/*
 * Host unit tests of the event catalog (pmu/catalog.c and the tables): catalogs per
 * microarchitecture, lookup in SDM and libpfm4 spellings, case and model prefix, unknown
 * names and nearest names, selectors and counter restrictions, the tables' integrity, the
 * architectural catalog against pmu/event.c's arch_events, the Skylake client uncore catalog
 * against pmu/uncore.c, Nehalem's uncore encodings against pmu/uncore.h, and every event name
 * of seed 000's tables resolving on Nehalem.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <strings.h>
#include <cmocka.h>

#include "arch/x86/msr.h"
#include "pmu/catalog.h"
#include "pmu/event.h"
#include "pmu/uncore.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static unsigned cats_for(enum pmu_uarch u, const struct pmu_catalog **c)
{
	return pmu_catalogs_for(u, c, 4);
}

static const struct pmu_event_def *find_in(enum pmu_uarch u, const char *name,
					   const struct pmu_catalog **which)
{
	const struct pmu_catalog *c[4];
	unsigned n = cats_for(u, c);

	return pmu_catalog_find(c, n, name, which);
}

static void test_catalogs_for(void **state)
{
	const struct pmu_catalog *c[4];
	unsigned n;

	(void)state;
	n = cats_for(UARCH_NEHALEM, c);
	assert_int_equal(n, 3);
	assert_string_equal(c[0]->model, "nhm");
	assert_string_equal(c[1]->model, "nhm_unc");
	assert_string_equal(c[2]->model, "arch");
	n = cats_for(UARCH_SKYLAKE, c);
	assert_int_equal(n, 3);
	assert_string_equal(c[0]->model, "skl");
	assert_string_equal(c[1]->model, "skl_unc");
	assert_string_equal(c[2]->model, "arch");
	n = cats_for(UARCH_WESTMERE, c);
	assert_int_equal(n, 3);
	assert_string_equal(c[1]->model, "wsm_unc");
	n = cats_for(UARCH_ICE_LAKE, c);
	assert_int_equal(n, 2);
	assert_string_equal(c[0]->model, "icl");
	/* No libpfm4 4.13 table: the architectural events only. */
	n = cats_for(UARCH_UNKNOWN, c);
	assert_int_equal(n, 1);
	assert_string_equal(c[0]->model, "arch");
	n = cats_for(UARCH_ALDER_LAKE, c);
	assert_int_equal(n, 1);
	/* max is respected */
	assert_int_equal(pmu_catalogs_for(UARCH_NEHALEM, c, 1), 1);
	assert_string_equal(c[0]->model, "nhm");
	assert_int_equal(pmu_catalogs_for(UARCH_NEHALEM, c, 0), 0);
}

static void test_by_model(void **state)
{
	unsigned n = 0;

	(void)state;
	assert_non_null(pmu_catalog_by_model("nhm"));
	assert_string_equal(pmu_catalog_by_model("SKL_UNC")->model, "skl_unc");
	assert_null(pmu_catalog_by_model("nope"));
	assert_null(pmu_catalog_by_model(""));
	assert_null(pmu_catalog_by_model(NULL));
	for (unsigned i = 0; pmu_catalogs[i]; i++, n++)
		assert_ptr_equal(pmu_catalog_by_model(pmu_catalogs[i]->model), pmu_catalogs[i]);
	assert_int_equal(n, 22);	/* arch, 20 generated, skl_unc */
}

static void test_find_spellings(void **state)
{
	const struct pmu_catalog *w;
	const struct pmu_event_def *d, *e;

	(void)state;
	d = find_in(UARCH_SKYLAKE, "MEM_LOAD_RETIRED.L3_MISS", &w);
	assert_non_null(d);
	assert_string_equal(w->model, "skl");
	assert_int_equal(d->event, 0xd1);
	assert_int_equal(d->umask, 0x20);
	assert_true(d->flags & PMU_EVF_PEBS);
	static const char *const same[] = {
		"mem_load_retired.l3_miss", "MEM_LOAD_RETIRED:L3_MISS", "skl::MEM_LOAD_RETIRED:L3_MISS",
		"SKL::mem_load_retired.L3_miss", "Mem_Load_Retired:l3_Miss",
	};
	for (unsigned i = 0; i < N(same); i++) {
		e = find_in(UARCH_SKYLAKE, same[i], &w);
		assert_ptr_equal(e, d);
	}
	/* A prefix naming a catalog not searched finds nothing (no other model's encoding). */
	assert_null(find_in(UARCH_SKYLAKE, "nhm::MEM_LOAD_RETIRED.L3_MISS", &w));
	assert_null(w);
	assert_null(find_in(UARCH_SKYLAKE, "nosuch::MEM_LOAD_RETIRED.L3_MISS", NULL));
	/* The prefix selects among the catalogs searched */
	d = find_in(UARCH_SKYLAKE, "arch::INST_RETIRED.ANY", &w);
	assert_non_null(d);
	assert_string_equal(w->model, "arch");
	d = find_in(UARCH_SKYLAKE, "INST_RETIRED.ANY", &w);
	assert_string_equal(w->model, "skl");
	assert_int_equal(d->fixed, 0);
	/* Multi-level SDM names against libpfm4's one-level unit masks, either separator. */
	d = find_in(UARCH_NEHALEM, "L2_DATA_RQSTS.DEMAND.E_STATE", &w);
	assert_non_null(d);
	assert_string_equal(w->model, "nhm");
	assert_int_equal(d->event, 0x26);
	assert_int_equal(d->umask, 0x04);
	assert_ptr_equal(find_in(UARCH_NEHALEM, "l2_data_rqsts:demand:e_state", NULL), d);
	assert_ptr_equal(find_in(UARCH_NEHALEM, "L2_DATA_RQSTS:DEMAND_E_STATE", NULL), d);
	d = find_in(UARCH_NEHALEM, "UNC_IMC_WRITES.FULL.ANY", &w);
	assert_non_null(d);
	assert_string_equal(w->model, "nhm_unc");
	assert_int_equal(d->event, UNC_IMC_WRITES);
	assert_int_equal(d->umask, UNC_IMC_WRITES_FULL_ANY);
	/* An event named alone: libpfm4's default unit mask */
	d = find_in(UARCH_SKYLAKE, "INST_RETIRED", NULL);
	assert_non_null(d);
	assert_string_equal(d->name, "INST_RETIRED.ANY_P");
	d = find_in(UARCH_SKYLAKE, "br_inst_retired", NULL);
	assert_non_null(d);
	assert_string_equal(d->name, "BR_INST_RETIRED.ALL_BRANCHES");
	/* An event without unit masks */
	d = find_in(UARCH_NEHALEM, "UNC_CLK_UNHALTED", &w);
	assert_non_null(d);
	assert_int_equal(d->unit, PMU_UNIT_NHM_UNC);
	/* Seed 001 names on Skylake */
	d = find_in(UARCH_SKYLAKE, "UNC_CBO_CACHE_LOOKUP.ANY_MESI", &w);
	assert_non_null(d);
	assert_string_equal(w->model, "skl_unc");
	assert_int_equal(d->unit, PMU_UNIT_SKL_CBO);
}

static void test_find_unknown(void **state)
{
	const struct pmu_catalog *w = (const void *)1;
	const struct pmu_catalog *c[4];
	unsigned n = cats_for(UARCH_SKYLAKE, c);

	(void)state;
	assert_null(pmu_catalog_find(c, n, "MEM_LOAD_RETIRED.L4_MISS", &w));
	assert_null(w);
	assert_null(pmu_catalog_find(c, n, "", NULL));
	assert_null(pmu_catalog_find(c, n, "skl::", NULL));
	assert_null(pmu_catalog_find(c, n, "::", NULL));
	assert_null(pmu_catalog_find(c, n, "MEM_LOAD_RETIRED.", NULL));
	assert_null(pmu_catalog_find(c, n, ".L3_MISS", NULL));
	assert_null(pmu_catalog_find(c, n, NULL, NULL));
	assert_null(pmu_catalog_find(NULL, 0, "INST_RETIRED.ANY", NULL));
	assert_null(pmu_catalog_find(c, 0, "INST_RETIRED.ANY", NULL));
	/* A NULL catalog in the list is skipped */
	c[0] = NULL;
	assert_non_null(pmu_catalog_find(c, n, "INST_RETIRED.ANY", NULL));
	/* A very long prefix is an unknown model, not an overflow */
	assert_null(pmu_catalog_find(c, n, "a_model_name_far_longer_than_any_buffer_would_hold::"
				     "INST_RETIRED.ANY", NULL));
}

/* The one MODEL::EVENT parser: the prefix up to the first "::", cut to the buffer. */
static void test_split_model(void **state)
{
	char buf[8];
	const char *model = (const void *)1;

	(void)state;
	assert_string_equal(pmu_catalog_split_model("skl::A.B:u", buf, sizeof(buf), &model), "A.B:u");
	assert_string_equal(model, "skl");
	assert_string_equal(pmu_catalog_split_model("A.B:u", buf, sizeof(buf), &model), "A.B:u");
	assert_null(model);
	assert_string_equal(pmu_catalog_split_model("::A", buf, sizeof(buf), &model), "A");
	assert_string_equal(model, "");
	assert_string_equal(pmu_catalog_split_model("a::b::c", buf, sizeof(buf), &model), "b::c");
	assert_string_equal(model, "a");
	assert_string_equal(pmu_catalog_split_model("longer_than_8::X", buf, sizeof(buf), &model),
			    "X");
	assert_string_equal(model, "longer_");
}

static void test_suggest(void **state)
{
	const struct pmu_catalog *c[4];
	unsigned n = cats_for(UARCH_SKYLAKE, c), k, k2;
	const char *out[5], *out2[5];

	(void)state;
	k = pmu_catalog_suggest(c, n, "MEM_LOAD_RETIRED.L3_MIS", out, 5);
	assert_true(k >= 1);
	assert_string_equal(out[0], "MEM_LOAD_RETIRED.L3_MISS");
	/* Deterministic, no name twice */
	k2 = pmu_catalog_suggest(c, n, "MEM_LOAD_RETIRED.L3_MIS", out2, 5);
	assert_int_equal(k, k2);
	for (unsigned i = 0; i < k; i++) {
		assert_ptr_equal(out[i], out2[i]);
		for (unsigned j = 0; j < i; j++)
			assert_true(strcasecmp(out[i], out[j]));
	}
	/* A Nehalem name on Skylake: its Skylake spelling among the nearest (L1_MISS, L2_MISS
	 * and L3_MISS are each two edits away: table order) */
	k = pmu_catalog_suggest(c, n, "MEM_LOAD_RETIRED.LLC_MISS", out, 3);
	assert_int_equal(k, 3);
	assert_string_equal(out[0], "MEM_LOAD_RETIRED.L1_MISS");
	assert_string_equal(out[1], "MEM_LOAD_RETIRED.L2_MISS");
	assert_string_equal(out[2], "MEM_LOAD_RETIRED.L3_MISS");
	/* Case and libpfm4's separator do not count as edits */
	k = pmu_catalog_suggest(c, n, "mem_load_retired:l3_mis", out, 1);
	assert_int_equal(k, 1);
	assert_string_equal(out[0], "MEM_LOAD_RETIRED.L3_MISS");
	/* The prefix limits the search */
	k = pmu_catalog_suggest(c, n, "skl_unc::UNC_CBO_CACHE_LOOKUP.ANY_MES", out, 5);
	assert_true(k >= 1);
	assert_string_equal(out[0], "UNC_CBO_CACHE_LOOKUP.ANY_MESI");
	for (unsigned i = 0; i < k; i++)
		assert_non_null(pmu_catalog_find(&c[1], 1, out[i], NULL));
	/* Nothing near: nothing suggested */
	assert_int_equal(pmu_catalog_suggest(c, n, "QQQQQQQQQQQQQQQQQQQQ", out, 5), 0);
	assert_int_equal(pmu_catalog_suggest(c, n, "MEM_LOAD_RETIRED.L3_MIS", out, 0), 0);
	assert_int_equal(pmu_catalog_suggest(c, n, NULL, out, 5), 0);
	/* max beyond the internal bound is clamped, not overrun */
	{
		const char *many[40];

		k = pmu_catalog_suggest(c, n, "BR_INST_RETIRED.COND", many, 40);
		assert_true(k >= 1 && k <= 40);
		assert_string_equal(many[0], "BR_INST_RETIRED.COND");
	}
}

static void test_evtsel(void **state)
{
	const struct pmu_event_def *d;
	struct pmu_evtsel e;

	(void)state;
	/* nhm UOPS_ISSUED.STALL_CYCLES: 0EH/01H CMASK 1 INV (seed 000 Table 1) */
	d = find_in(UARCH_NEHALEM, "UOPS_ISSUED.STALL_CYCLES", NULL);
	assert_non_null(d);
	e = pmu_catalog_evtsel(d, true, true);
	assert_int_equal(e.event, 0x0e);
	assert_int_equal(e.umask, 0x01);
	assert_int_equal(e.cmask, 1);
	assert_true(e.inv);
	assert_false(e.edge);
	assert_true(e.en);
	assert_false(e.intr);
	assert_int_equal(pmu_evtsel_encode(&e), 0x01c3010eULL);
	e = pmu_catalog_evtsel(d, true, false);
	assert_int_equal(pmu_evtsel_encode(&e), 0x01c1010eULL);
	/* AnyThread and EDGE */
	d = find_in(UARCH_NEHALEM, "UOPS_EXECUTED.CORE_STALL_COUNT", NULL);
	assert_non_null(d);
	e = pmu_catalog_evtsel(d, false, true);
	assert_true(e.any && e.edge && e.inv);
	assert_int_equal(pmu_evtsel_encode(&e), 0x01e63fb1ULL);
	/* Offcore response and load latency carry their MSR */
	d = find_in(UARCH_NEHALEM, "OFFCORE_RESPONSE_0.DATA_IN.LOCAL_DRAM", NULL);
	assert_non_null(d);
	assert_true(d->flags & PMU_EVF_OFFCORE);
	assert_int_equal(d->msr, MSR_OFFCORE_RSP_0);
	assert_int_equal(d->msr_value, 0x4033);
	d = find_in(UARCH_NEHALEM, "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_10", NULL);
	assert_non_null(d);
	assert_true(d->flags & PMU_EVF_LDLAT);
	assert_int_equal(d->msr, MSR_PEBS_LD_LAT_THRESHOLD);
	assert_int_equal(d->msr_value, 16);
	d = find_in(UARCH_SKYLAKE, "FRONTEND_RETIRED.DSB_MISS", NULL);
	assert_non_null(d);
	assert_true(d->flags & PMU_EVF_FRONTEND);
	assert_int_equal(d->msr, MSR_PEBS_FRONTEND);
	assert_int_equal(d->msr_value, 0x11);	/* seed 003: DSB_MISS sub-event 11H */
	d = find_in(UARCH_NEHALEM, "UNC_GQ_SNOOP.GOTO_I_HIT_F", NULL);
	assert_non_null(d);
	assert_true(d->flags & PMU_EVF_MATCH);
	assert_int_equal(d->msr, MSR_GQ_SNOOP_MESF);
	assert_int_equal(d->msr_value, 0x80);
}

static void test_counters_and_fixed(void **state)
{
	const struct pmu_event_def *d;

	(void)state;
	/* Nehalem L1D_CACHE_LD: counters 0 and 1 (Linux intel_nehalem_event_constraints) */
	d = find_in(UARCH_NEHALEM, "L1D_CACHE_LD.MESI", NULL);
	assert_non_null(d);
	assert_int_equal(d->counters, 0x3);
	assert_true(pmu_catalog_counter_ok(d, 0));
	assert_true(pmu_catalog_counter_ok(d, 1));
	assert_false(pmu_catalog_counter_ok(d, 2));
	assert_false(pmu_catalog_counter_ok(d, 40));
	/* unrestricted */
	d = find_in(UARCH_NEHALEM, "UOPS_ISSUED.ANY", NULL);
	assert_int_equal(d->counters, 0);
	assert_true(pmu_catalog_counter_ok(d, 3));
	assert_true(pmu_catalog_counter_ok(d, 7));
	/* Skylake MEM_LOAD_RETIRED: counters 0-3 */
	d = find_in(UARCH_SKYLAKE, "MEM_LOAD_RETIRED.L1_HIT", NULL);
	assert_int_equal(d->counters, 0xf);
	/* Fixed counters */
	assert_int_equal(find_in(UARCH_NEHALEM, "INST_RETIRED.ANY", NULL)->fixed, 0);
	assert_int_equal(find_in(UARCH_NEHALEM, "CPU_CLK_UNHALTED.THREAD", NULL)->fixed, 1);
	d = find_in(UARCH_NEHALEM, "CPU_CLK_UNHALTED.REF", NULL);
	assert_int_equal(d->fixed, 2);
	assert_int_equal(d->event, 0);
	assert_false(pmu_catalog_counter_ok(d, 0));	/* fixed counter 2 only */
	assert_int_equal(find_in(UARCH_SKYLAKE, "CPU_CLK_UNHALTED.REF_TSC", NULL)->fixed, 2);
	d = find_in(UARCH_ICE_LAKE, "TOPDOWN.SLOTS", NULL);
	assert_int_equal(d->fixed, 3);
	assert_false(pmu_catalog_counter_ok(d, 0));
	assert_int_equal(find_in(UARCH_NEHALEM, "UOPS_ISSUED.ANY", NULL)->fixed, -1);
	/* Skylake uncore: ARB occupancy on counter 0 only (seed 001 Table 3-2) */
	d = find_in(UARCH_SKYLAKE, "UNC_ARB_TRK_OCCUPANCY.ALL", NULL);
	assert_int_equal(d->counters, 0x1);
	assert_false(pmu_catalog_counter_ok(d, 1));
}

/* Skylake's FRONTEND_RETIRED sub-events (libpfm4's MSR_PEBS_FRONTEND values) against seed
 * 003_96ceb334bbe99654.txt Table 18-58 and the IDQ_READ_BUBBLES fields of arch/x86/msr.h. */
static void test_frontend_seed003(void **state)
{
	static const struct { const char *name; uint64_t value; } rows[] = {
		{ "FRONTEND_RETIRED.DSB_MISS", 0x11 },
		{ "FRONTEND_RETIRED.L1I_MISS", 0x12 },
		{ "FRONTEND_RETIRED.L2_MISS", 0x13 },
		{ "FRONTEND_RETIRED.ITLB_MISS", 0x14 },
		{ "FRONTEND_RETIRED.STLB_MISS", 0x15 },
		/* IDQ_READ_BUBBLES (6H), latency 1, 4 bubbles */
		{ "FRONTEND_RETIRED.IDQ_4_BUBBLES",
		  0x6 | 1ULL << PEBS_FRONTEND_IDQ_BUBBLE_LEN_SHIFT |
			  4ULL << PEBS_FRONTEND_IDQ_BUBBLE_WIDTH_SHIFT },
	};

	(void)state;
	for (unsigned i = 0; i < N(rows); i++) {
		const struct pmu_event_def *d = find_in(UARCH_SKYLAKE, rows[i].name, NULL);

		assert_non_null(d);
		assert_int_equal(d->event, 0xc6);
		assert_int_equal(d->umask, 0x01);
		assert_true(d->flags & PMU_EVF_FRONTEND);
		assert_int_equal(d->msr, MSR_PEBS_FRONTEND);
		assert_int_equal(d->msr_value, rows[i].value);
		assert_int_equal(d->msr_value & PEBS_FRONTEND_EVTSEL, rows[i].value & 0xff);
	}
}

/* Every catalog: names upper case and unique, aliases followed by their event, units set,
 * at most one default unit mask per event. */
static void test_integrity(void **state)
{
	(void)state;
	for (unsigned i = 0; pmu_catalogs[i]; i++) {
		const struct pmu_catalog *c = pmu_catalogs[i];

		assert_non_null(c->title);
		assert_non_null(c->source);
		assert_true(c->count > 0);	/* libpfm4 4.13 has every PMU of the list */
		for (unsigned k = 0; k < c->count; k++) {
			const struct pmu_event_def *d = &c->events[k];

			assert_non_null(d->name);
			assert_true(d->name[0]);
			for (const char *p = d->name; *p; p++)
				if (*p >= 'a' && *p <= 'z')
					fail_msg("%s: %s is not upper case", c->model, d->name);
			if (d->unit != c->unit && strcmp(c->model, "skl_unc"))
				fail_msg("%s: %s unit %u", c->model, d->name, d->unit);
			for (unsigned j = 0; j < k; j++)
				if (!strcasecmp(c->events[j].name, d->name))
					fail_msg("%s: %s twice", c->model, d->name);
			if (d->flags & PMU_EVF_ALIAS) {
				unsigned j = k + 1;

				while (j < c->count && (c->events[j].flags & PMU_EVF_ALIAS))
					j++;
				if (j == c->count)
					fail_msg("%s: alias %s ends the table", c->model, d->name);
				const struct pmu_event_def *t = &c->events[j];
				if (t->event != d->event || t->umask != d->umask || t->cmask != d->cmask ||
				    t->msr_value != d->msr_value ||
				    (t->flags ^ d->flags) & (PMU_EVF_INV | PMU_EVF_EDGE | PMU_EVF_ANY))
					fail_msg("%s: alias %s differs from %s", c->model, d->name, t->name);
			}
			if ((d->flags & (PMU_EVF_OFFCORE | PMU_EVF_LDLAT | PMU_EVF_FRONTEND |
					 PMU_EVF_MATCH)) && !d->msr)
				fail_msg("%s: %s needs an MSR and names none", c->model, d->name);
			if (d->flags & PMU_EVF_DEFAULT) {
				size_t len = strcspn(d->name, ".");

				for (unsigned j = 0; j < k; j++)
					if ((c->events[j].flags & PMU_EVF_DEFAULT) &&
					    !strncmp(c->events[j].name, d->name, len + 1))
						fail_msg("%s: two defaults for %.*s", c->model, (int)len,
							 d->name);
			}
		}
	}
}

/* The architectural catalog and pmu/event.c's arch_events are two copies of Table 18-1. */
static void test_arch_agrees(void **state)
{
	static const char *const table_name[NR_ARCH_EVENTS] = {
		[ARCH_EVENT_CORE_CYCLES] = "UNHALTED_CORE_CYCLES",
		[ARCH_EVENT_INSTRUCTIONS] = "INSTRUCTION_RETIRED",
		[ARCH_EVENT_REF_CYCLES] = "UNHALTED_REFERENCE_CYCLES",
		[ARCH_EVENT_LLC_REFERENCES] = "LLC_REFERENCES",
		[ARCH_EVENT_LLC_MISSES] = "LLC_MISSES",
		[ARCH_EVENT_BRANCHES] = "BRANCH_INSTRUCTIONS_RETIRED",
		[ARCH_EVENT_BRANCH_MISSES] = "MISPREDICTED_BRANCH_RETIRED",
		[ARCH_EVENT_TOPDOWN_SLOTS] = "TOPDOWN_SLOTS",
	};
	const struct pmu_catalog *a = &pmu_catalog_arch;
	unsigned events = 0;

	(void)state;
	for (int i = 0; i < NR_ARCH_EVENTS; i++) {
		const struct pmu_event_def *d = pmu_catalog_find(&a, 1, table_name[i], NULL);

		assert_non_null(d);
		assert_false(d->flags & PMU_EVF_ALIAS);
		assert_int_equal(d->event, arch_events[i].event);
		assert_int_equal(d->umask, arch_events[i].umask);
		assert_int_equal(d->fixed, arch_events[i].fixed);
		assert_int_equal(d->cmask, 0);
		assert_int_equal(d->counters, 0);
	}
	for (unsigned k = 0; k < a->count; k++)
		events += !(a->events[k].flags & PMU_EVF_ALIAS);
	assert_int_equal(events, NR_ARCH_EVENTS + 1);	/* and fixed counter 2's own */
}

/* The Skylake client uncore catalog against pmu/uncore.c (the same seed 001 tables). */
static void test_skl_unc_agrees(void **state)
{
	static const char *const seed001[] = {
		"UNC_CBO_XSNP_RESPONSE.MISS_XCORE", "UNC_CBO_XSNP_RESPONSE.MISS_EVICTION",
		"UNC_CBO_XSNP_RESPONSE.HIT_XCORE", "UNC_CBO_XSNP_RESPONSE.HITM_XCORE",
		"UNC_CBO_CACHE_LOOKUP.WRITE_M", "UNC_CBO_CACHE_LOOKUP.ANY_M",
		"UNC_CBO_CACHE_LOOKUP.READ_I", "UNC_CBO_CACHE_LOOKUP.ANY_I",
		"UNC_CBO_CACHE_LOOKUP.READ_MESI", "UNC_CBO_CACHE_LOOKUP.WRITE_MESI",
		"UNC_CBO_CACHE_LOOKUP.ANY_MESI", "UNC_CBO_CACHE_LOOKUP.ANY_ES",
		"UNC_CBO_CACHE_LOOKUP.READ_ES", "UNC_CBO_CACHE_LOOKUP.WRITE_ES",
		"UNC_ARB_TRK_OCCUPANCY.ALL", "UNC_ARB_TRK_REQUESTS.ALL", "UNC_ARB_TRK_REQUESTS.WRITES",
		"UNC_ARB_COH_TRK_REQUESTS.ALL", "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST",
		"UNC_CLOCK.SOCKET", "DRAM_GT_REQUESTS", "DRAM_IA_REQUESTS", "DRAM_IO_REQUESTS",
		"DRAM_DATA_READS", "DRAM_DATA_WRITES",
	};
	const struct pmu_catalog *c = &pmu_catalog_skl_unc;

	(void)state;
	assert_int_equal(c->count, N(seed001));
	for (unsigned i = 0; i < N(seed001); i++)
		assert_non_null(pmu_catalog_find(&c, 1, seed001[i], NULL));
	for (unsigned k = 0; k < c->count; k++) {
		const struct pmu_event_def *d = &c->events[k];

		switch (d->unit) {
		case PMU_UNIT_SKL_CBO:
			assert_int_equal(d->counters,
					 uncore_event_counters(UNCORE_SKL, UNC_BOX_CBO, d->event, d->umask));
			break;
		case PMU_UNIT_SKL_ARB:
			assert_int_equal(d->counters,
					 uncore_event_counters(UNCORE_SKL, UNC_BOX_ARB, d->event, d->umask));
			break;
		case PMU_UNIT_SKL_UCLK:
			assert_int_equal(d->fixed, 0);
			break;
		case PMU_UNIT_SKL_IMC:
			assert_string_equal(uncore_imc_name((enum uncore_imc_ctr)d->fixed), d->name);
			assert_int_equal(uncore_imc_offset((enum uncore_imc_ctr)d->fixed), d->msr_value);
			assert_false(pmu_catalog_counter_ok(d, 0));
			break;
		default:
			fail_msg("%s: unit %u", d->name, d->unit);
		}
	}
}

/* Nehalem's uncore encodings pmu/uncore.h uses, against the catalog. */
static void test_nhm_unc_agrees(void **state)
{
	static const struct { const char *name; uint8_t event, umask; } rows[] = {
		{ "UNC_GQ_TRACKER_OCCUP.RT", UNC_GQ_TRACKER_OCCUP, UNC_GQ_RT },
		{ "UNC_GQ_TRACKER_OCCUP.RT_LLC_MISS", UNC_GQ_TRACKER_OCCUP, UNC_GQ_RT_LLC_MISS },
		{ "UNC_GQ_TRACKER_OCCUP.WT", UNC_GQ_TRACKER_OCCUP, UNC_GQ_WT },
		{ "UNC_GQ_ALLOC.RT", UNC_GQ_ALLOC, UNC_GQ_RT },
		{ "UNC_GQ_ALLOC.RT_LLC_MISS", UNC_GQ_ALLOC, UNC_GQ_RT_LLC_MISS },
		{ "UNC_GQ_ALLOC.WT", UNC_GQ_ALLOC, UNC_GQ_WT },
		{ "UNC_IMC_NORMAL_READS.ANY", UNC_IMC_NORMAL_READS, UNC_IMC_NORMAL_READS_ANY },
		{ "UNC_IMC_WRITES.FULL.ANY", UNC_IMC_WRITES, UNC_IMC_WRITES_FULL_ANY },
	};

	(void)state;
	for (unsigned i = 0; i < N(rows); i++) {
		const struct pmu_catalog *w;
		const struct pmu_event_def *d = find_in(UARCH_NEHALEM, rows[i].name, &w);

		assert_non_null(d);
		assert_string_equal(w->model, "nhm_unc");
		assert_int_equal(d->event, rows[i].event);
		assert_int_equal(d->umask, rows[i].umask);
	}
	assert_int_equal(find_in(UARCH_NEHALEM, "UNC_IMC_NORMAL_OCCUPANCY.CH0", NULL)->event,
			 UNC_IMC_NORMAL_OCCUPANCY);
}

/*
 * Every event name of seed 000_666bff9af8f20138.txt (its tables and the text around them),
 * with the tables' line wraps joined ("MEM_LOAD_RETIRED.LLC _MISS", "UOPS_RETIRED.ACTIVE_ /
 * CYCLES"), resolves by the seed's spelling on Nehalem. Left out: the wrap fragments
 * themselves, "X" placeholders (UNC_GQ_ALLOC.X), the OFFCORE_RESPONSE_0.REQUEST.RESPONSE
 * pattern and prose that names no event (L1D_CACHE.STORE, LBR.A).
 */
static const char *const seed000[] = {
	"ARITH.CYCLES_DIV_BUSY", "ARITH.DIV", "ARITH.MUL", "BACLEAR.BAD_TARGET", "BACLEAR.CLEAR",
	"BPU_CLEARS.EARLY", "BPU_CLEARS.LATE", "BR_INST_EXEC.ANY", "BR_INST_EXEC.COND",
	"BR_INST_EXEC.DIRECT", "BR_INST_EXEC.DIRECT_NEAR_CALL", "BR_INST_EXEC.INDIRECT_NEAR_CALL",
	"BR_INST_EXEC.INDIRECT_NON_CALL", "BR_INST_EXEC.NEAR_CALLS", "BR_INST_EXEC.NON_CALLS",
	"BR_INST_EXEC.RETURN_NEAR", "BR_INST_EXEC.TAKEN", "BR_INST_RETIRED.ALL_BRANCHES",
	"BR_INST_RETIRED.CONDITIONAL", "BR_INST_RETIRED.NEAR_CALL", "BR_MISP_EXEC.ANY",
	"BR_MISP_EXEC.COND", "BR_MISP_EXEC.DIRECT", "BR_MISP_EXEC.DIRECT_NEAR_CALL",
	"BR_MISP_EXEC.INDIRECT_NEAR_CALL", "BR_MISP_EXEC.INDIRECT_NON_CALL",
	"BR_MISP_EXEC.NEAR_CALLS", "BR_MISP_EXEC.NON_CALLS", "BR_MISP_EXEC.RETURN_NEAR",
	"BR_MISP_EXEC.TAKEN", "CPU_CLK_UNHALTED.REF", "CPU_CLK_UNHALTED.REF_P",
	"CPU_CLK_UNHALTED.THREAD", "CPU_CLK_UNHALTED.THREAD_P", "DTLB_LOAD_MISSES.ANY",
	"DTLB_LOAD_MISSES.LARGE_WALK_COMPLETED", "DTLB_LOAD_MISSES.PDE_MISS",
	"DTLB_LOAD_MISSES.PDP_MISS", "DTLB_LOAD_MISSES.PMH_BUSY_CYCLES",
	"DTLB_LOAD_MISSES.STLB_HIT", "DTLB_LOAD_MISSES.WALK_COMPLETED", "DTLB_MISSES.ANY",
	"DTLB_MISSES.LARGE_WALK_COMPLETED", "DTLB_MISSES.PDE_MISS", "DTLB_MISSES.PDP_MISS",
	"DTLB_MISSES.PMH_BUSY_CYCLES", "DTLB_MISSES.STLB_HIT", "DTLB_MISSES.WALK_COMPLETED",
	"FP_ASSIST.ANY", "FP_ASSIST.INPUT", "FP_ASSIST.OUTPUT", "IFU_IVC.FULL",
	"IFU_IVC.L1I_EVICTION", "ILD_STALL.ANY", "ILD_STALL.IQ_FULL", "ILD_STALL.LCP",
	"ILD_STALL.MRU", "ILD_STALL.REGEN", "INST_DECODED.DEC0", "INST_RETIRED.ANY",
	"INST_RETIRED.ANY_P", "INST_RETIRED.MMX", "INST_RETIRED.TOTAL_CYCLES", "INST_RETIRED.X87",
	"ITLB_MISSES.ANY", "ITLB_MISSES.LARGE_WALK_COMPLETED", "ITLB_MISSES.PDE_MISS",
	"ITLB_MISSES.PDP_MISS", "ITLB_MISSES.PMH_BUSY_CYCLES", "ITLB_MISSES.STLB_HIT",
	"ITLB_MISSES.WALK_COMPLETED", "L1D.M_REPL", "L1D.M_SNOOP_EVICT", "L1D.REPL",
	"L1D_ALL_REF.ANY", "L1D_ALL_REF.CACHEABLE", "L1D_CACHE_LD.E_STATE",
	"L1D_CACHE_LD.I_STATE", "L1D_CACHE_LD.MESI", "L1D_CACHE_LD.M_STATE",
	"L1D_CACHE_LD.S_STATE", "L1D_CACHE_LOCK.E_STATE", "L1D_CACHE_LOCK.HIT",
	"L1D_CACHE_LOCK.M_STATE", "L1D_CACHE_LOCK.S_STATE", "L1D_CACHE_ST.E_STATE",
	"L1D_CACHE_ST.I_STATE", "L1D_CACHE_ST.MESI", "L1D_CACHE_ST.M_STATE",
	"L1D_CACHE_ST.S_STATE", "L1D_PEND_MISS.LOAD_BUFFERS_FULL", "L1D_PEND_MISS.PENDING",
	"L1D_PREFETCH.MISS", "L1D_PREFETCH.REQUESTS", "L1D_PREFETCH.TRIGGERS",
	"L1D_WB_L2.E_STATE", "L1D_WB_L2.I_STATE", "L1D_WB_L2.MESI", "L1D_WB_L2.M_STATE",
	"L1D_WB_L2.S_STATE", "L1I.CYCLES_STALLED", "L1I.HITS", "L1I.MISSES", "L1I.READS",
	"L2_DATA_RQSTS.ANY", "L2_DATA_RQSTS.DEMAND.E_STATE", "L2_DATA_RQSTS.DEMAND.I_STATE",
	"L2_DATA_RQSTS.DEMAND.MESI", "L2_DATA_RQSTS.DEMAND.M_STATE",
	"L2_DATA_RQSTS.DEMAND.S_STATE", "L2_DATA_RQSTS.PREFETCH.E_STATE",
	"L2_DATA_RQSTS.PREFETCH.I_STATE", "L2_DATA_RQSTS.PREFETCH.MESI",
	"L2_DATA_RQSTS.PREFETCH.M_STATE", "L2_DATA_RQSTS.PREFETCH.S_STATE", "L2_LINES_IN.ANY",
	"L2_LINES_IN.E_STATE", "L2_LINES_IN.S_STATE", "L2_LINES_OUT.ANY",
	"L2_LINES_OUT.DEMAND_CLEAN", "L2_LINES_OUT.DEMAND_DIRTY", "L2_LINES_OUT.PREFETCH_CLEAN",
	"L2_LINES_OUT.PREFETCH_DIRTY", "L2_RQSTS.IFETCHES", "L2_RQSTS.IFETCH_HIT",
	"L2_RQSTS.IFETCH_MISS", "L2_RQSTS.LD_HIT", "L2_RQSTS.LD_MISS", "L2_RQSTS.LOADS",
	"L2_RQSTS.MISS", "L2_RQSTS.PREFETCHES", "L2_RQSTS.PREFETCH_HIT", "L2_RQSTS.PREFETCH_MISS",
	"L2_RQSTS.REFERENCES", "L2_RQSTS.RFOS", "L2_RQSTS.RFO_HIT", "L2_RQSTS.RFO_MISS",
	"L2_TRANSACTIONS.ANY", "L2_TRANSACTIONS.FILL", "L2_TRANSACTIONS.IFETCH",
	"L2_TRANSACTIONS.L1D_WB", "L2_TRANSACTIONS.LOAD", "L2_TRANSACTIONS.PREFETCH",
	"L2_TRANSACTIONS.RFO", "L2_TRANSACTIONS.WB", "L2_WRITE.LOCK.E_STATE", "L2_WRITE.LOCK.HIT",
	"L2_WRITE.LOCK.I_STATE", "L2_WRITE.LOCK.MESI", "L2_WRITE.LOCK.M_STATE",
	"L2_WRITE.LOCK.S_STATE", "L2_WRITE.RFO.E_STATE", "L2_WRITE.RFO.HIT",
	"L2_WRITE.RFO.I_STATE", "L2_WRITE.RFO.MESI", "L2_WRITE.RFO.M_STATE",
	"L2_WRITE.RFO.S_STATE", "LARGE_TLB.HIT", "LSD.ACTIVE", "LSD.INACTIVE", "LSD_REPLAY.ABORT",
	"LSD_REPLAY.COUNT", "MACHINE_CLEAR.CYCLES", "MACHINE_CLEARS.CYCLES",
	"MACRO_INSTS.DECODED", "MACRO_INSTS.FUSIONS_DECODED", "MEM_INST_RETIRED.LOADS",
	"MEM_INST_RETIRED.STORES", "MEM_LOAD_RETIRED.DROPPED_EVENTS",
	"MEM_LOAD_RETIRED.DTLB_MISS", "MEM_LOAD_RETIRED.DTLB_MISSES", "MEM_LOAD_RETIRED.HIT_LFB",
	"MEM_LOAD_RETIRED.L1D_HIT", "MEM_LOAD_RETIRED.L2_HIT",
	"MEM_LOAD_RETIRED.LLC_HIT_OTHER_CORE_HIT_HITM", "MEM_LOAD_RETIRED.LLC_MISS",
	"MEM_LOAD_RETIRED.LLC_UNSHARED_HIT", "MEM_LOAD_RETIRED.OTHER_CORE_HIT_HITM",
	"MEM_LOAD_RETIRED.OTHER_CORE_L2_HIT_HITM", "MEM_STORE_RETIRED.DROPPED_EVENTS",
	"MEM_STORE_RETIRED.DTLB_MISS", "MEM_UNCORE_RETIRED.LOCAL_DRAM",
	"MEM_UNCORE_RETIRED.OTHER_CORE_L2_HITM", "MEM_UNCORE_RETIRED.REMOTE_CACHE_LOCAL_HOME_HIT",
	"MEM_UNCORE_RETIRED.REMOTE_DRAM", "MEM_UNCORE_RETIRED.UNCACHEABLE",
	"OFFCORE_RESPONSE_0.DATA_IFETCH.ANY_DRAM",
	"OFFCORE_RESPONSE_0.DATA_IFETCH.LLC_MISS_LOCAL_DRAM",
	"OFFCORE_RESPONSE_0.DATA_IFETCH.LLC_MISS_REMOTE_DRAM",
	"OFFCORE_RESPONSE_0.DATA_IFETCH.LOCAL_DRAM",
	"OFFCORE_RESPONSE_0.DATA_IFETCH.REMOTE_CACHE_DRAM", "OFFCORE_RESPONSE_0.DATA_IN.LLC_MISS",
	"OFFCORE_RESPONSE_0.DATA_IN.LLC_MISS_LOCAL_DRAM",
	"OFFCORE_RESPONSE_0.DATA_IN.LLC_MISS_REMOTE_DRAM",
	"OFFCORE_RESPONSE_0.DATA_IN.LOCAL_DRAM",
	"OFFCORE_RESPONSE_0.DEMAND_DATA.LLC_HIT_NO_OTHER_CORE",
	"OFFCORE_RESPONSE_0.DEMAND_DATA.LLC_HIT_OTHER_CORE_HIT",
	"OFFCORE_RESPONSE_0.DEMAND_DATA.LLC_HIT_OTHER_CORE_HITM",
	"OFFCORE_RESPONSE_0.DEMAND_DATA.LOCAL_CACHE", "OFFCORE_RESPONSE_0.OTHER.ANY_CACHE_DRAM",
	"OFFCORE_RESPONSE_0.OTHER.LLC_MISS_LOCAL_CACHE_DRAM",
	"OFFCORE_RESPONSE_0.OTHER.LLC_MISS_REMOTE_DRAM", "RAT_STALLS.ANY", "RAT_STALLS.FLAGS",
	"RAT_STALLS.REGISTERS", "RAT_STALLS.ROB_READ_PORT", "RAT_STALLS.SCOREBOARD",
	"RESOURCE_STALLS.ANY", "RESOURCE_STALLS.FPCW", "RESOURCE_STALLS.LOAD",
	"RESOURCE_STALLS.MXCSR", "RESOURCE_STALLS.OTHER", "RESOURCE_STALLS.ROB_FULL",
	"RESOURCE_STALLS.RS_FULL", "RESOURCE_STALLS.STORE", "UNC_ADDR_OPCODE_MATCH.IOH.NONE",
	"UNC_ADDR_OPCODE_MATCH.IOH.RSPFWDI", "UNC_ADDR_OPCODE_MATCH.IOH.RSPFWDS",
	"UNC_ADDR_OPCODE_MATCH.IOH.RSPIWB", "UNC_ADDR_OPCODE_MATCH.LOCAL.NONE",
	"UNC_ADDR_OPCODE_MATCH.LOCAL.RSPFWDI", "UNC_ADDR_OPCODE_MATCH.LOCAL.RSPFWDS",
	"UNC_ADDR_OPCODE_MATCH.LOCAL.RSPIWB", "UNC_ADDR_OPCODE_MATCH.REMOTE.NONE",
	"UNC_ADDR_OPCODE_MATCH.REMOTE.RSPFWDI", "UNC_ADDR_OPCODE_MATCH.REMOTE.RSPFWDS",
	"UNC_ADDR_OPCODE_MATCH.REMOTE.RSPIWB", "UNC_DRAM_OPEN.CH0", "UNC_DRAM_OPEN.CH1",
	"UNC_DRAM_OPEN.CH2", "UNC_DRAM_PAGE_CLOSE.CH0", "UNC_DRAM_PAGE_CLOSE.CH1",
	"UNC_DRAM_PAGE_CLOSE.CH2", "UNC_DRAM_PAGE_MISS.CH0", "UNC_DRAM_PAGE_MISS.CH1",
	"UNC_DRAM_PAGE_MISS.CH2", "UNC_DRAM_PRE_ALL.CH0", "UNC_DRAM_PRE_ALL.CH1",
	"UNC_DRAM_PRE_ALL.CH2", "UNC_DRAM_READ_CAS.AUTOPRE_CH0", "UNC_DRAM_READ_CAS.AUTOPRE_CH1",
	"UNC_DRAM_READ_CAS.AUTOPRE_CH2", "UNC_DRAM_READ_CAS.CH0", "UNC_DRAM_READ_CAS.CH1",
	"UNC_DRAM_READ_CAS.CH2", "UNC_DRAM_REFRESH.CH0", "UNC_DRAM_REFRESH.CH1",
	"UNC_DRAM_REFRESH.CH2", "UNC_DRAM_WRITE_CAS.AUTOPRE_CH0",
	"UNC_DRAM_WRITE_CAS.AUTOPRE_CH1", "UNC_DRAM_WRITE_CAS.AUTOPRE_CH2",
	"UNC_DRAM_WRITE_CAS.CH0", "UNC_DRAM_WRITE_CAS.CH1", "UNC_DRAM_WRITE_CAS.CH2",
	"UNC_GQ_ALLOC.PPT", "UNC_GQ_ALLOC.RT", "UNC_GQ_ALLOC.RT_LLC_MISS",
	"UNC_GQ_ALLOC.RT_TO_LLC_RESP", "UNC_GQ_ALLOC.RT_TO_RTID_ACQUIRED", "UNC_GQ_ALLOC.WT",
	"UNC_GQ_ALLOC.WT_TO_RTID_ACQUIRED", "UNC_GQ_CYCLES_BUSY.PEER_PROBE_TRACKER",
	"UNC_GQ_CYCLES_BUSY.READ_TRACKER", "UNC_GQ_CYCLES_BUSY.WRITE_TRACKER",
	"UNC_GQ_CYCLES_FULL.PEER_PROBE_TRACKER", "UNC_GQ_CYCLES_FULL.READ_TRACKER",
	"UNC_GQ_CYCLES_FULL.WRITE_TRACKER", "UNC_GQ_DATA.FROM_CORES_02",
	"UNC_GQ_DATA.FROM_CORES_13", "UNC_GQ_DATA.FROM_IMC", "UNC_GQ_DATA.FROM_LLC",
	"UNC_GQ_DATA.FROM_QPI", "UNC_GQ_DATA.TO_CORES", "UNC_GQ_DATA.TO_LLC",
	"UNC_GQ_DATA.TO_QPI_IMC", "UNC_GQ_SNOOP.GOTO_I", "UNC_GQ_SNOOP.GOTO_I_HIT_E",
	"UNC_GQ_SNOOP.GOTO_I_HIT_F", "UNC_GQ_SNOOP.GOTO_I_HIT_M", "UNC_GQ_SNOOP.GOTO_I_HIT_S",
	"UNC_GQ_SNOOP.GOTO_S", "UNC_GQ_SNOOP.GOTO_S_HIT_E", "UNC_GQ_SNOOP.GOTO_S_HIT_F",
	"UNC_GQ_SNOOP.GOTO_S_HIT_M", "UNC_GQ_SNOOP.GOTO_S_HIT_S", "UNC_GQ_TRACKER_OCCUP.PPT",
	"UNC_GQ_TRACKER_OCCUP.RT", "UNC_GQ_TRACKER_OCCUP.RT_LLC_MISS",
	"UNC_GQ_TRACKER_OCCUP.RT_LLC_MISS_BUSY", "UNC_GQ_TRACKER_OCCUP.RT_LLC_MISS_FULL",
	"UNC_GQ_TRACKER_OCCUP.RT_TO_LLC_RESP", "UNC_GQ_TRACKER_OCCUP.RT_TO_LLC_RESP_BUSY",
	"UNC_GQ_TRACKER_OCCUP.RT_TO_LLC_RESP_FULL", "UNC_GQ_TRACKER_OCCUP.RT_TO_RTID_ACQUIRED",
	"UNC_GQ_TRACKER_OCCUP.RT_TO_RTID_ACQUIRED_BUSY",
	"UNC_GQ_TRACKER_OCCUP.RT_TO_RTID_ACQUIRED_FULL", "UNC_GQ_TRACKER_OCCUP.WT",
	"UNC_GQ_TRACKER_OCCUP.WT_TO_RTID_ACQUIRED", "UNC_IMC_BUSY.READ.CH0",
	"UNC_IMC_BUSY.READ.CH1", "UNC_IMC_BUSY.READ.CH2", "UNC_IMC_BUSY.WRITE.CH0",
	"UNC_IMC_BUSY.WRITE.CH1", "UNC_IMC_BUSY.WRITE.CH2", "UNC_IMC_CRITICAL_PRIORITY_READS.ANY",
	"UNC_IMC_CRITICAL_PRIORITY_READS.CH0", "UNC_IMC_CRITICAL_PRIORITY_READS.CH1",
	"UNC_IMC_CRITICAL_PRIORITY_READS.CH2", "UNC_IMC_HIGH_PRIORITY_READS.ANY",
	"UNC_IMC_HIGH_PRIORITY_READS.CH0", "UNC_IMC_HIGH_PRIORITY_READS.CH1",
	"UNC_IMC_HIGH_PRIORITY_READS.CH2", "UNC_IMC_ISOC_FULL.READ.CH0",
	"UNC_IMC_ISOC_FULL.READ.CH1", "UNC_IMC_ISOC_FULL.READ.CH2", "UNC_IMC_ISOC_FULL.WRITE.CH0",
	"UNC_IMC_ISOC_FULL.WRITE.CH1", "UNC_IMC_ISOC_FULL.WRITE.CH2",
	"UNC_IMC_ISOC_OCCUPANCY.ANY", "UNC_IMC_ISOC_OCCUPANCY.CH0", "UNC_IMC_ISOC_OCCUPANCY.CH1",
	"UNC_IMC_ISOC_OCCUPANCY.CH2", "UNC_IMC_NORMAL_OCCUPANCY.CH0",
	"UNC_IMC_NORMAL_OCCUPANCY.CH1", "UNC_IMC_NORMAL_OCCUPANCY.CH2",
	"UNC_IMC_NORMAL_READS.ANY", "UNC_IMC_NORMAL_READS.CH0", "UNC_IMC_NORMAL_READS.CH1",
	"UNC_IMC_NORMAL_READS.CH2", "UNC_IMC_WRITES.FULL.ANY", "UNC_IMC_WRITES.FULL.CH0",
	"UNC_IMC_WRITES.FULL.CH1", "UNC_IMC_WRITES.FULL.CH2", "UNC_IMC_WRITES.PARTIAL.ANY",
	"UNC_IMC_WRITES.PARTIAL.CH0", "UNC_IMC_WRITES.PARTIAL.CH1", "UNC_IMC_WRITES.PARTIAL.CH2",
	"UNC_LLC_HITS.ANY", "UNC_LLC_HITS.PROBE", "UNC_LLC_HITS.READ", "UNC_LLC_HITS.WRITE",
	"UNC_LLC_LINES_IN.ANY", "UNC_LLC_LINES_IN.E_STATE", "UNC_LLC_LINES_IN.F_STATE",
	"UNC_LLC_LINES_IN.M_STATE", "UNC_LLC_LINES_IN.S_STATE", "UNC_LLC_LINES_OUT.ANY",
	"UNC_LLC_LINES_OUT.E_STATE", "UNC_LLC_LINES_OUT.F_STATE", "UNC_LLC_LINES_OUT.I_STATE",
	"UNC_LLC_LINES_OUT.M_STATE", "UNC_LLC_LINES_OUT.S_STATE", "UNC_LLC_MISS.ANY",
	"UNC_LLC_MISS.PROBE", "UNC_LLC_MISS.READ", "UNC_LLC_MISS.WRITE",
	"UNC_QHL_CYCLES_FULL.IOH", "UNC_QHL_CYCLES_FULL.LOCAL", "UNC_QHL_CYCLES_FULL.REMOTE",
	"UNC_QHL_CYCLES_NOT_EMPTY.IOH", "UNC_QHL_CYCLES_NOT_EMPTY.LOCAL",
	"UNC_QHL_CYCLES_NOT_EMPTY.REMOTE", "UNC_QHL_OCCUPANCY.IOH", "UNC_QHL_OCCUPANCY.LOCAL",
	"UNC_QHL_OCCUPANCY.REMOTE", "UNC_QHL_REQUESTS.IOH_READS", "UNC_QHL_REQUESTS.IOH_WRITES",
	"UNC_QHL_REQUESTS.LOCAL_READS", "UNC_QHL_REQUESTS.LOCAL_WRITES",
	"UNC_QHL_REQUESTS.REMOTE_READS", "UNC_QHL_REQUESTS.REMOTE_WRITES",
	"UNC_SNP_RESP_TO_LOCAL_HOME.CONFLICT", "UNC_SNP_RESP_TO_LOCAL_HOME.FWD_I_STATE",
	"UNC_SNP_RESP_TO_LOCAL_HOME.FWD_S_STATE", "UNC_SNP_RESP_TO_LOCAL_HOME.HIT",
	"UNC_SNP_RESP_TO_LOCAL_HOME.HITM", "UNC_SNP_RESP_TO_LOCAL_HOME.I_STATE",
	"UNC_SNP_RESP_TO_LOCAL_HOME.S_STATE", "UNC_SNP_RESP_TO_LOCAL_HOME.WB",
	"UNC_SNP_RESP_TO_REMOTE_HOME.CONFLICT", "UNC_SNP_RESP_TO_REMOTE_HOME.FWD_I_STATE",
	"UNC_SNP_RESP_TO_REMOTE_HOME.FWD_S_STATE", "UNC_SNP_RESP_TO_REMOTE_HOME.HIT",
	"UNC_SNP_RESP_TO_REMOTE_HOME.HITM", "UNC_SNP_RESP_TO_REMOTE_HOME.I_STATE",
	"UNC_SNP_RESP_TO_REMOTE_HOME.S_STATE", "UNC_SNP_RESP_TO_REMOTE_HOME.WB",
	"UOPC_EXECUTED.CORE_STALL_CYCLES", "UOPS_DECODED.MS", "UOPS_DECODED.MS_CYCLES_ACTIVE",
	"UOPS_EXECUTED.CORE_ACTIVE_CYCLES", "UOPS_EXECUTED.CORE_STALLS_COUNT",
	"UOPS_EXECUTED.CORE_STALLS_CYCLES", "UOPS_EXECUTED.CORE_STALL_COUNT",
	"UOPS_EXECUTED.CORE_STALL_CYCLES", "UOPS_EXECUTED.PORT0", "UOPS_EXECUTED.PORT015",
	"UOPS_EXECUTED.PORT015_STALL_CYCLES", "UOPS_EXECUTED.PORT1", "UOPS_EXECUTED.PORT234_CORE",
	"UOPS_EXECUTED.PORT2_CORE", "UOPS_EXECUTED.PORT3_CORE", "UOPS_EXECUTED.PORT4_CORE",
	"UOPS_EXECUTED.PORT5", "UOPS_ISSUED.ANY", "UOPS_ISSUED.CORE_CYCLES_ACTIVE",
	"UOPS_ISSUED.FUSED", "UOPS_ISSUED.STALL_CYCLES", "UOPS_RETIRED.ACTIVE_CYCLES",
	"UOPS_RETIRED.ANY", "UOPS_RETIRED.MACRO_FUSED", "UOPS_RETIRED.RETIRE_SLOTS",
	"UOPS_RETIRED.STALL_CYCLES",
};

static void test_seed000_names(void **state)
{
	unsigned missing = 0;

	(void)state;
	for (unsigned i = 0; i < N(seed000); i++) {
		if (!find_in(UARCH_NEHALEM, seed000[i], NULL)) {
			print_message("seed 000 name not found: %s\n", seed000[i]);
			missing++;
		}
	}
	assert_int_equal(missing, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_catalogs_for),
		cmocka_unit_test(test_by_model),
		cmocka_unit_test(test_find_spellings),
		cmocka_unit_test(test_find_unknown),
		cmocka_unit_test(test_split_model),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_evtsel),
		cmocka_unit_test(test_counters_and_fixed),
		cmocka_unit_test(test_frontend_seed003),
		cmocka_unit_test(test_integrity),
		cmocka_unit_test(test_arch_agrees),
		cmocka_unit_test(test_skl_unc_agrees),
		cmocka_unit_test(test_nhm_unc_agrees),
		cmocka_unit_test(test_seed000_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
