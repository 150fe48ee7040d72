/* SPDX-License-Identifier: MIT */
/* TAP version 13 writer for check results (pure: output goes through a callback). */
#ifndef TESTS_HARNESS_TAP_H
#define TESTS_HARNESS_TAP_H

#include <stdarg.h>
#include <stddef.h>

/* Receives complete lines, each ending in "\n". */
typedef void (*tap_out_fn)(void *ctx, const char *line);

struct tap {
	tap_out_fn out;
	void *ctx;
	unsigned planned;	/* from tap_plan */
	unsigned next;		/* number of the next test point (starts at 1) */
	unsigned passed, failed, skipped;
};

void tap_init(struct tap *t, tap_out_fn out, void *ctx);
/* "TAP version 13" */
void tap_version(struct tap *t);
/* "1..N" */
void tap_plan(struct tap *t, unsigned n);

/*
 * One result line. `name` is the check's name (group.name); `detail` (may be NULL or "")
 * follows after " # ", e.g. "measured=4000 expected=4000":
 *   ok 3 icount.loop_delta # measured=4000 expected=4000
 *   not ok 4 fault.ud # measured=none expected=#UD(6)
 * Passing counts toward passed, failing toward failed. Returns the test number used.
 */
unsigned tap_result(struct tap *t, int pass, const char *name, const char *detail);
/* "ok N name # SKIP reason" (counts as skipped). */
unsigned tap_skip(struct tap *t, const char *name, const char *reason);
/* Diagnostic comment line(s): "# text"; embedded newlines each start a new "# " line. */
void tap_diag(struct tap *t, const char *text);
void tap_diagf(struct tap *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "Bail out! reason" */
void tap_bail(struct tap *t, const char *reason);
/* The closing line "N passed, N failed, N skipped" alone on a line. Returns failed. */
unsigned tap_summary(struct tap *t);

/* Characters that would break a TAP line ('\n', '\r', '#') in names or details are replaced
 * by '_' (names) or ' ' (line breaks in details) by the writer. */

#endif /* TESTS_HARNESS_TAP_H */
