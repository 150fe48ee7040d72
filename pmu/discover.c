/* SPDX-License-Identifier: MIT */
/* PMU discovery on the running CPU, through the hardware accessors of arch/x86/hw.h. */
#include "pmu/pmu.h"
#include "pmu/lbr.h"
#include "arch/x86/hw.h"
#include "arch/x86/msr.h"
#include "lib/string.h"

static void lbr_discover(struct pmu_caps *p, const struct cpu_info *cpu);

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
	/* Meteor Lake and later enumerate each core type's counters in leaf 23H; on Alder and
	 * Raptor Lake leaf 0AH gives only what every core type has, which is what is used. */
	if (cpu->vendor == VENDOR_INTEL && cpu->max_leaf >= CPUID_LEAF_ARCH_PERFMON_EXT &&
	    (hw_cpuid(7, 1).eax & CPUID_7_1_EAX_ARCH_PERFMON_EXT) &&
	    (hw_cpuid(CPUID_LEAF_ARCH_PERFMON_EXT, 0).eax & (1U << ARCH_PERFMON_EXT_COUNTER_LEAF))) {
		struct cpuid_regs r = hw_cpuid(CPUID_LEAF_ARCH_PERFMON_EXT,
					       ARCH_PERFMON_EXT_COUNTER_LEAF);

		pmu_caps_apply_counter_leaf(p, r.eax, r.ebx);
	}
	pmu_caps_apply_hybrid_core(p);
	lbr_discover(p, cpu);
}

/* Architectural LBR is enumerated by CPUID alone; the model-specific stack needs the LBR
 * format from IA32_PERF_CAPABILITIES, so it is decided again once that is read. */
static void lbr_discover(struct pmu_caps *p, const struct cpu_info *cpu)
{
	struct cpuid_regs leaf;

	if (cpu->vendor == VENDOR_INTEL && cpu->max_leaf >= CPUID_LEAF_ARCH_LBR &&
	    (hw_cpuid(7, 0).edx & CPUID_7_EDX_ARCH_LBR)) {
		leaf = hw_cpuid(CPUID_LEAF_ARCH_LBR, 0);
		lbr_caps_decode(&p->lbr, p->uarch, true, LBR_FORMAT_ARCH, &leaf);
	} else if (cpu->vendor == VENDOR_INTEL) {
		lbr_caps_decode(&p->lbr, p->uarch, p->has_perf_caps, p->lbr_format, NULL);
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
	/* IA32_MISC_ENABLE: whether BTS and PEBS are there (bits 11, 12; read-only). An
	 * architectural MSR of every Intel CPU with a debug store. */
	if (p->vendor == VENDOR_INTEL && p->dsc.ds) {
		p->dsc.has_misc_enable = hw_rdmsr(MSR_IA32_MISC_ENABLE, &p->dsc.misc_enable) == 0;
		p->dsc.bts_unavailable = p->dsc.misc_enable & MSR_IA32_MISC_ENABLE_BTS_UNAVAIL;
		p->dsc.pebs_unavailable = p->dsc.misc_enable & MSR_IA32_MISC_ENABLE_PEBS_UNAVAIL;
	}
	/* IA32_BIOS_SIGN_ID: write 0, execute CPUID(1), read the revision (SDM Vol. 3A
	 * 9.11.7.1); without the CPUID the MSR may still hold the 0 just written. */
	p->has_ucode_rev = false;
	if (p->vendor == VENDOR_INTEL && hw_wrmsr(MSR_IA32_UCODE_REV, 0) == 0) {
		uint64_t v = 0;

		(void)hw_cpuid(1, 0);
		if (hw_rdmsr(MSR_IA32_UCODE_REV, &v) == 0) {
			p->has_ucode_rev = true;
			p->ucode_rev = (uint32_t)(v >> MSR_IA32_UCODE_REV_SHIFT);
		}
	}
	if (p->vendor == VENDOR_INTEL && !p->lbr.arch)
		lbr_caps_decode(&p->lbr, p->uarch, p->has_perf_caps, p->lbr_format, NULL);
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
