/* SPDX-License-Identifier: MIT */
/* Events for the user: the measure= plan made before anything runs, and what `list` prints. */
#ifndef TESTS_HARNESS_LIST_H
#define TESTS_HARNESS_LIST_H

#include <stddef.h>
#include <stdint.h>
#include "tests/harness/options.h"

/* Resolves the measure= sets against this CPU's catalogs and plans their runs
 * (tests/checks/measure.c). 0, or -1 with err ("WHERE: measure=...: unknown event 'X';
 * nearest: ..."); then nothing may run. Call after the CPUID probe, before list. */
int measure_prepare(const struct options *o, char *err, size_t errlen);
/* The memory kernels' sizes against the test buffer: 0, or -1 with err. */
int measure_check_buffer(uint64_t buf_size, char *err, size_t errlen);

/* `list=events`: every event of the catalogs of this CPU (tests/harness/list.c). */
void events_list_print(void);
/* `list=coverage`: per model, the events with an expectation and those without, and why
 * (tests/events_coverage_stub.c until the expectations table lands). */
void events_coverage_print(void);

#endif /* TESTS_HARNESS_LIST_H */
