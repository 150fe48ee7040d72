/* SPDX-License-Identifier: MIT */
/* `list=events`: the event catalogs of the detected CPU, one event a line. */
#include "arch/x86/console.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "pmu/catalog.h"
#include "pmu/pmu.h"
#include "tests/harness/list.h"
#include "tests/harness/measure_opt.h"

static const char *unit_name(unsigned u)
{
	switch (u) {
	case PMU_UNIT_CORE: return "core";
	case PMU_UNIT_NHM_UNC: return "uncore";
	case PMU_UNIT_SKL_CBO: return "cbo";
	case PMU_UNIT_SKL_ARB: return "arb";
	case PMU_UNIT_SKL_UCLK: return "uclk";
	case PMU_UNIT_SKL_IMC: return "imc";
	default: return "?";
	}
}

/* "counters=0-3", "counters=0,1", "fixed=1", "counters=any,fixed=0". */
static void where_counted(const struct pmu_event_def *d, char *buf, size_t len)
{
	char one[16];

	buf[0] = '\0';
	if (d->unit == PMU_UNIT_SKL_IMC) {
		str_lcpy(buf, "free-running", len);
		return;
	}
	if (d->unit == PMU_UNIT_CORE && d->event == 0 && d->fixed >= 0) {
		fmt_snprintf(buf, len, "fixed=%d", d->fixed);
		return;
	}
	if (!d->counters) {
		str_lcpy(buf, "counters=any", len);
	} else {
		str_lcpy(buf, "counters=", len);
		for (unsigned i = 0, first = 1; i < 32; i++)
			if (d->counters & (1U << i)) {
				fmt_snprintf(one, sizeof(one), first ? "%u" : ",%u", i);
				str_lcat(buf, one, len);
				first = 0;
			}
	}
	if (d->unit == PMU_UNIT_CORE && d->fixed >= 0) {
		fmt_snprintf(one, sizeof(one), ",fixed=%d", d->fixed);
		str_lcat(buf, one, len);
	}
}

void events_list_print(void)
{
	const struct pmu_catalog *cats[4];
	unsigned n = pmu_catalogs_for(pmu.uarch, cats, 4);

	con_printf("# events of this CPU (%s): NAME event/umask[/cmask] [flags] where, catalog; "
		   "use with measure=NAME,...@KERNEL:SIZE\n", pmu_uarch_name(pmu.uarch));
	for (unsigned c = 0; c < n; c++) {
		const struct pmu_catalog *cat = cats[c];

		con_printf("# catalog %s: %s, %u events, %s\n", cat->model, cat->title, cat->count,
			   cat->source);
		for (unsigned i = 0; i < cat->count; i++) {
			const struct pmu_event_def *d = &cat->events[i];
			char enc[24], where[64];

			if (d->cmask)
				fmt_snprintf(enc, sizeof(enc), "%02X/%02X/%u", d->event, d->umask,
					     d->cmask);
			else
				fmt_snprintf(enc, sizeof(enc), "%02X/%02X", d->event, d->umask);
			where_counted(d, where, sizeof(where));
			con_printf("%-48s %-10s %s%s%s%s%s%s%s%s %s %s\n", d->name, enc,
				   unit_name(d->unit),
				   d->flags & PMU_EVF_INV ? " inv" : "",
				   d->flags & PMU_EVF_EDGE ? " edge" : "",
				   d->flags & PMU_EVF_ANY ? " any" : "",
				   d->flags & PMU_EVF_PEBS ? " pebs" : "",
				   d->flags & (PMU_EVF_LDLAT | PMU_EVF_OFFCORE | PMU_EVF_FRONTEND) ?
				   " extra-msr" : "",
				   d->flags & PMU_EVF_ALIAS ? " alias" : "", "", where, cat->model);
		}
	}
	con_printf("# kernels for measure=EVENTS@KERNEL:SIZE (SIZE: N[K|M|G]):\n");
	for (unsigned k = 0; k < MK_COUNT; k++)
		con_printf("# kernel %s: SIZE = %s; default %llu\n", measure_kernels[k].name,
			   measure_kernels[k].what, (unsigned long long)measure_kernels[k].def_size);
}
