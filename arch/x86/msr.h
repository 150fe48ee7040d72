/* SPDX-License-Identifier: MIT */
/*
 * Every MSR pmuboot touches, in one place, named as the SDM and Linux's msr-index.h name
 * them; each register's fields sit directly beneath it. Fault-safe accessors too.
 */
#ifndef ARCH_X86_MSR_H
#define ARCH_X86_MSR_H

#include <stdint.h>
#include "arch/x86/io.h"

/* --- Architectural --- */
#define MSR_IA32_TSC			0x00000010
#define MSR_IA32_APICBASE		0x0000001b
#define  MSR_IA32_APICBASE_BSP		BIT_ULL(8)
#define  MSR_IA32_APICBASE_EXTD		BIT_ULL(10)	/* x2APIC mode */
#define  MSR_IA32_APICBASE_ENABLE	BIT_ULL(11)
#define  MSR_IA32_APICBASE_BASE		GENMASK_ULL(51, 12)
#define MSR_IA32_FEATURE_CONTROL	0x0000003a
#define MSR_IA32_PMC0			0x000000c1	/* IA32_PMCx = 0xC1 + x (seed 002) */
#define MSR_PLATFORM_INFO		0x000000ce
#define MSR_IA32_PERF_CAPABILITIES	0x00000345
#define MSR_IA32_PERFEVTSEL0		0x00000186	/* IA32_PERFEVTSELx = 0x186 + x (seed 002) */
#define MSR_IA32_MISC_ENABLE		0x000001a0
#define MSR_IA32_DEBUGCTLMSR		0x000001d9
#define MSR_CORE_PERF_FIXED_CTR0	0x00000309
#define MSR_CORE_PERF_FIXED_CTR_CTRL	0x0000038d
#define MSR_CORE_PERF_GLOBAL_STATUS	0x0000038e
#define MSR_CORE_PERF_GLOBAL_CTRL	0x0000038f
#define MSR_CORE_PERF_GLOBAL_OVF_CTRL	0x00000390
#define MSR_IA32_TSC_DEADLINE		0x000006e0
#define MSR_IA32_PKRS			0x000006e1	/* bits 63:32 reserved: writing them raises #GP */
#define MSR_IA32_PMC0_FULL		0x000004c1	/* IA32_A_PMCx, full-width writes */

/* x2APIC registers: 0x800 + (xAPIC MMIO offset >> 4) */
#define MSR_X2APIC_BASE			0x00000800
#define MSR_X2APIC_SELF_IPI		0x0000083f

/* --- AMD64 / long mode --- */
#define MSR_EFER			0xc0000080
#define  EFER_SCE			BIT_ULL(0)
#define  EFER_LME			BIT_ULL(8)
#define  EFER_LMA			BIT_ULL(10)
#define  EFER_NX			BIT_ULL(11)
#define MSR_FS_BASE			0xc0000100
#define MSR_GS_BASE			0xc0000101
#define MSR_KERNEL_GS_BASE		0xc0000102

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	asm volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return lo | ((uint64_t)hi << 32);
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	asm volatile("wrmsr" : : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)) : "memory");
}

/*
 * Fault-safe forms (arch/x86/trap.c): return 0 on success or the exception vector the
 * instruction raised (13 for #GP, 6 for #UD; vector 0 cannot occur). On a fault *val is 0.
 */
int rdmsr_safe(uint32_t msr, uint64_t *val);
int wrmsr_safe(uint32_t msr, uint64_t val);
int rdpmc_safe(uint32_t ecx, uint64_t *val);

#endif /* ARCH_X86_MSR_H */
