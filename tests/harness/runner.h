/* SPDX-License-Identifier: MIT */
/* Check registry, selection by glob, guarded execution under the watchdog, TAP reporting. */
#ifndef TESTS_HARNESS_RUNNER_H
#define TESTS_HARNESS_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tests/harness/options.h"
#include "boot/platform.h"
#include "arch/x86/trap.h"

enum check_status {
	CHECK_PASS = 0,
	CHECK_FAIL,
	CHECK_SKIP,
};

#define CHECK_DETAIL_LEN	320

/* What a running check fills in. */
struct check_ctx {
	const struct check *check;
	unsigned instance;		/* for checks with several instances */
	char name[80];			/* full name of this instance */
	char detail[CHECK_DETAIL_LEN];	/* "measured=... expected=..." or the skip reason */
	enum check_status status;
};

/* Flags */
#define CHECK_MANUAL	(1U << 0)	/* runs only when a tests= glob names its group
					 * literally (selftests that fail or hang by design) */
#define CHECK_GATED	(1U << 1)	/* before its instances, run() is called once with
					 * instance CHECK_GATE: a SKIP then stands for every
					 * selected instance, reported once under the check's
					 * own name (events.nhm on a CPU that is not Nehalem) */
#define CHECK_GATE	(~0U)

struct check {
	const char *name;		/* "group.name" */
	const char *desc;		/* one line, shown by `list` */
	enum check_status (*run)(struct check_ctx *c);
	unsigned flags;
	uint32_t timeout_ms;		/* 0: the watchdog= option */
	/* Optional: a check run once per instance (e.g. per counter); names get a suffix. */
	unsigned (*instances)(void);
	void (*instance_name)(unsigned i, char *buf, size_t len);
};

/* Result helpers: each records a detail ("measured=... expected=..." or the skip reason)
 * and returns the status for run() to return. */
enum check_status check_report(struct check_ctx *c, enum check_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define check_pass(c, ...)	check_report((c), CHECK_PASS, __VA_ARGS__)
#define check_fail(c, ...)	check_report((c), CHECK_FAIL, __VA_ARGS__)
#define check_skip(c, ...)	check_report((c), CHECK_SKIP, __VA_ARGS__)
/* Pass when measured == expected; detail "measured=M expected=E" plus an optional note. */
enum check_status check_expect_eq(struct check_ctx *c, uint64_t measured, uint64_t expected,
				  const char *note);
/* Extra diagnostic lines printed under the result. */
void check_diag(struct check_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The suite (tests/harness/suite.c). */
extern const struct check suite_checks[];
extern const size_t suite_count;

/*
 * Whether instance `full_name` of check `ck` is selected by the globs in o (none: every
 * non-manual check). A manual check is selected only by a glob that starts with its group
 * name and a dot.
 */
bool runner_selected(const struct options *o, const struct check *ck, const char *full_name);
/* Fails (-1, err names the glob) when a tests= glob matches no check. */
int runner_validate_globs(const struct options *o, char *err, size_t errlen);

/* Whether ck runs on every chosen CPU (cpus=): the checks of a CPU's own PMU and health
 * (groups pmu, pebs, lbr, bts, system; and selftest, to prove the runner on each); the rest
 * run on the bootstrap processor, those of the whole package or of two CPUs (uncore, xcore)
 * after every CPU's own. When per-CPU checks run on several CPUs, or on one that is not the
 * bootstrap processor, their names end in "@apicN", N the CPU's APIC ID. */
bool runner_per_cpu(const struct check *ck);

/* Prints every check's name, flags and description. */
void runner_list(void);

/* Runs the selected checks, printing TAP; returns RUN_PASS or RUN_FAIL. */
enum run_status runner_run(const struct options *o);

/* Output path for the fatal-fault report: installed by runner_run. */
void runner_fatal(const struct trap_frame *f) __attribute__((noreturn));

#endif /* TESTS_HARNESS_RUNNER_H */
