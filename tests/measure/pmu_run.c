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

int pmu_run_nhm_reset(char *err, size_t errlen)
{
	int r = pmu_nhm_counter_reset(&pmu);

	if (r == PMU_EARG)
		fmt_snprintf(err, errlen, "the Nehalem counter reset (AAK100) cannot put back a "
			     "counter value without full-width writes");
	else if (r)
		fmt_snprintf(err, errlen, "the Nehalem counter reset (AAK100) faulted (vector %d)", r);
	return r;
}

int pmu_run_arm(const struct ctr_cfg *cfg, unsigned ncfg, uint64_t *enable, char *err,
		size_t errlen)
{
	int r;

	*enable = 0;
	if (ncfg > PMU_RUN_MAX) {
		fmt_snprintf(err, errlen, "%u counters requested, at most %u", ncfg, PMU_RUN_MAX);
		return PMU_EARG;
	}
	if ((r = pmu_global_ctrl_write(&pmu, 0, err, errlen))) {
		if (r > 0)
			fmt_snprintf(err, errlen, "WRMSR IA32_PERF_GLOBAL_CTRL faulted (vector %d)", r);
		return r;
	}
	if ((r = pmu_run_nhm_reset(err, errlen)))
		return r;
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
		*enable |= c->fixed ? 1ULL << (GLOBAL_FIXED_SHIFT + c->idx) : 1ULL << c->idx;
	}
	return 0;
}

int pmu_run(const struct ctr_cfg *cfg, unsigned ncfg, const struct kernel_desc *k,
	    uint64_t n, void *arg, const struct pmu_run_opts *o, struct pmu_result *res,
	    char *err, size_t errlen)
{
	uint64_t enable, smi0;
	int r;

	memset(res, 0, sizeof(*res));
	smi0 = smi_now();
	if ((r = pmu_run_arm(cfg, ncfg, &enable, err, errlen)))
		return r;
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
	p->ref_a = p->ref_b = p->xtlo = p->xthi = UINT64_MAX;
	for (unsigned i = 0; i < PAIRS_MAX; i++)
		p->xlo[i] = p->xhi[i] = UINT64_MAX;
}

static bool over(uint64_t t, uint64_t ref)
{
	return t > ref + ref / 2 + PAIRS_STRETCH_SLACK;
}

/* The lower quartile of the first n of t[] (n >= 1). */
static uint64_t lower_quartile(const uint64_t *t, unsigned n)
{
	static uint64_t v[PMU_DIFF_MAX_REPS];

	for (unsigned i = 0; i < n; i++) {	/* insertion sort: at most 64 */
		unsigned j = i;

		for (; j && v[j - 1] > t[i]; j--)
			v[j] = v[j - 1];
		v[j] = t[i];
	}
	return v[(n - 1) / 4];
}

/* Each half's reference run time: the lower quartile of the stored runs of that half
 * (none before one is stored; no pair is judged before then). */
static void pairs_refs(struct pairs *p)
{
	if (!p->stored)
		return;
	p->ref_a = lower_quartile(p->ta, p->stored);
	p->ref_b = lower_quartile(p->tb, p->stored);
}

/* A run at n or at 2n took well over the reference run of its half, or the run at 2n,
 * which does all the run at n does and n more, took less time than it (by more than
 * PAIRS_STRETCH_SLACK): then the run at n was stretched, though its half's reference may
 * be too (most runs at n stretched, 4 vCPUs on 2 host CPUs: U = -12444474 in CI). */
static bool pair_stretched(const struct pairs *p, uint64_t ta, uint64_t tb)
{
	return over(ta, p->ref_a) || over(tb, p->ref_b) || ta > tb + PAIRS_STRETCH_SLACK;
}

static unsigned pairs_clean(struct pairs *p)
{
	unsigned n = p->extra;

	pairs_refs(p);
	for (unsigned j = 0; j < p->stored; j++)
		n += !pair_stretched(p, p->ta[j], p->tb[j]);
	return n;
}

/* Clean pairs enough for the result: most of those wanted, and at least three (a median
 * of two is their mean, one odd pair's) where three or more are wanted. */
static unsigned clean_needed(unsigned want)
{
	unsigned most = (want + 1) / 2;

	return most >= 3 || want < 3 ? most : 3;
}

bool pairs_more(struct pairs *p)
{
	unsigned clean = pairs_clean(p);

	if (p->stored + p->extra + p->stretched >= p->want && clean >= clean_needed(p->want))
		return false;
	/* Past twice the pairs wanted, go on only while not one SMI-free pair is clean of
	 * stretch, and only so far: a result is never made of stretched runs. */
	if (p->tries >= 2 * p->want &&
	    (clean || !p->stored || p->tries >= 2 * p->want + PAIRS_NONE_CLEAN_MORE))
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
	if (p->stored < PMU_DIFF_MAX_REPS) {
		unsigned j = p->stored++;

		for (unsigned i = 0; i < p->nv; i++) {
			p->a[i][j] = a[i];
			p->b[i][j] = b[i];
		}
		p->ta[j] = tsc_a;
		p->tb[j] = tsc_b;
		return true;
	}
	/* Past the storage: judged now, against the stored runs' references. */
	pairs_refs(p);
	if (pair_stretched(p, tsc_a, tsc_b)) {
		p->stretched++;
		return true;
	}
	for (unsigned i = 0; i < p->nv; i++) {
		p->xlo[i] = a[i] < p->xlo[i] ? a[i] : p->xlo[i];
		p->xhi[i] = b[i] < p->xhi[i] ? b[i] : p->xhi[i];
	}
	p->xtlo = tsc_a < p->xtlo ? tsc_a : p->xtlo;
	p->xthi = tsc_b < p->xthi ? tsc_b : p->xthi;
	p->extra++;
	return true;
}

int pairs_finish(struct pairs *p, int64_t *diff, int64_t *median, int64_t *tsc,
		 char *err, size_t errlen)
{
	static int64_t v[PMU_DIFF_MAX_REPS];
	static bool use[PMU_DIFF_MAX_REPS];
	unsigned n = 0;

	if (!p->stored && !p->extra) {
		fmt_snprintf(err, errlen, "every one of %u repetitions took an SMI (%llu SMIs, "
			     "MSR_SMI_COUNT): no clean count", p->tries, (unsigned long long)p->smis);
		return PMU_EARG;
	}
	pairs_refs(p);
	for (unsigned j = 0; j < p->stored; j++) {
		use[j] = !pair_stretched(p, p->ta[j], p->tb[j]);
		n += use[j];
	}
	p->stretched += p->stored - n;
	p->kept = n + p->extra;
	/* None clean: no pair, and no difference of minima from different pairs, measures the
	 * kernel (a clock's or the TSC's can come out negative), so nothing is judged. */
	if (!p->kept) {
		fmt_snprintf(err, errlen, "no clean measurement: all %u SMI-free pairs stretched "
			     "(> 1.5x a half's lower quartile, %llu ticks at n, %llu at 2n; or 2n "
			     "faster than n); %u took SMIs", p->stretched,
			     (unsigned long long)p->ref_a, (unsigned long long)p->ref_b,
			     p->discarded);
		return PMU_EARG;
	}
	for (unsigned i = 0; i < p->nv; i++) {
		uint64_t lo = p->xlo[i], hi = p->xhi[i];
		unsigned m = 0;

		for (unsigned j = 0; j < p->stored; j++) {
			if (!use[j])
				continue;
			lo = p->a[i][j] < lo ? p->a[i][j] : lo;
			hi = p->b[i][j] < hi ? p->b[i][j] : hi;
			v[m++] = (int64_t)(p->b[i][j] - p->a[i][j]);
		}
		diff[i] = (int64_t)(hi - lo);
		median[i] = m ? i64_median(v, m) : diff[i];	/* i64_median reorders v */
	}
	{
		uint64_t lo = p->xtlo, hi = p->xthi;
		unsigned m = 0;

		for (unsigned j = 0; j < p->stored; j++)
			if (use[j]) {
				lo = p->ta[j] < lo ? p->ta[j] : lo;
				hi = p->tb[j] < hi ? p->tb[j] : hi;
				v[m++] = (int64_t)(p->tb[j] - p->ta[j]);
			}
		*tsc = (int64_t)(hi - lo);
		/* Beside the counts' medians, the TSC's: a count that follows time (an uncore
		 * clock) over the difference of TSC minima taken from different pairs is off by
		 * whatever stretched the faster half's minimum (7.35 GHz "UCLK" under load). */
		p->tsc_median = m ? i64_median(v, m) : *tsc;
	}
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
	r = pairs_finish(&p, d->diff, d->median, &d->tsc, err, errlen);
	d->kept = p.kept;
	d->discarded = p.discarded;
	d->smis = p.smis;
	d->stretched = p.stretched;
	return r;
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

const char *pairs_note(unsigned kept, unsigned discarded, uint64_t smis, unsigned stretched)
{
	static char b[128];
	char st[48] = "";

	if (stretched)
		fmt_snprintf(st, sizeof(st), " stretched=%u", stretched);
	if (discarded)
		fmt_snprintf(b, sizeof(b), " reps=%u smi_discarded=%u (%llu SMIs)%s", kept, discarded,
			     (unsigned long long)smis, st);
	else
		fmt_snprintf(b, sizeof(b), " reps=%u%s", kept, st);
	return b;
}
