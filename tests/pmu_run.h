/* SPDX-License-Identifier: MIT */
/* Counting a kernel with a set of core counters: program, run in the PMU frame, read. */
#ifndef TESTS_PMU_RUN_H
#define TESTS_PMU_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "pmu/counter.h"
#include "pmu/event.h"
#include "tests/kernels/kernels.h"

#define PMU_RUN_MAX	(PMU_MAX_GP + PMU_MAX_FIXED)

/* One counter of a run: a GP counter with a selector, or a fixed counter with its field. */
struct ctr_cfg {
	bool fixed;
	unsigned idx;
	uint64_t evtsel;	/* GP: full selector, EN set */
	unsigned fixed_ctrl;	/* fixed: FIXED_CTR_CTRL_* bits */
	uint64_t start;		/* initial counter value */
};

struct pmu_result {
	uint64_t value[PMU_RUN_MAX];	/* counter values after the run */
	uint64_t delta[PMU_RUN_MAX];	/* value - start, modulo the width */
	uint64_t tsc;			/* TSC across the frame call */
};

/*
 * Programs the counters (GLOBAL_CTRL off, overflow status cleared), runs k(n, arg) once in
 * the PMU frame with exactly these counters enabled, reads them with RDPMC, and stops them
 * again; overflow status the run caused is left for the caller. 0, or non-zero with err
 * saying which access failed and how.
 */
int pmu_run(const struct ctr_cfg *cfg, unsigned ncfg, const struct kernel_desc *k,
	    uint64_t n, void *arg, struct pmu_result *res, char *err, size_t errlen);

/*
 * The differential method: for each counter the smallest delta over `reps` runs at n and
 * at 2n, and their difference, which cancels every fixed cost of the frame and kernel.
 * median (may be NULL) receives, per counter, the median of the repetitions' own
 * differences (at most PMU_DIFF_MAX_REPS repetitions are kept for it).
 */
#define PMU_DIFF_MAX_REPS	64
int pmu_run_differential(const struct ctr_cfg *cfg, unsigned ncfg, const struct kernel_desc *k,
			 uint64_t n, void *arg, unsigned reps, uint64_t *diff, uint64_t *tsc_diff,
			 char *err, size_t errlen);
int pmu_run_differential_stats(const struct ctr_cfg *cfg, unsigned ncfg,
			       const struct kernel_desc *k, uint64_t n, void *arg, unsigned reps,
			       uint64_t *diff, uint64_t *median, uint64_t *tsc_diff, char *err,
			       size_t errlen);

/* A GP selector counting architectural event ev in ring 0. */
uint64_t pmu_os_evtsel(enum arch_event ev);

#endif /* TESTS_PMU_RUN_H */
