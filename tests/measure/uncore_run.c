/* SPDX-License-Identifier: MIT */
/* Uncore counting runs: program, run the kernel in the measurement frame, read, stop. */
#include "tests/measure/uncore_run.h"
#include "arch/x86/msr.h"
#include "lib/fmt.h"
#include "lib/stats.h"
#include "lib/string.h"
#include "pmu/counter.h"
#include "tests/measure/region.h"
#include "tests/measure/pmu_run.h"

struct unc_result {
	uint64_t delta[UNC_RUN_MAX];
	uint32_t imc[UNC_IMC_NUM];
	uint64_t tsc, smis;
};

static uint64_t smi_now(void)
{
	uint64_t v = 0;

	return pmu_smi_count(&pmu, &v) == 0 ? v : 0;
}

static void stop(void)
{
	char ignored[PMU_ERR_LEN];

	uncore_global_ctrl_write(&uncore, 0, ignored, sizeof(ignored));
	uncore_reset(&uncore);
}

static int imc_snapshot(uint32_t v[UNC_IMC_NUM], char *err, size_t errlen)
{
	for (unsigned i = 0; i < UNC_IMC_NUM; i++) {
		int r = uncore_imc_read(&uncore, (enum uncore_imc_ctr)i, &v[i]);

		if (r) {
			fmt_snprintf(err, errlen, "MMIO read of %s at MCHBAR+0x%x faulted (%d)",
				     uncore_imc_name((enum uncore_imc_ctr)i),
				     uncore_imc_offset((enum uncore_imc_ctr)i), r);
			return r;
		}
	}
	return 0;
}

static int run_once(const struct unc_cfg *cfg, unsigned ncfg, const struct kernel_desc *k,
		    uint64_t n, void *arg, const struct unc_run_opts *o, struct unc_result *res,
		    char *err, size_t errlen)
{
	struct uncore_ctr ctrs[UNC_RUN_MAX];
	uint32_t imc0[UNC_IMC_NUM] = { 0 }, imc1[UNC_IMC_NUM] = { 0 };
	uint64_t smi0, enable;
	struct region reg;
	int r;

	memset(res, 0, sizeof(*res));
	smi0 = smi_now();
	if (ncfg)	/* an IMC-only run writes no uncore MSR (there may be none) */
		stop();
	for (unsigned i = 0; i < ncfg; i++) {
		struct uncore_evtsel e = cfg[i].sel;

		ctrs[i] = cfg[i].ctr;
		e.en = true;
		r = cfg[i].ctr.box == UNC_BOX_FIXED ?
		    uncore_fixed_program(&uncore, true, false, cfg[i].start, err, errlen) :
		    uncore_program(&uncore, cfg[i].ctr, &e, cfg[i].start, err, errlen);
		if (r) {
			stop();
			return r;
		}
	}
	enable = uncore_global_value(uncore.kind, ctrs, ncfg, 0, false);
	if (o && o->before)
		o->before(n, arg);
	if (o && o->imc && (r = imc_snapshot(imc0, err, errlen)))
		goto fail;
	reg = ncfg ? measure_kernel_msr(k, n, arg, uncore_global_ctrl_msr(uncore.kind), enable) :
	      measure_kernel(k, n, arg);
	if (o && o->imc && (r = imc_snapshot(imc1, err, errlen)))
		goto fail;
	res->tsc = reg.tsc;
	for (unsigned i = 0; i < ncfg; i++) {
		uint64_t v;

		if ((r = uncore_read(&uncore, cfg[i].ctr, &v))) {
			fmt_snprintf(err, errlen, "RDMSR of an uncore counter faulted (vector %d)", r);
			stop();
			return r;
		}
		res->delta[i] = uncore_delta(cfg[i].start, v, uncore_width(uncore.kind, cfg[i].ctr.box));
	}
	for (unsigned i = 0; i < UNC_IMC_NUM; i++)
		res->imc[i] = (uint32_t)uncore_delta(imc0[i], imc1[i], UNC_IMC_WIDTH);
	if (ncfg)
		stop();
	res->smis = (smi_now() - smi0) & MSR_SMI_COUNT_MASK;
	return 0;
fail:
	if (ncfg)
		stop();
	return r;
}

_Static_assert(UNC_RUN_MAX + UNC_IMC_NUM <= PAIRS_MAX, "an uncore run's values fit struct pairs");

int uncore_run_differential(const struct unc_cfg *cfg, unsigned ncfg, const struct kernel_desc *k,
			    uint64_t n, void *arg, const struct unc_run_opts *o, struct unc_diff *d,
			    char *err, size_t errlen)
{
	static struct pairs p;
	int64_t diff[UNC_RUN_MAX + UNC_IMC_NUM], med[UNC_RUN_MAX + UNC_IMC_NUM];
	uint64_t v[2][UNC_RUN_MAX + UNC_IMC_NUM];
	struct unc_result res[2];
	int r;

	memset(d, 0, sizeof(*d));
	if (ncfg > UNC_RUN_MAX) {
		fmt_snprintf(err, errlen, "%u uncore counters requested, at most %u", ncfg, UNC_RUN_MAX);
		return PMU_EARG;
	}
	if (ncfg && uncore_claim()) {
		fmt_snprintf(err, errlen, "no uncore: %s", uncore.why);
		return PMU_EARG;
	}
	/* Every counter slot and the IMC's free-running counters after them. */
	pairs_init(&p, UNC_RUN_MAX + UNC_IMC_NUM, o ? o->reps : 1);
	while (pairs_more(&p)) {
		for (unsigned half = 0; half < 2; half++) {
			if ((r = run_once(cfg, ncfg, k, half ? 2 * n : n, arg, o, &res[half], err,
					  errlen)))
				return r;
			memcpy(v[half], res[half].delta, sizeof(res[half].delta));
			for (unsigned i = 0; i < UNC_IMC_NUM; i++)
				v[half][UNC_RUN_MAX + i] = res[half].imc[i];
		}
		pairs_add(&p, v[0], v[1], res[0].tsc, res[1].tsc, res[0].smis + res[1].smis);
	}
	r = pairs_finish(&p, diff, med, &d->tsc, err, errlen);
	d->kept = p.kept;
	d->discarded = p.discarded;
	d->smis = p.smis;
	d->stretched = p.stretched;
	d->tsc_median = p.tsc_median;
	if (r)
		return r;
	memcpy(d->diff, diff, sizeof(d->diff));
	memcpy(d->median, med, sizeof(d->median));
	memcpy(d->imc, diff + UNC_RUN_MAX, sizeof(d->imc));
	memcpy(d->imc_median, med + UNC_RUN_MAX, sizeof(d->imc_median));
	return 0;
}
