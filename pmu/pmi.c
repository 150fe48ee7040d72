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
	/* Delivery status (bit 12) is read-only: written back set, x2APIC mode raises #GP on
	 * the WRMSR (SDM Vol. 3A 10.12.1.2, reserved bits). */
	hw_apic_lvtpc_write((hw_apic_lvtpc_read() | APIC_LVT_MASKED) & ~APIC_LVT_DELIVERY_PENDING);
}

void pmu_pmi_handle(const struct pmu_caps *p, struct pmi_stats *s, bool nmi)
{
	uint32_t lvt = hw_apic_lvtpc_read();
	uint64_t ack_bits = pmu_ovf_clear_bits(p) & ~s->keep, status = 0, ctrl = 0;
	unsigned loops = 0;
	bool any;

	if (p->version >= 2) {
		any = !hw_rdmsr(MSR_CORE_PERF_GLOBAL_STATUS, &status) && (status & ack_bits);
		if (!any && nmi) {
			/* Not a PMI; but if delivery masked the LVT entry (a PMI whose status
			 * was already acknowledged), unmask it, or every later PMI is lost. */
			s->not_pmi++;
			if (lvt & APIC_LVT_MASKED)
				hw_apic_lvtpc_write(lvt & ~APIC_LVT_MASKED & ~APIC_LVT_DELIVERY_PENDING);
			return;
		}
		/* Stop counting while the handler runs and the counters are reset. */
		hw_rdmsr(MSR_CORE_PERF_GLOBAL_CTRL, &ctrl);
		hw_wrmsr(MSR_CORE_PERF_GLOBAL_CTRL, 0);
		if (any)
			s->first_status = status;
		/* Acknowledge what was seen, then look again: a counter may overflow while the
		 * handler runs (SDM Vol. 3B 18.2.2: clear the bits through OVF_CTRL). Only bits
		 * OVF_CTRL can clear, and not those the caller keeps: a sticky informational bit
		 * (ASCI) or a held freeze must not keep the loop going. */
		while (loops < PMI_LOOP_MAX && (status & ack_bits)) {
			status &= ack_bits;
			s->last_status = status;
			for (unsigned b = 0; b < 64; b++)
				if (status & (1ULL << b))
					s->overflows[b]++;
			hw_wrmsr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, status);
			loops++;
			if (hw_rdmsr(MSR_CORE_PERF_GLOBAL_STATUS, &status))
				break;
		}
		if (loops == PMI_LOOP_MAX)
			s->loop_limited++;
	} else {
		/* No status register: a fixed-vector interrupt on the PMI vector is the PMI; an
		 * NMI is one if delivery masked the LVT entry (SDM 10.5.1). */
		any = !nmi || (lvt & APIC_LVT_MASKED);
		if (!any) {
			s->not_pmi++;
			return;
		}
	}
	if (any)
		s->pmis++;
	else
		s->spurious++;
	s->lvt_at_entry = lvt;
	if (s->rearm)
		s->rearm();
	if (p->version >= 2)
		hw_wrmsr(MSR_CORE_PERF_GLOBAL_CTRL, ctrl);
	/* Last: delivery set the LVT mask bit; clear it so the next overflow interrupts too. */
	hw_apic_lvtpc_write((lvt & ~APIC_LVT_MASKED) & ~APIC_LVT_DELIVERY_PENDING);
	if (!nmi)
		hw_apic_eoi();
}

static uint64_t quiesce_waited;

uint64_t pmu_quiesce_waited(void)
{
	return quiesce_waited;
}

int pmu_quiesce(const struct pmu_caps *p, unsigned vector, bool *still_pending)
{
	/* Stop first: a counter still counting with INT would raise the next PMI as soon as
	 * the window below opens. */
	int r = pmu_reset(p);

	quiesce_waited = hw_retire(PMI_SKID_MAX);	/* a late PMI lands in the IRR */
	pmu_pmi_lvt_mask();
	for (unsigned i = 0; i < 4 && hw_apic_irr_pending(vector); i++)
		hw_irq_window();
	pmu_pmi_lvt_mask();	/* a PMI handler run by the drain unmasks it */
	if (still_pending)
		*still_pending = hw_apic_irr_pending(vector);
	return r;
}
