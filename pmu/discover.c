/* SPDX-License-Identifier: MIT */
/* PMU discovery on the running CPU, through the hardware accessors of arch/x86/hw.h. */
#include "pmu/pmu.h"
#include "arch/x86/hw.h"
#include "arch/x86/msr.h"
#include "lib/string.h"

void pmu_discover_cpuid(struct pmu_caps *p, const struct cpu_info *cpu)
{
	struct cpuid_regs a = { 0, 0, 0, 0 };

	if (cpu->max_leaf >= CPUID_LEAF_PMU)
		a = hw_cpuid(CPUID_LEAF_PMU, 0);
	pmu_caps_decode(p, cpu, a);
	if (cpu->vendor == VENDOR_INTEL) {
		p->uarch = pmu_uarch_from_model(cpu->family, cpu->model);
		p->has_smi_count = pmu_uarch_has_smi_count(p->uarch);
		p->errata = pmu_model_errata(cpu->family, cpu->model);
	}
	p->hypervisor = cpu->hypervisor;
	p->tcg = cpu->hypervisor && !memcmp(cpu->hv_signature, "TCGTCGTCGTCG", 12);
	if (cpu->max_leaf >= 7 && (hw_cpuid(7, 0).edx & CPUID_7_EDX_HYBRID)) {
		p->hybrid = true;
		if (cpu->max_leaf >= CPUID_LEAF_HYBRID)
			p->core_type = HYBRID_CORE_TYPE(hw_cpuid(CPUID_LEAF_HYBRID, 0).eax);
	}
}

void pmu_discover_msrs(struct pmu_caps *p)
{
	uint64_t caps;

	/* IA32_PERF_CAPABILITIES exists where CPUID.1:ECX.PDCM says so; read it fault-safe all
	 * the same (a hypervisor may advertise PDCM without the MSR). */
	p->has_perf_caps = p->pdcm && hw_rdmsr(MSR_IA32_PERF_CAPABILITIES, &caps) == 0;
	if (p->has_perf_caps)
		pmu_caps_decode_perf_caps(p, caps);
}

void pmu_discover(struct pmu_caps *p, const struct cpu_info *cpu)
{
	pmu_discover_cpuid(p, cpu);
	pmu_discover_msrs(p);
}

void pmu_probe_cpuid(const struct cpu_info *cpu)
{
	pmu_discover_cpuid(&pmu, cpu);
}

void pmu_probe_msrs(void)
{
	pmu_discover_msrs(&pmu);
}
