/* SPDX-License-Identifier: MIT */
/*
 * Cross-core kernels (tests/kernels/xcore.S) on the bootstrap processor and a second CPU at
 * once: a cache-line ping-pong, a producer and a consumer, and false sharing. Each side runs
 * in its own measurement frame (an oracle region on its own vCPU, whose model the oracle
 * checks), and where the model has an event for it each side counts the loads that took a
 * line modified in another core's cache
 * (tests/measure/xcore.h names them).
 */
#include "arch/x86/cpuid.h"
#include "arch/x86/msr.h"
#include "arch/x86/percpu.h"
#include "arch/x86/smp.h"
#include "arch/x86/trap.h"
#include "arch/x86/user.h"
#include "tests/harness/check.h"
#include "tests/harness/env.h"
#include "lib/string.h"
#include "pmu/counter.h"
#include "pmu/event.h"
#include "tests/measure/region.h"
#include "tests/measure/pmu_run.h"
#include "tests/measure/xcore.h"
#include "lib/fmt.h"

#define PINGPONG_N	4096	/* hand-offs per side */
#define FALSE_N		200000	/* increments per side */

/* --- xcore.pingpong ------------------------------------------------------------------- */

static enum check_status check_xcore_pingpong(struct check_ctx *c)
{
	const char *why = NULL;
	int cpu = xcore_partner(&why);
	volatile uint64_t *line = (volatile uint64_t *)xcore_page;
	struct xcore_side a, b;
	uint64_t transfers = 2 * PINGPONG_N - 1, total, lo, hi;
	enum check_status st;

	if (cpu < 0)
		return check_skip(c, "%s", why);
	memset(xcore_page, 0, sizeof(xcore_page));
	xcore_setup(&a, &b, &kernel_pingpong_desc, &kernel_pingpong_desc, PINGPONG_N, line, line);
	st = xcore_run_pair(c, cpu, &a, &b);
	if (st != CHECK_PASS)
		return st;
	if (xcore_args[0].spins >= XCORE_SPIN_LIMIT || xcore_args[1].spins >= XCORE_SPIN_LIMIT ||
	    *line != 2 * PINGPONG_N)
		return check_result(c, CHECK_FAIL, "line holds %llu, waits %llu/%llu turns", "%u after "
				    "%u hand-offs each way, both waits below %llu",
				    (unsigned long long)*line, (unsigned long long)xcore_args[0].spins,
				    (unsigned long long)xcore_args[1].spins, 2 * PINGPONG_N, PINGPONG_N,
				    (unsigned long long)XCORE_SPIN_LIMIT);
	if (!a.count)
		return check_result(c, CHECK_PASS, "line holds %u after %u hand-offs each way with CPU %d "
				    "(APIC ID %u)", "same; %llu transfers not counted: %s",
				    2 * PINGPONG_N, PINGPONG_N, cpu, smp.cpu[cpu].apic_id,
				    (unsigned long long)transfers, xcore_no_hitm_count());
	/* Every read that ends a wait takes the line the other side has just modified: one
	 * such load per hand-off, 2n - 1 for the pair (the first wait reads the line as this
	 * CPU zeroed it). 10% either way for what a real core's spin loads and prefetches add
	 * or take (measured: the emulated PMU counts it exactly). */
	total = a.hitm + b.hitm;
	lo = transfers - transfers / 10;
	hi = transfers + transfers / 10;
	if (total < lo || total > hi)
		return check_result(c, CHECK_FAIL, "%llu (%llu here + %llu on APIC ID %u) %s", "%llu.."
				    "%llu: %llu hand-offs", (unsigned long long)total,
				    (unsigned long long)a.hitm, (unsigned long long)b.hitm,
				    smp.cpu[cpu].apic_id, xcore_hitm_event()->name, (unsigned long long)lo,
				    (unsigned long long)hi, (unsigned long long)transfers);
	return check_result(c, CHECK_PASS, "%llu (%llu + %llu) %s", "%llu..%llu: %llu hand-offs "
			    "with APIC ID %u", (unsigned long long)total, (unsigned long long)a.hitm,
			    (unsigned long long)b.hitm, xcore_hitm_event()->name, (unsigned long long)lo,
			    (unsigned long long)hi, (unsigned long long)transfers,
			    smp.cpu[cpu].apic_id);
}
CHECK_DEFINE(290, "xcore.pingpong", check_xcore_pingpong,
	     "a line handed between two CPUs 2x4096 times: each hand-off one load of a line modified in the other core",
	     .flags = CHECK_PACKAGE);

/* --- xcore.producer_consumer -------------------------------------------------------- */

static enum check_status check_xcore_producer_consumer(struct check_ctx *c)
{
	const char *why = NULL;
	int cpu = xcore_partner(&why);
	volatile uint64_t *buf = (volatile uint64_t *)xcore_produce_buf;
	struct xcore_side a, b;
	uint64_t want = (uint64_t)PRODUCE_N * (PRODUCE_N + 1) / 2, hi;
	enum check_status st;

	if (cpu < 0)
		return check_skip(c, "%s", why);
	memset(xcore_produce_buf, 0, sizeof(xcore_produce_buf));
	/* This CPU consumes, the partner produces. */
	xcore_setup(&a, &b, &kernel_consume_desc, &kernel_produce_desc, PRODUCE_N, buf, buf);
	st = xcore_run_pair(c, cpu, &a, &b);
	if (st != CHECK_PASS)
		return st;
	if (xcore_args[0].spins >= XCORE_SPIN_LIMIT || xcore_args[0].sum != want)
		return check_result(c, CHECK_FAIL, "sum %llu, waits %llu turns", "%llu (1..%u), waits "
				    "below %llu", (unsigned long long)xcore_args[0].sum,
				    (unsigned long long)xcore_args[0].spins, (unsigned long long)want,
				    PRODUCE_N, (unsigned long long)XCORE_SPIN_LIMIT);
	if (!a.count)
		return check_result(c, CHECK_PASS, "sum %llu", "%llu; %u transfers not counted: %s",
				    (unsigned long long)want, (unsigned long long)want, PRODUCE_N,
				    xcore_no_hitm_count());
	/* Each line is written once, on the producer's core, and read by the consumer: at most
	 * one load per line takes it modified from there (none if a prefetcher got the line
	 * first, which is why the lower bound is only 1), plus 10%. */
	hi = PRODUCE_N + PRODUCE_N / 10;
	if (a.hitm < 1 || a.hitm > hi)
		return check_result(c, CHECK_FAIL, "%llu %s on the consumer", "1..%llu: %u lines "
				    "produced on APIC ID %u", (unsigned long long)a.hitm,
				    xcore_hitm_event()->name, (unsigned long long)hi, PRODUCE_N,
				    smp.cpu[cpu].apic_id);
	return check_result(c, CHECK_PASS, "%llu %s on the consumer, sum %llu", "1..%llu: %u lines "
			    "produced on APIC ID %u", (unsigned long long)a.hitm, xcore_hitm_event()->name,
			    (unsigned long long)want, (unsigned long long)hi, PRODUCE_N,
			    smp.cpu[cpu].apic_id);
}
CHECK_DEFINE(300, "xcore.producer_consumer", check_xcore_producer_consumer,
	     "1024 lines written on one CPU and read on another: at most one modified-line transfer each",
	     .flags = CHECK_PACKAGE);

/* --- xcore.false_sharing ------------------------------------------------------------- */

/* Both sides increment their own counter; `apart` puts the counters in different lines. */
static enum check_status false_share(struct check_ctx *c, int cpu, bool apart, uint64_t *hitm)
{
	volatile uint64_t *a0 = (volatile uint64_t *)(xcore_page + 64);
	volatile uint64_t *b0 = (volatile uint64_t *)(xcore_page + (apart ? 128 : 72));
	struct xcore_side a, b;
	enum check_status st;

	memset(xcore_page, 0, sizeof(xcore_page));
	xcore_setup(&a, &b, &kernel_false_share_desc, &kernel_false_share_desc, FALSE_N, a0, b0);
	st = xcore_run_pair(c, cpu, &a, &b);
	if (st != CHECK_PASS)
		return st;
	if (*a0 != FALSE_N || *b0 != FALSE_N)
		return check_result(c, CHECK_FAIL, "counters %llu and %llu", "%u each",
				    (unsigned long long)*a0, (unsigned long long)*b0, FALSE_N);
	*hitm = a.hitm + b.hitm;
	return CHECK_PASS;
}

static enum check_status check_xcore_false_sharing(struct check_ctx *c)
{
	const char *why = NULL;
	int cpu = xcore_partner(&why);
	uint64_t same = 0, apart = 0;
	enum check_status st;

	if (cpu < 0)
		return check_skip(c, "%s", why);
	st = false_share(c, cpu, false, &same);
	if (st == CHECK_PASS)
		st = false_share(c, cpu, true, &apart);
	if (st != CHECK_PASS)
		return st;
	if (xcore_no_hitm_count())
		return check_result(c, CHECK_PASS, "both counters at %u, in one line and apart",
				    "same; transfers not counted: %s", FALSE_N, xcore_no_hitm_count());
	/* Apart, no line is shared: nothing may move (16 for stray kernel-frame traffic). In
	 * one line the two loops overlap for most of their run (the partner starts within
	 * microseconds of this CPU): the line must move at least once; how often depends on
	 * how the cores interleave, which nothing here fixes. */
	if (apart > 16 || same < 1)
		return check_result(c, CHECK_FAIL, "%llu in one line, %llu apart (%s)", ">= 1 in one "
				    "line, <= 16 apart", (unsigned long long)same,
				    (unsigned long long)apart, xcore_hitm_event()->name);
	return check_result(c, CHECK_PASS, "%llu in one line, %llu apart (%s)", ">= 1 in one line, "
			    "<= 16 apart", (unsigned long long)same, (unsigned long long)apart,
			    xcore_hitm_event()->name);
}
CHECK_DEFINE(310, "xcore.false_sharing", check_xcore_false_sharing,
	     "two CPUs' counters in one line move it between them; in separate lines nothing moves",
	     .flags = CHECK_PACKAGE);

/* --- xcore.anythread: a counter with AnyThread counts the hyper-thread sibling -------- */

/*
 * SDM Vol. 3B, architectural performance monitoring version 3: IA32_PERFEVTSELx.AnyThread
 * (bit 21) counts the event for every logical processor of the core, each filtered by its
 * own CPL. GP0 here counts instructions retired at CPL 3 with AnyThread while this CPU
 * waits at CPL 0 and the sibling runs loop4 at CPL 3: at 2N it must count exactly 4N more
 * than at N (the sibling's), and without AnyThread nothing. Version 5 parts may deprecate
 * the bit (CPUID.0AH:EDX[15]): then it SKIPs.
 */
#define ANY_N		100000ULL

struct any_side {
	uint64_t n;
	int fault;
};

static void any_sibling(void *p)
{
	struct any_side *a = p;
	uint64_t ret;

	a->fault = user_call((user_fn)(uintptr_t)kernel_loop4, a->n, 0, 0, 0, false, &ret);
}

/* GP0's count (USR, any as given) while CPU sib runs loop4(n) at CPL 3; 0 or an error. */
static int any_once(unsigned sib, bool any, uint64_t n, uint64_t *count, uint64_t *smis,
		    char *err, size_t errlen)
{
	struct pmu_evtsel e = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, true, false);
	/* Not on this stack: a sibling still running when run_wait gives up writes its fault
	 * here later (as xcore_run_pair's partner slots). */
	static struct any_side sides[MAX_CPUS];
	struct any_side *side = &sides[sib % MAX_CPUS];
	struct ctr_cfg cfg;
	uint64_t enable, smi0 = 0, smi1 = 0;
	int r;

	e.any = any;
	*side = (struct any_side){ .n = n };
	cfg = (struct ctr_cfg){ .idx = 0, .evtsel = pmu_evtsel_encode(&e) };
	pmu_smi_count(&pmu, &smi0);
	if ((r = pmu_run_arm(&cfg, 1, &enable, err, errlen)))
		return r;
	if ((r = pmu_global_ctrl_write(&pmu, enable, err, errlen))) {
		pmu_gp_program(&pmu, 0, 0, 0, NULL, 0);
		return r;
	}
	if ((r = run_start(sib, any_sibling, side)) || (r = run_wait(sib, 1000000))) {
		pmu_global_ctrl_write(&pmu, 0, err, errlen);
		pmu_gp_program(&pmu, 0, 0, 0, err, errlen);
		fmt_snprintf(err, errlen, "the sibling (APIC ID %u): %s", smp.cpu[sib].apic_id,
			     smp_error_name(r));
		return PMU_EARG;
	}
	pmu_global_ctrl_write(&pmu, 0, err, errlen);
	r = pmu_gp_read(&pmu, 0, count);
	pmu_gp_program(&pmu, 0, 0, 0, err, errlen);
	if (!pmu_smi_count(&pmu, &smi1))
		*smis += (smi1 - smi0) & MSR_SMI_COUNT_MASK;
	if (r) {
		fmt_snprintf(err, errlen, "RDMSR of PMC0 faulted (vector %d)", r);
		return r;
	}
	if (side->fault != FAULT_NONE) {
		fmt_snprintf(err, errlen, "the sibling's CPL-3 loop faulted (vector %d)", side->fault);
		return PMU_EARG;
	}
	return 0;
}

static enum check_status check_xcore_anythread(struct check_ctx *c)
{
	char err[PMU_ERR_LEN];
	const char *why;
	uint64_t a1, a2, o1, o2, smis = 0;
	int sib;

	if (pmu_unavailable_reason(env.force_pmu))
		return check_skip(c, "%s", pmu_unavailable_reason(false));
	if (check_skip_unless_forced(c, pmu.version < 3, "AnyThread is architectural from "
				     "version 3; this PMU is version %u", pmu.version))
		return CHECK_SKIP;
	if (check_skip_unless_forced(c, pmu.edx & CPUID_0A_EDX_ANYTHREAD_DEPRECATED,
				     "AnyThread deprecated (CPUID.0AH:EDX[15]=1)"))
		return CHECK_SKIP;
	if (user_unavailable())
		return check_skip(c, "%s", user_unavailable());
	if (smp.kept)
		return check_skip(c, "boot services kept: the firmware's MP services run one blocking "
				  "call at a time");
	if ((sib = xcore_sibling(&why)) < 0)
		return check_skip(c, "%s", why);
	if (any_once((unsigned)sib, true, ANY_N, &a1, &smis, err, sizeof(err)) ||
	    any_once((unsigned)sib, true, 2 * ANY_N, &a2, &smis, err, sizeof(err)) ||
	    any_once((unsigned)sib, false, ANY_N, &o1, &smis, err, sizeof(err)) ||
	    any_once((unsigned)sib, false, 2 * ANY_N, &o2, &smis, err, sizeof(err)))
		return check_error(c, err, "runs with the sibling");
	if ((int64_t)(a2 - a1) != (int64_t)(4 * ANY_N) || o1 > 64 || o2 > 64)
		return check_result(c, CHECK_FAIL, "with AnyThread %lld more at 2N (%llu, %llu), without "
				    "%llu and %llu", "%llu more (the sibling's CPL-3 loop4), and at most 64 "
				    "without (this CPU waits at CPL 0) N=%llu sibling APIC ID %u%s",
				    (long long)(a2 - a1), (unsigned long long)a1,
				    (unsigned long long)a2, (unsigned long long)o1,
				    (unsigned long long)o2, 4 * ANY_N, ANY_N, smp.cpu[sib].apic_id,
				    smis ? " (SMIs arrived)" : "");
	return check_result(c, CHECK_PASS, "with AnyThread %lld more at 2N, without %llu and %llu",
			    "%llu more (the sibling's CPL-3 loop4), at most 64 without N=%llu sibling "
			    "APIC ID %u", (long long)(a2 - a1), (unsigned long long)o1,
			    (unsigned long long)o2, 4 * ANY_N, ANY_N, smp.cpu[sib].apic_id);
}
CHECK_DEFINE(315, "xcore.anythread", check_xcore_anythread,
	     "AnyThread (v3+): a counter counts the hyper-thread sibling's CPL-3 instructions, exactly",
	     .flags = CHECK_PACKAGE);

/* --- xcore.ht_mem: the sibling's MEM_* event on the same counter index ------------------ */

/*
 * pmu-errata.md "BJ122, BV98, HSD29": on Sandy Bridge, Ivy Bridge and Haswell with
 * hyper-threads the D0H-D3H MEM_* events are corrupted by the sibling thread counting one
 * on the same counter index (inferred from Linux's workaround, which makes those events
 * exclusive across siblings: core.c intel_ht_bug, PMU_FL_EXCL_CNTRS). GP0 here counts
 * MEM_INST_RETIRED.ALL_LOADS (D0H/81H; MEM_UOPS_RETIRED.ALL_LOADS from Sandy Bridge to
 * Broadwell) over load_stream at N and 2N lines, HTMEM_REPS runs each, while the sibling
 * counts the same event on its own GP0 over a spin loop that loads a flag: every run at N
 * must count the same, every run at 2N the same, the difference exactly the kernel's 8
 * loads a line (a retirement event: no noise with interrupts off and SMI runs redone), and
 * the sibling must have counted loads of its own (it ran, counting, all along). Every run,
 * not the least of them: a leak lasts only while both threads run, and the least run is
 * the one the sibling spent least of alongside.
 */
#define HTMEM_N		4096ULL		/* lines: 32768 loads at N */
#define HTMEM_REPS	5
#define HTMEM_SIB_MIN	1000		/* loads the sibling counts at the least */

struct htmem_side {
	uint64_t evtsel;
	uint32_t counting, stop;	/* atomics */
	uint64_t beat;			/* the spin loop's iterations (atomic) */
	uint64_t count;
	int fault;
};

static void htmem_sibling(void *p)
{
	struct htmem_side *s = p;
	char err[PMU_ERR_LEN];

	if (pmu_gp_program(&pmu, 0, s->evtsel, 0, err, sizeof(err)) ||
	    pmu_global_ctrl_write(&pmu, 1, err, sizeof(err)))
		s->fault = 1;
	__atomic_store_n(&s->counting, 1, __ATOMIC_RELEASE);
	while (!s->fault && !__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&s->beat, __atomic_load_n(&s->beat, __ATOMIC_RELAXED) + 1,
				 __ATOMIC_RELAXED);
		cpu_relax();
	}
	pmu_global_ctrl_write(&pmu, 0, err, sizeof(err));
	if (pmu_gp_read(&pmu, 0, &s->count))
		s->fault = 1;
	pmu_gp_program(&pmu, 0, 0, 0, err, sizeof(err));
}

/* HTMEM_REPS runs each at N and 2N lines, alternating, runs that took an SMI redone: their
 * counts in at[0] and at[1]. Each run starts once the sibling's loop has gone round again
 * (it is running now: on silicon at once; an emulator's vCPU threads may wait for the host),
 * and one during which the loop did not go round (the sibling did not run beside it: no
 * test of a leak) is redone too, counted in *alone_runs (CI of 4740094: with two boots at
 * a time the sibling ran beside none of the ten windows once, and the erratum passed). 0,
 * or an error. */
#define HTMEM_TRIES	(20 * HTMEM_REPS)
static int htmem_runs(const struct ctr_cfg *cfg, const struct htmem_side *side,
		      uint64_t at[2][HTMEM_REPS], unsigned *smi_runs, unsigned *alone_runs,
		      char *err, size_t errlen)
{
	struct pmu_run_opts o = { .reps = 1 };
	unsigned tries = 0;

	for (unsigned i = 0; i < HTMEM_REPS; i++)
		for (unsigned k = 0; k < 2; k++) {
			struct pmu_result res;
			bool alone;
			int r;

			do {
				uint64_t b0 = __atomic_load_n(&side->beat, __ATOMIC_RELAXED), b1;

				for (uint64_t spin = 0;
				     __atomic_load_n(&side->beat, __ATOMIC_RELAXED) == b0; spin++)
					if (spin > XCORE_SPIN_LIMIT) {
						fmt_snprintf(err, errlen, "the sibling's loop stopped");
						return -1;
					}
				if (tries++ > HTMEM_TRIES) {
					fmt_snprintf(err, errlen, "%u runs, %u with an SMI, %u with the "
						     "sibling not running beside", tries - 1, *smi_runs,
						     *alone_runs);
					return -1;
				}
				b1 = __atomic_load_n(&side->beat, __ATOMIC_RELAXED);
				r = pmu_run(cfg, 1, &kernel_load_stream_desc, (k + 1) * HTMEM_N,
					    (void *)(uintptr_t)env.buf, &o, &res, err, errlen);
				if (r)
					return r;
				alone = __atomic_load_n(&side->beat, __ATOMIC_RELAXED) == b1;
				*smi_runs += res.smis ? 1 : 0;
				*alone_runs += !res.smis && alone ? 1 : 0;
			} while (res.smis || alone);
			at[k][i] = res.delta[0];
		}
	return 0;
}

/* The least and the most of v[0..n). */
static void htmem_range(const uint64_t *v, unsigned n, uint64_t *lo, uint64_t *hi)
{
	*lo = *hi = v[0];
	for (unsigned i = 1; i < n; i++) {
		*lo = v[i] < *lo ? v[i] : *lo;
		*hi = v[i] > *hi ? v[i] : *hi;
	}
}

/* Whether this microarchitecture has D0H/81H as its all-loads MEM event. */
static bool htmem_event_known(void)
{
	switch (pmu.uarch) {
	case UARCH_SANDY_BRIDGE: case UARCH_IVY_BRIDGE: case UARCH_HASWELL: case UARCH_BROADWELL:
	case UARCH_SKYLAKE: case UARCH_SKYLAKE_X: case UARCH_KABY_LAKE: case UARCH_CANNON_LAKE:
	case UARCH_ICE_LAKE: case UARCH_ICE_LAKE_X: case UARCH_TIGER_LAKE: case UARCH_ROCKET_LAKE:
	case UARCH_SAPPHIRE_RAPIDS: case UARCH_EMERALD_RAPIDS: case UARCH_GRANITE_RAPIDS:
		return true;
	default:
		return false;
	}
}

static enum check_status check_xcore_ht_mem(struct check_ctx *c)
{
	static struct htmem_side sides[MAX_CPUS];	/* not on this stack: see any_once */
	struct pmu_evtsel e = { .event = 0xd0, .umask = 0x81, .os = true, .en = true };
	struct ctr_cfg cfg = { .idx = 0, .evtsel = pmu_evtsel_encode(&e) };
	uint64_t at[2][HTMEM_REPS], lo1, hi1, lo2, hi2;
	unsigned smi_runs = 0, alone_runs = 0;
	char err[PMU_ERR_LEN];
	static struct exec_counts m1, m2;
	struct htmem_side *side;
	const char *why;
	int64_t want;
	int sib, r, rm;

	if (pmu_unavailable_reason(env.force_pmu))
		return check_skip(c, "%s", pmu_unavailable_reason(false));
	if (check_skip_unless_forced(c, !htmem_event_known(), "pmuboot knows no D0H/81H all-loads "
				     "MEM event for this microarchitecture"))
		return CHECK_SKIP;
	if (check_skip_unless_forced(c, pmu.errata & PMU_ERRATUM_HT_MEM_EXCL, "%s",
				     pmu_erratum_note(PMU_ERRATUM_HT_MEM_EXCL)))
		return CHECK_SKIP;
	if (smp.kept)
		return check_skip(c, "boot services kept: the firmware's MP services run one blocking "
				  "call at a time");
	if (env.buf_size < 2 * HTMEM_N * 64)
		return check_skip(c, "the test buffer holds %llu bytes; this check needs %llu",
				  (unsigned long long)env.buf_size,
				  (unsigned long long)(2 * HTMEM_N * 64));
	if ((sib = xcore_sibling(&why)) < 0)
		return check_skip(c, "%s", why);
	side = &sides[sib % MAX_CPUS];
	*side = (struct htmem_side){ .evtsel = cfg.evtsel };
	if ((r = run_start((unsigned)sib, htmem_sibling, side)))
		return check_error(c, smp_error_name(r), "the sibling (APIC ID %u) started",
				   smp.cpu[sib].apic_id);
	for (uint64_t spin = 0; !__atomic_load_n(&side->counting, __ATOMIC_ACQUIRE); spin++)
		if (spin > XCORE_SPIN_LIMIT) {
			__atomic_store_n(&side->stop, 1, __ATOMIC_RELEASE);
			run_wait((unsigned)sib, 1000000);
			return check_error(c, "no answer", "the sibling (APIC ID %u) counting",
					   smp.cpu[sib].apic_id);
		}
	rm = htmem_runs(&cfg, side, at, &smi_runs, &alone_runs, err, sizeof(err));
	__atomic_store_n(&side->stop, 1, __ATOMIC_RELEASE);
	r = run_wait((unsigned)sib, 1000000);
	if (rm)
		return check_error(c, err, "load_stream counted");
	if (r || side->fault)
		return check_error(c, r ? smp_error_name(r) : "a PMU MSR faulted", "the sibling's "
				   "counter (APIC ID %u)", smp.cpu[sib].apic_id);
	region_predict_frame(FRAME_PMU, &kernel_load_stream_desc, HTMEM_N,
			     (void *)(uintptr_t)env.buf, 0, &m1);
	region_predict_frame(FRAME_PMU, &kernel_load_stream_desc, 2 * HTMEM_N,
			     (void *)(uintptr_t)env.buf, 0, &m2);
	want = (int64_t)(m2.loads - m1.loads);
	if (side->count < HTMEM_SIB_MIN)
		return check_result(c, CHECK_FAIL, "the sibling counted %llu loads",
				    "at least %u: it spun on a load all along, counting D0H/81H on its "
				    "GP0", (unsigned long long)side->count, HTMEM_SIB_MIN);
	htmem_range(at[0], HTMEM_REPS, &lo1, &hi1);
	htmem_range(at[1], HTMEM_REPS, &lo2, &hi2);
	if (lo1 != hi1 || lo2 != hi2 || (int64_t)(lo2 - lo1) != want)
		return check_result(c, CHECK_FAIL, "at N %llu..%llu, at 2N %llu..%llu over %u runs each "
				    "(%+lld from N to 2N at the least), the sibling counting %llu loads "
				    "on its GP0", "the same in every run, %lld more at 2N: load_stream's "
				    "own loads, none of the sibling's (BJ122/BV98/HSD29: a sibling's "
				    "MEM event on the same counter index) N=%llu sibling APIC ID %u "
				    "smi_redone=%u alone_redone=%u", (unsigned long long)lo1,
				    (unsigned long long)hi1, (unsigned long long)lo2,
				    (unsigned long long)hi2, HTMEM_REPS, (long long)(lo2 - lo1 - want),
				    (unsigned long long)side->count, (long long)want, HTMEM_N,
				    smp.cpu[sib].apic_id, smi_runs, alone_runs);
	return check_result(c, CHECK_PASS, "%llu at N and %llu at 2N in each of %u runs, the sibling "
			    "counting %llu loads on its GP0 meanwhile", "the same in every run, %lld "
			    "more at 2N: load_stream's own loads N=%llu sibling APIC ID %u "
			    "smi_redone=%u alone_redone=%u", (unsigned long long)lo1,
			    (unsigned long long)lo2, HTMEM_REPS, (unsigned long long)side->count,
			    (long long)want, HTMEM_N, smp.cpu[sib].apic_id, smi_runs, alone_runs);
}
CHECK_DEFINE(316, "xcore.ht_mem", check_xcore_ht_mem,
	     "MEM_INST_RETIRED.ALL_LOADS on GP0 counts this CPU's loads only while the hyper-thread sibling counts the same event on its GP0",
	     .flags = CHECK_PACKAGE);
