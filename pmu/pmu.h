/* SPDX-License-Identifier: MIT */
/*
 * Core PMU discovery (CPUID leaf 0AH). This is the start of the PMU library: the core-PMU
 * issue extends it with PERF_CAPABILITIES, microarchitecture names and programming.
 */
#ifndef PMU_PMU_H
#define PMU_PMU_H

#include <stdbool.h>
#include <stdint.h>
#include "arch/x86/cpuid.h"

/* CPUID.0AH (seed 002_28e325465e681290.txt 18.2.1.2; SDM Vol. 3B 18.2). */
#define CPUID_LEAF_PMU			0x0a
#define PMU_EAX_VERSION(eax)		((eax) & 0xff)
#define PMU_EAX_NUM_GP(eax)		(((eax) >> 8) & 0xff)
#define PMU_EAX_GP_WIDTH(eax)		(((eax) >> 16) & 0xff)
#define PMU_EAX_EBX_LEN(eax)		(((eax) >> 24) & 0xff)
#define PMU_EDX_NUM_FIXED(edx)		((edx) & 0x1f)
#define PMU_EDX_FIXED_WIDTH(edx)	(((edx) >> 5) & 0xff)

struct pmu_caps {
	uint32_t eax, ebx, ecx, edx;	/* raw CPUID.0AH */
	unsigned version;		/* 0: no architectural PMU */
	unsigned num_gp, gp_width;
	unsigned num_fixed, fixed_width;
	unsigned ebx_len;		/* architectural-event bits valid in EBX */
};

/* Pure decode of CPUID.0AH; cpu is consulted for max_leaf and vendor. */
void pmu_caps_decode(struct pmu_caps *p, const struct cpu_info *cpu, struct cpuid_regs leaf_a);
/* Decodes the running CPU into the global pmu. */
void pmu_probe(const struct cpu_info *cpu);

extern struct pmu_caps pmu;

/*
 * Why counter checks cannot run here, or NULL when they can. `force` (option force-pmu)
 * makes them run regardless: they must then fail where there is no PMU.
 */
const char *pmu_unavailable_reason(bool force);

#endif /* PMU_PMU_H */
