/* SPDX-License-Identifier: MIT */
/*
 * Uncore checks: Skylake client (seed 001_dad58ad4a296bcf3.txt: the UCLK fixed counter, CBo
 * lookups, ARB requests, the IMC's DRAM counters, RW1C status, widths, counter restrictions,
 * freeze and PMI) and Nehalem (seed 000_666bff9af8f20138.txt "Uncore Performance Events": the
 * fixed counter, GQ allocations, IMC reads and writes, occupancy from an empty queue). Every
 * one SKIPs, naming what is missing, where discovery (pmu/uncore.c) did not find that
 * uncore; then nothing is written to it. One CPU: the cross-core parts (XSNP_RESPONSE HITM
 * against a ping-pong, a PMI to another core) wait for SMP (uncore_cbo_sum and the
 * pmi_cores mask of uncore_global_value are there for them).
 */
#include "arch/x86/apic.h"
#include "tests/harness/check.h"
#include "tests/expect/uncore.h"
#include "tests/harness/env.h"
#include "arch/x86/cpuid.h"
#include "arch/x86/io.h"
#include "arch/x86/msr.h"
#include "arch/x86/percpu.h"
#include "arch/x86/trap.h"
#include "arch/x86/tsc.h"
#include "lib/fmt.h"
#include "lib/stats.h"
#include "lib/string.h"
#include "pmu/counter.h"
#include "pmu/pmi.h"
#include "pmu/uncore.h"
#include "tests/measure/region.h"
#include "tests/measure/uncore_run.h"
#include "tests/measure/xcore.h"
#include "arch/x86/smp.h"

#define UNC_REPS	5
#define CLOCK_WINDOWS	11
#define CLOCK_WINDOW_US	1000
#define DRAM_STEPS_MAX	50000ULL	/* flushed chase steps: ~5 ms at 100 ns a miss */
#define SEED		0x9e3779b97f4a7c15ULL

#define CBO(b, i)	((struct uncore_ctr){ UNC_BOX_CBO, (b), (i) })
#define ARB(i)		((struct uncore_ctr){ UNC_BOX_ARB, 0, (i) })
#define NHM(i)		((struct uncore_ctr){ UNC_BOX_NHM, 0, (i) })
#define FIXED		((struct uncore_ctr){ UNC_BOX_FIXED, 0, 0 })

static const char *no_skl(void)
{
	return uncore_unavailable_reason(&uncore, UNCORE_SKL);
}

static const char *no_nhm(void)
{
	return uncore_unavailable_reason(&uncore, UNCORE_NHM);
}

/* ---- Working sets (CPUID leaf 4) and chases ----------------------------------------- */

static void flush_before(uint64_t n, void *arg)
{
	chase_flush(arg, n);
}

/* A warm chase over ws bytes (one node per line, one cycle): n = its nodes, so the extra n
 * steps of the differential are one more pass over a working set already in the caches. */
static void *warm_chase(uint64_t ws, uint64_t *n)
{
	*n = ws / 64;
	return chase_build(env.buf, *n, 64, SEED);
}

/* A DRAM chase: nodes over up to 64 MiB of the buffer, n steps with 2n distinct lines, each
 * line the run visits CLFLUSHed before it (flush_before): every step misses every cache. */
static void *dram_chase(uint64_t *n)
{
	uint64_t bytes = env.buf_size < (64ULL << 20) ? env.buf_size : (64ULL << 20);
	uint64_t nodes = bytes / 64;

	*n = nodes / 2 < DRAM_STEPS_MAX ? nodes / 2 : DRAM_STEPS_MAX;
	return chase_build(env.buf, nodes, 64, SEED);
}

static const char *range_why(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? "below" : v > hi ? "above" : "within";
}

/* ---- UCLK against the TSC (Skylake UNC_CLOCK.SOCKET, Nehalem's fixed counter) -------- */

/*
 * CLOCK_WINDOWS windows of CLOCK_WINDOW_US, interrupts off, the fixed counter read by RDMSR
 * at both ends: its rate = count * TSC Hz / TSC ticks. A window that took an SMI is dropped.
 * Then the counter with its local enable but the global one clear must not move.
 */
static enum check_status uclk_check(struct check_ctx *c, uint64_t lo_mhz, uint64_t hi_mhz,
				    const char *why)
{
	int64_t mhz[CLOCK_WINDOWS];
	unsigned kept = 0, near = 0, smi_dropped = 0;
	struct uncore_ctr fixed = FIXED;
	uint64_t gated0, gated1, enable = uncore_global_value(uncore.kind, &fixed, 1, 0, false);
	char err[PMU_ERR_LEN];
	int64_t med;
	const uint64_t window = tsc_from_us(CLOCK_WINDOW_US);	/* outside the timed loops */

	if (uncore_claim())
		return check_result(c, CHECK_FAIL, "uncore not claimable", "present");
	for (unsigned w = 0; w < CLOCK_WINDOWS; w++) {
		uint64_t s0 = 0, s1 = 0, c0, c1, t0, t1, flags;

		if (uncore_fixed_program(&uncore, true, false, 0, err, sizeof(err)) ||
		    uncore_global_ctrl_write(&uncore, enable, err, sizeof(err)))
			return check_error(c, err, "the fixed counter programmed");
		pmu_smi_count(&pmu, &s0);
		flags = irq_save();
		t0 = rdtsc();
		uncore_read(&uncore, fixed, &c0);
		while (rdtsc() - t0 < window)
			cpu_relax();
		uncore_read(&uncore, fixed, &c1);
		t1 = rdtsc();
		irq_restore(flags);
		pmu_smi_count(&pmu, &s1);
		uncore_global_ctrl_write(&uncore, 0, err, sizeof(err));
		if (s1 != s0) {
			smi_dropped++;
			continue;
		}
		mhz[kept++] = (int64_t)(uncore_delta(c0, c1, uncore_width(uncore.kind, UNC_BOX_FIXED)) *
					(tsc.hz / 1000) / ((t1 - t0) ? (t1 - t0) : 1) / 1000);
	}
	if (kept < CLOCK_WINDOWS / 2)
		return check_result(c, CHECK_FAIL, "%u of %u windows took an SMI", "most windows clean",
				    smi_dropped, CLOCK_WINDOWS);
	med = i64_median(mhz, kept);
	for (unsigned i = 0; i < kept; i++)
		if (mhz[i] * 10 >= med * 9 && mhz[i] * 10 <= med * 11)
			near++;
	/* Gating: local enable on, global enable off, the counter stands still. */
	uncore_fixed_program(&uncore, true, false, 0, err, sizeof(err));
	uncore_read(&uncore, fixed, &gated0);
	{
		uint64_t t0 = rdtsc();

		while (rdtsc() - t0 < window)
			cpu_relax();
	}
	uncore_read(&uncore, fixed, &gated1);
	uncore_reset(&uncore);
	if (med < (int64_t)lo_mhz || med > (int64_t)hi_mhz)
		return check_result(c, CHECK_FAIL, "%lld MHz (median of %u 1-ms windows)", "%llu..%llu "
				    "MHz (%s): %s the range", (long long)med, kept,
				    (unsigned long long)lo_mhz, (unsigned long long)hi_mhz, why,
				    range_why(med, (int64_t)lo_mhz, (int64_t)hi_mhz));
	if (near * 4 < kept * 3)
		return check_result(c, CHECK_FAIL, "%lld MHz median, only %u of %u windows within 10%%",
				    "a stable clock: >= 3/4 of the windows within 10%% of the median",
				    (long long)med, near, kept);
	if (gated1 != gated0)
		return check_result(c, CHECK_FAIL, "the fixed counter moved %llu with the global enable clear",
				    "0 (local enable is gated by the global one)",
				    (unsigned long long)(gated1 - gated0));
	return check_result(c, CHECK_PASS, "%lld MHz median, %u of %u 1-ms windows within 10%%, 0 with the "
			    "global enable clear", "%llu..%llu MHz (%s), >= 3/4 within 10%%, 0 "
			    "smi_dropped=%u", (long long)med, near, kept, (unsigned long long)lo_mhz,
			    (unsigned long long)hi_mhz, why, smi_dropped);
}

static enum check_status check_uncore_skl_clock(struct check_ctx *c)
{
	if (no_skl())
		return check_skip(c, "%s", no_skl());
	/* Client ring (UCLK) ratios run from 8 to about 48 (0.8-4.8 GHz at 100 MHz BCLK): a
	 * dead counter (0), one on the 100 MHz BCLK or on the 24 MHz crystal fails. */
	return uclk_check(c, 200, 6000, "a client ring clock, 0.8-4.8 GHz, with margin");
}
/* Uncore (tests/checks/uncore.c): SKIP unless discovery found that uncore. */
CHECK_DEFINE(660, "uncore.skl.clock", check_uncore_skl_clock,
	     "Skylake uncore: UNC_CLOCK.SOCKET against the TSC, a plausible and stable UCLK; gated by the global EN",
	     .flags = CHECK_PACKAGE);

static enum check_status check_uncore_nhm_fixed(struct check_ctx *c)
{
	if (no_nhm())
		return check_skip(c, "%s", no_nhm());
	/* Nehalem's uncore runs at 2.13-3.2 GHz (a multiple of the 133 MHz BCLK). */
	return uclk_check(c, 500, 6000, "Nehalem's uncore clock, 2.1-3.2 GHz, with margin");
}
CHECK_DEFINE(780, "uncore.nhm.fixed", check_uncore_nhm_fixed,
	     "Nehalem uncore: the fixed UCLK counter against the TSC; gated by EN_FC0",
	     .flags = CHECK_PACKAGE);

/* ---- Skylake: CBo lookups, ARB requests, DRAM reads and writes ----------------------- */

/* Counter 0 of every CBo with one event: the seed's recommended sum (3.1). */
static unsigned all_cbos(struct unc_cfg *cfg, uint8_t event, uint8_t umask)
{
	for (unsigned b = 0; b < uncore.num_cbo; b++)
		cfg[b] = (struct unc_cfg){ .ctr = CBO(b, 0), .sel = { .event = event, .umask = umask } };
	return uncore.num_cbo;
}

static int64_t sum_diff(const struct unc_diff *d, unsigned n)
{
	int64_t s = 0;

	for (unsigned i = 0; i < n; i++)
		s += d->diff[i];
	return s;
}

/*
 * UNC_CBO_CACHE_LOOKUP.READ_MESI (34H/1FH, seed 001 Table 3-1): every read lookup whatever
 * the line's state, i.e. every read that missed the L2. Over a warm chase of 4x the L2 (and
 * at most half the LLC) a random step misses the L2 with probability 3/4: the sum over all
 * CBos must reach N/2 (prefetches only add: at most 3N + 1024), and each CBo a share
 * (>= N / (8 * CBos): the slices hash lines between them). Over a chase of half the L2 no
 * read reaches a CBo: <= N/16 + 1024.
 */
static enum check_status check_uncore_skl_cbo_lookup(struct check_ctx *c)
{
	struct expect_range drive, quiet;
	struct unc_cfg cfg[UNC_SKL_MAX_CBO];
	struct unc_run_opts o = { .reps = UNC_REPS };
	uint64_t l2 = cpu_cache_bytes(2), llc = cpu_cache_bytes(3), n, nq, ws;
	char err[PMU_ERR_LEN], shares[64] = "";
	struct unc_diff d, q;
	unsigned nc;
	int64_t sum, qsum;
	void *first;

	if (no_skl())
		return check_skip(c, "%s", no_skl());
	if (!l2 || !llc)
		return check_skip(c, "CPUID leaf 4 reports no L2 or L3 (L2 %llu, L3 %llu bytes)",
				  (unsigned long long)l2, (unsigned long long)llc);
	ws = 4 * l2 < llc / 2 ? 4 * l2 : llc / 2;
	if (ws > env.buf_size || ws < 2 * l2)
		return check_skip(c, "no working set between 2x the L2 (%llu) and half the LLC (%llu) "
				  "fits the %llu-byte buffer", (unsigned long long)l2,
				  (unsigned long long)llc, (unsigned long long)env.buf_size);
	nc = all_cbos(cfg, UNC_CBO_CACHE_LOOKUP, UNC_CBO_LOOKUP_READ_MESI);
	first = warm_chase(ws, &n);
	if (uncore_run_differential(cfg, nc, &kernel_chase_desc, n, first, &o, &d, err, sizeof(err)))
		return check_error(c, err, "CBo lookups counted");
	first = warm_chase(l2 / 2, &nq);
	if (uncore_run_differential(cfg, nc, &kernel_chase_desc, nq, first, &o, &q, err, sizeof(err)))
		return check_error(c, err, "CBo lookups counted");
	sum = sum_diff(&d, nc);
	qsum = sum_diff(&q, nc);
	for (unsigned b = 0; b < nc; b++) {
		char one[20];

		fmt_snprintf(one, sizeof(one), "%s%lld", b ? "+" : "", (long long)d.diff[b]);
		str_lcat(shares, one, sizeof(shares));
	}
	drive = expect_unc(UNC_DRIVE_LLC, n);
	quiet = expect_unc(UNC_QUIET_CACHE, nq);
	if (sum < drive.lo || sum > drive.hi)
		return check_result(c, CHECK_FAIL, "%lld read lookups (%s) over %llu steps of a %llu-byte chase",
				    "%lld..%lld (a step misses the %llu-byte L2 with p=3/4)%s",
				    (long long)sum, shares, (unsigned long long)n, (unsigned long long)ws,
				    (long long)drive.lo, (long long)drive.hi, (unsigned long long)l2,
				    unc_diff_note(&d));
	for (unsigned b = 0; b < nc; b++)
		if (d.diff[b] < (int64_t)(n / (8 * nc)))
			return check_result(c, CHECK_FAIL, "CBo %u counted %lld of %lld lookups (%s)", ">= "
					    "%llu each (the slices hash the lines between them)", b,
					    (long long)d.diff[b], (long long)sum, shares,
					    (unsigned long long)(n / (8 * nc)));
	if (qsum > quiet.hi)
		return check_result(c, CHECK_FAIL, "%lld read lookups over %llu steps of an L2-resident chase",
				    "<= %lld (hits in the L2 never reach a CBo)%s", (long long)qsum,
				    (unsigned long long)nq, (long long)quiet.hi, unc_diff_note(&q));
	return check_result(c, CHECK_PASS, "%lld (%s) over %llu steps of 4xL2, %lld over %llu steps of L2/2",
			    "%lld..%lld, each CBo >= %llu; <= %lld%s", (long long)sum, shares,
			    (unsigned long long)n, (long long)qsum, (unsigned long long)nq,
			    (long long)drive.lo, (long long)drive.hi, (unsigned long long)(n / (8 * nc)),
			    (long long)quiet.hi, unc_diff_note(&d));
}
CHECK_DEFINE(670, "uncore.skl.cbo_lookup", check_uncore_skl_cbo_lookup,
	     "Skylake uncore: CBo read lookups summed over all CBos follow the chase's L2 misses",
	     .flags = CHECK_PACKAGE);

/*
 * The two runs the DRAM-driven uncore checks make, counting cfg: the flushed chase over
 * the test buffer (*n steps, each a line from DRAM: *d) and a warm chase of half the L2
 * (*nq steps, whose lines never leave the core: *q, counting the first nq_cfg of cfg).
 * CHECK_PASS with all four filled, or the check's SKIP or failure, naming what was counted.
 */
static enum check_status dram_and_quiet(struct check_ctx *c, const struct unc_cfg *cfg,
					unsigned ncfg, unsigned nq_cfg, const char *what,
					uint64_t *n, struct unc_diff *d, uint64_t *nq,
					struct unc_diff *q)
{
	struct unc_run_opts o = { .reps = UNC_REPS, .before = flush_before };
	struct unc_run_opts oq = { .reps = UNC_REPS };
	uint64_t l2 = cpu_cache_bytes(2);
	char err[PMU_ERR_LEN];
	void *first;

	if (!l2)
		return check_skip(c, "CPUID leaf 4 reports no L2");
	first = dram_chase(n);
	if (!*n)
		return check_result(c, CHECK_FAIL, "no test buffer", "a buffer for the chase");
	if (uncore_run_differential(cfg, ncfg, &kernel_chase_desc, *n, first, &o, d, err,
				    sizeof(err)))
		return check_error(c, err, "%s counted", what);
	first = warm_chase(l2 / 2, nq);
	if (uncore_run_differential(cfg, nq_cfg, &kernel_chase_desc, *nq, first, &oq, q, err,
				    sizeof(err)))
		return check_error(c, err, "%s counted", what);
	return CHECK_PASS;
}

/*
 * UNC_ARB_TRK_REQUESTS.ALL (81H/01H) on ARB counter 1 and UNC_ARB_TRK_OCCUPANCY.ALL
 * (80H/01H, counter 0 only) over the flushed DRAM chase: every step is an LLC miss, whose
 * request the ARB allocates: >= 3/4 N, at most 4N + 4096 (page walks, prefetches, other
 * agents); each allocated entry stays valid at least one cycle: occupancy >= requests. A
 * chase of half the L2 sends nothing: <= N/16 + 1024.
 */
static enum check_status check_uncore_skl_arb_requests(struct check_ctx *c)
{
	struct expect_range dram, quiet;
	struct unc_cfg cfg[2] = {
		{ .ctr = ARB(0), .sel = { .event = UNC_ARB_TRK_OCCUPANCY,
					  .umask = UNC_ARB_TRK_OCCUPANCY_ALL } },
		{ .ctr = ARB(1), .sel = { .event = UNC_ARB_TRK_REQUESTS,
					  .umask = UNC_ARB_TRK_REQUESTS_ALL } },
	};
	uint64_t n, nq;
	struct unc_diff d, q;
	enum check_status st;

	if (no_skl())
		return check_skip(c, "%s", no_skl());
	st = dram_and_quiet(c, cfg, 2, 2, "ARB requests", &n, &d, &nq, &q);
	if (st != CHECK_PASS)
		return st;
	dram = expect_unc(UNC_DRIVE_DRAM, n);
	quiet = expect_unc(UNC_QUIET_CACHE, nq);
	if (d.diff[1] < dram.lo || d.diff[1] > dram.hi)
		return check_result(c, CHECK_FAIL, "%lld requests over %llu flushed steps", "%llu..%lld "
				    "(one LLC miss a step)%s", (long long)d.diff[1], (unsigned long long)n,
				    (unsigned long long)dram.lo, (long long)dram.hi,
				    unc_diff_note(&d));
	if (d.diff[0] < d.diff[1])
		return check_result(c, CHECK_FAIL, "occupancy %lld < %lld requests", "occupancy >= "
				    "requests (an entry is valid for at least one cycle)",
				    (long long)d.diff[0], (long long)d.diff[1]);
	if (q.diff[1] > quiet.hi)
		return check_result(c, CHECK_FAIL, "%lld requests over %llu steps of an L2-resident chase",
				    "<= %lld%s", (long long)q.diff[1], (unsigned long long)nq,
				    (long long)quiet.hi, unc_diff_note(&q));
	return check_result(c, CHECK_PASS, "%lld requests, occupancy %lld over %llu flushed steps; %lld "
			    "over %llu L2-resident steps", "%llu..%lld, occupancy >= requests; "
			    "<= %lld%s", (long long)d.diff[1], (long long)d.diff[0], (unsigned long long)n,
			    (long long)q.diff[1], (unsigned long long)nq, (unsigned long long)dram.lo,
			    (long long)dram.hi, (long long)quiet.hi, unc_diff_note(&d));
}
CHECK_DEFINE(680, "uncore.skl.arb_requests", check_uncore_skl_arb_requests,
	     "Skylake uncore: ARB requests follow the flushed chase's LLC misses; occupancy >= requests",
	     .flags = CHECK_PACKAGE);

static const char *no_imc(void)
{
	return uncore_imc_unavailable_reason(&uncore);
}

/* The IMC counters need no uncore MSR: a run with no counter, the IMC read around it. */
static int imc_run(const struct kernel_desc *k, uint64_t n, void *arg, bool flush,
		   struct unc_diff *d, char *err, size_t errlen)
{
	struct unc_run_opts o = { .reps = UNC_REPS, .imc = true,
				  .before = flush ? flush_before : NULL };

	return uncore_run_differential(NULL, 0, k, n, arg, &o, d, err, errlen);
}

/*
 * DRAM_DATA_READS (MCHBAR+5050H, seed 001 Table 3-3: every RdCAS, 64 bytes) over the flushed
 * DRAM chase: >= 3/4 N, and no more than the requests of every agent; at most 4N + 8192, since the counter sums every agent (a display
 * scanning out 4K at 60 Hz reads about 31 lines a microsecond, some 2.5 lines per 80-ns
 * step). Over a chase of half the L2: <= N/8 + 8192.
 */
static enum check_status check_uncore_skl_imc_reads(struct check_ctx *c)
{
	struct expect_range imc, quiet;
	uint64_t l2 = cpu_cache_bytes(2), n, nq;
	char err[PMU_ERR_LEN];
	struct unc_diff d, q;
	int64_t r, rq, req;
	void *first;

	if (no_imc())
		return check_skip(c, "%s", no_imc());
	if (!l2)
		return check_skip(c, "CPUID leaf 4 reports no L2");
	first = dram_chase(&n);
	if (!n)
		return check_result(c, CHECK_FAIL, "no test buffer", "a buffer for the chase");
	if (imc_run(&kernel_chase_desc, n, first, true, &d, err, sizeof(err)))
		return check_error(c, err, "DRAM reads counted");
	first = warm_chase(l2 / 2, &nq);
	if (imc_run(&kernel_chase_desc, nq, first, false, &q, err, sizeof(err)))
		return check_error(c, err, "DRAM reads counted");
	r = d.imc[UNC_IMC_DATA_READS];
	rq = q.imc[UNC_IMC_DATA_READS];
	imc = expect_unc(UNC_DRIVE_IMC, n);
	quiet = expect_unc(UNC_QUIET_IMC, nq);
	if (r < imc.lo || r > imc.hi)
		return check_result(c, CHECK_FAIL, "%lld DRAM_DATA_READS over %llu flushed steps", "%llu..%lld (one line from DRAM a step)%s", (long long)r,
				    (unsigned long long)n, (unsigned long long)imc.lo,
				    (long long)imc.hi, unc_diff_note(&d));
	/* Seed 001 Table 3-3: every request (GT, IA with its prefetches, IO) that reaches the
	 * controller becomes 64-byte transfers, reads one RdCAS each; partial writes combine,
	 * so on a read-only chase RdCAS cannot outnumber the requests of every agent (10% and
	 * 1024 for requests that straddle the window's edges). The core's own requests (IA)
	 * carry the chase: >= 3/4 N. A controller counting a line twice fails here, whatever
	 * the prefetchers add (their requests are counted too). */
	req = d.imc[UNC_IMC_GT_REQUESTS] + d.imc[UNC_IMC_IA_REQUESTS] + d.imc[UNC_IMC_IO_REQUESTS];
	if (d.imc[UNC_IMC_IA_REQUESTS] < imc.lo || r > req + req / 10 + 1024)
		return check_result(c, CHECK_FAIL, "%lld DRAM_DATA_READS, %lld requests (IA %lld, GT %lld, "
				    "IO %lld) over %llu flushed steps", "reads <= requests + 10%% + "
				    "1024 (one 64-byte RdCAS per read request), IA requests >= %llu%s",
				    (long long)r, (long long)req, (long long)d.imc[UNC_IMC_IA_REQUESTS],
				    (long long)d.imc[UNC_IMC_GT_REQUESTS],
				    (long long)d.imc[UNC_IMC_IO_REQUESTS], (unsigned long long)n,
				    (unsigned long long)imc.lo, unc_diff_note(&d));
	if (rq > quiet.hi)
		return check_result(c, CHECK_FAIL, "%lld DRAM_DATA_READS over %llu L2-resident steps", "<= %lld%s", (long long)rq, (unsigned long long)nq,
				    (long long)quiet.hi, unc_diff_note(&q));
	return check_result(c, CHECK_PASS, "%lld over %llu flushed steps (%lld requests), %lld over %llu "
			    "L2-resident steps", "%llu..%lld and <= requests + 10%%; <= %lld "
			    "(MCHBAR 0x%llx)%s", (long long)r, (unsigned long long)n, (long long)req,
			    (long long)rq, (unsigned long long)nq, (unsigned long long)imc.lo,
			    (long long)imc.hi, (long long)quiet.hi,
			    (unsigned long long)uncore.mchbar, unc_diff_note(&d));
}
CHECK_DEFINE(690, "uncore.skl.imc_reads", check_uncore_skl_imc_reads,
	     "Skylake IMC: DRAM_DATA_READS follows the LLC misses of a DRAM-sized chase",
	     .flags = CHECK_PACKAGE);

/* Lines the store kernels write: 2n lines of the buffer must be free. */
static uint64_t store_lines(void)
{
	uint64_t n = env.buf_size / 128;

	return n < 65536 ? n : 65536;	/* 4 MiB at n, 8 MiB at 2n */
}

/*
 * DRAM_DATA_WRITES (MCHBAR+5054H: every WrCAS, 64 bytes) over kernel_store_nt, one line of
 * MOVNTI a step (8 x 8 bytes, write-combined into one full line that bypasses the caches):
 * bytes / 64 = N lines more at 2N: >= 9/10 N, at most 2N + 8192 (dirty lines an earlier
 * run left, other agents). Over a read-only chase of half the L2: <= N/16 + 8192.
 */
static enum check_status check_uncore_skl_imc_writes(struct check_ctx *c)
{
	struct expect_range st, quiet;
	uint64_t l2 = cpu_cache_bytes(2), n = store_lines(), nq;
	char err[PMU_ERR_LEN];
	struct unc_diff d, q;
	int64_t w, wq;
	void *first;

	if (no_imc())
		return check_skip(c, "%s", no_imc());
	if (!l2 || !n)
		return check_skip(c, "CPUID leaf 4 reports no L2, or no buffer");
	if (imc_run(&kernel_store_nt_desc, n, (void *)(uintptr_t)env.buf, false, &d, err, sizeof(err)))
		return check_error(c, err, "DRAM writes counted");
	first = warm_chase(l2 / 2, &nq);
	if (imc_run(&kernel_chase_desc, nq, first, false, &q, err, sizeof(err)))
		return check_error(c, err, "DRAM writes counted");
	w = d.imc[UNC_IMC_DATA_WRITES];
	wq = q.imc[UNC_IMC_DATA_WRITES];
	st = expect_unc(UNC_DRIVE_STORES, n);
	quiet = expect_unc(UNC_QUIET_IMC_WRITES, nq);
	if (w < st.lo || w > st.hi)
		return check_result(c, CHECK_FAIL, "%lld DRAM_DATA_WRITES for %llu more bytes of MOVNTI",
				    "%llu..%lld (bytes / 64 = %llu)%s", (long long)w,
				    (unsigned long long)(n * 64), (unsigned long long)st.lo,
				    (long long)st.hi, (unsigned long long)n, unc_diff_note(&d));
	if (wq > quiet.hi)
		return check_result(c, CHECK_FAIL, "%lld DRAM_DATA_WRITES over %llu steps of a read-only chase",
				    "<= %lld%s", (long long)wq, (unsigned long long)nq,
				    (long long)quiet.hi, unc_diff_note(&q));
	return check_result(c, CHECK_PASS, "%lld for %llu bytes of MOVNTI, %lld over a read-only chase",
			    "%llu..%lld (bytes / 64 = %llu); <= %lld%s", (long long)w,
			    (unsigned long long)(n * 64), (long long)wq, (unsigned long long)st.lo,
			    (long long)st.hi, (unsigned long long)n, (long long)quiet.hi,
			    unc_diff_note(&d));
}
CHECK_DEFINE(700, "uncore.skl.imc_writes", check_uncore_skl_imc_writes,
	     "Skylake IMC: DRAM_DATA_WRITES equals the streaming stores' bytes / 64",
	     .flags = CHECK_PACKAGE);

/* ---- Skylake: overflow, width, RW1C, restrictions ------------------------------------ */

#define OVF_MARGIN	64	/* events short of the width each counter starts */

struct ovf_run {
	uint64_t fixed, arb, cbo;	/* values after the run */
	uint64_t status;		/* the global status after it */
	int fault;
	char err[PMU_ERR_LEN];
};

/*
 * The fixed counter, ARB counter 1 (TRK_REQUESTS.ALL) and counter 0 of every CBo (READ_MESI)
 * start OVF_MARGIN short of 2^48 / 2^44, with OVF_EN and no core selected (no PMI); 4096
 * flushed chase steps (at least 3072 requests and lookups) and 1 ms of UCLK (at least 200000
 * cycles) pass the margin.
 */
static void overflow_all(struct ovf_run *o)
{
	struct uncore_evtsel req = { .event = UNC_ARB_TRK_REQUESTS, .umask = UNC_ARB_TRK_REQUESTS_ALL,
				     .ovf_en = true, .en = true };
	struct uncore_evtsel look = { .event = UNC_CBO_CACHE_LOOKUP, .umask = UNC_CBO_LOOKUP_READ_MESI,
				      .ovf_en = true, .en = true };
	uint64_t w44 = 1ULL << UNC_SKL_CTR_WIDTH, w48 = 1ULL << UNC_SKL_FIXED_WIDTH, n, flags, t0;
	void *first = dram_chase(&n);

	memset(o, 0, sizeof(*o));
	uncore_claim();
	uncore_reset(&uncore);
	if ((o->fault = uncore_fixed_program(&uncore, true, true, w48 - OVF_MARGIN, o->err,
					     sizeof(o->err))) ||
	    (o->fault = uncore_program(&uncore, ARB(1), &req, w44 - OVF_MARGIN, o->err, sizeof(o->err))))
		return;
	for (unsigned b = 0; b < uncore.num_cbo; b++)
		if ((o->fault = uncore_program(&uncore, CBO(b, 0), &look, w44 - OVF_MARGIN, o->err,
					       sizeof(o->err))))
			return;
	n = n < 4096 ? n : 4096;
	chase_flush(first, n);
	flags = irq_save();
	if ((o->fault = uncore_global_ctrl_write(&uncore, UNC_GLOBAL_CTRL_EN, o->err, sizeof(o->err)))) {
		irq_restore(flags);
		return;
	}
	kernel_chase_desc.fn(n, first);
	for (t0 = rdtsc(); rdtsc() - t0 < tsc_from_us(1000);)
		cpu_relax();
	uncore_global_ctrl_write(&uncore, 0, o->err, sizeof(o->err));
	irq_restore(flags);
	uncore_read(&uncore, FIXED, &o->fixed);
	uncore_read(&uncore, ARB(1), &o->arb);
	uncore_cbo_sum(&uncore, 0, &o->cbo);
	uncore_global_status(&uncore, &o->status);
}

/*
 * Widths (seed 001 Table 1-2, 2-5, 2-8): 2^w - 1 written reads back exactly (a narrower
 * counter fails); started OVF_MARGIN short of 2^w and driven past it, each counter wraps to
 * a small value (a wider counter does not).
 */
static enum check_status check_uncore_skl_counter_width(struct check_ctx *c)
{
	struct uncore_evtsel look = { .event = UNC_CBO_CACHE_LOOKUP, .umask = UNC_CBO_LOOKUP_READ_MESI };
	uint64_t m44 = (1ULL << 44) - 1, m48 = (1ULL << 48) - 1, v[3] = { 0, 0, 0 };
	char err[PMU_ERR_LEN];
	struct ovf_run o;
	int above;

	if (no_skl())
		return check_skip(c, "%s", no_skl());
	uncore_claim();
	if (uncore_program(&uncore, CBO(0, 1), &look, m44, err, sizeof(err)) ||
	    uncore_program(&uncore, ARB(0), &look, m44, err, sizeof(err)) ||
	    uncore_fixed_program(&uncore, false, false, m48, err, sizeof(err)))
		return check_error(c, err, "counters written");
	uncore_read(&uncore, CBO(0, 1), &v[0]);
	uncore_read(&uncore, ARB(0), &v[1]);
	uncore_read(&uncore, FIXED, &v[2]);
	/* A value past the width: refused with #GP, or cut to the width (both are hardware's
	 * choice for reserved counter bits; reported). */
	above = uncore_write(&uncore, CBO(0, 1), m44 + 1);
	uncore_reset(&uncore);
	if (v[0] != m44 || v[1] != m44 || v[2] != m48)
		return check_result(c, CHECK_FAIL, "CBo 0x%llx ARB 0x%llx fixed 0x%llx after writing 2^w-1",
				    "0x%llx, 0x%llx, 0x%llx (44, 44, 48 bits)",
				    (unsigned long long)v[0], (unsigned long long)v[1],
				    (unsigned long long)v[2], (unsigned long long)m44,
				    (unsigned long long)m44, (unsigned long long)m48);
	overflow_all(&o);
	uncore_reset(&uncore);
	if (o.fault)
		return check_error(c, o.err, "the overflow run programmed");
	if (o.fixed >= m48 - OVF_MARGIN || o.arb >= m44 - OVF_MARGIN ||
	    o.cbo >= uncore.num_cbo * (m44 - OVF_MARGIN) || o.fixed > (1ULL << 40) ||
	    o.arb > (1ULL << 30) || o.cbo > (1ULL << 30))
		return check_result(c, CHECK_FAIL, "fixed 0x%llx ARB 0x%llx CBo sum 0x%llx after starting %u "
				    "short of 2^48/2^44", "each wrapped to a small value",
				    (unsigned long long)o.fixed, (unsigned long long)o.arb,
				    (unsigned long long)o.cbo, OVF_MARGIN);
	return check_result(c, CHECK_PASS, "2^w-1 read back (44, 44, 48 bits); wrapped to fixed %llu, ARB "
			    "%llu, CBo sum %llu; a CBo write of 2^44 %s", "same",
			    (unsigned long long)o.fixed, (unsigned long long)o.arb,
			    (unsigned long long)o.cbo, above ? "faulted" : "was taken (cut to the width)");
}
CHECK_DEFINE(710, "uncore.skl.counter_width", check_uncore_skl_counter_width,
	     "Skylake uncore: CBo and ARB counters 44 bits, the fixed one 48: exact read-back and wrap",
	     .flags = CHECK_PACKAGE);

/* Seed 001 Table 2-3: each overflow sets its box's bit; writing 0 changes nothing, writing 1
 * clears exactly that bit. */
static enum check_status check_uncore_skl_status_w1c(struct check_ctx *c)
{
	uint64_t want = UNC_GLOBAL_STATUS_FIXED_OVF | UNC_GLOBAL_STATUS_ARB_OVF |
			UNC_GLOBAL_STATUS_CBO_OVF, s0 = 0, s1 = 0, s2 = 0;
	struct ovf_run o;

	if (no_skl())
		return check_skip(c, "%s", no_skl());
	overflow_all(&o);
	if (o.fault) {
		uncore_reset(&uncore);
		return check_error(c, o.err, "the overflow run programmed");
	}
	uncore_global_status_write(&uncore, 0);
	uncore_global_status(&uncore, &s0);
	uncore_global_status_write(&uncore, UNC_GLOBAL_STATUS_FIXED_OVF);
	uncore_global_status(&uncore, &s1);
	uncore_global_status_write(&uncore, UNC_GLOBAL_STATUS_ARB_OVF | UNC_GLOBAL_STATUS_CBO_OVF);
	uncore_global_status(&uncore, &s2);
	uncore_reset(&uncore);
	if ((o.status & want) != want)
		return check_result(c, CHECK_FAIL, "status 0x%llx after fixed, ARB and CBo overflows",
				    "bits 0, 1, 3 (0x%llx) set", (unsigned long long)o.status,
				    (unsigned long long)want);
	if (s0 != o.status)
		return check_result(c, CHECK_FAIL, "status 0x%llx after writing 0", "0x%llx unchanged",
				    (unsigned long long)s0, (unsigned long long)o.status);
	if (s1 != (o.status & ~UNC_GLOBAL_STATUS_FIXED_OVF))
		return check_result(c, CHECK_FAIL, "status 0x%llx after writing 1 to bit 0", "0x%llx",
				    (unsigned long long)s1,
				    (unsigned long long)(o.status & ~UNC_GLOBAL_STATUS_FIXED_OVF));
	if (s2 & want)
		return check_result(c, CHECK_FAIL, "status 0x%llx after writing 1 to bits 1, 3", "0",
				    (unsigned long long)s2);
	return check_result(c, CHECK_PASS, "status 0x%llx; 0x%llx after writing 0; 0x%llx after 1 to bit 0; "
			    "0x%llx after 1 to bits 1, 3", "bits 0, 1, 3 set, RW1C",
			    (unsigned long long)o.status, (unsigned long long)s0,
			    (unsigned long long)s1, (unsigned long long)s2);
}
CHECK_DEFINE(720, "uncore.skl.status_w1c", check_uncore_skl_status_w1c,
	     "Skylake uncore: overflow bits 0, 1, 3 of MSR_UNC_PERF_GLOBAL_STATUS are write-1-to-clear",
	     .flags = CHECK_PACKAGE);

/* Seed 001 Table 3-2: UNC_ARB_TRK_OCCUPANCY (80H) counts on ARB counter 0 only. The library
 * refuses it on counter 1 (writing nothing); on counter 0 it counts the flushed chase. */
static enum check_status check_uncore_skl_restrictions(struct check_ctx *c)
{
	struct expect_range dram;
	struct unc_cfg cfg = { .ctr = ARB(0), .sel = { .event = UNC_ARB_TRK_OCCUPANCY,
						       .umask = UNC_ARB_TRK_OCCUPANCY_ALL, .en = true } };
	struct unc_run_opts o = { .reps = UNC_REPS, .before = flush_before };
	char err[PMU_ERR_LEN] = "", err2[PMU_ERR_LEN];
	struct unc_diff d;
	uint64_t n;
	void *first;
	int r;

	if (no_skl())
		return check_skip(c, "%s", no_skl());
	uncore_claim();
	r = uncore_program(&uncore, ARB(1), &cfg.sel, 0, err, sizeof(err));
	if (r != PMU_EARG || !glob_match("*counter 0 only*", err))
		return check_result(c, CHECK_FAIL, "uncore_program returned %d (%s) for ARB occupancy on counter 1",
				    "refused (%d) naming the restriction", r, err, PMU_EARG);
	first = dram_chase(&n);
	n = n < 4096 ? n : 4096;
	if (uncore_run_differential(&cfg, 1, &kernel_chase_desc, n, first, &o, &d, err2, sizeof(err2)))
		return check_error(c, err2, "ARB occupancy counted on counter 0");
	dram = expect_unc(UNC_DRIVE_DRAM, n);
	if (d.diff[0] < dram.lo)
		return check_result(c, CHECK_FAIL, "occupancy %lld over %llu flushed steps on counter 0",
				    ">= %llu (each LLC miss holds an entry >= 1 cycle)%s",
				    (long long)d.diff[0], (unsigned long long)n,
				    (unsigned long long)dram.lo, unc_diff_note(&d));
	return check_result(c, CHECK_PASS, "refused on counter 1 (\"%s\"); occupancy %lld over %llu flushed "
			    "steps on counter 0", "refused; >= %llu%s", err, (long long)d.diff[0],
			    (unsigned long long)n, (unsigned long long)dram.lo, unc_diff_note(&d));
}
CHECK_DEFINE(730, "uncore.skl.restrictions", check_uncore_skl_restrictions,
	     "Skylake uncore: ARB occupancy refused on counter 1, counted on counter 0",
	     .flags = CHECK_PACKAGE);

/* ---- Skylake: uncore PMI and freeze (one CPU) ---------------------------------------- */

static struct {
	unsigned pmis, nmis;
	uint64_t status_seen, status_after, core_status;
	uint32_t lvt;
	bool clear;		/* the handler clears the uncore status (RW1C) */
} upmi;

static void unc_pmi_irq(struct trap_frame *f)
{
	uint64_t st = 0, cs = 0;

	(void)f;
	upmi.pmis++;
	upmi.lvt = apic_read(APIC_LVTPC);
	uncore_global_status(&uncore, &st);
	upmi.status_seen |= st;
	if (pmu.version >= 3 && !pmu_global_status(&pmu, &cs)) {
		upmi.core_status |= cs;
		pmu_global_ovf_clear(&pmu, GLOBAL_STATUS_UNCORE_OVF);
	}
	if (upmi.clear) {
		uncore_global_status_clear(&uncore, st);
		uncore_global_status(&uncore, &upmi.status_after);
	}
	apic_write(APIC_LVTPC, (upmi.lvt & ~APIC_LVT_MASKED) & ~APIC_LVT_DELIVERY_PENDING);
	apic_eoi();
}

static void unc_nmi(struct trap_frame *f)
{
	(void)f;
	upmi.nmis++;
}

static uint64_t unexpected_total(void)
{
	struct percpu *cpu = this_cpu();
	uint64_t t = 0;

	for (unsigned v = 0; v < NR_VECTORS; v++)
		t += cpu->unexpected[v];
	return t;
}

/* The BSP's core number within its package: x2APIC ID above the SMT bits (CPUID.0BH). */
static unsigned bsp_core(void)
{
	struct cpuid_regs smt, core;

	if (env.cpu->max_leaf < 0x0b)
		return env.cpu->initial_apic_id;
	smt = cpuid_count(0x0b, 0);
	core = cpuid_count(0x0b, 1);
	/* Level 1 must be the core level (ECX[15:8] = 2) and wider than the SMT level. */
	if (((core.ecx >> 8) & 0xff) != 2 || (core.eax & 0x1f) <= (smt.eax & 0x1f))
		return smt.edx >> (smt.eax & 0x1f);
	return (smt.edx >> (smt.eax & 0x1f)) &
	       ((1U << ((core.eax & 0x1f) - (smt.eax & 0x1f))) - 1);
}

/* Routes the uncore's PMI: DEBUGCTL.UNCORE_PMI_EN (SDM 18.x: needed for uncore PMIs), the LVT
 * to VECTOR_PMI (fixed delivery), handlers counting PMIs and NMIs. */
static void pmi_route(void)
{
	uint64_t dbg = 0;

	memset(&upmi, 0, sizeof(upmi));
	trap_set_handler(VECTOR_PMI, unc_pmi_irq);
	trap_set_handler(X86_TRAP_NMI, unc_nmi);
	if (!rdmsr_safe(MSR_IA32_DEBUGCTLMSR, &dbg))
		wrmsr_safe(MSR_IA32_DEBUGCTLMSR, dbg | DEBUGCTLMSR_UNCORE_PMI_EN);
	pmu_pmi_lvt_setup(VECTOR_PMI, false);
}

/* Uncore stopped first, then the core's PMU quiesced (DEBUGCTL back, LVT masked, a PMI left
 * waiting drained into the handler), then the handlers go. */
static void pmi_unroute(void)
{
	bool pending = false;

	uncore_reset(&uncore);
	pmu_quiesce(&pmu, VECTOR_PMI, &pending);
	trap_set_handler(VECTOR_PMI, 0);
	trap_set_handler(X86_TRAP_NMI, 0);
}

/* Waits that were redone because the CPU was away (fixed_overflow with redo). */
static unsigned fo_redone;
static uint64_t fo_gap_us;

/* The fixed counter 20000 UCLK short of 2^48 with OVF_EN, global value g; interrupts on for
 * up to wait_us (20000 cycles take 100 us at 200 MHz). With redo, a wait that ended without
 * the PMIs wanted while the waiting loop itself stood still for over 500 us (the CPU was
 * taken away: an SMI on a part, a preempted vCPU on a loaded host, whose TSC runs on) is
 * not a verdict: the counter is set up again and waited for, at most twice more, counted
 * in fo_redone. A loop that never stood still ends the wait as it did. */
static int fixed_overflow(uint64_t g, unsigned want_pmis, uint64_t wait_us, bool redo, char *err,
			  size_t len)
{
	for (unsigned attempt = 0;; attempt++) {
		uint64_t t0, now, last, gap = 0;
		int r;

		if ((r = uncore_fixed_program(&uncore, true, true, (1ULL << 48) - 20000, err, len)) ||
		    (r = uncore_global_ctrl_write(&uncore, g, err, len)))
			return r;
		irq_enable();
		for (t0 = last = rdtsc(); upmi.pmis < want_pmis && (now = rdtsc()) - t0 <
		     tsc_from_us(wait_us); last = now) {
			gap = now - last > gap ? now - last : gap;
			cpu_relax();
		}
		irq_disable();
		if (!redo || upmi.pmis >= want_pmis || gap <= tsc_from_us(500) || attempt == 2)
			return 0;
		fo_redone++;
		fo_gap_us = gap / (tsc.hz / 1000000 ? tsc.hz / 1000000 : 1);
		uncore_reset(&uncore);
		upmi.status_seen = 0;
	}
}

/*
 * With PMI_SEL_CORE clear no PMI arrives (2 ms) though the status bit is set; with the
 * BSP's core selected exactly one PMI arrives on VECTOR_PMI (10 ms), no NMI and no other
 * vector, its LVT entry masked by delivery, the fixed overflow bit set when the handler
 * reads it and clear after it writes 1 there.
 */
static enum check_status check_uncore_skl_pmi(struct check_ctx *c)
{
	unsigned core = bsp_core();
	uint64_t unexpected0, st_quiet = 0;
	char err[PMU_ERR_LEN];
	enum check_status st;
	unsigned quiet_pmis;

	if (no_skl())
		return check_skip(c, "%s", no_skl());
	if (!apic.present)
		return check_skip(c, "no local APIC for the PMI");
	if (core >= 4)
		return check_skip(c, "the BSP is core %u; PMI_SEL_CORE selects cores 0-3 (seed 001 "
				  "Table 2-2)", core);
	uncore_claim();
	unexpected0 = unexpected_total();
	pmi_route();
	upmi.clear = true;
	irq_disable();
	if (fixed_overflow(uncore_global_value(UNCORE_SKL, NULL, 0, 0, false), 1, 2000, false, err,
			   sizeof(err))) {
		st = check_error(c, err, "the fixed counter programmed");
		goto out;
	}
	quiet_pmis = upmi.pmis;
	uncore_global_status(&uncore, &st_quiet);
	uncore_reset(&uncore);
	upmi.status_seen = 0;
	fo_redone = 0;
	if (fixed_overflow(uncore_global_value(UNCORE_SKL, NULL, 0, 1U << core, false), 1, 10000,
			   true, err, sizeof(err))) {
		st = check_error(c, err, "the fixed counter programmed");
		goto out;
	}
	/* Give a second PMI (one that should not come) time to arrive. */
	{
		uint64_t t0 = rdtsc();

		irq_enable();
		while (rdtsc() - t0 < tsc_from_us(1000))
			cpu_relax();
		irq_disable();
	}
	uncore_global_ctrl_write(&uncore, 0, err, sizeof(err));
	if (quiet_pmis || !(st_quiet & UNC_GLOBAL_STATUS_FIXED_OVF))
		st = check_result(c, CHECK_FAIL, "%u PMIs, status 0x%llx with PMI_SEL_CORE 0", "no PMI, "
				  "bit 0 set", quiet_pmis, (unsigned long long)st_quiet);
	else if (upmi.pmis != 1 || upmi.nmis || unexpected_total() != unexpected0)
		st = check_result(c, CHECK_FAIL, "%u PMIs on 0x%x, %u NMIs, %llu interrupts on other vectors "
				  "with PMI_SEL_CORE%u", "1 PMI, nothing else", upmi.pmis, VECTOR_PMI,
				  upmi.nmis, (unsigned long long)(unexpected_total() - unexpected0), core);
	else if (!(upmi.status_seen & UNC_GLOBAL_STATUS_FIXED_OVF) ||
		 (upmi.status_after & UNC_GLOBAL_STATUS_FIXED_OVF))
		st = check_result(c, CHECK_FAIL, "status 0x%llx in the handler, 0x%llx after writing it back",
				  "bit 0 set, then clear (RW1C)",
				  (unsigned long long)upmi.status_seen, (unsigned long long)upmi.status_after);
	else if (!(upmi.lvt & APIC_LVT_MASKED))
		st = check_result(c, CHECK_FAIL, "LVTPC 0x%x at the PMI", "masked by delivery", upmi.lvt);
	else
		st = check_result(c, CHECK_PASS, "0 PMIs unselected; 1 PMI on 0x%x for core %u, status 0x%llx "
				  "then 0x%llx, core GLOBAL_STATUS.Ovf_Uncore[61] %s", "0; 1 PMI, "
				  "nothing else, bit 0 set then cleared", VECTOR_PMI, core,
				  (unsigned long long)upmi.status_seen, (unsigned long long)upmi.status_after,
				  pmu.version < 3 ? "not read (version < 3)" :
				  upmi.core_status & GLOBAL_STATUS_UNCORE_OVF ? "set" : "clear");
	if (fo_redone)
		check_diag(c, "waited again %u time(s) for the selected PMI: the waiting loop stood "
			   "still for %llu us (the CPU was taken away)", fo_redone,
			   (unsigned long long)fo_gap_us);
out:
	pmi_unroute();
	return st;
}
CHECK_DEFINE(740, "uncore.skl.pmi", check_uncore_skl_pmi,
	     "Skylake uncore: an overflow PMI reaches the BSP's core when PMI_SEL_CORE selects it, only then",
	     .flags = CHECK_PACKAGE);

/*
 * FRZ_ON_PMI (seed 001 Table 2-2): the PMI request clears EN and every counter stops: the
 * fixed counter stands still over 1 ms, ARB counter 1 over 1000 flushed chase steps; EN set
 * again, counting resumes.
 */
static enum check_status check_uncore_skl_frz_on_pmi(struct check_ctx *c)
{
	struct uncore_evtsel req = { .event = UNC_ARB_TRK_REQUESTS, .umask = UNC_ARB_TRK_REQUESTS_ALL,
				     .en = true };
	unsigned core = bsp_core();
	uint64_t ctrl = 0, f0 = 0, f1 = 0, a0 = 0, a1 = 0, f2 = 0, n, t0;
	char err[PMU_ERR_LEN];
	enum check_status st;
	void *first;

	if (no_skl())
		return check_skip(c, "%s", no_skl());
	if (!apic.present)
		return check_skip(c, "no local APIC for the PMI");
	if (core >= 4)
		return check_skip(c, "the BSP is core %u; PMI_SEL_CORE selects cores 0-3", core);
	uncore_claim();
	first = dram_chase(&n);
	n = n < 1000 ? n : 1000;
	pmi_route();
	upmi.clear = false;
	irq_disable();
	if (uncore_program(&uncore, ARB(1), &req, 0, err, sizeof(err)) ||
	    fixed_overflow(uncore_global_value(UNCORE_SKL, NULL, 0, 1U << core, true), 1, 10000, false,
			   err, sizeof(err))) {
		st = check_error(c, err, "counters programmed");
		goto out;
	}
	uncore_global_ctrl_read(&uncore, &ctrl);
	uncore_read(&uncore, FIXED, &f0);
	uncore_read(&uncore, ARB(1), &a0);
	chase_flush(first, n);
	kernel_chase_desc.fn(n, first);
	for (t0 = rdtsc(); rdtsc() - t0 < tsc_from_us(1000);)
		cpu_relax();
	uncore_read(&uncore, FIXED, &f1);
	uncore_read(&uncore, ARB(1), &a1);
	uncore_global_ctrl_write(&uncore, UNC_GLOBAL_CTRL_EN, err, sizeof(err));
	for (t0 = rdtsc(); rdtsc() - t0 < tsc_from_us(100);)
		cpu_relax();
	uncore_read(&uncore, FIXED, &f2);
	uncore_global_ctrl_write(&uncore, 0, err, sizeof(err));
	if (upmi.pmis != 1)
		st = check_result(c, CHECK_FAIL, "%u PMIs", "1 (the freeze acts on the PMI request)",
				  upmi.pmis);
	else if (ctrl & UNC_GLOBAL_CTRL_EN)
		st = check_result(c, CHECK_FAIL, "global control 0x%llx after the PMI", "EN (bit 29) "
				  "cleared by FRZ_ON_PMI", (unsigned long long)ctrl);
	else if (f1 != f0 || a1 != a0)
		st = check_result(c, CHECK_FAIL, "fixed moved %llu over 1 ms, ARB requests %llu over %llu "
				  "flushed steps while frozen", "0, 0", (unsigned long long)(f1 - f0),
				  (unsigned long long)(a1 - a0), (unsigned long long)n);
	else if (f2 == f1)
		st = check_result(c, CHECK_FAIL, "fixed still at 0x%llx after EN was set again", "counting "
				  "resumes", (unsigned long long)f2);
	else
		st = check_result(c, CHECK_PASS, "1 PMI, EN cleared (0x%llx), fixed and ARB still over 1 ms and "
				  "%llu flushed steps, fixed +%llu in 100 us once EN was set", "same",
				  (unsigned long long)ctrl, (unsigned long long)n,
				  (unsigned long long)(f2 - f1));
out:
	pmi_unroute();
	return st;
}
CHECK_DEFINE(750, "uncore.skl.frz_on_pmi", check_uncore_skl_frz_on_pmi,
	     "Skylake uncore: FRZ_ON_PMI clears EN and freezes every counter until EN is set again",
	     .flags = CHECK_PACKAGE);

/* ---- Nehalem: GQ, IMC, occupancy -------------------------------------------------------- */

/*
 * UNC_GQ_ALLOC.RT (03H/01H) and .RT_LLC_MISS (03H/02H), seed 000 Table 22: over the flushed
 * DRAM chase every step is an L3 miss allocated in the read tracker: each >= 3/4 N, at most
 * 4N + 4096; over a chase of half the L2 the read tracker stays idle: RT <= N/16 + 1024.
 */
static enum check_status check_uncore_nhm_gq_alloc(struct check_ctx *c)
{
	struct expect_range dram, quiet;
	struct unc_cfg cfg[2] = {
		{ .ctr = NHM(0), .sel = { .event = UNC_GQ_ALLOC, .umask = UNC_GQ_RT } },
		{ .ctr = NHM(1), .sel = { .event = UNC_GQ_ALLOC, .umask = UNC_GQ_RT_LLC_MISS } },
	};
	uint64_t n, nq;
	struct unc_diff d, q;
	enum check_status st;

	if (no_nhm())
		return check_skip(c, "%s", no_nhm());
	st = dram_and_quiet(c, cfg, 2, 1, "GQ allocations", &n, &d, &nq, &q);
	if (st != CHECK_PASS)
		return st;
	dram = expect_unc(UNC_DRIVE_DRAM, n);
	quiet = expect_unc(UNC_QUIET_CACHE, nq);
	for (unsigned i = 0; i < 2; i++)
		if (d.diff[i] < dram.lo || d.diff[i] > dram.hi)
			return check_result(c, CHECK_FAIL, "%lld %s over %llu flushed steps", "%llu..%lld "
					    "(one L3 miss a step)%s", (long long)d.diff[i],
					    i ? "RT_LLC_MISS" : "RT", (unsigned long long)n,
					    (unsigned long long)dram.lo, (long long)dram.hi,
					    unc_diff_note(&d));
	if (q.diff[0] > quiet.hi)
		return check_result(c, CHECK_FAIL, "%lld RT over %llu L2-resident steps", "<= %lld%s",
				    (long long)q.diff[0], (unsigned long long)nq,
				    (long long)quiet.hi, unc_diff_note(&q));
	return check_result(c, CHECK_PASS, "RT %lld, RT_LLC_MISS %lld over %llu flushed steps; RT %lld over "
			    "%llu L2-resident steps", "%llu..%lld each; <= %lld%s",
			    (long long)d.diff[0], (long long)d.diff[1], (unsigned long long)n,
			    (long long)q.diff[0], (unsigned long long)nq, (unsigned long long)dram.lo,
			    (long long)dram.hi, (long long)quiet.hi, unc_diff_note(&d));
}
CHECK_DEFINE(790, "uncore.nhm.gq_alloc", check_uncore_nhm_gq_alloc,
	     "Nehalem uncore: GQ read-tracker allocations follow the flushed chase's L3 misses",
	     .flags = CHECK_PACKAGE);

/* UNC_IMC_NORMAL_READS.ANY (2CH/07H, seed 000 Table 32) over the flushed DRAM chase:
 * >= 3/4 N, <= 4N + 8192 (other agents); over half the L2: <= N/8 + 8192. This socket's IMC
 * only: on a two-socket Xeon 5500 a buffer homed on the other socket is read by that one's
 * (the failure line says so; pmuboot does not yet read the ACPI SRAT to place the buffer). */
static enum check_status check_uncore_nhm_qmc_reads(struct check_ctx *c)
{
	struct expect_range imc, quiet;
	struct unc_cfg cfg = { .ctr = NHM(0), .sel = { .event = UNC_IMC_NORMAL_READS,
						       .umask = UNC_IMC_NORMAL_READS_ANY } };
	uint64_t n, nq;
	struct unc_diff d, q;
	enum check_status st;

	if (no_nhm())
		return check_skip(c, "%s", no_nhm());
	st = dram_and_quiet(c, &cfg, 1, 1, "IMC reads", &n, &d, &nq, &q);
	if (st != CHECK_PASS)
		return st;
	imc = expect_unc(UNC_DRIVE_IMC, n);
	quiet = expect_unc(UNC_QUIET_IMC, nq);
	if (d.diff[0] < imc.lo || d.diff[0] > imc.hi)
		return check_result(c, CHECK_FAIL, "%lld normal reads over %llu flushed steps", "%llu..%lld "
				    "(this socket's IMC: with %u CPUs in the MADT the buffer may be homed "
				    "on another socket)%s", (long long)d.diff[0], (unsigned long long)n,
				    (unsigned long long)imc.lo, (long long)imc.hi,
				    env.ncpus, unc_diff_note(&d));
	if (q.diff[0] > quiet.hi)
		return check_result(c, CHECK_FAIL, "%lld normal reads over %llu L2-resident steps", "<= %lld%s",
				    (long long)q.diff[0], (unsigned long long)nq, (long long)quiet.hi,
				    unc_diff_note(&q));
	return check_result(c, CHECK_PASS, "%lld over %llu flushed steps, %lld over %llu L2-resident steps",
			    "%llu..%lld; <= %lld%s", (long long)d.diff[0], (unsigned long long)n,
			    (long long)q.diff[0], (unsigned long long)nq, (unsigned long long)imc.lo,
			    (long long)imc.hi, (long long)quiet.hi, unc_diff_note(&d));
}
CHECK_DEFINE(800, "uncore.nhm.qmc_reads", check_uncore_nhm_qmc_reads,
	     "Nehalem uncore: IMC normal reads follow the flushed chase's DRAM reads",
	     .flags = CHECK_PACKAGE);

/* UNC_IMC_WRITES.FULL.ANY (2FH/07H) over kernel_store_nt: full lines, one a step: >= 9/10 N,
 * <= 2N + 8192. */
static enum check_status check_uncore_nhm_qmc_writes(struct check_ctx *c)
{
	struct expect_range st;
	struct unc_cfg cfg = { .ctr = NHM(0), .sel = { .event = UNC_IMC_WRITES,
						       .umask = UNC_IMC_WRITES_FULL_ANY } };
	struct unc_run_opts o = { .reps = UNC_REPS };
	uint64_t n = store_lines();
	char err[PMU_ERR_LEN];
	struct unc_diff d;

	if (no_nhm())
		return check_skip(c, "%s", no_nhm());
	if (!n)
		return check_result(c, CHECK_FAIL, "no test buffer", "a buffer for the stores");
	if (uncore_run_differential(&cfg, 1, &kernel_store_nt_desc, n, (void *)(uintptr_t)env.buf,
				    &o, &d, err, sizeof(err)))
		return check_error(c, err, "IMC writes counted");
	st = expect_unc(UNC_DRIVE_STORES, n);
	if (d.diff[0] < st.lo || d.diff[0] > st.hi)
		return check_result(c, CHECK_FAIL, "%lld full-line writes for %llu more bytes of MOVNTI",
				    "%llu..%lld (bytes / 64 = %llu; this socket's IMC, %u CPUs in "
				    "the MADT)%s", (long long)d.diff[0], (unsigned long long)(n * 64),
				    (unsigned long long)st.lo, (long long)st.hi,
				    (unsigned long long)n, env.ncpus, unc_diff_note(&d));
	return check_result(c, CHECK_PASS, "%lld for %llu bytes of MOVNTI", "%llu..%lld (bytes / 64 = "
			    "%llu)%s", (long long)d.diff[0], (unsigned long long)(n * 64),
			    (unsigned long long)st.lo, (long long)st.hi,
			    (unsigned long long)n, unc_diff_note(&d));
}
CHECK_DEFINE(810, "uncore.nhm.qmc_writes", check_uncore_nhm_qmc_writes,
	     "Nehalem uncore: IMC full-line writes equal the streaming stores' bytes / 64",
	     .flags = CHECK_PACKAGE);

/* A locked add across a line boundary: a bus lock, which empties the uncore's queues (seed
 * 000: "the queue must first be emptied ... by the driver issuing a bus lock"). */
static void bus_lock(void)
{
	static uint8_t split[128] __attribute__((aligned(64)));

	asm volatile("lock addl $0, %0" : "+m"(*(volatile uint32_t *)(uintptr_t)(split + 62)) : :
		     "memory");
}

static void lock_before(uint64_t n, void *arg)
{
	(void)n;
	(void)arg;
	bus_lock();
}

static void flush_lock_before(uint64_t n, void *arg)
{
	chase_flush(arg, n);
	bus_lock();
}

/*
 * UNC_GQ_TRACKER_OCCUP.RT (02H/01H, seed 000 Table 22) programmed with OCC_CTR_RST after a
 * bus lock: over the register-only loop (100000 iterations) the read tracker is empty, its
 * occupancy <= UCLK / 100 + 1024 (a queue counter that started from phantom entries would
 * add one per entry per cycle); over the flushed DRAM chase each read-tracker allocation is
 * occupied at least one cycle: occupancy >= allocations (03H/01H).
 */
static enum check_status check_uncore_nhm_occupancy_empty(struct check_ctx *c)
{
	struct unc_cfg cfg[3] = {
		{ .ctr = NHM(0), .sel = { .event = UNC_GQ_TRACKER_OCCUP, .umask = UNC_GQ_RT,
					  .occ_rst = true } },
		{ .ctr = NHM(1), .sel = { .event = UNC_GQ_ALLOC, .umask = UNC_GQ_RT } },
		{ .ctr = FIXED },
	};
	struct unc_run_opts o = { .reps = UNC_REPS, .before = lock_before };
	struct unc_run_opts od = { .reps = UNC_REPS, .before = flush_lock_before };
	char err[PMU_ERR_LEN];
	struct unc_diff q, d;
	uint64_t n;
	void *first;

	if (no_nhm())
		return check_skip(c, "%s", no_nhm());
	if (uncore_run_differential(cfg, 3, &kernel_loop4_desc, 100000, NULL, &o, &q, err,
				    sizeof(err)))
		return check_error(c, err, "occupancy counted");
	first = dram_chase(&n);
	if (uncore_run_differential(cfg, 3, &kernel_chase_desc, n, first, &od, &d, err, sizeof(err)))
		return check_error(c, err, "occupancy counted");
	if (q.diff[0] > q.diff[2] / 100 + 1024)
		return check_result(c, CHECK_FAIL, "read-tracker occupancy %lld over %lld UCLK of a register-only "
				    "loop", "<= %lld (an emptied queue)%s", (long long)q.diff[0],
				    (long long)q.diff[2], (long long)q.diff[2] / 100 + 1024,
				    unc_diff_note(&q));
	if (d.diff[1] <= 0 || d.diff[0] < d.diff[1])
		return check_result(c, CHECK_FAIL, "occupancy %lld, %lld allocations over %llu flushed steps",
				    "occupancy >= allocations > 0%s", (long long)d.diff[0],
				    (long long)d.diff[1], (unsigned long long)n, unc_diff_note(&d));
	return check_result(c, CHECK_PASS, "occupancy %lld over %lld quiet UCLK; %lld over %lld allocations "
			    "(%lld cycles each)", "<= %lld; >= allocations%s", (long long)q.diff[0],
			    (long long)q.diff[2], (long long)d.diff[0], (long long)d.diff[1],
			    (long long)(d.diff[0] / d.diff[1]), (long long)q.diff[2] / 100 + 1024,
			    unc_diff_note(&d));
}
CHECK_DEFINE(820, "uncore.nhm.occupancy_empty", check_uncore_nhm_occupancy_empty,
	     "Nehalem uncore: after a bus lock the read-tracker occupancy starts from an empty queue",
	     .flags = CHECK_PACKAGE);

/* ---- Skylake: two CPUs -------------------------------------------------------------- */

#define XSNP_LINES	16	/* consecutive lines, ping-ponged one after another */
#define XSNP_N		256	/* hand-offs each way on each line */

/*
 * Seed 001 Table 3-1: UNC_CBO_XSNP_RESPONSE.HITM_XCORE (22H/48H): a cross-core snoop, made
 * by a CBo for a core's request, that hit a line modified in another core. Summed over all
 * CBos (seed 001 3.1), a ping-pong between two cores makes one per hand-off: 2n - 1 for a
 * line (the first wait reads the line as this CPU zeroed it). Each line's snoops are made
 * by the one CBo its address hashes to, so the ping-pong visits XSNP_LINES consecutive
 * lines in turn: the sum then covers every slice the hash uses, and a CBo that counts
 * nothing, or that discovery did not find (the CBo count of MSR_UNC_CBO_CONFIG one short),
 * leaves it short, wherever the lines land. 10% either way for what a real core's spin
 * loads and prefetchers add or save; the global enable spans the whole run, so the
 * handful of snoops the frames and the wake-up IPIs cause is inside that margin.
 */
static enum check_status check_uncore_skl_xsnp_hitm(struct check_ctx *c)
{
	struct uncore_evtsel e = { .event = UNC_CBO_XSNP_RESPONSE,
				   .umask = UNC_CBO_XSNP_HITM_XCORE, .en = true };
	struct uncore_ctr ctrs[UNC_SKL_MAX_CBO];
	uint64_t want = XSNP_LINES * (2 * XSNP_N - 1), lo = want - want / 10, hi = want + want / 10;
	uint64_t sum = 0;
	const char *why = NULL;
	char err[PMU_ERR_LEN], stop_err[PMU_ERR_LEN];
	enum check_status st;
	int cpu, r = 0;

	if (no_skl())
		return check_skip(c, "%s", no_skl());
	cpu = xcore_partner(&why);
	if (cpu < 0)
		return check_skip(c, "%s", why);
	uncore_claim();
	for (unsigned b = 0; b < uncore.num_cbo && !r; b++) {
		ctrs[b] = CBO(b, 0);
		r = uncore_program(&uncore, ctrs[b], &e, 0, err, sizeof(err));
	}
	if (!r)
		r = uncore_global_ctrl_write(&uncore, uncore_global_value(UNCORE_SKL, ctrs,
					     uncore.num_cbo, 0, false), err, sizeof(err));
	if (r) {
		st = check_error(c, err, "every CBo's counter 0 programmed");
		goto out;
	}
	for (unsigned l = 0; l < XSNP_LINES && !r; l++)
		r = xcore_pingpong((unsigned)cpu, XSNP_N, l, err, sizeof(err));
	uncore_global_ctrl_write(&uncore, 0, stop_err, sizeof(stop_err));
	if (r) {
		st = check_error(c, err, "a ping-pong with CPU %d", cpu);
		goto out;
	}
	if (uncore_cbo_sum(&uncore, 0, &sum)) {
		st = check_result(c, CHECK_FAIL, "a CBo counter read faulted", "readable counters");
		goto out;
	}
	st = check_result(c, sum < lo || sum > hi ? CHECK_FAIL : CHECK_PASS,
			  "%llu HITM_XCORE over %u CBos", "%llu..%llu: %llu hand-offs over %u lines "
			  "with APIC ID %u", (unsigned long long)sum, uncore.num_cbo,
			  (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)want,
			  XSNP_LINES, smp.cpu[cpu].apic_id);
out:
	uncore_reset(&uncore);
	return st;
}
CHECK_DEFINE(760, "uncore.skl.xsnp_hitm", check_uncore_skl_xsnp_hitm,
	     "CBo XSNP_RESPONSE.HITM_XCORE summed over CBos tracks a two-core ping-pong over 16 lines, 2n-1 hand-offs each",
	     .flags = CHECK_PACKAGE);

/* The other CPU's side of check_uncore_skl_pmi_other_core: its core number, then its PMIs
 * counted for up to 50 ms with interrupts on. */
static struct {
	volatile unsigned pmis[MAX_CPUS];
	volatile bool ready;
	volatile bool stop;
	unsigned core;
} xpmi;

static void xpmi_irq(struct trap_frame *f)
{
	uint64_t st = 0;
	uint32_t lvt = apic_read(APIC_LVTPC);

	(void)f;
	xpmi.pmis[smp_this_cpu() % MAX_CPUS]++;
	uncore_global_status(&uncore, &st);
	uncore_global_status_clear(&uncore, st);
	if (pmu.version >= 3)
		pmu_global_ovf_clear(&pmu, GLOBAL_STATUS_UNCORE_OVF);
	apic_write(APIC_LVTPC, (lvt & ~APIC_LVT_MASKED) & ~APIC_LVT_DELIVERY_PENDING);
	apic_eoi();
}

/* DEBUGCTL.UNCORE_PMI_EN and the LVT to VECTOR_PMI on the CPU this runs on. */
static void xpmi_route_here(void)
{
	uint64_t dbg = 0;

	if (!rdmsr_safe(MSR_IA32_DEBUGCTLMSR, &dbg))
		wrmsr_safe(MSR_IA32_DEBUGCTLMSR, dbg | DEBUGCTLMSR_UNCORE_PMI_EN);
	pmu_pmi_lvt_setup(VECTOR_PMI, false);
}

static void xpmi_partner(void *arg)
{
	uint64_t t0;
	bool pending = false;

	(void)arg;
	xpmi.core = bsp_core();		/* CPUID.0BH of the CPU it runs on */
	xpmi_route_here();
	__atomic_store_n(&xpmi.ready, true, __ATOMIC_RELEASE);
	irq_enable();
	for (t0 = rdtsc(); !xpmi.stop && rdtsc() - t0 < tsc_from_us(50000);)
		cpu_relax();
	irq_disable();
	pmu_quiesce(&pmu, VECTOR_PMI, &pending);
}

/*
 * Seed 001 Table 2-2 PMI_SEL_CORE: an uncore overflow PMI goes to the cores selected. With
 * only the partner's core selected, the fixed counter's overflow must interrupt the partner
 * once and this CPU not at all.
 */
static enum check_status check_uncore_skl_pmi_other_core(struct check_ctx *c)
{
	const char *why = NULL;
	char err[PMU_ERR_LEN];
	unsigned here = bsp_core(), there;
	enum check_status st;
	bool pending = false;
	uint64_t t0;
	int cpu, r;

	if (no_skl())
		return check_skip(c, "%s", no_skl());
	if (!apic.present)
		return check_skip(c, "no local APIC for the PMI");
	cpu = xcore_partner(&why);
	if (cpu < 0)
		return check_skip(c, "%s", why);
	memset((void *)&xpmi, 0, sizeof(xpmi));
	uncore_claim();
	trap_set_handler(VECTOR_PMI, xpmi_irq);
	xpmi_route_here();
	if ((r = run_start((unsigned)cpu, xpmi_partner, NULL))) {
		st = check_result(c, CHECK_FAIL, "CPU %d: %s", "a partner", cpu, smp_error_name(r));
		goto out;
	}
	for (t0 = rdtsc(); !__atomic_load_n(&xpmi.ready, __ATOMIC_ACQUIRE) &&
	     rdtsc() - t0 < tsc_from_us(1000000);)
		cpu_relax();
	there = xpmi.core;
	if (!xpmi.ready || there == here || there >= 4) {
		xpmi.stop = true;
		run_wait((unsigned)cpu, 1000000);
		st = check_skip(c, "the partner (APIC ID %u) is %s; PMI_SEL_CORE selects one of "
				"cores 0-3 other than this CPU's core %u (seed 001 Table 2-2)",
				smp.cpu[cpu].apic_id, !xpmi.ready ? "not answering" :
				there == here ? "on the same core (SMT sibling)" : "a core above 3",
				here);
		goto out;
	}
	r = uncore_fixed_program(&uncore, true, true, (1ULL << 48) - 20000, err, sizeof(err));
	if (!r)
		r = uncore_global_ctrl_write(&uncore, uncore_global_value(UNCORE_SKL, NULL, 0,
					     1U << there, false), err, sizeof(err));
	irq_enable();
	for (t0 = rdtsc(); !r && !xpmi.pmis[cpu] && rdtsc() - t0 < tsc_from_us(10000);)
		cpu_relax();
	/* Time for a second (wrong) PMI anywhere. */
	for (t0 = rdtsc(); !r && rdtsc() - t0 < tsc_from_us(1000);)
		cpu_relax();
	irq_disable();
	uncore_global_ctrl_write(&uncore, 0, err, sizeof(err));
	xpmi.stop = true;
	if (run_wait((unsigned)cpu, 1000000)) {
		st = check_result(c, CHECK_FAIL, "the partner (APIC ID %u) did not finish", "its "
				  "wait over", smp.cpu[cpu].apic_id);
		goto out;
	}
	if (r)
		st = check_error(c, err, "the fixed counter programmed");
	else if (xpmi.pmis[cpu] != 1 || xpmi.pmis[0])
		st = check_result(c, CHECK_FAIL, "%u PMIs on core %u (APIC ID %u), %u on this core %u",
				  "1 and 0: PMI_SEL_CORE selects core %u only", xpmi.pmis[cpu],
				  there, smp.cpu[cpu].apic_id, xpmi.pmis[0], here, there);
	else
		st = check_result(c, CHECK_PASS, "1 PMI on core %u (APIC ID %u), 0 on this core %u",
				  "same: PMI_SEL_CORE selects core %u only", there,
				  smp.cpu[cpu].apic_id, here, there);
out:
	uncore_reset(&uncore);
	pmu_quiesce(&pmu, VECTOR_PMI, &pending);
	trap_set_handler(VECTOR_PMI, 0);
	return st;
}
CHECK_DEFINE(770, "uncore.skl.pmi_other_core", check_uncore_skl_pmi_other_core,
	     "with PMI_SEL_CORE selecting another core, the uncore PMI reaches that core and not this one",
	     .flags = CHECK_PACKAGE);
