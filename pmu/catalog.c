/* SPDX-License-Identifier: MIT */
/* The event catalog: which catalogs a microarchitecture has, lookup by name, nearest names. */
#include "pmu/catalog.h"
#include "lib/string.h"

#define CAT(m, title, unit) &pmu_catalog_##m,
const struct pmu_catalog *const pmu_catalogs[] = {
	&pmu_catalog_arch,
	PMU_CATALOG_GENERATED(CAT)
	&pmu_catalog_skl_unc,
	NULL,
};
#undef CAT

/* Core and uncore catalogs by microarchitecture: libpfm4's PMU for the same parts (its
 * pfm_intel_*_detect model lists), the Skylake client uncore where uncore.c finds one. A
 * microarchitecture libpfm4 4.13 has no table for gets the architectural events only. */
unsigned pmu_catalogs_for(enum pmu_uarch u, const struct pmu_catalog **out, unsigned max)
{
	const struct pmu_catalog *c[3] = { NULL, NULL, NULL };
	unsigned n = 0;

	switch (u) {
	case UARCH_CORE2:		c[0] = &pmu_catalog_core; break;
	case UARCH_BONNELL:
	case UARCH_SALTWELL:		c[0] = &pmu_catalog_atom; break;
	case UARCH_NEHALEM:		c[0] = &pmu_catalog_nhm; c[1] = &pmu_catalog_nhm_unc; break;
	case UARCH_WESTMERE:		c[0] = &pmu_catalog_wsm; c[1] = &pmu_catalog_wsm_unc; break;
	case UARCH_SANDY_BRIDGE:	c[0] = &pmu_catalog_snb; break;
	case UARCH_IVY_BRIDGE:		c[0] = &pmu_catalog_ivb; break;
	case UARCH_HASWELL:		c[0] = &pmu_catalog_hsw; break;
	case UARCH_BROADWELL:		c[0] = &pmu_catalog_bdw; break;
	case UARCH_SKYLAKE:
	case UARCH_KABY_LAKE:		c[0] = &pmu_catalog_skl; c[1] = &pmu_catalog_skl_unc; break;
	case UARCH_SKYLAKE_X:		c[0] = &pmu_catalog_skx; break;
	case UARCH_ICE_LAKE:
	case UARCH_TIGER_LAKE:
	case UARCH_ROCKET_LAKE:		c[0] = &pmu_catalog_icl; break;
	case UARCH_ICE_LAKE_X:		c[0] = &pmu_catalog_icx; break;
	case UARCH_SAPPHIRE_RAPIDS:
	case UARCH_EMERALD_RAPIDS:	c[0] = &pmu_catalog_spr; break;
	case UARCH_SILVERMONT:
	case UARCH_AIRMONT:		c[0] = &pmu_catalog_slm; break;
	case UARCH_GOLDMONT:		c[0] = &pmu_catalog_glm; break;
	case UARCH_TREMONT:		c[0] = &pmu_catalog_tmt; break;
	case UARCH_KNIGHTS_LANDING:	c[0] = &pmu_catalog_knl; break;
	case UARCH_KNIGHTS_MILL:	c[0] = &pmu_catalog_knm; break;
	default:			break;
	}
	c[c[0] ? (c[1] ? 2 : 1) : 0] = &pmu_catalog_arch;
	for (unsigned i = 0; i < 3 && c[i] && n < max; i++)
		out[n++] = c[i];
	return n;
}

const struct pmu_catalog *pmu_catalog_by_model(const char *model)
{
	if (!model)
		return NULL;
	for (unsigned i = 0; pmu_catalogs[i]; i++)
		if (!str_casecmp(pmu_catalogs[i]->model, model))
			return pmu_catalogs[i];
	return NULL;
}

/*
 * A character as names compare: ASCII case folded, libpfm4's ':' as the SDM's '.'; relaxed,
 * '.' as '_' too, so a multi-level SDM name ("L2_DATA_RQSTS.DEMAND.E_STATE") meets libpfm4's
 * one-level spelling of the same event ("L2_DATA_RQSTS:DEMAND_E_STATE").
 */
static int canon(char c, bool relaxed)
{
	if (c >= 'A' && c <= 'Z')
		c = (char)(c - 'A' + 'a');
	if (c == ':')
		c = '.';
	if (relaxed && c == '.')
		c = '_';
	return (unsigned char)c;
}

static bool name_eq(const char *a, const char *b, bool relaxed)
{
	for (; *a && *b; a++, b++)
		if (canon(*a, relaxed) != canon(*b, relaxed))
			return false;
	return !*a && !*b;
}

/* "EVENT" names the entry "EVENT.UMASK" with PMU_EVF_DEFAULT. */
static bool default_eq(const char *query, const struct pmu_event_def *d)
{
	const char *n = d->name;

	if (!(d->flags & PMU_EVF_DEFAULT))
		return false;
	for (; *query && *n && *n != '.'; query++, n++)
		if (canon(*query, false) != canon(*n, false))
			return false;
	return !*query && *n == '.';
}

const char *pmu_catalog_split_model(const char *name, char *buf, size_t len, const char **model)
{
	*model = NULL;
	for (const char *p = name; *p; p++) {
		if (p[0] == ':' && p[1] == ':') {
			size_t n = (size_t)(p - name);

			if (n >= len)
				n = len - 1;
			memcpy(buf, name, n);
			buf[n] = '\0';
			*model = buf;
			return p + 2;
		}
	}
	return name;
}

static bool cat_selected(const struct pmu_catalog *c, const char *model)
{
	return c && (!model || !str_casecmp(c->model, model));
}

const struct pmu_event_def *pmu_catalog_find(const struct pmu_catalog *const *cats, unsigned ncats,
					     const char *name, const struct pmu_catalog **which)
{
	char mbuf[32];
	const char *model;
	const char *q;

	if (which)
		*which = NULL;
	if (!cats || !name)
		return NULL;
	q = pmu_catalog_split_model(name, mbuf, sizeof(mbuf), &model);
	if (!*q)
		return NULL;
	/* Exact spellings first in every catalog, then the relaxed ones, then an event named
	 * alone: an exact name never loses to a relaxed match in an earlier catalog. */
	for (int pass = 0; pass < 3; pass++) {
		for (unsigned i = 0; i < ncats; i++) {
			const struct pmu_catalog *c = cats[i];

			if (!cat_selected(c, model))
				continue;
			for (unsigned k = 0; k < c->count; k++) {
				const struct pmu_event_def *d = &c->events[k];
				bool hit = pass == 2 ? default_eq(q, d) : name_eq(q, d->name, pass == 1);

				if (hit) {
					if (which)
						*which = c;
					return d;
				}
			}
		}
	}
	return NULL;
}

#define SUGGEST_LEN	96	/* names compare up to this many characters */

/* Levenshtein distance over canonical characters (first SUGGEST_LEN of each). */
static unsigned edit_distance(const char *a, const char *b)
{
	unsigned row[2][SUGGEST_LEN + 1];
	size_t la = str_nlen(a, SUGGEST_LEN), lb = str_nlen(b, SUGGEST_LEN);
	unsigned *prev = row[0], *cur = row[1];

	for (size_t j = 0; j <= lb; j++)
		prev[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned sub = prev[j - 1] + (canon(a[i - 1], false) != canon(b[j - 1], false));
			unsigned del = prev[j] + 1, ins = cur[j - 1] + 1;
			unsigned m = sub < del ? sub : del;

			cur[j] = m < ins ? m : ins;
		}
		unsigned *t = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

unsigned pmu_catalog_suggest(const struct pmu_catalog *const *cats, unsigned ncats,
			     const char *name, const char **out, unsigned max)
{
	unsigned dist[16];
	char mbuf[32];
	const char *model;
	const char *q;
	unsigned n = 0, limit;

	if (!cats || !name || !out || !max)
		return 0;
	if (max > sizeof(dist) / sizeof(dist[0]))
		max = sizeof(dist) / sizeof(dist[0]);
	q = pmu_catalog_split_model(name, mbuf, sizeof(mbuf), &model);
	/* Farther than half the name's length is no longer a misspelling of it. */
	limit = (unsigned)str_nlen(q, SUGGEST_LEN) / 2 + 1;
	for (unsigned i = 0; i < ncats; i++) {
		const struct pmu_catalog *c = cats[i];

		if (!cat_selected(c, model))
			continue;
		for (unsigned k = 0; k < c->count; k++) {
			const char *cand = c->events[k].name;
			unsigned d = edit_distance(q, cand), pos;
			bool dup = false;

			if (d > limit || (n == max && d >= dist[n - 1]))
				continue;
			for (unsigned j = 0; j < n; j++)
				if (name_eq(out[j], cand, false))
					dup = true;
			if (dup)
				continue;
			/* After every name as near: ties keep catalog order. */
			for (pos = n; pos > 0 && dist[pos - 1] > d; pos--)
				;
			if (n < max)
				n++;
			for (unsigned j = n - 1; j > pos; j--) {
				out[j] = out[j - 1];
				dist[j] = dist[j - 1];
			}
			out[pos] = cand;
			dist[pos] = d;
		}
	}
	return n;
}

struct pmu_evtsel pmu_catalog_evtsel(const struct pmu_event_def *def, bool usr, bool os)
{
	struct pmu_evtsel e = {
		.event = def->event,
		.umask = def->umask,
		.cmask = def->cmask,
		.inv = def->flags & PMU_EVF_INV,
		.edge = def->flags & PMU_EVF_EDGE,
		.any = def->flags & PMU_EVF_ANY,
		.usr = usr,
		.os = os,
		.en = true,
	};

	return e;
}

bool pmu_catalog_counter_ok(const struct pmu_event_def *def, unsigned idx)
{
	if (def->event == 0)
		return false;
	if (!def->counters)
		return true;
	return idx < 32 && (def->counters & (1U << idx));
}
