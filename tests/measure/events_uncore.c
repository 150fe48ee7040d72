/* SPDX-License-Identifier: MIT */
/*
 * The uncore engine of the seed-event checks: each row of a seed model's table
 * (tests/expect/seed_<model>.c) whose cases run the uncore kernels (EVK_U_*) is measured
 * here, for the checks events.<model>.<EVENT> (tests/checks/events.c dispatches by the row's
 * kernel). A case's event and its reference events are found in the catalog by name
 * (pmu/catalog.h), placed on the uncore's counters (Nehalem: eight, the row's event on a
 * counter that rotates with the row, so every counter carries driven rows; Skylake: counter 0
 * of every CBo summed, as seed 001 3.1 recommends, or an ARB counter; the IMC's free-running
 * counters beside them), counted with the fixed UCLK counter over the case's kernel by the
 * differential method (tests/measure/uncore_run.h), and the relation evaluated. References
 * that do not fit beside the event go to another run of the same kernel.
 */
#include "arch/x86/cpuid.h"
#include "arch/x86/io.h"
#include "arch/x86/smp.h"
#include "arch/x86/tsc.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "pmu/catalog.h"
#include "pmu/counter.h"
#include "pmu/uncore.h"
#include "tests/harness/check.h"
#include "tests/harness/env.h"
#include "tests/measure/events_uncore.h"
#include "tests/measure/region.h"
#include "tests/expect/seed.h"
#include "tests/measure/uncore_run.h"
#include "tests/measure/xcore.h"

#define UX_REPS		5
#define DRAM_STEPS_MAX	50000ULL
#define PINGPONG_N	4096
#define SEED		0x9e3779b97f4a7c15ULL
#define MAX_EVENTS	(1 + EV_MAX_REFS)
#define MAX_RUNS	MAX_EVENTS

/* ---- Working sets and kernels ---------------------------------------------------------- */

/* A locked add across a line boundary: a bus lock empties the uncore's queues before an
 * occupancy counts (seed 000, "The Global Queue" and Table 32's note). */
static void bus_lock(void)
{
	static uint8_t split[128] __attribute__((aligned(64)));

	asm volatile("lock addl $0, %0" : "+m"(*(volatile uint32_t *)(uintptr_t)(split + 62)) : :
		     "memory");
}

/* What a case's kernel needs, prepared once per case. */
struct prep {
	unsigned k;
	const struct kernel_desc *desc;
	uint64_t n;
	void *arg;
	uint64_t region, region_bytes;	/* EVICT: the region touched before; XDROP: the
					 * partner's eviction region */
	int partner;			/* XCLEAN, XDROP, PINGPONG */
};

static struct prep cur;

/* The other CPU's side of XCLEAN/XDROP: reads the run's lines, and for XDROP then reads
 * twice its L2 of other lines so they leave its caches without a write. */
struct partner_job {
	void *first;
	uint64_t steps, drop, drop_bytes;
};

static void partner_read(void *p)
{
	struct partner_job *j = p;

	kernel_chase_desc.fn(j->steps, j->first);
	for (uint64_t a = 0; a < j->drop_bytes; a += 64)
		(void)*(volatile uint64_t *)(uintptr_t)(j->drop + a);
}

static void before(uint64_t n, void *arg)
{
	switch (cur.k) {
	case EVK_U_LLC:
		/* One pass over the working set first: the lines the harness dirtied between
		 * the runs (its stack, the pairs' records) are written back to the LLC now, not
		 * inside the window, where they came out as write lookups that differ between
		 * the halves of a pair (WRITE_MESI -47 over this read-only chase, ANY_MESI 67
		 * below READ_MESI: a differential artefact, on silicon as in the emulation). */
		cur.desc->fn(cur.n, arg);
		break;
	case EVK_U_DRAM:
		chase_flush(arg, n);
		break;
	case EVK_U_STORE_LLC:
		for (uint64_t a = 0; a < cur.region_bytes; a += 64)
			(void)*(volatile uint64_t *)(uintptr_t)(cur.region + a);
		break;
	case EVK_U_EVICT_CLEAN:
	case EVK_U_EVICT_DIRTY:
		chase_flush(arg, n);
		for (uint64_t a = 0; a < cur.region_bytes; a += 64) {
			volatile uint64_t *q = (volatile uint64_t *)(uintptr_t)(cur.region + a);

			if (cur.k == EVK_U_EVICT_DIRTY)
				*q = a;
			else
				(void)*q;
		}
		break;
	case EVK_U_XCLEAN:
	case EVK_U_XDROP: {
		static struct partner_job job __attribute__((aligned(64)));

		chase_flush(arg, n);
		job = (struct partner_job){ arg, n, cur.region,
					    cur.k == EVK_U_XDROP ? cur.region_bytes : 0 };
		if (!run_start((unsigned)cur.partner, partner_read, &job))
			run_wait((unsigned)cur.partner, 1000000);
		break;
	}
	default:
		break;
	}
	if (uncore.kind == UNCORE_NHM)
		bus_lock();
}

/* Prepares case kernel k; NULL, or why it cannot run here. */
static const char *prepare(unsigned k, char *why, size_t len)
{
	uint64_t l2 = cpu_cache_bytes(2), llc = cpu_cache_bytes(3), buf = env.buf_size, ws;
	const struct ev_workload *w = ev_workload(k);
	const char *pwhy = NULL;

	memset(&cur, 0, sizeof(cur));
	cur.k = k;
	cur.desc = w && w->kernel < K_COUNT ? kernel_table[w->kernel] : NULL;	/* the workload's */
	cur.partner = -1;
	if (k != EVK_U_LOOP && k != EVK_U_STORE_NT && k != EVK_U_PINGPONG && (!l2 || !llc)) {
		fmt_snprintf(why, len, "CPUID leaf 4 reports no L2 or L3 (L2 %llu, L3 %llu bytes)",
			     (unsigned long long)l2, (unsigned long long)llc);
		return why;
	}
	switch (k) {
	case EVK_U_LOOP:
		cur.n = 100000;
		break;
	case EVK_U_L2:
		cur.n = l2 / 2 / 64;
		cur.arg = chase_build(env.buf, cur.n, 64, SEED);
		break;
	case EVK_U_LLC:
		ws = 4 * l2 < llc / 2 ? 4 * l2 : llc / 2;
		if (ws > buf || ws < 2 * l2) {
			fmt_snprintf(why, len, "no working set between 2x the L2 (%llu) and half the "
				     "LLC (%llu) fits the %llu-byte buffer", (unsigned long long)l2,
				     (unsigned long long)llc, (unsigned long long)buf);
			return why;
		}
		/* chase_build writes every node: written back once here, the lines are clean
		 * (E, not M) when the runs read them into the LLC. */
		cur.n = ws / 64;
		cur.arg = chase_build(env.buf, cur.n, 64, SEED);
		chase_flush(cur.arg, cur.n);
		break;
	case EVK_U_DRAM: {
		uint64_t bytes = buf < (64ULL << 20) ? buf : (64ULL << 20);

		/* 2n nodes, a line each, spread evenly over the region in a random order: the
		 * run at 2n visits each once, every one flushed, as a ring over all the region's
		 * lines would, for a tenth of the building (a ring of 1M nodes was built again
		 * for each row: most of a row's time on the emulated PMU). */
		cur.n = bytes / 128 < DRAM_STEPS_MAX ? bytes / 128 : DRAM_STEPS_MAX;
		if (!env.buf || !cur.n) {
			cur.n = 0;	/* "no test buffer", below */
			break;
		}
		cur.arg = chase_build(env.buf, 2 * cur.n, bytes / (2 * cur.n) / 64 * 64, SEED);
		break;
	}
	case EVK_U_EVICT_CLEAN:
	case EVK_U_EVICT_DIRTY:
		cur.n = llc / 256 < DRAM_STEPS_MAX ? llc / 256 : DRAM_STEPS_MAX;
		if (buf < llc + 2 * cur.n * 64) {
			fmt_snprintf(why, len, "the buffer (%llu bytes) holds no LLC-sized region (%llu) "
				     "beside the chase's %llu lines: size= larger", (unsigned long long)buf,
				     (unsigned long long)llc, (unsigned long long)(2 * cur.n));
			return why;
		}
		cur.region = env.buf;
		cur.region_bytes = llc;
		cur.arg = chase_build(env.buf + llc, 2 * cur.n, 64, SEED);
		break;
	case EVK_U_STORE_NT:
		cur.n = buf / 128 < 65536 ? buf / 128 : 65536;
		cur.arg = (void *)(uintptr_t)env.buf;
		break;
	case EVK_U_STORE_LLC:
		/* Before each run an L2-sized region read after the stored lines pushes the
		 * L2's modified lines out (outside the window): each run then starts from an
		 * L2 of clean lines, and its writebacks are its own lines beyond the L2's: n - L2
		 * at n, 2n - L2 at 2n, N more. */
		cur.n = llc / 256 > l2 / 64 ? llc / 256 : l2 / 64;
		cur.region = env.buf + 2 * cur.n * 64;
		cur.region_bytes = l2;
		if (2 * cur.n * 64 + l2 > llc * 3 / 4 || 2 * cur.n * 64 + l2 > buf) {
			fmt_snprintf(why, len, "%llu lines beyond the L2 (%llu bytes) and the L2 do not "
				     "fit 3/4 of the LLC (%llu) and the buffer (%llu)",
				     (unsigned long long)(2 * cur.n), (unsigned long long)l2,
				     (unsigned long long)llc, (unsigned long long)buf);
			return why;
		}
		cur.arg = (void *)(uintptr_t)env.buf;
		break;
	case EVK_U_PINGPONG:
	case EVK_U_XCLEAN:
	case EVK_U_XDROP:
		cur.partner = xcore_partner(&pwhy);
		if (cur.partner < 0) {
			str_lcpy(why, pwhy ? pwhy : "no other CPU", len);
			return why;
		}
		cur.n = k == EVK_U_PINGPONG ? 2 * PINGPONG_N - 1 : l2 / 256;
		if (k != EVK_U_PINGPONG) {
			cur.region = env.buf + 2 * cur.n * 64;
			cur.region_bytes = 2 * l2;
			if (buf < 2 * cur.n * 64 + cur.region_bytes) {
				fmt_snprintf(why, len, "the buffer (%llu bytes) is smaller than the "
					     "chase and twice the L2", (unsigned long long)buf);
				return why;
			}
			cur.arg = chase_build(env.buf, 2 * cur.n, 64, SEED);
		}
		break;
	default:
		str_lcpy(why, "unknown kernel", len);
		return why;
	}
	if (!cur.n) {
		str_lcpy(why, "no test buffer", len);
		return why;
	}
	return NULL;
}

/* ---- Events on counters -------------------------------------------------------------- */

struct ev {
	const char *name;
	const struct pmu_event_def *def;
	int run;		/* which run counts it */
	unsigned slot;		/* its first unc_cfg in that run (CBo: one per CBo) */
	unsigned nslots;
	bool imc, fixed;
	int64_t val;
};

struct run_plan {
	struct unc_cfg cfg[UNC_RUN_MAX];
	unsigned ncfg;
	unsigned nhm_used, cbo_used, arb_used;	/* counter bitmaps */
	bool imc, match;
	unsigned fixed_slot;
	struct unc_diff d;
};

static struct uncore_evtsel evtsel_of(const struct pmu_event_def *d)
{
	struct uncore_evtsel e = { .event = d->event, .umask = d->umask, .thr = d->cmask,
				   .inv = !!(d->flags & PMU_EVF_INV),
				   .edge = !!(d->flags & PMU_EVF_EDGE) };

	return e;
}

/* Occupancies count from an emptied queue (seed 000): OCC_CTR_RST, and the bus lock of
 * before(). */
static bool nhm_occupancy(const char *name)
{
	return glob_match("*OCCUP*", name);
}

/* Places e in run p (starting the search at counter `start`); false if it does not fit. */
static bool place(struct run_plan *p, struct ev *e, unsigned start)
{
	const struct pmu_event_def *d = e->def;
	unsigned mask = d->counters ? d->counters : ~0U;

	switch (d->unit) {
	case PMU_UNIT_SKL_IMC:
		e->imc = true;
		p->imc = true;
		return true;
	case PMU_UNIT_SKL_UCLK:
		e->fixed = true;
		return true;
	case PMU_UNIT_NHM_UNC:
		if (d->fixed >= 0 || d->event == 0xff) {
			e->fixed = true;
			return true;
		}
		if ((d->flags & PMU_EVF_MATCH) && p->match)
			return false;
		for (unsigned k = 0; k < UNC_NHM_CTRS; k++) {
			unsigned i = (start + k) % UNC_NHM_CTRS;

			if ((p->nhm_used & (1U << i)) || !(mask & (1U << i)))
				continue;
			p->nhm_used |= 1U << i;
			p->match |= !!(d->flags & PMU_EVF_MATCH);
			e->slot = p->ncfg;
			e->nslots = 1;
			p->cfg[p->ncfg++] = (struct unc_cfg){ .ctr = { UNC_BOX_NHM, 0, i },
							      .sel = evtsel_of(d) };
			if (nhm_occupancy(e->name))
				p->cfg[p->ncfg - 1].sel.occ_rst = true;
			return true;
		}
		return false;
	case PMU_UNIT_SKL_CBO:
		for (unsigned i = 0; i < UNC_SKL_BOX_CTRS; i++) {
			if ((p->cbo_used & (1U << i)) || !(mask & (1U << i)))
				continue;
			p->cbo_used |= 1U << i;
			e->slot = p->ncfg;
			e->nslots = uncore.num_cbo;
			for (unsigned b = 0; b < uncore.num_cbo; b++)
				p->cfg[p->ncfg++] = (struct unc_cfg){ .ctr = { UNC_BOX_CBO, b, i },
								      .sel = evtsel_of(d) };
			return true;
		}
		return false;
	case PMU_UNIT_SKL_ARB:
		for (unsigned i = 0; i < UNC_SKL_BOX_CTRS; i++) {
			if ((p->arb_used & (1U << i)) || !(mask & (1U << i)))
				continue;
			p->arb_used |= 1U << i;
			e->slot = p->ncfg;
			e->nslots = 1;
			p->cfg[p->ncfg++] = (struct unc_cfg){ .ctr = { UNC_BOX_ARB, 0, i },
							      .sel = evtsel_of(d) };
			return true;
		}
		return false;
	default:
		return false;
	}
}

static const struct pmu_catalog *catalog(void)
{
	return pmu_catalog_by_model(uncore.kind == UNCORE_NHM ? "nhm_unc" : "skl_unc");
}

/* ---- One case ------------------------------------------------------------------------ */

struct case_result {
	struct ev ev[MAX_EVENTS];
	unsigned nev;
	struct ev_vals x;
	char note[112];		/* the differential's reps and discards (unc_diff_note) */
	bool holds;
	char failed[160];
};

/* The two-CPU ping-pong, counted once (no differential): N = 2n - 1 hand-offs. */
static int run_pingpong(struct run_plan *p, char *err, size_t errlen)
{
	struct uncore_ctr ctrs[UNC_RUN_MAX];
	uint64_t t0, t1;
	int r;

	memset(&p->d, 0, sizeof(p->d));
	uncore_claim();
	uncore_reset(&uncore);
	for (unsigned i = 0; i < p->ncfg; i++) {
		struct uncore_evtsel e = p->cfg[i].sel;

		ctrs[i] = p->cfg[i].ctr;
		e.en = true;
		r = ctrs[i].box == UNC_BOX_FIXED ?
		    uncore_fixed_program(&uncore, true, false, 0, err, errlen) :
		    uncore_program(&uncore, ctrs[i], &e, 0, err, errlen);
		if (r)
			goto out;
	}
	if ((r = uncore_global_ctrl_write(&uncore, uncore_global_value(uncore.kind, ctrs, p->ncfg,
								     0, false), err, errlen)))
		goto out;
	t0 = rdtsc();
	r = xcore_pingpong((unsigned)cur.partner, PINGPONG_N, 0, err, errlen);
	t1 = rdtsc();
	uncore_global_ctrl_write(&uncore, 0, err, errlen);
	if (r)
		goto out;
	for (unsigned i = 0; i < p->ncfg; i++) {
		uint64_t v = 0;

		if ((r = uncore_read(&uncore, ctrs[i], &v))) {
			fmt_snprintf(err, errlen, "RDMSR of an uncore counter faulted (vector %d)", r);
			goto out;
		}
		p->d.diff[i] = p->d.median[i] = (int64_t)v;
	}
	p->d.tsc = p->d.tsc_median = (int64_t)(t1 - t0);
	p->d.kept = 1;
out:
	uncore_reset(&uncore);
	return r;
}

static int64_t event_value(const struct ev *e, const struct run_plan *runs)
{
	const struct run_plan *p = &runs[e->run];
	int64_t v = 0;

	/* The median of the pairs' own differences, as the core engine takes: every count of a
	 * run and the uncore clock beside it come from the same pairs, where a difference of
	 * minima taken from different runs can even turn negative when run times vary (seen on
	 * the emulated PMU on a loaded host: UNC_CLOCK -636922 over a chase). */
	if (e->imc)
		return p->d.imc_median[e->def->fixed];
	if (e->fixed)
		return p->d.median[p->fixed_slot];
	for (unsigned s = 0; s < e->nslots; s++)
		v += p->d.median[e->slot + s];
	return v;
}

static const char *run_case(const struct events_row *row, unsigned c, unsigned rot,
			    struct case_result *res, char *why, size_t len)
{
	static struct run_plan runs[MAX_RUNS];
	const struct ev_case *k = &row->c[c];
	const struct pmu_catalog *cat = catalog();
	unsigned nruns = 0, nref = events_nrefs(k);
	struct unc_run_opts o = { .reps = UX_REPS, .before = before };
	const char *skip;
	char err[PMU_ERR_LEN];

	memset(res, 0, sizeof(*res));
	if (!cat) {
		str_lcpy(why, "no catalog for this uncore", len);
		return why;
	}
	res->nev = 1 + nref;
	for (unsigned i = 0; i < res->nev; i++) {
		struct ev *e = &res->ev[i];

		e->name = i ? k->refs[i - 1] : row->event;
		e->def = pmu_catalog_find(&cat, 1, e->name, NULL);
		if (!e->def) {
			fmt_snprintf(why, len, "%s is not in the %s catalog", e->name, cat->model);
			return why;
		}
		if (e->def->unit == PMU_UNIT_SKL_IMC && uncore_imc_unavailable_reason(&uncore)) {
			fmt_snprintf(why, len, "%s: %s", e->name, uncore_imc_unavailable_reason(&uncore));
			return why;
		}
	}
	if ((skip = prepare(k->kernel, why, len)))
		return skip;
	/* Greedy: each event into the first run it fits. */
	memset(runs, 0, sizeof(runs));
	for (unsigned i = 0; i < res->nev; i++) {
		struct ev *e = &res->ev[i];
		unsigned r;

		for (r = 0; r < nruns; r++)
			if (place(&runs[r], e, rot + i))
				break;
		if (r == nruns) {
			if (nruns == MAX_RUNS || !place(&runs[nruns], e, rot + i)) {
				fmt_snprintf(why, len, "%s fits no counter", e->name);
				return why;
			}
			nruns++;
		}
		e->run = (int)r;
	}
	/* Every run counts UCLK on the fixed counter, and the match register is set for it. */
	for (unsigned r = 0; r < nruns; r++) {
		struct run_plan *p = &runs[r];
		const struct ev *match = NULL;
		int rc;

		p->fixed_slot = p->ncfg;
		p->cfg[p->ncfg++] = (struct unc_cfg){ .ctr = { UNC_BOX_FIXED, 0, 0 } };
		for (unsigned i = 0; i < res->nev; i++)
			if (res->ev[i].run == (int)r && (res->ev[i].def->flags & PMU_EVF_MATCH))
				match = &res->ev[i];
		o.imc = p->imc;
		uncore_claim();
		if (match && uncore_nhm_match_write(&uncore, match->def->msr, match->def->msr_value,
						    err, sizeof(err)))
			goto fail;
		if (k->kernel == EVK_U_PINGPONG)
			rc = run_pingpong(p, err, sizeof(err));
		else
			rc = uncore_run_differential(p->cfg, p->ncfg, cur.desc, cur.n, cur.arg, &o,
						     &p->d, err, sizeof(err));
		if (match)	/* the run's own error stays in err */
			uncore_nhm_match_write(&uncore, match->def->msr, 0, NULL, 0);
		if (rc)
			goto fail;
	}
	for (unsigned i = 0; i < res->nev; i++)
		res->ev[i].val = event_value(&res->ev[i], runs);
	res->x.v = res->ev[0].val;
	for (unsigned i = 0; i < nref; i++)
		res->x.ref[i] = res->ev[1 + i].val;
	res->x.n = (int64_t)cur.n;
	res->x.uclk = runs[res->ev[0].run].d.median[runs[res->ev[0].run].fixed_slot];
	/* The time beside the counts: the median pair's, as the counts are medians. */
	res->x.us = (int64_t)(runs[res->ev[0].run].d.tsc_median /
			      (int64_t)(tsc.hz / 1000000 ? tsc.hz / 1000000 : 1));
	str_lcpy(res->note, unc_diff_note(&runs[res->ev[0].run].d), sizeof(res->note));
	res->holds = ev_rel_eval(k->rel, &res->x, res->failed, sizeof(res->failed));
	return NULL;
fail:
	fmt_snprintf(why, len, "FAIL:%s", err);
	return why;
}

/* ---- The check ----------------------------------------------------------------------- */

static void diag_case(struct check_ctx *c, const struct events_row *row, unsigned k,
		      const struct case_result *res)
{
	char line[200];

	fmt_snprintf(line, sizeof(line), "%s on %s (%s): N=%lld U=%lld T=%lldus v=%lld%s",
		     k ? "contrast" : "case", ev_kernel_name(row->c[k].kernel), ev_kernel_size_text(row->c[k].kernel),
		     (long long)res->x.n, (long long)res->x.uclk, (long long)res->x.us,
		     (long long)res->x.v, res->note);
	check_diag(c, "%s", line);
	for (unsigned i = 1; i < res->nev; i++)
		check_diag(c, "  %c = %s = %lld", 'a' + i - 1, res->ev[i].name,
			   (long long)res->ev[i].val);
	check_diag(c, "  %s", row->c[k].rel);
}

enum check_status check_events_uncore_row(struct check_ctx *c, const struct events_row *row,
					  unsigned pos)
{
	struct case_result res[EV_MAX_CASES];
	unsigned nc;
	const char *no = uncore_unavailable_reason(&uncore, str_cmp(row->model, "nhm") ?
						  UNCORE_SKL : UNCORE_NHM);
	char why[200], meas[160] = "";

	if (row->kind == EVR_NONE)
		return check_skip(c, "no expectation (%s): %s", row->source, row->why);
	if (no)
		return check_skip(c, "%s", no);
	nc = events_ncases(row);
	for (unsigned k = 0; k < nc; k++) {
		const char *s = run_case(row, k, pos, &res[k], why, sizeof(why));

		if (s && str_starts_with(s, "FAIL:"))
			return check_error(c, s + 5, "%s counted on %s", row->event,
					   ev_kernel_name(row->c[k].kernel));
		if (s)
			return check_skip(c, "%s: %s", ev_kernel_name(row->c[k].kernel), s);
		diag_case(c, row, k, &res[k]);
	}
	for (unsigned k = 0; k < nc; k++) {
		char one[64];

		fmt_snprintf(one, sizeof(one), "%s%lld on %s", k ? ", " : "", (long long)res[k].x.v,
			     ev_kernel_name(row->c[k].kernel));
		str_lcat(meas, one, sizeof(meas));
	}
	for (unsigned k = 0; k < nc; k++)
		if (!res[k].holds)
			return check_error(c, meas, "%s (%s, %s) broken: %s",
					   ev_kind_name(row->kind), ev_kernel_name(row->c[k].kernel),
					   row->source, res[k].failed);
	return check_result(c, CHECK_PASS, "%s", "%s: %s%s%s (%s)", meas, ev_kind_name(row->kind),
			    row->c[0].rel, nc > 1 ? " | " : "", nc > 1 ? row->c[1].rel : "", row->source);
}
