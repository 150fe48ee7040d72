/* SPDX-License-Identifier: MIT */
/* The seed-event expectations' pure part: models, kernels, the relation language, row checks. */
#include "tests/expect/seed.h"
#include "lib/fmt.h"
#include "lib/string.h"

static const char *const kernel_names[EVK_COUNT] = {
	[EVK_NONE] = "none", [EVK_LOOP] = "loop", [EVK_ADD] = "add_chain",
	[EVK_IMUL] = "imul_chain", [EVK_DIV] = "div_loop", [EVK_CHASE] = "chase",
	[EVK_CHASE_COLD] = "chase_cold", [EVK_CHASE_PAGE] = "chase_page",
	[EVK_LFSR] = "branch_lfsr", [EVK_MIX] = "branch_mix", [EVK_IND_MISP] = "ind_misp", [EVK_STORE] = "store",
	[EVK_STORE_NT] = "store_nt", [EVK_BIGCODE] = "bigcode", [EVK_SMALLCODE] = "smallcode",
	[EVK_X87] = "x87", [EVK_MMX] = "mmx", [EVK_SSE_PS] = "sse_ps", [EVK_SSE_PD] = "sse_pd",
	[EVK_SSE_SS] = "sse_ss", [EVK_SSE_SD] = "sse_sd", [EVK_SSE_INT] = "sse_int",
	[EVK_LOCK] = "lock", [EVK_LCP] = "lcp", [EVK_DENORM] = "x87_denormal",
	[EVK_FLDCW] = "fldcw", [EVK_LDMXCSR] = "ldmxcsr", [EVK_LOCK_E] = "lock_clean",
	[EVK_STORE_E] = "store_clean", [EVK_CHASE_CLEAN] = "chase_clean",
	[EVK_LOAD_COLD] = "load_stream_cold", [EVK_CHASE_OTHER] = "chase_other_core",
	[EVK_CHASE_SHARED] = "chase_shared", [EVK_CHASE_HITM] = "chase_hitm",
	[EVK_STORE_SHARED] = "store_shared", [EVK_LOCK_SHARED] = "lock_shared",
	[EVK_U_LOOP] = "loop4", [EVK_U_L2] = "chase_l2", [EVK_U_LLC] = "chase_llc",
	[EVK_U_DRAM] = "chase_dram", [EVK_U_EVICT_CLEAN] = "chase_evict_clean",
	[EVK_U_EVICT_DIRTY] = "chase_evict_dirty", [EVK_U_STORE_NT] = "store_nt",
	[EVK_U_STORE_LLC] = "store_llc", [EVK_U_PINGPONG] = "pingpong",
	[EVK_U_XCLEAN] = "chase_xcore_clean", [EVK_U_XDROP] = "chase_xcore_dropped",
};

const char *ev_kernel_name(unsigned k)
{
	return k < EVK_COUNT && kernel_names[k] ? kernel_names[k] : "?";
}

uint64_t events_iters(unsigned kernel, uint32_t size)
{
	size &= ~EV_PAST_L2;
	switch (kernel) {
	case EVK_CHASE: case EVK_CHASE_CLEAN:
		return size / 64;
	case EVK_CHASE_OTHER: case EVK_CHASE_SHARED: case EVK_CHASE_HITM:
		return size / 128;
	case EVK_CHASE_COLD: return size / 128 < EV_COLD_STEPS ? size / 128 : EV_COLD_STEPS;
	case EVK_CHASE_PAGE: return size / 4096;
	case EVK_STORE: case EVK_STORE_NT: case EVK_STORE_E: case EVK_LOCK: case EVK_LOCK_E:
	case EVK_LOAD_COLD: case EVK_STORE_SHARED: case EVK_LOCK_SHARED:
		return size / 64;
	default: return size;
	}
}

uint64_t events_ws_bytes(uint32_t size, uint64_t l2, uint64_t l3, char *err, size_t len)
{
	uint64_t bytes = size & ~EV_PAST_L2;

	if (!(size & EV_PAST_L2) || !l2)	/* leaf 4 silent: the size as the table gives it */
		return bytes;
	if (2 * l2 > bytes)
		bytes = 2 * l2;
	if (!l3 || bytes > l3 / 2) {
		fmt_snprintf(err, len, "a chase that misses the L2 and fits in the L3 takes %llu bytes "
			     "(%llu or twice the L2 of %llu) and needs an L3 of twice that: L3 %llu "
			     "bytes (CPUID leaf 4)", (unsigned long long)bytes,
			     (unsigned long long)(size & ~EV_PAST_L2), (unsigned long long)l2,
			     (unsigned long long)l3);
		return 0;
	}
	return bytes;
}

static struct events_model models[] = {
	{ "nhm", "000_666bff9af8f20138.txt", "Nehalem/Westmere", 0, 0 },
	{ "skl", "001_dad58ad4a296bcf3.txt", "Skylake client", 0, 0 },
};
#define NMODELS (sizeof(models) / sizeof(models[0]))
static bool models_done;

unsigned events_models(const struct events_model **out)
{
	if (!models_done) {
		for (unsigned m = 0; m < NMODELS; m++) {
			bool seen = false;

			for (unsigned i = 0; i < events_nrows; i++) {
				if (str_cmp(events_rows[i].model, models[m].model))
					continue;
				if (!seen)
					models[m].first = i;
				seen = true;
				models[m].count++;
			}
		}
		models_done = true;
	}
	if (out)
		*out = models;
	return NMODELS;
}

const struct events_model *events_model_by_name(const char *model)
{
	const struct events_model *m;
	unsigned n = events_models(&m);

	for (unsigned i = 0; i < n; i++)
		if (!str_cmp(m[i].model, model))
			return &m[i];
	return NULL;
}

/* One side of a constraint, evaluated: sum of terms, and what it named. */
struct side {
	int64_t val;
	unsigned uses;
	int vcoef;		/* sign of v's coefficients summed (>0, <0, 0) */
};

struct parser {
	const char *s, *start;
	const struct ev_vals *x;	/* NULL: parse only */
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
	const struct ev_vals *x = p->x;

	if (!c)
		return -1;
	if ((next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') || next == '_')
		return -1;
	switch (c) {
	case 'v': *bit = EVV_V; *val = x ? x->v : 0; break;
	case 'N': *bit = EVV_N; *val = x ? x->n : 0; break;
	case 'U': *bit = EVV_U; *val = x ? x->uclk : 0; break;
	case 'T': *bit = EVV_T; *val = x ? x->us : 0; break;
	default:
		if (c < 'a' || c >= 'a' + EV_MAX_REFS)
			return -1;
		*bit = EVV_REF(c - 'a');
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
			if (bit == EVV_V)
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
	if (!(*uses & EVV_V) && p->err)
		return fail(p, "the relation never names v");
	return 0;
}

int ev_rel_parse(const char *rel, unsigned *uses, bool *v_lower, bool *v_upper, char *err,
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

bool ev_rel_eval(const char *rel, const struct ev_vals *x, char *failed, size_t len)
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

static int64_t div_floor(int64_t a, int64_t b)
{
	int64_t q = a / b;

	return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

bool ev_rel_v_bounds(const char *rel, const struct ev_vals *x, struct ev_bounds *b)
{
	struct ev_vals x0 = *x, x1 = *x;
	struct parser p0 = { rel, rel, &x0, NULL, 0 }, p1 = { rel, rel, &x1, NULL, 0 };

	memset(b, 0, sizeof(*b));
	x0.v = 0;
	x1.v = 1;
	if (!rel)
		return false;
	for (;;) {
		struct side l0, l1, r0, r1;
		int64_t k, d;
		bool ge;

		skip_ws(&p0);
		skip_ws(&p1);
		if (expr(&p0, &l0) || expr(&p1, &l1))
			return false;
		skip_ws(&p0);
		skip_ws(&p1);
		if ((p0.s[0] != '>' && p0.s[0] != '<') || p0.s[1] != '=')
			return false;
		ge = p0.s[0] == '>';
		p0.s += 2;
		p1.s += 2;
		if (expr(&p0, &r0) || expr(&p1, &r1))
			return false;
		/* l(v) = l0 + (l1 - l0) v, exactly while v's coefficients are whole numbers:
		 * l >= r is k v >= d. */
		k = (l1.val - l0.val) - (r1.val - r0.val);
		d = r0.val - l0.val;
		if (!ge) {
			k = -k;
			d = -d;
		}
		if (k > 0) {
			int64_t lo = -div_floor(-d, k);		/* ceil(d / k) */

			if (!b->has_lo || lo > b->lo)
				b->lo = lo;
			b->has_lo = true;
		} else if (k < 0) {
			int64_t hi = div_floor(-d, -k);		/* floor(d / k), k < 0 */

			if (!b->has_hi || hi < b->hi)
				b->hi = hi;
			b->has_hi = true;
		}
		skip_ws(&p0);
		skip_ws(&p1);
		if (!*p0.s)
			return true;
		if (*p0.s != ';')
			return false;
		p0.s++;
		p1.s++;
	}
}

void ev_bounds_fmt(const struct ev_bounds *b, char *buf, size_t len)
{
	if (b->has_lo && b->has_hi && b->lo == b->hi)
		fmt_snprintf(buf, len, "%lld", (long long)b->lo);
	else if (b->has_lo && b->has_hi)
		fmt_snprintf(buf, len, "%lld..%lld", (long long)b->lo, (long long)b->hi);
	else if (b->has_lo)
		fmt_snprintf(buf, len, ">=%lld", (long long)b->lo);
	else if (b->has_hi)
		fmt_snprintf(buf, len, "<=%lld", (long long)b->hi);
	else
		str_lcpy(buf, "?", len);
}

const char *ev_kernel_size_text(unsigned k)
{
	static const char *const n[EVK_COUNT] = {
		[EVK_U_LOOP] = "N = 100000 iterations",
		[EVK_U_L2] = "L2/2 bytes, N = its lines, warm",
		[EVK_U_LLC] = "min(4 L2, LLC/2) bytes, N = its lines, warm",
		[EVK_U_DRAM] = "N <= 50000 steps over 2N flushed lines in <= 64 MiB",
		[EVK_U_EVICT_CLEAN] = "an LLC read before, then N <= LLC/256 flushed steps",
		[EVK_U_EVICT_DIRTY] = "an LLC written before, then N <= LLC/256 flushed steps",
		[EVK_U_STORE_NT] = "N <= 65536 lines",
		[EVK_U_STORE_LLC] = "N = max(LLC/256, L2/64) lines, an L2 read before",
		[EVK_U_PINGPONG] = "4096 hand-offs each way, N = 8191",
		[EVK_U_XCLEAN] = "N = L2/256 steps over 2N lines the other CPU read",
		[EVK_U_XDROP] = "N = L2/256 steps over 2N lines the other CPU read and dropped",
	};

	return k < EVK_COUNT && n[k] ? n[k] : "?";
}

const char *ev_kind_name(unsigned kind)
{
	static const char *const n[EVR_COUNT] = {
		[EVR_NONE] = "none", [EVR_EXACT] = "exact", [EVR_RANGE] = "range",
		[EVR_IDENTITY] = "identity", [EVR_CONTRAST] = "contrast", [EVR_QUIET] = "quiet",
	};

	return kind < EVR_COUNT ? n[kind] : "?";
}

unsigned events_ncases(const struct events_row *r)
{
	unsigned n = 0;

	if (r->kind == EVR_NONE)
		return 0;
	while (n < EV_MAX_CASES && r->c[n].rel)
		n++;
	return n;
}

unsigned events_nrefs(const struct ev_case *c)
{
	unsigned n = 0;

	while (n < EV_MAX_REFS && c->refs[n])
		n++;
	return n;
}

const struct events_row *events_find(const char *model, const char *event)
{
	for (unsigned i = 0; i < events_nrows; i++)
		if (!str_cmp(events_rows[i].model, model) && !str_casecmp(events_rows[i].event, event))
			return &events_rows[i];
	return NULL;
}

bool events_row_ok(const struct events_row *r, const char **why)
{
	const char *w = NULL;
	unsigned nc = events_ncases(r);
	bool lower = false;

	if (!r->model || !r->event || !r->event[0] || !r->source || !r->source[0])
		w = "model, event and source are required";
	else if (r->kind >= EVR_COUNT)
		w = "unknown kind";
	else if (r->kind == EVR_NONE)
		w = r->why && r->why[0] ? NULL : "a row without expectation needs its reason";
	else if (!nc)
		w = "a relation needs a case";
	for (unsigned k = 0; k < nc && !w; k++) {
		const struct ev_case *c = &r->c[k];
		unsigned uses = 0, nref = events_nrefs(c);
		bool lo = false, hi = false;
		char err[8];

		if (c->kernel == EVK_NONE || c->kernel >= EVK_COUNT)
			w = "a case needs a kernel";
		else if (ev_kernel_uncore(c->kernel) ? c->size != 0 : c->size == 0)
			w = "a core kernel needs a size; an uncore kernel has its own";
		else if (k && ev_kernel_uncore(c->kernel) != ev_kernel_uncore(r->c[0].kernel))
			w = "the cases of a row run on one engine";
		else if (ev_rel_parse(c->rel, &uses, &lo, &hi, err, sizeof(err)))
			w = "a relation does not parse";
		else if (!ev_kernel_uncore(c->kernel) && (uses & (EVV_U | EVV_T)))
			w = "U and T are the uncore kernels' only";
		else
			for (unsigned i = 0; i < EV_MAX_REFS && !w; i++)
				if ((i < nref) != !!(uses & EVV_REF(i)))
					w = "the references named and the variables used differ";
		lower |= lo;
	}
	if (!w && nc == 2 && r->c[0].kernel == r->c[1].kernel && r->c[0].size == r->c[1].size)
		w = "two cases on the same kernel and size";
	if (!w && r->kind != EVR_NONE && r->kind != EVR_QUIET && !lower)
		w = "no lower bound: a dead counter would pass";
	if (why)
		*why = w;
	return w == NULL;
}
