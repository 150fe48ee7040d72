/* SPDX-License-Identifier: MIT */
/*
 * Build-time generator of the event catalogs: every event and unit mask of libpfm4's PMU for
 * each model of pmu/catalog_models.h, encoded by libpfm4 itself (pfm_get_os_event_encoding,
 * PFM_OS_NONE, LIBPFM_ENCODE_INACTIVE=1), with the hand-written rows of catalog_rules.c
 * (counter restrictions, fixed counters, extra MSRs, the seeds' spellings and the seed events
 * libpfm4 lacks) applied, written as
 * C tables OUTDIR/catalog_<model>.c for the firmware.
 *
 *   gen_catalog OUTDIR [-v]
 *
 * Exits non-zero when libpfm4 cannot be initialised, a hand-written row names an event
 * libpfm4 cannot encode, or a file cannot be written.
 */
#define _GNU_SOURCE	/* dladdr */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <perfmon/pfmlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arch/x86/msr.h"
#include "pmu/catalog.h"
#include "tests/host/catalog_rules.h"

#define EVTSEL_EDGE	(1ULL << 18)
#define EVTSEL_ANY	(1ULL << 21)
#define EVTSEL_INV	(1ULL << 23)
/* What libpfm4 sets beyond the event: USR, OS, INT, EN (and PC). */
#define EVTSEL_IGNORED	((1ULL << 16) | (1ULL << 17) | (1ULL << 19) | (1ULL << 20) | (1ULL << 22))

struct ent {
	char name[160];
	char pfm[200];		/* libpfm4's string, for the file's comments */
	uint8_t event, umask, cmask;
	uint16_t flags;
	uint32_t counters;
	int fixed;
	uint16_t msr;
	uint64_t msr_value;
	char *desc;
	bool equiv;		/* libpfm4 says it is another name of an event it has */
};

struct list {
	struct ent *v;
	size_t n, cap;
};

static int verbose;
static char pfm_version[32] = "?";	/* the library's, from its file name (libpfm.so.4.13.0) */

static void find_version(void)
{
	Dl_info info;
	char path[PATH_MAX];
	const char *v;

	if (!dladdr((void *)pfm_initialize, &info) || !info.dli_fname ||
	    !realpath(info.dli_fname, path))
		return;
	v = strstr(path, ".so.");
	if (v)
		snprintf(pfm_version, sizeof(pfm_version), "%s", v + 4);
}

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("gen_catalog: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static struct ent *push(struct list *l)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		if (!l->v)
			die("out of memory");
	}
	memset(&l->v[l->n], 0, sizeof(l->v[0]));
	l->v[l->n].fixed = -1;
	return &l->v[l->n++];
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		die("out of memory");
	return d;
}

/* Notes for the generated file's closing comment: what was left out and why. */
static char notes[64 * 1024];
static void note(const char *fmt, ...)
{
	size_t n = strlen(notes);
	va_list ap;

	if (n + 200 >= sizeof(notes))
		return;
	va_start(ap, fmt);
	strcat(notes, " *  ");
	vsnprintf(notes + n + 4, sizeof(notes) - n - 6, fmt, ap);
	strcat(notes, "\n");
	va_end(ap);
}

static int find_pmu(const char *name)
{
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		pfm_pmu_info_t info;

		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(p, &info) == PFM_SUCCESS && !strcmp(info.name, name))
			return p;
	}
	return -1;
}

/* libpfm4's encoding of str: codes[0], codes[1] (0 when absent); 0 or the libpfm4 error. */
static int encode(const char *str, uint64_t *c0, uint64_t *c1, int *count)
{
	pfm_pmu_encode_arg_t a;
	int r;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	r = pfm_get_os_event_encoding(str, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &a);
	if (r != PFM_SUCCESS)
		return r;
	*c0 = a.codes[0];
	*c1 = a.count > 1 ? a.codes[1] : 0;
	*count = a.count;
	free(a.codes);
	return 0;
}

static const struct cat_extra *extra_for(const char *model, uint8_t ev, uint8_t um)
{
	for (unsigned i = 0; i < cat_nextras; i++)
		if (cat_extras[i].event == ev && cat_extras[i].umask == um &&
		    cat_model_in(cat_extras[i].models, model))
			return &cat_extras[i];
	return NULL;
}

/* Fills e's encoding from libpfm4's; false (with a note) when the catalog cannot carry it. */
static bool decode(const char *model, struct ent *e, uint64_t c0, uint64_t c1, int count,
		   bool core)
{
	const struct cat_extra *x;
	uint64_t rest = c0 & ~(0xffffULL | EVTSEL_EDGE | EVTSEL_ANY | EVTSEL_INV | 0xff000000ULL |
			       EVTSEL_IGNORED);

	if (core && rest) {
		note("%s: 0x%llx sets bits 0x%llx (TSX qualifiers) the catalog has no field for",
		     e->pfm, (unsigned long long)c0, (unsigned long long)rest);
		return false;
	}
	e->event = c0 & 0xff;
	e->umask = (c0 >> 8) & 0xff;
	e->cmask = (c0 >> 24) & 0xff;
	e->flags |= (c0 & EVTSEL_EDGE ? PMU_EVF_EDGE : 0) | (c0 & EVTSEL_ANY ? PMU_EVF_ANY : 0) |
		    (c0 & EVTSEL_INV ? PMU_EVF_INV : 0);
	x = core ? extra_for(model, e->event, e->umask) : NULL;
	if (x) {
		if (count < 2) {
			note("%s: libpfm4 gives no %s value", e->pfm,
			     x->flag == PMU_EVF_LDLAT ? "load-latency" : "extra MSR");
			return false;
		}
		e->flags |= x->flag;
		e->msr = x->msr;
		e->msr_value = c1;
	} else if (count > 1 && c1) {
		note("%s: libpfm4's second code 0x%llx left out (no extra MSR for %02XH/%02XH)",
		     e->pfm, (unsigned long long)c1, e->event, e->umask);
	}
	return true;
}

static void apply_rules(const char *model, struct ent *e, bool core)
{
	if (!core)
		return;
	if (!e->cmask && !(e->flags & (PMU_EVF_INV | PMU_EVF_EDGE | PMU_EVF_ANY)))
		for (unsigned i = 0; i < cat_nfixed; i++)
			if (cat_fixed_encodings[i].event == e->event &&
			    cat_fixed_encodings[i].umask == e->umask &&
			    cat_model_in(cat_fixed_encodings[i].models, model)) {
				e->fixed = cat_fixed_encodings[i].fixed;
				break;
			}
	for (unsigned i = 0; i < cat_nconstraints; i++) {
		const struct cat_constraint *c = &cat_constraints[i];

		if (e->event >= c->first && e->event <= c->last &&
		    (c->umask < 0 || c->umask == e->umask) && cat_model_in(c->models, model)) {
			e->counters = c->counters;
			break;
		}
	}
}

static void upper_name(char *dst, size_t len, const char *ev, const char *um)
{
	if (um)
		snprintf(dst, len, "%s.%s", ev, um);
	else
		snprintf(dst, len, "%s", ev);
	for (char *p = dst; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
}

static bool same_encoding(const struct ent *a, const struct ent *b)
{
	return a->event == b->event && a->umask == b->umask && a->cmask == b->cmask &&
	       (a->flags & (PMU_EVF_INV | PMU_EVF_EDGE | PMU_EVF_ANY)) ==
		       (b->flags & (PMU_EVF_INV | PMU_EVF_EDGE | PMU_EVF_ANY)) &&
	       a->msr == b->msr && a->msr_value == b->msr_value;
}

static struct ent *by_name(struct list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcasecmp(l->v[i].name, name))
			return &l->v[i];
	return NULL;
}

/* Every event and unit mask libpfm4 has for pmu. */
static void enumerate(const char *model, int pmu, bool core, struct list *l)
{
	pfm_pmu_info_t pinfo;

	memset(&pinfo, 0, sizeof(pinfo));
	pinfo.size = sizeof(pinfo);
	if (pfm_get_pmu_info(pmu, &pinfo) != PFM_SUCCESS)
		die("%s: pfm_get_pmu_info failed", model);
	for (int i = pinfo.first_event; i != -1; i = pfm_get_event_next(i)) {
		pfm_event_info_t ei;
		int numasks = 0, dfl_done = 0;
		uint64_t d0 = 0, d1 = 0;
		int dcount = 0;
		char alone[512];

		memset(&ei, 0, sizeof(ei));
		ei.size = sizeof(ei);
		if (pfm_get_event_info(i, PFM_OS_NONE, &ei) != PFM_SUCCESS)
			die("%s: pfm_get_event_info(%d) failed", model, i);
		snprintf(alone, sizeof(alone), "%s::%s", model, ei.name);
		if (encode(alone, &d0, &d1, &dcount))
			dfl_done = 1;	/* the event needs a unit mask: no default */
		for (int a = 0; a < ei.nattrs; a++) {
			pfm_event_attr_info_t ai;
			uint64_t c0, c1;
			int count, r;
			struct ent *e;

			memset(&ai, 0, sizeof(ai));
			ai.size = sizeof(ai);
			if (pfm_get_event_attr_info(i, a, PFM_OS_NONE, &ai) != PFM_SUCCESS ||
			    ai.type != PFM_ATTR_UMASK)
				continue;
			numasks++;
			e = push(l);
			upper_name(e->name, sizeof(e->name), ei.name, ai.name);
			snprintf(e->pfm, sizeof(e->pfm), "%s:%s", ei.name, ai.name);
			snprintf(alone, sizeof(alone), "%s::%s", model, e->pfm);
			r = encode(alone, &c0, &c1, &count);
			if (r) {
				note("%s: libpfm4 cannot encode it alone (%s)", e->pfm, pfm_strerror(r));
				l->n--;
				continue;
			}
			if (!decode(model, e, c0, c1, count, core)) {
				l->n--;
				continue;
			}
			if (ai.is_precise || ei.is_precise)
				e->flags |= PMU_EVF_PEBS;
			e->desc = xstrdup(ai.desc && *ai.desc ? ai.desc : ei.desc);
			e->equiv = (ai.equiv && *ai.equiv) || (ei.equiv && *ei.equiv);
			if (!dfl_done && ai.is_dfl && c0 == d0 && c1 == d1) {
				e->flags |= PMU_EVF_DEFAULT;
				dfl_done = 1;
			}
		}
		if (!numasks) {
			struct ent *e = push(l);

			upper_name(e->name, sizeof(e->name), ei.name, NULL);
			snprintf(e->pfm, sizeof(e->pfm), "%s", ei.name);
			if (dfl_done) {
				note("%s: libpfm4 cannot encode it", e->pfm);
				l->n--;
				continue;
			}
			if (!decode(model, e, d0, d1, dcount, core)) {
				l->n--;
				continue;
			}
			if (ei.is_precise)
				e->flags |= PMU_EVF_PEBS;
			e->desc = xstrdup(ei.desc);
			e->equiv = ei.equiv && *ei.equiv;
		}
	}
	for (size_t k = 0; k < l->n; k++)
		apply_rules(model, &l->v[k], core);
	/* Event 00H is no event a GP counter counts: keep it only as a fixed counter's. */
	for (size_t k = 0; k < l->n;) {
		if (core && l->v[k].event == 0 && l->v[k].fixed < 0) {
			note("%s: libpfm4 encodes event 00H umask %02XH, which is no GP event and no "
			     "fixed counter's", l->v[k].pfm, l->v[k].umask);
			free(l->v[k].desc);
			memmove(&l->v[k], &l->v[k + 1], (l->n - k - 1) * sizeof(l->v[0]));
			l->n--;
		} else {
			k++;
		}
	}
}

static void place(struct list *l, struct ent *e);

/* libpfm4's other names of its own events become aliases of the entry they name (where the
 * encodings agree). */
static void place_equivalents(struct list *l)
{
	struct list eq = { 0 };

	for (size_t k = 0; k < l->n;) {
		if (l->v[k].equiv) {
			*push(&eq) = l->v[k];
			memmove(&l->v[k], &l->v[k + 1], (l->n - k - 1) * sizeof(l->v[0]));
			l->n--;
		} else {
			k++;
		}
	}
	for (size_t k = 0; k < eq.n; k++)
		place(l, &eq.v[k]);
	free(eq.v);
}

/* Inserts e before the first entry of l with the same encoding, flagged as its alias, or
 * appends it as an event of its own. */
static void place(struct list *l, struct ent *e)
{
	size_t at = l->n;

	for (size_t k = 0; k < l->n; k++) {
		if (same_encoding(&l->v[k], e) && !(l->v[k].flags & PMU_EVF_ALIAS)) {
			at = k;
			break;
		}
	}
	push(l);
	if (at < l->n - 1) {
		memmove(&l->v[at + 1], &l->v[at], (l->n - 1 - at) * sizeof(l->v[0]));
		e->flags |= PMU_EVF_ALIAS;
		e->counters = l->v[at + 1].counters;
		e->fixed = l->v[at + 1].fixed;
		e->flags |= l->v[at + 1].flags & (PMU_EVF_PEBS | PMU_EVF_LDLAT | PMU_EVF_OFFCORE |
						  PMU_EVF_FRONTEND);
	}
	l->v[at] = *e;
}

static void add_hand(const char *model, struct list *l)
{
	for (unsigned i = 0; i < cat_nhand; i++) {
		const struct cat_hand *h = &cat_hand_events[i];
		struct ent e;

		if (!cat_model_in(h->models, model) || by_name(l, h->name))
			continue;
		memset(&e, 0, sizeof(e));
		snprintf(e.name, sizeof(e.name), "%s", h->name);
		snprintf(e.pfm, sizeof(e.pfm), "(%s)", h->source);
		e.event = h->event;
		e.umask = h->umask;
		e.fixed = h->fixed;
		e.desc = xstrdup(h->desc);
		place(l, &e);
	}
}

static void add_aliases(const char *model, struct list *l, bool core)
{
	for (unsigned i = 0; i < cat_naliases; i++) {
		const struct cat_alias *a = &cat_aliases[i];
		char str[256];
		uint64_t c0, c1;
		int count, r;
		struct ent e;

		if (!cat_model_in(a->models, model) || by_name(l, a->name))
			continue;
		memset(&e, 0, sizeof(e));
		e.fixed = -1;
		snprintf(e.name, sizeof(e.name), "%s", a->name);
		snprintf(e.pfm, sizeof(e.pfm), "%s", a->pfm);
		snprintf(str, sizeof(str), "%s::%s", model, a->pfm);
		r = encode(str, &c0, &c1, &count);
		if (r)
			die("alias %s -> %s: libpfm4 cannot encode it (%s)", a->name, str,
			    pfm_strerror(r));
		if (!decode(model, &e, c0, c1, count, core))
			die("alias %s -> %s: not representable", a->name, str);
		if (a->msr_value && e.msr_value != a->msr_value)
			die("alias %s -> %s: libpfm4's extra MSR value 0x%llx, the seed's 0x%llx", a->name,
			    str, (unsigned long long)e.msr_value, (unsigned long long)a->msr_value);
		apply_rules(model, &e, core);
		{
			char d[300];

			snprintf(d, sizeof(d), "%s spelling of libpfm4's %s", a->source, a->pfm);
			e.desc = xstrdup(d);
		}
		place(l, &e);
	}
}

static void add_seed_events(const char *model, struct list *l, bool core)
{
	for (unsigned i = 0; i < cat_nseed_events; i++) {
		const struct cat_seed_event *r = &cat_seed_events[i];
		char d[400];
		struct ent e;

		if (!cat_model_in(r->models, model) || by_name(l, r->name))
			continue;
		memset(&e, 0, sizeof(e));
		e.fixed = -1;
		snprintf(e.name, sizeof(e.name), "%s", r->name);
		snprintf(e.pfm, sizeof(e.pfm), "(%s)", r->source);
		e.event = r->event;
		e.umask = r->umask;
		e.cmask = r->cmask;
		e.flags = r->flags;
		e.msr = r->msr;
		e.msr_value = r->msr_value;
		snprintf(d, sizeof(d), "%s (%s)", r->desc, r->source);
		e.desc = xstrdup(d);
		apply_rules(model, &e, core);
		place(l, &e);
	}
}

/* A C string literal of s (one line, printable ASCII, no trigraphs). */
static void put_str(FILE *f, const char *s)
{
	if (!s) {
		fputs("NULL", f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '?')
			fputs("\\?", f);
		else if (c == '\n' || c == '\t' || c == '\r')
			fputc(' ', f);
		else if (c >= 0x20 && c < 0x7f)
			fputc(c, f);
	}
	fputc('"', f);
}

static const char *flag_names(uint16_t f, char *buf, size_t len)
{
	static const struct { uint16_t bit; const char *name; } fl[] = {
		{ PMU_EVF_INV, "PMU_EVF_INV" }, { PMU_EVF_EDGE, "PMU_EVF_EDGE" },
		{ PMU_EVF_ANY, "PMU_EVF_ANY" }, { PMU_EVF_PEBS, "PMU_EVF_PEBS" },
		{ PMU_EVF_LDLAT, "PMU_EVF_LDLAT" }, { PMU_EVF_OFFCORE, "PMU_EVF_OFFCORE" },
		{ PMU_EVF_ALIAS, "PMU_EVF_ALIAS" }, { PMU_EVF_DEFAULT, "PMU_EVF_DEFAULT" },
		{ PMU_EVF_FRONTEND, "PMU_EVF_FRONTEND" }, { PMU_EVF_MATCH, "PMU_EVF_MATCH" },
	};

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(fl) / sizeof(fl[0]); i++)
		if (f & fl[i].bit)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? " | " : "",
				 fl[i].name);
	if (!buf[0])
		snprintf(buf, len, "0");
	return buf;
}

static const char *msr_name(uint16_t msr)
{
	switch (msr) {
	case 0: return "0";
	case MSR_OFFCORE_RSP_0: return "MSR_OFFCORE_RSP_0";
	case MSR_OFFCORE_RSP_1: return "MSR_OFFCORE_RSP_1";
	case MSR_PEBS_LD_LAT_THRESHOLD: return "MSR_PEBS_LD_LAT_THRESHOLD";
	case MSR_PEBS_FRONTEND: return "MSR_PEBS_FRONTEND";
	case MSR_GQ_SNOOP_MESF: return "MSR_GQ_SNOOP_MESF";
	case MSR_UNCORE_ADDR_OPCODE_MATCH: return "MSR_UNCORE_ADDR_OPCODE_MATCH";
	}
	die("no name for MSR 0x%x", msr);
	return NULL;
}

static void write_catalog(const char *outdir, const char *model, const char *title,
			  const char *unit, const char *source, struct list *l)
{
	char path[4096], tmp[4200], fl[200];
	unsigned aliases = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/catalog_%s.c", outdir, model);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		die("%s: %s", tmp, strerror(errno));
	fprintf(f, "/* GENERATED by tests/host/gen_catalog.c from libpfm4 %s (PMU %s) and "
		   "tests/host/catalog_rules.c: do not edit. */\n", pfm_version, model);
	fprintf(f, "/* SPDX-License-Identifier: MIT */\n");
	fprintf(f, "#include \"pmu/catalog.h\"\n#include \"arch/x86/msr.h\"\n\n");
	if (l->n) {
		fprintf(f, "static const struct pmu_event_def events[] = {\n");
		for (size_t i = 0; i < l->n; i++) {
			const struct ent *e = &l->v[i];

			aliases += !!(e->flags & PMU_EVF_ALIAS);
			fprintf(f, "\t{ ");
			put_str(f, e->name);
			fprintf(f, ", 0x%02x, 0x%02x, 0x%02x, %s, 0x%x, %d, %s, %s, 0x%llxULL,\n\t  ",
				e->event, e->umask, e->cmask, flag_names(e->flags, fl, sizeof(fl)),
				e->counters, e->fixed, unit, msr_name(e->msr),
				(unsigned long long)e->msr_value);
			put_str(f, e->desc);
			fprintf(f, " },\n");
		}
		fprintf(f, "};\n\n");
	}
	fprintf(f, "const struct pmu_catalog pmu_catalog_%s = {\n\t.model = \"%s\",\n\t.title = ",
		model, model);
	put_str(f, title);
	fprintf(f, ",\n\t.source = ");
	put_str(f, source);
	fprintf(f, ",\n\t.unit = %s,\n\t.events = %s,\n\t.count = %zu,\n};\n", unit,
		l->n ? "events" : "NULL", l->n);
	if (notes[0])
		fprintf(f, "\n/*\n * Left out:\n%s */\n", notes);
	if (fclose(f) || rename(tmp, path))
		die("%s: %s", path, strerror(errno));
	if (verbose)
		fprintf(stderr, "%s: %zu entries (%u aliases)\n", path, l->n, aliases);
}

static void generate(const char *outdir, const char *model, const char *title, const char *unit)
{
	struct list l = { 0 };
	bool core = !strcmp(unit, "PMU_UNIT_CORE");
	int pmu = find_pmu(model);
	char source[160];

	notes[0] = '\0';
	if (pmu < 0) {
		snprintf(source, sizeof(source), "libpfm4 %s has no PMU %s: empty", pfm_version,
			 model);
	} else {
		snprintf(source, sizeof(source), "generated from libpfm4 %s (%s)", pfm_version,
			 model);
		enumerate(model, pmu, core, &l);
		place_equivalents(&l);
		if (core)
			add_hand(model, &l);
		add_aliases(model, &l, core);
		add_seed_events(model, &l, core);
	}
	write_catalog(outdir, model, title, unit, source, &l);
	for (size_t i = 0; i < l.n; i++)
		free(l.v[i].desc);
	free(l.v);
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "-v")))
		die("usage: gen_catalog OUTDIR [-v]");
	verbose = argc == 3;
	/* Encode every PMU's events, not only the host CPU's. */
	if (setenv("LIBPFM_ENCODE_INACTIVE", "1", 1))
		die("setenv: %s", strerror(errno));
	if (pfm_initialize() != PFM_SUCCESS)
		die("pfm_initialize failed");
	find_version();
#define GEN(m, title, unit) generate(argv[1], #m, title, #unit);
	PMU_CATALOG_GENERATED(GEN)
#undef GEN
	pfm_terminate();
	return 0;
}
