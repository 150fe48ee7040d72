/* SPDX-License-Identifier: MIT */
/* Run-wide health: interrupts that arrived with no handler perturb measurements. */
#include "arch/x86/percpu.h"
#include "arch/x86/trap.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "tests/checks.h"

enum check_status check_system_unexpected_interrupts(struct check_ctx *c)
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
	if (total)
		return check_fail(c, "measured=%llu (%s) expected=0 spurious=%llu",
				  (unsigned long long)total, list, (unsigned long long)cpu->spurious);
	return check_pass(c, "measured=0 expected=0 spurious=%llu", (unsigned long long)cpu->spurious);
}
