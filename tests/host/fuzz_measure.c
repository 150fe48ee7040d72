/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness: any bytes as a measure= value (tests/harness/measure_opt.c), then, when they
 * parse, resolved and scheduled against real catalogs (tests/measure/user_events.c) with and without
 * counters. A refused set writes nothing and leaves an empty plan; an accepted one has every
 * event on a counter it may use, no two on one counter in a run.
 */
#include "tests/host/fuzz_options.h"
#include "tests/measure/user_events.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_plan(const struct uev_plan *p)
{
	for (unsigned s = 0; s < p->nsets; s++) {
		const struct uev_set *set = &p->set[s];

		FUZZ_ASSERT(set->nruns >= 1 && set->nruns <= set->nev, "%u runs for %u events",
			    set->nruns, set->nev);
		for (unsigned i = 0; i < set->nev; i++) {
			const struct uev_event *e = &set->ev[i];

			FUZZ_ASSERT(e->run < set->nruns, "run %u of %u", e->run, set->nruns);
			FUZZ_ASSERT(e->label[0], "an event without a label");
			for (const char *c = e->label; *c; c++)
				FUZZ_ASSERT((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') ||
					    (*c >= '0' && *c <= '9') || *c == '_' || *c == '.',
					    "label '%s' has '%c'", e->label, *c);
			if (!p->hw.num_gp)
				continue;
			if (e->on_fixed)
				FUZZ_ASSERT((int)e->idx == e->fixed && (p->hw.fixed_mask >> e->idx & 1),
					    "%s on fixed %u", e->label, e->idx);
			else
				FUZZ_ASSERT(e->idx < p->hw.num_gp && (e->gp_mask >> e->idx & 1) &&
					    !e->fixed_only, "%s on GP%u", e->label, e->idx);
			for (unsigned j = 0; j < i; j++)
				FUZZ_ASSERT(!(set->ev[j].run == e->run && set->ev[j].on_fixed ==
					      e->on_fixed && set->ev[j].idx == e->idx),
					    "%s and %s share a counter", set->ev[j].label, e->label);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum pmu_uarch uarchs[] = { UARCH_SKYLAKE, UARCH_NEHALEM, UARCH_UNKNOWN };
	static const struct uev_hw hws[] = { { 4, 0x7 }, { 2, 0x1 }, { 0, 0 }, { 8, 0xf } };
	static struct options o;
	static struct uev_plan plan;
	struct measure_set sentinel;
	char err[1024];

	options_defaults(&o);
	memset(&o.measure[0], 0x5a, sizeof(o.measure[0]));
	sentinel = o.measure[0];
	if (measure_parse(&o.measure[0], (const char *)data, size, err, sizeof(err))) {
		fuzz_check_err(err, sizeof(err));
		FUZZ_ASSERT(!memcmp(&o.measure[0], &sentinel, sizeof(sentinel)),
			    "a refused set was written");
		return 0;
	}
	o.nmeasure = 1;
	fuzz_check_sets(&o);
	for (size_t u = 0; u < sizeof(uarchs) / sizeof(uarchs[0]); u++) {
		const struct pmu_catalog *cats[4];
		unsigned n = pmu_catalogs_for(uarchs[u], cats, 4);

		/* the counter layouts on Skylake's catalogs; names alone on the others */
		for (size_t h = 0; h < (u ? 1 : sizeof(hws) / sizeof(hws[0])); h++) {
			if (uev_resolve(&plan, &o, cats, n, &hws[h], err, sizeof(err))) {
				fuzz_check_err(err, sizeof(err));
				FUZZ_ASSERT(plan.nsets == 0 && plan.nevents == 0,
					    "a refused list left something to run");
				if (strstr(err, "unknown event"))
					break;	/* the same on every counter layout */
				continue;
			}
			FUZZ_ASSERT(plan.nsets == 1 && plan.nevents == o.measure[0].nev,
				    "%u sets, %u events", plan.nsets, plan.nevents);
			check_plan(&plan);
			if (uev_check_buffer(&plan, 1 << 20, err, sizeof(err)))
				FUZZ_ASSERT(plan.nevents == 0, "a refused size left something to run");
		}
	}
	return 0;
}
