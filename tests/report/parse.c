/* SPDX-License-Identifier: MIT */
/* Host report tool: reads a pmuboot serial log (header, TAP, diagnostics, data lines). */
#include "tests/report/report.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q) {
		fprintf(stderr, "report: out of memory\n");
		exit(2);
	}
	return q;
}

static char *xstrndup(const char *s, size_t n)
{
	char *d = xrealloc(NULL, n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

#define PUSH(arr, n, item)						\
	do {								\
		(arr) = xrealloc((arr), ((n) + 1) * sizeof(*(arr)));	\
		(arr)[(n)++] = (item);					\
	} while (0)

const char *status_name(enum status s)
{
	return s == ST_PASS ? "pass" : s == ST_FAIL ? "fail" : "skip";
}

static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------------ values */

/* Unit words pmuboot prints after a number (README "Output": units). */
static const char *const unit_words[] = {
	"ns", "us", "ms", "s", "Hz", "kHz", "MHz", "GHz", "B", "bytes", "KiB", "MiB", "GiB",
	"MB/s", "GB/s", "%", "cycles", "instructions", "branches", "loads", "stores", "records",
	"samples", "PMIs", "NMIs", "entries", "bits", "lines", "pages", "misses", "ticks",
	"tsc_per_load", "bytes_per_tsc",
};

static const char *unit_of(const char *w, size_t n)
{
	for (size_t i = 0; i < sizeof(unit_words) / sizeof(unit_words[0]); i++)
		if (strlen(unit_words[i]) == n && !strncmp(unit_words[i], w, n))
			return unit_words[i];
	return NULL;
}

/* A number at s (decimal, float, 0x hex; optional sign); returns its end or NULL. */
static const char *read_num(const char *s, double *out)
{
	const char *p = s;
	char *end;
	bool neg = false;

	if (*p == '+' || *p == '-') {
		neg = *p == '-';
		p++;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])) {
		unsigned long long v;

		errno = 0;
		v = strtoull(p + 2, &end, 16);
		if (errno)
			return NULL;
		*out = neg ? -(double)v : (double)v;
		return end;
	}
	if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
		return NULL;
	/* strtod would take "1..5" as 1. then fail at ".5": read the digits ourselves */
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.' && isdigit((unsigned char)p[1])) {
		p++;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if ((*p == 'e' || *p == 'E') && (isdigit((unsigned char)p[1]) ||
					 ((p[1] == '-' || p[1] == '+') && isdigit((unsigned char)p[2])))) {
		p += 2;
		while (isdigit((unsigned char)*p))
			p++;
	}
	{
		char buf[64];
		size_t n = (size_t)(p - s);

		if (n >= sizeof(buf))
			return NULL;
		memcpy(buf, s, n);
		buf[n] = '\0';
		*out = strtod(buf, &end);
		if (*end || !isfinite(*out))
			return NULL;
	}
	return p;
}

static const char *skip_sp(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* After a number: an optional unit word, then the end, a parenthetical, or ',' / ';' and
 * anything. Returns true when that is all; sets *unit. */
static bool tail_ok(const char *p, const char **unit, size_t *ulen)
{
	const char *w;

	*unit = NULL;
	*ulen = 0;
	p = skip_sp(p);
	w = p;
	while (*p && *p != ' ' && *p != ',' && *p != ';' && *p != '(' && *p != ')')
		p++;
	if (p > w) {
		*unit = w;
		*ulen = (size_t)(p - w);
		p = skip_sp(p);
	}
	return !*p || *p == '(' || *p == ',' || *p == ';';
}

void value_parse(const char *text, struct value *v)
{
	const char *p, *q, *u;
	size_t ulen;
	double a, b;
	size_t n = strlen(text);

	memset(v, 0, sizeof(*v));
	while (n && (text[n - 1] == ' ' || text[n - 1] == '\t'))
		n--;
	v->text = xstrndup(text, n);
	v->kind = VK_TEXT;
	p = skip_sp(v->text);

	/* bounds: >=X >X <=X <X (and the UTF-8 signs) */
	if (*p == '>' || *p == '<' || !strncmp(p, "\xe2\x89\xa5", 3) || !strncmp(p, "\xe2\x89\xa4", 3)) {
		char op[3] = { 0 };

		if ((unsigned char)*p == 0xe2) {
			op[0] = p[2] == '\xa5' ? '>' : '<';
			op[1] = '=';
			p += 3;
		} else {
			op[0] = *p++;
			if (*p == '=')
				op[1] = *p++;
		}
		p = skip_sp(p);
		q = read_num(p, &a);
		if (q && tail_ok(q, &u, &ulen)) {
			v->kind = VK_BOUND;
			v->num = a;
			memcpy(v->op, op, sizeof(op));
			if (u && unit_of(u, ulen))
				v->unit = xstrdup(unit_of(u, ulen));
		}
		return;
	}
	q = read_num(p, &a);
	if (!q)
		return;
	/* range A..B */
	if (q[0] == '.' && q[1] == '.') {
		const char *r = read_num(q + 2, &b);

		if (r && tail_ok(r, &u, &ulen)) {
			v->kind = VK_RANGE;
			v->lo = a;
			v->hi = b;
			if (u && unit_of(u, ulen))
				v->unit = xstrdup(unit_of(u, ulen));
		}
		return;
	}
	/* tolerance: A±T, A +- T, A+/-T */
	{
		const char *t = skip_sp(q);
		size_t pm = !strncmp(t, "\xc2\xb1", 2) ? 2 : !strncmp(t, "+-", 2) ? 2 :
			    !strncmp(t, "+/-", 3) ? 3 : 0;

		if (pm) {
			const char *r = read_num(skip_sp(t + pm), &b);

			if (r && tail_ok(r, &u, &ulen)) {
				v->kind = VK_TOL;
				v->num = a;
				v->tol = fabs(b);
				if (u && unit_of(u, ulen))
					v->unit = xstrdup(unit_of(u, ulen));
			}
			return;
		}
	}
	if (tail_ok(q, &u, &ulen)) {
		v->kind = VK_NUMBER;
		v->num = a;
		if (u && unit_of(u, ulen))
			v->unit = xstrdup(unit_of(u, ulen));
	}
}

void value_free(struct value *v)
{
	free(v->text);
	free(v->unit);
	memset(v, 0, sizeof(*v));
}

/* Whether p starts a " key=" token: a space, then [A-Za-z_][A-Za-z0-9_]*=. */
static bool key_token(const char *p)
{
	if (*p != ' ')
		return false;
	p++;
	if (!isalpha((unsigned char)*p) && *p != '_')
		return false;
	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	return *p == '=';
}

/* Where key=VALUE (key at a word start) begins in s, or NULL. */
static const char *find_key(const char *s, const char *key)
{
	size_t kl = strlen(key);

	for (const char *p = s; (p = strstr(p, key)); p++)
		if ((p == s || p[-1] == ' ') && p[kl] == '=')
			return p + kl + 1;
	return NULL;
}

/* The value of key in detail: up to stop (if given and found later) or the next key token. */
static char *token_value(const char *detail, const char *key, const char *stop)
{
	const char *v = find_key(detail, key), *e;

	if (!v)
		return NULL;
	e = NULL;
	if (stop) {
		const char *s = find_key(v, stop);

		if (s)
			e = s - strlen(stop) - 2;	/* the space before "stop=" */
	}
	if (!e) {
		e = v;
		while (*e && !key_token(e))
			e++;
	}
	if (e < v)
		e = v;
	return xstrndup(v, (size_t)(e - v));
}

/* ------------------------------------------------------------------ lines */

struct pending {
	char **diag;		/* lines after "# progress:" for the check that follows */
	size_t ndiag;
	char *name;
};

static void add_datum(struct check *c, const char *line)
{
	struct datum d = { 0 };
	const char *p = skip_sp(line), *e;

	e = p;
	while (*e && *e != ' ')
		e++;
	if (e == p)
		return;
	d.series = xstrndup(p, (size_t)(e - p));
	for (p = skip_sp(e); *p; p = skip_sp(p)) {
		struct kv kv = { 0 };
		const char *eq = p, *val;

		while (*eq && *eq != '=' && *eq != ' ')
			eq++;
		e = eq;
		while (*e && *e != ' ')
			e++;
		if (*eq != '=') {
			p = e;
			continue;
		}
		kv.key = xstrndup(p, (size_t)(eq - p));
		val = eq + 1;
		kv.text = xstrndup(val, (size_t)(e - val));
		{
			double x;
			const char *r = read_num(kv.text, &x);

			kv.is_num = r && !*r;
			kv.num = kv.is_num ? x : 0;
		}
		PUSH(d.kv, d.nkv, kv);
		p = e;
	}
	d.check = c->name;
	PUSH(c->data, c->ndata, d);
}

static void add_diag(struct report *r, struct check *c, const char *text)
{
	(void)r;
	PUSH(c->diag, c->ndiag, xstrdup(text));
	if (!strncmp(text, "data: ", 6))
		add_datum(c, text + 6);
}

static int parse_result(struct report *r, const char *line, struct pending *pend, char *err,
			size_t errlen, unsigned lineno)
{
	struct check c = { 0 };
	const char *p = line, *name, *e;
	bool ok;
	char *num_end;
	unsigned long num;

	ok = !strncmp(p, "ok ", 3);
	p += ok ? 3 : 7;
	if (!isdigit((unsigned char)*p)) {
		seterr(err, errlen, "line %u: result line without a test number: %.80s", lineno, line);
		return -1;
	}
	errno = 0;
	num = strtoul(p, &num_end, 10);
	if (errno || num == 0 || num > 100000000UL || *num_end != ' ') {
		seterr(err, errlen, "line %u: result line with a bad test number: %.80s", lineno, line);
		return -1;
	}
	c.number = (unsigned)num;
	name = num_end + 1;
	e = name;
	while (*e && *e != ' ')
		e++;
	if (e == name || !memchr(name, '.', (size_t)(e - name))) {
		seterr(err, errlen, "line %u: result line without a group.name: %.80s", lineno, line);
		return -1;
	}
	c.name = xstrndup(name, (size_t)(e - name));
	{
		char *at = strstr(c.name, "@apic");
		char *dot = strchr(c.name, '.');

		c.base = at ? xstrndup(c.name, (size_t)(at - c.name)) : xstrdup(c.name);
		c.group = xstrndup(c.name, (size_t)(dot - c.name));
		c.cpu = r->bsp_apic;
		if (at) {
			char *ae;
			long id = strtol(at + 5, &ae, 10);

			if (ae > at + 5 && !*ae && id >= 0) {
				c.cpu = id;
				c.cpu_tagged = true;
			}
		}
	}
	p = skip_sp(e);
	c.status = ok ? ST_PASS : ST_FAIL;
	if (*p == '#') {
		p = skip_sp(p + 1);
		if (!strncasecmp(p, "skip", 4) && (p[4] == ' ' || !p[4])) {
			if (ok)
				c.status = ST_SKIP;
			p = skip_sp(p + 4);
		}
		c.detail = xstrdup(p);
	} else if (*p) {
		/* TAP allows a description after the name; pmuboot prints none, keep it */
		c.detail = xstrdup(p);
	} else {
		c.detail = xstrdup("");
	}
	if (c.status != ST_SKIP) {
		char *m = token_value(c.detail, "measured", "expected");
		char *x = token_value(c.detail, "expected", NULL);
		char *u = token_value(c.detail, "unit", NULL);

		if (m)
			value_parse(m, &c.measured);
		if (x)
			value_parse(x, &c.expected);
		if (u && *u) {
			char *t = u + strlen(u);

			while (t > u && t[-1] == ' ')
				*--t = '\0';
			c.unit = xstrdup(u);
		} else if (c.measured.unit) {
			c.unit = xstrdup(c.measured.unit);
		} else if (c.expected.unit) {
			c.unit = xstrdup(c.expected.unit);
		}
		free(m);
		free(x);
		free(u);
	}
	/* lines printed after "# progress: k/n NAME" and before NAME's result belong to it */
	if (pend->name && !strcmp(pend->name, c.name)) {
		for (size_t i = 0; i < pend->ndiag; i++)
			add_diag(r, &c, pend->diag[i]);
	} else if (pend->ndiag && r->nchecks) {
		/* not this check's: the previous one's (a log without progress lines) */
		for (size_t i = 0; i < pend->ndiag; i++)
			add_diag(r, &r->checks[r->nchecks - 1], pend->diag[i]);
	}
	for (size_t i = 0; i < pend->ndiag; i++)
		free(pend->diag[i]);
	free(pend->diag);
	free(pend->name);
	memset(pend, 0, sizeof(*pend));
	PUSH(r->checks, r->nchecks, c);
	return 0;
}

static void header_line(struct report *r, const char *text)
{
	struct header_line h;
	const char *colon;

	if (!strncmp(text, "pmuboot ", 8)) {
		h.key = xstrdup("pmuboot");
		h.value = xstrdup(text + 8);
	} else if ((colon = strstr(text, ": ")) && colon > text) {
		h.key = xstrndup(text, (size_t)(colon - text));
		h.value = xstrdup(colon + 2);
	} else {
		return;
	}
	if (!strcmp(h.key, "error"))
		PUSH(r->errors, r->nerrors, xstrdup(h.value));
	PUSH(r->hdr, r->nhdr, h);
}

const char *report_header(const struct report *r, const char *key)
{
	for (size_t i = 0; i < r->nhdr; i++)
		if (!strcmp(r->hdr[i].key, key))
			return r->hdr[i].value;
	return NULL;
}

/* The BSP's APIC ID: "# cpu 0: APIC ID N, ..." or "# apic: ... id N ...". */
static long bsp_apic_id(const struct report *r)
{
	const char *v = report_header(r, "cpu 0"), *p;

	if (v && !strncmp(v, "APIC ID ", 8) && isdigit((unsigned char)v[8]))
		return strtol(v + 8, NULL, 10);
	v = report_header(r, "apic");
	if (v && (p = strstr(v, " id ")) && isdigit((unsigned char)p[4]))
		return strtol(p + 4, NULL, 10);
	return -1;
}

/* Copies line [s, e) without CR, terminal escape sequences and other control bytes. */
static char *clean_line(const char *s, const char *e)
{
	char *out = xrealloc(NULL, (size_t)(e - s) + 1), *o = out;

	while (s < e) {
		unsigned char ch = (unsigned char)*s;

		if (ch == 0x1b) {
			s++;
			if (s < e && *s == '[') {
				s++;
				while (s < e && (isdigit((unsigned char)*s) || *s == ';' || *s == '=' ||
						 *s == '?'))
					s++;
				if (s < e)
					s++;
			}
			continue;
		}
		if (ch < 0x20 && ch != '\t') {
			s++;
			continue;
		}
		*o++ = (char)(ch == '\t' ? ' ' : ch);
		s++;
	}
	*o = '\0';
	return out;
}

static bool is_summary(const char *l, long *p, long *f, long *s)
{
	char tail;

	return sscanf(l, "%ld passed, %ld failed, %ld skipped%c", p, f, s, &tail) == 3 &&
	       strstr(l, " skipped") && l[strlen(l) - 1] == 'd';
}

int report_parse(const char *buf, size_t len, struct report *r, char *err, size_t errlen)
{
	const char *p = buf, *end = buf + len;
	bool seen_header = false;
	struct pending pend = { 0 };
	unsigned lineno = 0;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	r->plan = -1;
	r->bsp_apic = -1;
	r->sum_pass = r->sum_fail = r->sum_skip = -1;
	if (memchr(buf, '\0', len)) {
		seterr(err, errlen, "not a pmuboot log: binary data (a NUL byte)");
		return -1;
	}
	while (p < end && !r->complete) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end;
		char *line = clean_line(p, le), *l = line;

		lineno++;
		p = nl ? nl + 1 : end;
		if (!seen_header) {
			char *h = strstr(line, "# pmuboot ");

			if (!h) {
				free(line);
				continue;
			}
			seen_header = true;
			l = h;
		}
		if (!r->tap) {
			if (!strcmp(l, "TAP version 13") || !strncmp(l, "TAP version ", 12)) {
				r->tap = true;
				r->bsp_apic = bsp_apic_id(r);
			} else if (!strncmp(l, "# ", 2)) {
				header_line(r, l + 2);
			} else if (!strncmp(l, "Bail out!", 9)) {
				r->bail = xstrdup(skip_sp(l + 9));
			}
			free(line);
			continue;
		}
		if (!strncmp(l, "ok ", 3) || !strncmp(l, "not ok ", 7)) {
			rc = parse_result(r, l, &pend, err, errlen, lineno);
			if (rc) {
				free(line);
				break;
			}
		} else if (!strncmp(l, "# progress: ", 12)) {
			const char *n = strchr(l + 12, ' ');

			/* lines before it belong to the check above */
			for (size_t i = 0; i < pend.ndiag; i++) {
				if (r->nchecks)
					add_diag(r, &r->checks[r->nchecks - 1], pend.diag[i]);
				free(pend.diag[i]);
			}
			free(pend.diag);
			free(pend.name);
			memset(&pend, 0, sizeof(pend));
			pend.name = n ? xstrdup(n + 1) : NULL;
		} else if (l[0] == '#') {
			const char *t = l[1] == ' ' ? l + 2 : l + 1;

			if (!strncmp(t, "error: ", 7))
				PUSH(r->errors, r->nerrors, xstrdup(t + 7));
			if (pend.name || !r->nchecks)
				PUSH(pend.diag, pend.ndiag, xstrdup(t));
			else
				add_diag(r, &r->checks[r->nchecks - 1], t);
		} else if (!strncmp(l, "Bail out!", 9)) {
			free(r->bail);
			r->bail = xstrdup(skip_sp(l + 9));
		} else if (r->plan < 0 && !strncmp(l, "1..", 3)) {
			char *e;
			long n = strtol(l + 3, &e, 10);

			if (*e || n < 0) {
				seterr(err, errlen, "line %u: malformed plan line: %.80s", lineno, l);
				rc = -1;
				free(line);
				break;
			}
			r->plan = n;
		} else if (is_summary(l, &r->sum_pass, &r->sum_fail, &r->sum_skip)) {
			r->complete = true;
		}
		/* anything else (firmware or QEMU noise between lines) is ignored */
		free(line);
	}
	/* diagnostics after the last result */
	for (size_t i = 0; i < pend.ndiag; i++) {
		if (rc == 0 && r->nchecks)
			add_diag(r, &r->checks[r->nchecks - 1], pend.diag[i]);
		free(pend.diag[i]);
	}
	free(pend.diag);
	free(pend.name);
	if (rc)
		return rc;
	if (!seen_header) {
		seterr(err, errlen, "not a pmuboot log: no '# pmuboot VERSION' header line");
		return -1;
	}
	if (r->tap && r->plan < 0 && r->nchecks) {
		seterr(err, errlen, "malformed TAP: results without a plan line (1..N)");
		return -1;
	}
	for (size_t i = 0; i < r->nchecks; i++) {
		if (r->checks[i].number != i + 1) {
			seterr(err, errlen, "malformed TAP: result %zu is numbered %u (%s)", i + 1,
			       r->checks[i].number, r->checks[i].name);
			return -1;
		}
	}
	return 0;
}

static void free_check(struct check *c)
{
	free(c->name);
	free(c->base);
	free(c->group);
	free(c->detail);
	free(c->unit);
	value_free(&c->measured);
	value_free(&c->expected);
	for (size_t i = 0; i < c->ndiag; i++)
		free(c->diag[i]);
	free(c->diag);
	for (size_t i = 0; i < c->ndata; i++) {
		for (size_t k = 0; k < c->data[i].nkv; k++) {
			free(c->data[i].kv[k].key);
			free(c->data[i].kv[k].text);
		}
		free(c->data[i].kv);
		free(c->data[i].series);
	}
	free(c->data);
}

void report_free(struct report *r)
{
	for (size_t i = 0; i < r->nchecks; i++)
		free_check(&r->checks[i]);
	free(r->checks);
	for (size_t i = 0; i < r->nhdr; i++) {
		free(r->hdr[i].key);
		free(r->hdr[i].value);
	}
	free(r->hdr);
	for (size_t i = 0; i < r->nerrors; i++)
		free(r->errors[i]);
	free(r->errors);
	free(r->bail);
	memset(r, 0, sizeof(*r));
}
