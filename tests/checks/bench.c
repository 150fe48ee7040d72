/* SPDX-License-Identifier: MIT */
/*
 * bench.*: the data behind the host report's pictures, measured with the TSC only (no PMU,
 * so they run under Debian's QEMU too): the pointer chase's latency over working-set sizes
 * and the store kernels' bandwidth over buffer sizes. Each point is printed as a
 * machine-readable "# data: SERIES key=value ..." line under the result (README "Output");
 * the checks assert only what must hold on any machine and under any hypervisor: every
 * point measured, each value above zero and below a generous ceiling, and the chase no
 * faster over its largest working set than over its smallest.
 */
#include "arch/x86/tsc.h"
#include "tests/harness/check.h"
#include "tests/harness/env.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "tests/measure/region.h"

#define BENCH_MAX_REPS		5		/* reps= caps it too */
#define CHASE_STRIDE		64		/* one node per cache line */
#define CHASE_MIN_WS		(4ULL << 10)
#define CHASE_MIN_STEPS		4096ULL		/* small sets: several laps, timed well */
#define CHASE_MAX_STEPS		(1ULL << 20)	/* large sets: 64 MiB of lines, past any LLC */
#define CHASE_SEED		0x2545f4914f6cdd1dULL
/* Sets of this many nodes (2 MiB) and more: at most CHASE_BIG_REPS repetitions (their loads
 * miss anyway; under an emulator each costs up to a microsecond). Not one: a guest TSC that
 * follows host time made a single pair's TSC(2n) - TSC(n) come out 0 on a loaded host (2 MiB,
 * -cpu qemu64, two boots at a time), and the minimum of three pairs keeps it above the noise. */
#define CHASE_ONE_REP_NODES	32768ULL
#define CHASE_BIG_REPS		3U
/* Ceiling for one dependent load: 10 us (a DRAM load with a page walk is well under 1 us;
 * the rest is room for a slow emulator). */
#define CHASE_CEILING_US	10
#define STORE_MIN_BYTES		(16ULL << 10)
#define STORE_MAX_BYTES		(64ULL << 20)
#define STORE_LINE		64
/* Ceiling: 4 KiB stored per TSC tick (4 TB/s at a 1 GHz TSC). */
#define STORE_CEILING_BPT	4096ULL
#define MAX_POINTS		32

/* Under -icount (option icount, and the oracle's runs) the TSC counts instructions: the
 * curve is flat by construction, so one short repetition per point keeps those runs short. */
#define ICOUNT_MAX_STEPS	CHASE_MIN_STEPS
#define ICOUNT_MAX_BYTES	(64ULL << 10)

static unsigned bench_reps(void)
{
	unsigned r = env.icount ? 1 : env.reps;

	return r < 1 ? 1 : r > BENCH_MAX_REPS ? BENCH_MAX_REPS : r;
}

/* Times a set of repetitions whose minima put TSC(2n) at or below TSC(n) is measured again,
 * at most: under an emulator whose guest TSC follows host time, a loaded host can slow every
 * run at n of one set (seen at 256 KiB and at 2 MiB, -cpu qemu64, two boots at a time). On
 * hardware the extra n loads always take time, so a set comes out 0 only from such noise. */
#define BENCH_ZERO_RETRIES	3
static unsigned zero_retries;	/* sets measured again, for the result line */

/* min over reps of TSC(2n) - TSC(n) for k(n, arg) after one warm-up run of n; 0 when the
 * TSC did not advance in BENCH_ZERO_RETRIES + 1 sets. */
static uint64_t diff_tsc(const struct kernel_desc *k, uint64_t n, void *arg, unsigned reps)
{
	for (unsigned set = 0; set <= BENCH_ZERO_RETRIES; set++) {
		uint64_t best_n = UINT64_MAX, best_2n = UINT64_MAX;

		if (set)
			zero_retries++;
		measure_kernel(k, n, arg);
		for (unsigned r = 0; r < reps; r++) {
			uint64_t a = measure_kernel(k, n, arg).tsc;
			uint64_t b = measure_kernel(k, 2 * n, arg).tsc;

			best_n = a < best_n ? a : best_n;
			best_2n = b < best_2n ? b : best_2n;
		}
		if (best_2n > best_n)
			return best_2n - best_n;
	}
	return 0;
}

/* "12.34" from a value in hundredths. */
static void fix2(char *buf, size_t len, uint64_t hundredths)
{
	fmt_snprintf(buf, len, "%llu.%02llu", (unsigned long long)(hundredths / 100),
		     (unsigned long long)(hundredths % 100));
}

/* Hundredths of a/b, rounded down; b > 0. */
static uint64_t ratio100(uint64_t a, uint64_t b)
{
	return a / b * 100 + (a % b) * 100 / b;
}

static enum check_status check_bench_chase_latency(struct check_ctx *c)
{
	uint64_t ws_max = env.buf_size, ceiling = tsc_from_us(CHASE_CEILING_US);
	uint64_t first = 0, last = 0, lo = UINT64_MAX, hi = 0, lo_ws = 0, last_ws = 0;
	unsigned reps = bench_reps(), points = 0, bad = 0;
	char a[24], b[24], why[96] = "";

	zero_retries = 0;
	if (ws_max < CHASE_MIN_WS)
		return check_result(c, CHECK_FAIL, "test buffer %llu bytes", "at least %llu bytes",
				    (unsigned long long)ws_max, (unsigned long long)CHASE_MIN_WS);
	for (uint64_t ws = CHASE_MIN_WS; ws <= ws_max && points < MAX_POINTS; ws *= 2, points++) {
		uint64_t nodes = ws / CHASE_STRIDE, n = nodes, d, lat, ns;
		void *head = chase_build(env.buf, nodes, CHASE_STRIDE, CHASE_SEED);

		n = n < CHASE_MIN_STEPS ? CHASE_MIN_STEPS : n > CHASE_MAX_STEPS ? CHASE_MAX_STEPS : n;
		if (env.icount && n > ICOUNT_MAX_STEPS)
			n = ICOUNT_MAX_STEPS;
		d = diff_tsc(&kernel_chase_desc, n, head,
			     nodes >= CHASE_ONE_REP_NODES && reps > CHASE_BIG_REPS ?
			     CHASE_BIG_REPS : reps);
		lat = ratio100(d, n);			/* TSC ticks per load, in hundredths */
		/* ns: d * 10^6 / kHz, exact while d < 1.8e13 ticks */
		ns = tsc.hz >= 1000 ? ratio100(d * 1000000ULL / (tsc.hz / 1000), n) : 0;
		fix2(a, sizeof(a), lat);
		fix2(b, sizeof(b), ns);
		check_diag(c, "data: chase_latency ws_bytes=%llu loads=%llu tsc=%llu tsc_per_load=%s "
			   "ns_per_load=%s", (unsigned long long)ws, (unsigned long long)n,
			   (unsigned long long)d, a, b);
		if (!lat || d > ceiling * n) {
			if (!bad++)
				fmt_snprintf(why, sizeof(why), " first_bad_ws=%llu",
					     (unsigned long long)ws);
		}
		if (!points)
			first = lat;
		last = lat;
		last_ws = ws;
		if (lat < lo) {
			lo = lat;
			lo_ws = ws;
		}
		hi = lat > hi ? lat : hi;
	}
	fix2(a, sizeof(a), lo);
	fix2(b, sizeof(b), hi);
	{
		char f[24], l[24], ceil[24];
		enum check_status st = bad || last < first ? CHECK_FAIL : CHECK_PASS;

		fix2(f, sizeof(f), first);
		fix2(l, sizeof(l), last);
		fix2(ceil, sizeof(ceil), ceiling * 100);
		return check_result(c, st, "%s..%s", "0.01..%s unit=tsc_per_load "
				    "points=%u out_of_range=%u%s largest_vs_smallest=%s>=%s ws=%llu..%llu "
				    "fastest_ws=%llu reps=%u zero_retries=%u", a, b, ceil, points, bad, why,
				    l, f, (unsigned long long)CHASE_MIN_WS, (unsigned long long)last_ws,
				    (unsigned long long)lo_ws, reps, zero_retries);
	}
}
/* TSC-only benchmarks: the report's latency curve and store bandwidth (tests/checks/bench.c). */
CHECK_DEFINE(830, "bench.chase_latency", check_bench_chase_latency,
	     "pointer-chase latency over working sets 4 KiB..the test buffer (TSC per load; # data: lines)",
	     .timeout_ms = 60000);

static const struct kernel_desc *const store_kernels[] = {
	&kernel_store_plain_desc, &kernel_store_nt_desc, &kernel_store_ntdq_desc,
};

static enum check_status check_bench_store_bandwidth(struct check_ctx *c)
{
	uint64_t max = env.buf_size / 2, lo = UINT64_MAX, hi = 0;
	unsigned reps = bench_reps(), points = 0, bad = 0;
	char why[96] = "";

	zero_retries = 0;
	if (max > STORE_MAX_BYTES)
		max = STORE_MAX_BYTES;
	if (env.icount && max > ICOUNT_MAX_BYTES)
		max = ICOUNT_MAX_BYTES;
	if (max < STORE_MIN_BYTES)
		return check_result(c, CHECK_FAIL, "test buffer %llu bytes", "at least %llu bytes",
				    (unsigned long long)env.buf_size,
				    (unsigned long long)(2 * STORE_MIN_BYTES));
	if (!tsc.hz)
		return check_result(c, CHECK_FAIL, "no TSC frequency", "a measured TSC frequency");
	for (size_t k = 0; k < sizeof(store_kernels) / sizeof(store_kernels[0]); k++) {
		const struct kernel_desc *kd = store_kernels[k];

		for (uint64_t bytes = STORE_MIN_BYTES; bytes <= max && points < MAX_POINTS;
		     bytes *= 4, points++) {
			uint64_t lines = bytes / STORE_LINE, d, bpt, mbs;
			char a[24];

			d = diff_tsc(kd, lines, (void *)(uintptr_t)env.buf, reps);
			bpt = d ? ratio100(bytes, d) : 0;		/* hundredths */
			mbs = d ? bytes * (tsc.hz / 1000) / d / 1000 : 0;	/* 10^6 bytes/s */
			fix2(a, sizeof(a), bpt);
			check_diag(c, "data: store_bandwidth kernel=%s bytes=%llu tsc=%llu "
				   "bytes_per_tsc=%s mb_per_s=%llu", kd->name,
				   (unsigned long long)bytes, (unsigned long long)d, a,
				   (unsigned long long)mbs);
			if (!d || !mbs || bytes > STORE_CEILING_BPT * d) {
				if (!bad++)
					fmt_snprintf(why, sizeof(why), " first_bad=%s@%llu", kd->name,
						     (unsigned long long)bytes);
			}
			lo = mbs < lo ? mbs : lo;
			hi = mbs > hi ? mbs : hi;
		}
	}
	return check_result(c, bad ? CHECK_FAIL : CHECK_PASS, "%llu..%llu", "1..%llu "
			    "unit=MB/s points=%u out_of_range=%u%s bytes=%llu..%llu kernels=%u reps=%u "
			    "zero_retries=%u", (unsigned long long)lo, (unsigned long long)hi,
			    (unsigned long long)(STORE_CEILING_BPT * tsc.hz / 1000000), points, bad,
			    why, (unsigned long long)STORE_MIN_BYTES, (unsigned long long)max,
			    (unsigned)(sizeof(store_kernels) / sizeof(store_kernels[0])), reps,
			    zero_retries);
}
CHECK_DEFINE(840, "bench.store_bandwidth", check_bench_store_bandwidth,
	     "store kernels' bandwidth over 16 KiB..64 MiB (bytes per TSC tick, MB/s; # data: lines)",
	     .timeout_ms = 60000);
