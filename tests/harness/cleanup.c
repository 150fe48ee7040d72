/* SPDX-License-Identifier: MIT */
/* The cleanup the runner gives every check, and what it found left behind. */
#include "tests/harness/cleanup.h"
#include "arch/x86/apic.h"
#include "arch/x86/trap.h"
#include "arch/x86/user.h"
#include "lib/string.h"
#include "pmu/pmi.h"
#include "pmu/uncore.h"
#include "tests/measure/region.h"

/* PMIs that were still waiting when a check ended, and the checks that left them. */
static uint64_t pmis_left;
static char pmis_left_by[120];

static void drain_irq(struct trap_frame *f)
{
	(void)f;
	pmis_left++;
	apic_eoi_if_in_service(VECTOR_PMI);
}

void check_cleanup(struct check_ctx *c)
{
	uint64_t before = pmis_left;
	bool pending = false;

	/* A two-CPU check the watchdog stopped left the concurrent-run mark of its regions. */
	measure_concurrent = false;
	/* A check stopped inside a user call or own_tables_call (the watchdog, a fault outside
	 * their recovery) left pmuboot's tables loaded with SMEP/SMAP off: put them back. */
	if (tables_reset())
		check_diag(c, "cleanup: %s ended on pmuboot's own page tables; CR3 and CR4 put back",
			   c->name);
	/* Stop every counter first (pmu_reset touches no MSR without an architectural PMU),
	 * DEBUGCTL to the baseline, LVT masked; then a PMI that still waits in the IRR is taken
	 * here instead of by a later check; the checks' handlers go, whatever ended the check
	 * (force-pmu on a machine without a PMU too). */
	trap_set_handler(VECTOR_PMI, drain_irq);
	uncore_quiesce();	/* the uncore's counters first: they can raise PMIs too */
	if (apic.present)
		pmu_quiesce(&pmu, VECTOR_PMI, &pending);
	trap_set_handler(VECTOR_PMI, 0);
	trap_set_handler(X86_TRAP_NMI, 0);
	if (pending)
		pmis_left++;	/* held in the IRR (a higher-priority interrupt in service) */
	if (pmis_left != before) {
		check_diag(c, "cleanup: %llu PMI(s) were still pending after %s; drained%s",
			   (unsigned long long)(pmis_left - before), c->name,
			   pending ? " but one stays pending" : "");
		if (!pmis_left_by[0] || str_len(pmis_left_by) + str_len(c->name) + 2 <
		    sizeof(pmis_left_by)) {
			if (pmis_left_by[0])
				str_lcat(pmis_left_by, ",", sizeof(pmis_left_by));
			str_lcat(pmis_left_by, c->name, sizeof(pmis_left_by));
		}
	}
}

uint64_t cleanup_pmis_left(const char **by)
{
	*by = pmis_left_by[0] ? pmis_left_by : "none";
	return pmis_left;
}
