/* SPDX-License-Identifier: MIT */
/*
 * Expectations for the seeds' uncore events: Nehalem's (seed 000_666bff9af8f20138.txt Tables
 * 22-38) and the Skylake client's (seed 001_dad58ad4a296bcf3.txt Tables 3-1 to 3-3), each row
 * an event, one or two cases (a kernel at a size, the reference events counted beside it in
 * the same window, and a relation), its kind and its source in the seed. Pure: the table,
 * the relation parser and its evaluation, so host tests can prove every relation parses, names
 * only what its case measures, and fails when the uncore counts nothing.
 *
 * A relation is a list of linear constraints separated by ';', each `expr >= expr` or
 * `expr <= expr`; an expr is a sum of terms `[+|-] [P[/Q]] [VAR]` over the variables
 *   v      the row's event (the differential count: count(2N) - count(N), signed)
 *   a..e   the case's reference events, in order
 *   N      the extra steps of the kernel (lines, hand-offs, iterations)
 *   U      the uncore clock over the same extra work (the fixed UCLK counter)
 *   T      the extra work's duration in microseconds (TSC)
 * e.g. "v >= 3/4 N; v <= 4 N + 4096" or "v >= 49/50 a - b - c - 256".
 */
#ifndef TESTS_EXPECT_UNCORE_H
#define TESTS_EXPECT_UNCORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The kernels a case runs, with the size each takes (tests/check_expect_uncore.c). */
enum ux_kernel {
	UXK_LOOP,		/* loop4, 100000 iterations: nothing leaves the core */
	UXK_L2,			/* warm chase over half the L2: every step hits the L2 */
	UXK_LLC,		/* warm chase over min(4 x L2, LLC/2), its lines written back
				 * once after it is built (clean: E in the LLC): a step misses the
				 * L2 with p >= 3/4 and hits the LLC */
	UXK_DRAM,		/* chase over 2N flushed lines (<= 64 MiB): every step misses
				 * every cache */
	UXK_EVICT_CLEAN,	/* before: an LLC-sized region read; then the DRAM chase: each
				 * fill evicts one clean line this core read */
	UXK_EVICT_DIRTY,	/* before: an LLC-sized region written; then the DRAM chase:
				 * each fill evicts one modified line */
	UXK_STORE_NT,		/* MOVNTI, one full line a step (write-combined, uncached) */
	UXK_STORE_LLC,		/* before: an L2 of other lines read (the L2's modified lines
				 * written back); then plain stores over 2N lines, N >= the L2's
				 * lines, within the LLC: each line an RFO hit in the LLC and,
				 * beyond the L2, one writeback */
	UXK_PINGPONG,		/* two CPUs hand one modified line back and forth: N = 2n - 1
				 * cross-core transfers (tests/kernels/xcore.S) */
	UXK_XCLEAN,		/* before: another CPU reads the 2N lines (clean, E there); then
				 * this CPU chases them */
	UXK_XDROP,		/* before: another CPU reads the 2N lines, then reads twice its L2
				 * of other lines (dropping them silently); then this CPU chases */
	UXK_NUM,
};

enum ux_kind {
	UX_NONE = 0,	/* no expectation (why says why) */
	UX_EXACT,	/* an exact count from the kernel's model or the seed */
	UX_IDENTITY,	/* the seed's identities and a queue's own: parts sum to the whole,
			 * occupancy >= allocations, busy <= occupancy <= depth x busy */
	UX_RANGE,	/* a lower bound where the kernel drives the event, an upper bound */
	UX_CONTRAST,	/* counts on one kernel, stays near zero on another */
	UX_QUIET,	/* a range whose upper bound is all there is: the event has no driver
			 * on one socket (peer, remote, IOH, isochronous traffic) */
};

#define UX_MAX_REFS	5
#define UX_MAX_CASES	2

struct ux_case {
	enum ux_kernel k;
	const char *refs[UX_MAX_REFS];	/* seed names, NULL-terminated (or all set) */
	const char *rel;
};

struct ux_row {
	const char *model;		/* "nhm" or "skl" (the check is events.<model>.<event>) */
	const char *event;		/* the seed's name */
	enum ux_kind kind;
	struct ux_case c[UX_MAX_CASES];	/* c[1].rel NULL: one case */
	const char *source;		/* "seed 000 Table 22" */
	const char *why;		/* why a real part meets it (or, for UX_NONE, why none) */
};

extern const struct ux_row ux_rows[];
extern const unsigned ux_nrows;

/* The values a relation is evaluated over. */
struct ux_vals {
	int64_t v, ref[UX_MAX_REFS];
	int64_t n, uclk, us;
};

/* Variables, for ux_rel_uses(). */
#define UXV_V		(1U << 0)
#define UXV_REF(i)	(1U << (1 + (i)))
#define UXV_N		(1U << 6)
#define UXV_U		(1U << 7)
#define UXV_T		(1U << 8)

/*
 * Parses rel; returns 0 and fills *uses (UXV_* bits of the variables it names), *v_lower
 * (some constraint bounds v from below) and *v_upper, or -1 with err naming the position.
 */
int ux_rel_parse(const char *rel, unsigned *uses, bool *v_lower, bool *v_upper, char *err,
		 size_t errlen);
/*
 * Evaluates rel over x: true when every constraint holds; otherwise false with failed set
 * to the first broken constraint as written and its two sides' values ("v >= 3/4 N: 12 <
 * 37500"). Terms P/Q x are rounded toward zero.
 */
bool ux_rel_eval(const char *rel, const struct ux_vals *x, char *failed, size_t len);

const char *ux_kernel_name(enum ux_kernel k);
const char *ux_kernel_size(enum ux_kernel k);	/* the size, in words */
const char *ux_kind_name(enum ux_kind k);
/* How many cases row r has (0 for UX_NONE). */
unsigned ux_ncases(const struct ux_row *r);
/* How many references case c names. */
unsigned ux_nrefs(const struct ux_case *c);
/* The row of `event` for `model`, or NULL. */
const struct ux_row *ux_find(const char *model, const char *event);

/*
 * For the events table (tests/events.h), whose rows of the seeds' uncore events are bound
 * here: the relation kind (enum ev_rel) the uncore row of (model, event) gives (quiet
 * counts as a range), or 0 (EVR_NONE) when it has none or there is no such row, with
 * *why_none (if not NULL) set to the reason or NULL.
 */
unsigned ux_ev_rel(const char *model, const char *event, const char **why_none);

#endif /* TESTS_EXPECT_UNCORE_H */
