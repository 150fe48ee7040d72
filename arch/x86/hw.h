/* SPDX-License-Identifier: MIT */
/*
 * The hardware accessors the PMU library uses, and nothing else: MSRs, RDPMC, CPUID and
 * the local APIC's performance-counter LVT. The firmware links arch/x86/hw.c (the real
 * instructions, fault-safe); host unit tests link a strict model of the SDM rules in their
 * place (tests/host/pmu_model.c).
 */
#ifndef ARCH_X86_HW_H
#define ARCH_X86_HW_H

#include <stdbool.h>
#include <stdint.h>
#include "arch/x86/cpuid.h"

/* 0 on success, else the exception vector the access raised (13 #GP, 6 #UD). */
int hw_rdmsr(uint32_t msr, uint64_t *val);
int hw_wrmsr(uint32_t msr, uint64_t val);
int hw_rdpmc(uint32_t ecx, uint64_t *val);
struct cpuid_regs hw_cpuid(uint32_t leaf, uint32_t subleaf);

/* Local APIC performance-counter LVT (APIC_LVTPC) and EOI. */
uint32_t hw_apic_lvtpc_read(void);
void hw_apic_lvtpc_write(uint32_t v);
void hw_apic_eoi(void);
/* Whether `vector` waits in the local APIC's IRR (requested, not yet taken). */
bool hw_apic_irr_pending(unsigned vector);
/* Opens a short interrupt window (IF set, then clear again) so a pending interrupt is
 * taken by its handler now; call with interrupts disabled. */
void hw_irq_window(void);
/* Retires about insns instructions (a counted loop, two a turn), so that what is on its way
 * (a PMI with skid) arrives; returns the TSC ticks it took. */
uint64_t hw_retire(uint64_t insns);

/* The uncore's IMC counters (pmu/uncore.c): PCI configuration reads of the host bridge and
 * 32-bit MMIO reads of MCHBAR. Reads only: pmuboot writes neither. hw_mmio_read32 returns 0
 * or the vector the load raised (*val then 0xFFFFFFFF). */
uint32_t hw_pci_read32(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off);
int hw_mmio_read32(uint64_t addr, uint32_t *val);

#endif /* ARCH_X86_HW_H */
