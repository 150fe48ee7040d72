/* SPDX-License-Identifier: MIT */
/*
 * Instruction-count oracle: under QEMU -icount shift=0 the TSC advances once per retired
 * instruction, so kernels' instruction models are checked exactly (option icount).
 */
#include "arch/x86/io.h"
#include "boot/platform.h"
#include "lib/fmt.h"
#include "lib/stats.h"
#include "tests/checks.h"
#include "tests/kernels/kernels.h"

#define ICOUNT_N	1000ULL
#define ICOUNT_MAX_REPS	1000

static const char *no_icount(void)
{
	return plat.opt.icount ? NULL :
	       "option icount not set: the TSC counts instructions only under QEMU -icount shift=0 "
	       "(./run.sh qemu --icount)";
}

static uint64_t measure(uint64_t n)
{
	uint64_t flags = irq_save();
	uint64_t t = frame_tsc(kernel_loop4, n);

	irq_restore(flags);
	return t;
}

enum check_status check_icount_loop_delta(struct check_ctx *c)
{
	const struct kernel_model *m = &kernel_loop4_model;
	uint64_t a, b, expected = m->insns_per_iter * ICOUNT_N;

	if (no_icount())
		return check_skip(c, "%s", no_icount());
	measure(ICOUNT_N);		/* warm: translate the blocks once */
	a = measure(ICOUNT_N);
	b = measure(2 * ICOUNT_N);
	if (b < a)
		return check_fail(c, "measured=count(2N)=%llu < count(N)=%llu expected=%llu",
				  (unsigned long long)b, (unsigned long long)a,
				  (unsigned long long)expected);
	char note[96];
	fmt_snprintf(note, sizeof(note), "N=%llu count(N)=%llu frame_overhead=%lld",
		     ICOUNT_N, (unsigned long long)a,
		     (long long)(a - kernel_insns(m, ICOUNT_N)));
	return check_expect_eq(c, b - a, expected, note);
}

enum check_status check_icount_repeatable(struct check_ctx *c)
{
	static uint64_t v[ICOUNT_MAX_REPS];
	unsigned reps = plat.opt.reps < ICOUNT_MAX_REPS ? plat.opt.reps : ICOUNT_MAX_REPS;
	struct u64_stats st;

	if (no_icount())
		return check_skip(c, "%s", no_icount());
	for (unsigned i = 0; i < reps; i++)
		v[i] = measure(ICOUNT_N);
	u64_stats(v, reps, &st);
	if (st.min != st.max)
		return check_fail(c, "measured=min %llu median %llu max %llu expected=spread 0 reps=%u",
				  (unsigned long long)st.min, (unsigned long long)st.median,
				  (unsigned long long)st.max, reps);
	return check_pass(c, "measured=spread 0 (%llu on all %u reps) expected=spread 0",
			  (unsigned long long)st.min, reps);
}

enum check_status check_icount_frame_overhead(struct check_ctx *c)
{
	static const uint64_t ns[] = { 1, 2, 10, 100, 1000, 10000 };
	const struct kernel_model *m = &kernel_loop4_model;
	int64_t first = 0;

	if (no_icount())
		return check_skip(c, "%s", no_icount());
	for (unsigned i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		int64_t over = (int64_t)(measure(ns[i]) - kernel_insns(m, ns[i]));

		if (i == 0)
			first = over;
		else if (over != first)
			return check_fail(c, "measured=overhead %lld at N=%llu expected=%lld as at N=1",
					  (long long)over, (unsigned long long)ns[i], (long long)first);
	}
	return check_pass(c, "measured=%lld instructions at every N expected=constant "
			  "(frame beyond the kernel's %llu fixed + %llu per iteration)",
			  (long long)first, (unsigned long long)m->insns_fixed,
			  (unsigned long long)m->insns_per_iter);
}
