/* SPDX-License-Identifier: MIT */
/* The uncore expectation relations: parsing and evaluating the linear constraints of a row. */
#include "tests/expect_uncore.h"
#include "tests/events.h"
#include "lib/fmt.h"
#include "lib/string.h"

/* One side of a constraint, evaluated: sum of terms, and what it named. */
struct side {
	int64_t val;
	unsigned uses;
	int vcoef;		/* sign of v's coefficients summed (>0, <0, 0) */
};

struct parser {
	const char *s, *start;
	const struct ux_vals *x;	/* NULL: parse only */
	char *err;
	size_t errlen;
};

static void skip_ws(struct parser *p)
{
	while (*p->s == ' ' || *p->s == '\t')
		p->s++;
}

static int fail(struct parser *p, const char *what)
{
	if (p->err)
		fmt_snprintf(p->err, p->errlen, "%s at offset %u of \"%s\"", what,
			     (unsigned)(p->s - p->start), p->start);
	return -1;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int number(struct parser *p, int64_t *out)
{
	int64_t v = 0;

	if (!is_digit(*p->s))
		return fail(p, "number expected");
	while (is_digit(*p->s)) {
		if (v > 100000000000LL)
			return fail(p, "number too large");
		v = v * 10 + (*p->s++ - '0');
	}
	*out = v;
	return 0;
}

/* The variable at p->s (one letter, not followed by a letter), or -1. */
static int variable(struct parser *p, unsigned *bit, int64_t *val)
{
	char c = *p->s;
	char next = c ? p->s[1] : 0;
	const struct ux_vals *x = p->x;

	if (!c)
		return -1;
	if ((next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') || next == '_')
		return -1;
	switch (c) {
	case 'v': *bit = UXV_V; *val = x ? x->v : 0; break;
	case 'N': *bit = UXV_N; *val = x ? x->n : 0; break;
	case 'U': *bit = UXV_U; *val = x ? x->uclk : 0; break;
	case 'T': *bit = UXV_T; *val = x ? x->us : 0; break;
	default:
		if (c < 'a' || c >= 'a' + UX_MAX_REFS)
			return -1;
		*bit = UXV_REF(c - 'a');
		*val = x ? x->ref[c - 'a'] : 0;
	}
	p->s++;
	return 0;
}

/* expr := ['+'|'-'] term (('+'|'-') term)*;  term := [P['/'Q]] [VAR] */
static int expr(struct parser *p, struct side *out)
{
	bool first = true;

	out->val = 0;
	out->uses = 0;
	out->vcoef = 0;
	for (;;) {
		int64_t num = 1, den = 1, val = 1;
		unsigned bit = 0;
		int sign = 1;
		bool have = false;

		skip_ws(p);
		if (*p->s == '+' || *p->s == '-') {
			sign = *p->s == '-' ? -1 : 1;
			p->s++;
			skip_ws(p);
		} else if (!first) {
			return 0;
		}
		if (is_digit(*p->s)) {
			if (number(p, &num))
				return -1;
			have = true;
			skip_ws(p);
			if (*p->s == '/') {
				p->s++;
				skip_ws(p);
				if (number(p, &den))
					return -1;
				if (!den)
					return fail(p, "division by zero");
				skip_ws(p);
			}
		}
		if (*p->s == '*') {
			p->s++;
			skip_ws(p);
		}
		if (variable(p, &bit, &val) == 0) {
			have = true;
			out->uses |= bit;
			if (bit == UXV_V)
				out->vcoef += sign;
		} else {
			if (!have)
				return fail(p, "term expected");
			if (den != 1)
				return fail(p, "a fraction needs a variable");
			val = 1;
		}
		out->val += sign * (num * val / den);
		first = false;
	}
}

/* Parses (and, with p->x, evaluates) every constraint; holds = all true. */
static int walk(struct parser *p, bool *holds, unsigned *uses, bool *lower, bool *upper,
		char *failed, size_t flen)
{
	*holds = true;
	*uses = 0;
	*lower = *upper = false;
	for (;;) {
		const char *c0;
		struct side l, r;
		bool ge, ok;
		int vc;

		skip_ws(p);
		c0 = p->s;
		if (expr(p, &l))
			return -1;
		skip_ws(p);
		if ((p->s[0] == '>' || p->s[0] == '<') && p->s[1] == '=') {
			ge = p->s[0] == '>';
			p->s += 2;
		} else {
			return fail(p, "'>=' or '<=' expected");
		}
		if (expr(p, &r))
			return -1;
		*uses |= l.uses | r.uses;
		/* v bounded from below: its net coefficient on the greater side is positive. */
		vc = ge ? l.vcoef - r.vcoef : r.vcoef - l.vcoef;
		if (vc > 0)
			*lower = true;
		if (vc < 0)
			*upper = true;
		ok = ge ? l.val >= r.val : l.val <= r.val;
		if (!ok && *holds) {
			*holds = false;
			if (failed) {
				size_t n = (size_t)(p->s - c0);
				char text[96];

				while (n && (c0[n - 1] == ' '))
					n--;
				if (n >= sizeof(text))
					n = sizeof(text) - 1;
				memcpy(text, c0, n);
				text[n] = 0;
				fmt_snprintf(failed, flen, "%s: %lld %s %lld", text, (long long)l.val,
					     ge ? "<" : ">", (long long)r.val);
			}
		}
		skip_ws(p);
		if (!*p->s)
			break;
		if (*p->s != ';')
			return fail(p, "';' expected");
		p->s++;
	}
	if (!(*uses & UXV_V) && p->err)
		return fail(p, "the relation never names v");
	return 0;
}

int ux_rel_parse(const char *rel, unsigned *uses, bool *v_lower, bool *v_upper, char *err,
		 size_t errlen)
{
	struct parser p = { rel, rel, NULL, err, errlen };
	bool holds;

	if (!rel) {
		if (err)
			str_lcpy(err, "no relation", errlen);
		return -1;
	}
	return walk(&p, &holds, uses, v_lower, v_upper, NULL, 0);
}

bool ux_rel_eval(const char *rel, const struct ux_vals *x, char *failed, size_t len)
{
	struct parser p = { rel, rel, x, NULL, 0 };
	unsigned uses;
	bool holds, lo, hi;

	if (failed && len)
		failed[0] = 0;
	if (!rel || walk(&p, &holds, &uses, &lo, &hi, failed, len)) {
		if (failed)
			str_lcpy(failed, "malformed relation", len);
		return false;
	}
	return holds;
}

const char *ux_kernel_name(enum ux_kernel k)
{
	static const char *const n[UXK_NUM] = {
		[UXK_LOOP] = "loop4", [UXK_L2] = "chase_l2", [UXK_LLC] = "chase_llc",
		[UXK_DRAM] = "chase_dram", [UXK_EVICT_CLEAN] = "chase_evict_clean",
		[UXK_EVICT_DIRTY] = "chase_evict_dirty", [UXK_STORE_NT] = "store_nt",
		[UXK_STORE_LLC] = "store_llc", [UXK_PINGPONG] = "pingpong",
		[UXK_XCLEAN] = "chase_xcore_clean", [UXK_XDROP] = "chase_xcore_dropped",
	};

	return (unsigned)k < UXK_NUM ? n[k] : "?";
}

const char *ux_kernel_size(enum ux_kernel k)
{
	static const char *const n[UXK_NUM] = {
		[UXK_LOOP] = "N = 100000 iterations",
		[UXK_L2] = "L2/2 bytes, N = its lines, warm",
		[UXK_LLC] = "min(4 L2, LLC/2) bytes, N = its lines, warm",
		[UXK_DRAM] = "N <= 50000 steps over 2N flushed lines in <= 64 MiB",
		[UXK_EVICT_CLEAN] = "an LLC read before, then N <= LLC/256 flushed steps",
		[UXK_EVICT_DIRTY] = "an LLC written before, then N <= LLC/256 flushed steps",
		[UXK_STORE_NT] = "N <= 65536 lines",
		[UXK_STORE_LLC] = "N = max(LLC/256, L2/64) lines, an L2 read before",
		[UXK_PINGPONG] = "4096 hand-offs each way, N = 8191",
		[UXK_XCLEAN] = "N = L2/256 steps over 2N lines the other CPU read",
		[UXK_XDROP] = "N = L2/256 steps over 2N lines the other CPU read and dropped",
	};

	return (unsigned)k < UXK_NUM ? n[k] : "?";
}

const char *ux_kind_name(enum ux_kind k)
{
	switch (k) {
	case UX_NONE: return "none";
	case UX_EXACT: return "exact";
	case UX_IDENTITY: return "identity";
	case UX_RANGE: return "range";
	case UX_CONTRAST: return "contrast";
	case UX_QUIET: return "quiet";
	}
	return "?";
}

unsigned ux_ncases(const struct ux_row *r)
{
	unsigned n = 0;

	if (r->kind == UX_NONE)
		return 0;
	while (n < UX_MAX_CASES && r->c[n].rel)
		n++;
	return n;
}

unsigned ux_nrefs(const struct ux_case *c)
{
	unsigned n = 0;

	while (n < UX_MAX_REFS && c->refs[n])
		n++;
	return n;
}

const struct ux_row *ux_find(const char *model, const char *event)
{
	for (unsigned i = 0; i < ux_nrows; i++)
		if (!str_cmp(ux_rows[i].model, model) && !str_casecmp(ux_rows[i].event, event))
			return &ux_rows[i];
	return NULL;
}

unsigned ux_ev_rel(const char *model, const char *event, const char **why_none)
{
	const struct ux_row *r = ux_find(model, event);

	if (why_none)
		*why_none = r && r->kind == UX_NONE ? r->why : NULL;
	if (!r)
		return EVR_NONE;
	switch (r->kind) {
	case UX_EXACT: return EVR_EXACT;
	case UX_IDENTITY: return EVR_IDENTITY;
	case UX_RANGE:
	case UX_QUIET: return EVR_RANGE;
	case UX_CONTRAST: return EVR_CONTRAST;
	default: return EVR_NONE;
	}
}
