/* SPDX-License-Identifier: MIT */
/*
 * Last branch record checks: after a kernel whose taken branches are known exactly (its
 * model; the reference oracle proves the same model against what QEMU executed), the LBR
 * stack holds exactly those branches, newest first; the TOS wraps at the depth; each
 * LBR_SELECT filter drops its kind and keeps the others; the mispredicted flag follows the
 * branch's predictability; FREEZE_LBRS_ON_PMI holds the stack at the PMI request.
 *
 * Sources: SDM Vol. 3B 17.4.8 (LBR stack, TOS), 17.4.7 (freeze on PMI), 18.2.4.1 (v4
 * LBR_FRZ), the per-family LBR sections; seed 000_666bff9af8f20138.txt Table 7 (filters).
 */
#include "arch/x86/apic.h"
#include "arch/x86/cpuid.h"
#include "tests/harness/check.h"
#include "tests/harness/env.h"
#include "arch/x86/io.h"
#include "arch/x86/msr.h"
#include "arch/x86/trap.h"
#include "arch/x86/tsc.h"
#include "arch/x86/watchdog.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "pmu/counter.h"
#include "pmu/event.h"
#include "pmu/frame.h"
#include "pmu/lbr.h"
#include "pmu/pmi.h"
#include "tests/measure/region.h"
#include "tests/measure/pmi.h"
#include "tests/measure/pmu_run.h"

static uint64_t addr_of(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static const char *no_lbr(void)
{
	return lbr_unavailable(&pmu, env.force_pmu);
}

/*
 * The stack's MSRs must answer. Under a hypervisor whose PERF_CAPABILITIES claims a format
 * for a stack it does not give the guest (KVM without LBR virtualization), a #GP means the
 * stack is not there: that is a SKIP. On bare metal it is a failure.
 */
static const char *lbr_probe_skip(struct check_ctx *c, enum check_status *st)
{
	static char why[200];
	uint64_t v;
	uint32_t msr = pmu.lbr.arch ? MSR_ARCH_LBR_DEPTH : MSR_LASTBRANCH_TOS;
	int r = rdmsr_safe(msr, &v);

	if (!r)
		r = rdmsr_safe(pmu.lbr.from, &v);
	if (!r)
		return NULL;
	if (pmu.hypervisor && !env.force_pmu) {
		fmt_snprintf(why, sizeof(why), "the LBR MSRs fault under the hypervisor (%s): RDMSR "
			     "0x%x vector %d, though PERF_CAPABILITIES says format %u",
			     env.cpu->hv_signature, msr, r, pmu.lbr_format);
		*st = check_skip(c, "%s", why);
	} else {
		*st = check_result(c, CHECK_FAIL, "RDMSR 0x%x fault vector %d", "the LBR stack of %s "
				   "(%u entries)", msr, r, pmu_uarch_name(pmu.uarch), pmu.lbr.depth);
	}
	return why;
}

#define LBR_CHECK_PROLOGUE(c)							\
	do {									\
		enum check_status _st;						\
		if (no_lbr())							\
			return check_skip(c, "%s", no_lbr());			\
		if (lbr_probe_skip(c, &_st))					\
			return _st;						\
	} while (0)

/* The value that starts recording (DEBUGCTL as it is, plus LBR; or IA32_LBR_CTL). */
static void lbr_start(const struct lbr_filter *f, uint32_t *msr, uint64_t *value)
{
	uint64_t dbg = 0;

	rdmsr_safe(MSR_IA32_DEBUGCTLMSR, &dbg);
	lbr_start_msr(&pmu.lbr, f, dbg, msr, value);
}

/*
 * Recording on for the PMI-driven checks, with no filter: DEBUGCTL gets dbg | bits (the
 * freeze bits); a legacy stack records with DEBUGCTL.LBR, an architectural one with
 * IA32_LBR_CTL.LBREn (DEBUGCTL.LBR is not its switch; FREEZE_LBRS_ON_PMI still is its
 * freeze, as Linux's lbr.c sets it for both). lbr_off() stops it and puts dbg back.
 */
static int lbr_on(uint64_t dbg, uint64_t bits)
{
	static const struct lbr_filter none;
	uint32_t msr;
	uint64_t value;
	int r;

	if (!pmu.lbr.arch)
		return wrmsr_safe(MSR_IA32_DEBUGCTLMSR, dbg | bits | DEBUGCTLMSR_LBR);
	if ((r = wrmsr_safe(MSR_IA32_DEBUGCTLMSR, dbg | bits)))
		return r;
	lbr_start_msr(&pmu.lbr, &none, dbg, &msr, &value);
	return wrmsr_safe(msr, value);
}

static void lbr_off(uint64_t dbg)
{
	if (pmu.lbr.arch)
		wrmsr_safe(MSR_ARCH_LBR_CTL, 0);
	wrmsr_safe(MSR_IA32_DEBUGCTLMSR, dbg);
}

/* Runs k in the frame with recording on around the call and filter f; reads the stack
 * (newest first) into got; the model's taken branches, oldest first, into want. */
struct lbr_run {
	struct lbr_entry got[LBR_MAX_DEPTH];
	unsigned ngot;
	unsigned tos_before, tos_after;
	struct branch_rec want[LBR_DEPTH];
	unsigned nwant;
	struct region r;
};

static int lbr_run(const struct kernel_desc *k, uint64_t n, void *arg, const struct lbr_filter *f,
		   struct lbr_run *run, char *err, size_t errlen)
{
	static const struct lbr_filter none;
	struct exec_counts e;
	uint32_t msr;
	uint64_t value, dbg = 0;
	int r;

	if (!f)
		f = &none;
	if (!pmu.lbr.present) {
		fmt_snprintf(err, errlen, "pmuboot knows no LBR stack on this CPU");
		return PMU_EARG;
	}
	if ((r = lbr_clear(&pmu.lbr))) {
		fmt_snprintf(err, errlen, "clearing the LBR MSRs faulted (vector %d)", r);
		return r;
	}
	if ((r = lbr_set_filter(&pmu.lbr, f))) {
		fmt_snprintf(err, errlen, r > 0 ? "writing the filter faulted (vector %d)" :
			     "this stack has no filter MSR (%d)", r);
		return r;
	}
	rdmsr_safe(MSR_IA32_DEBUGCTLMSR, &dbg);
	lbr_start(f, &msr, &value);
	lbr_tos(&pmu.lbr, &run->tos_before);
	run->r = measure_kernel_msr(k, n, arg, msr, value);
	/* The frame wrote 0 to the MSR: DEBUGCTL gets back its other bits (FREEZE_WHILE_SMM). */
	wrmsr_safe(MSR_IA32_DEBUGCTLMSR, dbg);
	lbr_tos(&pmu.lbr, &run->tos_after);
	if ((r = lbr_read(&pmu.lbr, run->got, LBR_MAX_DEPTH, &run->ngot))) {
		fmt_snprintf(err, errlen, "reading the stack faulted (vector %d)", r);
		return r;
	}
	region_predict_frame(FRAME_PMU, k, n, arg, run->r.id, &e);
	run->nwant = 0;
	{
		struct branch_rec all[LBR_DEPTH];
		unsigned na = exec_lbr(&e, all);

		for (unsigned i = 0; i < na; i++) {
			if (f->drop_kinds & (1U << all[i].kind))
				continue;
			if (f->drop_cpl0)	/* every branch of these kernels ends at CPL 0 */
				continue;
			run->want[run->nwant++] = all[i];
		}
	}
	return 0;
}

/*
 * Compares the newest min(depth, model) entries with the model; 0 when equal, else the
 * index (newest = 0) of the first difference + 1, described in why.
 */
static unsigned lbr_compare(const struct lbr_run *run, unsigned *compared, char *why,
			    size_t whylen)
{
	unsigned n = run->ngot < run->nwant ? run->ngot : run->nwant;

	*compared = n;
	for (unsigned i = 0; i < n; i++) {
		const struct branch_rec *w = &run->want[run->nwant - 1 - i];
		const struct lbr_entry *g = &run->got[i];

		if (g->from != w->from || g->to != w->to) {
			fmt_snprintf(why, whylen, "entry %u (newest 0): 0x%llx -> 0x%llx, the model's %s "
				     "0x%llx -> 0x%llx", i, (unsigned long long)g->from,
				     (unsigned long long)g->to, lbr_kind_name(w->kind),
				     (unsigned long long)w->from, (unsigned long long)w->to);
			return i + 1;
		}
	}
	return 0;
}

/* --- lbr.stack: exact FROM/TO pairs after known kernels ------------------------------- */

static struct branch_pattern stack_pattern = { 0x1b3c5, 17 };
static struct branch_mix stack_mix;

static const struct {
	const char *name;
	const struct kernel_desc *k;
	uint64_t n;
	void *arg;
} stack_cases[] = {
	{ "loop4", &kernel_loop4_desc, 100, NULL },
	{ "pattern17", &kernel_branch_pattern_desc, 200, &stack_pattern },
	{ "branch_mix", &kernel_branch_mix_desc, 20, &stack_mix },
	{ "iret_loop", &kernel_iret_loop_desc, 20, NULL },
};
#define NSTACK (sizeof(stack_cases) / sizeof(stack_cases[0]))

CHECK_TABLE_INSTANCES(lbr_stack, stack_cases)

static struct lbr_run run;

static enum check_status check_lbr_stack(struct check_ctx *c)
{
	const __typeof__(stack_cases[0]) *sc = &stack_cases[c->instance % NSTACK];
	char err[PMU_ERR_LEN], why[200];
	unsigned bad, n;

	LBR_CHECK_PROLOGUE(c);
	if (sc->k == &kernel_iret_loop_desc && (pmu.errata & PMU_ERRATUM_FAR_BRANCHES) &&
	    !env.force_pmu)
		return check_skip(c, "%s", pmu_erratum_note(pmu.errata));
	if (lbr_run(sc->k, sc->n, sc->arg, NULL, &run, err, sizeof(err)))
		return check_error(c, err, "a recorded stack");
	bad = lbr_compare(&run, &n, why, sizeof(why));
	if (bad)
		return check_error(c, why, "the model's last %u taken branches, newest "
				   "first kernel=%s n=%llu depth=%u", n, sc->k->name,
				   (unsigned long long)sc->n, lbr_depth(&pmu.lbr));
	if (n < (lbr_depth(&pmu.lbr) < LBR_DEPTH ? lbr_depth(&pmu.lbr) : LBR_DEPTH))
		return check_result(c, CHECK_FAIL, "%u entries compared", "the whole stack (%u)", n,
				    lbr_depth(&pmu.lbr));
	return check_result(c, CHECK_PASS, "%u newest entries equal the model's (newest 0x%llx -> 0x%llx)",
			    "the model's taken branches in order kernel=%s n=%llu", n,
			    (unsigned long long)run.got[0].from, (unsigned long long)run.got[0].to,
			    sc->k->name, (unsigned long long)sc->n);
}
CHECK_DEFINE(540, "lbr.stack", check_lbr_stack,
	     "after a known kernel the LBR stack holds exactly its last taken branches, newest first",
	     .flags = CHECK_PER_CPU, .instances = lbr_stack_instances, .instance_name = lbr_stack_instance_name);

/* --- lbr.tos_wrap --------------------------------------------------------------------- */

/*
 * After n iterations of loop4 the stack has recorded n + 1 taken branches (the frame's
 * CALL, n - 1 back edges, the RET): the TOS must have moved by that many modulo the depth,
 * and the stack must still hold the newest ones in order.
 */
static enum check_status check_lbr_tos_wrap(struct check_ctx *c)
{
	unsigned depth, bad, n, moved, want;
	uint64_t iters;
	char err[PMU_ERR_LEN], why[200];

	LBR_CHECK_PROLOGUE(c);
	if (pmu.lbr.arch)
		return check_skip(c, "architectural LBR has no TOS: entry 0 is always the newest "
				  "(lbr.stack checks the order)");
	depth = lbr_depth(&pmu.lbr);
	iters = 3 * (uint64_t)depth + 5;
	if (lbr_run(&kernel_loop4_desc, iters, NULL, NULL, &run, err, sizeof(err)))
		return check_error(c, err, "a recorded stack");
	moved = (run.tos_after + depth - run.tos_before) % depth;
	want = (unsigned)((iters + 1) % depth);
	if (moved != want)
		return check_result(c, CHECK_FAIL, "TOS %u -> %u, moved %u", "%u = %llu taken branches "
				    "mod %u entries", run.tos_before, run.tos_after, moved, want,
				    (unsigned long long)(iters + 1), depth);
	bad = lbr_compare(&run, &n, why, sizeof(why));
	if (bad)
		return check_error(c, why, "the newest %u in order after the wrap",
				   n);
	return check_result(c, CHECK_PASS, "TOS %u -> %u (moved %u), stack in order", "%llu taken "
			    "branches mod %u entries", run.tos_before, run.tos_after, moved,
			    (unsigned long long)(iters + 1), depth);
}
CHECK_DEFINE(550, "lbr.tos_wrap", check_lbr_tos_wrap,
	     "the LBR TOS moves by the taken branches modulo the depth, the stack still in order",
	     .flags = CHECK_PER_CPU);

/* --- lbr.filter: LBR_SELECT (or IA32_LBR_CTL) drops its kind and keeps the rest ---------- */

#define KIND(k)	(1U << LBR_KIND_##k)
static const struct {
	const char *name;
	uint32_t drop;
	bool drop_cpl0, drop_user;
	const struct kernel_desc *k;
	uint64_t n;
	void *arg;
} filter_cases[] = {
	{ "jcc", KIND(JCC), false, false, &kernel_branch_mix_desc, 20, &stack_mix },
	{ "near_rel_jmp", KIND(REL_JMP), false, false, &kernel_branch_mix_desc, 20, &stack_mix },
	{ "near_ind_jmp", KIND(IND_JMP), false, false, &kernel_branch_mix_desc, 20, &stack_mix },
	{ "near_rel_call", KIND(REL_CALL), false, false, &kernel_branch_mix_desc, 20, &stack_mix },
	{ "near_ind_call", KIND(IND_CALL), false, false, &kernel_branch_mix_desc, 20, &stack_mix },
	{ "near_ret", KIND(RET), false, false, &kernel_branch_mix_desc, 20, &stack_mix },
	/* Calls with both jump kinds dropped (Nehalem/Westmere lose the calls too: Linux
	 * nhm_lbr_sel_map; pmu-errata.md "LBR filter and call-stack quirks"). */
	{ "no_jumps", KIND(REL_JMP) | KIND(IND_JMP), false, false, &kernel_branch_mix_desc, 20,
	  &stack_mix },
	{ "calls_only", KIND(JCC) | KIND(REL_JMP) | KIND(IND_JMP) | KIND(RET) | KIND(FAR), false,
	  false, &kernel_branch_mix_desc, 20, &stack_mix },
	{ "far", KIND(FAR), false, false, &kernel_iret_loop_desc, 20, NULL },
	{ "cpl_eq_0", 0, true, false, &kernel_loop4_desc, 100, NULL },
	{ "cpl_neq_0", 0, false, true, &kernel_loop4_desc, 100, NULL },
};
#define NFILTER (sizeof(filter_cases) / sizeof(filter_cases[0]))

CHECK_TABLE_INSTANCES(lbr_filter, filter_cases)

static enum check_status check_lbr_filter(struct check_ctx *c)
{
	const __typeof__(filter_cases[0]) *fc = &filter_cases[c->instance % NFILTER];
	struct lbr_filter f = { fc->drop, fc->drop_cpl0, fc->drop_user };
	/* Nehalem, Westmere (and, as Linux treats it, Silvermont) lose calls when a jump kind
	 * is dropped (nhm_lbr_sel_map: ANY_CALL needs REL_JMP and IND_JMP, IND_CALL IND_JMP). */
	bool calls = fc->drop & (KIND(REL_JMP) | KIND(IND_JMP));
	char err[PMU_ERR_LEN], why[200];
	unsigned bad, n;

	LBR_CHECK_PROLOGUE(c);
	if (check_skip_unless_forced(c, !pmu.lbr.arch && !pmu.lbr.has_select,
				     "no MSR_LBR_SELECT on %s: its LBR records every branch",
				     pmu_uarch_name(pmu.uarch)))
		return CHECK_SKIP;
	if (pmu.lbr.arch && (fc->drop_cpl0 || fc->drop_user) && !pmu.lbr.arch_cpl_filter &&
	    !env.force_pmu)
		return check_skip(c, "architectural LBR without CPL filtering (CPUID.1CH:EBX[0]=0)");
	if (check_skip_unless_forced(c, pmu.lbr.arch && fc->drop && !pmu.lbr.arch_branch_filter,
				     "architectural LBR without branch filtering (CPUID.1CH:EBX[1]=0)"))
		return CHECK_SKIP;
	if (check_skip_unless_forced(c, calls && (pmu.errata & PMU_ERRATUM_LBR_CALL_FILTER),
				     "%s", pmu_erratum_note(PMU_ERRATUM_LBR_CALL_FILTER)))
		return CHECK_SKIP;
	if (fc->k == &kernel_iret_loop_desc && (pmu.errata & PMU_ERRATUM_FAR_BRANCHES) &&
	    !env.force_pmu)
		return check_skip(c, "%s", pmu_erratum_note(pmu.errata));
	if (lbr_run(fc->k, fc->n, fc->arg, &f, &run, err, sizeof(err)))
		return check_error(c, err, "a recorded stack");
	if (fc->drop_cpl0) {
		/* Everything ran at CPL 0: nothing may be recorded, the cleared stack stays 0. */
		if (run.tos_after != run.tos_before || run.got[0].from || run.got[0].to)
			return check_result(c, CHECK_FAIL, "TOS %u -> %u, newest 0x%llx -> 0x%llx", "nothing recorded at CPL 0 with CPL_EQ_0 (LBR_SELECT 0x%llx)",
					    run.tos_before, run.tos_after,
					    (unsigned long long)run.got[0].from,
					    (unsigned long long)run.got[0].to,
					    (unsigned long long)lbr_select_value(&f));
		/* ... and the same run without the filter does record (a dead stack would pass
		 * the first half alone). */
		if (lbr_run(fc->k, fc->n, fc->arg, NULL, &run, err, sizeof(err)))
			return check_error(c, err, "a recorded stack");
		bad = lbr_compare(&run, &n, why, sizeof(why));
		if (bad || n == 0)
			return check_error(c, bad ? why : "no entry to compare", "without CPL_EQ_0 the model's branches "
					   "(the control run)");
		return check_result(c, CHECK_PASS, "nothing recorded; %u entries without the filter",
				    "nothing at CPL 0 (LBR_SELECT 0x%llx), the model's without it",
				    n, (unsigned long long)lbr_select_value(&f));
	}
	bad = lbr_compare(&run, &n, why, sizeof(why));
	if (bad || n == 0)
		return check_error(c, bad ? why : "no entry to compare", "the model's taken branches without the "
				   "dropped kinds, newest first (LBR_SELECT 0x%llx) kernel=%s", (unsigned long long)lbr_select_value(&f),
				   fc->k->name);
	return check_result(c, CHECK_PASS, "%u newest entries equal the filtered model", "same "
			    "(LBR_SELECT 0x%llx) kernel=%s", n, (unsigned long long)lbr_select_value(&f),
			    fc->k->name);
}
CHECK_DEFINE(560, "lbr.filter", check_lbr_filter,
	     "each LBR_SELECT filter drops its kind (or privilege level) and keeps the rest",
	     .flags = CHECK_PER_CPU, .instances = lbr_filter_instances, .instance_name = lbr_filter_instance_name);

/* --- lbr.mispredict ------------------------------------------------------------------ */

extern char kernel_branch_pattern_top[], kernel_branch_pattern_jc[], kernel_branch_pattern_skip[],
	kernel_branch_pattern_jnz[], kernel_branch_lfsr_jb[];

#define MISPRED_RUNS	8
#define MISPRED_N	1000

static enum check_status check_lbr_mispredict(struct check_ctx *c)
{
	static struct branch_pattern always = { 1, 1 };
	static struct branch_lfsr lfsr;
	char err[PMU_ERR_LEN];
	unsigned taken = 0, flagged = 0, always_flagged = 0, always_seen = 0;
	uint64_t state = 0xace1ace1ace1ace1ULL;

	LBR_CHECK_PROLOGUE(c);
	if (check_skip_unless_forced(c, !pmu.lbr.has_mispred,
				     "LBR format %u records no mispredicted flag", pmu.lbr.format))
		return CHECK_SKIP;
	/* Always taken, once to train the predictors, then recorded: no entry mispredicted. */
	for (unsigned pass = 0; pass < 2; pass++)
		if (lbr_run(&kernel_branch_pattern_desc, MISPRED_N, &always, NULL, &run, err,
			    sizeof(err)))
			return check_error(c, err, "a recorded stack");
	for (unsigned i = 0; i < run.ngot; i++) {
		uint64_t from = run.got[i].from;

		if (from != (uint64_t)(uintptr_t)kernel_branch_pattern_jc &&
		    from != (uint64_t)(uintptr_t)kernel_branch_pattern_jnz)
			continue;
		always_seen++;
		always_flagged += run.got[i].mispred;
	}
	/* The LFSR's branch: its low bit is random, so about half its taken instances were
	 * mispredicted, whatever the predictor. */
	for (unsigned k = 0; k < MISPRED_RUNS; k++) {
		lfsr = (struct branch_lfsr){ state, LFSR64_TAPS };
		for (unsigned i = 0; i < MISPRED_N; i++)
			state = lfsr_step(state, LFSR64_TAPS);
		if (lbr_run(&kernel_branch_lfsr_desc, MISPRED_N, &lfsr, NULL, &run, err, sizeof(err)))
			return check_error(c, err, "a recorded stack");
		for (unsigned i = 0; i < run.ngot; i++) {
			if (run.got[i].from != (uint64_t)(uintptr_t)kernel_branch_lfsr_jb)
				continue;
			taken++;
			flagged += run.got[i].mispred;
		}
	}
	if (always_seen == 0 || always_flagged)
		return check_result(c, CHECK_FAIL, "%u of %u always-taken entries flagged mispredicted",
				    "0 of them (trained)", always_flagged, always_seen);
	if (taken < 20 || flagged * 5 < taken || flagged * 5 > taken * 4)
		return check_result(c, CHECK_FAIL, "%u of %u LFSR branch entries flagged mispredicted",
				    "20%%..80%% of at least 20", flagged, taken);
	return check_result(c, CHECK_PASS, "always-taken 0 of %u flagged, LFSR %u of %u", "0, "
			    "20%%..80%%", always_seen, flagged, taken);
}
CHECK_DEFINE(570, "lbr.mispredict", check_lbr_mispredict,
	     "the mispredicted flag: clear on trained always-taken branches, about half on the LFSR's",
	     .flags = CHECK_PER_CPU);

/* --- lbr.freeze_on_pmi ---------------------------------------------------------------- */

/*
 * IA32_DEBUGCTL.FREEZE_LBRS_ON_PMI and FREEZE_PERFMON_ON_PMI (SDM 17.4.7; v4: LBR_FRZ and
 * CTR_FRZ, 18.2.4.1): on the PMI request the stack and the counters stop together. GP0
 * counts branches retired with INT from 2^width - P; GP1 counts them too without INT. The
 * kernel is the period-17 branch pattern, whose taken branches differ from one iteration
 * to the next, so GP1's frozen count W says exactly which taken branches the stack must
 * hold: those among the frame's CALL and the kernel's first W - 1 branches. A stack that
 * froze early (AM94, a documented erratum) or not at all differs. One that froze one branch
 * late (the overflowing branch's successor recorded too) is tolerated and said: the SDM
 * freezes the stack on the PMI request, which follows the overflow, and no document
 * promises both stop on the same branch.
 */
static struct pmi_stats lbr_pmi;

/* The taken branches, oldest first, of the frame's CALL and the first `branches` branches
 * of kernel_branch_pattern(n, p), the last LBR_DEPTH of them. */
static unsigned pattern_taken(const struct branch_pattern *p, uint64_t branches, unsigned slot,
			      struct branch_rec out[LBR_DEPTH])
{
	struct exec_counts e;
	uint64_t b = 0;

	memset(&e, 0, sizeof(e));
	exec_taken(&e, pmu_frame_call_site(slot), (uint64_t)(uintptr_t)kernel_branch_pattern_desc.fn,
		   LBR_KIND_IND_CALL);
	for (uint64_t i = 0; b < branches; i++) {
		if ((p->bits >> (i % p->period)) & 1)
			exec_taken(&e, (uint64_t)(uintptr_t)kernel_branch_pattern_jc,
				   (uint64_t)(uintptr_t)kernel_branch_pattern_skip, LBR_KIND_JCC);
		if (++b >= branches)
			break;
		exec_taken(&e, (uint64_t)(uintptr_t)kernel_branch_pattern_jnz,
			   (uint64_t)(uintptr_t)kernel_branch_pattern_top, LBR_KIND_JCC);
		b++;
	}
	return exec_lbr(&e, out);
}

#define FREEZE_PERIOD	1000	/* branches before the overflow, about */
#define FREEZE_N	20000ULL	/* iterations: far more branches than the period */

static enum check_status check_lbr_freeze_on_pmi(struct check_ctx *c)
{
	static struct branch_pattern pat = { 0x1b3c5, 17 };
	struct pmu_evtsel trig = pmu_arch_evtsel(ARCH_EVENT_BRANCHES, false, true);
	struct pmu_evtsel watch = pmu_arch_evtsel(ARCH_EVENT_BRANCHES, false, true);
	struct ctr_cfg cfg[2];
	struct pmu_result res;
	char err[PMU_ERR_LEN], why[200], why_late[200];
	uint64_t dbg = 0, dbg_after = 0, status = 0, period = FREEZE_PERIOD, start;
	unsigned nwant, n, slot, tos = 0, tos2 = 0, bad;
	enum check_status st;
	bool v4 = pmu.version >= 4, late = false;
	int r;

	LBR_CHECK_PROLOGUE(c);
	if (pmu_unavailable_reason(env.force_pmu))
		return check_skip(c, "%s", pmu_unavailable_reason(false));
	if (check_skip_unless_forced(c, pmu.lbr.arch && !v4,
				     "architectural LBR on a PMU before version 4: no LBR_FRZ to "
				     "freeze it"))
		return CHECK_SKIP;
	if ((pmu.version < 2 || pmu.num_gp < 2) && !env.force_pmu)
		return check_skip(c, "needs GLOBAL_CTRL and 2 GP counters");
	if (check_skip_unless_forced(c, !(pmu.events & (1U << ARCH_EVENT_BRANCHES)),
				     "branches retired not available (CPUID.0AH:EBX[5])"))
		return CHECK_SKIP;
	/* The overflowing branch: a taken pattern branch whose predecessor in the stack is a
	 * back edge, so a stack one entry short or long cannot look right. Branch b (1 = the
	 * frame's CALL) is the kernel's branch b - 1: odd kernel branches are the JC. */
	for (;; period++) {
		uint64_t kb = period - 1;

		if ((kb & 1) && ((pat.bits >> (((kb - 1) / 2) % pat.period)) & 1) &&
		    ((kb - 1) / 2) % pat.period != 0)
			break;
	}
	start = (1ULL << (pmu.gp_width & 63)) - period;
	if (check_skip_unless_forced(c, gp_start_unwritable(start),
				     "start value needs full-width writes"))
		return CHECK_SKIP;
	trig.intr = true;
	cfg[0] = (struct ctr_cfg){ .idx = 0, .evtsel = pmu_evtsel_encode(&trig), .start = start };
	cfg[1] = (struct ctr_cfg){ .idx = 1, .evtsel = pmu_evtsel_encode(&watch) };
	rdmsr_safe(MSR_IA32_DEBUGCTLMSR, &dbg);
	lbr_clear(&pmu.lbr);
	{
		static const struct lbr_filter none;

		lbr_set_filter(&pmu.lbr, &none);
	}
	memset(&lbr_pmi, 0, sizeof(lbr_pmi));
	lbr_pmi.keep = GLOBAL_STATUS_COUNTERS_FROZEN | GLOBAL_STATUS_LBRS_FROZEN;
	pmi_route(&lbr_pmi);
	if ((r = lbr_on(dbg, DEBUGCTLMSR_FREEZE_LBRS_ON_PMI | DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI))) {
		st = check_result(c, CHECK_FAIL, "DEBUGCTL or IA32_LBR_CTL write fault %d", "LBR and "
				  "both freeze bits set", r);
		goto out;
	}
	r = pmu_run(cfg, 2, &kernel_branch_pattern_desc, FREEZE_N, &pat, NULL, &res, err,
		    sizeof(err));
	rdmsr_safe(MSR_IA32_DEBUGCTLMSR, &dbg_after);
	pmu_global_status(&pmu, &status);
	lbr_tos(&pmu.lbr, &tos);
	if (r) {
		st = check_error(c, err, "a frozen run");
		goto out;
	}
	pmi_wait(&lbr_pmi, 1);	/* let a PMI held by IF arrive */
	if ((r = lbr_read(&pmu.lbr, run.got, LBR_MAX_DEPTH, &run.ngot))) {
		st = check_result(c, CHECK_FAIL, "LBR read fault %d", "a frozen stack", r);
		goto out;
	}
	slot = res.region_id;
	if (res.delta[1] < period || res.delta[1] > period + 250) {
		st = check_result(c, CHECK_FAIL, "%llu branches counted", "%llu..%llu (frozen at the "
				  "PMI request)", (unsigned long long)res.delta[1],
				  (unsigned long long)period, (unsigned long long)period + 250);
		goto out;
	}
	nwant = run.nwant = pattern_taken(&pat, res.delta[1] - 1, slot, run.want);
	if ((bad = lbr_compare(&run, &n, why, sizeof(why)))) {
		run.nwant = pattern_taken(&pat, res.delta[1], slot, run.want);
		if (run.nwant > nwant && !lbr_compare(&run, &n, why_late, sizeof(why_late))) {
			late = true;
		} else {
			st = check_result(c, CHECK_FAIL, "%s", "the taken branches up to branch %llu, "
					  "where the counters froze, or one branch later (period %llu)",
					  why, (unsigned long long)res.delta[1],
					  (unsigned long long)period);
			goto out;
		}
	}
	if (v4 && !(status & GLOBAL_STATUS_LBRS_FROZEN)) {
		st = check_result(c, CHECK_FAIL, "GLOBAL_STATUS 0x%llx", "LBR_FRZ (bit 58) set "
				  "(version 4 freeze)", (unsigned long long)status);
		goto out;
	}
	if (!v4 && (dbg_after & DEBUGCTLMSR_LBR)) {
		st = check_result(c, CHECK_FAIL, "DEBUGCTL 0x%llx", "LBR cleared by the freeze "
				  "(versions 2-3)", (unsigned long long)dbg_after);
		goto out;
	}
	/* Unfrozen, it records again. */
	if (v4)
		pmu_global_ovf_clear(&pmu, GLOBAL_STATUS_LBRS_FROZEN | GLOBAL_STATUS_COUNTERS_FROZEN);
	else
		wrmsr_safe(MSR_IA32_DEBUGCTLMSR, dbg | DEBUGCTLMSR_LBR);
	{
		uint64_t flags = irq_save();

		kernel_loop4(3, NULL);
		irq_restore(flags);
	}
	lbr_off(dbg);
	lbr_tos(&pmu.lbr, &tos2);
	if (!pmu.lbr.arch && tos2 == tos) {
		st = check_result(c, CHECK_FAIL, "TOS %u after the freeze was lifted", "recording "
				  "again", tos2);
		goto out;
	}
	/* No TOS: entry 0, the newest, must have moved on from the frozen one. */
	if (pmu.lbr.arch && run.ngot) {
		struct lbr_entry now[1];
		unsigned got = 0;

		if (!lbr_read(&pmu.lbr, now, 1, &got) && got &&
		    now[0].from == run.got[0].from && now[0].to == run.got[0].to) {
			st = check_result(c, CHECK_FAIL, "entry 0 still 0x%llx -> 0x%llx after the freeze "
					  "was lifted", "recording again",
					  (unsigned long long)now[0].from, (unsigned long long)now[0].to);
			goto out;
		}
	}
	st = check_result(c, CHECK_PASS, "frozen after %llu branches (period %llu), %u newest entries "
			  "as the model says%s, %s, recording again once lifted", "same",
			  (unsigned long long)res.delta[1], (unsigned long long)period, n,
			  late ? " (the stack one taken branch after the counters: tolerated, the "
			  "SDM freezes it on the PMI request)" : "",
			  v4 ? "LBR_FRZ set" : "DEBUGCTL.LBR cleared");
out:
	lbr_off(dbg);
	pmi_unroute(&lbr_pmi);
	return st;
}
CHECK_DEFINE(580, "lbr.freeze_on_pmi", check_lbr_freeze_on_pmi,
	     "FREEZE_LBRS_ON_PMI: the stack stops with the counters at the PMI request (v4: LBR_FRZ)",
	     .flags = CHECK_PER_CPU);

/* --- lbr.basic_blocks: execution counts from LBR trajectories (seed 000) ----------------- */

/*
 * Seed 000 ("LBRs and Basic Block Execution Counts"): sample the LBR on PMIs of
 * BR_INST_RETIRED.ALL_BRANCHES; between one entry's target and the next entry's source every
 * instruction retired once, so every basic block starting there executed once. Summed over
 * the samples, the blocks' counts stand in the ratio the kernel executes them. The kernel:
 * the branch pattern with period 3, bits 011: block B0 (bt, jc) and B2 (inc .. jnz) run every
 * iteration, B1 (the nop) only when the JC falls through, one iteration in three.
 */
#define BB_N		30000ULL
#define BB_PERIOD	97	/* branches between samples (prime) */

extern char kernel_branch_pattern_nop[], kernel_branch_pattern_ret[];
/* (kernel_branch_pattern_top, _skip: declared above) */
static struct pmi_stats bb_stats;
static uint64_t bb_counts[3], bb_samples, bb_start;
static uint64_t bb_dbg;

static void bb_rearm(void)
{
	char ignored[PMU_ERR_LEN];

	pmu_gp_write(&pmu, 0, bb_start, ignored, sizeof(ignored));
	/* Versions 2-3: the freeze cleared DEBUGCTL.LBR; version 4 lifts LBR_FRZ with the
	 * acknowledge. */
	if (pmu.version < 4)
		wrmsr_safe(MSR_IA32_DEBUGCTLMSR, bb_dbg);
}

static void bb_account(uint64_t to, uint64_t from)
{
	const uint64_t start[3] = { addr_of(kernel_branch_pattern_top),
				    addr_of(kernel_branch_pattern_nop),
				    addr_of(kernel_branch_pattern_skip) };

	for (unsigned b = 0; b < 3; b++)
		if (start[b] >= to && start[b] <= from)
			bb_counts[b]++;
}

static void bb_nmi(struct trap_frame *f)
{
	struct lbr_entry e[LBR_MAX_DEPTH];
	uint64_t lo = addr_of(kernel_branch_pattern_top), hi = addr_of(kernel_branch_pattern_ret);
	uint64_t ctrl = 0;
	unsigned n = 0;

	(void)f;
	/* Counting off while the stack is read: the reading's own branches would otherwise
	 * count, and at a period of 97 a PMU that sends a second PMI per overflow (KVM's bug,
	 * pmu-errata.md) could make every handler run overflow the counter again. */
	rdmsr_safe(MSR_CORE_PERF_GLOBAL_CTRL, &ctrl);
	wrmsr_safe(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	if (!lbr_read(&pmu.lbr, e, LBR_MAX_DEPTH, &n)) {
		bb_samples++;
		/* Newest first: e[i + 1].to .. e[i].from ran once, when both are the kernel's. */
		for (unsigned i = 0; i + 1 < n; i++) {
			uint64_t to = e[i + 1].to, from = e[i].from;

			if (to < lo || to > hi || from < lo || from > hi || to > from)
				break;
			bb_account(to, from);
		}
	}
	wrmsr_safe(MSR_CORE_PERF_GLOBAL_CTRL, ctrl);
	pmu_pmi_handle(&pmu, &bb_stats, true);
}

static enum check_status check_lbr_basic_blocks(struct check_ctx *c)
{
	static struct branch_pattern pat = { 0x3, 3 };
	struct pmu_evtsel e = pmu_arch_evtsel(ARCH_EVENT_BRANCHES, false, true);
	struct pmu_run_opts o = { .reps = 1, .unframed = true };
	struct ctr_cfg cfg;
	struct pmu_result res;
	char err[PMU_ERR_LEN];
	uint64_t dbg = 0, r1, r2;
	enum check_status st;

	LBR_CHECK_PROLOGUE(c);
	if (check_skip_unless_forced(c, pmu.lbr.arch && pmu.version < 4,
				     "architectural LBR on a PMU before version 4: no LBR_FRZ to "
				     "freeze it"))
		return CHECK_SKIP;
	if ((pmu.version < 2 || !(pmu.events & (1U << ARCH_EVENT_BRANCHES))) && !env.force_pmu)
		return check_skip(c, "needs GLOBAL_CTRL and branches retired (CPUID.0AH:EBX[5])");
	bb_start = (1ULL << (pmu.gp_width & 63)) - BB_PERIOD;
	if (check_skip_unless_forced(c, gp_start_unwritable(bb_start),
				     "start value needs full-width writes"))
		return CHECK_SKIP;
	e.intr = true;
	cfg = (struct ctr_cfg){ .idx = 0, .evtsel = pmu_evtsel_encode(&e), .start = bb_start };
	memset(&bb_stats, 0, sizeof(bb_stats));
	memset(bb_counts, 0, sizeof(bb_counts));
	bb_samples = 0;
	bb_stats.rearm = bb_rearm;
	rdmsr_safe(MSR_IA32_DEBUGCTLMSR, &dbg);
	bb_dbg = dbg | DEBUGCTLMSR_FREEZE_LBRS_ON_PMI | (pmu.lbr.arch ? 0 : DEBUGCTLMSR_LBR);
	lbr_clear(&pmu.lbr);
	{
		static const struct lbr_filter none;

		lbr_set_filter(&pmu.lbr, &none);
	}
	pmi_route_nmi(bb_nmi);
	lbr_on(dbg, DEBUGCTLMSR_FREEZE_LBRS_ON_PMI);
	if (pmu_run(&cfg, 1, &kernel_branch_pattern_desc, BB_N, &pat, &o, &res, err, sizeof(err))) {
		st = check_error(c, err, "a sampled run");
		goto out;
	}
	lbr_off(dbg);
	/* The model: B0 and B2 run BB_N times, B1 BB_N / 3 (the JC falls through on i % 3 = 2). */
	if (bb_samples < 100 || !bb_counts[0]) {
		st = check_result(c, CHECK_FAIL, "%llu samples, B0 counted %llu", "at least 100 samples "
				  "(one per %u branches over %llu)", (unsigned long long)bb_samples,
				  (unsigned long long)bb_counts[0], BB_PERIOD, 2 * BB_N);
		goto out;
	}
	r1 = bb_counts[1] * 1000 / bb_counts[0];	/* per mille */
	r2 = bb_counts[2] * 1000 / bb_counts[0];
	if (r1 < 300 || r1 > 367 || r2 < 900 || r2 > 1100)
		st = check_result(c, CHECK_FAIL, "B1/B0 %llu/1000, B2/B0 %llu/1000 (B0 %llu B1 %llu B2 %llu, "
				  "%llu samples)", "333/1000 (+10%%) and 1000/1000 (+-10%%) as the "
				  "model executes them", (unsigned long long)r1, (unsigned long long)r2,
				  (unsigned long long)bb_counts[0], (unsigned long long)bb_counts[1],
				  (unsigned long long)bb_counts[2], (unsigned long long)bb_samples);
	else
		st = check_result(c, CHECK_PASS, "B1/B0 %llu/1000, B2/B0 %llu/1000 from %llu LBR samples",
				  "333 and 1000 (+-10%%), the model's execution ratios",
				  (unsigned long long)r1, (unsigned long long)r2,
				  (unsigned long long)bb_samples);
out:
	lbr_off(dbg);
	pmi_unroute_nmi();
	return st;
}
CHECK_DEFINE(590, "lbr.basic_blocks", check_lbr_basic_blocks,
	     "basic-block execution counts from sampled LBR trajectories (seed 000) stand as the model's",
	     .flags = CHECK_PER_CPU);

/* --- lbr.cstate: the stack across a halt and a deep C-state ------------------------------ */

/*
 * A stack recorded and then left alone (recording off) must read the same after a HLT (C1):
 * nothing lets a part lose it there. After an MWAIT to the deepest C-state CPUID.05H:EDX
 * enumerates beyond C1, an architectural stack without CPUID.1CH:EAX[30] ("deep C-state
 * reset") must be the same too; with EAX[30], or on a legacy stack (Linux's lbr.c allows
 * for both: lbr_is_reset_in_cstate), it may come back cleared, but only whole: every entry
 * as it was, or every entry 0. MWAIT may end early for any reason (SDM Vol. 2B MWAIT): its
 * length is reported, not judged; nor can software see which C-state was reached.
 */
#define CSTATE_US	1000

/* First entry of b that differs from a, plus one (0: all the same); *zero: b all 0. */
static unsigned stack_diff(const struct lbr_entry *a, const struct lbr_entry *b, unsigned n,
			   bool *zero)
{
	unsigned bad = 0;

	*zero = true;
	for (unsigned i = 0; i < n; i++) {
		if (b[i].raw_from || b[i].raw_to || b[i].raw_info)
			*zero = false;
		if (!bad && (a[i].raw_from != b[i].raw_from || a[i].raw_to != b[i].raw_to ||
			     a[i].raw_info != b[i].raw_info))
			bad = i + 1;
	}
	return bad;
}

/* The MWAIT hint of the deepest C-state beyond C1 that CPUID.05H:EDX gives sub-states
 * (EAX[7:4] = C-state - 1, sub-state 0); false where there is none or no MONITOR/MWAIT. */
static bool deep_cstate_hint(uint32_t *hint, unsigned *cstate, uint32_t *edx)
{
	*edx = 0;
	if (!(env.cpu->leaf1_ecx & CPUID_1_ECX_MONITOR) || env.cpu->max_leaf < CPUID_LEAF_MWAIT)
		return false;
	*edx = cpuid(CPUID_LEAF_MWAIT).edx;
	for (unsigned n = 7; n >= 2; n--) {
		if ((*edx >> (4 * n)) & 0xf) {
			*cstate = n;
			*hint = (n - 1) << 4;
			return true;
		}
	}
	return false;
}

static enum check_status check_lbr_cstate(struct check_ctx *c)
{
	static struct lbr_entry after[LBR_MAX_DEPTH];
	char err[PMU_ERR_LEN];
	uint64_t ticks = 0, deep_ticks = 0;
	uint32_t hint = 0, edx = 0;
	unsigned cstate = 0, n = 0, bad;
	bool zero;
	int r;

	LBR_CHECK_PROLOGUE(c);
	if (check_skip_unless_forced(c, !watchdog_usable(),
				     "no usable local-APIC timer to end a halt"))
		return CHECK_SKIP;
	if (lbr_run(&kernel_branch_pattern_desc, 200, &stack_pattern, NULL, &run, err, sizeof(err)))
		return check_error(c, err, "a recorded stack");
	if (!run.ngot || !(run.got[0].raw_from | run.got[0].raw_to))
		return check_result(c, CHECK_FAIL, "entry 0 empty after %s", "the kernel's newest "
				    "taken branch", kernel_branch_pattern_desc.name);
	if (watchdog_nap(CSTATE_US, &ticks) < 0)
		return check_skip(c, "this CPU's APIC timer entry reads back masked or its APIC is "
				  "disabled: nothing would end a halt");
	if ((r = lbr_read(&pmu.lbr, after, run.ngot, &n)) || n != run.ngot)
		return check_result(c, CHECK_FAIL, "LBR read fault %d (%u of %u entries)", "the stack "
				    "after a HLT", r, n, run.ngot);
	if ((bad = stack_diff(run.got, after, n, &zero)))
		return check_result(c, CHECK_FAIL, "entry %u (newest 0) 0x%llx -> 0x%llx info 0x%llx "
				    "after a HLT of %llu TSC ticks", "0x%llx -> 0x%llx info 0x%llx "
				    "as before it: a C1 halt keeps the stack", bad - 1,
				    (unsigned long long)after[bad - 1].raw_from,
				    (unsigned long long)after[bad - 1].raw_to,
				    (unsigned long long)after[bad - 1].raw_info, (unsigned long long)ticks,
				    (unsigned long long)run.got[bad - 1].raw_from,
				    (unsigned long long)run.got[bad - 1].raw_to,
				    (unsigned long long)run.got[bad - 1].raw_info);
	if (!deep_cstate_hint(&hint, &cstate, &edx))
		return check_result(c, CHECK_PASS, "%u entries kept across a HLT of %llu TSC ticks; no "
				    "MWAIT C-state beyond C1 to try (CPUID.01H:ECX.MONITOR=%u, "
				    "CPUID.05H:EDX=0x%x)", "kept", n, (unsigned long long)ticks,
				    !!(env.cpu->leaf1_ecx & CPUID_1_ECX_MONITOR), edx);
	watchdog_mwait(CSTATE_US, hint, &deep_ticks);
	if ((r = lbr_read(&pmu.lbr, after, run.ngot, &n)) || n != run.ngot)
		return check_result(c, CHECK_FAIL, "LBR read fault %d (%u of %u entries)", "the stack "
				    "after an MWAIT", r, n, run.ngot);
	bad = stack_diff(run.got, after, n, &zero);
	if (bad && !zero)
		return check_result(c, CHECK_FAIL, "entry %u (newest 0) 0x%llx -> 0x%llx info 0x%llx "
				    "after MWAIT 0x%x (C%u, %llu TSC ticks)", "0x%llx -> 0x%llx info "
				    "0x%llx as before it, or every entry cleared", bad - 1,
				    (unsigned long long)after[bad - 1].raw_from,
				    (unsigned long long)after[bad - 1].raw_to,
				    (unsigned long long)after[bad - 1].raw_info, hint, cstate,
				    (unsigned long long)deep_ticks,
				    (unsigned long long)run.got[bad - 1].raw_from,
				    (unsigned long long)run.got[bad - 1].raw_to,
				    (unsigned long long)run.got[bad - 1].raw_info);
	if (bad && pmu.lbr.arch && !pmu.lbr.arch_deep_c_reset)
		return check_result(c, CHECK_FAIL, "all %u entries cleared by MWAIT 0x%x (C%u, %llu TSC "
				    "ticks)", "kept: CPUID.1CH:EAX[30]=0 enumerates no deep C-state "
				    "reset", n, hint, cstate, (unsigned long long)deep_ticks);
	return check_result(c, CHECK_PASS, "%u entries kept across a HLT of %llu TSC ticks; %s by "
			    "MWAIT 0x%x (C%u, %llu TSC ticks)", "kept across C1; across a deeper "
			    "C-state kept, or cleared whole where %s", n, (unsigned long long)ticks,
			    bad ? "cleared whole" : "kept", hint, cstate,
			    (unsigned long long)deep_ticks,
			    pmu.lbr.arch ? "CPUID.1CH:EAX[30]=1 allows it" :
			    "a legacy stack may be (Linux lbr_is_reset_in_cstate)");
}
CHECK_DEFINE(595, "lbr.cstate", check_lbr_cstate,
	     "the LBR stack survives a HLT, and a deep C-state unless CPUID.1CH:EAX[30] lets it clear",
	     .flags = CHECK_PER_CPU);
