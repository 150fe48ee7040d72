/* SPDX-License-Identifier: MIT */
/* The seed-event expectations' pure part: models, iteration counts, relation evaluation. */
#include "tests/events.h"
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
};

const char *ev_kernel_name(unsigned k)
{
	return k < EVK_COUNT && kernel_names[k] ? kernel_names[k] : "?";
}

uint64_t events_iters(unsigned kernel, uint32_t size)
{
	switch (kernel) {
	case EVK_CHASE: case EVK_CHASE_CLEAN: case EVK_CHASE_OTHER: case EVK_CHASE_SHARED:
	case EVK_CHASE_HITM:
		return size / 64;
	case EVK_CHASE_COLD: return size / 128 < EV_COLD_STEPS ? size / 128 : EV_COLD_STEPS;
	case EVK_CHASE_PAGE: return size / 4096;
	case EVK_STORE: case EVK_STORE_NT: case EVK_STORE_E: case EVK_LOCK: case EVK_LOCK_E:
	case EVK_LOAD_COLD: case EVK_STORE_SHARED: case EVK_LOCK_SHARED:
		return size / 64;
	default: return size;
	}
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

unsigned events_terms(const char *terms, char *buf, size_t buflen, const char **names,
		      int *signs, unsigned max)
{
	unsigned n = 0;
	int sign = 1;
	size_t o = 0, start = 0;

	if (!terms || buflen < 2)
		return 0;
	for (const char *p = terms;; p++) {
		char ch = *p;

		if (ch == '+' || ch == '-' || ch == '\0') {
			if (o > start && n < max) {
				buf[o++] = '\0';
				names[n] = buf + start;
				signs[n] = sign;
				n++;
				start = o;
			}
			if (!ch)
				break;
			sign = ch == '-' ? -1 : 1;
			continue;
		}
		if (ch != ' ' && o + 2 < buflen)
			buf[o++] = ch;
	}
	return n;
}

/* lo * n / 1000 without overflow for the sizes used (n < 2^40, |lo| < 2^31). */
static int64_t per(int32_t milli, uint64_t n)
{
	return (int64_t)milli * (int64_t)n / 1000;
}

static int64_t abs64(int64_t v)
{
	return v < 0 ? -v : v;
}

/* Bounds of one count: lower exact (a dead counter fails any lo > 0), upper + EV_SLACK. */
static bool in_bounds(int64_t v, int32_t lo, int32_t hi, uint64_t n)
{
	if (v < per(lo, n))
		return false;
	return hi == NOHI || v <= per(hi, n) + EV_SLACK;
}

static void fmt_bounds(char *buf, size_t len, int32_t lo, int32_t hi, uint64_t n)
{
	if (hi == NOHI)
		fmt_snprintf(buf, len, ">=%lld", (long long)per(lo, n));
	else
		fmt_snprintf(buf, len, "%lld..%lld", (long long)per(lo, n),
			     (long long)(per(hi, n) + EV_SLACK));
}

bool events_eval(const struct events_row *r, ev_get_fn get, void *ctx, uint64_t n, uint64_t n2,
		 char *detail, size_t len)
{
	char b[48];
	int64_t v, v2;

	if (r->rel == EVR_NONE) {
		fmt_snprintf(detail, len, "no expectation: %s", r->why ? r->why : "?");
		return false;
	}
	if (!get(ctx, r->event, r->kernel, r->size, &v)) {
		fmt_snprintf(detail, len, "measured=nothing expected=%s counted on %s",
			     r->event, ev_kernel_name(r->kernel));
		return false;
	}
	switch (r->rel) {
	case EVR_EXACT: {
		int64_t e = per(r->lo, n);

		fmt_snprintf(detail, len, "measured=%lld expected=%lld exact (%d.%03d per %s "
			     "iteration, n=%llu)", (long long)v, (long long)e, r->lo / 1000,
			     r->lo % 1000, ev_kernel_name(r->kernel), (unsigned long long)n);
		return abs64(v - e) <= r->tol;
	}
	case EVR_RANGE:
		fmt_bounds(b, sizeof(b), r->lo, r->hi, n);
		fmt_snprintf(detail, len, "measured=%lld expected=%s range on %s n=%llu",
			     (long long)v, b, ev_kernel_name(r->kernel), (unsigned long long)n);
		return in_bounds(v, r->lo, r->hi, n);
	case EVR_IDENTITY: {
		char buf[256];
		const char *names[EV_MAX_TERMS];
		int signs[EV_MAX_TERMS];
		unsigned nt = events_terms(r->terms, buf, sizeof(buf), names, signs, EV_MAX_TERMS);
		int64_t rhs = 0, tol, big;
		bool ok;

		for (unsigned i = 0; i < nt; i++) {
			int64_t t;

			if (!str_cmp(names[i], "n"))
				t = (int64_t)n;
			else if (!get(ctx, names[i], r->kernel, r->size, &t)) {
				fmt_snprintf(detail, len, "measured=%lld expected=%s (%s not measured)",
					     (long long)v, r->terms, names[i]);
				return false;
			}
			rhs += signs[i] * t;
		}
		big = abs64(v) > abs64(rhs) ? abs64(v) : abs64(rhs);
		tol = big * r->tol / 1000 + EV_SLACK;
		fmt_bounds(b, sizeof(b), r->lo, r->hi, n);
		ok = abs64(v - rhs) <= tol && in_bounds(v, r->lo, r->hi, n);
		fmt_snprintf(detail, len, "measured=%lld expected=%lld identity %s +-%lld, %s "
			     "on %s n=%llu", (long long)v, (long long)rhs, r->terms, (long long)tol,
			     b, ev_kernel_name(r->kernel), (unsigned long long)n);
		return ok;
	}
	case EVR_CONTRAST: {
		bool ok;

		if (!get(ctx, r->event, r->kernel2, r->size2, &v2)) {
			fmt_snprintf(detail, len, "measured=%lld expected=%s counted on %s too",
				     (long long)v, r->event, ev_kernel_name(r->kernel2));
			return false;
		}
		ok = in_bounds(v, r->lo, NOHI, n) && in_bounds(v2, INT32_MIN / 2, r->hi2, n2);
		fmt_snprintf(detail, len, "measured=%lld/%lld expected=contrast >=%lld on %s n=%llu, "
			     "<=%lld on %s n=%llu", (long long)v, (long long)v2, (long long)per(r->lo, n),
			     ev_kernel_name(r->kernel), (unsigned long long)n,
			     (long long)(per(r->hi2, n2) + EV_SLACK), ev_kernel_name(r->kernel2),
			     (unsigned long long)n2);
		return ok;
	}
	default:
		fmt_snprintf(detail, len, "measured=? expected=relation %u unknown", r->rel);
		return false;
	}
}

bool events_row_ok(const struct events_row *r, const char **why)
{
	const char *w = NULL;

	if (!r->model || !r->event || !r->event[0] || !r->source || !r->source[0])
		w = "model, event and source are required";
	else if (r->rel == EVR_NONE)
		w = r->why && r->why[0] ? NULL : "a row without expectation needs its reason";
	else if (r->kernel == EVK_NONE || r->kernel >= EVK_COUNT || r->size == 0)
		w = "a relation needs a kernel and a size";
	else if (r->lo <= 0)
		w = "no lower bound above zero: a dead counter would pass";
	else if (r->rel == EVR_EXACT && r->lo != r->hi)
		w = "EXACT needs lo == hi";
	else if ((r->rel == EVR_RANGE || r->rel == EVR_IDENTITY) && r->hi != NOHI && r->hi < r->lo)
		w = "hi below lo";
	else if (r->rel == EVR_IDENTITY && (!r->terms || !r->terms[0] || r->tol < 0))
		w = "IDENTITY needs terms and a tolerance";
	else if (r->rel == EVR_CONTRAST &&
		 (r->kernel2 == EVK_NONE || r->kernel2 >= EVK_COUNT || r->size2 == 0 || r->hi2 < 0 ||
		  (r->kernel2 == r->kernel && r->size2 == r->size)))
		w = "CONTRAST needs a second, different kernel or size and an upper bound there";
	else if (r->rel > EVR_CONTRAST)
		w = "unknown relation";
	if (why)
		*why = w;
	return w == NULL;
}
