/* SPDX-License-Identifier: MIT */
/*
 * model.<case>: every kernel, at every working set and size it runs, against its model.
 * Under -icount the TSC gives the exact instruction count; under the reference oracle
 * (option oracle, ./run.sh qemu --oracle) each region's full prediction is printed for the
 * host harness to compare with what QEMU executed.
 */
#include "boot/platform.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "tests/checks.h"
#include "tests/measure.h"

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
	return kc->ws && kc->ws <= plat.buf_size ? kc->ws : plat.buf_size;
}

static void *setup_chase(const struct kernel_case *kc, uint64_t *units)
{
	uint64_t stride = kc->param0;

	*units = working_set(kc) / stride;
	return chase_build(plat.buf, *units, stride, CHASE_SEED);
}

static void *setup_pattern(const struct kernel_case *kc, uint64_t *units)
{
	struct branch_pattern *p = (struct branch_pattern *)(uintptr_t)plat.buf;

	(void)units;
	p->bits = kc->param0;
	p->period = kc->param1;
	return p;
}

static void *setup_lfsr(const struct kernel_case *kc, uint64_t *units)
{
	struct branch_lfsr *p = (struct branch_lfsr *)(uintptr_t)plat.buf;

	(void)units;
	p->state = kc->param0;
	p->taps = LFSR64_TAPS;
	return p;
}

static void *setup_lines(const struct kernel_case *kc, uint64_t *units)
{
	(void)kc;
	(void)units;
	return (void *)(uintptr_t)plat.buf;
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
};

#define NCASES (sizeof(cases) / sizeof(cases[0]))

unsigned model_instances(void)
{
	return NCASES;
}

void model_instance_name(unsigned i, char *buf, size_t len)
{
	str_lcpy(buf, i < NCASES ? cases[i].name : "?", len);
}

enum check_status check_model(struct check_ctx *c)
{
	const struct kernel_case *kc = &cases[c->instance];
	unsigned sizes = 0;
	uint64_t units = 0;
	void *arg;

	if (icount_unavailable())
		return check_skip(c, "%s", icount_unavailable());
	if (kc->setup && !plat.buf_size)
		return check_fail(c, "measured=no test buffer expected=a buffer for the working set");
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
			return check_fail(c, "measured=%llu instructions expected=%llu n=%llu "
					  "(TSC %llu - frame %d)",
					  (unsigned long long)(r.tsc - FRAME_TSC_OVERHEAD),
					  (unsigned long long)e.insns, (unsigned long long)n,
					  (unsigned long long)r.tsc, FRAME_TSC_OVERHEAD);
	}
	return check_pass(c, "measured=instruction model exact expected=exact kernel=%s sizes=%u",
			  kc->k->name, sizes);
}
