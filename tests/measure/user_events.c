/* SPDX-License-Identifier: MIT */
/* User event lists: resolution against the catalogs, counter assignment, runs. */
#include "tests/measure/user_events.h"

#include <limits.h>
#include <stdarg.h>

#include "arch/x86/msr.h"
#include "lib/fmt.h"
#include "lib/string.h"

/* "WHERE: measure=SET: " then the message. Always -1. */
__attribute__((format(printf, 4, 5)))
static int fail(char *err, size_t errlen, const struct measure_set *ms, const char *fmt, ...)
{
	char set[MEASURE_MAX_EVENTS * (MEASURE_NAME_LEN + 16) + 64];
	va_list ap;
	int off;

	if (!err || !errlen)
		return -1;
	measure_set_format(ms, set, sizeof(set));
	off = fmt_snprintf(err, errlen, "%s%smeasure=%s: ", ms->where, ms->where[0] ? ": " : "",
			   set);
	if (off >= 0 && (size_t)off < errlen) {
		va_start(ap, fmt);
		fmt_vsnprintf(err + off, errlen - (size_t)off, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static unsigned popcount32(uint32_t v)
{
	unsigned n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

/* "0,1" / "2-3" of a counter mask, for messages. */
static void mask_list(uint32_t m, char *buf, size_t len)
{
	bool first = true;

	buf[0] = '\0';
	for (unsigned i = 0; i < 32; i++) {
		char one[8];

		if (!(m & (1U << i)))
			continue;
		fmt_snprintf(one, sizeof(one), first ? "%u" : ",%u", i);
		str_lcat(buf, one, len);
		first = false;
	}
}

/* Check names keep to letters, digits, '_' and '.': "X:u:c=2" becomes "X.u.c2". */
static void label_chars(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (*s == '=')
			continue;
		*w++ = *s == ':' ? '.' : *s;
	}
	*w = '\0';
}

static int resolve_named(struct uev_event *e, const struct measure_set *ms,
			 const struct pmu_catalog *const *cats, unsigned ncats, char *err,
			 size_t errlen)
{
	const struct measure_event *m = e->spec;
	const struct pmu_event_def *d;
	char mbuf[32], list[96] = "";
	const char *model;
	struct measure_event shown;

	pmu_catalog_split_model(m->name, mbuf, sizeof(mbuf), &model);
	if (model) {
		bool known = false;

		for (unsigned i = 0; i < ncats; i++) {
			if (cats[i] && !str_casecmp(cats[i]->model, model))
				known = true;
			if (cats[i]) {
				str_lcat(list, i ? ", " : "", sizeof(list));
				str_lcat(list, cats[i]->model, sizeof(list));
			}
		}
		if (!known)
			return fail(err, errlen, ms, "event '%s': model '%s' is not this CPU's (%s)",
				    m->name, model, list);
	}
	d = pmu_catalog_find(cats, ncats, m->name, &e->cat);
	if (!d) {
		const char *near[UEV_SUGGEST];
		unsigned n = pmu_catalog_suggest(cats, ncats, m->name, near, UEV_SUGGEST);
		char sugg[UEV_SUGGEST * (MEASURE_NAME_LEN + 2)] = "";

		for (unsigned i = 0; i < n; i++) {
			str_lcat(sugg, i ? ", " : "", sizeof(sugg));
			str_lcat(sugg, near[i], sizeof(sugg));
		}
		if (!n)
			return fail(err, errlen, ms, "unknown event '%s'; none near it (option "
				    "list=events shows this CPU's)", m->name);
		return fail(err, errlen, ms, "unknown event '%s'; nearest: %s", m->name, sugg);
	}
	e->def = d;
	if (d->unit != PMU_UNIT_CORE)
		return fail(err, errlen, ms, "event '%s' is an uncore event (%s): measure= counts "
			    "core events only", m->name, e->cat ? e->cat->model : "?");
	if (d->msr || (d->flags & (PMU_EVF_LDLAT | PMU_EVF_OFFCORE | PMU_EVF_FRONTEND |
				   PMU_EVF_MATCH)))
		return fail(err, errlen, ms, "event '%s' needs MSR 0x%x (%s) programmed too: "
			    "measure= does not program extra MSRs", m->name, (unsigned)d->msr,
			    (d->flags & PMU_EVF_LDLAT) ? "load latency" :
			    (d->flags & PMU_EVF_FRONTEND) ? "front-end event" :
			    (d->flags & PMU_EVF_OFFCORE) ? "offcore response" : "match register");
	e->sel = pmu_catalog_evtsel(d, m->usr, m->os);
	if (m->cmask_set)
		e->sel.cmask = m->cmask;
	e->sel.inv |= m->inv;
	e->sel.edge |= m->edge;
	e->sel.any |= m->any;
	e->gp_mask = d->counters ? d->counters : ~0U;
	e->fixed = d->fixed;
	e->fixed_only = d->event == 0;
	if (e->fixed_only && (m->cmask_set || m->inv || m->edge))
		return fail(err, errlen, ms, "event '%s' is counted by fixed counter %d only, which "
			    "takes no cmask, inv or edge", m->name, d->fixed);
	/* A fixed counter counts the event as encoded, modifiers aside. */
	if (m->cmask_set || m->inv || m->edge)
		e->fixed = -1;
	/* The label: the catalog's spelling, the modifiers as written. */
	shown = *m;
	str_lcpy(shown.name, d->name, sizeof(shown.name));
	measure_event_format(&shown, e->label, sizeof(e->label));
	label_chars(e->label);
	return 0;
}

static void resolve_raw(struct uev_event *e)
{
	const struct measure_event *m = e->spec;
	uint32_t config = m->event | (uint32_t)m->umask << 8 | (m->edge ? 1U << 18 : 0) |
			  (m->any ? 1U << 21 : 0) | (m->inv ? 1U << 23 : 0) |
			  (uint32_t)m->cmask << 24;

	e->def = NULL;
	e->cat = NULL;
	e->sel = (struct pmu_evtsel){ .event = m->event, .umask = m->umask, .cmask = m->cmask,
				      .inv = m->inv, .edge = m->edge, .any = m->any,
				      .usr = m->usr, .os = m->os, .en = true };
	e->gp_mask = ~0U;
	e->fixed = -1;
	e->fixed_only = false;
	if (m->label[0])
		str_lcpy(e->label, m->label, sizeof(e->label));
	else
		fmt_snprintf(e->label, sizeof(e->label), "r%x", (unsigned)config);
	if (m->usr != m->os)
		str_lcat(e->label, m->usr ? ".u" : ".k", sizeof(e->label));
}

/* Assigns counters run by run: fixed-only events to their fixed counter, the others to the
 * allowed GP counter with the lowest index, the most restricted first; an event a fixed
 * counter also counts goes there when the GP counters of the run are taken. */
static int schedule(struct uev_set *s, const struct uev_hw *hw, char *err, size_t errlen)
{
	uint32_t gp_all = hw->num_gp >= 32 ? ~0U : (1U << hw->num_gp) - 1;
	bool done[MEASURE_MAX_EVENTS] = { false };
	unsigned left = s->nev, order[MEASURE_MAX_EVENTS], no = 0;

	if (!hw->num_gp) {
		for (unsigned i = 0; i < s->nev; i++) {
			s->ev[i].run = i;
			s->ev[i].on_fixed = s->ev[i].fixed_only;
			s->ev[i].idx = s->ev[i].fixed_only ? (unsigned)s->ev[i].fixed : 0;
		}
		s->nruns = s->nev;
		return 0;
	}
	/* fixed-only first, then by how few GP counters may take the event, then as written */
	for (unsigned pass = 0; pass <= 32; pass++)
		for (unsigned i = 0; i < s->nev; i++) {
			const struct uev_event *e = &s->ev[i];
			unsigned k = e->fixed_only ? 0 : popcount32(e->gp_mask & gp_all);

			if (k == pass)
				order[no++] = i;
		}
	for (unsigned run = 0; left; run++) {
		uint32_t free_gp = gp_all, free_fixed = hw->fixed_mask;
		unsigned placed = 0;

		for (unsigned oi = 0; oi < no; oi++) {
			struct uev_event *e = &s->ev[order[oi]];
			uint32_t can = e->gp_mask & free_gp;

			if (done[order[oi]])
				continue;
			if (!e->fixed_only && can) {
				e->on_fixed = false;
				e->idx = (unsigned)__builtin_ctz(can);
				free_gp &= ~(1U << e->idx);
			} else if (e->fixed >= 0 && e->fixed < 32 && (free_fixed & (1U << e->fixed))) {
				e->on_fixed = true;
				e->idx = (unsigned)e->fixed;
				free_fixed &= ~(1U << e->fixed);
			} else {
				continue;
			}
			e->run = run;
			done[order[oi]] = true;
			left--;
			placed++;
		}
		if (!placed)
			return fail(err, errlen, s->spec, "no counter can take the remaining events");
		s->nruns = run + 1;
	}
	return 0;
}

static void set_name(struct uev_plan *p, unsigned si)
{
	const struct measure_set *ms = p->set[si].spec;
	const char *k = measure_kernels[ms->kernel].name;
	bool again = false;

	for (unsigned j = 0; j < si; j++)
		if (p->set[j].spec->kernel == ms->kernel)
			again = true;
	if (again)
		fmt_snprintf(p->set[si].name, sizeof(p->set[si].name), "%s_%u", k, si + 1);
	else
		str_lcpy(p->set[si].name, k, sizeof(p->set[si].name));
}

int uev_resolve(struct uev_plan *p, const struct options *o, const struct pmu_catalog *const *cats,
		unsigned ncats, const struct uev_hw *hw, char *err, size_t errlen)
{
	uint32_t gp_all = hw->num_gp >= 32 ? ~0U : (1U << hw->num_gp) - 1;

	memset(p, 0, sizeof(*p));
	if (err && errlen)
		err[0] = '\0';
	p->hw = *hw;
	for (unsigned si = 0; si < o->nmeasure && si < MEASURE_MAX_SETS; si++) {
		const struct measure_set *ms = &o->measure[si];
		struct uev_set *s = &p->set[si];

		s->spec = ms;
		s->nev = ms->nev < MEASURE_MAX_EVENTS ? ms->nev : MEASURE_MAX_EVENTS;
		set_name(p, si);
		for (unsigned i = 0; i < s->nev; i++) {
			struct uev_event *e = &s->ev[i];

			e->spec = &ms->ev[i];
			if (e->spec->raw)
				resolve_raw(e);
			else if (resolve_named(e, ms, cats, ncats, err, errlen))
				goto bad;
			/* the same label twice in a set: "_2" after the second */
			for (unsigned j = 0; j < i; j++)
				if (!str_cmp(s->ev[j].label, e->label)) {
					char suf[8];

					fmt_snprintf(suf, sizeof(suf), "_%u", i + 1);
					e->label[UEV_LABEL_LEN - sizeof(suf)] = '\0';
					str_lcat(e->label, suf, sizeof(e->label));
					break;
				}
			if (hw->num_gp && !e->fixed_only && !(e->gp_mask & gp_all) &&
			    (e->fixed < 0 || e->fixed >= 32 || !(hw->fixed_mask & (1U << e->fixed)))) {
				char allowed[64];

				mask_list(e->gp_mask, allowed, sizeof(allowed));
				fail(err, errlen, ms, "event '%s' can be counted on GP counter(s) %s "
				     "only; this CPU has %u", e->label, allowed, hw->num_gp);
				goto bad;
			}
			if (hw->num_gp && e->fixed_only &&
			    (e->fixed < 0 || e->fixed >= 32 || !(hw->fixed_mask & (1U << e->fixed)))) {
				fail(err, errlen, ms, "event '%s' is counted by fixed counter %d only, "
				     "which this CPU does not have", e->label, e->fixed);
				goto bad;
			}
		}
		if (schedule(s, hw, err, errlen))
			goto bad;
		p->nevents += s->nev;
		p->nsets++;
	}
	return 0;
bad:
	memset(p, 0, sizeof(*p));
	return -1;
}

int uev_check_buffer(struct uev_plan *p, uint64_t buf_size, char *err, size_t errlen)
{
	for (unsigned si = 0; si < p->nsets; si++) {
		const struct measure_set *ms = p->set[si].spec;
		uint64_t need = measure_buffer_bytes(ms);

		if (need > buf_size) {
			fail(err, errlen, ms, "%s needs %llu bytes of the test buffer, which has %llu "
			     "(option size=)", measure_kernels[ms->kernel].name,
			     (unsigned long long)need, (unsigned long long)buf_size);
			memset(p, 0, sizeof(*p));
			return -1;
		}
	}
	return 0;
}

bool uev_locate(const struct uev_plan *p, unsigned i, unsigned *set, unsigned *ev)
{
	for (unsigned s = 0; s < p->nsets; s++) {
		if (i < p->set[s].nev) {
			*set = s;
			*ev = i;
			return true;
		}
		i -= p->set[s].nev;
	}
	return false;
}

unsigned uev_run_cfg(const struct uev_set *s, unsigned r, struct ctr_cfg cfg[PMU_RUN_MAX],
		     unsigned evidx[PMU_RUN_MAX])
{
	unsigned n = 0;

	for (unsigned i = 0; i < s->nev && n < PMU_RUN_MAX; i++) {
		const struct uev_event *e = &s->ev[i];

		if (e->run != r)
			continue;
		cfg[n] = (struct ctr_cfg){ .fixed = e->on_fixed, .idx = e->idx };
		if (e->on_fixed)
			cfg[n].fixed_ctrl = (e->sel.os ? FIXED_CTR_CTRL_OS : 0) |
					    (e->sel.usr ? FIXED_CTR_CTRL_USR : 0) |
					    (e->sel.any ? FIXED_CTR_CTRL_ANY : 0);
		else
			cfg[n].evtsel = pmu_evtsel_encode(&e->sel);
		evidx[n++] = i;
	}
	return n;
}

void uev_counter_name(const struct uev_event *e, char *buf, size_t len)
{
	fmt_snprintf(buf, len, "%s%u", e->on_fixed ? "fixed" : "GP", e->idx);
}

uint64_t uev_bound(uint64_t tsc)
{
	uint64_t k = (uint64_t)UEV_EVENTS_PER_CYCLE * UEV_CYCLES_PER_TSC;

	return tsc > (UINT64_MAX - 1024) / k ? UINT64_MAX : tsc * k + 1024;
}
