/* SPDX-License-Identifier: MIT */
/* Host report tool: comparing two results.json. */
#ifndef TESTS_REPORT_COMPARE_H
#define TESTS_REPORT_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "tests/report/json.h"

struct compare_opts {
	const char *label_a, *label_b;	/* how the two are named in the output */
	double threshold_pct;		/* a measured value moved by more than this */
	double min_abs;			/* ... and by more than this absolutely */
	bool moved_is_worse;		/* count moves as checks that got worse */
};

/*
 * Prints what changed from a to b: header differences, status changes (worse: to fail;
 * better: from fail; changed: pass <-> skip), checks in only one, measured values that
 * moved beyond the threshold. Returns 0 when no check got worse, 1 when some did, -1 on
 * input that is not a pmuboot report (err names which and why).
 */
int compare_reports(const struct jval *a, const struct jval *b, const struct compare_opts *o,
		    FILE *out, char *err, size_t errlen);

#endif /* TESTS_REPORT_COMPARE_H */
