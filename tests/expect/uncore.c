/* SPDX-License-Identifier: MIT */
/* The uncore bounds as ranges: the seed relation language solved for v. */
#include "tests/expect/uncore.h"
#include "tests/expect/seed.h"

struct expect_range expect_unc(const char *rel, uint64_t n)
{
	struct ev_vals x = { .n = (int64_t)n };
	struct ev_bounds b;

	if (!ev_rel_v_bounds(rel, &x, &b))
		return (struct expect_range){ INT64_MAX, INT64_MIN, rel };
	return (struct expect_range){ b.has_lo ? b.lo : INT64_MIN, b.has_hi ? b.hi : INT64_MAX,
				      rel };
}
