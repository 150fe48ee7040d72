/* SPDX-License-Identifier: MIT */
/* The cleanup the runner gives every check (tests/harness/cleanup.c). */
#ifndef TESTS_HARNESS_CLEANUP_H
#define TESTS_HARNESS_CLEANUP_H

#include <stdint.h>
#include "tests/harness/check.h"

/* After every check, however it ended (the watchdog too): puts CR3/CR4 back if it ended on
 * pmuboot's own page tables, stops the PMU, puts DEBUGCTL to the baseline, masks the LVT
 * entry, drains a PMI left waiting (noted under the check's result and failing
 * system.unexpected_interrupts), removes the checks' PMI handlers. */
void check_cleanup(struct check_ctx *c);

/* PMIs the cleanups drained so far (this CPU and others), *by the checks that left them
 * ("none" when none did). */
uint64_t cleanup_pmis_left(const char **by);

#endif /* TESTS_HARNESS_CLEANUP_H */
