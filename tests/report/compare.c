/* SPDX-License-Identifier: MIT */
/* Host report tool: what changed between two results.json (two machines, two versions). */
#include "tests/report/compare.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tests/report/report.h"

struct ck {
	const char *name, *status, *detail;
	const struct jval *measured;
};

static int cerr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* The checks of a report, validated. */
static int checks_of(const struct jval *r, const char *label, struct ck **out, size_t *n,
		     char *err, size_t errlen)
{
	const struct jval *cs = json_get(r, "checks");
	const char *fmt = json_string(json_get(r, "format"));

	if (!r || r->type != J_OBJ)
		return cerr(err, errlen, "%s: not a pmuboot report (the top level is not an object)",
			    label);
	if (!fmt || strcmp(fmt, REPORT_FORMAT))
		return cerr(err, errlen, "%s: not a pmuboot report (format is %s%s%s, want \"%s\")",
			    label, fmt ? "\"" : "", fmt ? fmt : "missing", fmt ? "\"" : "",
			    REPORT_FORMAT);
	if (!cs || cs->type != J_ARR)
		return cerr(err, errlen, "%s: \"checks\" is missing or not an array", label);
	*out = calloc(cs->n ? cs->n : 1, sizeof(**out));
	if (!*out)
		return cerr(err, errlen, "out of memory");
	*n = cs->n;
	for (size_t i = 0; i < cs->n; i++) {
		const struct jval *c = &cs->items[i];
		const char *name = json_string(json_get(c, "name"));
		const char *st = json_string(json_get(c, "status"));

		if (!name || !st || (strcmp(st, "pass") && strcmp(st, "fail") && strcmp(st, "skip"))) {
			free(*out);
			*out = NULL;
			return cerr(err, errlen, "%s: check %zu has no name or no status pass/fail/skip",
				    label, i + 1);
		}
		(*out)[i].name = name;
		(*out)[i].status = st;
		(*out)[i].detail = json_string(json_get(c, "detail"));
		(*out)[i].measured = json_get(c, "measured");
	}
	return 0;
}

static const struct ck *find(const struct ck *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

/* A numeric reading of a measured value: the number, or a range's midpoint. */
static bool measured_num(const struct jval *m, double *x)
{
	const char *kind = json_string(json_get(m, "kind"));
	const struct jval *v;

	if (!kind)
		return false;
	if (!strcmp(kind, "number") || !strcmp(kind, "tolerance") || !strcmp(kind, "bound")) {
		v = json_get(m, "value");
		if (v && v->type == J_NUM) {
			*x = v->num;
			return true;
		}
	} else if (!strcmp(kind, "range")) {
		const struct jval *lo = json_get(m, "lo"), *hi = json_get(m, "hi");

		if (lo && hi && lo->type == J_NUM && hi->type == J_NUM) {
			*x = (lo->num + hi->num) / 2;
			return true;
		}
	}
	return false;
}

/* Header values as text (arrays joined with " | ") for printing and comparing. */
static void header_text(const struct jval *v, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!v)
		snprintf(buf, len, "(absent)");
	else if (v->type == J_STR)
		snprintf(buf, len, "%s", v->str);
	else if (v->type == J_ARR)
		for (size_t i = 0; i < v->n; i++) {
			size_t l = strlen(buf);

			snprintf(buf + l, len - l, "%s%s", i ? " | " : "",
				 v->items[i].type == J_STR ? v->items[i].str : "?");
		}
}

int compare_reports(const struct jval *a, const struct jval *b, const struct compare_opts *o,
		    FILE *out, char *err, size_t errlen)
{
	struct ck *ca = NULL, *cb = NULL;
	size_t na, nb, worse = 0, better = 0, other = 0, moved = 0, only_a = 0, only_b = 0, hdr = 0;
	const struct jval *ha, *hb;
	int rc;

	if (checks_of(a, o->label_a, &ca, &na, err, errlen))
		return -1;
	if (checks_of(b, o->label_b, &cb, &nb, err, errlen)) {
		free(ca);
		return -1;
	}
	fprintf(out, "compare: %s (%zu checks) -> %s (%zu checks)\n", o->label_a, na, o->label_b, nb);

	/* header differences: every key of either */
	ha = json_get(a, "header");
	hb = json_get(b, "header");
	for (int side = 0; side < 2; side++) {
		const struct jval *h = side ? hb : ha, *other_h = side ? ha : hb;

		for (size_t i = 0; h && h->type == J_OBJ && i < h->n; i++) {
			char x[1024], y[1024];

			if (side && json_get(other_h, h->keys[i]))
				continue;	/* printed from the first side */
			header_text(side ? json_get(ha, h->keys[i]) : &h->items[i], x, sizeof(x));
			header_text(side ? &h->items[i] : json_get(hb, h->keys[i]), y, sizeof(y));
			if (strcmp(x, y)) {
				fprintf(out, "header %s: %s -> %s\n", h->keys[i], x, y);
				hdr++;
			}
		}
	}

	for (size_t i = 0; i < na; i++) {
		const struct ck *x = &ca[i], *y = find(cb, nb, x->name);
		double mx, my;

		if (!y) {
			fprintf(out, "only in %s: %s (%s)\n", o->label_a, x->name, x->status);
			only_a++;
			continue;
		}
		if (strcmp(x->status, y->status)) {
			const char *what = !strcmp(y->status, "fail") ? "worse" :
					   !strcmp(x->status, "fail") ? "better" : "changed";

			if (!strcmp(what, "worse"))
				worse++;
			else if (!strcmp(what, "better"))
				better++;
			else
				other++;
			fprintf(out, "%s: %s: %s -> %s: %s\n", what, x->name, x->status, y->status,
				y->detail ? y->detail : "");
			continue;
		}
		if (measured_num(x->measured, &mx) && measured_num(y->measured, &my)) {
			double d = fabs(my - mx), base = fabs(mx) > fabs(my) ? fabs(mx) : fabs(my);

			if (d > o->min_abs && base > 0 && d / base * 100 > o->threshold_pct) {
				fprintf(out, "moved: %s: %.10g -> %.10g (%+.1f%%, threshold %g%%)\n",
					x->name, mx, my, mx != 0 ? (my - mx) / fabs(mx) * 100 :
					(my > 0 ? INFINITY : -INFINITY), o->threshold_pct);
				moved++;
			}
		}
	}
	for (size_t i = 0; i < nb; i++) {
		if (find(ca, na, cb[i].name))
			continue;
		fprintf(out, "only in %s: %s (%s)\n", o->label_b, cb[i].name, cb[i].status);
		only_b++;
		if (!strcmp(cb[i].status, "fail")) {
			fprintf(out, "worse: %s: new and failing: %s\n", cb[i].name,
				cb[i].detail ? cb[i].detail : "");
			worse++;
		}
	}
	if (o->moved_is_worse)
		worse += moved;
	fprintf(out, "summary: %zu worse, %zu better, %zu other status changes, %zu moved beyond "
		"%g%%, %zu only in %s, %zu only in %s, %zu header differences\n", worse, better, other,
		moved, o->threshold_pct, only_a, o->label_a, only_b, o->label_b, hdr);
	rc = worse ? 1 : 0;
	free(ca);
	free(cb);
	return rc;
}
