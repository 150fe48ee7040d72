/* SPDX-License-Identifier: MIT */
/*
 * Core PMU checks: enumeration, programming rules, architectural events on every GP and
 * fixed counter against the calibrated loop, widths, overflow and PMI. They SKIP where
 * CPUID reports no PMU and, with force-pmu, run anyway and must FAIL there.
 */
#include "arch/x86/apic.h"
#include "arch/x86/io.h"
#include "arch/x86/msr.h"
#include "arch/x86/trap.h"
#include "arch/x86/tsc.h"
#include "arch/x86/user.h"
#include "boot/platform.h"
#include "lib/fmt.h"
#include "lib/stats.h"
#include "lib/string.h"
#include "pmu/counter.h"
#include "pmu/event.h"
#include "pmu/frame.h"
#include "pmu/pmi.h"
#include "tests/checks.h"
#include "tests/measure.h"
#include "tests/pmu_run.h"

#define PMU_N		100000ULL	/* calibrated-loop iterations for event checks */
#define PMU_REPS	5

static const char *no_pmu(void)
{
	return pmu_unavailable_reason(plat.opt.force_pmu);
}

/* Counter-programming checks need GLOBAL_CTRL (version 2+) for the measurement frame. */
static const char *no_global_ctrl(void)
{
	if (no_pmu())
		return no_pmu();
	if (pmu.version < 2 && !plat.opt.force_pmu)
		return "PMU version 1: no IA32_PERF_GLOBAL_CTRL for the measurement frame";
	return NULL;
}

enum check_status check_pmu_arch_version(struct check_ctx *c)
{
	if (no_pmu())
		return check_skip(c, "%s", no_pmu());
	if (pmu.version < 1 || pmu.num_gp < 1)
		return check_fail(c, "measured=version %u, %u GP counters (CPUID.0AH:EAX=0x%x) "
				  "expected=version >= 1 with >= 1 GP counter", pmu.version, pmu.num_gp,
				  pmu.eax);
	return check_pass(c, "measured=version %u, %u GP x %u bits, %u fixed x %u bits, %s "
			  "expected=version >= 1 with >= 1 GP counter", pmu.version, pmu.num_gp,
			  pmu.gp_width, pmu.num_fixed, pmu.fixed_width, pmu_uarch_name(pmu.uarch));
}

enum check_status check_pmu_rdpmc_gp0(struct check_ctx *c)
{
	uint64_t v, m;
	int fault;

	if (no_pmu())
		return check_skip(c, "%s", no_pmu());
	fault = rdpmc_safe(0, &v);
	if (fault)
		return check_fail(c, "measured=fault vector %d expected=no fault ecx=0", fault);
	fault = rdmsr_safe(MSR_IA32_PMC0, &m);
	if (fault)
		return check_fail(c, "measured=RDMSR IA32_PMC0 fault vector %d expected=no fault", fault);
	/* Nothing is counting: both reads must agree. */
	if ((v & pmu_gp_width_mask(&pmu)) != (m & pmu_gp_width_mask(&pmu)))
		return check_fail(c, "measured=RDPMC 0x%llx RDMSR 0x%llx expected=equal",
				  (unsigned long long)v, (unsigned long long)m);
	return check_pass(c, "measured=RDPMC = RDMSR = 0x%llx expected=equal, no fault",
			  (unsigned long long)v);
}

/* --- The PMU measurement frame under -icount ------------------------------------------ */

enum check_status check_pmu_frame(struct check_ctx *c)
{
	static uint64_t v[100];
	const struct kernel_desc *k = &kernel_loop4_desc;
	uint64_t ctrl, a, b;
	struct u64_stats st;

	if (icount_unavailable())
		return check_skip(c, "%s", icount_unavailable());
	if (rdmsr_safe(MSR_CORE_PERF_GLOBAL_CTRL, &ctrl))
		return check_skip(c, "IA32_PERF_GLOBAL_CTRL faults: the PMU frame cannot run here");
	/* Counting stays off (enable = 0): this measures the frame itself through the TSC. */
	a = measure_kernel_pmu(k, 1000, NULL, 0).tsc;
	b = measure_kernel_pmu(k, 2000, NULL, 0).tsc;
	if (b - a != 4000)
		return check_fail(c, "measured=count(2N)-count(N)=%llu expected=4000 N=1000",
				  (unsigned long long)(b - a));
	for (unsigned i = 0; i < 100; i++)
		v[i] = measure_kernel_pmu(k, 1000, NULL, 0).tsc;
	u64_stats(v, 100, &st);
	if (st.min != st.max)
		return check_fail(c, "measured=spread %llu over 100 reps expected=0",
				  (unsigned long long)(st.max - st.min));
	return check_pass(c, "measured=4000 and spread 0 over 100 reps expected=4000 and 0 "
			  "(window adds %d instructions; oracle region = kernel + %d)",
			  PMU_FRAME_INSNS, PMU_FRAME_REGION_INSNS);
}

/* --- Architectural events on every GP counter -------------------------------------- */

/* Instance i: event i / GP_SLOTS on GP counter i % GP_SLOTS. */
#define GP_SLOTS	PMU_MAX_GP

static unsigned gp_counters(void)
{
	return pmu.num_gp ? pmu.num_gp : 1;	/* one instance to SKIP or FAIL without a PMU */
}

unsigned pmu_arch_instances(void)
{
	return NR_ARCH_EVENTS * gp_counters();
}

void pmu_arch_instance_name(unsigned i, char *buf, size_t len)
{
	fmt_snprintf(buf, len, "%s.gp%u", arch_events[i / gp_counters()].name, i % gp_counters());
}

struct expectation {
	uint64_t lo, hi;	/* inclusive range for the differential */
	const char *why;
};

/*
 * What the calibrated loop's extra N iterations must add to each architectural event.
 * `fixed`: counted by the fixed counter (reference cycles there tick at the TSC rate; on GP
 * counters 3CH/01H ticks at a model-specific reference clock such as the crystal).
 */
static struct expectation expect_for(enum arch_event ev, uint64_t n, uint64_t tsc_diff, bool fixed)
{
	switch (ev) {
	case ARCH_EVENT_INSTRUCTIONS:
		return (struct expectation){ 4 * n, 4 * n, "4 instructions per iteration" };
	case ARCH_EVENT_BRANCHES:
		return (struct expectation){ n, n, "1 branch per iteration" };
	case ARCH_EVENT_CORE_CYCLES:
		/* The dec/jnz chain carries a 1-cycle dependency; cores that take two branches
		 * a cycle could halve that. 16 per iteration is far beyond any core. */
		return (struct expectation){ n / 2, 16 * n, "0.5..16 cycles per iteration" };
	case ARCH_EVENT_REF_CYCLES:
		if (fixed)
			return (struct expectation){ tsc_diff - tsc_diff / 4, tsc_diff + tsc_diff / 4,
						     "within 25% of the TSC" };
		return (struct expectation){ 1, tsc_diff + tsc_diff / 4,
					     "a reference clock no faster than the TSC" };
	case ARCH_EVENT_TOPDOWN_SLOTS:
		return (struct expectation){ n, 8 * 16 * n, "1..128 slots per iteration" };
	case ARCH_EVENT_BRANCH_MISSES:
		return (struct expectation){ 0, n / 100 + 16, "the loop branch predicts" };
	default:	/* LLC references and misses: the loop touches no data */
		return (struct expectation){ 0, 64, "no data accesses" };
	}
}

enum check_status check_pmu_arch_event(struct check_ctx *c)
{
	enum arch_event ev = (enum arch_event)(c->instance / gp_counters());
	unsigned idx = c->instance % gp_counters();
	struct ctr_cfg cfg = { .fixed = false, .idx = idx, .evtsel = pmu_os_evtsel(ev) };
	char err[PMU_ERR_LEN];
	uint64_t diff, median, tsc_diff;
	struct expectation e;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	if (!plat.opt.force_pmu && !(pmu.events & (1U << ev)))
		return check_skip(c, "CPUID.0AH:EBX[%d]=1 or beyond EBX length %u: %s not available",
				  ev, pmu.ebx_len, arch_events[ev].name);
	if (pmu_run_differential_stats(&cfg, 1, &kernel_loop4_desc, PMU_N, NULL, plat.opt.reps,
				       &diff, &median, &tsc_diff, err, sizeof(err)))
		return check_fail(c, "measured=%s expected=event %02XH/%02XH counted", err,
				  arch_events[ev].event, arch_events[ev].umask);
	e = expect_for(ev, PMU_N, tsc_diff, false);
	if (diff < e.lo || diff > e.hi)
		return check_fail(c, "measured=%llu expected=%llu..%llu (%s) N=%llu event=%02XH/%02XH "
				  "median=%llu reps=%u", (unsigned long long)diff, (unsigned long long)e.lo,
				  (unsigned long long)e.hi, e.why, PMU_N, arch_events[ev].event,
				  arch_events[ev].umask, (unsigned long long)median, plat.opt.reps);
	return check_pass(c, "measured=%llu expected=%llu..%llu (%s) N=%llu median=%llu reps=%u",
			  (unsigned long long)diff, (unsigned long long)e.lo,
			  (unsigned long long)e.hi, e.why, PMU_N, (unsigned long long)median,
			  plat.opt.reps);
}

/* --- Fixed counters ------------------------------------------------------------------ */

static unsigned fixed_counters(void)
{
	return pmu.num_fixed ? pmu.num_fixed : 1;
}

unsigned pmu_fixed_instances(void)
{
	return fixed_counters();
}

void pmu_fixed_instance_name(unsigned i, char *buf, size_t len)
{
	fmt_snprintf(buf, len, "fixed%u", i);
}

enum check_status check_pmu_fixed(struct check_ctx *c)
{
	unsigned idx = c->instance;
	static const enum arch_event fixed_event[] = {
		ARCH_EVENT_INSTRUCTIONS, ARCH_EVENT_CORE_CYCLES, ARCH_EVENT_REF_CYCLES,
		ARCH_EVENT_TOPDOWN_SLOTS,
	};
	struct ctr_cfg cfg = { .fixed = true, .idx = idx, .fixed_ctrl = FIXED_CTR_CTRL_OS };
	char err[PMU_ERR_LEN];
	uint64_t diff, tsc_diff;
	struct expectation e;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	if (!plat.opt.force_pmu && (pmu.version < 2 || !(pmu.fixed_mask & (1U << idx))))
		return check_skip(c, "no fixed counter %u (version %u, mask 0x%x)", idx, pmu.version,
				  pmu.fixed_mask);
	if (idx >= sizeof(fixed_event) / sizeof(fixed_event[0]))
		return check_skip(c, "fixed counter %u has no architectural event pmuboot knows", idx);
	if (pmu_run_differential(&cfg, 1, &kernel_loop4_desc, PMU_N, NULL, PMU_REPS, &diff,
				 &tsc_diff, err, sizeof(err)))
		return check_fail(c, "measured=%s expected=fixed counter %u counted", err, idx);
	e = expect_for(fixed_event[idx], PMU_N, tsc_diff, true);
	if (diff < e.lo || diff > e.hi)
		return check_fail(c, "measured=%llu expected=%llu..%llu (%s, %s) N=%llu",
				  (unsigned long long)diff, (unsigned long long)e.lo,
				  (unsigned long long)e.hi, arch_events[fixed_event[idx]].name, e.why,
				  PMU_N);
	return check_pass(c, "measured=%llu expected=%llu..%llu (%s, %s) N=%llu",
			  (unsigned long long)diff, (unsigned long long)e.lo, (unsigned long long)e.hi,
			  arch_events[fixed_event[idx]].name, e.why, PMU_N);
}

/* --- Programming rules ------------------------------------------------------------- */

enum check_status check_pmu_reserved_bits(struct check_ctx *c)
{
	char err[PMU_ERR_LEN];
	/* Bit 62: reserved in every PERFEVTSEL layout (bits 32/33 are IN_TX/IN_TXCP on parts
	 * with TSX, and later versions define more of the upper half). */
	uint64_t bad = ARCH_PERFMON_EVENTSEL_ENABLE | (1ULL << 62);
	int v;

	if (no_pmu())
		return check_skip(c, "%s", no_pmu());
	/* The library refuses before any WRMSR ... */
	if (pmu_gp_program(&pmu, 0, bad, 0, err, sizeof(err)) != PMU_EARG)
		return check_fail(c, "measured=accepted expected=library refuses PERFEVTSEL 0x%llx",
				  (unsigned long long)bad);
	/* ... and the CPU faults when one is tried anyway. */
	v = wrmsr_safe(MSR_IA32_PERFEVTSEL0, bad);
	if (v != X86_TRAP_GP) {
		wrmsr_safe(MSR_IA32_PERFEVTSEL0, 0);
		return check_fail(c, "measured=%s expected=#GP(13) for PERFEVTSEL0=0x%llx",
				  v ? "other fault" : "no fault", (unsigned long long)bad);
	}
	return check_pass(c, "measured=refused by the library, #GP(13) from the CPU expected=both "
			  "value=0x%llx", (unsigned long long)bad);
}

enum check_status check_pmu_width(struct check_ctx *c)
{
	char err[PMU_ERR_LEN];
	uint64_t v, expect = pmu_legacy_write_result(0x80000000ULL, pmu.gp_width);
	uint64_t sel = 0;
	int r;

	if (no_pmu())
		return check_skip(c, "%s", no_pmu());
	if (pmu.gp_width < 32)
		return check_fail(c, "measured=GP counter width %u (CPUID.0AH:EAX[23:16]) expected=at "
				  "least 32 bits", pmu.gp_width);
	/* Legacy writes: bits 31:0, bit 31 copied upward to the counter width. */
	if ((r = wrmsr_safe(MSR_IA32_PERFEVTSEL0, sel)) || (r = wrmsr_safe(MSR_IA32_PMC0, 0x80000000ULL)) ||
	    (r = rdmsr_safe(MSR_IA32_PMC0, &v)))
		return check_fail(c, "measured=fault vector %d expected=legacy PMC0 write and read", r);
	if (v != expect)
		return check_fail(c, "measured=0x%llx expected=0x%llx (legacy write of 0x80000000 "
				  "sign-extends to %u bits)", (unsigned long long)v,
				  (unsigned long long)expect, pmu.gp_width);
	/* Full-width writes only where PERF_CAPABILITIES advertises them. */
	if (pmu.full_width_write) {
		uint64_t want = (1ULL << (pmu.gp_width - 1)) | 0x12345678ULL;

		if ((r = pmu_gp_write(&pmu, 0, want, err, sizeof(err))) || (r = pmu_gp_read(&pmu, 0, &v)))
			return check_fail(c, "measured=%s expected=full-width write", r > 0 ? "fault" : err);
		if (v != want)
			return check_fail(c, "measured=0x%llx expected=0x%llx (full-width write)",
					  (unsigned long long)v, (unsigned long long)want);
	} else if ((r = wrmsr_safe(MSR_IA32_PMC0_FULL, 1)) != X86_TRAP_GP) {
		return check_fail(c, "measured=%s expected=#GP: IA32_A_PMC0 without "
				  "PERF_CAPABILITIES.FW_WRITE", r ? "other fault" : "no fault");
	}
	wrmsr_safe(MSR_IA32_PMC0, 0);
	return check_pass(c, "measured=0x%llx expected=0x%llx full-width=%s width=%u",
			  (unsigned long long)expect, (unsigned long long)expect,
			  pmu.full_width_write ? "written" : "faults as it must", pmu.gp_width);
}

/* --- Overflow and PMI ----------------------------------------------------------------- */

static struct pmi_stats pmi_stats;

static void pmi_irq(struct trap_frame *f)
{
	(void)f;
	pmu_pmi_handle(&pmu, &pmi_stats, plat.opt.pmi_nmi);
}

/* Routes PMIs to pmi_irq as configured (pmi=interrupt|nmi), or undoes it. */
static void pmi_route(bool on)
{
	unsigned v = plat.opt.pmi_nmi ? X86_TRAP_NMI : VECTOR_PMI;

	if (on) {
		trap_set_handler(v, pmi_irq);
		pmu_pmi_lvt_setup(VECTOR_PMI, plat.opt.pmi_nmi);
	} else {
		pmu_pmi_lvt_mask();
		trap_set_handler(v, 0);
	}
}

/* Instances: every GP counter, then every fixed counter. */
unsigned pmu_counter_instances(void)
{
	return gp_counters() + (pmu.num_fixed ? pmu.num_fixed : 0);
}

void pmu_counter_instance_name(unsigned i, char *buf, size_t len)
{
	if (i < gp_counters())
		fmt_snprintf(buf, len, "gp%u", i);
	else
		fmt_snprintf(buf, len, "fixed%u", i - gp_counters());
}

/* Counts instructions from 2^width - `before` so the counter overflows during the run;
 * with `intr`, the overflow raises a PMI (taken once interrupts are on after the frame). */
static enum check_status overflow_run(struct check_ctx *c, bool intr)
{
	bool fixed = c->instance >= gp_counters();
	unsigned idx = fixed ? c->instance - gp_counters() : c->instance;
	unsigned width = fixed ? pmu.fixed_width : pmu.gp_width;
	unsigned bit = fixed ? GLOBAL_FIXED_SHIFT + idx : idx;
	uint64_t before = 1000, start = (width >= 64 ? 0 : (1ULL << width)) - before;
	struct pmu_evtsel e = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	struct ctr_cfg cfg = { .fixed = fixed, .idx = idx, .start = start,
			       .fixed_ctrl = FIXED_CTR_CTRL_OS | (intr ? FIXED_CTR_CTRL_PMI : 0) };
	struct pmu_result res;
	char err[PMU_ERR_LEN];
	uint64_t status = 0, after;
	enum check_status st;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	if (width < 32)
		return check_fail(c, "measured=%s counter width %u expected=at least 32 bits",
				  fixed ? "fixed" : "GP", width);
	if (fixed && !(pmu.fixed_mask & (1U << idx)))
		return check_skip(c, "no fixed counter %u", idx);
	if (!fixed && !pmu.full_width_write && pmu_legacy_write_result(start, width) != start)
		return check_skip(c, "start value 0x%llx needs full-width writes",
				  (unsigned long long)start);
	e.intr = intr;
	cfg.evtsel = pmu_evtsel_encode(&e);
	memset(&pmi_stats, 0, sizeof(pmi_stats));
	/* The LVT is open either way: without INT no PMI may arrive. */
	pmi_route(true);
	/* 1000 iterations retire 4000+ instructions; fixed counters 1-3 count cycles or
	 * slots, so they get the long run (at least 100000 of either): one overflow each. */
	if (pmu_run(&cfg, 1, &kernel_loop4_desc, fixed && idx > 0 ? PMU_N : 1000, NULL, &res, err,
		    sizeof(err))) {
		st = check_fail(c, "measured=%s expected=an overflowing run", err);
		goto out;
	}
	pmu_global_status(&pmu, &status);
	{
		uint64_t t0 = rdtsc();

		irq_enable();
		while (!pmi_stats.pmis && rdtsc() - t0 < tsc_from_us(10000))
			cpu_relax();
		irq_disable();
	}
	after = res.value[0];
	if (intr) {
		if (pmi_stats.pmis != 1 || !(pmi_stats.overflows[bit]))
			st = check_fail(c, "measured=%llu PMIs, overflow count %llu for bit %u expected=1 PMI "
					"for bit %u", (unsigned long long)pmi_stats.pmis,
					(unsigned long long)pmi_stats.overflows[bit], bit, bit);
		else if (!(pmi_stats.lvt_at_entry & APIC_LVT_MASKED))
			st = check_fail(c, "measured=LVTPC 0x%x at PMI expected=mask bit set by delivery",
					pmi_stats.lvt_at_entry);
		else if (apic_read(APIC_LVTPC) & APIC_LVT_MASKED)
			st = check_fail(c, "measured=LVTPC still masked after the handler expected=unmasked");
		else
			st = check_pass(c, "measured=1 PMI (%s), status bit %u, LVT masked by delivery "
					"and unmasked by the handler expected=same",
					plat.opt.pmi_nmi ? "NMI" : "interrupt", bit);
	} else if (pmi_stats.pmis) {
		st = check_fail(c, "measured=%llu PMIs expected=none without the INT/PMI bit",
				(unsigned long long)pmi_stats.pmis);
	} else if (after >= start) {
		st = check_fail(c, "measured=0x%llx after 0x%llx expected=wrapped past 2^%u",
				(unsigned long long)after, (unsigned long long)start, width);
	} else if (!(status & (1ULL << bit))) {
		st = check_fail(c, "measured=GLOBAL_STATUS 0x%llx expected=overflow bit %u set",
				(unsigned long long)status, bit);
	} else {
		uint64_t cleared = ~0ULL;

		pmu_global_ovf_clear(&pmu, 1ULL << bit);
		pmu_global_status(&pmu, &cleared);
		if (cleared & (1ULL << bit))
			st = check_fail(c, "measured=GLOBAL_STATUS 0x%llx after OVF_CTRL expected=bit %u clear",
					(unsigned long long)cleared, bit);
		else
			st = check_pass(c, "measured=wrapped to %llu from 2^%u-%llu, status bit %u set, "
					"cleared by OVF_CTRL expected=same", (unsigned long long)after,
					width, (unsigned long long)before, bit);
	}
out:
	pmi_route(false);
	return st;
}

enum check_status check_pmu_overflow(struct check_ctx *c)
{
	return overflow_run(c, false);
}

enum check_status check_pmu_pmi(struct check_ctx *c)
{
	if (!apic.present && !plat.opt.force_pmu)
		return check_skip(c, "no local APIC for the PMI");
	return overflow_run(c, true);
}

/* --- CMASK / INV / EDGE -------------------------------------------------------------- */

enum check_status check_pmu_cmask_inv_edge(struct check_ctx *c)
{
	struct pmu_evtsel ge1 = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	struct pmu_evtsel lt1, edge, cyc = pmu_arch_evtsel(ARCH_EVENT_CORE_CYCLES, false, true);
	struct ctr_cfg cfg[3];
	char err[PMU_ERR_LEN];
	uint64_t d[3], e[1], tol;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	if (pmu.num_gp < 3 && !plat.opt.force_pmu)
		return check_skip(c, "needs 3 GP counters, CPUID.0AH enumerates %u", pmu.num_gp);
	/* Cycles with >= 1 instruction retired, cycles with < 1, and all cycles: the first two
	 * partition the third (seed 002: INV inverts the CMASK comparison). */
	ge1.cmask = 1;
	lt1 = ge1;
	lt1.inv = true;
	edge = ge1;
	edge.edge = true;
	cfg[0] = (struct ctr_cfg){ .idx = 0, .evtsel = pmu_evtsel_encode(&ge1) };
	cfg[1] = (struct ctr_cfg){ .idx = 1, .evtsel = pmu_evtsel_encode(&lt1) };
	cfg[2] = (struct ctr_cfg){ .idx = 2, .evtsel = pmu_evtsel_encode(&cyc) };
	if (pmu_run_differential(cfg, 3, &kernel_loop4_desc, PMU_N, NULL, PMU_REPS, d, NULL, err,
				 sizeof(err)))
		return check_fail(c, "measured=%s expected=three counters counted", err);
	/* EDGE: transitions into retiring cycles; at least one, at most one per such cycle. */
	cfg[0].evtsel = pmu_evtsel_encode(&edge);
	if (pmu_run_differential(cfg, 1, &kernel_loop4_desc, PMU_N, NULL, PMU_REPS, e, NULL, err,
				 sizeof(err)))
		return check_fail(c, "measured=%s expected=edge counter counted", err);
	tol = d[2] / 1000 + 64;
	if (d[2] == 0 || (d[0] + d[1] > d[2] + tol) || (d[0] + d[1] + tol < d[2]))
		return check_fail(c, "measured=cmask1 %llu + inv %llu = %llu expected=cycles %llu +-%llu",
				  (unsigned long long)d[0], (unsigned long long)d[1],
				  (unsigned long long)(d[0] + d[1]), (unsigned long long)d[2],
				  (unsigned long long)tol);
	if (e[0] < 1 || e[0] > d[0] + tol)
		return check_fail(c, "measured=edge %llu expected=1..%llu (cycles with >= 1 retired)",
				  (unsigned long long)e[0], (unsigned long long)(d[0] + tol));
	return check_pass(c, "measured=cmask1 %llu + inv %llu vs cycles %llu, edge %llu expected=sum "
			  "within %llu, 1 <= edge <= cmask1", (unsigned long long)d[0],
			  (unsigned long long)d[1], (unsigned long long)d[2],
			  (unsigned long long)e[0], (unsigned long long)tol);
}

/* --- Freeze on PMI ------------------------------------------------------------------- */

enum check_status check_pmu_freeze_on_pmi(struct check_ctx *c)
{
	struct pmu_evtsel trig = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	struct pmu_evtsel watch = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	uint64_t before = 1000, start = (1ULL << (pmu.gp_width & 63)) - before;
	struct ctr_cfg cfg[2];
	struct pmu_result res;
	char err[PMU_ERR_LEN];
	uint64_t dbg = 0, status = 0, ctrl = 0, skid;
	enum check_status st;
	int r;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	if (pmu.num_gp < 2 && !plat.opt.force_pmu)
		return check_skip(c, "needs 2 GP counters");
	if (!pmu.full_width_write && pmu_legacy_write_result(start, pmu.gp_width) != start &&
	    !plat.opt.force_pmu)
		return check_skip(c, "start value needs full-width writes");
	trig.intr = true;
	cfg[0] = (struct ctr_cfg){ .idx = 0, .evtsel = pmu_evtsel_encode(&trig), .start = start };
	cfg[1] = (struct ctr_cfg){ .idx = 1, .evtsel = pmu_evtsel_encode(&watch) };
	if ((r = rdmsr_safe(MSR_IA32_DEBUGCTLMSR, &dbg)) ||
	    (r = wrmsr_safe(MSR_IA32_DEBUGCTLMSR, dbg | DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI)))
		return check_fail(c, "measured=DEBUGCTL fault vector %d expected=FREEZE_PERFMON_ON_PMI set", r);
	memset(&pmi_stats, 0, sizeof(pmi_stats));
	pmi_route(true);
	/* 100000 iterations retire 400000 instructions; the PMI request at 1000 freezes both
	 * counters, so the watcher holds 1000 plus the skid, not 400000. */
	if (pmu_run(cfg, 2, &kernel_loop4_desc, PMU_N, NULL, &res, err, sizeof(err))) {
		st = check_fail(c, "measured=%s expected=a frozen run", err);
		goto out;
	}
	pmu_global_status(&pmu, &status);
	pmu_global_ctrl_read(&pmu, &ctrl);
	skid = res.delta[1] > before ? res.delta[1] - before : 0;
	if (res.delta[1] >= 4 * PMU_N || res.delta[1] < before)
		st = check_fail(c, "measured=watcher %llu expected=%llu..%llu (frozen at the PMI)",
				(unsigned long long)res.delta[1], (unsigned long long)before,
				(unsigned long long)(4 * PMU_N - 1));
	else if (pmu.version >= 4 && !(status & GLOBAL_STATUS_COUNTERS_FROZEN))
		st = check_fail(c, "measured=GLOBAL_STATUS 0x%llx expected=CTR_FRZ (bit 59) set on v4",
				(unsigned long long)status);
	else
		st = check_pass(c, "measured=frozen after %llu instructions, skid %llu expected=frozen "
				"at the PMI (skid reported) status=0x%llx", (unsigned long long)res.delta[1],
				(unsigned long long)skid, (unsigned long long)status);
	/* Unfreeze: v4 clears CTR_FRZ through OVF_CTRL; earlier versions re-enable GLOBAL_CTRL. */
	pmu_global_ovf_clear(&pmu, pmu_ovf_clear_bits(&pmu));
out:
	wrmsr_safe(MSR_IA32_DEBUGCTLMSR, dbg);
	irq_enable();		/* take the pending PMI with the handler still installed */
	irq_disable();
	pmi_route(false);
	return st;
}

/* --- PMI as NMI, and a PMI storm ----------------------------------------------------- */

static void pmi_nmi(struct trap_frame *f)
{
	(void)f;
	pmu_pmi_handle(&pmu, &pmi_stats, true);
}

enum check_status check_pmu_pmi_nmi(struct check_ctx *c)
{
	struct pmu_evtsel e = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	uint64_t start = (1ULL << (pmu.gp_width & 63)) - 1000;
	struct ctr_cfg cfg;
	struct pmu_result res;
	char err[PMU_ERR_LEN];
	enum check_status st;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	if (!apic.present && !plat.opt.force_pmu)
		return check_skip(c, "no local APIC for the PMI");
	if (!pmu.full_width_write && pmu_legacy_write_result(start, pmu.gp_width) != start &&
	    !plat.opt.force_pmu)
		return check_skip(c, "start value needs full-width writes");
	e.intr = true;
	cfg = (struct ctr_cfg){ .idx = 0, .evtsel = pmu_evtsel_encode(&e), .start = start };
	memset(&pmi_stats, 0, sizeof(pmi_stats));
	trap_set_handler(X86_TRAP_NMI, pmi_nmi);
	pmu_pmi_lvt_setup(0, true);
	/* An NMI is not held back by IF: it arrives inside the frame, at the overflow. */
	if (pmu_run(&cfg, 1, &kernel_loop4_desc, 1000, NULL, &res, err, sizeof(err)))
		st = check_fail(c, "measured=%s expected=an overflowing run", err);
	else if (pmi_stats.pmis != 1 || !pmi_stats.overflows[0])
		st = check_fail(c, "measured=%llu NMIs, GP0 overflows %llu expected=1 NMI for GP0",
				(unsigned long long)pmi_stats.pmis,
				(unsigned long long)pmi_stats.overflows[0]);
	else
		st = check_pass(c, "measured=1 NMI for GP0 expected=1 NMI for GP0");
	pmu_pmi_lvt_mask();
	trap_set_handler(X86_TRAP_NMI, 0);
	return st;
}

/* The storm's handler: acknowledge, then rearm the counter STORM_PERIOD instructions short
 * of overflow again. The period outlasts the handler's own exit path (counted too: OS),
 * so the kernel still advances between PMIs. */
#define STORM_PERIOD	500
static struct {
	uint64_t start;
	bool active;
} storm;

static void storm_irq(struct trap_frame *f)
{
	char ignored[PMU_ERR_LEN];

	(void)f;
	pmu_pmi_handle(&pmu, &pmi_stats, false);
	if (storm.active)
		pmu_gp_write(&pmu, 0, storm.start, ignored, sizeof(ignored));
}

enum check_status check_pmu_pmi_storm(struct check_ctx *c)
{
	struct pmu_evtsel e = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	char err[PMU_ERR_LEN];
	uint64_t t0, elapsed, n = 100000;
	enum check_status st;
	int r;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	if (!apic.present && !plat.opt.force_pmu)
		return check_skip(c, "no local APIC for the PMI");
	storm.start = (1ULL << (pmu.gp_width & 63)) - STORM_PERIOD;
	if (!pmu.full_width_write && pmu_legacy_write_result(storm.start, pmu.gp_width) != storm.start &&
	    !plat.opt.force_pmu)
		return check_skip(c, "start value needs full-width writes");
	e.intr = true;
	memset(&pmi_stats, 0, sizeof(pmi_stats));
	trap_set_handler(VECTOR_PMI, storm_irq);
	pmu_pmi_lvt_setup(VECTOR_PMI, false);
	if ((r = pmu_gp_program(&pmu, 0, pmu_evtsel_encode(&e), storm.start, err, sizeof(err))) ||
	    (r = pmu_global_ctrl_write(&pmu, 1, err, sizeof(err)))) {
		st = check_fail(c, "measured=%s expected=counter armed", r > 0 ? "fault" : err);
		goto out;
	}
	/* With interrupts on, a PMI every STORM_PERIOD instructions: the run must still end,
	 * and every PMI must be accounted for. */
	storm.active = true;
	t0 = rdtsc();
	irq_enable();
	kernel_loop4(n, NULL);
	irq_disable();
	storm.active = false;
	elapsed = tsc_to_us(rdtsc() - t0);
	pmu_global_ctrl_write(&pmu, 0, err, sizeof(err));
	pmu_gp_program(&pmu, 0, 0, 0, err, sizeof(err));
	if (pmi_stats.pmis < 100)
		st = check_fail(c, "measured=%llu PMIs expected=a storm (>= 100) over %llu iterations",
				(unsigned long long)pmi_stats.pmis, (unsigned long long)n);
	else
		st = check_pass(c, "measured=%llu PMIs in %llu us, %llu bounded loops, %llu spurious "
				"expected=run survives the storm", (unsigned long long)pmi_stats.pmis,
				(unsigned long long)elapsed, (unsigned long long)pmi_stats.loop_limited,
				(unsigned long long)pmi_stats.spurious);
out:
	pmu_pmi_lvt_mask();
	trap_set_handler(VECTOR_PMI, 0);
	return st;
}

/* --- USR and OS ---------------------------------------------------------------------- */

/* Instructions counted by GP0 (USR only) and GP1 (OS only) across one loop4 of n
 * iterations at CPL 3 (user) or CPL 0. */
static int usr_os_once(bool user, uint64_t n, uint64_t out[2], char *err, size_t errlen)
{
	struct pmu_evtsel usr = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, true, false);
	struct pmu_evtsel os = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	uint64_t ret, flags;
	int r, v = FAULT_NONE;

	if ((r = pmu_gp_program(&pmu, 0, pmu_evtsel_encode(&usr), 0, err, errlen)) ||
	    (r = pmu_gp_program(&pmu, 1, pmu_evtsel_encode(&os), 0, err, errlen)))
		return r;
	flags = irq_save();
	pmu_global_ctrl_write(&pmu, 0x3, err, errlen);
	if (user)
		v = user_call((user_fn)(uintptr_t)kernel_loop4, n, 0, 0, 0, false, &ret);
	else
		kernel_loop4(n, NULL);
	pmu_global_ctrl_write(&pmu, 0, err, errlen);
	irq_restore(flags);
	if (v != FAULT_NONE) {
		fmt_snprintf(err, errlen, "the CPL-3 run faulted (vector %d)", v);
		return v;
	}
	if ((r = pmu_gp_read(&pmu, 0, &out[0])) || (r = pmu_gp_read(&pmu, 1, &out[1])))
		fmt_snprintf(err, errlen, "RDMSR of a PMC faulted (vector %d)", r);
	pmu_gp_program(&pmu, 0, 0, 0, err, errlen);
	pmu_gp_program(&pmu, 1, 0, 0, err, errlen);
	return r;
}

/* Smallest counts over the repetitions, at n and at 2n: their difference. */
static int usr_os_diff(bool user, uint64_t n, uint64_t diff[2], char *err, size_t errlen)
{
	uint64_t lo[2] = { UINT64_MAX, UINT64_MAX }, hi[2] = { UINT64_MAX, UINT64_MAX }, v[2];
	int r;

	for (unsigned rep = 0; rep < PMU_REPS; rep++) {
		if ((r = usr_os_once(user, n, v, err, errlen)))
			return r;
		for (int i = 0; i < 2; i++)
			lo[i] = v[i] < lo[i] ? v[i] : lo[i];
		if ((r = usr_os_once(user, 2 * n, v, err, errlen)))
			return r;
		for (int i = 0; i < 2; i++)
			hi[i] = v[i] < hi[i] ? v[i] : hi[i];
	}
	diff[0] = hi[0] - lo[0];
	diff[1] = hi[1] - lo[1];
	return 0;
}

enum check_status check_pmu_usr_os(struct check_ctx *c)
{
	char err[PMU_ERR_LEN];
	uint64_t u[2], k[2], want = 4 * PMU_N;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	if (user_unavailable())
		return check_skip(c, "%s", user_unavailable());
	if (pmu.num_gp < 2 && !plat.opt.force_pmu)
		return check_skip(c, "needs 2 GP counters");
	if (usr_os_diff(true, PMU_N, u, err, sizeof(err)) ||
	    usr_os_diff(false, PMU_N, k, err, sizeof(err)))
		return check_fail(c, "measured=%s expected=USR and OS counters counted", err);
	/* At CPL 3 the USR counter sees the loop and the OS counter only the constant entry
	 * and exit path (cancelled by the differential); at CPL 0 the reverse. */
	if (u[0] != want || u[1] != 0 || k[0] != 0 || k[1] != want)
		return check_fail(c, "measured=CPL3 usr %llu os %llu, CPL0 usr %llu os %llu "
				  "expected=CPL3 usr %llu os 0, CPL0 usr 0 os %llu",
				  (unsigned long long)u[0], (unsigned long long)u[1],
				  (unsigned long long)k[0], (unsigned long long)k[1],
				  (unsigned long long)want, (unsigned long long)want);
	return check_pass(c, "measured=CPL3 usr %llu os 0, CPL0 usr 0 os %llu expected=same N=%llu",
			  (unsigned long long)want, (unsigned long long)want, PMU_N);
}

/* --- RDPMC forms ---------------------------------------------------------------------- */

enum check_status check_pmu_rdpmc_forms(struct check_ctx *c)
{
	char err[PMU_ERR_LEN];
	uint64_t full = 0, fast = 0, fixed = 0, msr = 0;
	uint64_t value = 0x0000123487654321ULL & pmu_gp_width_mask(&pmu);
	int r;

	if (no_pmu())
		return check_skip(c, "%s", no_pmu());
	if (!pmu.full_width_write && pmu_legacy_write_result(value, pmu.gp_width) != value)
		value = 0x07654321ULL;
	if ((r = pmu_gp_program(&pmu, 0, 0, value, err, sizeof(err))))
		return check_fail(c, "measured=%s expected=PMC0 written", r > 0 ? "fault" : err);
	if ((r = pmu_gp_rdpmc(&pmu, 0, &full)) || (r = pmu_gp_read(&pmu, 0, &msr)))
		return check_fail(c, "measured=fault vector %d expected=RDPMC and RDMSR of PMC0", r);
	if (full != value || msr != value)
		return check_fail(c, "measured=RDPMC 0x%llx RDMSR 0x%llx expected=0x%llx",
				  (unsigned long long)full, (unsigned long long)msr,
				  (unsigned long long)value);
	/* ECX[31], fast read: the low 32 bits where a CPU supports it, #GP where not. */
	r = rdpmc_safe(RDPMC_FAST | 0, &fast);
	if (r != 0 && r != X86_TRAP_GP)
		return check_fail(c, "measured=fast RDPMC vector %d expected=no fault or #GP(13)", r);
	if (r == 0 && fast != (value & 0xffffffffULL))
		return check_fail(c, "measured=fast RDPMC 0x%llx expected=0x%llx (low 32 bits)",
				  (unsigned long long)fast, (unsigned long long)(value & 0xffffffffULL));
	/* ECX[30] selects the fixed counters. */
	if (pmu.version >= 2 && (pmu.fixed_mask & 1) && (r = pmu_fixed_rdpmc(&pmu, 0, &fixed)))
		return check_fail(c, "measured=fixed RDPMC vector %d expected=no fault", r);
	pmu_gp_program(&pmu, 0, 0, 0, err, sizeof(err));
	return check_pass(c, "measured=RDPMC = RDMSR = 0x%llx, fast read %s, fixed read ok "
			  "expected=same", (unsigned long long)value,
			  r == X86_TRAP_GP ? "#GP (unsupported)" : "low 32 bits");
}

/* --- Global control ----------------------------------------------------------------- */

enum check_status check_pmu_global_gates(struct check_ctx *c)
{
	struct pmu_evtsel e = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	char err[PMU_ERR_LEN];
	uint64_t off = ~0ULL, on = 0;
	int r;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	/* EN set in the selector, but GLOBAL_CTRL's bit clear: nothing may count. */
	if ((r = pmu_gp_program(&pmu, 0, pmu_evtsel_encode(&e), 0, err, sizeof(err))))
		return check_fail(c, "measured=%s expected=GP0 programmed", r > 0 ? "fault" : err);
	measure_kernel_pmu(&kernel_loop4_desc, 1000, NULL, 0);
	pmu_gp_read(&pmu, 0, &off);
	measure_kernel_pmu(&kernel_loop4_desc, 1000, NULL, 1);
	pmu_gp_read(&pmu, 0, &on);
	pmu_gp_program(&pmu, 0, 0, 0, err, sizeof(err));
	if (off != 0 || on < 4000)
		return check_fail(c, "measured=%llu with GLOBAL_CTRL clear, %llu with it set "
				  "expected=0 and >= 4000", (unsigned long long)off, (unsigned long long)on);
	return check_pass(c, "measured=0 with GLOBAL_CTRL clear, %llu with it set expected=0 and "
			  ">= 4000", (unsigned long long)on);
}

enum check_status check_pmu_status_set_inuse(struct check_ctx *c)
{
	char err[PMU_ERR_LEN];
	uint64_t st = 0, cleared = ~0ULL, inuse = 0, bit = 1ULL << 0;
	struct pmu_evtsel e = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	int r;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	if (pmu.version < 4 && !plat.opt.force_pmu)
		return check_skip(c, "GLOBAL_STATUS_SET and GLOBAL_INUSE need PMU version 4 (this is %u)",
				  pmu.version);
	if ((r = pmu_global_status_set(&pmu, bit)) || (r = pmu_global_status(&pmu, &st)))
		return check_fail(c, "measured=%s expected=STATUS_SET written and STATUS read",
				  r > 0 ? "fault" : "refused");
	pmu_global_ovf_clear(&pmu, bit);
	pmu_global_status(&pmu, &cleared);
	pmu_gp_program(&pmu, 0, pmu_evtsel_encode(&e), 0, err, sizeof(err));
	r = pmu_global_inuse(&pmu, &inuse);
	pmu_gp_program(&pmu, 0, 0, 0, err, sizeof(err));
	if (!(st & bit) || (cleared & bit))
		return check_fail(c, "measured=STATUS 0x%llx after SET, 0x%llx after OVF_CTRL "
				  "expected=bit 0 set, then clear", (unsigned long long)st,
				  (unsigned long long)cleared);
	if (r || !(inuse & bit))
		return check_fail(c, "measured=INUSE 0x%llx (vector %d) expected=bit 0 set while GP0 "
				  "is programmed", (unsigned long long)inuse, r);
	return check_pass(c, "measured=STATUS_SET sets, OVF_CTRL clears, INUSE 0x%llx "
			  "expected=same with bit 0", (unsigned long long)inuse);
}
