/* SPDX-License-Identifier: MIT */
/* The seed-event checks' uncore engine (tests/measure/events_uncore.c). */
#ifndef TESTS_MEASURE_EVENTS_UNCORE_H
#define TESTS_MEASURE_EVENTS_UNCORE_H

#include "tests/harness/check.h"

struct events_row;

/* An events.<model>.<EVENT> check whose row of tests/expect/seed_<model>.c runs the uncore
 * kernels (tests/checks/events.c calls it); pos, the row's place among its model's rows,
 * rotates the counters it takes. */
enum check_status check_events_uncore_row(struct check_ctx *c, const struct events_row *row,
					  unsigned pos);

#endif /* TESTS_MEASURE_EVENTS_UNCORE_H */
