/* SPDX-License-Identifier: MIT */
/* Counting a kernel with uncore counters (and reading the IMC's free-running ones) around it. */
#ifndef TESTS_MEASURE_UNCORE_RUN_H
#define TESTS_MEASURE_UNCORE_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "pmu/uncore.h"
#include "tests/kernels/kernels.h"
#include "tests/measure/pmu_run.h"	/* pairs_note */

#define UNC_RUN_MAX	16	/* 4 CBos x 2, ARB 2, fixed: 11; Nehalem 8 + fixed: 9 */

/* One counter of a run: a CBo/ARB/Nehalem counter with its select, or the fixed one. */
struct unc_cfg {
	struct uncore_ctr ctr;
	struct uncore_evtsel sel;	/* en is set by the run; ignored for the fixed counter */
	uint64_t start;
};

struct unc_run_opts {
	unsigned reps;			/* pairs count(n), count(2n) to keep (0: 1) */
	bool imc;			/* read the IMC counters before and after each run */
	/* Before each run, outside the counted window (e.g. chase_flush). */
	void (*before)(uint64_t n, void *arg);
};

/*
 * The differential method, as pmu_run_differential(): pairs of runs at n and 2n, the
 * global enable written by the measurement frame around the kernel (no uncore counter: the
 * TSC frame), IMC counters read just outside it; for each counter the smallest count at 2n
 * minus the smallest at n, signed, and the median of the pairs' own differences. A pair
 * during which MSR_SMI_COUNT moved, or a stretched one (struct pairs), is discarded and
 * counted.
 */
struct unc_diff {
	int64_t diff[UNC_RUN_MAX], median[UNC_RUN_MAX];
	int64_t imc[UNC_IMC_NUM], imc_median[UNC_IMC_NUM];
	int64_t tsc;		/* min at 2n - min at n (pairs_finish) */
	int64_t tsc_median;	/* the median of the pairs' own TSC differences */
	unsigned kept, discarded, stretched;
	uint64_t smis;
};
int uncore_run_differential(const struct unc_cfg *cfg, unsigned ncfg, const struct kernel_desc *k,
			    uint64_t n, void *arg, const struct unc_run_opts *o, struct unc_diff *d,
			    char *err, size_t errlen);
/* " reps=K", and " smi_discarded=D (S SMIs)", " stretched=T" when pairs were discarded
 * (pairs_note). */
static inline const char *unc_diff_note(const struct unc_diff *d)
{
	return pairs_note(d->kept, d->discarded, d->smis, d->stretched);
}

#endif /* TESTS_MEASURE_UNCORE_RUN_H */
