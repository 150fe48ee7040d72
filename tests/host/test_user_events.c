/* SPDX-License-Identifier: MIT */
/* Host unit tests for tests/measure/user_events.c: measure= sets resolved against a small fake catalog
 * and the real ones, counters assigned, runs split, every refusal's message. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "arch/x86/msr.h"
#include "tests/measure/user_events.h"

#define ERRLEN 1024

static const struct pmu_event_def fake_events[] = {
	{ "FOO.BAR", 0x10, 0x01, 0, 0, 0x4, -1, PMU_UNIT_CORE, 0, 0, NULL },	/* GP2 only */
	{ "FOO.ANY", 0x10, 0x02, 0, PMU_EVF_DEFAULT, 0, -1, PMU_UNIT_CORE, 0, 0, NULL },
	{ "ONLY3", 0x11, 0x00, 0, 0, 0x8, -1, PMU_UNIT_CORE, 0, 0, NULL },
	{ "REF", 0x00, 0x03, 0, 0, 0, 2, PMU_UNIT_CORE, 0, 0, NULL },		/* fixed 2 only */
	{ "INS.ANY", 0xc0, 0x00, 0, 0, 0, 0, PMU_UNIT_CORE, 0, 0, NULL },	/* GP or fixed 0 */
	{ "CMASKED", 0xa3, 0x04, 4, PMU_EVF_INV, 0, -1, PMU_UNIT_CORE, 0, 0, NULL },
	{ "UNC.X", 0x22, 0x41, 0, 0, 0, -1, PMU_UNIT_SKL_CBO, 0, 0, NULL },
	{ "OFF.X", 0xb7, 0x01, 0, PMU_EVF_OFFCORE, 0, -1, PMU_UNIT_CORE, MSR_OFFCORE_RSP_0,
	  0x10001, NULL },
};

static const struct pmu_catalog fake = {
	.model = "fake", .title = "a test catalog", .source = "tests/host/test_user_events.c",
	.unit = PMU_UNIT_CORE, .events = fake_events,
	.count = sizeof(fake_events) / sizeof(fake_events[0]),
};
static const struct pmu_catalog *const fake_cats[] = { &fake };

static const struct uev_hw hw4 = { 4, 0x7 };	/* 4 GP, fixed 0-2 */
static const struct uev_hw hw2 = { 2, 0x7 };
static const struct uev_hw hw4_fixed01 = { 4, 0x3 };
static const struct uev_hw no_pmu = { 0, 0 };

static struct options opts(const char *text)
{
	struct options o;
	char err[ERRLEN];

	options_defaults(&o);
	if (options_parse_text(&o, text, strlen(text), "command line", err, sizeof(err)))
		fail_msg("%s: %s", text, err);
	return o;
}

static struct uev_plan plan;

static int resolve(const char *text, const struct uev_hw *hw, char *err)
{
	static struct options o;

	o = opts(text);
	return uev_resolve(&plan, &o, fake_cats, 1, hw, err, ERRLEN);
}

static void refused_at(int line, const char *text, const struct uev_hw *hw, const char *want)
{
	char err[ERRLEN];

	if (resolve(text, hw, err) != -1)
		fail_msg("line %d: %s should be refused", line, text);
	if (strcmp(err, want))
		fail_msg("line %d: %s\n  got:  %s\n  want: %s", line, text, err, want);
	assert_int_equal(plan.nsets, 0);	/* nothing to run */
	assert_int_equal(plan.nevents, 0);
}

#define REFUSED(t, hw, w) refused_at(__LINE__, (t), (hw), (w))

static void test_schedule(void **state)
{
	char err[ERRLEN];
	const struct uev_set *s = &plan.set[0];
	(void)state;

	/* The GP2-only event is placed first; 6 GP events on 4 counters: 2 runs; the fixed-only
	 * one on its fixed counter. */
	assert_int_equal(resolve("measure=FOO.ANY,FOO.ANY:u,FOO.ANY:k,FOO.ANY:c=1,FOO.BAR,REF,"
				 "cpu/event=0x3c/@loop4:1000", &hw4, err), 0);
	assert_int_equal(plan.nsets, 1);
	assert_int_equal(plan.nevents, 7);
	assert_int_equal(s->nruns, 2);
	assert_string_equal(s->name, "loop4");
	assert_int_equal(s->ev[4].run, 0);		/* FOO.BAR */
	assert_false(s->ev[4].on_fixed);
	assert_int_equal(s->ev[4].idx, 2);
	assert_true(s->ev[5].on_fixed);			/* REF */
	assert_int_equal(s->ev[5].idx, 2);
	assert_int_equal(s->ev[5].run, 0);
	assert_int_equal(s->ev[0].idx, 0);
	assert_int_equal(s->ev[1].idx, 1);
	assert_int_equal(s->ev[2].idx, 3);
	assert_int_equal(s->ev[3].run, 1);
	assert_int_equal(s->ev[6].run, 1);
	assert_string_equal(s->ev[0].label, "FOO.ANY");
	assert_string_equal(s->ev[1].label, "FOO.ANY.u");
	assert_string_equal(s->ev[2].label, "FOO.ANY.k");
	assert_string_equal(s->ev[3].label, "FOO.ANY.c1");
	assert_string_equal(s->ev[6].label, "r3c");
	/* the selectors */
	{
		struct ctr_cfg cfg[PMU_RUN_MAX];
		unsigned idx[PMU_RUN_MAX], n = uev_run_cfg(s, 0, cfg, idx);
		struct pmu_evtsel e;

		assert_int_equal(n, 5);
		for (unsigned k = 0; k < n; k++) {
			const struct uev_event *ev = &s->ev[idx[k]];

			assert_int_equal(cfg[k].fixed, ev->on_fixed);
			assert_int_equal(cfg[k].idx, ev->idx);
		}
		pmu_evtsel_decode(cfg[1].evtsel, &e);	/* FOO.ANY:u */
		assert_int_equal(e.event, 0x10);
		assert_int_equal(e.umask, 0x02);
		assert_true(e.usr && !e.os && e.en);
		assert_int_equal(cfg[4].fixed_ctrl, FIXED_CTR_CTRL_OS | FIXED_CTR_CTRL_USR);
		n = uev_run_cfg(s, 1, cfg, idx);
		assert_int_equal(n, 2);
		pmu_evtsel_decode(cfg[0].evtsel, &e);	/* FOO.ANY:c=1 */
		assert_int_equal(e.cmask, 1);
	}

	/* INS.ANY goes to fixed 0 only when the GP counters of the run are taken */
	assert_int_equal(resolve("measure=INS.ANY,FOO.ANY,FOO.ANY,FOO.ANY,INS.ANY:k@loop4", &hw4,
				 err), 0);
	assert_int_equal(s->nruns, 1);
	assert_false(s->ev[0].on_fixed);
	assert_true(s->ev[4].on_fixed);
	assert_int_equal(s->ev[4].idx, 0);
	assert_string_equal(s->ev[2].label, "FOO.ANY_3");
	assert_string_equal(s->ev[3].label, "FOO.ANY_4");
	/* ... never with a modifier a fixed counter cannot apply */
	assert_int_equal(resolve("measure=FOO.ANY,FOO.ANY,FOO.ANY,FOO.ANY,INS.ANY:i@loop4", &hw4,
				 err), 0);
	assert_int_equal(s->nruns, 2);
	/* CMASKED keeps the catalog's cmask and inv; a modifier overrides the cmask */
	assert_int_equal(resolve("measure=CMASKED,CMASKED:c=2:e@loop4 measure=FOO@loop4", &hw4,
				 err), 0);
	assert_int_equal(s->ev[0].sel.cmask, 4);
	assert_true(s->ev[0].sel.inv);
	assert_int_equal(s->ev[1].sel.cmask, 2);
	assert_true(s->ev[1].sel.edge && s->ev[1].sel.inv);
	assert_string_equal(plan.set[1].ev[0].label, "FOO.ANY");	/* the default unit mask */
	assert_string_equal(plan.set[1].name, "loop4_2");

	/* No PMU: names still checked, no restriction; a run per event */
	assert_int_equal(resolve("measure=ONLY3,REF,FOO.BAR@loop4", &no_pmu, err), 0);
	assert_int_equal(s->nruns, 3);
	assert_int_equal(plan.nevents, 3);
}

static void test_refusals(void **state)
{
	(void)state;

	REFUSED("measure=FOO.BAZ@loop4", &hw4, "command line: measure=FOO.BAZ@loop4: unknown event "
		"'FOO.BAZ'; nearest: FOO.BAR, FOO.ANY");
	REFUSED("measure=QQQQQQQQQQQQQQQQQ@loop4", &hw4, "command line: measure=QQQQQQQQQQQQQQQQQ@loop4: "
		"unknown event 'QQQQQQQQQQQQQQQQQ'; none near it (option list=events shows this CPU's)");
	REFUSED("measure=ONLY3@loop4", &hw2, "command line: measure=ONLY3@loop4: "
		"event 'ONLY3' can be counted on GP counter(s) 3 only; this CPU has 2");
	REFUSED("measure=REF:c=1@loop4", &hw4, "command line: measure=REF:c=1@loop4: event 'REF' is "
		"counted by fixed counter 2 only, which takes no cmask, inv or edge");
	REFUSED("measure=REF@loop4", &hw4_fixed01, "command line: measure=REF@loop4: event "
		"'REF' is counted by fixed counter 2 only, which this CPU does not have");
	REFUSED("measure=UNC.X@loop4", &hw4, "command line: measure=UNC.X@loop4: event 'UNC.X' is an "
		"uncore event (fake): measure= counts core events only");
	REFUSED("measure=OFF.X@loop4", &hw4, "command line: measure=OFF.X@loop4: event 'OFF.X' needs "
		"MSR 0x1a6 (offcore response) programmed too: measure= does not program extra MSRs");
	REFUSED("measure=skl::FOO.BAR@loop4", &hw4, "command line: measure=skl::FOO.BAR@loop4: event "
		"'skl::FOO.BAR': model 'skl' is not this CPU's (fake)");
	/* the second set's error: the first set is not kept either */
	REFUSED("measure=FOO.BAR@loop4 measure=FOO.BAR,ONLY@chase:4K", &hw4, "command line: "
		"measure=FOO.BAR,ONLY@chase:4096: unknown event 'ONLY'; nearest: ONLY3");
}

static void test_buffer(void **state)
{
	char err[ERRLEN];
	(void)state;

	assert_int_equal(resolve("measure=FOO.BAR@chase:1M measure=FOO.BAR@store_nt:2M", &hw4, err), 0);
	assert_int_equal(uev_check_buffer(&plan, 2 << 20, err, sizeof(err)), 0);
	assert_int_equal(plan.nevents, 2);
	assert_int_equal(uev_check_buffer(&plan, 1 << 20, err, sizeof(err)), -1);
	assert_string_equal(err, "command line: measure=FOO.BAR@store_nt:2097152: store_nt needs "
			    "2097152 bytes of the test buffer, which has 1048576 (option size=)");
	assert_int_equal(plan.nevents, 0);
	assert_int_equal(uev_bound(1000), 1000 * 64 * 4 + 1024);
	assert_int_equal(uev_bound(UINT64_MAX), UINT64_MAX);
}

static void test_locate(void **state)
{
	char err[ERRLEN];
	unsigned s = 9, e = 9;
	(void)state;

	assert_int_equal(resolve("measure=FOO.BAR,REF@loop4 measure=FOO.ANY@div_loop", &hw4, err), 0);
	assert_true(uev_locate(&plan, 0, &s, &e));
	assert_int_equal(s, 0);
	assert_int_equal(e, 0);
	assert_true(uev_locate(&plan, 2, &s, &e));
	assert_int_equal(s, 1);
	assert_int_equal(e, 0);
	assert_false(uev_locate(&plan, 3, &s, &e));
}

/* The generated and hand-written catalogs, as the firmware resolves against them. */
static void test_real_catalogs(void **state)
{
	const struct pmu_catalog *cats[4];
	unsigned n = pmu_catalogs_for(UARCH_SKYLAKE, cats, 4);
	static struct options o;
	char err[ERRLEN];
	(void)state;

	o = opts("measure=INST_RETIRED.ANY_P,BR_INST_RETIRED.ALL_BRANCHES,MEM_LOAD_RETIRED:L3_MISS,"
		 "skl::MEM_LOAD_RETIRED.L1_HIT:u,CPU_CLK_UNHALTED.REF_TSC,cpu/event=0xd1,umask=0x20/"
		 "@chase:1M");
	assert_int_equal(uev_resolve(&plan, &o, cats, n, &hw4, err, sizeof(err)), 0);
	assert_int_equal(plan.set[0].nev, 6);
	assert_string_equal(plan.set[0].ev[2].label, "MEM_LOAD_RETIRED.L3_MISS");
	assert_int_equal(plan.set[0].ev[2].sel.event, 0xd1);
	assert_int_equal(plan.set[0].ev[2].sel.umask, 0x20);
	assert_true(plan.set[0].ev[4].on_fixed);	/* REF_TSC: fixed counter 2 only */
	assert_int_equal(plan.set[0].ev[4].idx, 2);
	assert_string_equal(plan.set[0].ev[5].label, "r20d1");
	assert_int_equal(plan.set[0].nruns, 2);

	o = opts("measure=MEM_LOAD_RETIRED.L3_MIS@loop4");
	assert_int_equal(uev_resolve(&plan, &o, cats, n, &hw4, err, sizeof(err)), -1);
	assert_string_equal(err, "command line: measure=MEM_LOAD_RETIRED.L3_MIS@loop4: unknown event "
			    "'MEM_LOAD_RETIRED.L3_MIS'; nearest: MEM_LOAD_RETIRED.L3_MISS, "
			    "MEM_LOAD_RETIRED.L3_HIT, MEM_LOAD_RETIRED.L1_MISS");
	/* Nehalem has no skl events */
	n = pmu_catalogs_for(UARCH_NEHALEM, cats, 4);
	o = opts("measure=skl::MEM_LOAD_RETIRED.L3_MISS@loop4");
	assert_int_equal(uev_resolve(&plan, &o, cats, n, &hw4, err, sizeof(err)), -1);
	assert_string_equal(err, "command line: measure=skl::MEM_LOAD_RETIRED.L3_MISS@loop4: event "
			    "'skl::MEM_LOAD_RETIRED.L3_MISS': model 'skl' is not this CPU's (nhm, "
			    "nhm_unc, arch)");
	/* an unknown CPU has the architectural events */
	n = pmu_catalogs_for(UARCH_UNKNOWN, cats, 4);
	o = opts("measure=INST_RETIRED.ANY_P,LLC_MISSES@loop4");
	assert_int_equal(uev_resolve(&plan, &o, cats, n, &hw4, err, sizeof(err)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schedule),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_buffer),
		cmocka_unit_test(test_locate),
		cmocka_unit_test(test_real_catalogs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
