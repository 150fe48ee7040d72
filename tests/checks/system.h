/* SPDX-License-Identifier: MIT */
/* The cleanup the runner gives every check (tests/checks/system.c). */
#ifndef TESTS_CHECKS_SYSTEM_H
#define TESTS_CHECKS_SYSTEM_H

#include "tests/harness/check.h"

/* After every check, however it ended (the watchdog too): stops the PMU, puts DEBUGCTL to
 * the baseline, masks the LVT entry, drains a PMI left waiting (noted under the check's
 * result and failing system.unexpected_interrupts), removes the checks' PMI handlers. */
void check_cleanup(struct check_ctx *c);

#endif /* TESTS_CHECKS_SYSTEM_H */
