/* SPDX-License-Identifier: MIT */
/*
 * Instruction-count oracle: under QEMU -icount shift=0 the TSC advances once per retired
 * instruction, so the measurement frame and every kernel's instruction model are checked
 * exactly (option icount; ./run.sh qemu --icount).
 */
#include "tests/harness/check.h"
#include "tests/harness/env.h"
#include "tests/checks/icount.h"
#include "lib/fmt.h"
#include "lib/stats.h"
#include "tests/measure/region.h"

#define ICOUNT_N	1000ULL
#define ICOUNT_MAX_REPS	1000

const char *icount_unavailable(void)
{
	return env.icount ? NULL :
	       "option icount not set: the TSC counts instructions only under QEMU -icount shift=0 "
	       "(./run.sh qemu --icount)";
}

static uint64_t region_insns(const struct kernel_desc *k, uint64_t n, unsigned slot)
{
	struct exec_counts c;

	region_predict(k, n, 0, slot, &c);
	return c.insns;
}

static enum check_status check_icount_loop_delta(struct check_ctx *c)
{
	const struct kernel_desc *k = &kernel_loop4_desc;
	uint64_t a, b, expected = k->insns_per_iter * ICOUNT_N;

	if (icount_unavailable())
		return check_skip(c, "%s", icount_unavailable());
	measure_kernel(k, ICOUNT_N, 0);		/* warm: translate the blocks once */
	a = measure_kernel(k, ICOUNT_N, 0).tsc;
	b = measure_kernel(k, 2 * ICOUNT_N, 0).tsc;
	return check_eq(c, b - a, expected, "N=%llu count(N)=%llu", ICOUNT_N,
			(unsigned long long)a);
}
CHECK_DEFINE(100, "icount.loop_delta", check_icount_loop_delta,
	     "count(2N) - count(N) = 4N exactly for the calibrated loop (-icount)");

static enum check_status check_icount_repeatable(struct check_ctx *c)
{
	static uint64_t v[ICOUNT_MAX_REPS];
	unsigned reps = env.reps < ICOUNT_MAX_REPS ? env.reps : ICOUNT_MAX_REPS;
	struct u64_stats st;

	if (icount_unavailable())
		return check_skip(c, "%s", icount_unavailable());
	for (unsigned i = 0; i < reps; i++)
		v[i] = measure_kernel(&kernel_loop4_desc, ICOUNT_N, 0).tsc;
	u64_stats(v, reps, &st);
	if (st.min != st.max)
		return check_result(c, CHECK_FAIL, "min %llu median %llu max %llu", "spread 0 reps=%u",
				    (unsigned long long)st.min, (unsigned long long)st.median,
				    (unsigned long long)st.max, reps);
	return check_result(c, CHECK_PASS, "spread 0 (%llu on all %u reps)", "spread 0",
			    (unsigned long long)st.min, reps);
}
CHECK_DEFINE(110, "icount.repeatable", check_icount_repeatable,
	     "reps= repetitions of the framed loop read the same count (-icount)");

static enum check_status check_icount_frame_overhead(struct check_ctx *c)
{
	static const uint64_t ns[] = { 1, 2, 10, 100, 1000, 10000 };
	const struct kernel_desc *k = &kernel_loop4_desc;

	if (icount_unavailable())
		return check_skip(c, "%s", icount_unavailable());
	for (unsigned i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		struct region r = measure_kernel(k, ns[i], 0);
		int64_t over = (int64_t)(r.tsc - region_insns(k, ns[i], r.id));

		if (over != FRAME_TSC_OVERHEAD)
			return check_result(c, CHECK_FAIL, "%lld at N=%llu", "%d (frame.S)",
					    (long long)over, (unsigned long long)ns[i], FRAME_TSC_OVERHEAD);
	}
	return check_result(c, CHECK_PASS, "%d instructions at every N", "%d (frame.S: shl, or, "
			    "mov, 2 markers, 1 RDTSC)", FRAME_TSC_OVERHEAD, FRAME_TSC_OVERHEAD);
}
CHECK_DEFINE(120, "icount.frame_overhead", check_icount_frame_overhead,
	     "the measurement frame's overhead is the same for every N (-icount)");
