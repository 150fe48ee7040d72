/* SPDX-License-Identifier: MIT */
/* Two CPUs at once (tests/checks/xcore.c): the partner CPU, and a plain ping-pong between
 * it and the bootstrap processor, for checks that count the traffic elsewhere (uncore). */
#ifndef TESTS_CHECKS_XCORE_H
#define TESTS_CHECKS_XCORE_H

#include <stddef.h>
#include <stdint.h>

/* The first chosen AP that runs pmuboot, or -1 with *why saying why there is none. */
int xcore_partner(const char **why);

/* n hand-offs each way between this CPU and `cpu` (2n - 1 cross-core transfers of a
 * modified line); no core counter. 0, or -1 with err saying what went wrong. */
int xcore_pingpong(unsigned cpu, uint64_t n, char *err, size_t errlen);

#endif /* TESTS_CHECKS_XCORE_H */
