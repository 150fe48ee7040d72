/* SPDX-License-Identifier: MIT */
/* User event lists (measure=): names resolved against the CPU's catalogs, counters assigned
 * and the events split into runs (pure logic, host-tested). */
#ifndef TESTS_MEASURE_USER_EVENTS_H
#define TESTS_MEASURE_USER_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tests/harness/options.h"
#include "pmu/catalog.h"
#include "pmu/event.h"
#include "tests/measure/pmu_run.h"

#define UEV_LABEL_LEN		64	/* an event's part of its check name */
#define UEV_SUGGEST		3	/* nearest names offered for an unknown one */
/* Bound on what a counter can add per core cycle (uops, occupancy of the deepest queue) and
 * on core cycles per TSC tick (turbo against a low TSC): a count beyond their product over
 * the run is not a count. */
#define UEV_EVENTS_PER_CYCLE	64
#define UEV_CYCLES_PER_TSC	4

/* The counters a plan may use. num_gp == 0: no PMU (or not usable): names are resolved, no
 * counter restriction is checked, and every event gets a run of its own on GP counter 0 (with
 * force-pmu they then fail, as every counter check does there). */
struct uev_hw {
	unsigned num_gp;
	uint32_t fixed_mask;
};

struct uev_event {
	const struct measure_event *spec;
	const struct pmu_event_def *def;	/* the catalog's entry; NULL for a raw event */
	const struct pmu_catalog *cat;		/* the catalog it was found in */
	char label[UEV_LABEL_LEN];		/* "MEM_LOAD_RETIRED.L3_MISS:u", "r20d1" */
	struct pmu_evtsel sel;			/* the GP selector (EN set) */
	uint32_t gp_mask;			/* GP counters that may count it */
	int fixed;				/* the fixed counter that may count it, or -1 */
	bool fixed_only;			/* a pseudo-encoding only that fixed counter has */
	/* the schedule */
	unsigned run;				/* 0-based */
	bool on_fixed;
	unsigned idx;				/* counter index */
};

struct uev_set {
	const struct measure_set *spec;
	char name[24];				/* "loop4", or "loop4_3" for a kernel used again */
	struct uev_event ev[MEASURE_MAX_EVENTS];
	unsigned nev;
	unsigned nruns;
};

struct uev_plan {
	struct uev_set set[MEASURE_MAX_SETS];
	unsigned nsets;
	unsigned nevents;			/* over every set: the checks */
	struct uev_hw hw;
};

/*
 * Resolves every measure= set of o against the catalogs cats[0..ncats) and schedules it on
 * hw's counters. On error returns -1 with err "WHERE: measure=SET: unknown event 'X';
 * nearest: A, B, C" (or the event's other fault: an uncore event, one that needs an extra MSR,
 * counter restrictions this CPU cannot meet, modifiers a fixed counter cannot take), and the
 * plan empty: nothing runs.
 */
int uev_resolve(struct uev_plan *p, const struct options *o, const struct pmu_catalog *const *cats,
		unsigned ncats, const struct uev_hw *hw, char *err, size_t errlen);
/* The memory kernels' sizes against the test buffer; -1 (plan emptied) with err. */
int uev_check_buffer(struct uev_plan *p, uint64_t buf_size, char *err, size_t errlen);
/* Check instance i of the plan: its set and event. false past the end. */
bool uev_locate(const struct uev_plan *p, unsigned i, unsigned *set, unsigned *ev);
/* The counters of run r of set s: cfg[k] counts event evidx[k]. Returns how many. */
unsigned uev_run_cfg(const struct uev_set *s, unsigned r, struct ctr_cfg cfg[PMU_RUN_MAX],
		     unsigned evidx[PMU_RUN_MAX]);
/* "GP2" / "fixed0" for an event's counter. */
void uev_counter_name(const struct uev_event *e, char *buf, size_t len);
/* The largest |count| a run of tsc ticks can produce. */
uint64_t uev_bound(uint64_t tsc);

#endif /* TESTS_MEASURE_USER_EVENTS_H */
