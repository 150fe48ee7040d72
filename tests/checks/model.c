/* SPDX-License-Identifier: MIT */
/*
 * model.<case>: every kernel, at every working set and size it runs, against its model.
 * Where a PMU counts, its instruction and branch counters give the exact counts (on real
 * hardware as on the emulated PMU, at full speed); otherwise under -icount the TSC gives
 * the exact instruction count. Under the reference oracle (option oracle, ./run.sh qemu
 * --oracle) each region's full prediction, and what the PMU counted in it, is printed for
 * the host harness to compare with what QEMU executed.
 */
#include "tests/harness/check.h"
#include "tests/harness/env.h"
#include "tests/checks/icount.h"
#include "pmu/frame.h"
#include "pmu/pmu.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "tests/measure/region.h"
#include "tests/measure/pmu_run.h"

#define MAX_SIZES	4
/* A size meaning "k full cycles of the working set's nodes" (pointer chases). */
#define CYCLES(k)	(0x8000000000000000ULL | (k))
#define IS_CYCLES(n)	((n) >> 63)
#define CHASE_SEED	0x9e3779b97f4a7c15ULL

struct kernel_case {
	const char *name;
	const struct kernel_desc *k;
	/* Builds the argument in the test buffer; *units = nodes for CYCLES(). NULL: none. */
	void *(*setup)(const struct kernel_case *kc, uint64_t *units);
	uint64_t ws;			/* working set in bytes (0: the whole test buffer) */
	uint64_t param0, param1;	/* kernel-specific (branch bits/period, node stride) */
	uint64_t sizes[MAX_SIZES];	/* iteration counts; 0 ends the list */
};

static uint64_t working_set(const struct kernel_case *kc)
{
	return kc->ws && kc->ws <= env.buf_size ? kc->ws : env.buf_size;
}

static void *setup_chase(const struct kernel_case *kc, uint64_t *units)
{
	uint64_t stride = kc->param0;

	*units = working_set(kc) / stride;
	return chase_build(env.buf, *units, stride, CHASE_SEED);
}

static void *setup_pattern(const struct kernel_case *kc, uint64_t *units)
{
	struct branch_pattern *p = (struct branch_pattern *)(uintptr_t)env.buf;

	(void)units;
	p->bits = kc->param0;
	p->period = kc->param1;
	return p;
}

static void *setup_lfsr(const struct kernel_case *kc, uint64_t *units)
{
	struct branch_lfsr *p = (struct branch_lfsr *)(uintptr_t)env.buf;

	(void)units;
	p->state = kc->param0;
	p->taps = LFSR64_TAPS;
	return p;
}

static void *setup_lines(const struct kernel_case *kc, uint64_t *units)
{
	(void)kc;
	(void)units;
	return (void *)(uintptr_t)env.buf;
}

static void *setup_ind_misp(const struct kernel_case *kc, uint64_t *units)
{
	struct ind_misp *p = (struct ind_misp *)(uintptr_t)env.buf;

	(void)units;
	p->state = kc->param0;
	p->taps = LFSR64_TAPS;
	return p;
}

/* A denormal double (the smallest) at the start of the buffer. */
static void *setup_denormal(const struct kernel_case *kc, uint64_t *units)
{
	uint64_t *p = (uint64_t *)(uintptr_t)env.buf;

	(void)kc;
	(void)units;
	*p = 1;
	return p;
}

#define KB(x)	((x) << 10)
#define MB(x)	((x) << 20)

static const struct kernel_case cases[] = {
	{ "loop4", &kernel_loop4_desc, NULL, 0, 0, 0, { 1, 2, 33, 100000 } },
	{ "add_chain", &kernel_add_chain_desc, NULL, 0, 0, 0, { 1, 1000 } },
	{ "imul_chain", &kernel_imul_chain_desc, NULL, 0, 0, 0, { 1, 1000 } },
	{ "div_loop", &kernel_div_loop_desc, NULL, 0, 0, 0, { 1, 1000 } },
	{ "chase_line_4k", &kernel_chase_desc, setup_chase, KB(4), 64, 0, { 10, CYCLES(1), CYCLES(2) } },
	{ "chase_line_256k", &kernel_chase_desc, setup_chase, KB(256), 64, 0, { CYCLES(1), CYCLES(2) } },
	{ "chase_line_buffer", &kernel_chase_desc, setup_chase, 0, 64, 0, { CYCLES(1) } },
	{ "chase_page_256k", &kernel_chase_desc, setup_chase, KB(256), 4096, 0, { 10, CYCLES(1), CYCLES(2) } },
	{ "chase_page_buffer", &kernel_chase_desc, setup_chase, 0, 4096, 0, { CYCLES(1) } },
	{ "branch_always", &kernel_branch_pattern_desc, setup_pattern, 0, 1, 1, { 1, 1000 } },
	{ "branch_never", &kernel_branch_pattern_desc, setup_pattern, 0, 0, 1, { 1, 1000 } },
	{ "branch_alternating", &kernel_branch_pattern_desc, setup_pattern, 0, 2, 2, { 1000 } },
	{ "branch_period3", &kernel_branch_pattern_desc, setup_pattern, 0, 0x5, 3, { 1000 } },
	{ "branch_period17", &kernel_branch_pattern_desc, setup_pattern, 0, 0x1b3c5, 17, { 1000 } },
	{ "branch_period64", &kernel_branch_pattern_desc, setup_pattern, 0, 0xf0e1d2c3b4a59687ULL, 64, { 1000 } },
	{ "branch_lfsr", &kernel_branch_lfsr_desc, setup_lfsr, 0, 0xace1ace1ace1ace1ULL, 0, { 1, 1000, 10000 } },
	{ "store_nt", &kernel_store_nt_desc, setup_lines, 0, 0, 0, { 1, 64, 4096 } },
	{ "store_ntdq", &kernel_store_ntdq_desc, setup_lines, 0, 0, 0, { 1, 64, 4096 } },
	{ "store_plain", &kernel_store_plain_desc, setup_lines, 0, 0, 0, { 1, 64, 4096 } },
	{ "bigcode", &kernel_bigcode_desc, NULL, 0, 0, 0, { 1, 3 } },
	{ "smallcode", &kernel_smallcode_desc, NULL, 0, 0, 0, { 1, 100 } },
	{ "iret_loop", &kernel_iret_loop_desc, NULL, 0, 0, 0, { 1, 1000 } },
	{ "cpuid_loop", &kernel_cpuid_loop_desc, NULL, 0, 0, 0, { 1, 1000 } },
	{ "regs_loop", &kernel_regs_loop_desc, NULL, 0, 0, 0, { 1, 1000 } },
	{ "branch_mix", &kernel_branch_mix_desc, setup_lines, 0, 0, 0, { 1, 1000 } },
	{ "ind_misp", &kernel_ind_misp_desc, setup_ind_misp, 0, 0xace1ace1ace1ace1ULL, 0, { 1, 1000 } },
	{ "x87_loop", &kernel_x87_loop_desc, NULL, 0, 0, 0, { 1, 1000 } },
	{ "mmx_loop", &kernel_mmx_loop_desc, NULL, 0, 0, 0, { 1, 1000 } },
	{ "sse_ps_loop", &kernel_sse_ps_loop_desc, NULL, 0, 0, 0, { 1, 1000 } },
	{ "sse_pd_loop", &kernel_sse_pd_loop_desc, NULL, 0, 0, 0, { 1, 1000 } },
	{ "sse_ss_loop", &kernel_sse_ss_loop_desc, NULL, 0, 0, 0, { 1, 1000 } },
	{ "sse_sd_loop", &kernel_sse_sd_loop_desc, NULL, 0, 0, 0, { 1, 1000 } },
	{ "sse_int_loop", &kernel_sse_int_loop_desc, NULL, 0, 0, 0, { 1, 1000 } },
	{ "lcp_loop", &kernel_lcp_loop_desc, NULL, 0, 0, 0, { 1, 1000 } },
	{ "load_stream", &kernel_load_stream_desc, setup_lines, 0, 0, 0, { 1, 64, 4096 } },
	{ "lock_loop", &kernel_lock_loop_desc, setup_lines, 0, 0, 0, { 1, 64, 4096 } },
	{ "x87_denormal", &kernel_x87_denormal_desc, setup_denormal, 0, 0, 0, { 1, 1000 } },
	{ "fldcw_loop", &kernel_fldcw_loop_desc, setup_lines, 0, 0, 0, { 1, 1000 } },
	{ "ldmxcsr_loop", &kernel_ldmxcsr_loop_desc, setup_lines, 0, 0, 0, { 1, 1000 } },
};

CHECK_TABLE_INSTANCES(model, cases)

/* Branches in a region's prediction: every kind the branches-retired event counts. */
static uint64_t predicted_branches(const struct exec_counts *e)
{
	return e->cond_taken + e->cond_not_taken + e->jumps + e->calls + e->rets + e->far;
}

/* The case with the PMU: instructions and branches retired at CPL 0, exactly. */
static enum check_status model_pmu(struct check_ctx *c, const struct kernel_case *kc)
{
	char err[160];
	unsigned sizes = 0;
	uint64_t units = 0, insns, br;
	int frame_wrmsrs;
	void *arg;

	if (kc->k == &kernel_iret_loop_desc && (pmu.errata & PMU_ERRATUM_FAR_INSNS) &&
	    !env.force_pmu)
		return check_skip(c, "%s: an exact count of far transfers cannot hold",
				  pmu_erratum_note(pmu.errata));
	if (pmu_frame_wrmsrs(&frame_wrmsrs, err, sizeof(err)))
		return check_error(c, err, "instructions counted by the PMU");
	arg = kc->setup ? kc->setup(kc, &units) : NULL;
	for (unsigned s = 0; s < MAX_SIZES && kc->sizes[s]; s++, sizes++) {
		uint64_t n = IS_CYCLES(kc->sizes[s]) ? (kc->sizes[s] & ~(1ULL << 63)) * units :
			     kc->sizes[s];
		uint64_t want_i, want_b;
		struct exec_counts e;

		if (kc->setup)
			arg = kc->setup(kc, &units);
		if (pmu_count_insns_branches(kc->k, n, arg, &insns, &br, err, sizeof(err)))
			return check_error(c, err, "instructions and branches counted");
		region_predict_frame(FRAME_PMU, kc->k, n, arg, 0, &e);
		want_i = e.insns - PMU_FRAME_REGION_INSNS + PMU_FRAME_INSNS + (uint64_t)frame_wrmsrs;
		want_b = predicted_branches(&e);
		if (insns != want_i || br != want_b)
			return check_result(c, CHECK_FAIL, "%llu instructions, %llu branches", "%llu, %llu "
					    "n=%llu (PMU: model + frame %d + %d WRMSR)",
					    (unsigned long long)insns, (unsigned long long)br,
					    (unsigned long long)want_i, (unsigned long long)want_b,
					    (unsigned long long)n, PMU_FRAME_INSNS, frame_wrmsrs);
	}
	return check_result(c, CHECK_PASS, "instruction and branch model exact (PMU)", "exact "
			    "kernel=%s sizes=%u frame_wrmsrs_counted=%d", kc->k->name, sizes,
			    frame_wrmsrs);
}

static enum check_status check_model(struct check_ctx *c)
{
	const struct kernel_case *kc = &cases[c->instance];
	unsigned sizes = 0;
	uint64_t units = 0;
	void *arg;

	if (kc->setup && !env.buf_size)
		return check_result(c, CHECK_FAIL, "no test buffer", "a buffer for the working set");
	if (!pmu_count_unavailable())
		return model_pmu(c, kc);
	if (icount_unavailable())
		return check_skip(c, "%s; and no PMU counts instructions (%s)", icount_unavailable(),
				  pmu_count_unavailable());
	arg = kc->setup ? kc->setup(kc, &units) : NULL;
	for (unsigned s = 0; s < MAX_SIZES && kc->sizes[s]; s++, sizes++) {
		uint64_t n = IS_CYCLES(kc->sizes[s]) ? (kc->sizes[s] & ~(1ULL << 63)) * units :
			     kc->sizes[s];
		struct region r;
		struct exec_counts e;

		if (kc->setup)		/* kernels may change their data (stores): rebuild */
			arg = kc->setup(kc, &units);
		r = measure_kernel(kc->k, n, arg);
		region_predict(kc->k, n, arg, r.id, &e);
		if (r.tsc != e.insns + FRAME_TSC_OVERHEAD)
			return check_result(c, CHECK_FAIL, "%llu instructions", "%llu n=%llu "
					    "(TSC %llu - frame %d)",
					    (unsigned long long)(r.tsc - FRAME_TSC_OVERHEAD),
					    (unsigned long long)e.insns, (unsigned long long)n,
					    (unsigned long long)r.tsc, FRAME_TSC_OVERHEAD);
	}
	return check_result(c, CHECK_PASS, "instruction model exact", "exact kernel=%s sizes=%u",
			    kc->k->name, sizes);
}
CHECK_DEFINE(130, "model", check_model,
	     "each kernel's model is exact at every size (PMU instructions and branches, or -icount; --oracle: all counts)",
	     .instances = model_instances, .instance_name = model_instance_name);
