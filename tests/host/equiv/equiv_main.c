/* SPDX-License-Identifier: MIT */
/* Equivalence of the old representations and the one table over synthetic counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/events.h"

typedef int (*lookup_fn)(const char *name, unsigned kernel, unsigned size, long long *v);
unsigned old_nrows(void);
void old_info(unsigned i, const char **model, const char **event, int *rel, unsigned *k, unsigned *s,
	      unsigned *k2, unsigned *s2, int *lo, int *hi, int *hi2, int *tol, const char **terms);
unsigned long long old_iters(unsigned k, unsigned s);
int old_eval(unsigned i, lookup_fn f, unsigned long long n, unsigned long long n2);
unsigned old_terms(const char *terms, char *buf, unsigned len, const char **names, int *signs);
unsigned old_ux_n(void);
void old_ux_info(unsigned i, const char **model, const char **event, int *kind, const char **rel0,
		 const char **rel1, const char *const **refs0, const char *const **refs1);
int old_ux_eval(const char *rel, long long v, const long long *ref, long long n, long long u, long long t);

#define MAXV 32
static struct { const char *name; unsigned k, s; long long v; } tab[MAXV];
static unsigned ntab;
static int lookup(const char *name, unsigned k, unsigned s, long long *v)
{
	for (unsigned i = 0; i < ntab; i++)
		if (!strcmp(tab[i].name, name) && tab[i].k == k && tab[i].s == s) { *v = tab[i].v; return 1; }
	return 0;
}
static void put(const char *name, unsigned k, unsigned s, long long v)
{
	for (unsigned i = 0; i < ntab; i++)
		if (!strcmp(tab[i].name, name) && tab[i].k == k && tab[i].s == s) { tab[i].v = v; return; }
	tab[ntab].name = name; tab[ntab].k = k; tab[ntab].s = s; tab[ntab].v = v; ntab++;
}
static int new_eval(const struct events_row *r, unsigned long long n, unsigned long long n2)
{
	for (unsigned k = 0; k < events_ncases(r); k++) {
		const struct ev_case *c = &r->c[k];
		struct ev_vals x;
		long long v;

		memset(&x, 0, sizeof(x));
		if (!lookup(r->event, c->kernel, c->size, &v)) return 0;
		x.v = v;
		for (unsigned t = 0; t < events_nrefs(c); t++) {
			if (!lookup(c->refs[t], c->kernel, c->size, &v)) return 0;
			x.ref[t] = v;
		}
		x.n = (long long)(k ? n2 : n);
		if (!ev_rel_eval(c->rel, &x, NULL, 0)) return 0;
	}
	return 1;
}
static long long rnd(long long lo, long long hi) { return lo + (long long)(((unsigned long long)rand() << 31 ^ rand()) % (unsigned long long)(hi - lo + 1)); }
static long long per(long long milli, unsigned long long n) { return milli * (long long)n / 1000; }

int main(void)
{
	unsigned long long trials = 0, mism = 0, pass = 0, rows = 0;
	srand(1);
	for (unsigned i = 0; i < old_nrows(); i++) {
		const char *model, *event, *terms; int rel, lo, hi, hi2, tol; unsigned k, s, k2, s2;
		old_info(i, &model, &event, &rel, &k, &s, &k2, &s2, &lo, &hi, &hi2, &tol, &terms);
		if (rel == 0) continue;
		const struct events_row *nr = events_find(model, event);
		if (!nr) { printf("%s.%s missing in the new table\n", model, event); mism++; continue; }
		rows++;
		unsigned long long n = old_iters(k, s), n2 = rel == 4 ? old_iters(k2, s2) : 0;
		char buf[256]; const char *names[8]; int signs[8];
		unsigned nt = rel == 3 ? old_terms(terms, buf, sizeof(buf), names, signs) : 0;
		long long hiv = hi == 0x7fffffff ? per(lo, n) * 3 + 1000 : per(hi, n) + 200;
		for (unsigned t = 0; t < 20000; t++) {
			long long v, rhs = 0;
			ntab = 0;
			for (unsigned j = 0; j < nt; j++) {
				long long tv = rnd(0, 3) == 0 ? rnd(-100, 100) : rnd(0, hiv / (nt ? 1 : 1));
				put(names[j], k, s, tv); rhs += signs[j] * tv;
			}
			long long cand[16]; unsigned nc = 0;
			cand[nc++] = per(lo, n) - 1; cand[nc++] = per(lo, n);
			if (hi != 0x7fffffff) { cand[nc++] = per(hi, n) + 64; cand[nc++] = per(hi, n) + 65; }
			cand[nc++] = 0;
			if (rel == 3) {
				long long a = rhs < 0 ? -rhs : rhs;
				long long d1 = a * tol / 1000 + 64;
				cand[nc++] = rhs + d1; cand[nc++] = rhs - d1; cand[nc++] = rhs;
				long long vv = (rhs + 64) * 1000 / (1000 - tol);
				cand[nc++] = vv; cand[nc++] = vv + 1; cand[nc++] = vv - 1;
				/* make rhs land inside the bounds sometimes */
				if (nt && rnd(0, 1)) { long long tgt = rnd(per(lo, n) - 5, hiv); long long cur = 0; for (unsigned j = 1; j < nt; j++) { long long x; lookup(names[j], k, s, &x); cur += signs[j] * x; } long long x0 = (tgt - cur) * signs[0]; put(names[0], k, s, x0); rhs = tgt; a = rhs < 0 ? -rhs : rhs; d1 = a * tol / 1000 + 64; cand[nc++] = rhs + d1; cand[nc++] = rhs + d1 + 1; cand[nc++] = rhs - d1; cand[nc++] = rhs - d1 - 1; }
			}
			v = rnd(0, 1) ? cand[rnd(0, nc - 1)] + rnd(-2, 2) * (rnd(0, 3) == 0) : rnd(-100, hiv);
			put(event, k, s, v);
			if (rel == 4) {
				long long c2[4] = { per(hi2, n2) + 64, per(hi2, n2) + 65, 0, rnd(-100, per(hi2, n2) + 500) };
				put(event, k2, s2, c2[rnd(0, 3)]);
			}
			int o = old_eval(i, lookup, n, n2), w = new_eval(nr, n, n2);
			trials++; pass += o;
			if (o != w) { if (mism < 20) printf("%s.%s: old %d new %d (v=%lld rhs=%lld)\n", model, event, o, w, v, rhs); mism++; }
		}
	}
	printf("core rows: %llu rows, %llu trials, %llu passing, %llu mismatches\n", rows, trials, pass, mism);
	/* uncore rows: the same relation text, evaluated by the old and the new parser */
	unsigned long long utr = 0, umis = 0, urows = 0, upass = 0;
	for (unsigned i = 0; i < old_ux_n(); i++) {
		const char *model, *event, *rel[2]; int kind; const char *const *refs[2];
		old_ux_info(i, &model, &event, &kind, &rel[0], &rel[1], &refs[0], &refs[1]);
		const struct events_row *nr = events_find(model, event);
		if (!nr || (nr->c[0].kernel && !ev_kernel_uncore(nr->c[0].kernel))) { printf("# ux row %s.%s not used (%s)\n", model, event, nr ? "the core row runs" : "not in the table"); continue; }
		urows++;
		if ((kind == 0) != (nr->kind == EVR_NONE)) { printf("%s.%s kind differs\n", model, event); umis++; }
		for (int c = 0; c < 2 && kind; c++) {
			if (!rel[c]) { if (nr->c[c].rel) { printf("%s.%s extra case\n", model, event); umis++; } continue; }
			if (!nr->c[c].rel || strcmp(rel[c], nr->c[c].rel)) { printf("%s.%s case %d rel differs\n", model, event, c); umis++; continue; }
			for (int j = 0; j < 5; j++) { const char *a = refs[c][j], *b = nr->c[c].refs[j]; if ((a == 0) != (b == 0) || (a && strcmp(a, b))) { printf("%s.%s refs differ\n", model, event); umis++; break; } }
			for (unsigned t = 0; t < 20000; t++) {
				long long ref[8] = { 0 }, n = rnd(1, 60000), u = rnd(0, 20000000), T = rnd(0, 10000), v;
				for (int j = 0; j < 5; j++) ref[j] = rnd(0, 3) ? rnd(0, 5 * n) : rnd(-100, 300000);
				v = rnd(0, 2) ? rnd(-100, 5 * n + 10000) : rnd(0, 2 * ref[rnd(0, 4)] + 300);
				struct ev_vals x = { .v = v, .n = n, .uclk = u, .us = T };
				for (int j = 0; j < 8; j++) x.ref[j] = ref[j];
				int o = old_ux_eval(rel[c], v, ref, n, u, T), w = ev_rel_eval(nr->c[c].rel, &x, NULL, 0);
				utr++; upass += o;
				if (o != w) { umis++; if (umis < 10) printf("%s.%s: ux old %d new %d\n", model, event, o, w); }
			}
		}
	}
	printf("uncore rows: %llu rows, %llu trials, %llu passing, %llu mismatches\n", urows, utr, upass, umis);
	return mism || umis;
}
