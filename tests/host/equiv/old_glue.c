/* SPDX-License-Identifier: MIT */
/* compiled against the OLD tests/events.h and tests/expect_uncore.h */
#include <string.h>
#include "tests/events.h"
#include "tests/expect_uncore.h"
typedef int (*lookup_fn)(const char *name, unsigned kernel, unsigned size, long long *v);
static lookup_fn lk;
static bool get(void *ctx, const char *name, unsigned kernel, uint32_t size, int64_t *count)
{
	long long v; (void)ctx;
	if (!lk(name, kernel, size, &v)) return false;
	*count = v; return true;
}
unsigned old_nrows(void) { return events_nrows; }
const struct events_row *old_row(unsigned i) { return &events_rows[i]; }
void old_info(unsigned i, const char **model, const char **event, int *rel, unsigned *k, unsigned *s,
	      unsigned *k2, unsigned *s2, int *lo, int *hi, int *hi2, int *tol, const char **terms)
{
	const struct events_row *r = &events_rows[i];
	*model = r->model; *event = r->event; *rel = r->rel; *k = r->kernel; *s = r->size;
	*k2 = r->kernel2; *s2 = r->size2; *lo = r->lo; *hi = r->hi; *hi2 = r->hi2; *tol = r->tol;
	*terms = r->terms;
}
unsigned long long old_iters(unsigned k, unsigned s) { return events_iters(k, s); }
int old_eval(unsigned i, lookup_fn f, unsigned long long n, unsigned long long n2)
{
	char d[256];
	lk = f;
	return events_eval(&events_rows[i], get, NULL, n, n2, d, sizeof(d));
}
unsigned old_terms(const char *terms, char *buf, unsigned len, const char **names, int *signs)
{
	return events_terms(terms, buf, len, names, signs, EV_MAX_TERMS);
}
/* ux rows */
unsigned old_ux_n(void) { return ux_nrows; }
void old_ux_info(unsigned i, const char **model, const char **event, int *kind, const char **rel0,
		 const char **rel1, const char *const **refs0, const char *const **refs1)
{
	const struct ux_row *r = &ux_rows[i];
	*model = r->model; *event = r->event; *kind = r->kind; *rel0 = r->c[0].rel; *rel1 = r->c[1].rel;
	*refs0 = r->c[0].refs; *refs1 = r->c[1].refs;
}
int old_ux_eval(const char *rel, long long v, const long long *ref, long long n, long long u, long long t)
{
	struct ux_vals x = { .v = v, .n = n, .uclk = u, .us = t };
	for (int i = 0; i < UX_MAX_REFS; i++) x.ref[i] = ref[i];
	return ux_rel_eval(rel, &x, NULL, 0);
}
