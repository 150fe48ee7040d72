/* SPDX-License-Identifier: MIT */
/* Models of the assembly kernels, stated next to each kernel's source comment. */
#include "tests/kernels/kernels.h"

/* tests/kernels/loop.S */
const struct kernel_model kernel_loop4_model = {
	.name = "loop4",
	.insns_per_iter = 4,
	.insns_fixed = 2,
	.cond_branches_per_iter = 1,
	.loads_per_iter = 0,
	.stores_per_iter = 0,
};
