/* SPDX-License-Identifier: MIT */
/*
 * Core PMU checks: enumeration, programming rules, architectural events on every GP and
 * fixed counter against the calibrated loop, widths, overflow and PMI. They SKIP where
 * CPUID reports no PMU and, with force-pmu, run anyway and must FAIL there.
 */
#include "arch/x86/apic.h"
#include "tests/harness/check.h"
#include "tests/harness/env.h"
#include "tests/checks/icount.h"
#include "arch/x86/io.h"
#include "arch/x86/msr.h"
#include "arch/x86/smp.h"
#include "arch/x86/trap.h"
#include "arch/x86/tsc.h"
#include "arch/x86/user.h"
#include "arch/x86/watchdog.h"
#include "lib/fmt.h"
#include "lib/stats.h"
#include "lib/string.h"
#include "pmu/counter.h"
#include "pmu/event.h"
#include "pmu/frame.h"
#include "pmu/pmi.h"
#include "tests/expect/arch.h"
#include "tests/measure/region.h"
#include "tests/measure/pmi.h"
#include "tests/measure/pmu_run.h"

#define PMU_N		100000ULL	/* calibrated-loop iterations for event checks */
#define PMU_REPS	5

static const char *no_pmu(void)
{
	return pmu_unavailable_reason(env.force_pmu);
}

/* Counter-programming checks need GLOBAL_CTRL (version 2+) for the measurement frame. */
static const char *no_global_ctrl(void)
{
	if (no_pmu())
		return no_pmu();
	if (pmu.version < 2 && !env.force_pmu)
		return "PMU version 1: no IA32_PERF_GLOBAL_CTRL for the measurement frame";
	return NULL;
}

static enum check_status check_pmu_arch_version(struct check_ctx *c)
{
	if (no_pmu())
		return check_skip(c, "%s", no_pmu());
	if (pmu.version < 1 || pmu.num_gp < 1)
		return check_result(c, CHECK_FAIL, "version %u, %u GP counters (CPUID.0AH:EAX=0x%x)",
				    "version >= 1 with >= 1 GP counter", pmu.version, pmu.num_gp,
				    pmu.eax);
	return check_result(c, CHECK_PASS, "version %u, %u GP x %u bits, %u fixed x %u bits, %s",
			    "version >= 1 with >= 1 GP counter", pmu.version, pmu.num_gp,
			    pmu.gp_width, pmu.num_fixed, pmu.fixed_width, pmu_uarch_name(pmu.uarch));
}
CHECK_DEFINE(140, "pmu.arch_version", check_pmu_arch_version,
	     "CPUID.0AH enumerates an architectural PMU with GP counters",
	     .flags = CHECK_PER_CPU);

static enum check_status check_pmu_rdpmc_gp0(struct check_ctx *c)
{
	uint64_t v, m;
	int fault;

	if (no_pmu())
		return check_skip(c, "%s", no_pmu());
	fault = rdpmc_safe(0, &v);
	if (fault)
		return check_result(c, CHECK_FAIL, "fault vector %d", "no fault ecx=0", fault);
	fault = rdmsr_safe(MSR_IA32_PMC0, &m);
	if (fault)
		return check_result(c, CHECK_FAIL, "RDMSR IA32_PMC0 fault vector %d", "no fault", fault);
	/* Nothing is counting: both reads must agree. */
	if ((v & pmu_gp_width_mask(&pmu)) != (m & pmu_gp_width_mask(&pmu)))
		return check_result(c, CHECK_FAIL, "RDPMC 0x%llx RDMSR 0x%llx", "equal",
				    (unsigned long long)v, (unsigned long long)m);
	return check_result(c, CHECK_PASS, "RDPMC = RDMSR = 0x%llx", "equal, no fault",
			    (unsigned long long)v);
}
CHECK_DEFINE(150, "pmu.rdpmc_gp0", check_pmu_rdpmc_gp0,
	     "RDPMC and RDMSR of GP counter 0 agree without faulting",
	     .flags = CHECK_PER_CPU);

/* --- The PMU measurement frame ------------------------------------------------------- */

/*
 * The frame adds a constant: count(2N) - count(N) = 4N exactly, and 100 repetitions at N
 * read the same. Counted by the PMU's instruction counter where one counts (real parts and
 * the emulated PMU), else by the TSC under -icount (counting stays off: the frame itself).
 */
static enum check_status check_pmu_frame(struct check_ctx *c)
{
	static uint64_t v[100];
	const struct kernel_desc *k = &kernel_loop4_desc;
	uint64_t ctrl, a, b, br;
	struct u64_stats st;
	char err[PMU_ERR_LEN];
	bool by_pmu = !pmu_count_unavailable();

	if (!by_pmu && icount_unavailable())
		return check_skip(c, "%s; and no PMU counts instructions (%s)", icount_unavailable(),
				  pmu_count_unavailable());
	if (!by_pmu && rdmsr_safe(MSR_CORE_PERF_GLOBAL_CTRL, &ctrl))
		return check_skip(c, "IA32_PERF_GLOBAL_CTRL faults: the PMU frame cannot run here");
	for (unsigned i = 0; i < 102; i++) {
		uint64_t n = i == 0 ? 2000 : 1000, x;

		if (by_pmu) {
			if (pmu_count_insns_branches(k, n, NULL, &x, &br, err, sizeof(err)))
				return check_error(c, err, "instructions counted");
		} else {
			x = measure_kernel_pmu(k, n, NULL, 0).tsc;
		}
		if (i == 0)
			b = x;
		else if (i == 1)
			a = x;
		else
			v[i - 2] = x;
	}
	if (b - a != 4000)
		return check_result(c, CHECK_FAIL, "count(2N)-count(N)=%lld", "4000 N=1000 (%s)",
				    (long long)(b - a), by_pmu ? "PMU instructions" : "TSC under -icount");
	u64_stats(v, 100, &st);
	if (st.min != st.max)
		return check_result(c, CHECK_FAIL, "spread %llu over 100 reps", "0 (%s)",
				    (unsigned long long)(st.max - st.min),
				    by_pmu ? "PMU instructions" : "TSC under -icount");
	return check_result(c, CHECK_PASS, "4000 and spread 0 over 100 reps", "4000 and 0 "
			    "(%s; window adds %d instructions; oracle region = kernel + %d)",
			    by_pmu ? "PMU instructions" : "TSC under -icount", PMU_FRAME_INSNS,
			    PMU_FRAME_REGION_INSNS);
}
CHECK_DEFINE(170, "pmu.frame", check_pmu_frame,
	     "the PMU frame adds a constant: count(2N)-count(N)=4N, spread 0 over 100 reps (PMU instructions, or -icount)",
	     .flags = CHECK_PER_CPU);

/* --- Architectural events on every GP counter -------------------------------------- */

/* Instance i: event i / GP_SLOTS on GP counter i % GP_SLOTS. */
#define GP_SLOTS	PMU_MAX_GP

static unsigned gp_counters(void)
{
	return pmu.num_gp ? pmu.num_gp : 1;	/* one instance to SKIP or FAIL without a PMU */
}

static unsigned pmu_arch_instances(void)
{
	return NR_ARCH_EVENTS * gp_counters();
}

static void pmu_arch_instance_name(unsigned i, char *buf, size_t len)
{
	fmt_snprintf(buf, len, "%s.gp%u", arch_events[i / gp_counters()].name, i % gp_counters());
}

/* The kernel and argument that drive an event the loop leaves quiet (tests/expect/arch.h). */
#define CHASE_COLD_STEPS	20000ULL	/* steps of the cold chase: distinct new lines */
#define CHASE_COLD_NODES	(256ULL << 10)	/* lines it walks among: 16 MiB, built fast */
#define LFSR_N			20000ULL

struct driver_run {
	const struct kernel_desc *k;
	uint64_t n;
	void *arg;
	void (*before)(uint64_t n, void *arg);
	const char *name;
};

/* Before each run of the cold chase: flush the lines it will visit. */
static void chase_cold(uint64_t n, void *first)
{
	chase_flush(first, n);
}

static int driver_for(enum arch_event ev, struct driver_run *dr, char *err, size_t errlen)
{
	static struct branch_lfsr lfsr;
	uint64_t nodes = env.buf_size / 64;

	switch (expect_arch_driver(ev)) {
	case DRIVE_CHASE_COLD:
		/* One node per line, random order: the 2n steps of the longer run touch 2n
		 * distinct lines, all flushed (CLFLUSH, which works in a guest too) before each
		 * run. */
		if (nodes < 4 * CHASE_COLD_STEPS) {
			fmt_snprintf(err, errlen, "the %llu-byte test buffer (option size=) holds fewer "
				     "than %llu lines: this check needs size=%lluK or more",
				     (unsigned long long)env.buf_size, 4 * CHASE_COLD_STEPS,
				     (unsigned long long)((4 * CHASE_COLD_STEPS * 64 + 1023) / 1024));
			return -2;
		}
		if (nodes > CHASE_COLD_NODES)
			nodes = CHASE_COLD_NODES;
		*dr = (struct driver_run){ &kernel_chase_desc, CHASE_COLD_STEPS,
			chase_build(env.buf, nodes, 64, 0x9e3779b97f4a7c15ULL), chase_cold,
			"cold chase" };
		return 0;
	case DRIVE_LFSR:
		lfsr = (struct branch_lfsr){ 0xace1ace1ace1ace1ULL, LFSR64_TAPS };
		*dr = (struct driver_run){ &kernel_branch_lfsr_desc, LFSR_N, &lfsr, NULL, "lfsr" };
		return 0;
	default:
		return 1;	/* the loop drives it */
	}
}

static enum check_status check_pmu_arch_event(struct check_ctx *c)
{
	enum arch_event ev = (enum arch_event)(c->instance / gp_counters());
	unsigned idx = c->instance % gp_counters();
	struct ctr_cfg cfg = { .fixed = false, .idx = idx, .evtsel = pmu_os_evtsel(ev) };
	struct pmu_run_opts o = { .reps = env.reps };
	char err[PMU_ERR_LEN], drove[96] = "";
	struct pmu_diff d, dd;
	struct expect_range e, ed;
	struct driver_run dr;
	int64_t got, alt;
	bool paired;
	int r;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	if (!env.force_pmu && !(pmu.events & (1U << ev)))
		return check_skip(c, "CPUID.0AH:EBX[%d]=1 or beyond EBX length %u: %s not available",
				  ev, pmu.ebx_len, arch_events[ev].name);
	if (pmu_run_differential(&cfg, 1, &kernel_loop4_desc, PMU_N, NULL, &o, &d, err, sizeof(err)))
		return check_error(c, err, "event %02XH/%02XH counted",
				   arch_events[ev].event, arch_events[ev].umask);
	/* Reference cycles: the run at 2N where they came closest to the TSC across the same
	 * run (pmu_diff.clock_*), against that TSC: jitter outside the window only lowers it. */
	paired = ev == ARCH_EVENT_REF_CYCLES;
	got = paired ? (int64_t)d.clock_count[0] : d.diff[0];
	alt = paired ? d.diff[0] : d.median[0];
	e = expect_arch_loop(ev, paired ? 2 * PMU_N : PMU_N, paired ? (int64_t)d.clock_tsc[0] : d.tsc,
			     false);
	if (!expect_in(&e, got))
		return check_range(c, got, &e, "N=%llu event=%02XH/%02XH %s=%lld%s", PMU_N,
				   arch_events[ev].event, arch_events[ev].umask,
				   paired ? "min" : "median", (long long)alt, pmu_diff_note(&d));
	/* An event the loop leaves quiet must also count where a kernel drives it: a dead
	 * counter passes the quiet bound. */
	r = driver_for(ev, &dr, err, sizeof(err));
	if (r == -2)	/* the user chose a buffer too small for it: say which size it needs */
		return check_skip(c, "%s", err);
	if (r < 0)
		return check_error(c, err, "a buffer for the driving kernel "
				   "(size= option)");
	if (r == 0) {
		struct pmu_run_opts od = { .reps = env.reps, .before = dr.before };

		if (pmu_run_differential(&cfg, 1, dr.k, dr.n, dr.arg, &od, &dd, err, sizeof(err)))
			return check_error(c, err, "%s counted on the %s",
					   arch_events[ev].name, dr.name);
		ed = expect_arch_driven(ev, dr.n);
		if (!expect_in(&ed, dd.diff[0]))
			return check_result(c, CHECK_FAIL, "loop %lld, %s %lld", "loop %lld..%lld, "
					    "%s %lld..%lld (%s) N=%llu n=%llu median=%lld%s",
					    (long long)d.diff[0], dr.name, (long long)dd.diff[0],
					    (long long)e.lo, (long long)e.hi, dr.name, (long long)ed.lo,
					    (long long)ed.hi, ed.why, PMU_N, (unsigned long long)dr.n,
					    (long long)dd.median[0], pmu_diff_note(&dd));
		fmt_snprintf(drove, sizeof(drove), ", %s %lld in %lld..%lld n=%llu", dr.name,
			     (long long)dd.diff[0], (long long)ed.lo, (long long)ed.hi,
			     (unsigned long long)dr.n);
	}
	return check_result(c, CHECK_PASS, "%lld%s", "%lld..%lld (%s) N=%llu %s=%lld%s",
			    (long long)got, drove, (long long)e.lo, (long long)e.hi, e.why, PMU_N,
			    paired ? "min" : "median", (long long)alt, pmu_diff_note(&d));
}
CHECK_DEFINE(250, "pmu.arch", check_pmu_arch_event,
	     "each architectural event on each GP counter against the calibrated loop",
	     .flags = CHECK_PER_CPU, .instances = pmu_arch_instances, .instance_name = pmu_arch_instance_name);

/* --- Fixed counters ------------------------------------------------------------------ */

static unsigned fixed_counters(void)
{
	return pmu.num_fixed ? pmu.num_fixed : 1;
}

static unsigned pmu_fixed_instances(void)
{
	return fixed_counters();
}

static void pmu_fixed_instance_name(unsigned i, char *buf, size_t len)
{
	fmt_snprintf(buf, len, "fixed%u", i);
}

/* Why fixed counter idx cannot be checked, or NULL: the fixed, overflow and PMI checks
 * share it, so a counter without a known event is sent through none of them. */
static const char *fixed_unusable(unsigned idx)
{
	static char why[96];

	if (env.force_pmu)
		return NULL;
	if (pmu.version < 2 || !(pmu.fixed_mask & (1U << idx))) {
		fmt_snprintf(why, sizeof(why), "no fixed counter %u (version %u, mask 0x%x)", idx,
			     pmu.version, pmu.fixed_mask);
		return why;
	}
	if (pmu_fixed_event(idx) < 0) {
		fmt_snprintf(why, sizeof(why), "fixed counter %u has no architectural event pmuboot "
			     "knows (4-6: Atom topdown slots)", idx);
		return why;
	}
	return NULL;
}

/* Whether the fixed counter's event has a GP twin counting the same thing: instructions,
 * core cycles, slots. Reference cycles on a GP counter tick at another clock (expect.c). */
static bool gp_twin(enum arch_event ev)
{
	return ev != ARCH_EVENT_REF_CYCLES && pmu.num_gp >= 1 && (pmu.events & (1U << ev));
}

static enum check_status check_pmu_fixed(struct check_ctx *c)
{
	unsigned idx = c->instance;
	int ev = pmu_fixed_event(idx);
	struct ctr_cfg cfg[2] = {
		{ .fixed = true, .idx = idx, .fixed_ctrl = FIXED_CTR_CTRL_OS },
		{ .idx = 0 },
	};
	struct pmu_run_opts o = { .reps = PMU_REPS };
	char err[PMU_ERR_LEN], twin[160] = "";
	struct pmu_diff d;
	struct expect_range e;
	unsigned n = 1;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	if (fixed_unusable(idx))
		return check_skip(c, "%s", fixed_unusable(idx));
	if (ev < 0)
		ev = ARCH_EVENT_INSTRUCTIONS;	/* force-pmu on a counter without one: must fail */
	/* The same event on GP0 in the same window: a fixed counter that counts another event
	 * (pmu-errata.md W145, PDist) can still fall in a range; it cannot match its twin. */
	if (gp_twin((enum arch_event)ev)) {
		cfg[1].evtsel = pmu_os_evtsel((enum arch_event)ev);
		n = 2;
	}
	if (pmu_run_differential(cfg, n, &kernel_loop4_desc, PMU_N, NULL, &o, &d, err, sizeof(err)))
		return check_error(c, err, "fixed counter %u counted", idx);
	/* Reference cycles against the TSC across the same run: the run at 2N where they came
	 * closest to it (pmu_diff.clock_*); jitter outside the window only lowers the ratio. */
	if (ev == ARCH_EVENT_REF_CYCLES) {
		int64_t got = (int64_t)d.clock_count[0];

		e = expect_arch_loop(ARCH_EVENT_REF_CYCLES, 2 * PMU_N, (int64_t)d.clock_tsc[0], true);
		return check_range(c, got, &e, "across the same run n=%llu difference=%lld%s",
				   2 * PMU_N, (long long)d.diff[0], pmu_diff_note(&d));
	}
	e = expect_arch_loop((enum arch_event)ev, PMU_N, d.tsc, true);
	if (!expect_in(&e, d.diff[0]))
		return check_range(c, d.diff[0], &e, "%s N=%llu median=%lld%s", arch_events[ev].name,
				   PMU_N, (long long)d.median[0], pmu_diff_note(&d));
	if (n == 2) {
		/* Instructions exactly; cycles and slots within 1% + 64 (the two counters start
		 * and stop with the same WRMSR, nothing else between them). */
		int64_t tol = ev == ARCH_EVENT_INSTRUCTIONS ? 0 : d.diff[1] / 100 + 64;
		int64_t gap = d.diff[0] - d.diff[1];
		struct pmu_diff dd;

		if (gap < -tol || gap > tol)
			return check_result(c, CHECK_FAIL, "fixed %lld, GP0 %lld", "equal within %lld "
					    "(%s on both, same window) N=%llu%s", (long long)d.diff[0],
					    (long long)d.diff[1], (long long)tol, arch_events[ev].name, PMU_N,
					    pmu_diff_note(&d));
		fmt_snprintf(twin, sizeof(twin), ", GP0 %lld within %lld", (long long)d.diff[1],
			     (long long)tol);
		/* A clock counted on the loop can equal instructions (a wide core, or a 1-IPC
		 * cycle model, retires loop4 one instruction a cycle), so a fixed counter that
		 * counts instructions instead of cycles would pass (pmu-errata.md kind 8). The
		 * divide loop stalls: there the twins must still agree. */
		if (ev != ARCH_EVENT_INSTRUCTIONS) {
			if (pmu_run_differential(cfg, n, &kernel_div_loop_desc, PMU_N / 10, NULL, &o,
						 &dd, err, sizeof(err)))
				return check_error(c, err, "fixed counter %u counted "
						   "(div_loop)", idx);
			tol = dd.diff[1] / 100 + 64;
			gap = dd.diff[0] - dd.diff[1];
			if (gap < -tol || gap > tol)
				return check_result(c, CHECK_FAIL, "div_loop: fixed %lld, GP0 %lld", "equal within %lld (%s on both, same window) N=%llu%s",
						    (long long)dd.diff[0], (long long)dd.diff[1],
						    (long long)tol, arch_events[ev].name, PMU_N / 10,
						    pmu_diff_note(&dd));
			fmt_snprintf(twin, sizeof(twin), ", GP0 %lld within %lld; div_loop fixed %lld "
				     "GP0 %lld", (long long)d.diff[1], (long long)d.diff[1] / 100 + 64,
				     (long long)dd.diff[0], (long long)dd.diff[1]);
		}
	}
	return check_result(c, CHECK_PASS, "%lld%s", "%lld..%lld (%s, %s) N=%llu median=%lld%s",
			    (long long)d.diff[0], twin, (long long)e.lo, (long long)e.hi,
			    arch_events[ev].name, e.why, PMU_N, (long long)d.median[0],
			    pmu_diff_note(&d));
}
CHECK_DEFINE(260, "pmu.fixed", check_pmu_fixed,
	     "each fixed counter against the calibrated loop, and against the same event on GP0",
	     .flags = CHECK_PER_CPU, .instances = pmu_fixed_instances, .instance_name = pmu_fixed_instance_name);

/* --- Enumeration and reset state ---------------------------------------------------- */

/* Under a hypervisor a mismatch is its virtual PMU's (or its ignore_msrs setting's). */
static const char *vpmu_note(void)
{
	return pmu.hypervisor && !pmu.tcg ? " (under a hypervisor: its virtual PMU, or an "
	       "ignore_msrs setting)" : "";
}

/*
 * CPUID.0AH against the MSRs (pmu-errata.md kind 14: a vPMU that enumerates 4 fixed
 * counters and has 3, a width it does not keep): every enumerated counter and selector
 * reads; the next GP counter and the next fixed counter (where that is still an
 * architectural counter address) #GP on RDMSR and RDPMC; GLOBAL_CTRL refuses an enable bit
 * for a counter that does not exist; counters keep exactly their enumerated width.
 */
static enum check_status check_pmu_enumeration(struct check_ctx *c)
{
	char err[PMU_ERR_LEN];
	uint64_t v, ones_gp = pmu_gp_width_mask(&pmu), ones_fx = pmu_fixed_width_mask(&pmu);
	unsigned checked = 0;
	bool beyond;
	int r;

	if (no_pmu())
		return check_skip(c, "%s", no_pmu());
	/* Hybrid Alder/Raptor Lake enumerate in CPUID.0AH only what both core types have: a
	 * P-core has more (Linux adds 2 GP and 1 fixed counter there), so "the next one
	 * faults" does not hold. */
	beyond = !pmu.hybrid;
	for (unsigned i = 0; i < pmu.num_gp; i++, checked += 2)
		if ((r = rdmsr_safe(MSR_IA32_PMC0 + i, &v)) || (r = rdmsr_safe(MSR_IA32_PERFEVTSEL0 + i, &v)))
			return check_result(c, CHECK_FAIL, "RDMSR of GP counter %u or its selector: vector %d",
					    "it exists (CPUID.0AH:EAX[15:8]=%u)", i, r, pmu.num_gp);
	if (beyond && pmu.num_gp_cpuid < PMU_LEGACY_MAX_GP) {
		checked += 2;
		if (rdmsr_safe(MSR_IA32_PMC0 + pmu.num_gp, &v) != X86_TRAP_GP ||
		    rdpmc_safe(pmu.num_gp, &v) != X86_TRAP_GP)
			return check_result(c, CHECK_FAIL, "GP counter %u answers RDMSR or RDPMC", "#GP: "
					    "CPUID.0AH enumerates %u%s", pmu.num_gp, pmu.num_gp, vpmu_note());
	}
	if (pmu.version >= 2) {
		unsigned next = pmu.num_fixed;

		for (unsigned i = 0; i < PMU_MAX_FIXED; i++) {
			if (!(pmu.fixed_mask & (1U << i)))
				continue;
			checked++;
			if ((r = rdmsr_safe(MSR_CORE_PERF_FIXED_CTR0 + i, &v)))
				return check_result(c, CHECK_FAIL, "RDMSR of fixed counter %u: vector %d", "it "
						    "exists (mask 0x%x)", i, r, pmu.fixed_mask);
		}
		/* Fixed counters 0-3 are architectural (SDM Table 18-2); beyond 3 an address
		 * may be a model's own register, so only up to there. */
		if (beyond && next <= 3 && !(pmu.fixed_mask & (1U << next))) {
			checked += 2;
			if (rdmsr_safe(MSR_CORE_PERF_FIXED_CTR0 + next, &v) != X86_TRAP_GP ||
			    rdpmc_safe(RDPMC_FIXED | next, &v) != X86_TRAP_GP)
				return check_result(c, CHECK_FAIL, "fixed counter %u answers RDMSR or RDPMC",
						    "#GP: CPUID.0AH enumerates mask 0x%x%s", next,
						    pmu.fixed_mask, vpmu_note());
		}
		checked++;
		r = wrmsr_safe(MSR_CORE_PERF_GLOBAL_CTRL, pmu_gp_mask(&pmu) << 1 & ~pmu_gp_mask(&pmu));
		wrmsr_safe(MSR_CORE_PERF_GLOBAL_CTRL, 0);
		if (beyond && pmu.num_gp_cpuid < PMU_LEGACY_MAX_GP && r != X86_TRAP_GP)
			return check_result(c, CHECK_FAIL, "GLOBAL_CTRL took enable bit %u (vector %d)",
					    "#GP: no GP counter %u%s", pmu.num_gp, r, pmu.num_gp,
					    vpmu_note());
	}
	/* Width: the widest value each counter can hold reads back whole. */
	if (pmu.full_width_write || pmu_legacy_write_result(ones_gp, pmu.gp_width) == ones_gp) {
		checked++;
		if ((r = pmu_gp_write(&pmu, 0, ones_gp, err, sizeof(err))) || (r = pmu_gp_read(&pmu, 0, &v)))
			return check_error(c, r > 0 ? "fault" : err, "GP0 written and read");
		pmu_gp_write(&pmu, 0, 0, err, sizeof(err));
		if (v != ones_gp)
			return check_result(c, CHECK_FAIL, "GP0 holds 0x%llx", "0x%llx (%u bits, "
					    "CPUID.0AH:EAX[23:16])", (unsigned long long)v,
					    (unsigned long long)ones_gp, pmu.gp_width);
	}
	if (pmu.version >= 2 && (pmu.fixed_mask & 1)) {
		checked++;
		if ((r = pmu_fixed_program(&pmu, 0, 0, ones_fx, err, sizeof(err))) ||
		    (r = pmu_fixed_read(&pmu, 0, &v)))
			return check_error(c, r > 0 ? "fault" : err, "fixed counter 0 written and read");
		pmu_fixed_program(&pmu, 0, 0, 0, err, sizeof(err));
		if (v != ones_fx)
			return check_result(c, CHECK_FAIL, "fixed 0 holds 0x%llx", "0x%llx (%u bits, "
					    "CPUID.0AH:EDX[12:5])", (unsigned long long)v,
					    (unsigned long long)ones_fx, pmu.fixed_width);
	}
	return check_result(c, CHECK_PASS, "%u accesses as CPUID.0AH enumerates", "same (%u GP x "
			    "%u bits, fixed mask 0x%x x %u bits%s)", checked, pmu.num_gp, pmu.gp_width,
			    pmu.fixed_mask, pmu.fixed_width,
			    beyond ? "" : "; hybrid: counters beyond CPUID.0AH not probed");
}
CHECK_DEFINE(180, "pmu.enumeration", check_pmu_enumeration,
	     "CPUID.0AH agrees with the MSRs: enumerated counters read, the next #GP, widths kept",
	     .flags = CHECK_PER_CPU);

/*
 * The PMU as the firmware left this CPU's (each AP's own, saved when pmuboot took it over).
 * Where the firmware programmed no counter (every selector and the fixed control 0),
 * GLOBAL_CTRL holds its reset value if nothing wrote it: the GP counters' enables set, the
 * fixed counters' clear (SDM Vol. 3B 18.2.2, Vol. 4 IA32_PERF_GLOBAL_CTRL; a vPMU that reset
 * it to 0 broke version-1 software: KVM de120e1d692d). But the firmware owns the PMU until
 * hand-off and may have written it: another value is reported, named, as a SKIP (the reset
 * value cannot be seen), not failed (issue 21 item 12).
 */
static enum check_status check_pmu_reset_state(struct check_ctx *c)
{
	unsigned cpu = smp_this_cpu();
	const struct pmu_state *s = cpu == 0 ? &pmu_boot_state :
				    cpu < MAX_CPUS && pmu_cpus[cpu].probed ? &pmu_cpus[cpu].boot : NULL;
	/* n = the GP counters the processor has (CPUID's count, not pmuboot's cap). */
	uint64_t want = pmu.num_gp_cpuid >= 32 ? 0xffffffffULL : (1ULL << pmu.num_gp_cpuid) - 1;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	/* QEMU with KVM resets the guest's GLOBAL_CTRL to 0 itself (x86_cpu_reset, written at
	 * KVM_PUT_RESET_STATE), whatever KVM would do: the CPU's reset value is not visible. */
	if (check_skip_unless_forced(c, pmu.hypervisor && !pmu.tcg,
				     "under a hypervisor (%s) the reset value seen is the VMM's",
				     env.cpu->hv_signature))
		return CHECK_SKIP;
	if (check_skip_unless_forced(c, pmu.hybrid,
				     "hybrid part: CPUID.0AH does not give this core's GP counters"))
		return CHECK_SKIP;
	if ((!s || !s->saved) && env.force_pmu)
		return check_result(c, CHECK_FAIL, "no saved PMU state", "the firmware's PMU read at "
				    "boot");
	if (!s || !s->saved)
		return check_skip(c, "the firmware's PMU state on CPU %u could not be read", cpu);
	for (unsigned i = 0; i < pmu.num_gp; i++)
		if (s->evtsel[i])
			return check_skip(c, "the firmware left IA32_PERFEVTSEL%u = 0x%llx: not the reset "
					  "state", i, (unsigned long long)s->evtsel[i]);
	if (s->fixed_ctrl)
		return check_skip(c, "the firmware left IA32_FIXED_CTR_CTRL = 0x%llx: not the reset "
				  "state", (unsigned long long)s->fixed_ctrl);
	if ((s->global_ctrl & want) != want)
		return check_skip(c, "the firmware left GLOBAL_CTRL = 0x%llx with no counter "
				  "programmed, not the reset value's GP enables 0x%llx (SDM Vol. 3A "
				  "Table 10-1): it owns the PMU until hand-off and may write it",
				  (unsigned long long)s->global_ctrl, (unsigned long long)want);
	return check_result(c, CHECK_PASS, "GLOBAL_CTRL 0x%llx", "0x%llx (reset value, no counter "
			    "programmed)", (unsigned long long)s->global_ctrl, (unsigned long long)want);
}
CHECK_DEFINE(190, "pmu.reset_state", check_pmu_reset_state,
	     "with no counter programmed by the firmware, GLOBAL_CTRL holds its reset value",
	     .flags = CHECK_PER_CPU);

/* --- Programming rules ------------------------------------------------------------- */

static enum check_status check_pmu_reserved_bits(struct check_ctx *c)
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
		return check_result(c, CHECK_FAIL, "accepted", "library refuses PERFEVTSEL 0x%llx",
				    (unsigned long long)bad);
	/* ... and the CPU faults when one is tried anyway. */
	v = wrmsr_safe(MSR_IA32_PERFEVTSEL0, bad);
	if (v != X86_TRAP_GP) {
		wrmsr_safe(MSR_IA32_PERFEVTSEL0, 0);
		return check_error(c, v ? "other fault" : "no fault", "#GP(13) for PERFEVTSEL0=0x%llx", (unsigned long long)bad);
	}
	return check_result(c, CHECK_PASS, "refused by the library, #GP(13) from the CPU", "both "
			    "value=0x%llx", (unsigned long long)bad);
}
CHECK_DEFINE(200, "pmu.reserved_bits", check_pmu_reserved_bits,
	     "a PERFEVTSEL with reserved bits is refused by the library and #GPs on the CPU",
	     .flags = CHECK_PER_CPU);

static enum check_status check_pmu_width(struct check_ctx *c)
{
	char err[PMU_ERR_LEN];
	uint64_t v, expect = pmu_legacy_write_result(0x80000000ULL, pmu.gp_width);
	uint64_t sel = 0;
	int r;

	if (no_pmu())
		return check_skip(c, "%s", no_pmu());
	if (pmu.gp_width < 32)
		return check_result(c, CHECK_FAIL, "GP counter width %u (CPUID.0AH:EAX[23:16])", "at "
				    "least 32 bits", pmu.gp_width);
	/* Legacy writes: bits 31:0, bit 31 copied upward to the counter width. */
	if ((r = wrmsr_safe(MSR_IA32_PERFEVTSEL0, sel)) || (r = wrmsr_safe(MSR_IA32_PMC0, 0x80000000ULL)) ||
	    (r = rdmsr_safe(MSR_IA32_PMC0, &v)))
		return check_result(c, CHECK_FAIL, "fault vector %d", "legacy PMC0 write and read", r);
	if (v != expect)
		return check_result(c, CHECK_FAIL, "0x%llx", "0x%llx (legacy write of 0x80000000 "
				    "sign-extends to %u bits)", (unsigned long long)v,
				    (unsigned long long)expect, pmu.gp_width);
	/* Full-width writes only where PERF_CAPABILITIES advertises them. */
	if (pmu.full_width_write) {
		uint64_t want = (1ULL << (pmu.gp_width - 1)) | 0x12345678ULL;

		if ((r = pmu_gp_write(&pmu, 0, want, err, sizeof(err))) || (r = pmu_gp_read(&pmu, 0, &v)))
			return check_error(c, r > 0 ? "fault" : err, "full-width write");
		if (v != want)
			return check_result(c, CHECK_FAIL, "0x%llx", "0x%llx (full-width write)",
					    (unsigned long long)v, (unsigned long long)want);
	} else if ((r = wrmsr_safe(MSR_IA32_PMC0_FULL, 1)) != X86_TRAP_GP) {
		return check_error(c, r ? "other fault" : "no fault", "#GP: IA32_A_PMC0 without "
				   "PERF_CAPABILITIES.FW_WRITE");
	}
	wrmsr_safe(MSR_IA32_PMC0, 0);
	return check_result(c, CHECK_PASS, "0x%llx", "0x%llx full-width=%s width=%u",
			    (unsigned long long)expect, (unsigned long long)expect,
			    pmu.full_width_write ? "written" : "faults as it must", pmu.gp_width);
}
CHECK_DEFINE(210, "pmu.width", check_pmu_width,
	     "legacy PMC writes sign-extend bit 31; full-width writes only where advertised",
	     .flags = CHECK_PER_CPU);

/*
 * A write to a counter that is counting (EN and its GLOBAL_CTRL bit set): the counter goes
 * on from the written value, and what it counted before is gone (SDM Vol. 3B 18.2.1.1 puts
 * no condition on the write). KVM once kept the count since the counter started (its fix
 * "Fix perfctr WRMSR for running counters"; pmu-errata.md kind 9). GP0 counts CPL-0
 * instructions through loop4(m), is written `value` while it counts, then counts
 * loop4(N): its final value must not depend on m. The values at m = N and m = 2N must be
 * equal (within RUNNING_TOL: the same code runs after the write), and hold the written
 * value plus at least loop4(N)'s 4N.
 *
 * Twice: from RUNNING_VALUE, and where the counter is wider than 32 bits and takes a
 * full-width write, from RUNNING_CARRY, 2N short of 2^32, so the count carries from bit 31
 * into bit 32 halfway: the NetBurst Xeon MP lost that carry after a write to a running
 * counter (spec update O8/O9, pmu-errata.md kind 9: "~2^32 error").
 */
#define RUNNING_VALUE	0x10000ULL
#define RUNNING_TOL	64	/* instructions */
#define RUNNING_N	10000
#define RUNNING_CARRY	((1ULL << 32) - 2 * RUNNING_N)

static int running_once(uint64_t m, uint64_t value, uint64_t *final, char *err, size_t errlen)
{
	uint64_t flags;
	int r, r2;

	if ((r = pmu_gp_program(&pmu, 0, pmu_os_evtsel(ARCH_EVENT_INSTRUCTIONS), 0, err, errlen)))
		return r;
	flags = irq_save();
	if (!(r = pmu_global_ctrl_write(&pmu, 1, err, errlen))) {
		kernel_loop4(m, NULL);
		r = pmu_gp_write_running(&pmu, 0, value, err, errlen);
		kernel_loop4(RUNNING_N, NULL);
	}
	r2 = pmu_global_ctrl_write(&pmu, 0, err, errlen);
	irq_restore(flags);
	r = r ? r : r2;
	if (!r)
		r = pmu_gp_read(&pmu, 0, final);
	pmu_gp_program(&pmu, 0, 0, 0, err, errlen);
	return r;
}

/* Whether the carry pass can run: a counter wider than 32 bits that takes RUNNING_CARRY. */
static const char *no_carry_pass(void)
{
	if (pmu.gp_width <= 32)
		return "a GP counter of 32 bits has no bit 32 to carry into";
	if (gp_start_unwritable(RUNNING_CARRY))
		return "writing 2^32 - 20000 needs full-width writes (PERF_CAPABILITIES[13])";
	return NULL;
}

/* One value's pass: CHECK_PASS with *a, *b (the runs at m = N and 2N, least of the clean
 * repetitions), or the verdict it reported. */
static enum check_status running_pass(struct check_ctx *c, uint64_t value, uint64_t *a,
				      uint64_t *b, unsigned *discarded)
{
	char err[PMU_ERR_LEN];
	uint64_t smi0 = 0, smi1 = 0, v;
	unsigned kept = 0;
	int64_t gap;
	int r;

	*a = *b = UINT64_MAX;
	for (unsigned t = 0; kept < PMU_REPS && t < 2 * PMU_REPS; t++) {
		uint64_t x, y;

		pmu_smi_count(&pmu, &smi0);
		if ((r = running_once(RUNNING_N, value, &x, err, sizeof(err))) ||
		    (r = running_once(2 * RUNNING_N, value, &y, err, sizeof(err))))
			return check_error(c, r > 0 ? "fault" : err, "GP0 written 0x%llx while "
					   "counting", (unsigned long long)value);
		pmu_smi_count(&pmu, &smi1);
		if (smi1 != smi0) {
			(*discarded)++;
			continue;
		}
		*a = x < *a ? x : *a;
		*b = y < *b ? y : *b;
		kept++;
	}
	if (!kept)
		return check_result(c, CHECK_FAIL, "every repetition took an SMI", "a clean one");
	gap = (int64_t)(*b - *a);
	v = *a;
	if (gap < -RUNNING_TOL || gap > RUNNING_TOL)
		return check_result(c, CHECK_FAIL, "%llu after %u iterations before the write, %llu after "
				    "%u (%+lld)", "the same: counting goes on from the written 0x%llx, "
				    "what came before is gone%s smi_discarded=%u", (unsigned long long)*a,
				    RUNNING_N, (unsigned long long)*b, 2 * RUNNING_N, (long long)gap,
				    (unsigned long long)value, vpmu_note(), *discarded);
	if (v < value + 4ULL * RUNNING_N || v > value + 4ULL * RUNNING_N + 1000)
		return check_result(c, CHECK_FAIL, "0x%llx", "0x%llx..0x%llx (0x%llx written, then %u "
				    "iterations of loop4 and the code around them%s)%s",
				    (unsigned long long)v, value + 4ULL * RUNNING_N,
				    value + 4ULL * RUNNING_N + 1000, (unsigned long long)value, RUNNING_N,
				    value == RUNNING_CARRY ? "; the count carries into bit 32 halfway: "
				    "a value 2^32 short is the carry lost (Xeon MP O8/O9)" : "",
				    vpmu_note());
	return CHECK_PASS;
}

static enum check_status check_pmu_running_write(struct check_ctx *c)
{
	uint64_t a, b, ca = 0, cb = 0;
	unsigned discarded = 0;
	enum check_status st;
	char carry[160];

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	if (check_skip_unless_forced(c, !(pmu.events & (1U << ARCH_EVENT_INSTRUCTIONS)),
				     "instructions retired not available (CPUID.0AH:EBX[1])"))
		return CHECK_SKIP;
	if ((st = running_pass(c, RUNNING_VALUE, &a, &b, &discarded)) != CHECK_PASS)
		return st;
	if (no_carry_pass()) {
		fmt_snprintf(carry, sizeof(carry), "; the carry into bit 32 not checked: %s",
			     no_carry_pass());
	} else {
		if ((st = running_pass(c, RUNNING_CARRY, &ca, &cb, &discarded)) != CHECK_PASS)
			return st;
		fmt_snprintf(carry, sizeof(carry), "; from 0x%llx across bit 32: 0x%llx and 0x%llx",
			     (unsigned long long)RUNNING_CARRY, (unsigned long long)ca,
			     (unsigned long long)cb);
	}
	return check_result(c, CHECK_PASS, "%llu and %llu (%+lld)%s", "0x%llx + %u + the code after "
			    "the write, whatever ran before it smi_discarded=%u", (unsigned long long)a,
			    (unsigned long long)b, (long long)(b - a), carry, RUNNING_VALUE,
			    4 * RUNNING_N, discarded);
}
CHECK_DEFINE(220, "pmu.running_write", check_pmu_running_write,
	     "a counter written while it counts goes on from the value written",
	     .flags = CHECK_PER_CPU);

/* --- Overflow and PMI ----------------------------------------------------------------- */

static struct pmi_stats pmi_stats;

/* Instances: every GP counter, then every fixed counter. */
static unsigned pmu_counter_instances(void)
{
	return gp_counters() + (pmu.num_fixed ? pmu.num_fixed : 0);
}

static void pmu_counter_instance_name(unsigned i, char *buf, size_t len)
{
	if (i < gp_counters())
		fmt_snprintf(buf, len, "gp%u", i);
	else
		fmt_snprintf(buf, len, "fixed%u", i - gp_counters());
}

/* Counts from 2^width - `before` so the counter overflows during the run; with `intr`, the
 * overflow raises a PMI (with pmi=interrupt, taken once interrupts are on after the frame). */
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
	bool intel = pmu.vendor == VENDOR_INTEL;
	struct pmu_result res;
	char err[PMU_ERR_LEN];
	uint64_t status = 0, after;
	unsigned drained;
	enum check_status st;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	if (fixed && fixed_unusable(idx))
		return check_skip(c, "%s", fixed_unusable(idx));
	if (width < 32)
		return check_result(c, CHECK_FAIL, "%s counter width %u", "at least 32 bits",
				    fixed ? "fixed" : "GP", width);
	if (!fixed && !pmu.full_width_write && pmu_legacy_write_result(start, width) != start)
		return check_skip(c, "start value 0x%llx needs full-width writes",
				  (unsigned long long)start);
	e.intr = intr;
	cfg.evtsel = pmu_evtsel_encode(&e);
	memset(&pmi_stats, 0, sizeof(pmi_stats));
	/* The LVT is open either way: without INT no PMI may arrive. */
	pmi_route(&pmi_stats);
	/* 1000 iterations retire 4000+ instructions; fixed counters 1-3 count cycles or
	 * slots, so they get the long run (at least 50000 of either): one overflow each. */
	if (pmu_run(&cfg, 1, &kernel_loop4_desc, fixed && idx > 0 ? PMU_N : 1000, NULL, NULL, &res,
		    err, sizeof(err))) {
		st = check_error(c, err, "an overflowing run");
		goto out;
	}
	pmu_global_status(&pmu, &status);
	pmi_wait(&pmi_stats, 1);
	after = res.value[0];
	if (intr) {
		if (pmi_stats.pmis != 1 || !(pmi_stats.overflows[bit]) || pmi_stats.not_pmi ||
		    pmi_stats.spurious)
			st = check_result(c, CHECK_FAIL, "%llu PMIs, overflow count %llu for bit %u, %llu NMIs "
					  "and %llu interrupts without an overflow bit", "1 PMI for "
					  "bit %u and nothing else", (unsigned long long)pmi_stats.pmis,
					  (unsigned long long)pmi_stats.overflows[bit], bit,
					  (unsigned long long)pmi_stats.not_pmi,
					  (unsigned long long)pmi_stats.spurious, bit);
		/* SDM Vol. 3A 10.5.1 / Vol. 3B 18.2.1: an Intel local APIC sets the LVTPC mask
		 * bit when it delivers a PMI. AMD's does not (a KVM regression forced it on AMD
		 * guests: pmu-errata.md, KVM 49ff3b4aec51), so it is asked of Intel only. */
		else if (intel && !(pmi_stats.lvt_at_entry & APIC_LVT_MASKED))
			st = check_result(c, CHECK_FAIL, "LVTPC 0x%x at PMI", "mask bit set by delivery",
					  pmi_stats.lvt_at_entry);
		else if (apic_read(APIC_LVTPC) & APIC_LVT_MASKED)
			st = check_result(c, CHECK_FAIL, "LVTPC still masked after the handler", "unmasked");
		else
			st = check_result(c, CHECK_PASS, "1 PMI (%s), status bit %u, LVT %s and unmasked by "
					  "the handler", "same", env.pmi_nmi ? "NMI" : "interrupt",
					  bit, intel ? "masked by delivery" : "mask not asked (not Intel)");
	} else if (pmi_stats.pmis || pmi_stats.not_pmi) {
		st = check_result(c, CHECK_FAIL, "%llu PMIs, %llu other NMIs", "none without the "
				  "INT/PMI bit", (unsigned long long)pmi_stats.pmis,
				  (unsigned long long)pmi_stats.not_pmi);
	} else if (after >= start) {
		st = check_result(c, CHECK_FAIL, "0x%llx after 0x%llx", "wrapped past 2^%u",
				  (unsigned long long)after, (unsigned long long)start, width);
	} else if (!(status & (1ULL << bit))) {
		st = check_result(c, CHECK_FAIL, "GLOBAL_STATUS 0x%llx", "overflow bit %u set",
				  (unsigned long long)status, bit);
	} else {
		uint64_t cleared = ~0ULL;

		pmu_global_ovf_clear(&pmu, 1ULL << bit);
		pmu_global_status(&pmu, &cleared);
		if (cleared & (1ULL << bit))
			st = check_result(c, CHECK_FAIL, "GLOBAL_STATUS 0x%llx after OVF_CTRL", "bit %u clear",
					  (unsigned long long)cleared, bit);
		else
			st = check_result(c, CHECK_PASS, "wrapped to %llu from 2^%u-%llu, status bit %u set, "
					  "cleared by OVF_CTRL", "same", (unsigned long long)after,
					  width, (unsigned long long)before, bit);
	}
out:
	drained = pmi_unroute(&pmi_stats);
	if (drained && st == CHECK_PASS)
		st = check_result(c, CHECK_FAIL, "%u PMI(s) still pending after the check", "none",
				  drained);
	return st;
}

static enum check_status check_pmu_overflow(struct check_ctx *c)
{
	return overflow_run(c, false);
}
CHECK_DEFINE(270, "pmu.overflow", check_pmu_overflow,
	     "a counter wraps at its width, sets its GLOBAL_STATUS bit, OVF_CTRL clears it",
	     .flags = CHECK_PER_CPU, .instances = pmu_counter_instances, .instance_name = pmu_counter_instance_name);

static enum check_status check_pmu_pmi(struct check_ctx *c)
{
	if (check_skip_unless_forced(c, !apic.present,
				     "no local APIC for the PMI"))
		return CHECK_SKIP;
	return overflow_run(c, true);
}
CHECK_DEFINE(280, "pmu.pmi", check_pmu_pmi,
	     "overflow with INT raises one PMI through the LVT; delivery masks it, the handler unmasks",
	     .flags = CHECK_PER_CPU, .instances = pmu_counter_instances, .instance_name = pmu_counter_instance_name);

/* --- pmu.halt: the unhalted clock stops in HLT, and no count is lost across it ---------- */

/*
 * SDM Vol. 3B 18.2.2 (Table 18-2): IA32_FIXED_CTR2 counts CPU_CLK_UNHALTED.REF_TSC, the
 * TSC's rate while the core is not halted. GP0 counts CPL-0 instructions and fixed counter
 * 2 reference cycles, both from HALT_START (far from 0 and from overflow, so that a counter
 * whose state was not kept through the sleep reads below it); the CPU halts for HALT_US in
 * between (woken by the APIC timer). The TSC is read before the counters are programmed and
 * after they are stopped (the span they can count in) and around the HLT (the sleep, which
 * also holds the few instructions of the timer's handler). Asserts, every run: GP0 read
 * after the HLT is not below its reading before it (counts lost across a sleep: erratum
 * cstate-count-loss imitates field reports of bogus counts until C-states were disabled);
 * REF_TSC advanced. Runs are made until HALT_VALID are valid (at most HALT_MAX_RUNS): one is
 * not where the sleep lasted less than half of HALT_US (another interrupt ended it) or
 * MSR_SMI_COUNT moved (an SMI's handler counts at CPL 0 without FREEZE_WHILE_SMM). Of the
 * valid runs, the best must have GP0 at most HALT_MAX_INSNS on across the HLT and REF_TSC
 * <= span - sleep / 2. A part that counts through the halt gives about the span; one that
 * stops gives the span less the sleep, plus what ran in the handler. The host preempting a
 * guest adds as much to the span as to REF_TSC outside the sleep, and nothing inside it.
 */
#define HALT_US		1000
#define HALT_START	0x40000000ULL
#define HALT_MAX_INSNS	100000
#define HALT_VALID	3
#define HALT_MAX_RUNS	8

struct halt_run {
	uint64_t before, after, insns, ref, span, slept, smis;
};

#define HALT_NO_WAKE	(-2)	/* halt_once(): nothing would end the HLT */

/* One run; 0, a fault's vector or PMU_EARG (err says which access), or HALT_NO_WAKE. */
static int halt_once(struct halt_run *h, char *err, size_t errlen)
{
	struct pmu_evtsel ins = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	const struct ctr_cfg cfg[] = {
		{ .idx = 0, .evtsel = pmu_evtsel_encode(&ins), .start = HALT_START },
		{ .fixed = true, .idx = 2, .fixed_ctrl = FIXED_CTR_CTRL_OS, .start = HALT_START },
	};
	uint64_t t0 = rdtsc(), smi0 = 0, smi1 = 0, enable;
	int r, nap;

	memset(h, 0, sizeof(*h));
	pmu_smi_count(&pmu, &smi0);
	if ((r = pmu_run_arm(cfg, 2, &enable, err, errlen)) ||
	    (r = pmu_global_ctrl_write(&pmu, enable, err, errlen))) {
		pmu_reset(&pmu);
		return r > 0 ? r : PMU_EARG;
	}
	pmu_gp_rdpmc(&pmu, 0, &h->before);
	nap = watchdog_nap(HALT_US, &h->slept);
	pmu_gp_rdpmc(&pmu, 0, &h->after);
	pmu_global_ctrl_write(&pmu, 0, err, errlen);
	h->span = rdtsc() - t0;
	pmu_gp_read(&pmu, 0, &h->insns);
	pmu_fixed_read(&pmu, 2, &h->ref);
	pmu_reset(&pmu);
	if (!pmu_smi_count(&pmu, &smi1))
		h->smis = (smi1 - smi0) & MSR_SMI_COUNT_MASK;
	return nap < 0 ? HALT_NO_WAKE : 0;
}

static enum check_status check_pmu_halt(struct check_ctx *c)
{
	struct halt_run h, best;
	char err[PMU_ERR_LEN];
	unsigned runs = 0, valid = 0, early = 0, smi_runs = 0;
	bool have = false;
	int r;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	if (check_skip_unless_forced(c, !(pmu.fixed_mask & 4),
				     "no fixed counter 2 (CPU_CLK_UNHALTED.REF_TSC)"))
		return CHECK_SKIP;
	if (check_skip_unless_forced(c, !(pmu.events & (1U << ARCH_EVENT_INSTRUCTIONS)),
				     "instructions retired not available (CPUID.0AH:EBX)"))
		return CHECK_SKIP;
	if (!watchdog_usable())
		return check_skip(c, "nothing to end a HLT: %s", env.watchdog_note);
	memset(&best, 0, sizeof(best));
	for (; runs < HALT_MAX_RUNS && valid < HALT_VALID; runs++) {
		if ((r = halt_once(&h, err, sizeof(err))) > 0 || r == PMU_EARG)
			return check_error(c, r > 0 ? "fault" : err, "GP0 and fixed counter 2 armed");
		if (r == HALT_NO_WAKE)
			return check_skip(c, "this CPU's local APIC timer entry reads back masked, or its "
					  "APIC is software-disabled: nothing to end a HLT");
		if (h.after < h.before || h.insns < HALT_START)
			return check_result(c, CHECK_FAIL, "GP0 %llu before the HLT, %llu after, %llu at "
					    "the end (started at %llu)", "on from where it was: counts "
					    "kept across a halt%s", (unsigned long long)h.before,
					    (unsigned long long)h.after, (unsigned long long)h.insns,
					    HALT_START, vpmu_note());
		if (h.ref <= HALT_START)
			return check_result(c, CHECK_FAIL, "REF_TSC %lld from its start", "> 0 (it counts "
					    "while the CPU runs)%s", (long long)(h.ref - HALT_START),
					    vpmu_note());
		if (h.slept < tsc_from_us(HALT_US / 2)) {
			early++;
			continue;
		}
		if (h.smis) {
			smi_runs++;
			continue;
		}
		valid++;
		/* the best: the least REF_TSC beyond the span less the sleep */
		if (!have || (int64_t)(h.ref - HALT_START - (h.span - h.slept)) <
			     (int64_t)(best.ref - HALT_START - (best.span - best.slept)))
			best = h;
		have = true;
	}
	if (!have)
		return check_error(c, "no valid run", "a HLT of at least %u us without an SMI in %u "
				   "runs (%u ended early by another interrupt, %u took an SMI)",
				   HALT_US / 2, runs, early, smi_runs);
	if (best.after - best.before > HALT_MAX_INSNS)
		return check_result(c, CHECK_FAIL, "%llu instructions across the HLT", "1..%u (the HLT "
				    "and the timer's handler)",
				    (unsigned long long)(best.after - best.before), HALT_MAX_INSNS);
	if (best.ref - HALT_START > best.span - best.slept / 2)
		return check_result(c, CHECK_FAIL, "REF_TSC %llu over a span of %llu TSC ticks, %llu of "
				    "them asleep in HLT (the best of %u valid runs)", "<= %llu (the "
				    "span less half the sleep): it stops while halted (SDM 18.2.2)%s",
				    (unsigned long long)(best.ref - HALT_START),
				    (unsigned long long)best.span, (unsigned long long)best.slept, valid,
				    (unsigned long long)(best.span - best.slept / 2), vpmu_note());
	return check_result(c, CHECK_PASS, "REF_TSC %llu over a span of %llu TSC ticks (%llu asleep), "
			    "%llu instructions across the HLT; %u valid runs of %u", "REF_TSC > 0 "
			    "and <= the span less half the sleep; instructions kept, at most %u more",
			    (unsigned long long)(best.ref - HALT_START), (unsigned long long)best.span,
			    (unsigned long long)best.slept, (unsigned long long)(best.after - best.before),
			    valid, runs, HALT_MAX_INSNS);
}
CHECK_DEFINE(285, "pmu.halt", check_pmu_halt,
	     "REF_TSC stops while the CPU halts (HLT for 1 ms), and the counters keep their counts "
	     "across it",
	     .flags = CHECK_PER_CPU);

/* --- CMASK / INV / EDGE -------------------------------------------------------------- */

#define DIV_N	10000ULL	/* divider-loop iterations: each stalls retirement */

static enum check_status check_pmu_cmask_inv_edge(struct check_ctx *c)
{
	struct pmu_evtsel ge1 = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	struct pmu_evtsel lt1, edge, cyc = pmu_arch_evtsel(ARCH_EVENT_CORE_CYCLES, false, true);
	struct pmu_run_opts o = { .reps = PMU_REPS };
	struct ctr_cfg cfg[3];
	char err[PMU_ERR_LEN], why[200];
	struct pmu_diff d, de;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	if (check_skip_unless_forced(c, pmu.num_gp < 3,
				     "needs 3 GP counters, CPUID.0AH enumerates %u", pmu.num_gp))
		return CHECK_SKIP;
	/* Cycles with >= 1 instruction retired, cycles with < 1, and all cycles: the first two
	 * partition the third (seed 002: INV inverts the CMASK comparison). On the 4-instruction
	 * loop a big core retires in every cycle, leaving INV and EDGE near 0; the divider loop
	 * stalls retirement every iteration, so all three relations have something to count. */
	ge1.cmask = 1;
	lt1 = ge1;
	lt1.inv = true;
	edge = ge1;
	edge.edge = true;
	cfg[0] = (struct ctr_cfg){ .idx = 0, .evtsel = pmu_evtsel_encode(&ge1) };
	cfg[1] = (struct ctr_cfg){ .idx = 1, .evtsel = pmu_evtsel_encode(&lt1) };
	cfg[2] = (struct ctr_cfg){ .idx = 2, .evtsel = pmu_evtsel_encode(&cyc) };
	if (pmu_run_differential(cfg, 3, &kernel_div_loop_desc, DIV_N, NULL, &o, &d, err, sizeof(err)))
		return check_error(c, err, "three counters counted");
	cfg[0].evtsel = pmu_evtsel_encode(&edge);
	if (pmu_run_differential(cfg, 1, &kernel_div_loop_desc, DIV_N, NULL, &o, &de, err,
				 sizeof(err)))
		return check_error(c, err, "edge counter counted");
	if (!expect_cmask_inv_edge(DIV_N, d.diff[0], d.diff[1], d.diff[2], de.diff[0], why,
				   sizeof(why)))
		return check_result(c, CHECK_FAIL, "cmask1 %lld inv %lld cycles %lld edge %lld", "%s "
				    "N=%llu (div loop)%s", (long long)d.diff[0], (long long)d.diff[1],
				    (long long)d.diff[2], (long long)de.diff[0], why, DIV_N,
				    pmu_diff_note(&d));
	return check_result(c, CHECK_PASS, "cmask1 %lld inv %lld cycles %lld edge %lld", "%s "
			    "N=%llu (div loop)%s", (long long)d.diff[0], (long long)d.diff[1],
			    (long long)d.diff[2], (long long)de.diff[0], why, DIV_N, pmu_diff_note(&d));
}
CHECK_DEFINE(370, "pmu.cmask_inv_edge", check_pmu_cmask_inv_edge,
	     "cycles with >=1 retired + INV complement = cycles; EDGE counts transitions",
	     .flags = CHECK_PER_CPU);

/* --- Freeze on PMI ------------------------------------------------------------------- */

/*
 * IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI (SDM Vol. 3B 17.4.7, 18.2.4.1). The trigger (GP0,
 * INT) overflows after `before` instructions; the watcher (GP1) counts the same
 * instructions. On the PMI request the counters freeze, whenever the PMI is delivered:
 * legacy (versions 2, 3) by clearing GLOBAL_CTRL's enables; version 4 by setting
 * GLOBAL_STATUS.CTR_FRZ (bit 59), which keeps every counter stopped until software clears
 * it through STATUS_RESET (OVF_CTRL). The handler is told to leave CTR_FRZ alone, so the
 * counters stay frozen with pmi=nmi too (the NMI arrives inside the frame) and the check
 * reads the bit itself, then clears it and shows that counting resumes.
 */

static enum check_status check_pmu_freeze_on_pmi(struct check_ctx *c)
{
	struct pmu_evtsel trig = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	struct pmu_evtsel watch = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	uint64_t before = 1000, start = (1ULL << (pmu.gp_width & 63)) - before;
	bool v4 = pmu.version >= 4;
	struct ctr_cfg cfg[2];
	struct pmu_result res;
	char err[PMU_ERR_LEN];
	uint64_t dbg = 0, status = 0, cleared = 0, skid, again = 0;
	enum check_status st;
	unsigned drained;
	int r;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	if (check_skip_unless_forced(c, pmu.num_gp < 2,
				     "needs 2 GP counters"))
		return CHECK_SKIP;
	if (check_skip_unless_forced(c, gp_start_unwritable(start),
				     "start value needs full-width writes"))
		return CHECK_SKIP;
	trig.intr = true;
	cfg[0] = (struct ctr_cfg){ .idx = 0, .evtsel = pmu_evtsel_encode(&trig), .start = start };
	cfg[1] = (struct ctr_cfg){ .idx = 1, .evtsel = pmu_evtsel_encode(&watch) };
	if ((r = rdmsr_safe(MSR_IA32_DEBUGCTLMSR, &dbg)))
		return check_result(c, CHECK_FAIL, "RDMSR DEBUGCTL fault vector %d", "no fault", r);
	if ((r = wrmsr_safe(MSR_IA32_DEBUGCTLMSR, dbg | DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI))) {
		if (r == X86_TRAP_GP && pmu.hypervisor && !pmu.tcg && !env.force_pmu)
			return check_skip(c, "DEBUGCTL.FREEZE_PERFMON_ON_PMI refused (#GP) by the "
					  "hypervisor (%s): its virtual PMU has no freeze",
					  env.cpu->hv_signature);
		return check_result(c, CHECK_FAIL, "DEBUGCTL fault vector %d", "FREEZE_PERFMON_ON_PMI "
				    "set (SDM Vol. 3B 17.4.1)", r);
	}
	memset(&pmi_stats, 0, sizeof(pmi_stats));
	pmi_stats.keep = GLOBAL_STATUS_COUNTERS_FROZEN;
	pmi_route(&pmi_stats);
	/* 100000 iterations retire 400000 instructions; the PMI request at `before` freezes both
	 * counters, so the watcher holds `before` plus the skid, not 400000. */
	if (pmu_run(cfg, 2, &kernel_loop4_desc, PMU_N, NULL, NULL, &res, err, sizeof(err))) {
		st = check_error(c, err, "a frozen run");
		goto out;
	}
	/* With pmi=interrupt the PMI was taken as the frame restored IF; either way the handler
	 * acknowledged the overflow and left CTR_FRZ (v4) for this read. */
	pmu_global_status(&pmu, &status);
	pmi_wait(&pmi_stats, 1);
	skid = res.delta[1] > before ? res.delta[1] - before : 0;
	/* The freeze acts on the PMI request, as the overflow is detected (PMI_SKID_MAX). */
	if (res.delta[1] > before + PMI_SKID_MAX || res.delta[1] < before) {
		st = check_result(c, CHECK_FAIL, "watcher %llu", "%llu..%llu (frozen at the PMI "
				  "request, skid <= %u) status=0x%llx", (unsigned long long)res.delta[1],
				  (unsigned long long)before, (unsigned long long)(before + PMI_SKID_MAX),
				  PMI_SKID_MAX, (unsigned long long)status);
		goto out;
	}
	if (pmi_stats.pmis != 1 || pmi_stats.not_pmi) {
		st = check_result(c, CHECK_FAIL, "%llu PMIs, %llu other NMIs", "1 PMI",
				  (unsigned long long)pmi_stats.pmis, (unsigned long long)pmi_stats.not_pmi);
		goto out;
	}
	if (!v4) {
		st = check_result(c, CHECK_PASS, "frozen after %llu instructions, skid %llu", "frozen "
				  "at the PMI request (legacy: GLOBAL_CTRL cleared) status=0x%llx",
				  (unsigned long long)res.delta[1], (unsigned long long)skid,
				  (unsigned long long)status);
		goto out;
	}
	if (!(status & GLOBAL_STATUS_COUNTERS_FROZEN)) {
		st = check_result(c, CHECK_FAIL, "GLOBAL_STATUS 0x%llx", "CTR_FRZ (bit 59) set after "
				  "the PMI request (v4 streamlined freeze)", (unsigned long long)status);
		goto out;
	}
	/* v4: CTR_FRZ stops every counter until STATUS_RESET clears it; then they count. The
	 * watcher is enabled directly (pmu_run would clear every status bit itself). */
	pmu_global_ovf_clear(&pmu, GLOBAL_STATUS_COUNTERS_FROZEN);
	pmu_global_status(&pmu, &cleared);
	if ((r = pmu_gp_program(&pmu, 1, cfg[1].evtsel, 0, err, sizeof(err))) ||
	    (r = pmu_global_ctrl_write(&pmu, 1ULL << 1, err, sizeof(err)))) {
		st = check_error(c, r > 0 ? "fault" : err, "the watcher armed again");
		goto out;
	}
	{
		uint64_t flags = irq_save();

		kernel_loop4(1000, NULL);
		irq_restore(flags);
	}
	pmu_global_ctrl_write(&pmu, 0, err, sizeof(err));
	pmu_gp_read(&pmu, 1, &again);
	if ((cleared & GLOBAL_STATUS_COUNTERS_FROZEN) || again < 4000)
		st = check_result(c, CHECK_FAIL, "status 0x%llx after STATUS_RESET, watcher %llu",
				  "CTR_FRZ clear and >= 4000 counted",
				  (unsigned long long)cleared, (unsigned long long)again);
	else
		st = check_result(c, CHECK_PASS, "frozen after %llu instructions, skid %llu, CTR_FRZ set, "
				  "counting again once cleared", "same (v4 streamlined freeze) "
				  "status=0x%llx", (unsigned long long)res.delta[1],
				  (unsigned long long)skid, (unsigned long long)status);
out:
	wrmsr_safe(MSR_IA32_DEBUGCTLMSR, dbg);
	drained = pmi_unroute(&pmi_stats);
	if (drained && st == CHECK_PASS)
		st = check_result(c, CHECK_FAIL, "%u PMI(s) still pending after the check", "none",
				  drained);
	return st;
}
CHECK_DEFINE(380, "pmu.freeze_on_pmi", check_pmu_freeze_on_pmi,
	     "DEBUGCTL.FREEZE_PERFMON_ON_PMI stops the counters at the PMI request (skid <= 1000); v4: CTR_FRZ",
	     .flags = CHECK_PER_CPU);

/* --- PMI as NMI, and a PMI storm ----------------------------------------------------- */

static void pmi_nmi(struct trap_frame *f)
{
	(void)f;
	pmu_pmi_handle(&pmu, &pmi_stats, true);
}

static enum check_status check_pmu_pmi_nmi(struct check_ctx *c)
{
	const struct pmu_run_opts unframed = { .unframed = true };
	struct pmu_evtsel e = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	uint64_t start = (1ULL << (pmu.gp_width & 63)) - 1000;
	struct ctr_cfg cfg;
	struct pmu_result res;
	char err[PMU_ERR_LEN];
	enum check_status st;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	if (check_skip_unless_forced(c, !apic.present,
				     "no local APIC for the PMI"))
		return CHECK_SKIP;
	if (check_skip_unless_forced(c, gp_start_unwritable(start),
				     "start value needs full-width writes"))
		return CHECK_SKIP;
	e.intr = true;
	cfg = (struct ctr_cfg){ .idx = 0, .evtsel = pmu_evtsel_encode(&e), .start = start };
	memset(&pmi_stats, 0, sizeof(pmi_stats));
	pmi_route_nmi(pmi_nmi);
	/* An NMI is not held back by IF: it arrives inside the window, at the overflow (run
	 * unframed: no oracle region holds the handler). One overflow must give one NMI: a
	 * second (KVM once sent two, pmu-errata.md) finds no status bit and is counted as not
	 * a PMI. */
	if (pmu_run(&cfg, 1, &kernel_loop4_desc, 1000, NULL, &unframed, &res, err, sizeof(err)))
		st = check_error(c, err, "an overflowing run");
	else if (pmi_stats.pmis != 1 || !pmi_stats.overflows[0] || pmi_stats.not_pmi)
		st = check_result(c, CHECK_FAIL, "%llu NMI PMIs, GP0 overflows %llu, %llu NMIs without an "
				  "overflow bit", "1 NMI for GP0 and no other",
				  (unsigned long long)pmi_stats.pmis,
				  (unsigned long long)pmi_stats.overflows[0],
				  (unsigned long long)pmi_stats.not_pmi);
	else
		st = check_result(c, CHECK_PASS, "1 NMI for GP0", "1 NMI for GP0");
	pmi_unroute_nmi();
	return st;
}
CHECK_DEFINE(390, "pmu.pmi_nmi", check_pmu_pmi_nmi,
	     "a PMI delivered as NMI through the LVT arrives inside the frame",
	     .flags = CHECK_PER_CPU);

/* The storm's handler: acknowledge, then rearm the counter STORM_PERIOD instructions short
 * of overflow again. The period outlasts the handler's own exit path (counted too: OS),
 * so the kernel still advances between PMIs. */
#define STORM_PERIOD	500
static struct {
	uint64_t start;
	bool active;
} storm;

/* Called by the handler while counting is off, before the LVT entry is unmasked. */
static void storm_rearm(void)
{
	char ignored[PMU_ERR_LEN];

	if (storm.active)
		pmu_gp_write(&pmu, 0, storm.start, ignored, sizeof(ignored));
}

static void storm_irq(struct trap_frame *f)
{
	(void)f;
	pmu_pmi_handle(&pmu, &pmi_stats, false);
}

static enum check_status check_pmu_pmi_storm(struct check_ctx *c)
{
	struct pmu_evtsel e = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	char err[PMU_ERR_LEN];
	uint64_t t0, elapsed, n = 100000, handled;
	enum check_status st;
	bool pending = false;
	int r;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	if (check_skip_unless_forced(c, !apic.present,
				     "no local APIC for the PMI"))
		return CHECK_SKIP;
	storm.start = (1ULL << (pmu.gp_width & 63)) - STORM_PERIOD;
	if (check_skip_unless_forced(c, gp_start_unwritable(storm.start),
				     "start value needs full-width writes"))
		return CHECK_SKIP;
	e.intr = true;
	memset(&pmi_stats, 0, sizeof(pmi_stats));
	pmi_stats.rearm = storm_rearm;
	trap_set_handler(VECTOR_PMI, storm_irq);
	pmu_pmi_lvt_setup(VECTOR_PMI, false);
	if ((r = pmu_gp_program(&pmu, 0, pmu_evtsel_encode(&e), storm.start, err, sizeof(err))) ||
	    (r = pmu_global_ctrl_write(&pmu, 1, err, sizeof(err)))) {
		st = check_error(c, r > 0 ? "fault" : err, "counter armed");
		goto out;
	}
	/* With interrupts on, a PMI every STORM_PERIOD instructions: the run must still end,
	 * and every PMI must be accounted for. */
	storm.active = true;
	t0 = rdtsc();
	irq_enable();
	kernel_loop4(n, NULL);
	/* Stop the counter while interrupts are still on: counting on after CLI with INT set,
	 * it would overflow again and leave a PMI in the IRR for a later check. What was
	 * requested before it stopped is drained below, by this handler. */
	pmu_global_ctrl_write(&pmu, 0, err, sizeof(err));
	storm.active = false;
	irq_disable();
	elapsed = tsc_to_us(rdtsc() - t0);
	handled = pmi_handled(&pmi_stats);
	pmu_quiesce(&pmu, VECTOR_PMI, &pending);
	if (pmi_stats.pmis < 100)
		st = check_result(c, CHECK_FAIL, "%llu PMIs", "a storm (>= 100) over %llu iterations",
				  (unsigned long long)pmi_stats.pmis, (unsigned long long)n);
	else if (pending)
		st = check_result(c, CHECK_FAIL, "a PMI still pending in the IRR after the storm "
				  "and a wait of %llu ticks", "none once the counter is stopped and "
				  "drained", (unsigned long long)pmu_quiesce_waited());
	else
		st = check_result(c, CHECK_PASS, "%llu PMIs in %llu us, %llu bounded loops, %llu spurious, "
				  "%llu drained after the stop (waited %llu ticks for a late one: "
				  "%u instructions)", "run survives the storm, nothing left pending",
				  (unsigned long long)pmi_stats.pmis,
				  (unsigned long long)elapsed, (unsigned long long)pmi_stats.loop_limited,
				  (unsigned long long)pmi_stats.spurious,
				  (unsigned long long)(pmi_handled(&pmi_stats) - handled),
				  (unsigned long long)pmu_quiesce_waited(), PMI_SKID_MAX);
out:
	pmu_quiesce(&pmu, VECTOR_PMI, NULL);
	trap_set_handler(VECTOR_PMI, 0);
	return st;
}
CHECK_DEFINE(420, "pmu.pmi_storm", check_pmu_pmi_storm,
	     "a PMI every 500 instructions: the run survives and every PMI is handled",
	     .flags = CHECK_PER_CPU);

/* --- USR and OS ---------------------------------------------------------------------- */

/* Instructions counted by every GP counter across one loop4 of n iterations at CPL 3
 * (user) or CPL 0: counters whose index has bit 0 equal to usr_odd count USR only, the
 * others OS only. Two such runs, one each way, give every counter index both filters (a
 * part may lose one filter on some counters only: BDW-EP's PMC4-7 count nothing USR-only,
 * likwid issues 59 and 517). */
static bool usr_os_is_usr(unsigned i, bool usr_odd)
{
	return (i & 1) == usr_odd;
}

/* The counters judged: every GP counter, and at least two (force-pmu on a part with fewer
 * must still program and judge them, and fail). */
static unsigned usr_os_counters(void)
{
	return pmu.num_gp >= 2 ? pmu.num_gp : 2;
}

static int usr_os_once(bool user, bool usr_odd, uint64_t n, uint64_t out[PMU_MAX_GP], char *err,
		       size_t errlen)
{
	struct pmu_evtsel usr = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, true, false);
	struct pmu_evtsel os = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	uint64_t ret, flags;
	int r = 0, v = FAULT_NONE;

	for (unsigned i = 0; i < usr_os_counters(); i++)
		if ((r = pmu_gp_program(&pmu, i, pmu_evtsel_encode(usr_os_is_usr(i, usr_odd) ?
									&usr : &os), 0,
					err, errlen)))
			goto out;
	flags = irq_save();
	if ((r = pmu_global_ctrl_write(&pmu, pmu_gp_mask(&pmu), err, errlen))) {
		irq_restore(flags);
		goto out;
	}
	if (user)
		v = user_call((user_fn)(uintptr_t)kernel_loop4, n, 0, 0, 0, false, &ret);
	else
		kernel_loop4(n, NULL);
	pmu_global_ctrl_write(&pmu, 0, err, errlen);
	irq_restore(flags);
	if (v != FAULT_NONE) {
		fmt_snprintf(err, errlen, "the CPL-3 run faulted (vector %d)", v);
		r = v;
		goto out;
	}
	for (unsigned i = 0; i < usr_os_counters() && !r; i++)
		if ((r = pmu_gp_read(&pmu, i, &out[i])))
			fmt_snprintf(err, errlen, "RDMSR of PMC%u faulted (vector %d)", i, r);
out:
	for (unsigned i = 0; i < usr_os_counters(); i++) {
		char ignored[PMU_ERR_LEN];

		pmu_gp_program(&pmu, i, 0, 0, ignored, sizeof(ignored));
	}
	return r;
}

/* Smallest counts over the repetitions, at n and at 2n: their signed difference per
 * counter. A pair during which MSR_SMI_COUNT moved is discarded (counted in *discarded). */
static int usr_os_diff(bool user, bool usr_odd, uint64_t n, int64_t diff[PMU_MAX_GP],
		       unsigned *discarded, char *err, size_t errlen)
{
	uint64_t lo[PMU_MAX_GP], hi[PMU_MAX_GP], a[PMU_MAX_GP], b[PMU_MAX_GP], smi0 = 0, smi1 = 0;
	unsigned kept = 0;
	int r;

	for (unsigned i = 0; i < PMU_MAX_GP; i++)
		lo[i] = hi[i] = UINT64_MAX;
	for (unsigned tries = 0; kept < PMU_REPS && tries < 2 * PMU_REPS; tries++) {
		pmu_smi_count(&pmu, &smi0);
		if ((r = usr_os_once(user, usr_odd, n, a, err, errlen)) ||
		    (r = usr_os_once(user, usr_odd, 2 * n, b, err, errlen)))
			return r;
		pmu_smi_count(&pmu, &smi1);
		if (smi1 != smi0) {
			(*discarded)++;
			continue;
		}
		for (unsigned i = 0; i < usr_os_counters(); i++) {
			lo[i] = a[i] < lo[i] ? a[i] : lo[i];
			hi[i] = b[i] < hi[i] ? b[i] : hi[i];
		}
		kept++;
	}
	if (!kept) {
		fmt_snprintf(err, errlen, "every repetition took an SMI (MSR_SMI_COUNT)");
		return PMU_EARG;
	}
	for (unsigned i = 0; i < usr_os_counters(); i++)
		diff[i] = (int64_t)(hi[i] - lo[i]);
	return 0;
}

static enum check_status check_pmu_usr_os(struct check_ctx *c)
{
	char err[PMU_ERR_LEN], bad[160] = "";
	int64_t u[PMU_MAX_GP], k[PMU_MAX_GP], want = 4 * (int64_t)PMU_N;
	unsigned discarded = 0, nbad = 0;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	if (user_unavailable())
		return check_skip(c, "%s", user_unavailable());
	if (check_skip_unless_forced(c, pmu.num_gp < 2,
				     "needs 2 GP counters"))
		return CHECK_SKIP;
	/* At CPL 3 a USR counter sees the loop and an OS counter only the constant entry and
	 * exit path (cancelled by the differential); at CPL 0 the reverse. Each counter index
	 * is judged with both filters. */
	for (unsigned odd = 0; odd < 2; odd++) {
		if (usr_os_diff(true, odd, PMU_N, u, &discarded, err, sizeof(err)) ||
		    usr_os_diff(false, odd, PMU_N, k, &discarded, err, sizeof(err)))
			return check_error(c, err, "USR and OS counters counted");
		for (unsigned i = 0; i < usr_os_counters(); i++) {
			bool usr = usr_os_is_usr(i, odd);
			int64_t at3 = u[i], at0 = k[i];

			if (usr ? at3 == want && at0 == 0 : at3 == 0 && at0 == want)
				continue;
			if (!nbad++)
				fmt_snprintf(bad, sizeof(bad), "gp%u %s: CPL3 %lld CPL0 %lld", i,
					     usr ? "usr" : "os", (long long)at3, (long long)at0);
		}
	}
	if (nbad)
		return check_result(c, CHECK_FAIL, "%u of %u counter-filter pairs wrong, first %s",
				    "on every GP counter: usr CPL3 %lld CPL0 0, os CPL3 0 CPL0 %lld "
				    "smi_discarded=%u", nbad, 2 * usr_os_counters(), bad, (long long)want,
				    (long long)want, discarded);
	return check_result(c, CHECK_PASS, "usr CPL3 %lld os 0, CPL0 usr 0 os %lld on each of %u "
			    "GP counters, both ways", "same N=%llu smi_discarded=%u",
			    (long long)want, (long long)want, usr_os_counters(), PMU_N, discarded);
}
CHECK_DEFINE(360, "pmu.usr_os", check_pmu_usr_os,
	     "USR-only counts the loop at CPL 3 and not at CPL 0, OS-only the reverse, on "
	     "every GP counter",
	     .flags = CHECK_PER_CPU);

/* --- Exact counts while PMIs interrupt ------------------------------------------------ */

/*
 * GP0 counts CPL-3 instructions with INT and is re-armed PMI_EXACT_PERIOD short of overflow
 * by the handler, so a PMI (as NMI: IF stays clear at CPL 3) interrupts the CPL-3 loop every
 * period; GP1 counts CPL-3 instructions too, without INT. An interrupt retires nothing of
 * the interrupted code (its instruction retired or runs again) and the handler runs at
 * CPL 0; the IRETQ that returns to CPL 3 may be counted there (on the x86 parts Weaver
 * measured it was: "Non-determinism and overcount on modern hardware performance counter
 * implementations", ISPASS 2013). Whether this part counts it, iret_probe() finds out one
 * way, without a PMI: k = 0 or 1. So GP1's count(2N) - count(N) is exactly 4N + k per
 * PMI, the same for every repetition. Where there is a third GP counter it counts CPL-3
 * branches retired the same way: N (one JNZ per iteration) + the probe's k for branches
 * per PMI (that IRETQ is a far branch). pmu-errata.md kind 2: SRF7 (+1 more instruction
 * per PMI), Xen (PMIs inflate the branch count): an excess per PMI the probe's IRETQ does
 * not show is an erratum, whether the part counts the IRETQ at CPL 3 or not.
 */
#define PMI_EXACT_PERIOD	1000
static uint64_t exact_start;

static void exact_rearm(void)
{
	char ignored[PMU_ERR_LEN];

	pmu_gp_write(&pmu, 0, exact_start, ignored, sizeof(ignored));
}

static void exact_nmi(struct trap_frame *f)
{
	(void)f;
	pmu_pmi_handle(&pmu, &pmi_stats, true);
}

/* Whether pmu.pmi_exact also counts CPL-3 branches (on GP2). */
static bool exact_branches(void)
{
	return pmu.num_gp >= 3 && (pmu.events & (1U << ARCH_EVENT_BRANCHES));
}

static int pmi_exact_once(uint64_t n, uint64_t *user, uint64_t *branches, uint64_t *pmis,
			  char *err, size_t errlen)
{
	struct pmu_evtsel trig = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, true, false);
	struct pmu_evtsel watch = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, true, false);
	struct pmu_evtsel br = pmu_arch_evtsel(ARCH_EVENT_BRANCHES, true, false);
	uint64_t ret, flags, before = pmi_stats.pmis, enable = 0x3;
	int r, v;

	trig.intr = true;
	if ((r = pmu_gp_program(&pmu, 0, pmu_evtsel_encode(&trig), exact_start, err, errlen)) ||
	    (r = pmu_gp_program(&pmu, 1, pmu_evtsel_encode(&watch), 0, err, errlen)))
		return r;
	if (exact_branches()) {
		if ((r = pmu_gp_program(&pmu, 2, pmu_evtsel_encode(&br), 0, err, errlen)))
			return r;
		enable |= 0x4;
	}
	flags = irq_save();
	if ((r = pmu_global_ctrl_write(&pmu, enable, err, errlen))) {
		irq_restore(flags);
		pmu_gp_program(&pmu, 0, 0, 0, NULL, 0);
		pmu_gp_program(&pmu, 1, 0, 0, NULL, 0);
		if (exact_branches())
			pmu_gp_program(&pmu, 2, 0, 0, NULL, 0);
		return r;
	}
	v = user_call((user_fn)(uintptr_t)kernel_loop4, n, 0, 0, 0, false, &ret);
	pmu_global_ctrl_write(&pmu, 0, err, errlen);
	irq_restore(flags);
	r = pmu_gp_read(&pmu, 1, user);
	*branches = 0;
	if (!r && exact_branches())
		r = pmu_gp_read(&pmu, 2, branches);
	pmu_gp_program(&pmu, 0, 0, 0, err, errlen);
	pmu_gp_program(&pmu, 1, 0, 0, err, errlen);
	if (exact_branches())
		pmu_gp_program(&pmu, 2, 0, 0, err, errlen);
	*pmis = pmi_stats.pmis - before;
	if (v != FAULT_NONE) {
		fmt_snprintf(err, errlen, "the CPL-3 run faulted (vector %d)", v);
		return v;
	}
	return r;
}

/*
 * What one interrupt of CPL-3 code adds to CPL-3 counts, as instructions (*insn) and as
 * branches (*branch, where exact_branches()), probed one way without a PMI: GP0 counts
 * CPL-3 instructions, GP1 CPL-3 branches from 0, enabled at CPL 0 (where they count
 * nothing); a user call's IRETQ enters CPL 3, the trampoline's CALL runs user_probe_iret,
 * whose #UD (a fault: it does not retire) is delivered back to CPL 0, where the counters are
 * read after the serializing WRMSR that stops them. Beyond the CALL that is one IRETQ into
 * CPL 3 and one delivery out of it, as a PMI at CPL 3 has. Parts differ (the SDM's USR/OS
 * flags say which level counts, not at which a returning IRETQ retires; Weaver et al.
 * measured one extra user count per interrupt on the x86 parts they had), so pmu.pmi_exact
 * takes the part's own value from here instead of accepting 0 or 1: an erratum adding one
 * per PMI on a part that counts none would hide otherwise. Every one of PROBE_RUNS SMI-free
 * probes must agree (nothing else runs: interrupts are off). 0, or -1 with err.
 */
#define PROBE_RUNS	5

static int iret_probe(uint64_t *insn, uint64_t *branch, char *err, size_t errlen)
{
	struct pmu_evtsel ins = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, true, false);
	struct pmu_evtsel br = pmu_arch_evtsel(ARCH_EVENT_BRANCHES, true, false);
	uint64_t enable = exact_branches() ? 0x3 : 0x1;
	uint64_t lo_i = ~0ULL, hi_i = 0, lo_b = ~0ULL, hi_b = 0;
	unsigned clean = 0;

	for (unsigned t = 0; clean < PROBE_RUNS && t < 4 * PROBE_RUNS; t++) {
		uint64_t smi0 = 0, smi1 = 0, ret = 0, flags, i = 0, b = 0;
		int r, r2 = 0, v;

		if ((r = pmu_gp_program(&pmu, 0, pmu_evtsel_encode(&ins), 0, err, errlen)) ||
		    (exact_branches() &&
		     (r = pmu_gp_program(&pmu, 1, pmu_evtsel_encode(&br), 0, err, errlen)))) {
			if (r > 0)
				fmt_snprintf(err, errlen, "programming GP0/GP1 faulted (vector %d)", r);
			return -1;
		}
		pmu_smi_count(&pmu, &smi0);
		flags = irq_save();
		if (pmu_global_ctrl_write(&pmu, enable, err, errlen)) {
			irq_restore(flags);
			pmu_gp_program(&pmu, 0, 0, 0, NULL, 0);
			if (exact_branches())
				pmu_gp_program(&pmu, 1, 0, 0, NULL, 0);
			return -1;
		}
		v = user_call(user_probe_iret, 0, 0, 0, 0, false, &ret);
		pmu_global_ctrl_write(&pmu, 0, err, errlen);
		irq_restore(flags);
		pmu_smi_count(&pmu, &smi1);
		r = pmu_gp_read(&pmu, 0, &i);
		if (exact_branches())
			r2 = pmu_gp_read(&pmu, 1, &b);
		pmu_gp_program(&pmu, 0, 0, 0, err, errlen);
		if (exact_branches())
			pmu_gp_program(&pmu, 1, 0, 0, err, errlen);
		if (r || r2) {
			fmt_snprintf(err, errlen, "reading GP0/GP1 faulted (vector %d)", r ? r : r2);
			return -1;
		}
		if (v != X86_TRAP_UD) {
			fmt_snprintf(err, errlen, "the CPL-3 UD2 ended the user call with vector %d, "
				     "not #UD (6)", v);
			return -1;
		}
		if (smi1 != smi0)
			continue;
		clean++;
		if (i < USER_PROBE_IRET_INSNS || (exact_branches() && b < USER_PROBE_IRET_BRANCHES)) {
			fmt_snprintf(err, errlen, "CPL-3 instructions %llu, branches %llu: fewer than "
				     "the probe's own CALL (%u and %u)", (unsigned long long)i,
				     (unsigned long long)b, USER_PROBE_IRET_INSNS,
				     USER_PROBE_IRET_BRANCHES);
			return -1;
		}
		i -= USER_PROBE_IRET_INSNS;
		b = exact_branches() ? b - USER_PROBE_IRET_BRANCHES : 0;
		lo_i = i < lo_i ? i : lo_i, hi_i = i > hi_i ? i : hi_i;
		lo_b = b < lo_b ? b : lo_b, hi_b = b > hi_b ? b : hi_b;
	}
	if (!clean) {
		fmt_snprintf(err, errlen, "every one of %u probe runs took an SMI", 4 * PROBE_RUNS);
		return -1;
	}
	if (lo_i != hi_i || lo_b != hi_b) {
		fmt_snprintf(err, errlen, "%u probes disagree: %llu..%llu instructions, %llu..%llu "
			     "branches beyond the CALL", clean, (unsigned long long)lo_i,
			     (unsigned long long)hi_i, (unsigned long long)lo_b,
			     (unsigned long long)hi_b);
		return -1;
	}
	*insn = lo_i;
	*branch = lo_b;
	return 0;
}

/* Whether one repetition's runs at N and 2N are exact with k extra CPL-3 counts per PMI:
 * each run is per_n * N + C + k * its PMIs (C: the user call's own CPL-3 entry and exit,
 * the same in both), so b - a = per_n * N + k * (pb - pa). The PMIs are each run's own:
 * skid makes them vary from run to run. */
static bool exact_with(uint64_t a, uint64_t pa, uint64_t b, uint64_t pb, uint64_t per_n,
		       uint64_t k)
{
	return b >= a && pb >= pa && b - a == per_n * PMU_N + k * (pb - pa);
}

static enum check_status check_pmu_pmi_exact(struct check_ctx *c)
{
	char err[PMU_ERR_LEN], brs[160] = "";
	uint64_t a, b, pa = 0, pb = 0, smi0 = 0, smi1 = 0, ba, bb, ki, bki;
	/* The first kept repetition, for a FAIL's detail. */
	uint64_t fa = 0, fb = 0, fpa = 0, fpb = 0, fba = 0, fbb = 0;
	unsigned kept = 0, discarded = 0, exact = 0, bexact = 0;
	int64_t diff, extra, more, want = 4 * (int64_t)PMU_N, bextra = 0;
	enum check_status st;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	if (check_skip_unless_forced(c, (pmu.errata & PMU_ERRATUM_FAR_INSNS),
				     "%s: the IRETQ of every PMI counts twice", pmu_erratum_note(pmu.errata)))
		return CHECK_SKIP;
	if (user_unavailable())
		return check_skip(c, "%s", user_unavailable());
	if (check_skip_unless_forced(c, pmu.num_gp < 2,
				     "needs 2 GP counters"))
		return CHECK_SKIP;
	if (check_skip_unless_forced(c, !apic.present,
				     "no local APIC for the PMI"))
		return CHECK_SKIP;
	exact_start = (1ULL << (pmu.gp_width & 63)) - PMI_EXACT_PERIOD;
	if (check_skip_unless_forced(c, gp_start_unwritable(exact_start),
				     "start value needs full-width writes"))
		return CHECK_SKIP;
	if (iret_probe(&ki, &bki, err, sizeof(err)))
		return check_error(c, err, "the IRETQ probe");
	if (ki > 1 || bki > 1)
		return check_result(c, CHECK_FAIL, "an IRETQ into CPL 3 and a #UD delivered out of it "
				    "added %llu CPL-3 instruction(s), %llu branch(es) (probe)", "0 or 1 "
				    "each: the IRETQ, once, where it retires at CPL 3; a delivery "
				    "retires nothing", (unsigned long long)ki, (unsigned long long)bki);
	memset(&pmi_stats, 0, sizeof(pmi_stats));
	pmi_stats.rearm = exact_rearm;
	pmi_route_nmi(exact_nmi);
	for (unsigned tries = 0; kept < PMU_REPS && tries < 2 * PMU_REPS; tries++) {
		pmu_smi_count(&pmu, &smi0);
		if (pmi_exact_once(PMU_N, &a, &ba, &pa, err, sizeof(err)) ||
		    pmi_exact_once(2 * PMU_N, &b, &bb, &pb, err, sizeof(err))) {
			st = check_error(c, err, "two counted CPL-3 runs");
			goto out;
		}
		pmu_smi_count(&pmu, &smi1);
		if (smi1 != smi0) {
			discarded++;
			continue;
		}
		/* Each repetition is judged with its own PMI counts: with skid the PMIs of a run
		 * vary, so a minimum over repetitions would pair counts of different runs. One
		 * exact repetition is enough (counts are only ever added by noise); the
		 * excess per PMI must be what the probe found the IRETQ back to CPL 3 adds
		 * there, nothing else. */
		if (!kept) {
			fa = a, fb = b, fpa = pa, fpb = pb, fba = ba, fbb = bb;
		}
		if (exact_with(a, pa, b, pb, 4, ki) && !exact++)
			fa = a, fb = b, fpa = pa, fpb = pb;
		if (exact_branches() && exact_with(ba, pa, bb, pb, 1, bki) && !bexact++)
			fba = ba, fbb = bb;
		kept++;
	}
	diff = (int64_t)(fb - fa);
	extra = diff - want;
	more = (int64_t)(fpb - fpa);
	pa = fpa;
	pb = fpb;
	if (exact_branches()) {
		bextra = (int64_t)(fbb - fba) - (int64_t)PMU_N;
		fmt_snprintf(brs, sizeof(brs), ", CPL-3 branches %lld more from N to 2N (%s)",
			     (long long)(fbb - fba),
			     bexact && bki ? "one per interrupt round trip at CPL 3" :
			     bexact ? "nothing added" : "not exact");
	} else {
		fmt_snprintf(brs, sizeof(brs), ", branches not checked (%s)",
			     pmu.num_gp < 3 ? "needs a third GP counter" :
			     "branches retired not available");
	}
	if (!kept)
		st = check_result(c, CHECK_FAIL, "every repetition took an SMI", "a clean one");
	else if (pb <= pa || pa < PMU_N * 4 / PMI_EXACT_PERIOD / 2)
		st = check_result(c, CHECK_FAIL, "%llu PMIs at N, %llu at 2N", "one about every %u "
				  "CPL-3 instructions", (unsigned long long)pa, (unsigned long long)pb,
				  PMI_EXACT_PERIOD);
	else if (pmi_stats.not_pmi)
		st = check_result(c, CHECK_FAIL, "%llu NMIs without an overflow bit", "none",
				  (unsigned long long)pmi_stats.not_pmi);
	else if (!exact)
		st = check_result(c, CHECK_FAIL, "%lld CPL-3 instructions from N to 2N, %lld more than the "
				  "loop's %lld, with %lld more PMIs (%llu to %llu); no repetition of %u "
				  "exact", "%llu more per PMI of the same runs (the probe: an interrupt's "
				  "round trip, IRETQ in and delivery out, counts %s at CPL 3), nothing else N=%llu smi_discarded=%u",
				  (long long)diff, (long long)extra, (long long)want, (long long)more,
				  (unsigned long long)fpa, (unsigned long long)fpb, kept,
				  (unsigned long long)ki, ki ? "once" : "not", PMU_N, discarded);
	else if (exact_branches() && !bexact)
		st = check_result(c, CHECK_FAIL, "%lld CPL-3 branches from N to 2N, %lld more than the "
				  "loop's %llu, with %lld more PMIs; no repetition of %u exact", "%llu "
				  "more per PMI of the same runs (the probe: an interrupt's round trip "
				  "counts %s as a CPL-3 branch), nothing else N=%llu smi_discarded=%u",
				  (long long)(fbb - fba), (long long)bextra, PMU_N, (long long)more, kept,
				  (unsigned long long)bki, bki ? "once" : "not", PMU_N, discarded);
	else
		st = check_result(c, CHECK_PASS, "%lld from N to 2N with %lld more PMIs (%s), %u of %u "
				  "repetitions exact%s", "%lld + %llu per PMI of the same run (the "
				  "IRETQ probe's) N=%llu smi_discarded=%u", (long long)diff,
				  (long long)(pb - pa),
				  ki ? "one per interrupt round trip at CPL 3" : "nothing added", exact,
				  kept, brs, (long long)want, (unsigned long long)ki, PMU_N, discarded);
out:
	pmi_unroute_nmi();
	return st;
}
CHECK_DEFINE(400, "pmu.pmi_exact", check_pmu_pmi_exact,
	     "CPL-3 instructions count exactly while PMIs (NMI) interrupt the loop every 1000",
	     .flags = CHECK_PER_CPU);

/* --- Short PMI periods ------------------------------------------------------------------ */

/*
 * pmu-errata.md kind 6: below some period a PMI misbehaves. Nehalem storms ("irq loop
 * stuck"; Linux keeps its periods >= 32, nhm_limit_period), Haswell and Broadwell need 128
 * for INST_RETIRED (HSW11, BDM11, BDM55; bdw_limit_period). GP0 counts CPL-0 instructions
 * with INT from 2^width - P, GP1 the same without INT; the PMI is an NMI, so it interrupts
 * the kernel wherever it lands, and the handler reads GP1 at a fixed point of its own code.
 * GP1 there minus P is the skid plus that constant. Each period must give exactly one PMI,
 * and a skid within SHORT_SLACK (or twice the reference's own spread, if more: real PMIs
 * skid by a variable few instructions) of the skids at SHORT_REF_PERIOD. The reference
 * takes SHORT_REF_RUNS runs, so that its spread shows a variable skid; a period whose PMI
 * lands outside is run again, up to SHORT_TRIES times, and the closest counts: a PMI that
 * is late at that period (an erratum) is late every time, a skid drawn anew each PMI is
 * not. Before each period's runs, GP0 is written to 2^width - P with counting off: no
 * overflow bit may be set by that write (a part whose bit comes back every time a handler
 * re-arms a short period loops in its handler forever, as Linux's "irq loop stuck" on
 * Nehalem did; short_write_status). A model with a known limit is swept from that limit
 * up, and says so.
 */
#define SHORT_REF_PERIOD	1000
#define SHORT_SLACK		16	/* instructions */
#define SHORT_N			1000	/* loop4 iterations: 4000 instructions, past any period */
#define SHORT_TRIES		3
#define SHORT_REF_RUNS		8
static const uint32_t short_periods[] = { 1, 2, 3, 4, 8, 16, 31, 32, 33, 64, 127, 128 };
static uint64_t short_at_pmi;
static bool short_seen;

static void short_snap(void)
{
	if (!short_seen && !pmu_gp_read(&pmu, 1, &short_at_pmi))
		short_seen = true;
}

static void short_nmi(struct trap_frame *f)
{
	(void)f;
	pmu_pmi_handle(&pmu, &pmi_stats, true);
}

/* One run with period p: the skid (GP1 at the PMI - p) and the PMIs it raised, unframed (the
 * NMI handler must not run inside an oracle region). An SMI during the run (it can move the
 * PMI) makes it run again, up to SHORT_TRIES times. */
static int short_once(uint64_t p, int64_t *skid, uint64_t *pmis, unsigned *smis, char *err,
		      size_t errlen)
{
	const struct pmu_run_opts unframed = { .unframed = true };
	struct pmu_evtsel trig = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	struct pmu_evtsel watch = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	struct ctr_cfg cfg[2];
	struct pmu_result res;
	uint64_t before;

	trig.intr = true;
	cfg[0] = (struct ctr_cfg){ .idx = 0, .evtsel = pmu_evtsel_encode(&trig),
				   .start = (1ULL << (pmu.gp_width & 63)) - p };
	cfg[1] = (struct ctr_cfg){ .idx = 1, .evtsel = pmu_evtsel_encode(&watch) };
	for (unsigned t = 0; t < SHORT_TRIES; t++) {
		before = pmi_stats.pmis;
		short_seen = false;
		if (pmu_run(cfg, 2, &kernel_loop4_desc, SHORT_N, NULL, &unframed, &res, err, errlen))
			return -1;
		*pmis = pmi_stats.pmis - before;
		*skid = short_seen ? (int64_t)short_at_pmi - (int64_t)p : INT64_MIN;
		if (!res.smis)
			return 0;
		(*smis)++;
	}
	return 0;
}

/* GLOBAL_STATUS's bit for GP0 right after GP0 is written to 2^width - p, with INT and
 * counting off (GLOBAL_CTRL 0): 0 where nothing has overflowed, as it should. */
static int short_write_status(uint64_t p, uint64_t *bit, char *err, size_t errlen)
{
	struct pmu_evtsel trig = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	uint64_t status = 0, enable;
	int r;

	trig.intr = true;
	if ((r = pmu_run_arm(NULL, 0, &enable, err, errlen)))
		return r;
	if (!pmu_global_status(&pmu, &status) && (status & 1)) {
		fmt_snprintf(err, errlen, "GP0's overflow bit stays set after OVF_CTRL cleared it "
			     "(GLOBAL_STATUS 0x%llx), before the write", (unsigned long long)status);
		return PMU_EARG;
	}
	if ((r = pmu_gp_program(&pmu, 0, pmu_evtsel_encode(&trig), (1ULL << (pmu.gp_width & 63)) - p,
				err, errlen)))
		return r;
	r = pmu_global_status(&pmu, &status);
	pmu_gp_program(&pmu, 0, 0, 0, err, errlen);
	pmu_global_ovf_clear(&pmu, pmu_ovf_clear_bits(&pmu));
	if (r)
		fmt_snprintf(err, errlen, "RDMSR IA32_PERF_GLOBAL_STATUS faulted (vector %d)", r);
	*bit = status & 1;
	return r;
}

static enum check_status check_pmu_pmi_short_period(struct check_ctx *c)
{
	char err[PMU_ERR_LEN], limit[160] = "";
	int64_t ref_lo = INT64_MAX, ref_hi = INT64_MIN, skid, tol, worst = 0;
	uint64_t min_period = 1, pmis, bit, start = (1ULL << (pmu.gp_width & 63)) - SHORT_REF_PERIOD;
	unsigned smis = 0, swept = 0;
	enum check_status st = CHECK_PASS;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	if (check_skip_unless_forced(c, pmu.num_gp < 2,
				     "needs 2 GP counters"))
		return CHECK_SKIP;
	if (check_skip_unless_forced(c, !apic.present,
				     "no local APIC for the PMI"))
		return CHECK_SKIP;
	if (check_skip_unless_forced(c, gp_start_unwritable(start),
				     "start value needs full-width writes"))
		return CHECK_SKIP;
	if (!env.force_pmu)
		min_period = pmu_min_pmi_period(pmu.errata);
	if (min_period > 1)
		fmt_snprintf(limit, sizeof(limit), " (periods below %llu not tried: %s)",
			     (unsigned long long)min_period, pmu_erratum_note(pmu.errata));
	memset(&pmi_stats, 0, sizeof(pmi_stats));
	pmi_stats.rearm = short_snap;
	pmi_route_nmi(short_nmi);
	for (unsigned i = 0; i < SHORT_REF_RUNS; i++) {
		if (short_once(SHORT_REF_PERIOD, &skid, &pmis, &smis, err, sizeof(err))) {
			st = check_error(c, err, "a run with period %u",
					 SHORT_REF_PERIOD);
			goto out;
		}
		if (pmis != 1 || skid == INT64_MIN) {
			st = check_result(c, CHECK_FAIL, "%llu PMIs at period %u", "1",
					  (unsigned long long)pmis, SHORT_REF_PERIOD);
			goto out;
		}
		ref_lo = skid < ref_lo ? skid : ref_lo;
		ref_hi = skid > ref_hi ? skid : ref_hi;
	}
	tol = 2 * (ref_hi - ref_lo) > SHORT_SLACK ? 2 * (ref_hi - ref_lo) : SHORT_SLACK;
	for (unsigned i = 0; i < sizeof(short_periods) / sizeof(short_periods[0]); i++) {
		uint64_t p = short_periods[i];

		if (p < min_period)
			continue;
		swept++;
		if (short_write_status(p, &bit, err, sizeof(err))) {
			st = check_error(c, err, "GP0 written %llu short of overflow",
					 (unsigned long long)p);
			goto out;
		}
		if (bit) {
			st = check_result(c, CHECK_FAIL, "GP0's overflow bit set by writing it %llu short "
					  "of overflow, counting off", "clear until it counts %llu "
					  "events (a handler that re-arms so loops forever: Linux's "
					  "\"irq loop stuck\")%s", (unsigned long long)p,
					  (unsigned long long)p, vpmu_note());
			goto out;
		}
		for (unsigned t = 0; t < SHORT_TRIES; t++) {
			if (short_once(p, &skid, &pmis, &smis, err, sizeof(err))) {
				st = check_error(c, err, "a run with period %llu",
						 (unsigned long long)p);
				goto out;
			}
			if (pmis != 1 || skid == INT64_MIN ||
			    (skid <= ref_hi + tol && skid >= ref_lo - tol))
				break;
		}
		if (pmis != 1 || skid == INT64_MIN) {
			st = check_result(c, CHECK_FAIL, "%llu PMIs at period %llu", "1 (as at period %u)%s",
					  (unsigned long long)pmis, (unsigned long long)p,
					  SHORT_REF_PERIOD, vpmu_note());
			goto out;
		}
		if (skid > ref_hi + tol || skid < ref_lo - tol) {
			st = check_result(c, CHECK_FAIL, "PMI at period %llu %lld instructions later than "
					  "the earliest at period %u", "%lld..%lld (period %u's "
					  "spread, +-%lld)%s", (unsigned long long)p,
					  (long long)(skid - ref_lo), SHORT_REF_PERIOD, (long long)-tol,
					  (long long)(ref_hi - ref_lo + tol), SHORT_REF_PERIOD,
					  (long long)tol, vpmu_note());
			goto out;
		}
		if (skid - ref_lo > worst)
			worst = skid - ref_lo;
	}
	if (pmi_stats.not_pmi)
		st = check_result(c, CHECK_FAIL, "%llu NMIs without an overflow bit", "none",
				  (unsigned long long)pmi_stats.not_pmi);
	else
		st = check_result(c, CHECK_PASS, "one PMI per period, %u periods %u..128, skid within %lld of "
				  "period %u's", "same within %lld%s smi_reruns=%u", swept,
				  (unsigned)(min_period > 1 ? min_period : 1), (long long)worst,
				  SHORT_REF_PERIOD, (long long)tol, limit, smis);
out:
	pmi_unroute_nmi();
	return st;
}
CHECK_DEFINE(410, "pmu.pmi_short_period", check_pmu_pmi_short_period,
	     "one PMI, on time, for every period from 1 to 128 (NMI; skid as at 1000), and no "
	     "overflow bit from the write alone",
	     .flags = CHECK_PER_CPU);

/* --- RDPMC forms ---------------------------------------------------------------------- */

static enum check_status check_pmu_rdpmc_forms(struct check_ctx *c)
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
		return check_error(c, r > 0 ? "fault" : err, "PMC0 written");
	if ((r = pmu_gp_rdpmc(&pmu, 0, &full)) || (r = pmu_gp_read(&pmu, 0, &msr)))
		return check_result(c, CHECK_FAIL, "fault vector %d", "RDPMC and RDMSR of PMC0", r);
	if (full != value || msr != value)
		return check_result(c, CHECK_FAIL, "RDPMC 0x%llx RDMSR 0x%llx", "0x%llx",
				    (unsigned long long)full, (unsigned long long)msr,
				    (unsigned long long)value);
	/* ECX[31], fast read: the low 32 bits where a CPU supports it, #GP where not. */
	r = rdpmc_safe(RDPMC_FAST | 0, &fast);
	if (r != 0 && r != X86_TRAP_GP)
		return check_result(c, CHECK_FAIL, "fast RDPMC vector %d", "no fault or #GP(13)", r);
	if (r == 0 && fast != (value & 0xffffffffULL))
		return check_result(c, CHECK_FAIL, "fast RDPMC 0x%llx", "0x%llx (low 32 bits)",
				    (unsigned long long)fast, (unsigned long long)(value & 0xffffffffULL));
	/* ECX[30] selects the fixed counters. */
	if (pmu.version >= 2 && (pmu.fixed_mask & 1) && (r = pmu_fixed_rdpmc(&pmu, 0, &fixed)))
		return check_result(c, CHECK_FAIL, "fixed RDPMC vector %d", "no fault", r);
	pmu_gp_program(&pmu, 0, 0, 0, err, sizeof(err));
	return check_result(c, CHECK_PASS, "RDPMC = RDMSR = 0x%llx, fast read %s, fixed read ok",
			    "same", (unsigned long long)value,
			    r == X86_TRAP_GP ? "#GP (unsupported)" : "low 32 bits");
}
CHECK_DEFINE(160, "pmu.rdpmc_forms", check_pmu_rdpmc_forms,
	     "RDPMC equals RDMSR; fast reads (ECX[31]) give the low half or #GP; ECX[30] reads fixed",
	     .flags = CHECK_PER_CPU);

/* --- Global control ----------------------------------------------------------------- */

static enum check_status check_pmu_global_gates(struct check_ctx *c)
{
	struct pmu_evtsel e = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	char err[PMU_ERR_LEN];
	uint64_t off = ~0ULL, on = 0;
	int r;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	/* EN set in the selector, but GLOBAL_CTRL's bit clear: nothing may count. */
	if ((r = pmu_gp_program(&pmu, 0, pmu_evtsel_encode(&e), 0, err, sizeof(err))))
		return check_error(c, r > 0 ? "fault" : err, "GP0 programmed");
	measure_kernel_pmu(&kernel_loop4_desc, 1000, NULL, 0);
	pmu_gp_read(&pmu, 0, &off);
	measure_kernel_pmu(&kernel_loop4_desc, 1000, NULL, 1);
	pmu_gp_read(&pmu, 0, &on);
	pmu_gp_program(&pmu, 0, 0, 0, err, sizeof(err));
	if (off != 0 || on < 4000)
		return check_result(c, CHECK_FAIL, "%llu with GLOBAL_CTRL clear, %llu with it set",
				    "0 and >= 4000", (unsigned long long)off, (unsigned long long)on);
	return check_result(c, CHECK_PASS, "0 with GLOBAL_CTRL clear, %llu with it set", "0 and "
			    ">= 4000", (unsigned long long)on);
}
CHECK_DEFINE(230, "pmu.global_gates", check_pmu_global_gates,
	     "a counter with EN set counts only while its GLOBAL_CTRL bit is set",
	     .flags = CHECK_PER_CPU);

static enum check_status check_pmu_status_set_inuse(struct check_ctx *c)
{
	char err[PMU_ERR_LEN];
	uint64_t st = 0, cleared = ~0ULL, inuse = 0, bit = 1ULL << 0;
	struct pmu_evtsel e = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	int r;

	if (no_global_ctrl())
		return check_skip(c, "%s", no_global_ctrl());
	if (check_skip_unless_forced(c, pmu.version < 4,
				     "GLOBAL_STATUS_SET and GLOBAL_INUSE need PMU version 4 (this is %u)",
				     pmu.version))
		return CHECK_SKIP;
	if ((r = pmu_global_status_set(&pmu, bit)) || (r = pmu_global_status(&pmu, &st)))
		return check_error(c, r > 0 ? "fault" : "refused", "STATUS_SET written and STATUS read");
	pmu_global_ovf_clear(&pmu, bit);
	pmu_global_status(&pmu, &cleared);
	pmu_gp_program(&pmu, 0, pmu_evtsel_encode(&e), 0, err, sizeof(err));
	r = pmu_global_inuse(&pmu, &inuse);
	pmu_gp_program(&pmu, 0, 0, 0, err, sizeof(err));
	if (!(st & bit) || (cleared & bit))
		return check_result(c, CHECK_FAIL, "STATUS 0x%llx after SET, 0x%llx after OVF_CTRL",
				    "bit 0 set, then clear", (unsigned long long)st,
				    (unsigned long long)cleared);
	if (r || !(inuse & bit))
		return check_result(c, CHECK_FAIL, "INUSE 0x%llx (vector %d)", "bit 0 set while GP0 "
				    "is programmed", (unsigned long long)inuse, r);
	return check_result(c, CHECK_PASS, "STATUS_SET sets, OVF_CTRL clears, INUSE 0x%llx",
			    "same with bit 0", (unsigned long long)inuse);
}
CHECK_DEFINE(240, "pmu.status_set_inuse", check_pmu_status_set_inuse,
	     "v4: GLOBAL_STATUS_SET sets, OVF_CTRL clears, GLOBAL_INUSE shows a programmed counter",
	     .flags = CHECK_PER_CPU);
