/* SPDX-License-Identifier: MIT */
/* Counting runs for the PMU checks, built on the pmu/ library and the measurement frame. */
#include "tests/measure/pmu_run.h"
#include "arch/x86/msr.h"
#include "lib/fmt.h"
#include "lib/stats.h"
#include "lib/string.h"
#include "tests/measure/region.h"

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

/* MSR_SMI_COUNT, or 0 where the model has none (then no SMI is ever seen). */
static uint64_t smi_now(void)
{
	uint64_t v = 0;

	return pmu_smi_count(&pmu, &v) == 0 ? v : 0;
}

int pmu_run(const struct ctr_cfg *cfg, unsigned ncfg, const struct kernel_desc *k,
	    uint64_t n, void *arg, const struct pmu_run_opts *o, struct pmu_result *res,
	    char *err, size_t errlen)
{
	uint64_t enable = 0, smi0;
	int r;

	memset(res, 0, sizeof(*res));
	if (ncfg > PMU_RUN_MAX) {
		fmt_snprintf(err, errlen, "%u counters requested, at most %u", ncfg, PMU_RUN_MAX);
		return PMU_EARG;
	}
	smi0 = smi_now();
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
	if (o && o->before)
		o->before(n, arg);
	{
		struct region r = o && o->unframed ? measure_kernel_pmu_unframed(k, n, arg, enable) :
				  measure_kernel_pmu(k, n, arg, enable);

		res->tsc = r.tsc;
		res->region_id = r.id;
		res->region_seq = r.seq;
		res->region_vcpu = r.vcpu;
	}
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
	res->smis = (smi_now() - smi0) & MSR_SMI_COUNT_MASK;
	return 0;
}

_Static_assert(PMU_RUN_MAX <= PAIRS_MAX, "a core run's values fit struct pairs");

void pairs_init(struct pairs *p, unsigned nv, unsigned want)
{
	memset(p, 0, sizeof(*p));
	p->nv = nv < PAIRS_MAX ? nv : PAIRS_MAX;	/* callers check their own counts first */
	p->want = want ? want : 1;
	p->tlo = p->thi = UINT64_MAX;
	for (unsigned i = 0; i < nv; i++)
		p->lo[i] = p->hi[i] = UINT64_MAX;
}

bool pairs_more(struct pairs *p)
{
	if (p->kept >= p->want || p->tries >= 2 * p->want)
		return false;
	p->tries++;
	return true;
}

bool pairs_add(struct pairs *p, const uint64_t *a, const uint64_t *b, uint64_t tsc_a,
	       uint64_t tsc_b, uint64_t smis)
{
	if (smis) {
		p->discarded++;
		p->smis += smis;
		return false;
	}
	for (unsigned i = 0; i < p->nv; i++) {
		p->lo[i] = a[i] < p->lo[i] ? a[i] : p->lo[i];
		p->hi[i] = b[i] < p->hi[i] ? b[i] : p->hi[i];
		if (p->kept < PMU_DIFF_MAX_REPS)
			p->per[i][p->kept] = (int64_t)(b[i] - a[i]);
	}
	p->tlo = tsc_a < p->tlo ? tsc_a : p->tlo;
	p->thi = tsc_b < p->thi ? tsc_b : p->thi;
	p->kept++;
	return true;
}

int pairs_finish(const struct pairs *p, int64_t *diff, int64_t *median, int64_t *tsc,
		 char *err, size_t errlen)
{
	static int64_t v[PMU_DIFF_MAX_REPS];
	unsigned n = p->kept < PMU_DIFF_MAX_REPS ? p->kept : PMU_DIFF_MAX_REPS;

	if (!p->kept) {
		fmt_snprintf(err, errlen, "every one of %u repetitions took an SMI (%llu SMIs, "
			     "MSR_SMI_COUNT): no clean count", p->tries, (unsigned long long)p->smis);
		return PMU_EARG;
	}
	for (unsigned i = 0; i < p->nv; i++) {
		diff[i] = (int64_t)(p->hi[i] - p->lo[i]);
		memcpy(v, p->per[i], n * sizeof(v[0]));	/* i64_median reorders */
		median[i] = i64_median(v, n);
	}
	*tsc = (int64_t)(p->thi - p->tlo);
	return 0;
}

int pmu_run_differential(const struct ctr_cfg *cfg, unsigned ncfg, const struct kernel_desc *k,
			 uint64_t n, void *arg, const struct pmu_run_opts *o, struct pmu_diff *d,
			 char *err, size_t errlen)
{
	static struct pairs p;
	struct pmu_result res[2];
	int r;

	memset(d, 0, sizeof(*d));
	d->smi_checked = pmu.has_smi_count;
	pairs_init(&p, ncfg, o ? o->reps : 1);
	while (pairs_more(&p)) {
		for (unsigned half = 0; half < 2; half++)
			if ((r = pmu_run(cfg, ncfg, k, half ? 2 * n : n, arg, o, &res[half], err,
					 errlen)))
				return r;
		if (!pairs_add(&p, res[0].delta, res[1].delta, res[0].tsc, res[1].tsc,
			       res[0].smis + res[1].smis))
			continue;
		for (unsigned i = 0; i < ncfg; i++)
			if (!d->clock_tsc[i] ||
			    (unsigned __int128)res[1].delta[i] * d->clock_tsc[i] >
			    (unsigned __int128)d->clock_count[i] * res[1].tsc) {
				d->clock_count[i] = res[1].delta[i];
				d->clock_tsc[i] = res[1].tsc;
			}
	}
	d->kept = p.kept;
	d->discarded = p.discarded;
	d->smis = p.smis;
	return pairs_finish(&p, d->diff, d->median, &d->tsc, err, errlen);
}

const char *pmu_count_unavailable(void)
{
	if (pmu_unavailable_reason(false))
		return pmu_unavailable_reason(false);
	if (pmu.version < 2)
		return "PMU version 1: no IA32_PERF_GLOBAL_CTRL for the measurement frame";
	if (pmu.num_gp < 2 && !(pmu.num_gp >= 1 && (pmu.fixed_mask & 1)))
		return "needs two GP counters, or one and fixed counter 0";
	/* Every VM exit inside the window adds one (kvm-unit-tests drops exact counts there). */
	if (pmu.hypervisor && !pmu.tcg && (pmu.errata & PMU_ERRATUM_FAR_INSNS))
		return "under a hypervisor on a model with erratum SRF7: every VM exit counts";
	if (!(pmu.events & (1U << ARCH_EVENT_INSTRUCTIONS)) ||
	    !(pmu.events & (1U << ARCH_EVENT_BRANCHES)))
		return "instructions or branches retired not available (CPUID.0AH:EBX)";
	return NULL;
}

int pmu_count_insns_branches(const struct kernel_desc *k, uint64_t n, void *arg,
			     uint64_t *insns, uint64_t *branches, char *err, size_t errlen)
{
	bool fixed = pmu.fixed_mask & 1;
	struct ctr_cfg cfg[2] = {
		{ .fixed = fixed, .idx = 0, .fixed_ctrl = FIXED_CTR_CTRL_OS,
		  .evtsel = pmu_os_evtsel(ARCH_EVENT_INSTRUCTIONS) },
		{ .idx = fixed ? 0 : 1, .evtsel = pmu_os_evtsel(ARCH_EVENT_BRANCHES) },
	};
	struct pmu_result res;
	struct region r;
	int rc;

	/* A run an SMI perturbed is made again (a few times at most). */
	for (unsigned tries = 0;; tries++) {
		if ((rc = pmu_run(cfg, 2, k, n, arg, NULL, &res, err, errlen)))
			return rc;
		if (!res.smis || tries == 3)
			break;
	}
	*insns = res.delta[0];
	*branches = res.delta[1];
	r = (struct region){ res.region_id, res.region_seq, res.region_vcpu, res.tsc };
	measure_note_pmu(&r, *insns, *branches);
	return 0;
}

const char *pairs_note(unsigned kept, unsigned discarded, uint64_t smis)
{
	static char b[96];

	if (discarded)
		fmt_snprintf(b, sizeof(b), " reps=%u smi_discarded=%u (%llu SMIs)", kept, discarded,
			     (unsigned long long)smis);
	else
		fmt_snprintf(b, sizeof(b), " reps=%u", kept);
	return b;
}
