/* SPDX-License-Identifier: MIT */
/* The user's event lists (measure=): the plan, made before anything runs. */
#ifndef TESTS_CHECKS_MEASURE_H
#define TESTS_CHECKS_MEASURE_H

#include <stddef.h>
#include <stdint.h>
#include "tests/harness/options.h"

/* Resolves the measure= sets against this CPU's catalogs and plans their runs. 0, or -1
 * with err ("WHERE: measure=...: unknown event 'X'; nearest: ..."); then nothing may run. Call after the CPUID probe, before list. */
int measure_prepare(const struct options *o, char *err, size_t errlen);
/* The memory kernels' sizes against the test buffer: 0, or -1 with err. */
int measure_check_buffer(uint64_t buf_size, char *err, size_t errlen);

#endif /* TESTS_CHECKS_MEASURE_H */
