/* SPDX-License-Identifier: MIT */
/* Run-wide health: interrupts that arrived with no handler perturb measurements, and no
 * check may leave the PMU armed or a PMI waiting for the next one. */
#include "arch/x86/apic.h"
#include "tests/harness/check.h"
#include "tests/harness/cleanup.h"
#include "arch/x86/percpu.h"
#include "arch/x86/trap.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "pmu/pmi.h"
#include "pmu/uncore.h"

static enum check_status check_system_unexpected_interrupts(struct check_ctx *c)
{
	struct percpu *cpu = this_cpu();
	uint64_t total = 0;
	char list[200] = "";
	const char *pmis_left_by;
	uint64_t pmis_left = cleanup_pmis_left(&pmis_left_by);

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
		return check_result(c, CHECK_FAIL, "%llu (%s), %llu PMIs left pending by %s", "0 "
				    "spurious=%llu", (unsigned long long)total, list[0] ? list : "none",
				    (unsigned long long)pmis_left, pmis_left_by,
				    (unsigned long long)cpu->spurious);
	/* SDM Vol. 3A Figure 10-9: ESR bit 2 send accept, 3 receive accept, 5 send illegal
	 * vector, 6 received illegal vector, 7 illegal register address. */
	if (cpu->apic_errors)
		return check_result(c, CHECK_FAIL, "%llu APIC error interrupt(s), ESR bits 0x%x", "none "
				    "(ESR: 0x4 send accept, 0x8 receive accept, 0x20 send illegal "
				    "vector, 0x40 received illegal vector, 0x80 illegal register)",
				    (unsigned long long)cpu->apic_errors, cpu->apic_esr);
	return check_result(c, CHECK_PASS, "0", "0 spurious=%llu pmis_left=0",
			    (unsigned long long)cpu->spurious);
}
CHECK_DEFINE(860, "system.unexpected_interrupts", check_system_unexpected_interrupts,
	     "no interrupt arrived without a handler during the run",
	     .flags = CHECK_PER_CPU);
