/* SPDX-License-Identifier: MIT */
/* Core PMU discovery from CPUID leaf 0AH. */
#include "pmu/pmu.h"
#include "lib/fmt.h"
#include "lib/string.h"

struct pmu_caps pmu;

void pmu_caps_decode(struct pmu_caps *p, const struct cpu_info *cpu, struct cpuid_regs r)
{
	memset(p, 0, sizeof(*p));
	if (cpu->max_leaf < CPUID_LEAF_PMU)
		return;
	p->eax = r.eax;
	p->ebx = r.ebx;
	p->ecx = r.ecx;
	p->edx = r.edx;
	p->version = PMU_EAX_VERSION(r.eax);
	p->num_gp = PMU_EAX_NUM_GP(r.eax);
	p->gp_width = PMU_EAX_GP_WIDTH(r.eax);
	p->ebx_len = PMU_EAX_EBX_LEN(r.eax);
	/* Fixed counters are enumerated in EDX from version 2 on (SDM Vol. 3B 18.2.2). */
	if (p->version >= 2) {
		p->num_fixed = PMU_EDX_NUM_FIXED(r.edx);
		p->fixed_width = PMU_EDX_FIXED_WIDTH(r.edx);
	}
}

void pmu_probe(const struct cpu_info *cpu)
{
	struct cpuid_regs r = { 0, 0, 0, 0 };

	if (cpu->max_leaf >= CPUID_LEAF_PMU)
		r = cpuid_count(CPUID_LEAF_PMU, 0);
	pmu_caps_decode(&pmu, cpu, r);
}

const char *pmu_unavailable_reason(bool force)
{
	static char why[96];

	if (force)
		return NULL;
	if (pmu.version == 0) {
		fmt_snprintf(why, sizeof(why), "no architectural PMU: CPUID.0AH:EAX[7:0]=0");
		return why;
	}
	if (pmu.num_gp == 0) {
		fmt_snprintf(why, sizeof(why), "no general-purpose counters: CPUID.0AH:EAX[15:8]=0");
		return why;
	}
	return NULL;
}
