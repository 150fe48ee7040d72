/* SPDX-License-Identifier: MIT */
/* Run-wide health: interrupts that arrived with no handler perturb measurements, and no
 * check may leave the PMU armed or a PMI waiting for the next one. */
#include "arch/x86/apic.h"
#include "tests/harness/check.h"
#include "tests/checks/system.h"
#include "arch/x86/percpu.h"
#include "arch/x86/trap.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "pmu/pmi.h"
#include "pmu/uncore.h"

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

static enum check_status check_system_unexpected_interrupts(struct check_ctx *c)
{
	struct percpu *cpu = this_cpu();
	uint64_t total = 0;
	char list[200] = "";

	for (unsigned v = 0; v < NR_VECTORS; v++) {
		if (!cpu->unexpected[v])
			continue;
		total += cpu->unexpected[v];
		char one[32];
		fmt_snprintf(one, sizeof(one), "%s0x%02x x%llu", list[0] ? "," : "", v,
			     (unsigned long long)cpu->unexpected[v]);
		str_lcat(list, one, sizeof(list));
	}
	if (total || pmis_left)
		return check_fail(c, "measured=%llu (%s), %llu PMIs left pending by %s expected=0 "
				  "spurious=%llu", (unsigned long long)total, list[0] ? list : "none",
				  (unsigned long long)pmis_left, pmis_left_by[0] ? pmis_left_by : "none",
				  (unsigned long long)cpu->spurious);
	return check_pass(c, "measured=0 expected=0 spurious=%llu pmis_left=0",
			  (unsigned long long)cpu->spurious);
}
CHECK_DEFINE(860, "system.unexpected_interrupts", check_system_unexpected_interrupts,
	     "no interrupt arrived without a handler during the run",
	     .flags = CHECK_PER_CPU);
