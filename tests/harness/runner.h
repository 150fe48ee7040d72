/* SPDX-License-Identifier: MIT */
/* Check registry, selection by glob, guarded execution under the watchdog, TAP reporting. */
#ifndef TESTS_HARNESS_RUNNER_H
#define TESTS_HARNESS_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tests/harness/options.h"
#include "arch/x86/trap.h"
#include "tests/harness/check.h"
#include "tests/harness/env.h"

/* How a run ends; each reaches QEMU through isa-debug-exit as a distinct status. */
enum run_status {
	RUN_PASS = 0,		/* every selected check passed or skipped */
	RUN_FAIL,		/* at least one check failed */
	RUN_USAGE,		/* bad options: nothing was run */
	RUN_FATAL,		/* an unexpected fault ended the run */
};

/* The suite: every CHECK_DEFINE entry, in run order (linker/pmuboot.lds). */
extern const struct check __start_checks[], __stop_checks[];

/*
 * Whether instance `full_name` of check `ck` is selected by the globs in o (none: every
 * non-manual check). A manual check is selected only by a glob that starts with its group
 * name and a dot.
 */
bool runner_selected(const struct options *o, const struct check *ck, const char *full_name);
/* Fails (-1, err names the glob) when a tests= glob matches no check. */
int runner_validate_globs(const struct options *o, char *err, size_t errlen);

/* Whether ck runs on every chosen CPU (cpus=): the checks flagged CHECK_PER_CPU, those of a
 * CPU's own PMU and health (groups pmu, pebs, lbr, bts, system; and selftest, to prove the
 * runner on each); the rest run on the bootstrap processor, the CHECK_PACKAGE ones, of the
 * whole package or of two CPUs (uncore, xcore), after every CPU's own. When per-CPU checks
 * run on several CPUs, or on one that is not the bootstrap processor, their names end in
 * "@apicN", N the CPU's APIC ID. */
bool runner_per_cpu(const struct check *ck);

/* Prints every check's name, flags and description. */
void runner_list(void);

/* How the run ends after a fatal fault (boot's platform_exit): given before anything runs. */
typedef void (*runner_exit_fn)(enum run_status st) __attribute__((noreturn));
void runner_init(runner_exit_fn exit_fn);

/* Runs the selected checks with e as the checks' env, printing TAP; returns RUN_PASS or
 * RUN_FAIL. */
enum run_status runner_run(const struct options *o, const struct check_env *e);

/* Output path for the fatal-fault report (the trap layer's fatal hook): a TAP failure for
 * the running check, the registers, "Bail out!", then runner_init's exit_fn(RUN_FATAL). */
void runner_fatal(const struct trap_frame *f) __attribute__((noreturn));

#endif /* TESTS_HARNESS_RUNNER_H */
