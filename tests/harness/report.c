/* SPDX-License-Identifier: MIT */
/* The check-reporting library: every result's detail formatted in one place. */
#include <stdarg.h>
#include "tests/harness/check.h"
#include "tests/harness/env.h"
#include "lib/fmt.h"

enum check_status check_report(struct check_ctx *c, enum check_status st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
	c->status = st;
	return st;
}

enum check_status check_error(struct check_ctx *c, const char *err, const char *fmt, ...)
{
	char what[CHECK_DETAIL_LEN];
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return check_report(c, CHECK_FAIL, "measured=%s expected=%s", err, what);
}

enum check_status check_range(struct check_ctx *c, int64_t measured, const struct expect_range *r,
			      const char *fmt, ...)
{
	char range[48], note[CHECK_DETAIL_LEN] = "";
	va_list ap;

	if (r->lo != INT64_MIN && r->hi != INT64_MAX)
		fmt_snprintf(range, sizeof(range), "%lld..%lld", (long long)r->lo, (long long)r->hi);
	else if (r->hi != INT64_MAX)
		fmt_snprintf(range, sizeof(range), "<=%lld", (long long)r->hi);
	else
		fmt_snprintf(range, sizeof(range), ">=%lld", (long long)r->lo);
	if (fmt) {
		va_start(ap, fmt);
		fmt_vsnprintf(note, sizeof(note), fmt, ap);
		va_end(ap);
	}
	return check_report(c, expect_in(r, measured) ? CHECK_PASS : CHECK_FAIL,
			    "measured=%lld expected=%s (%s)%s%s", (long long)measured, range,
			    r->why ? r->why : "", note[0] ? " " : "", note);
}

bool check_skip_unless_forced(struct check_ctx *c, bool missing, const char *fmt, ...)
{
	va_list ap;

	if (!missing || env.force_pmu)
		return false;
	va_start(ap, fmt);
	fmt_vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
	c->status = CHECK_SKIP;
	return true;
}

enum check_status check_eq(struct check_ctx *c, uint64_t measured, uint64_t expected,
			   const char *fmt, ...)
{
	char note[CHECK_DETAIL_LEN] = "";
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		fmt_vsnprintf(note, sizeof(note), fmt, ap);
		va_end(ap);
	}
	return check_report(c, measured == expected ? CHECK_PASS : CHECK_FAIL,
			    "measured=%llu expected=%llu%s%s", (unsigned long long)measured,
			    (unsigned long long)expected, note[0] ? " " : "", note);
}
