/* SPDX-License-Identifier: MIT */
/* PMI bookkeeping: status, acknowledge, LVT unmask, EOI (through arch/x86/hw.h). */
#include "pmu/pmi.h"
#include "arch/x86/apic.h"
#include "arch/x86/hw.h"
#include "arch/x86/msr.h"
#include "pmu/counter.h"

void pmu_pmi_lvt_setup(unsigned vector, bool nmi)
{
	hw_apic_lvtpc_write(nmi ? APIC_LVT_DM_NMI : (vector & 0xff));
}

void pmu_pmi_lvt_mask(void)
{
	hw_apic_lvtpc_write(hw_apic_lvtpc_read() | APIC_LVT_MASKED);
}

void pmu_pmi_handle(const struct pmu_caps *p, struct pmi_stats *s, bool nmi)
{
	uint32_t lvt = hw_apic_lvtpc_read();
	bool any = false;
	unsigned loops = 0;

	s->pmis++;
	s->lvt_at_entry = lvt;
	if (p->version >= 2) {
		uint64_t status = 0;

		/* Acknowledge what was seen, then look again: a counter may overflow while the
		 * handler runs (SDM Vol. 3B 18.2.2: clear the bits through OVF_CTRL). */
		while (loops < PMI_LOOP_MAX && !hw_rdmsr(MSR_CORE_PERF_GLOBAL_STATUS, &status) &&
		       (status & pmu_ovf_clear_bits(p))) {
			/* Only bits OVF_CTRL can clear: a sticky informational bit (ASCI) must
			 * not keep the loop going. */
			status &= pmu_ovf_clear_bits(p);
			s->last_status = status;
			for (unsigned b = 0; b < 64; b++)
				if (status & (1ULL << b))
					s->overflows[b]++;
			any = true;
			hw_wrmsr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, status);
			loops++;
		}
		if (loops == PMI_LOOP_MAX)
			s->loop_limited++;
		if (!any)
			s->spurious++;
	}
	/* Delivery set the LVT mask bit: clear it so the next overflow interrupts too. */
	hw_apic_lvtpc_write((lvt & ~APIC_LVT_MASKED) & ~APIC_LVT_DELIVERY_PENDING);
	if (!nmi)
		hw_apic_eoi();
}
