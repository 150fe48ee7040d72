/* SPDX-License-Identifier: MIT */
/* Real-hardware accessors behind arch/x86/hw.h: the fault-safe instructions. */
#include "arch/x86/hw.h"
#include "arch/x86/apic.h"
#include "arch/x86/io.h"
#include "arch/x86/mmio.h"
#include "arch/x86/msr.h"
#include "arch/x86/pci.h"

int hw_rdmsr(uint32_t msr, uint64_t *val)
{
	return rdmsr_safe(msr, val);
}

int hw_wrmsr(uint32_t msr, uint64_t val)
{
	return wrmsr_safe(msr, val);
}

int hw_rdpmc(uint32_t ecx, uint64_t *val)
{
	return rdpmc_safe(ecx, val);
}

struct cpuid_regs hw_cpuid(uint32_t leaf, uint32_t subleaf)
{
	return cpuid_count(leaf, subleaf);
}

uint32_t hw_apic_lvtpc_read(void)
{
	return apic.present ? apic_read(APIC_LVTPC) : APIC_LVT_MASKED;
}

void hw_apic_lvtpc_write(uint32_t v)
{
	if (apic.present)
		apic_write(APIC_LVTPC, v);
}

void hw_apic_eoi(void)
{
	if (apic.present)
		apic_eoi();
}

bool hw_apic_irr_pending(unsigned vector)
{
	return apic_irr_pending(vector);
}

uint64_t hw_retire(uint64_t insns)
{
	uint64_t t0 = rdtsc();

	for (uint64_t n = insns / 2; n; n--)
		__asm__ volatile("" : "+r"(n));		/* SUB, JNZ */
	return rdtsc() - t0;
}

void hw_irq_window(void)
{
	/* STI holds interrupts off for one more instruction: the pauses give the pending one
	 * a few instruction boundaries to arrive at. */
	irq_enable();
	for (int i = 0; i < 4; i++)
		cpu_relax();
	irq_disable();
}

uint32_t hw_pci_read32(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off)
{
	return pci_read32(bus, dev, fn, off);
}

int hw_mmio_read32(uint64_t addr, uint32_t *val)
{
	return mmio_read32_safe(addr, val);
}
