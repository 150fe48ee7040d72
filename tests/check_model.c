/* SPDX-License-Identifier: MIT */
/*
 * model.<kernel>: every kernel at every size it runs, against its model. Under -icount
 * the TSC gives the exact instruction count; under the reference oracle (option oracle,
 * ./run.sh qemu --oracle) each region's full prediction is printed for the host harness to
 * compare with what QEMU executed.
 */
#include "boot/platform.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "tests/checks.h"
#include "tests/measure.h"

#define MAX_SIZES	6

struct kernel_case {
	const char *name;
	const struct kernel_desc *k;
	/* Prepares the argument for n iterations in the test buffer; NULL: no argument. */
	void *(*setup)(uint64_t n);
	uint64_t sizes[MAX_SIZES];	/* 0 ends the list */
};

static const struct kernel_case cases[] = {
	{ "loop4", &kernel_loop4_desc, NULL, { 1, 2, 33, 1000, 100000 } },
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

	if (icount_unavailable())
		return check_skip(c, "%s", icount_unavailable());
	for (unsigned s = 0; s < MAX_SIZES && kc->sizes[s]; s++, sizes++) {
		uint64_t n = kc->sizes[s];
		void *arg = kc->setup ? kc->setup(n) : NULL;
		struct region r = measure_kernel(kc->k, n, arg);
		struct exec_counts e;

		region_predict(kc->k, n, arg, r.id, &e);
		if (r.tsc != e.insns + FRAME_TSC_OVERHEAD)
			return check_fail(c, "measured=%llu instructions expected=%llu n=%llu "
					  "(model %llu + frame %d)",
					  (unsigned long long)(r.tsc - FRAME_TSC_OVERHEAD),
					  (unsigned long long)e.insns, (unsigned long long)n,
					  (unsigned long long)e.insns, FRAME_TSC_OVERHEAD);
	}
	return check_pass(c, "measured=model exact expected=model exact sizes=%u", sizes);
}
