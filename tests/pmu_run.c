/* SPDX-License-Identifier: MIT */
/* Counting runs for the PMU checks, built on the pmu/ library and the measurement frame. */
#include "tests/pmu_run.h"
#include "arch/x86/msr.h"
#include "lib/fmt.h"
#include "lib/stats.h"
#include "lib/string.h"
#include "tests/measure.h"

uint64_t pmu_os_evtsel(enum arch_event ev)
{
	struct pmu_evtsel e = pmu_arch_evtsel(ev, false, true);

	return pmu_evtsel_encode(&e);
}

static void stop_all(const struct ctr_cfg *cfg, unsigned ncfg)
{
	char ignored[PMU_ERR_LEN];

	for (unsigned i = 0; i < ncfg; i++) {
		if (cfg[i].fixed)
			pmu_fixed_program(&pmu, cfg[i].idx, 0, 0, ignored, sizeof(ignored));
		else
			pmu_gp_program(&pmu, cfg[i].idx, 0, 0, ignored, sizeof(ignored));
	}
}

int pmu_run(const struct ctr_cfg *cfg, unsigned ncfg, const struct kernel_desc *k,
	    uint64_t n, void *arg, struct pmu_result *res, char *err, size_t errlen)
{
	uint64_t enable = 0;
	int r;

	memset(res, 0, sizeof(*res));
	if (ncfg > PMU_RUN_MAX) {
		fmt_snprintf(err, errlen, "%u counters requested, at most %u", ncfg, PMU_RUN_MAX);
		return PMU_EARG;
	}
	if ((r = pmu_global_ctrl_write(&pmu, 0, err, errlen))) {
		if (r > 0)
			fmt_snprintf(err, errlen, "WRMSR IA32_PERF_GLOBAL_CTRL faulted (vector %d)", r);
		return r;
	}
	/* Start from a clean overflow status; the run's own overflows stay for the caller. */
	pmu_global_ovf_clear(&pmu, pmu_ovf_clear_bits(&pmu));
	for (unsigned i = 0; i < ncfg; i++) {
		const struct ctr_cfg *c = &cfg[i];

		r = c->fixed ? pmu_fixed_program(&pmu, c->idx, c->fixed_ctrl, c->start, err, errlen) :
			       pmu_gp_program(&pmu, c->idx, c->evtsel, c->start, err, errlen);
		if (r) {
			if (r > 0)
				fmt_snprintf(err, errlen, "programming %s counter %u faulted (vector %d)",
					     c->fixed ? "fixed" : "GP", c->idx, r);
			stop_all(cfg, ncfg);
			return r;
		}
		enable |= c->fixed ? 1ULL << (GLOBAL_FIXED_SHIFT + c->idx) : 1ULL << c->idx;
	}
	res->tsc = measure_kernel_pmu(k, n, arg, enable).tsc;
	for (unsigned i = 0; i < ncfg; i++) {
		const struct ctr_cfg *c = &cfg[i];

		r = c->fixed ? pmu_fixed_rdpmc(&pmu, c->idx, &res->value[i]) :
			       pmu_gp_rdpmc(&pmu, c->idx, &res->value[i]);
		if (r) {
			fmt_snprintf(err, errlen, "RDPMC of %s counter %u faulted (vector %d)",
				     c->fixed ? "fixed" : "GP", c->idx, r);
			stop_all(cfg, ncfg);
			return r;
		}
		res->delta[i] = pmu_counter_delta(c->start, res->value[i],
						  c->fixed ? pmu.fixed_width : pmu.gp_width);
	}
	stop_all(cfg, ncfg);
	return 0;
}

int pmu_run_differential_stats(const struct ctr_cfg *cfg, unsigned ncfg,
			       const struct kernel_desc *k, uint64_t n, void *arg, unsigned reps,
			       uint64_t *diff, uint64_t *median, uint64_t *tsc_diff, char *err,
			       size_t errlen)
{
	static uint64_t per_rep[PMU_RUN_MAX][PMU_DIFF_MAX_REPS];
	uint64_t lo[PMU_RUN_MAX], hi[PMU_RUN_MAX], tlo = UINT64_MAX, thi = UINT64_MAX;
	struct pmu_result res[2];
	unsigned kept = 0;
	int r;

	for (unsigned i = 0; i < ncfg; i++)
		lo[i] = hi[i] = UINT64_MAX;
	for (unsigned rep = 0; rep < (reps ? reps : 1); rep++) {
		for (unsigned half = 0; half < 2; half++) {
			uint64_t *best = half ? hi : lo;

			if ((r = pmu_run(cfg, ncfg, k, half ? 2 * n : n, arg, &res[half], err, errlen)))
				return r;
			for (unsigned i = 0; i < ncfg; i++)
				best[i] = res[half].delta[i] < best[i] ? res[half].delta[i] : best[i];
			if (half)
				thi = res[half].tsc < thi ? res[half].tsc : thi;
			else
				tlo = res[half].tsc < tlo ? res[half].tsc : tlo;
		}
		if (kept < PMU_DIFF_MAX_REPS) {
			for (unsigned i = 0; i < ncfg; i++)
				per_rep[i][kept] = res[1].delta[i] - res[0].delta[i];
			kept++;
		}
	}
	for (unsigned i = 0; i < ncfg; i++) {
		diff[i] = hi[i] - lo[i];	/* may wrap "negative" on a broken counter: shown as is */
		if (median) {
			struct u64_stats st;

			u64_stats(per_rep[i], kept, &st);
			median[i] = st.median;
		}
	}
	if (tsc_diff)
		*tsc_diff = thi - tlo;
	return 0;
}

int pmu_run_differential(const struct ctr_cfg *cfg, unsigned ncfg, const struct kernel_desc *k,
			 uint64_t n, void *arg, unsigned reps, uint64_t *diff, uint64_t *tsc_diff,
			 char *err, size_t errlen)
{
	return pmu_run_differential_stats(cfg, ncfg, k, n, arg, reps, diff, NULL, tsc_diff, err,
					  errlen);
}
