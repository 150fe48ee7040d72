/* SPDX-License-Identifier: MIT */
/* What a check is and how it reports: the registry entry, CHECK_DEFINE, the result helpers. */
#ifndef TESTS_HARNESS_CHECK_H
#define TESTS_HARNESS_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/string.h"		/* str_lcpy, for CHECK_TABLE_INSTANCES */
#include "tests/expect/arch.h"	/* struct expect_range */

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
#define CHECK_PER_CPU	(1U << 2)	/* of a CPU's own PMU and health: runs on every
					 * chosen CPU (cpus=), its name then ending in
					 * "@apicN" */
#define CHECK_PACKAGE	(1U << 3)	/* of the whole package or of two CPUs (uncore,
					 * xcore): runs on the bootstrap processor after every
					 * CPU's own checks, which it would otherwise disturb */
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

/*
 * Declares a check, next to its code: the one edit a new check takes. ORDER, a number below
 * 10000, places it in the run (the suite runs in ascending ORDER; `list` shows the result);
 * the rest are designated initializers of struct check:
 *
 *	CHECK_DEFINE(250, "pmu.arch", check_pmu_arch_event,
 *		     "each architectural event on each GP counter against the calibrated loop",
 *		     .flags = CHECK_PER_CPU, .instances = pmu_arch_instances,
 *		     .instance_name = pmu_arch_instance_name);
 *
 * The entries land in sections .data.checks.<ORDER>, which the linker script sorts by that
 * number (SORT_BY_INIT_PRIORITY, as for .init_array.<N>) between __start_checks and
 * __stop_checks. Each ORDER also defines the global absolute symbol check_order_<ORDER>,
 * so two checks given the same ORDER fail the link ("multiple definition").
 */
#define CHECK_DEFINE(order, nm, fn, dsc, ...)						\
	_Static_assert((order) > 0 && (order) < 10000, "CHECK_DEFINE order out of range");	\
	__asm__(".globl check_order_" #order "\n.set check_order_" #order ", " #order);	\
	static const struct check check_def_##fn						\
	__attribute__((used, aligned(8), section(".data.checks." #order))) = {		\
		.name = (nm), .desc = (dsc), .run = (fn), __VA_ARGS__ }

/*
 * The instance functions of a check run once per row of a static table whose rows carry a
 * .name: defines PREFIX_instances() (the rows) and PREFIX_instance_name() (row i's name),
 * for CHECK_DEFINE's .instances and .instance_name.
 */
#define CHECK_TABLE_INSTANCES(prefix, table)						\
	static unsigned prefix##_instances(void)					\
	{										\
		return sizeof(table) / sizeof((table)[0]);				\
	}										\
	static void prefix##_instance_name(unsigned i, char *buf, size_t len)		\
	{										\
		str_lcpy(buf, i < prefix##_instances() ? (table)[i].name : "?", len);	\
	}

/* Result helpers: each records a detail ("measured=... expected=..." or the skip reason)
 * and returns the status for run() to return. */
enum check_status check_report(struct check_ctx *c, enum check_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define check_pass(c, ...)	check_report((c), CHECK_PASS, __VA_ARGS__)
#define check_fail(c, ...)	check_report((c), CHECK_FAIL, __VA_ARGS__)
#define check_skip(c, ...)	check_report((c), CHECK_SKIP, __VA_ARGS__)
/*
 * A result with its measured value and what was expected, the library writing the keys:
 * "measured=MEASURED expected=EXPECTED", both printf formats (string literals) over the
 * arguments that follow, MEASURED's first. st is CHECK_PASS or CHECK_FAIL:
 *
 *	return check_result(c, CHECK_FAIL, "%llu NMIs without an overflow bit", "none", n);
 */
#define check_result(c, st, measured, expected, ...)					\
	check_report((c), (st), "measured=" measured " expected=" expected, ##__VA_ARGS__)

/* A run that could not be made (an engine's error message): FAIL with the detail
 * "measured=ERR expected=WHAT", WHAT formatted from fmt. */
enum check_status check_error(struct check_ctx *c, const char *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Pass when r->lo <= measured <= r->hi. Detail "measured=M expected=LO..HI (WHY)", a bound
 * that is not there written as ">=LO" or "<=HI", then a space and the note formatted from
 * fmt (NULL: none). */
enum check_status check_range(struct check_ctx *c, int64_t measured, const struct expect_range *r,
			      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Pass when measured == expected; detail "measured=M expected=E", then a space and the
 * note formatted from fmt (NULL: none). */
enum check_status check_eq(struct check_ctx *c, uint64_t measured, uint64_t expected,
			   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/*
 * The force-pmu rule, in one place: a check SKIPs for what the PMU or the platform lacks
 * (`missing`), unless force-pmu asks it to run anyway, and then fail where that really is
 * missing. Returns true, with the SKIP and its reason recorded, when the check must stop
 * and return CHECK_SKIP:
 *
 *	if (check_skip_unless_forced(c, pmu.num_gp < 2, "needs 2 GP counters"))
 *		return CHECK_SKIP;
 */
bool check_skip_unless_forced(struct check_ctx *c, bool missing, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Extra diagnostic lines printed under the result. */
void check_diag(struct check_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same for the check running now, from code that has no check_ctx at hand. */
void check_diag_now(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* TESTS_HARNESS_CHECK_H */
