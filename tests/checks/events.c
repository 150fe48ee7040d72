/* SPDX-License-Identifier: MIT */
/*
 * The seed-event checks events.<model>.<EVENT>, one check per seed model (tests/expect/seed_models.h;
 * each model's rows in tests/expect/seed_<model>.c), and their core engine:
 * the cases of one (core kernel, size) are measured together, every event they need
 * (reference events too) counted once, several per run on the counters the catalog allows,
 * and kept; each check then evaluates its relation from what was kept. Rows on the uncore
 * kernels go to tests/measure/events_uncore.c.
 */
#include "arch/x86/io.h"
#include "arch/x86/msr.h"
#include "arch/x86/paging.h"
#include "tests/harness/check.h"
#include "tests/checks/events.h"
#include "tests/harness/env.h"
#include "tests/measure/events_uncore.h"
#include "arch/x86/console.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "pmu/catalog.h"
#include "pmu/counter.h"
#include "pmu/ds.h"
#include "pmu/event.h"
#include "tests/expect/seed.h"
#include "tests/expect/seed_models.h"
#include "tests/measure/region.h"
#include "tests/measure/pmu_run.h"
#include "tests/measure/uncore_run.h"
#include "pmu/uncore.h"
#include "tests/measure/xcore.h"
#include "arch/x86/smp.h"

#define EV_REPS		3		/* pairs of runs kept per measurement */
#define EV_CACHE_MAX	1536		/* (event, kernel, size) counts kept */
#define EV_GROUP_MAX	128		/* events one (kernel, size) needs */
#define EV_ERR_LEN	96
#define EV_SKIP_PREFIX	"SKIP "	/* a setup error that is a reason to skip, not a failure */

struct ev_count {
	const char *model, *name;	/* the table's spelling */
	uint8_t kernel;
	uint32_t size;
	bool ok;
	int64_t diff, median;
	uint64_t n;			/* the iterations the difference covers */
	char err[EV_ERR_LEN];
};

static struct ev_count cache[EV_CACHE_MAX];
static unsigned ncache;

static struct ev_count *cache_find(const char *model, const char *name, unsigned kernel,
				   uint32_t size)
{
	for (unsigned i = 0; i < ncache; i++) {
		struct ev_count *e = &cache[i];

		if (e->kernel == kernel && e->size == size && !str_cmp(e->model, model) &&
		    !str_cmp(e->name, name))
			return e;
	}
	return NULL;
}

static struct ev_count *cache_add(const char *model, const char *name, unsigned kernel,
				  uint32_t size)
{
	struct ev_count *e;

	if (ncache >= EV_CACHE_MAX)
		return NULL;
	e = &cache[ncache++];
	memset(e, 0, sizeof(*e));
	e->model = model;
	e->name = name;
	e->kernel = (uint8_t)kernel;
	e->size = size;
	str_lcpy(e->err, "not measured", sizeof(e->err));
	return e;
}

/* --- Kernels: what a (kernel, size) runs ------------------------------------------- */

struct ev_setup {
	const struct kernel_desc *k;
	void *arg;
	uint64_t n;
	void (*before)(uint64_t n, void *arg);
};

static void chase_cold(uint64_t n, void *first)
{
	chase_flush(first, n);
}

static void make_clean(uint64_t n, void *base)
{
	lines_make_clean(base, n);
}

static void flush_lines(uint64_t n, void *base)
{
	lines_flush(base, n);
}

/* The other CPU's part: read (or write) every line of a region. */
struct touch {
	volatile uint64_t *base;
	uint64_t lines;
	bool write;
};
static struct touch touch;
static int partner = -1;
static unsigned other_kind;	/* the EVK_ kind being prepared */
static uint64_t other_bytes;	/* the region: env.buf .. + other_bytes */

static void touch_lines(void *arg)
{
	struct touch *t = arg;

	for (uint64_t i = 0; i < t->lines; i++) {
		if (t->write)
			t->base[8 * i + 1] = t->base[8 * i + 1];
		else
			(void)t->base[8 * i];
	}
}

/* Before each run of a two-CPU kind: the region flushed, then touched on the other CPU (and
 * read here too for the shared kinds). A run_on failure leaves the lines as they are: the
 * counts then fail their bounds, saying so is the check's. */
static void prepare_other(uint64_t n, void *arg)
{
	uint64_t lines = other_bytes / 64;

	(void)n;
	(void)arg;
	lines_flush((void *)(uintptr_t)env.buf, lines);
	touch = (struct touch){ (volatile uint64_t *)(uintptr_t)env.buf, lines,
				other_kind == EVK_CHASE_HITM };
	run_on((unsigned)partner, touch_lines, &touch, 1000000);
	if (other_kind == EVK_CHASE_SHARED || other_kind == EVK_STORE_SHARED ||
	    other_kind == EVK_LOCK_SHARED) {
		touch.write = false;
		touch_lines(&touch);
	}
}

#define CHASE_SEED	0x9e3779b97f4a7c15ULL

static int ev_setup(unsigned kernel, uint32_t size, struct ev_setup *s, char *err, size_t len)
{
	/* Static: the oracle's frame model assumes no kernel data shares the frame's stack page. */
	static struct branch_lfsr lfsr;
	static struct branch_mix mix;
	static struct ind_misp misp;
	static struct { uint64_t q[8]; } __attribute__((aligned(64))) line;
	static uint64_t denormal __attribute__((aligned(64)));
	const struct ev_workload *w;
	uint64_t nodes, bytes;

	memset(s, 0, sizeof(*s));
	if (size & EV_PAST_L2) {
		char why[CHECK_DETAIL_LEN / 2];

		bytes = events_ws_bytes(size, cpu_cache_bytes(2), cpu_cache_bytes(3), why, sizeof(why));
		if (bytes > UINT32_MAX / 2)
			fmt_snprintf(why, sizeof(why), "a chase past an L2 of %llu bytes needs more "
				     "than 2 GiB", (unsigned long long)(bytes / 2));
		if (!bytes || bytes > UINT32_MAX / 2) {
			fmt_snprintf(err, len, "%s%s", EV_SKIP_PREFIX, why);
			return -1;
		}
		size = (uint32_t)bytes;
	}
	w = ev_workload(kernel);
	if (!w || w->kernel >= K_COUNT || ev_kernel_uncore(kernel)) {
		fmt_snprintf(err, len, "kernel %s not available", ev_kernel_name(kernel));
		return -1;
	}
	/* The workload's kernel; below, its argument and what is done before it. */
	s->k = kernel_table[w->kernel];
	s->n = events_iters(kernel, size);
	switch (kernel) {
	case EVK_LFSR:
		lfsr = (struct branch_lfsr){ 0xace1ace1ace1ace1ULL, LFSR64_TAPS };
		s->arg = &lfsr;
		return 0;
	case EVK_MIX: s->arg = &mix; return 0;
	case EVK_IND_MISP:
		misp = (struct ind_misp){ .state = 0xace1ace1ace1ace1ULL, .taps = LFSR64_TAPS };
		s->arg = &misp;
		return 0;
	case EVK_FLDCW: s->arg = &line; return 0;
	case EVK_LDMXCSR: s->arg = &line; return 0;
	case EVK_DENORM:
		denormal = 1;	/* the smallest positive denormal double */
		s->arg = &denormal;
		return 0;
	case EVK_CHASE_OTHER:
	case EVK_CHASE_SHARED:
	case EVK_CHASE_HITM:
	case EVK_STORE_SHARED:
	case EVK_LOCK_SHARED: {
		const char *why = "";

		partner = xcore_partner(&why);
		if (partner < 0) {
			fmt_snprintf(err, len, "%s%s", EV_SKIP_PREFIX, why);
			return -1;
		}
		if (size > env.buf_size / 2 || !env.buf || size < 128)
			break;
		other_kind = kernel;
		other_bytes = kernel == EVK_STORE_SHARED || kernel == EVK_LOCK_SHARED ? 2ULL * size : size;
		s->before = prepare_other;
		if (kernel == EVK_STORE_SHARED || kernel == EVK_LOCK_SHARED)
			s->arg = (void *)(uintptr_t)env.buf;
		else
			s->arg = chase_build(env.buf, size / 64, 64, CHASE_SEED);
		return 0;
	}
	case EVK_CHASE:
	case EVK_CHASE_CLEAN:
	case EVK_CHASE_COLD:
	case EVK_CHASE_PAGE: {
		uint64_t stride = kernel == EVK_CHASE_PAGE ? 4096 : 64;

		if (size > env.buf_size || !env.buf)
			break;
		nodes = size / stride;
		if (nodes < 2)
			break;
		s->arg = chase_build(env.buf, nodes, stride, CHASE_SEED);
		/* Cold: the 2n steps of the longer run visit 2n distinct lines, all flushed. */
		if (kernel == EVK_CHASE_COLD)
			s->before = (void (*)(uint64_t, void *))chase_cold;
		if (kernel == EVK_CHASE_CLEAN)
			chase_flush(s->arg, nodes);
		return 0;
	}
	case EVK_STORE:
	case EVK_STORE_NT:
	case EVK_STORE_E:
	case EVK_LOCK:
	case EVK_LOCK_E:
	case EVK_LOAD_COLD:
		/* One line per iteration; the run at 2n writes 2n lines. */
		if (2ULL * size > env.buf_size || !env.buf || size < 64)
			break;
		if (kernel == EVK_STORE_E || kernel == EVK_LOCK_E)
			s->before = make_clean;
		if (kernel == EVK_LOAD_COLD)
			s->before = flush_lines;
		s->arg = (void *)(uintptr_t)env.buf;
		return 0;
	default:	/* an iteration kernel: no argument, nothing before */
		return 0;
	}
	fmt_snprintf(err, len, "%s%s over %u bytes needs a larger test buffer than this %llu-byte "
		     "one (option size=)", EV_SKIP_PREFIX, ev_kernel_name(kernel), size,
		     (unsigned long long)env.buf_size);
	return -1;
}

/* --- Events: resolution through the catalog and placement on counters -------------- */

static const struct pmu_event_def *resolve(const char *model, const char *name)
{
	const struct pmu_catalog *cats[EV_MAX_CATALOGS];
	unsigned n = events_model_catalogs(events_model_by_name(model), cats, EV_MAX_CATALOGS);

	return pmu_catalog_find(cats, n, name, NULL);
}

struct ev_need {
	struct ev_count *slot;
	const struct pmu_event_def *def;
	bool placed;
};

static unsigned allowed_gp(const struct pmu_event_def *d)
{
	unsigned n = 0, gp = pmu.num_gp < 8 ? pmu.num_gp : 8;

	for (unsigned i = 0; i < gp; i++)
		n += pmu_catalog_counter_ok(d, i);
	return n;
}

static uint64_t evtsel_of(const struct pmu_event_def *d)
{
	struct pmu_evtsel e = pmu_catalog_evtsel(d, false, true);

	return pmu_evtsel_encode(&e);
}

/*
 * Load-latency events (PMU_EVF_LDLAT: Nehalem MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_x)
 * count only with their counter's PEBS and LL_EN bits set in IA32_PEBS_ENABLE (seed 000
 * "Latency Event"; SDM 18.8.1.2), which needs a debug store area. The counters start at 0 and
 * never reach an overflow in these runs, so no record is written; the area is valid anyway.
 */
#define LDLAT_REC	256
static struct ds_area ldlat_ds;
static uint8_t ldlat_buf[16 * LDLAT_REC] __attribute__((aligned(64)));

static int ldlat_enable(const struct ctr_cfg *cfg, struct ev_need *const *who, unsigned ncfg,
			char *err, size_t len)
{
	uint64_t mask = 0;
	int r;

	for (unsigned i = 0; i < ncfg; i++)
		if (!cfg[i].fixed && (who[i]->def->flags & PMU_EVF_LDLAT))
			mask |= (1ULL << cfg[i].idx) | (1ULL << (PEBS_ENABLE_LL_SHIFT + cfg[i].idx));
	if (!mask)
		return 0;
	if (!pebs_has_ld_lat(&pmu) || pebs_unavailable(&pmu, env.force_pmu)) {
		fmt_snprintf(err, len, "load-latency PEBS unavailable: %s",
			     pebs_unavailable(&pmu, env.force_pmu) ?
			     pebs_unavailable(&pmu, env.force_pmu) : "no MSR_PEBS_LD_LAT_THRESHOLD");
		return -1;
	}
	memset(&ldlat_ds, 0, sizeof(ldlat_ds));
	if (ds_setup_pebs(&ldlat_ds, (uint64_t)(uintptr_t)ldlat_buf, sizeof(ldlat_buf), LDLAT_REC,
			  0, err, len))
		return -1;
	if ((r = ds_area_write((uint64_t)(uintptr_t)&ldlat_ds)) || (r = pebs_enable_write(mask))) {
		fmt_snprintf(err, len, "writing IA32_DS_AREA or IA32_PEBS_ENABLE 0x%llx faulted "
			     "(vector %d)", (unsigned long long)mask, r);
		return -1;
	}
	return 1;
}

/* One run: as many pending events as the counters take (restricted ones first, one value
 * per extra MSR), counted by the differential method. */
static void run_batch(struct ev_need *need, unsigned nneed, const struct ev_setup *s)
{
	struct ctr_cfg cfg[PMU_RUN_MAX];
	struct ev_need *who[PMU_RUN_MAX];
	unsigned ncfg = 0, gp = pmu.num_gp < 8 ? pmu.num_gp : 8;
	uint32_t used_gp = 0, used_fixed = 0, msr = 0;
	uint64_t msr_value = 0;
	struct pmu_run_opts o = { .reps = EV_REPS, .before = s->before };
	struct pmu_diff d;
	char err[PMU_ERR_LEN];
	int ll;

	for (unsigned pass = 1; pass <= 8; pass++) {
		for (unsigned i = 0; i < nneed && ncfg < PMU_RUN_MAX; i++) {
			struct ev_need *e = &need[i];
			const struct pmu_event_def *def = e->def;

			if (e->placed || def->unit != PMU_UNIT_CORE ||
			    (def->fixed < 0 && allowed_gp(def) != pass))
				continue;
			if (def->msr && msr && (def->msr != msr || def->msr_value != msr_value))
				continue;
			if (def->fixed >= 0) {
				if (pass != 1 || (unsigned)def->fixed >= pmu.num_fixed ||
				    (used_fixed & (1U << def->fixed)))
					continue;
				used_fixed |= 1U << def->fixed;
				cfg[ncfg] = (struct ctr_cfg){ .fixed = true, .idx = (unsigned)def->fixed,
					.fixed_ctrl = FIXED_CTR_CTRL_OS |
						      (def->flags & PMU_EVF_ANY ? FIXED_CTR_CTRL_ANY : 0) };
			} else {
				unsigned idx = 0;

				while (idx < gp && ((used_gp & (1U << idx)) || !pmu_catalog_counter_ok(def, idx)))
					idx++;
				if (idx >= gp)
					continue;
				used_gp |= 1U << idx;
				cfg[ncfg] = (struct ctr_cfg){ .idx = idx, .evtsel = evtsel_of(def) };
			}
			if (def->msr) {
				msr = def->msr;
				msr_value = def->msr_value;
			}
			e->placed = true;
			who[ncfg++] = e;
		}
	}
	if (!ncfg) {
		/* Nothing could be placed: a fixed-only event without that fixed counter, or a
		 * counter mask beyond this PMU's counters. */
		for (unsigned i = 0; i < nneed; i++) {
			if (need[i].placed || need[i].def->unit != PMU_UNIT_CORE)
				continue;
			need[i].placed = true;
			fmt_snprintf(need[i].slot->err, EV_ERR_LEN, "no counter of this PMU can count "
				     "it (fixed %d, mask 0x%x)", need[i].def->fixed, need[i].def->counters);
		}
		return;
	}
	err[0] = '\0';
	ll = ldlat_enable(cfg, who, ncfg, err, sizeof(err));
	if (ll < 0) {
		d.kept = 0;
	} else if (msr && pmu_extra_msr_write(&pmu, msr, msr_value, err, sizeof(err)) == 0) {
		if (pmu_run_differential(cfg, ncfg, s->k, s->n, s->arg, &o, &d, err, sizeof(err)))
			d.kept = 0;
		pmu_extra_msr_write(&pmu, msr, 0, NULL, 0);
	} else if (!msr) {
		if (pmu_run_differential(cfg, ncfg, s->k, s->n, s->arg, &o, &d, err, sizeof(err)))
			d.kept = 0;
	} else {
		d.kept = 0;
	}
	if (ll > 0)
		pebs_enable_write(0);
	for (unsigned i = 0; i < ncfg; i++) {
		struct ev_count *c = who[i]->slot;

		if (!d.kept) {
			str_lcpy(c->err, err[0] ? err : "the run failed", sizeof(c->err));
			continue;
		}
		/* The median of the pairs' own differences, not the difference of the minima:
		 * cache and predictor events vary from run to run in both directions (a run at
		 * n that happened to miss more makes min(2n) - min(n) too large), and the
		 * median of back-to-back pairs is what one lap adds. Exact events do not vary. */
		c->ok = true;
		c->diff = d.median[i];
		c->median = d.diff[i];
		c->n = s->n;
		/* Reference clocks tick with time, not with the kernel: jitter between the runs
		 * of a pair (a guest TSC that follows host time) makes their median
		 * meaningless, while noise only adds to a minimum. */
		if (who[i]->def->fixed == 2 || str_starts_with(who[i]->def->name, "CPU_CLK_UNHALTED.REF")) {
			c->diff = d.diff[i];
			c->median = d.median[i];
		}
	}
}

/*
 * The uncore's counterpart of run_batch: Nehalem's eight counters (and the fixed UCLK one),
 * or Skylake's CBo counters (an event on counter i of every CBo, summed: seed 001 3.1),
 * ARB counters and the fixed UNC_CLOCK, counted by uncore_run_differential.
 */
static void run_uncore_batch(struct ev_need *need, unsigned nneed, const struct ev_setup *s)
{
	struct unc_cfg cfg[UNC_RUN_MAX];
	struct ev_need *who[UNC_RUN_MAX];
	unsigned ncfg = 0, nwho = 0, first_cfg[UNC_RUN_MAX], ncfgs[UNC_RUN_MAX];
	uint32_t used = 0, used_cbo = 0, used_arb = 0;
	bool used_fixed = false;
	uint32_t msr = 0;
	uint64_t msr_value = 0;
	struct unc_run_opts o = { .reps = EV_REPS, .before = s->before };
	struct unc_diff d;
	char err[PMU_ERR_LEN] = "";

	for (unsigned i = 0; i < nneed && nwho < UNC_RUN_MAX; i++) {
		struct ev_need *e = &need[i];
		const struct pmu_event_def *def = e->def;
		struct uncore_evtsel sel = { .event = def->event, .umask = def->umask,
					     .thr = def->cmask, .inv = !!(def->flags & PMU_EVF_INV),
					     .edge = !!(def->flags & PMU_EVF_EDGE) };
		unsigned start = ncfg;

		if (e->placed || def->unit == PMU_UNIT_CORE)
			continue;
		if (def->msr && msr && (def->msr != msr || def->msr_value != msr_value))
			continue;
		if (def->unit == PMU_UNIT_SKL_UCLK || (def->unit == PMU_UNIT_NHM_UNC && def->fixed >= 0)) {
			if (used_fixed)
				continue;
			used_fixed = true;
			cfg[ncfg++] = (struct unc_cfg){ .ctr = { UNC_BOX_FIXED, 0, 0 } };
		} else if (def->unit == PMU_UNIT_SKL_CBO) {
			unsigned idx = 0;

			while (idx < UNC_SKL_BOX_CTRS && ((used_cbo & (1U << idx)) ||
							  !pmu_catalog_counter_ok(def, idx)))
				idx++;
			if (idx >= UNC_SKL_BOX_CTRS || ncfg + uncore.num_cbo > UNC_RUN_MAX)
				continue;
			used_cbo |= 1U << idx;
			for (unsigned b = 0; b < uncore.num_cbo; b++)
				cfg[ncfg++] = (struct unc_cfg){ .ctr = { UNC_BOX_CBO, b, idx }, .sel = sel };
		} else {
			bool arb = def->unit == PMU_UNIT_SKL_ARB;
			unsigned max = arb ? UNC_SKL_BOX_CTRS : UNC_NHM_CTRS, idx = 0;
			uint32_t *u = arb ? &used_arb : &used;

			while (idx < max && ((*u & (1U << idx)) || !pmu_catalog_counter_ok(def, idx)))
				idx++;
			if (idx >= max)
				continue;
			*u |= 1U << idx;
			cfg[ncfg++] = (struct unc_cfg){ .ctr = { arb ? UNC_BOX_ARB : UNC_BOX_NHM, 0, idx },
							.sel = sel };
		}
		if (def->msr) {
			msr = def->msr;
			msr_value = def->msr_value;
		}
		e->placed = true;
		first_cfg[nwho] = start;
		ncfgs[nwho] = ncfg - start;
		who[nwho++] = e;
	}
	if (!nwho) {
		for (unsigned i = 0; i < nneed; i++) {
			if (need[i].placed || need[i].def->unit == PMU_UNIT_CORE)
				continue;
			need[i].placed = true;
			fmt_snprintf(need[i].slot->err, EV_ERR_LEN, "no uncore counter can count it "
				     "(mask 0x%x)", need[i].def->counters);
		}
		return;
	}
	d.kept = 0;
	if (!msr || uncore_nhm_match_write(&uncore, msr, msr_value, err, sizeof(err)) == 0) {
		if (uncore_run_differential(cfg, ncfg, s->k, s->n, s->arg, &o, &d, err, sizeof(err)))
			d.kept = 0;
		if (msr)
			uncore_nhm_match_write(&uncore, msr, 0, NULL, 0);
	}
	for (unsigned i = 0; i < nwho; i++) {
		struct ev_count *c = who[i]->slot;
		int64_t sum = 0, med = 0;

		if (!d.kept) {
			str_lcpy(c->err, err[0] ? err : "the uncore run failed", sizeof(c->err));
			continue;
		}
		for (unsigned k = 0; k < ncfgs[i]; k++) {
			sum += d.diff[first_cfg[i] + k];
			med += d.median[first_cfg[i] + k];
		}
		c->ok = true;
		c->diff = med;		/* the median of the pairs, as for the core events */
		c->median = sum;
		c->n = s->n;
		if (cfg[first_cfg[i]].ctr.box == UNC_BOX_FIXED) {	/* a clock: see run_batch */
			c->diff = sum;
			c->median = med;
		}
	}
}

/* Adds name (model's, on kernel/size) to the group's needs unless it is kept already. */
static void need_add(struct ev_need *need, unsigned *nneed, const char *model, const char *name,
		     unsigned kernel, uint32_t size)
{
	struct ev_count *c;

	if (!str_cmp(name, "n") || cache_find(model, name, kernel, size) || *nneed >= EV_GROUP_MAX)
		return;
	c = cache_add(model, name, kernel, size);
	if (!c)
		return;
	need[*nneed] = (struct ev_need){ .slot = c, .def = resolve(model, name) };
	if (!need[*nneed].def) {
		str_lcpy(c->err, "not in the event catalog", sizeof(c->err));
		return;
	}
	if (need[*nneed].def->unit != PMU_UNIT_CORE) {
		enum uncore_kind want = need[*nneed].def->unit == PMU_UNIT_NHM_UNC ? UNCORE_NHM :
					UNCORE_SKL;
		const char *why = uncore_unavailable_reason(&uncore, want);

		if (need[*nneed].def->unit == PMU_UNIT_SKL_IMC) {
			str_lcpy(c->err, "IMC counters are free-running: not measured by this engine",
				 sizeof(c->err));
			return;
		}
		if (why) {
			fmt_snprintf(c->err, sizeof(c->err), "%s%s", EV_SKIP_PREFIX, why);
			return;
		}
	}
	(*nneed)++;
}

/* Measures every event the model's rows need on (kernel, size) that is not kept yet. */
static void measure_group(const struct events_model *m, unsigned kernel, uint32_t size)
{
	static struct ev_need need[EV_GROUP_MAX];
	unsigned nneed = 0;
	struct ev_setup s;
	char err[EV_ERR_LEN];

	for (unsigned i = 0; i < m->count; i++) {
		const struct events_row *r = &m->rows[i];
		unsigned nc = events_ncases(r);

		for (unsigned k = 0; k < nc; k++) {
			const struct ev_case *cs = &r->c[k];
			unsigned nref = events_nrefs(cs);

			if (ev_kernel_uncore(cs->kernel) || cs->kernel != kernel || cs->size != size)
				continue;
			need_add(need, &nneed, m->model, r->event, kernel, size);
			for (unsigned t = 0; t < nref; t++)
				need_add(need, &nneed, m->model, cs->refs[t], kernel, size);
		}
	}
	if (!nneed)
		return;
	if (ev_setup(kernel, size, &s, err, sizeof(err))) {
		for (unsigned i = 0; i < nneed; i++)
			str_lcpy(need[i].slot->err, err, sizeof(need[i].slot->err));
		return;
	}
	for (;;) {
		bool left = false, core_left;

		for (unsigned i = 0; i < nneed && !left; i++)
			left = !need[i].placed;
		if (!left)
			break;
		/* The chase's nodes may have been overwritten by a store kernel in between:
		 * build it again for each batch. */
		if (ev_workload(kernel)->kernel == K_chase)
			ev_setup(kernel, size, &s, err, sizeof(err));
		/* Kinds without a `before` hook are measured warm: one unmeasured run at 2n
		 * first, so the smallest count at n is not a cold first lap's. */
		if (!s.before)
			s.k->fn(2 * s.n, s.arg);
		core_left = false;
		for (unsigned i = 0; i < nneed && !core_left; i++)
			core_left = !need[i].placed && need[i].def->unit == PMU_UNIT_CORE;
		if (core_left)
			run_batch(need, nneed, &s);
		else
			run_uncore_batch(need, nneed, &s);
	}
}

/* --- Checks ------------------------------------------------------------------------ */

struct eval_ctx {
	const char *model;
	const char *missing;
};

static bool get_count(void *ctx, const char *name, unsigned kernel, uint32_t size, int64_t *v)
{
	struct eval_ctx *e = ctx;
	struct ev_count *c = cache_find(e->model, name, kernel, size);

	if (!c || !c->ok) {
		e->missing = c ? c->err : "not measured";
		return false;
	}
	*v = c->diff;
	return true;
}

/*
 * Evaluates the core row r from what was kept: per case, v and its references on the case's
 * (kernel, size) and N, the iterations v's difference covers. True when every case holds;
 * detail gets "measured=... expected=..." either way; e->missing names what was not measured.
 */
static bool eval_core_row(const struct events_row *r, struct eval_ctx *e, char *detail,
			  size_t len)
{
	char meas[64] = "", on[128] = "", failed[160] = "", rels[200] = "", bnd[2][48];
	unsigned nc = events_ncases(r);
	bool ok = true;

	for (unsigned k = 0; k < nc; k++) {
		const struct ev_case *cs = &r->c[k];
		const struct ev_count *vc;
		struct ev_vals x;
		struct ev_bounds b;
		char one[96], f[160];

		memset(&x, 0, sizeof(x));
		if (!get_count(e, r->event, cs->kernel, cs->size, &x.v)) {
			fmt_snprintf(detail, len, "measured=nothing expected=%s counted on %s", r->event,
				     ev_kernel_name(cs->kernel));
			return false;
		}
		for (unsigned t = 0; t < events_nrefs(cs); t++)
			if (!get_count(e, cs->refs[t], cs->kernel, cs->size, &x.ref[t])) {
				fmt_snprintf(detail, len, "measured=%lld expected=%s (%s not measured)",
					     (long long)x.v, cs->rel, cs->refs[t]);
				return false;
			}
		vc = cache_find(e->model, r->event, cs->kernel, cs->size);
		x.n = (int64_t)vc->n;
		if (!ev_rel_v_bounds(cs->rel, &x, &b))
			memset(&b, 0, sizeof(b));
		ev_bounds_fmt(&b, bnd[k], sizeof(bnd[k]));
		fmt_snprintf(one, sizeof(one), "%s%lld", k ? "/" : "", (long long)x.v);
		str_lcat(meas, one, sizeof(meas));
		fmt_snprintf(one, sizeof(one), "%s%s%s%s n=%llu", k ? ", " : "", nc > 1 ? bnd[k] : "",
			     nc > 1 ? " on " : "on ", ev_kernel_name(cs->kernel),
			     (unsigned long long)vc->n);
		str_lcat(on, one, sizeof(on));
		str_lcat(rels, k ? " | " : "", sizeof(rels));
		str_lcat(rels, cs->rel, sizeof(rels));
		if (!ev_rel_eval(cs->rel, &x, f, sizeof(f)) && ok) {
			ok = false;
			str_lcpy(failed, f, sizeof(failed));
		}
	}
	/* "measured=V expected=B KIND on K n=N: REL" (B: the bounds on v, as the report reads
	 * them), two cases "measured=V/V2 expected=KIND B on K n=N, B2 on K2 n=N2: REL | REL2";
	 * failed, "broken: CONSTRAINT: LEFT < RIGHT" before the relation */
	if (nc > 1)
		fmt_snprintf(detail, len, "measured=%s expected=%s %s: %s%s%s", meas,
			     ev_kind_name(r->kind), on, ok ? "" : "broken: ", failed, ok ? "" : "; ");
	else
		fmt_snprintf(detail, len, "measured=%s expected=%s %s %s: %s%s%s", meas, bnd[0],
			     ev_kind_name(r->kind), on, ok ? "" : "broken: ", failed, ok ? "" : "; ");
	str_lcat(detail, rels, len);
	return ok;
}

/*
 * Seed 000's TLB rows were written for 2 MiB pages: a chase one 4 KiB page a step walks
 * the large pages' entries (DTLB_LOAD_MISSES.LARGE_WALK_COMPLETED, MEM_LOAD_RETIRED.
 * DTLB_MISS), and LARGE_TLB.HIT wants the code in a 2 MiB page. pmuboot runs on the
 * firmware's page tables, which may map the buffer or the code with 4 KiB pages (an image
 * it protects) or 1 GiB ones (issue 21 item 10): such a row SKIPs, naming the size found.
 * NULL where the pages are as the row assumes.
 */
static const char *row_pages_differ(const struct events_row *r)
{
	static char why[200];
	bool la57 = read_cr4() & X86_CR4_LA57;

	for (unsigned k = 0; k < events_ncases(r); k++) {
		bool data = r->c[k].kernel == EVK_CHASE_PAGE;
		bool code = r->c[k].kernel == EVK_BIGCODE && str_contains(r->source, "2 MiB page");
		uint64_t va = data ? (uint64_t)(uintptr_t)env.buf :
			      (uint64_t)(uintptr_t)kernel_bigcode_desc.fn;
		uint64_t size;

		if (!data && !code)
			continue;
		size = paging_page_size(read_cr3(), la57, va);
		if (size == (2ULL << 20))
			continue;
		fmt_snprintf(why, sizeof(why), "the row assumes 2 MiB pages (%s); the %s at 0x%llx is "
			     "on %llu-byte pages in the firmware's page tables", r->source,
			     data ? "chase's buffer" : "kernel's code", (unsigned long long)va,
			     (unsigned long long)size);
		return why;
	}
	return NULL;
}

static enum check_status check_events_model(struct check_ctx *c, const char *model)
{
	const struct events_model *m = events_model_by_name(model);
	const struct events_row *r;
	const char *why = pmu_unavailable_reason(env.force_pmu);
	struct eval_ctx ec = { .model = model };
	char detail[CHECK_DETAIL_LEN];
	bool ok;

	if (!m || !m->count)
		return check_skip(c, "no rows for model %s", model);
	if (c->instance == CHECK_GATE) {
		if (!events_model_runs_on(m, pmu.uarch) && !env.force_pmu)
			return check_skip(c, "seed %.3s's events are %s's; this is %s", m->seed, m->cpu,
					  pmu_uarch_name(pmu.uarch));
		if (why)
			return check_skip(c, "%s", why);
		return CHECK_PASS;
	}
	if (c->instance >= m->count)
		return check_result(c, CHECK_FAIL, "instance %u", "< %u", c->instance, m->count);
	r = &m->rows[c->instance];
	if (!events_model_runs_on(m, pmu.uarch) && !env.force_pmu)
		return check_skip(c, "seed %.3s's events are %s's; this is %s", m->seed, m->cpu,
				  pmu_uarch_name(pmu.uarch));
	if (why)
		return check_skip(c, "%s", why);
	if (r->kind == EVR_NONE)
		return check_skip(c, "no expectation: %s (%s)", r->why, r->source);
	if (ev_kernel_uncore(r->c[0].kernel))
		return check_events_uncore_row(c, r, c->instance);
	if (check_skip_unless_forced(c, pmu.version < 2,
				     "PMU version 1: no IA32_PERF_GLOBAL_CTRL for the measurement frame"))
		return CHECK_SKIP;
	if (row_pages_differ(r) && !env.force_pmu)
		return check_skip(c, "%s", row_pages_differ(r));
	for (unsigned k = 0; k < events_ncases(r); k++)
		measure_group(m, r->c[k].kernel, r->c[k].size);
	ok = eval_core_row(r, &ec, detail, sizeof(detail));
	if (ec.missing && str_starts_with(ec.missing, EV_SKIP_PREFIX))
		return check_skip(c, "%s", ec.missing + sizeof(EV_SKIP_PREFIX) - 1);
	if (ec.missing)
		return check_fail(c, "%s (%s); %s", detail, ec.missing, r->source);
	return check_report(c, ok ? CHECK_PASS : CHECK_FAIL, "%s; %s", detail, r->source);
}

static unsigned model_rows(const char *model)
{
	const struct events_model *m = events_model_by_name(model);

	return m ? m->count : 0;
}

static void row_name(const char *model, unsigned i, char *buf, size_t len)
{
	const struct events_model *m = events_model_by_name(model);

	str_lcpy(buf, m && i < m->count ? m->rows[i].event : "?", len);
}

/* The seeds' events: a check events.<model> per line of tests/expect/seed_models.h, an
 * instance per row of its file. On another model one SKIP per group. A group's first check
 * measures every event of its kernel and size (reps 3). */
#define EVENTS_CHECK(model, order, desc)							\
	static enum check_status check_events_##model(struct check_ctx *c)			\
	{											\
		return check_events_model(c, #model);						\
	}											\
	static unsigned events_##model##_instances(void)					\
	{											\
		return model_rows(#model);							\
	}											\
	static void events_##model##_instance_name(unsigned i, char *buf, size_t len)		\
	{											\
		row_name(#model, i, buf, len);							\
	}											\
	CHECK_DEFINE(order, "events." #model, check_events_##model, desc,			\
		     .flags = CHECK_GATED, .timeout_ms = 60000,					\
		     .instances = events_##model##_instances,					\
		     .instance_name = events_##model##_instance_name);
SEED_MODELS(EVENTS_CHECK)
#undef EVENTS_CHECK

/* --- list coverage ----------------------------------------------------------------- */

void events_coverage_print(void)
{
	for (unsigned k = 0; k < events_nmodels; k++) {
		const struct events_model *m = events_models[k];
		unsigned with = 0, by[EVR_COUNT] = { 0 };

		for (unsigned i = 0; i < m->count; i++) {
			unsigned kind = m->rows[i].kind < EVR_COUNT ? m->rows[i].kind : EVR_NONE;

			with += kind != EVR_NONE;
			by[kind]++;
		}
		con_printf("# coverage: %s (seed %s, %s): %u events, %u with an expectation "
			   "(%u.%u%%: %u exact, %u range, %u identity, %u contrast, %u quiet: an upper "
			   "bound only), %u without\n",
			   m->model, m->seed, m->cpu, m->count, with,
			   m->count ? with * 100 / m->count : 0,
			   m->count ? with * 1000 / m->count % 10 : 0, by[EVR_EXACT],
			   by[EVR_RANGE], by[EVR_IDENTITY], by[EVR_CONTRAST], by[EVR_QUIET],
			   m->count - with);
		for (unsigned i = 0; i < m->count; i++) {
			const struct events_row *r = &m->rows[i];

			if (r->kind == EVR_NONE)
				con_printf("#   %s.%s: %s (%s)\n", r->model, r->event, r->why, r->source);
		}
	}
}
