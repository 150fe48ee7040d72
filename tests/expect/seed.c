/* SPDX-License-Identifier: MIT */
/* The seed-event expectations' pure part: the models' list, kernels, the relation language, row
 * checks. */
#include "tests/expect/seed.h"
#include "tests/expect/seed_models.h"
#include "lib/fmt.h"
#include "lib/string.h"

/* The workloads: the kernel each runs (tests/kernels/kernels.h's table) and how its size
 * becomes the iterations its difference covers; what is done before it is the engine's. */
#define W(evk, nm, kern, per, cap, text)	[evk] = { nm, K_##kern, per, cap, text }
static const struct ev_workload workloads[EVK_COUNT] = {
	[EVK_NONE] = { "none", K_COUNT, 0, 0, NULL },
	W(EVK_LOOP, "loop", loop4, 0, 0, NULL),
	W(EVK_ADD, "add_chain", add_chain, 0, 0, NULL),
	W(EVK_IMUL, "imul_chain", imul_chain, 0, 0, NULL),
	W(EVK_DIV, "div_loop", div_loop, 0, 0, NULL),
	W(EVK_CHASE, "chase", chase, 64, 0, NULL),
	W(EVK_CHASE_COLD, "chase_cold", chase, 128, EV_COLD_STEPS, NULL),
	W(EVK_CHASE_PAGE, "chase_page", chase, 4096, 0, NULL),
	W(EVK_LFSR, "branch_lfsr", branch_lfsr, 0, 0, NULL),
	W(EVK_MIX, "branch_mix", branch_mix, 0, 0, NULL),
	W(EVK_IND_MISP, "ind_misp", ind_misp, 0, 0, NULL),
	W(EVK_STORE, "store", store_plain, 64, 0, NULL),
	W(EVK_STORE_NT, "store_nt", store_nt, 64, 0, NULL),
	W(EVK_BIGCODE, "bigcode", bigcode, 0, 0, NULL),
	W(EVK_SMALLCODE, "smallcode", smallcode, 0, 0, NULL),
	W(EVK_X87, "x87", x87_loop, 0, 0, NULL),
	W(EVK_MMX, "mmx", mmx_loop, 0, 0, NULL),
	W(EVK_SSE_PS, "sse_ps", sse_ps_loop, 0, 0, NULL),
	W(EVK_SSE_PD, "sse_pd", sse_pd_loop, 0, 0, NULL),
	W(EVK_SSE_SS, "sse_ss", sse_ss_loop, 0, 0, NULL),
	W(EVK_SSE_SD, "sse_sd", sse_sd_loop, 0, 0, NULL),
	W(EVK_SSE_INT, "sse_int", sse_int_loop, 0, 0, NULL),
	W(EVK_LOCK, "lock", lock_loop, 64, 0, NULL),
	W(EVK_LOCK_E, "lock_clean", lock_loop, 64, 0, NULL),
	W(EVK_STORE_E, "store_clean", store_plain, 64, 0, NULL),
	W(EVK_CHASE_CLEAN, "chase_clean", chase, 64, 0, NULL),
	W(EVK_LOAD_COLD, "load_stream_cold", load_stream, 64, 0, NULL),
	W(EVK_CHASE_OTHER, "chase_other_core", chase, 128, 0, NULL),
	W(EVK_CHASE_SHARED, "chase_shared", chase, 128, 0, NULL),
	W(EVK_CHASE_HITM, "chase_hitm", chase, 128, 0, NULL),
	W(EVK_STORE_SHARED, "store_shared", store_plain, 64, 0, NULL),
	W(EVK_LOCK_SHARED, "lock_shared", lock_loop, 64, 0, NULL),
	W(EVK_LCP, "lcp", lcp_loop, 0, 0, NULL),
	W(EVK_DENORM, "x87_denormal", x87_denormal, 0, 0, NULL),
	W(EVK_FLDCW, "fldcw", fldcw_loop, 0, 0, NULL),
	W(EVK_LDMXCSR, "ldmxcsr", ldmxcsr_loop, 0, 0, NULL),
	W(EVK_U_LOOP, "loop4", loop4, 0, 0, "N = 100000 iterations"),
	W(EVK_U_L2, "chase_l2", chase, 0, 0, "L2/2 bytes, N = its lines, warm"),
	W(EVK_U_LLC, "chase_llc", chase, 0, 0, "min(4 L2, LLC/2) bytes, N = its lines, warm"),
	W(EVK_U_DRAM, "chase_dram", chase, 0, 0,
	  "N <= 50000 steps over 2N flushed lines in <= 64 MiB"),
	W(EVK_U_EVICT_CLEAN, "chase_evict_clean", chase, 0, 0,
	  "an LLC read before, then N <= LLC/256 flushed steps"),
	W(EVK_U_EVICT_DIRTY, "chase_evict_dirty", chase, 0, 0,
	  "an LLC written before, then N <= LLC/256 flushed steps"),
	W(EVK_U_STORE_NT, "store_nt", store_nt, 0, 0, "N <= 65536 lines"),
	W(EVK_U_STORE_LLC, "store_llc", store_plain, 0, 0,
	  "N = max(LLC/256, L2/64) lines, an L2 read before"),
	W(EVK_U_PINGPONG, "pingpong", pingpong, 0, 0, "4096 hand-offs each way, N = 8191"),
	W(EVK_U_XCLEAN, "chase_xcore_clean", chase, 0, 0,
	  "N = L2/256 steps over 2N lines the other CPU read"),
	W(EVK_U_XDROP, "chase_xcore_dropped", chase, 0, 0,
	  "N = L2/256 steps over 2N lines the other CPU read and dropped"),
};
#undef W

const struct ev_workload *ev_workload(unsigned k)
{
	return k < EVK_COUNT && workloads[k].name ? &workloads[k] : NULL;
}

const char *ev_kernel_name(unsigned k)
{
	const struct ev_workload *w = ev_workload(k);

	return w ? w->name : "?";
}

const char *ev_kernel_size_text(unsigned k)
{
	const struct ev_workload *w = ev_workload(k);

	return w && w->size_text ? w->size_text : "?";
}

uint64_t events_iters(unsigned kernel, uint32_t size)
{
	const struct ev_workload *w = ev_workload(kernel);
	uint64_t n;

	size &= ~EV_PAST_L2;
	if (!w || !w->iter_bytes)
		return size;
	n = size / w->iter_bytes;
	return w->max_iters && n > w->max_iters ? w->max_iters : n;
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

#define SEED_MODEL_EXTERN(m, order, desc)	extern const struct events_model seed_model_##m;
SEED_MODELS(SEED_MODEL_EXTERN)
#undef SEED_MODEL_EXTERN

#define SEED_MODEL_REF(m, order, desc)	&seed_model_##m,
const struct events_model *const events_models[] = { SEED_MODELS(SEED_MODEL_REF) };
#undef SEED_MODEL_REF
const unsigned events_nmodels = sizeof(events_models) / sizeof(events_models[0]);

const struct events_model *events_model_by_name(const char *model)
{
	for (unsigned i = 0; model && i < events_nmodels; i++)
		if (!str_cmp(events_models[i]->model, model))
			return events_models[i];
	return NULL;
}

bool events_model_runs_on(const struct events_model *m, enum pmu_uarch u)
{
	for (unsigned i = 0; m && i < EV_MAX_UARCHS && m->uarchs[i] != UARCH_UNKNOWN; i++)
		if (m->uarchs[i] == u)
			return true;
	return false;
}

unsigned events_model_catalogs(const struct events_model *m, const struct pmu_catalog **cats,
			       unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; m && i < EV_MAX_CATALOGS && m->catalogs[i] && n < max; i++) {
		const struct pmu_catalog *c = pmu_catalog_by_model(m->catalogs[i]);

		if (c)
			cats[n++] = c;
	}
	return n;
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

const struct events_row *events_find(const struct events_model *m, const char *event)
{
	for (unsigned i = 0; m && i < m->count; i++)
		if (!str_casecmp(m->rows[i].event, event))
			return &m->rows[i];
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
