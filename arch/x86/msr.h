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
#define MSR_SMI_COUNT			0x00000034	/* read-only; SMIs since reset (SDM Vol. 4:
							 * Nehalem and later, Silvermont and later) */
#define  MSR_SMI_COUNT_MASK		GENMASK_ULL(31, 0)
#define MSR_IA32_FEATURE_CONTROL	0x0000003a
#define MSR_PLATFORM_INFO		0x000000ce
#define MSR_IA32_MISC_ENABLE		0x000001a0
#define  MSR_IA32_MISC_ENABLE_PERF_AVAIL	BIT_ULL(7)	/* performance monitoring available */
#define MSR_IA32_TSC_DEADLINE		0x000006e0
#define MSR_IA32_PKRS			0x000006e1	/* bits 63:32 reserved: writing them raises #GP */

/*
 * --- Core PMU (SDM Vol. 3B ch. 18-20; seed 002_28e325465e681290.txt 18.2.1) ---
 */
#define MSR_IA32_PMC0			0x000000c1	/* IA32_PMCx = 0xC1 + x; legacy writes:
							 * bits 31:0, sign-extended from bit 31 */
#define MSR_IA32_PERFEVTSEL0		0x00000186	/* IA32_PERFEVTSELx = 0x186 + x */
#define  ARCH_PERFMON_EVENTSEL_EVENT	GENMASK_ULL(7, 0)
#define  ARCH_PERFMON_EVENTSEL_UMASK	GENMASK_ULL(15, 8)
#define  ARCH_PERFMON_EVENTSEL_USR	BIT_ULL(16)	/* count at CPL 1-3 */
#define  ARCH_PERFMON_EVENTSEL_OS	BIT_ULL(17)	/* count at CPL 0 */
#define  ARCH_PERFMON_EVENTSEL_EDGE	BIT_ULL(18)
#define  ARCH_PERFMON_EVENTSEL_PIN_CONTROL BIT_ULL(19)
#define  ARCH_PERFMON_EVENTSEL_INT	BIT_ULL(20)	/* PMI through the local APIC on overflow */
#define  ARCH_PERFMON_EVENTSEL_ANY	BIT_ULL(21)	/* AnyThread: version 3+, else reserved */
#define  ARCH_PERFMON_EVENTSEL_ENABLE	BIT_ULL(22)
#define  ARCH_PERFMON_EVENTSEL_INV	BIT_ULL(23)
#define  ARCH_PERFMON_EVENTSEL_CMASK	GENMASK_ULL(31, 24)
#define  ARCH_PERFMON_EVENTSEL_RESERVED	GENMASK_ULL(63, 32)
#define MSR_IA32_PERF_CAPABILITIES	0x00000345	/* present when CPUID.1:ECX.PDCM */
#define  PERF_CAP_LBR_FMT		GENMASK_ULL(5, 0)
#define  PERF_CAP_PEBS_TRAP		BIT_ULL(6)
#define  PERF_CAP_PEBS_ARCH_REG		BIT_ULL(7)
#define  PERF_CAP_PEBS_FORMAT		GENMASK_ULL(11, 8)
#define  PERF_CAP_FREEZE_WHILE_SMM	BIT_ULL(12)
#define  PERF_CAP_FW_WRITE		BIT_ULL(13)	/* full-width writes via IA32_A_PMCx */
#define  PERF_CAP_PERF_METRICS		BIT_ULL(15)
#define  PERF_CAP_PEBS_OUTPUT_PT	BIT_ULL(16)
#define MSR_IA32_DEBUGCTLMSR		0x000001d9	/* SDM Vol. 3B Figure 17-3 */
#define  DEBUGCTLMSR_LBR		BIT_ULL(0)
#define  DEBUGCTLMSR_BTF		BIT_ULL(1)
#define  DEBUGCTLMSR_TR			BIT_ULL(6)
#define  DEBUGCTLMSR_BTS		BIT_ULL(7)
#define  DEBUGCTLMSR_BTINT		BIT_ULL(8)
#define  DEBUGCTLMSR_BTS_OFF_OS		BIT_ULL(9)
#define  DEBUGCTLMSR_BTS_OFF_USR	BIT_ULL(10)
#define  DEBUGCTLMSR_FREEZE_LBRS_ON_PMI	BIT_ULL(11)
#define  DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI BIT_ULL(12)
#define  DEBUGCTLMSR_UNCORE_PMI_EN	BIT_ULL(13)	/* Nehalem uncore PMI */
#define  DEBUGCTLMSR_FREEZE_IN_SMM	BIT_ULL(14)	/* FREEZE_WHILE_SMM: PERF_CAPABILITIES[12] */
#define MSR_CORE_PERF_FIXED_CTR0	0x00000309	/* FIXED_CTRx = 0x309 + x */
#define MSR_CORE_PERF_FIXED_CTR_CTRL	0x0000038d	/* 4 bits per fixed counter: */
#define  FIXED_CTR_CTRL_OS		0x1ULL		/*   count at CPL 0 */
#define  FIXED_CTR_CTRL_USR		0x2ULL		/*   count at CPL 1-3 */
#define  FIXED_CTR_CTRL_ANY		0x4ULL		/*   AnyThread, version 3+ */
#define  FIXED_CTR_CTRL_PMI		0x8ULL		/*   PMI on overflow */
#define  FIXED_CTR_CTRL_BITS		4
#define MSR_CORE_PERF_GLOBAL_STATUS	0x0000038e	/* read-only; version 2+ */
#define MSR_CORE_PERF_GLOBAL_CTRL	0x0000038f	/* version 2+ */
#define MSR_CORE_PERF_GLOBAL_OVF_CTRL	0x00000390	/* write 1 to clear STATUS bits; v4 name:
							 * IA32_PERF_GLOBAL_STATUS_RESET */
#define MSR_CORE_PERF_GLOBAL_STATUS_SET	0x00000391	/* version 4+ */
#define MSR_CORE_PERF_GLOBAL_INUSE	0x00000392	/* version 4+ */
/* GLOBAL_CTRL / STATUS / OVF_CTRL layout: GP counter x at bit x, fixed counter x at 32+x. */
#define  GLOBAL_FIXED_SHIFT		32
#define  GLOBAL_STATUS_TRACE_TOPAPMI	BIT_ULL(55)
#define  GLOBAL_STATUS_LBRS_FROZEN	BIT_ULL(58)	/* version 4+ */
#define  GLOBAL_STATUS_COUNTERS_FROZEN	BIT_ULL(59)	/* version 4+ */
#define  GLOBAL_STATUS_ASCI		BIT_ULL(60)
#define  GLOBAL_STATUS_UNCORE_OVF	BIT_ULL(61)
#define  GLOBAL_STATUS_BUFFER_OVF	BIT_ULL(62)	/* DS buffer (PEBS/BTS) */
#define  GLOBAL_STATUS_COND_CHGD	BIT_ULL(63)
#define MSR_IA32_PMC0_FULL		0x000004c1	/* IA32_A_PMCx = 0x4C1 + x: full-width writes
							 * when PERF_CAP_FW_WRITE */

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
