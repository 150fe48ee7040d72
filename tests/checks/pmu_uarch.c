/* SPDX-License-Identifier: MIT */
/*
 * Model-specific and behavioural counter checks: branch mispredictions across the branch
 * patterns, Nehalem's cycle accounting and load data sources (seed
 * 000_666bff9af8f20138.txt), and Skylake-and-later cache-level misses following the
 * pointer chase's working set across the cache sizes of CPUID leaf 4.
 */
#include "arch/x86/cpuid.h"
#include "tests/harness/check.h"
#include "tests/harness/env.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "pmu/event.h"
#include "tests/measure/region.h"
#include "tests/measure/pmu_run.h"

#define BRANCH_N	20000ULL
#define REPS		3

static const char *no_counters(unsigned gp_needed)
{
	const char *why = pmu_unavailable_reason(env.force_pmu);

	if (why)
		return why;
	if (env.force_pmu)
		return NULL;
	if (pmu.version < 2)
		return "PMU version 1: no IA32_PERF_GLOBAL_CTRL for the measurement frame";
	if (pmu.num_gp < gp_needed)
		return "not enough GP counters";
	return NULL;
}

/* A GP selector from raw fields, counting in ring 0. */
static uint64_t sel(uint8_t event, uint8_t umask, uint8_t cmask, bool inv, bool any)
{
	struct pmu_evtsel e = { .event = event, .umask = umask, .os = true, .en = true,
				.cmask = cmask, .inv = inv, .any = any };

	return pmu_evtsel_encode(&e);
}

/* --- Branch mispredictions (architectural event 6, C5H/00H) ------------------------ */

struct branch_case {
	const char *name;
	uint64_t bits, period;	/* branch_pattern; period 0: the LFSR kernel */
	int64_t lo_pct, hi_pct;		/* mispredictions per 100 iterations, inclusive */
};

static const struct branch_case branch_cases[] = {
	{ "always", 1, 1, 0, 1 },
	{ "never", 0, 1, 0, 1 },
	{ "alternating", 2, 2, 0, 1 },
	{ "lfsr", 0xace1ace1ace1ace1ULL, 0, 25, 75 },	/* about half: unpredictable */
};

CHECK_TABLE_INSTANCES(branch_miss, branch_cases)

static enum check_status check_pmu_branch_misses(struct check_ctx *c)
{
	const struct branch_case *bc = &branch_cases[c->instance];
	/* Static: the oracle's frame model assumes no kernel data shares the frame's stack page. */
	static struct branch_pattern pat;
	static struct branch_lfsr lfsr;
	struct ctr_cfg cfg = { .idx = 0, .evtsel = pmu_os_evtsel(ARCH_EVENT_BRANCH_MISSES) };
	struct pmu_run_opts o = { .reps = REPS };
	char err[PMU_ERR_LEN];
	/* Predictable patterns: near 0, and noise may make the difference a little negative. */
	int64_t lo = bc->lo_pct ? (int64_t)BRANCH_N * bc->lo_pct / 100 : -16;
	int64_t hi = (int64_t)BRANCH_N * bc->hi_pct / 100 + 16;
	struct pmu_diff d;

	if (no_counters(1))
		return check_skip(c, "%s", no_counters(1));
	if (!env.force_pmu && !(pmu.events & (1U << ARCH_EVENT_BRANCH_MISSES)))
		return check_skip(c, "branch misses retired not available (CPUID.0AH:EBX[6])");
	pat = (struct branch_pattern){ bc->bits, bc->period ? bc->period : 1 };
	lfsr = (struct branch_lfsr){ bc->bits, LFSR64_TAPS };
	if (pmu_run_differential(&cfg, 1, bc->period ? &kernel_branch_pattern_desc :
				 &kernel_branch_lfsr_desc, BRANCH_N,
				 bc->period ? (void *)&pat : (void *)&lfsr, &o, &d, err, sizeof(err)))
		return check_error(c, err, "branch misses counted");
	if (d.diff[0] < lo || d.diff[0] > hi)
		return check_result(c, CHECK_FAIL, "%lld", "%lld..%lld mispredictions over %llu "
				    "iterations (%s pattern) median=%lld%s", (long long)d.diff[0],
				    (long long)lo, (long long)hi, BRANCH_N, bc->name,
				    (long long)d.median[0], pmu_diff_note(&d));
	return check_result(c, CHECK_PASS, "%lld", "%lld..%lld N=%llu median=%lld%s",
			    (long long)d.diff[0], (long long)lo, (long long)hi, BRANCH_N,
			    (long long)d.median[0], pmu_diff_note(&d));
}
CHECK_DEFINE(430, "pmu.branch_misses", check_pmu_branch_misses,
	     "mispredictions: ~0 for always/never/alternating, about half for the LFSR",
	     .flags = CHECK_PER_CPU, .instances = branch_miss_instances, .instance_name = branch_miss_instance_name);

/* --- Nehalem (seed 000): cycle accounting and load sources ------------------------ */

static bool is_nehalem(void)
{
	return pmu.uarch == UARCH_NEHALEM || pmu.uarch == UARCH_WESTMERE;
}

/* Seed 000: Total cycles = UOPS_EXECUTED.CORE_STALL_CYCLES + CORE_ACTIVE_CYCLES
 * (B1H umask 3FH, CMASK=1, INV=1 / INV=0, AnyThread: the count is per core). */
static enum check_status check_pmu_nehalem_stall_active(struct check_ctx *c)
{
	struct ctr_cfg cfg[3] = {
		{ .idx = 0, .evtsel = sel(0xb1, 0x3f, 1, false, true) },	/* active */
		{ .idx = 1, .evtsel = sel(0xb1, 0x3f, 1, true, true) },		/* stall */
		{ .idx = 2, .evtsel = sel(0x3c, 0x00, 0, false, true) },	/* cycles, per core */
	};
	struct pmu_run_opts o = { .reps = REPS };
	char err[PMU_ERR_LEN];
	struct pmu_diff dd;
	int64_t *d = dd.diff, tol;

	if (no_counters(3))
		return check_skip(c, "%s", no_counters(3));
	if (!is_nehalem() && !env.force_pmu)
		return check_skip(c, "Nehalem/Westmere events; this is %s", pmu_uarch_name(pmu.uarch));
	/* The divider loop: stall cycles (the DIV chain) and active cycles both occur. */
	if (pmu_run_differential(cfg, 3, &kernel_div_loop_desc, 10000, NULL, &o, &dd, err,
				 sizeof(err)))
		return check_error(c, err, "UOPS_EXECUTED and cycles counted");
	tol = d[2] / 1000 + 64;
	if (d[2] <= 0 || d[0] <= 0 || d[1] <= 0 || d[0] + d[1] + tol < d[2] || d[0] + d[1] > d[2] + tol)
		return check_result(c, CHECK_FAIL, "active %lld + stall %lld = %lld", "cycles %lld +-%lld,"
				    " both parts > 0%s", (long long)d[0], (long long)d[1],
				    (long long)(d[0] + d[1]), (long long)d[2], (long long)tol,
				    pmu_diff_note(&dd));
	return check_result(c, CHECK_PASS, "active %lld + stall %lld", "cycles %lld +-%lld%s",
			    (long long)d[0], (long long)d[1], (long long)d[2], (long long)tol,
			    pmu_diff_note(&dd));
}
CHECK_DEFINE(440, "pmu.nehalem.stall_active", check_pmu_nehalem_stall_active,
	     "Nehalem: UOPS_EXECUTED stall + active cycles = total cycles",
	     .flags = CHECK_PER_CPU);

/* Before each counted chase: its lines flushed, so that every run, whichever pair and
 * whichever source it counts, starts from the same cold caches. */
static void chase_cold(uint64_t n, void *first)
{
	chase_flush(first, n);
}

/* Seed 000 Table 3: MEM_LOAD_RETIRED (CBH) data sources; on the chase they account for
 * every MEM_INST_RETIRED.LOADS (0BH/01H). */
static enum check_status check_pmu_nehalem_load_sources(struct check_ctx *c)
{
	static const uint8_t sources[] = {
		0x01,	/* L1D_HIT */
		0x02,	/* L2_HIT */
		0x04,	/* LLC_UNSHARED_HIT */
		0x08,	/* OTHER_CORE_L2_HIT_HITM */
		0x10,	/* LLC_MISS */
		0x40,	/* HIT_LFB */
	};
	uint64_t nodes = (env.buf_size < (64ULL << 20) ? env.buf_size : (64ULL << 20)) / 64;
	void *first;
	struct ctr_cfg cfg = { .idx = 0, .evtsel = sel(0x0b, 0x01, 0, false, false) };
	struct pmu_run_opts o = { .reps = REPS, .before = chase_cold };
	char err[PMU_ERR_LEN];
	int64_t loads, sum = 0, tol;
	struct pmu_diff d;

	if (no_counters(1))
		return check_skip(c, "%s", no_counters(1));
	if (!is_nehalem() && !env.force_pmu)
		return check_skip(c, "Nehalem/Westmere events; this is %s", pmu_uarch_name(pmu.uarch));
	if (!nodes)
		return check_result(c, CHECK_FAIL, "no test buffer", "a buffer for the chase");
	first = chase_build(env.buf, nodes, 64, 0x9e3779b97f4a7c15ULL);
	if (pmu_run_differential(&cfg, 1, &kernel_chase_desc, nodes, first, &o, &d, err,
				 sizeof(err)))
		return check_error(c, err, "MEM_INST_RETIRED.LOADS counted");
	loads = d.diff[0];
	/* One load per iteration exactly: the differential adds `nodes` iterations. */
	if (loads != (int64_t)nodes)
		return check_result(c, CHECK_FAIL, "%lld loads", "%llu (1 per chase step)%s",
				    (long long)loads, (unsigned long long)nodes, pmu_diff_note(&d));
	for (unsigned i = 0; i < sizeof(sources); i++) {
		cfg.evtsel = sel(0xcb, sources[i], 0, false, false);
		if (pmu_run_differential(&cfg, 1, &kernel_chase_desc, nodes, first, &o, &d, err,
					 sizeof(err)))
			return check_error(c, err, "MEM_LOAD_RETIRED umask %02XH counted", sources[i]);
		/* Each pair's own difference: the six sources are counted in different runs,
		 * and minima from different runs do not add up. Every run starts cold
		 * (chase_cold), so that each finds the caches as the others did: without it
		 * the medians once summed 3% short (CI, the erratum boot
		 * nhm-stall-inv-ignored, 253968 for 262144; the runs before a source's pairs,
		 * and how many pairs ran, decide what the caches hold). */
		sum += d.median[0];
	}
	tol = loads / 50 + 16;
	if (sum + tol < loads || sum > loads + tol)
		return check_result(c, CHECK_FAIL, "sources sum %lld", "loads %lld +-%lld",
				    (long long)sum, (long long)loads, (long long)tol);
	return check_result(c, CHECK_PASS, "sources sum %lld", "loads %lld +-%lld",
			    (long long)sum, (long long)loads, (long long)tol);
}
/* Seven counted chases over up to 64 MiB, three pairs of runs each (six if SMIs
 * intrude): about 63 M dependent loads from DRAM, some 6 s at 100 ns, 13 s at worst. */
CHECK_DEFINE(450, "pmu.nehalem.load_sources", check_pmu_nehalem_load_sources,
	     "Nehalem: MEM_LOAD_RETIRED sources sum to MEM_INST_RETIRED.LOADS on the chase",
	     .flags = CHECK_PER_CPU, .timeout_ms = 120000);

/* --- Skylake and later: cache-level misses follow the working set ------------------- */

static bool has_mem_load_retired_d1(void)
{
	switch (pmu.uarch) {
	case UARCH_SKYLAKE: case UARCH_SKYLAKE_X: case UARCH_KABY_LAKE: case UARCH_CANNON_LAKE:
	case UARCH_ICE_LAKE: case UARCH_ICE_LAKE_X: case UARCH_TIGER_LAKE: case UARCH_ROCKET_LAKE:
	case UARCH_SAPPHIRE_RAPIDS: case UARCH_EMERALD_RAPIDS: case UARCH_GRANITE_RAPIDS:
		return true;
	case UARCH_ALDER_LAKE: case UARCH_RAPTOR_LAKE: case UARCH_METEOR_LAKE:
		return pmu.core_type == HYBRID_CORE_CORE;	/* the P-core's events */
	default:
		return false;
	}
}

/*
 * Server parts (Skylake-SP and later Xeons): the L3 is non-inclusive and, with sub-NUMA
 * clustering, split into up to four clusters (SNC-2 on Skylake-SP/Cascade Lake, SNC-2/4 on
 * Ice Lake-SP and later), a core's local memory cached in its own cluster's slices only.
 * Half of the L3 need not fit; half of one cluster's share (an eighth) does, whatever the
 * BIOS chose. 1 elsewhere (the client L3 is shared whole).
 */
static unsigned l3_fit_divisor(void)
{
	switch (pmu.uarch) {
	case UARCH_SKYLAKE_X: case UARCH_ICE_LAKE_X: case UARCH_SAPPHIRE_RAPIDS:
	case UARCH_EMERALD_RAPIDS: case UARCH_GRANITE_RAPIDS:
		return 4;
	default:
		return 1;
	}
}

/* MEM_LOAD_RETIRED.L1_MISS / L2_MISS / L3_MISS (D1H/08H, 10H, 20H; SDM Vol. 3B ch. 19). */
static enum check_status check_pmu_cache_levels(struct check_ctx *c)
{
	uint64_t size[4] = { 0, cpu_cache_bytes(1), cpu_cache_bytes(2), cpu_cache_bytes(3) };
	static const uint8_t miss_umask[4] = { 0, 0x08, 0x10, 0x20 };
	char err[PMU_ERR_LEN], tested[96] = "";

	if (no_counters(1))
		return check_skip(c, "%s", no_counters(1));
	if (!has_mem_load_retired_d1() && !env.force_pmu)
		return check_skip(c, "MEM_LOAD_RETIRED.Lx_MISS as on Skylake; this is %s",
				  pmu_uarch_name(pmu.uarch));
	if (check_skip_unless_forced(c, !size[1],
				     "CPUID leaf 4 reports no data caches"))
		return CHECK_SKIP;
	for (unsigned lvl = 1; lvl <= 3; lvl++) {
		/* Half the level (of one sub-NUMA cluster's share of a server's L3): it fits,
		 * misses must be rare. Eight times it (when the buffer holds that): a random
		 * step hits the level with probability 1/8 at most. */
		unsigned div = lvl == 3 ? l3_fit_divisor() : 1;

		for (unsigned big = 0; big < 2; big++) {
			uint64_t ws = big ? 8 * size[lvl] : size[lvl] / 2 / div, nodes = ws / 64;

			if (!big && lvl > 1 && ws <= size[lvl - 1]) {
				check_diag(c, "L%u/%u: %llu bytes, not above the L%u: not a test of the "
					   "L%u", lvl, 2 * div, (unsigned long long)ws, lvl - 1, lvl);
				continue;
			}
			struct ctr_cfg cfg = { .idx = 0,
					       .evtsel = sel(0xd1, miss_umask[lvl], 0, false, false) };
			struct pmu_run_opts o = { .reps = REPS };
			struct pmu_diff dd;
			int64_t d;
			void *first;

			if (!nodes || ws > env.buf_size)
				continue;
			first = chase_build(env.buf, nodes, 64, 0x9e3779b97f4a7c15ULL);
			/* Warm the working set once, then count a full cycle more. */
			if (pmu_run_differential(&cfg, 1, &kernel_chase_desc, nodes, first, &o, &dd,
						 err, sizeof(err)))
				return check_error(c, err, "L%u misses counted", lvl);
			d = dd.diff[0];
			if (!big && d > (int64_t)(nodes / 20 + 64))
				return check_result(c, CHECK_FAIL, "%lld L%u misses", "<= %llu for a %llu-byte "
						    "working set within the %llu-byte L%u%s", (long long)d, lvl,
						    (unsigned long long)(nodes / 20 + 64),
						    (unsigned long long)ws, (unsigned long long)size[lvl], lvl,
						    pmu_diff_note(&dd));
			if (big && d < (int64_t)(nodes * 3 / 4))
				return check_result(c, CHECK_FAIL, "%lld L%u misses", ">= %llu for a %llu-byte "
						    "working set, 8x the L%u%s", (long long)d, lvl,
						    (unsigned long long)(nodes * 3 / 4), (unsigned long long)ws, lvl,
						    pmu_diff_note(&dd));
			char one[24];
			fmt_snprintf(one, sizeof(one), "%sL%u%s", tested[0] ? "," : "", lvl,
				     big ? "x8" : div > 1 ? "/8" : "/2");
			str_lcat(tested, one, sizeof(tested));
		}
	}
	if (!tested[0])
		return check_result(c, CHECK_FAIL, "no working set fitted the buffer", "some level tested");
	return check_result(c, CHECK_PASS, "misses follow the working set (%s)", "same "
			    "L1=%llu L2=%llu L3=%llu", tested, (unsigned long long)size[1],
			    (unsigned long long)size[2], (unsigned long long)size[3]);
}
CHECK_DEFINE(460, "pmu.cache_levels", check_pmu_cache_levels,
	     "Skylake+: L1/L2/L3 load misses follow the chase's working set (CPUID leaf 4)",
	     .flags = CHECK_PER_CPU, .timeout_ms = 60000);
