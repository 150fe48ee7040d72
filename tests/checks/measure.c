/* SPDX-License-Identifier: MIT */
/*
 * measure.<set>.<EVENT>: the user's event lists (option measure=), each event counted over
 * its set's kernel with the differential method, the events of a set multiplexed across
 * runs when they outnumber the counters. What a result asserts: the counter was programmed
 * (the library accepted the selector) and read without a fault, and the count is no more than
 * a run could produce (UEV_EVENTS_PER_CYCLE per core cycle at UEV_CYCLES_PER_TSC core cycles
 * per TSC tick across the run at 2n).
 */
#include "tests/harness/check.h"
#include "tests/harness/env.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "pmu/catalog.h"
#include "tests/checks/measure.h"
#include "tests/measure/pmu_run.h"
#include "tests/measure/user_events.h"

#define MEASURE_REPS_DEFAULT	5
#define CHASE_SEED		0x9e3779b97f4a7c15ULL

static struct uev_plan plan;

/* What one run of a set gave, kept for the events of that run that come later. */
struct run_result {
	bool done;
	int rc;
	char err[PMU_ERR_LEN];
	uint64_t n;
	unsigned kept, discarded;
	uint64_t smis;
};
static struct run_result runs[MEASURE_MAX_SETS][MEASURE_MAX_EVENTS];
struct ev_result {
	int64_t diff, median;
	uint64_t tsc;		/* TSC across the run at 2n that bounds it */
};
static struct ev_result results[MEASURE_MAX_SETS][MEASURE_MAX_EVENTS];

static void usable_counters(struct uev_hw *hw)
{
	bool usable = !pmu_unavailable_reason(false) && pmu.version >= 2;

	hw->num_gp = usable ? pmu.num_gp : 0;
	hw->fixed_mask = usable ? pmu.fixed_mask : 0;
}

int measure_prepare(const struct options *o, char *err, size_t errlen)
{
	const struct pmu_catalog *cats[4];
	unsigned n = pmu_catalogs_for(pmu.uarch, cats, 4);
	struct uev_hw hw;

	usable_counters(&hw);
	memset(runs, 0, sizeof(runs));
	return uev_resolve(&plan, o, cats, n, &hw, err, errlen);
}

int measure_check_buffer(uint64_t buf_size, char *err, size_t errlen)
{
	return uev_check_buffer(&plan, buf_size, err, errlen);
}

static unsigned measure_instances(void)
{
	return plan.nevents;
}

static void measure_instance_name(unsigned i, char *buf, size_t len)
{
	unsigned s, e;

	if (!uev_locate(&plan, i, &s, &e)) {
		str_lcpy(buf, "?", len);
		return;
	}
	fmt_snprintf(buf, len, "%s.%s", plan.set[s].name, plan.set[s].ev[e].label);
}

/* The kernels' arguments, static (the oracle's frame model assumes no kernel data on the
 * frame's stack page). */
static struct branch_lfsr lfsr;
static struct branch_pattern alt;

static void before_lfsr(uint64_t n, void *arg)
{
	(void)n;
	*(struct branch_lfsr *)arg = (struct branch_lfsr){ 0xace1ace1ace1ace1ULL, LFSR64_TAPS };
}

static void before_flush(uint64_t n, void *arg)
{
	chase_flush(arg, n);
}

/* The kernel of a set (the kernel table's entry its workload names), its n and argument, and
 * what to do before each run. */
static const struct kernel_desc *kernel_of(const struct measure_set *ms, uint64_t *n, void **arg,
					   struct pmu_run_opts *ro)
{
	const struct measure_kernel_info *w;

	*n = measure_iterations(ms);
	*arg = NULL;
	if (ms->kernel >= MK_COUNT)
		return NULL;
	w = &measure_kernels[ms->kernel];
	switch (w->prep) {
	case MP_LFSR:
		*arg = &lfsr;
		ro->before = before_lfsr;
		break;
	case MP_ALT:
		alt = (struct branch_pattern){ 2, 2 };
		*arg = &alt;
		break;
	case MP_CHASE:
	case MP_CHASE_COLD:
		*arg = chase_build(env.buf, ms->size / 64, 64, CHASE_SEED);
		if (w->prep == MP_CHASE_COLD)
			ro->before = before_flush;
		break;
	default:
		if (kernel_memory(w->kernel))	/* lines of the test buffer */
			*arg = (void *)(uintptr_t)env.buf;
		break;
	}
	return kernel_table[w->kernel];
}

static void do_run(unsigned s, unsigned r)
{
	const struct uev_set *set = &plan.set[s];
	struct run_result *rr = &runs[s][r];
	struct pmu_run_opts ro = { .reps = env.reps_set ? env.reps : MEASURE_REPS_DEFAULT };
	struct ctr_cfg cfg[PMU_RUN_MAX];
	unsigned evidx[PMU_RUN_MAX], nc = uev_run_cfg(set, r, cfg, evidx);
	const struct kernel_desc *k;
	static struct pmu_diff d;
	void *arg;

	rr->done = true;
	if (measure_buffer_bytes(set->spec) > env.buf_size || (measure_buffer_bytes(set->spec) &&
								 !env.buf)) {
		rr->rc = -1;
		str_lcpy(rr->err, "the test buffer is smaller than SIZE", sizeof(rr->err));
		return;
	}
	k = kernel_of(set->spec, &rr->n, &arg, &ro);
	if (!k) {
		rr->rc = -1;
		str_lcpy(rr->err, "no such kernel", sizeof(rr->err));
		return;
	}
	rr->rc = pmu_run_differential(cfg, nc, k, rr->n, arg, &ro, &d, rr->err, sizeof(rr->err));
	if (rr->rc)
		return;
	rr->kept = d.kept;
	rr->discarded = d.discarded;
	rr->smis = d.smis;
	for (unsigned c = 0; c < nc; c++)
		results[s][evidx[c]] = (struct ev_result){ d.diff[c], d.median[c], d.clock_tsc[c] };
}

/* "123.456" from a count over n iterations, in thousandths. */
static void per_iter(int64_t v, uint64_t n, char *buf, size_t len)
{
	bool neg = v < 0;
	uint64_t a = neg ? (uint64_t)-v : (uint64_t)v;
	uint64_t whole = n ? a / n : 0, frac = n ? (a % n) * 1000 / n : 0;

	fmt_snprintf(buf, len, "%s%llu.%03llu", neg ? "-" : "", (unsigned long long)whole,
		     (unsigned long long)frac);
}

static enum check_status check_measure(struct check_ctx *c)
{
	const char *why = pmu_unavailable_reason(env.force_pmu);
	struct uev_event *e;
	struct uev_set *set;
	struct run_result *rr;
	struct ev_result *res;
	unsigned s, i;
	char ctr[16], pi[32];
	uint64_t bound;

	if (!uev_locate(&plan, c->instance, &s, &i))
		return check_result(c, CHECK_FAIL, "no such event", "an event of measure=");
	set = &plan.set[s];
	e = &set->ev[i];
	if (i == 0 && plan.hw.num_gp) {
		unsigned nfixed = 0;

		for (uint32_t m = plan.hw.fixed_mask; m; m &= m - 1)
			nfixed++;
		check_diag(c, "measure: %u event%s on %u GP counters (and %u fixed): %u run%s; set %s, "
			   "n=%llu", set->nev, set->nev == 1 ? "" : "s", plan.hw.num_gp, nfixed,
			   set->nruns, set->nruns == 1 ? "" : "s", set->name,
			   (unsigned long long)measure_iterations(set->spec));
	}
	if (why)
		return check_skip(c, "%s", why);
	if (!env.force_pmu && pmu.version < 2)
		return check_skip(c, "PMU version 1: no IA32_PERF_GLOBAL_CTRL for the measurement frame");
	rr = &runs[s][e->run];
	if (!rr->done)
		do_run(s, e->run);
	uev_counter_name(e, ctr, sizeof(ctr));
	if (rr->rc)
		return check_error(c, rr->err, "%s programmed (0x%llx) and read run=%u/%u", ctr, e->on_fixed ? 0ULL :
				   (unsigned long long)pmu_evtsel_encode(&e->sel), e->run + 1, set->nruns);
	res = &results[s][i];
	bound = uev_bound(res->tsc);
	per_iter(res->diff, rr->n, pi, sizeof(pi));
	if ((uint64_t)(res->diff < 0 ? -res->diff : res->diff) > bound)
		return check_result(c, CHECK_FAIL, "%lld", "|count|<=%llu (%u per cycle, %u cycles per "
				    "TSC tick over %llu ticks) per_iter=%s counter=%s run=%u/%u n=%llu "
				    "median=%lld reps=%u", (long long)res->diff,
				    (unsigned long long)bound, UEV_EVENTS_PER_CYCLE, UEV_CYCLES_PER_TSC,
				    (unsigned long long)res->tsc, pi, ctr, e->run + 1, set->nruns,
				    (unsigned long long)rr->n, (long long)res->median, rr->kept);
	return check_result(c, CHECK_PASS, "%lld per_iter=%s", "|count|<=%llu counter=%s run=%u/%u "
			    "n=%llu median=%lld reps=%u%s", (long long)res->diff, pi,
			    (unsigned long long)bound, ctr, e->run + 1, set->nruns,
			    (unsigned long long)rr->n, (long long)res->median, rr->kept,
			    rr->discarded ? " smi_discarded" : "");
}
CHECK_DEFINE(850, "measure", check_measure,
	     "the user's event lists (measure=EVENTS@KERNEL:SIZE): each event counted over its kernel",
	     .instances = measure_instances, .instance_name = measure_instance_name);
