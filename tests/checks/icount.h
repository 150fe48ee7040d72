/* SPDX-License-Identifier: MIT */
/* The instruction-count oracle's availability, for the checks that fall back on it. */
#ifndef TESTS_CHECKS_ICOUNT_H
#define TESTS_CHECKS_ICOUNT_H

/* Why the icount checks cannot run (no option icount, or the TSC does not count retired
 * instructions), or NULL. */
const char *icount_unavailable(void);

#endif /* TESTS_CHECKS_ICOUNT_H */
