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
#define MSR_IA32_UCODE_REV		0x0000008b	/* IA32_BIOS_SIGN_ID: the microcode
							 * revision in bits 63:32 once WRMSR 0 and
							 * CPUID(1) have loaded it (SDM Vol. 3A
							 * 9.11.7.1) */
#define  MSR_IA32_UCODE_REV_SHIFT	32
#define MSR_IA32_FEATURE_CONTROL	0x0000003a
#define MSR_PLATFORM_INFO		0x000000ce
#define MSR_IA32_MISC_ENABLE		0x000001a0
#define  MSR_IA32_MISC_ENABLE_PERF_AVAIL	BIT_ULL(7)	/* performance monitoring available */
#define  MSR_IA32_MISC_ENABLE_BTS_UNAVAIL	BIT_ULL(11)	/* read-only: no branch trace store */
#define  MSR_IA32_MISC_ENABLE_PEBS_UNAVAIL	BIT_ULL(12)	/* read-only: no PEBS */
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
#define  ARCH_PERFMON_EVENTSEL_ADAPTIVE	BIT_ULL(34)	/* PEBS baseline only: adaptive record */
#define MSR_IA32_PERF_CAPABILITIES	0x00000345	/* present when CPUID.1:ECX.PDCM */
#define  PERF_CAP_LBR_FMT		GENMASK_ULL(5, 0)
#define  PERF_CAP_PEBS_TRAP		BIT_ULL(6)
#define  PERF_CAP_PEBS_ARCH_REG		BIT_ULL(7)
#define  PERF_CAP_PEBS_FORMAT		GENMASK_ULL(11, 8)
#define  PERF_CAP_FREEZE_WHILE_SMM	BIT_ULL(12)
#define  PERF_CAP_FW_WRITE		BIT_ULL(13)	/* full-width writes via IA32_A_PMCx */
#define  PERF_CAP_PEBS_BASELINE		BIT_ULL(14)	/* adaptive PEBS, MSR_PEBS_DATA_CFG */
#define  PERF_CAP_PERF_METRICS		BIT_ULL(15)
#define  PERF_CAP_PEBS_OUTPUT_PT	BIT_ULL(16)
#define  PERF_CAP_PEBS_TIMING_INFO	BIT_ULL(17)	/* adaptive basic group carries a retire
							 * latency in bits 47:32 */
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
#define  FIXED_CTR_CTRL_ADAPTIVE_SHIFT	32		/* PEBS baseline: bit 32 + 4x adaptive
							 * record for fixed counter x */
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

/*
 * --- Debug store: BTS and PEBS (SDM Vol. 3B 17.4.9 "BTS and DS Save Area", 18.6.2.4,
 * 18.8.1 (Nehalem), 18.9.4 (Sandy Bridge), 18.13.1 (Skylake), 18.9.2 (adaptive PEBS);
 * seed 000_666bff9af8f20138.txt "Latency Event"; seed 003_96ceb334bbe99654.txt 18.13.1.4).
 * Present where CPUID.1:EDX.DS is set and IA32_MISC_ENABLE does not say unavailable. ---
 */
#define MSR_IA32_PEBS_ENABLE		0x000003f1
#define  PEBS_ENABLE_PMC_SHIFT		0		/* PEBS_EN_PMCx: bit x */
#define  PEBS_ENABLE_LL_SHIFT		32		/* before version 5: LL_EN_PMCx (load
							 * latency) at 32 + x; format 4 with
							 * baseline: PEBS_EN_FIXEDx at 32 + x */
#define  PEBS_ENABLE_FIXED_SHIFT	32
#define  PEBS_ENABLE_PST		BIT_ULL(63)	/* Sandy/Ivy Bridge: precise store on PMC3 */
#define MSR_PEBS_DATA_CFG		0x000003f2	/* adaptive PEBS (PERF_CAP_PEBS_BASELINE) */
#define  PEBS_DATACFG_MEMINFO		BIT_ULL(0)
#define  PEBS_DATACFG_GPRS		BIT_ULL(1)
#define  PEBS_DATACFG_XMMS		BIT_ULL(2)
#define  PEBS_DATACFG_LBRS		BIT_ULL(3)
#define  PEBS_DATACFG_LBR_SHIFT		24		/* bits 31:24: LBR entries - 1 */
#define  PEBS_DATACFG_LBR_ENTRIES	GENMASK_ULL(31, 24)
/* Off-core response: the request/response mask of OFFCORE_RESPONSE_0/1 (Nehalem B7H/01H;
 * Westmere to Ice Lake BBH/01H for the second; Atom cores B7H/02H; Golden Cove 2AH/2BH; SDM
 * Vol. 3B 18.8.5, Linux intel_*_extra_regs). */
#define MSR_OFFCORE_RSP_0		0x000001a6
#define MSR_OFFCORE_RSP_1		0x000001a7
#define MSR_PEBS_LD_LAT_THRESHOLD	0x000003f6	/* bits 15:0: minimum load latency */
#define  PEBS_LD_LAT_THRESHOLD_MASK	GENMASK_ULL(15, 0)
#define MSR_PEBS_FRONTEND		0x000003f7	/* Skylake+: FRONTEND_RETIRED sub-event */
#define  PEBS_FRONTEND_EVTSEL		GENMASK_ULL(7, 0)	/* seed 003 Table 18-58 */
#define  PEBS_FRONTEND_IDQ_BUBBLE_LEN	GENMASK_ULL(19, 8)	/* IDQ_READ_BUBBLES latency */
#define  PEBS_FRONTEND_IDQ_BUBBLE_LEN_SHIFT 8
#define  PEBS_FRONTEND_IDQ_BUBBLE_WIDTH	GENMASK_ULL(22, 20)	/* ... and threshold */
#define  PEBS_FRONTEND_IDQ_BUBBLE_WIDTH_SHIFT 20
#define MSR_IA32_DS_AREA		0x00000600	/* linear address of the DS save area */
/* GLOBAL_STATUS / OVF_CTRL bit 62 (GLOBAL_STATUS_BUFFER_OVF above): a DS buffer reached its
 * interrupt threshold. */

/*
 * --- Last branch records, model-specific stack (SDM Vol. 3B 17.4.8, 17.6-17.15; Vol. 4;
 * seed 000_666bff9af8f20138.txt Table 7 for LBR_SELECT). The stack's depth and addresses
 * come from the model (pmu/lbr.c), its record layout from PERF_CAPABILITIES[5:0]. ---
 */
#define MSR_LBR_SELECT			0x000001c8	/* Nehalem..: a set bit drops that kind */
#define  LBR_SELECT_CPL_EQ_0		BIT_ULL(0)	/* branches ending at CPL 0 */
#define  LBR_SELECT_CPL_NEQ_0		BIT_ULL(1)	/* branches ending at CPL > 0 */
#define  LBR_SELECT_JCC			BIT_ULL(2)	/* taken conditional branches */
#define  LBR_SELECT_NEAR_REL_CALL	BIT_ULL(3)
#define  LBR_SELECT_NEAR_IND_CALL	BIT_ULL(4)
#define  LBR_SELECT_NEAR_RET		BIT_ULL(5)
#define  LBR_SELECT_NEAR_IND_JMP	BIT_ULL(6)
#define  LBR_SELECT_NEAR_REL_JMP	BIT_ULL(7)
#define  LBR_SELECT_FAR_BRANCH		BIT_ULL(8)
#define  LBR_SELECT_EN_CALLSTACK	BIT_ULL(9)	/* Haswell.. */
#define MSR_LASTBRANCH_TOS		0x000001c9	/* index of the newest entry */
#define MSR_LBR_CORE_FROM		0x00000040	/* Core 2, Atom: FROM x = 0x40 + x */
#define MSR_LBR_CORE_TO			0x00000060	/*                TO x = 0x60 + x */
#define MSR_LBR_NHM_FROM		0x00000680	/* Nehalem..: FROM x = 0x680 + x */
#define MSR_LBR_NHM_TO			0x000006c0	/*            TO x = 0x6C0 + x */
#define MSR_LBR_INFO_0			0x00000dc0	/* Skylake.. (format 5): INFO x = 0xDC0 + x */
/* FROM flags by format (PERF_CAPABILITIES[5:0]): 3 and up, bit 63 mispredicted; 4, also 62
 * in a transaction and 61 abort. LBR_INFO (format 5 and architectural LBR): */
#define  LBR_FROM_FLAG_MISPRED		BIT_ULL(63)
#define  LBR_FROM_FLAG_IN_TX		BIT_ULL(62)
#define  LBR_FROM_FLAG_ABORT		BIT_ULL(61)
#define  LBR_INFO_MISPRED		BIT_ULL(63)
#define  LBR_INFO_IN_TX			BIT_ULL(62)
#define  LBR_INFO_ABORT			BIT_ULL(61)
#define  LBR_INFO_CYC_CNT_VALID		BIT_ULL(60)	/* architectural LBR */
#define  LBR_INFO_BR_TYPE		GENMASK_ULL(59, 56)	/* architectural LBR */
#define  LBR_INFO_CYCLES		GENMASK_ULL(15, 0)

/* --- Architectural LBR (CPUID.07H.0:EDX[19]; leaf 1CH; SDM Vol. 3B 17.1 / ch. 18 "Last
 * Branch Records") --- */
#define MSR_ARCH_LBR_CTL		0x000014ce
#define  ARCH_LBR_CTL_LBREN		BIT_ULL(0)
#define  ARCH_LBR_CTL_OS		BIT_ULL(1)
#define  ARCH_LBR_CTL_USR		BIT_ULL(2)
#define  ARCH_LBR_CTL_CALL_STACK	BIT_ULL(3)
#define  ARCH_LBR_CTL_JCC		BIT_ULL(16)	/* a set bit keeps that kind */
#define  ARCH_LBR_CTL_NEAR_REL_JMP	BIT_ULL(17)
#define  ARCH_LBR_CTL_NEAR_IND_JMP	BIT_ULL(18)
#define  ARCH_LBR_CTL_NEAR_REL_CALL	BIT_ULL(19)
#define  ARCH_LBR_CTL_NEAR_IND_CALL	BIT_ULL(20)
#define  ARCH_LBR_CTL_NEAR_RET		BIT_ULL(21)
#define  ARCH_LBR_CTL_OTHER_BRANCH	BIT_ULL(22)
#define MSR_ARCH_LBR_DEPTH		0x000014cf
#define MSR_ARCH_LBR_FROM_0		0x00001500	/* entry 0 is the newest */
#define MSR_ARCH_LBR_TO_0		0x00001600
#define MSR_ARCH_LBR_INFO_0		0x00001200

/*
 * --- Uncore PMU, Nehalem (06_1AH, 06_1EH): seed 000_666bff9af8f20138.txt "Uncore Performance
 * Events"; SDM Vol. 3B 18.8.2 (Figures: MSR_UNCORE_PERF_GLOBAL_CTRL/STATUS/OVF_CTRL,
 * MSR_UNCORE_PERFEVTSELx, MSR_UNCORE_FIXED_CTR_CTRL). Package scope; counters 48 bits. ---
 */
#define MSR_UNCORE_PERF_GLOBAL_CTRL	0x00000391
#define  UNCORE_GLOBAL_CTRL_EN_PC	GENMASK_ULL(7, 0)	/* EN_PCx: bit x */
#define  UNCORE_GLOBAL_CTRL_EN_FC0	BIT_ULL(32)
#define  UNCORE_GLOBAL_CTRL_EN_PMI_CORE	GENMASK_ULL(51, 48)	/* EN_PMI_COREx: bit 48 + x */
#define  UNCORE_GLOBAL_CTRL_EN_PMI_CORE_SHIFT 48
#define  UNCORE_GLOBAL_CTRL_PMI_FRZ	BIT_ULL(63)
#define MSR_UNCORE_PERF_GLOBAL_STATUS	0x00000392	/* read-only */
#define  UNCORE_GLOBAL_STATUS_OVF_PC	GENMASK_ULL(7, 0)
#define  UNCORE_GLOBAL_STATUS_OVF_FC0	BIT_ULL(32)
#define  UNCORE_GLOBAL_STATUS_OVF_PMI	BIT_ULL(61)
#define  UNCORE_GLOBAL_STATUS_CHG	BIT_ULL(63)
#define MSR_UNCORE_PERF_GLOBAL_OVF_CTRL	0x00000393	/* write 1 to clear STATUS bits */
#define MSR_UNCORE_FIXED_CTR0		0x00000394
#define MSR_UNCORE_FIXED_CTR_CTRL	0x00000395
#define  UNCORE_FIXED_CTR_CTRL_EN	BIT_ULL(0)
#define  UNCORE_FIXED_CTR_CTRL_PMI	BIT_ULL(2)
#define MSR_UNCORE_ADDR_OPCODE_MATCH	0x00000396	/* UNC_ADDR_OPCODE_MATCH (seed 000
							 * Table 38) */
#define MSR_GQ_SNOOP_MESF		0x00000301	/* UNC_GQ_SNOOP.GOTO_x_HIT_y: bit per
							 * MESF transition (seed 000 Table 28;
							 * SDM Vol. 4 Table 2-16) */
#define MSR_UNCORE_PMC0			0x000003b0	/* MSR_UNCORE_PMCx = 0x3B0 + x, x < 8 */
#define MSR_UNCORE_PERFEVTSEL0		0x000003c0	/* MSR_UNCORE_PERFEVTSELx = 0x3C0 + x */
#define  UNCORE_EVTSEL_EVENT		GENMASK_ULL(7, 0)
#define  UNCORE_EVTSEL_UMASK		GENMASK_ULL(15, 8)
#define  UNCORE_EVTSEL_OCC_CTR_RST	BIT_ULL(17)	/* clears the queue occupancy counter;
							 * reads 0 */
#define  UNCORE_EVTSEL_EDGE		BIT_ULL(18)
#define  UNCORE_EVTSEL_PMI		BIT_ULL(20)
#define  UNCORE_EVTSEL_EN		BIT_ULL(22)
#define  UNCORE_EVTSEL_INV		BIT_ULL(23)
#define  UNCORE_EVTSEL_CMASK		GENMASK_ULL(31, 24)

/*
 * --- Uncore PMU, 6th generation Core (Skylake client and its successors Kaby, Coffee and
 * Comet Lake): seed 001_dad58ad4a296bcf3.txt Table 2-1 and 2.2-2.4; SDM Vol. 4 (the same
 * layout under Haswell's 391H/392H, moved to E01H/E02H, seed 001 Table 1-1). ---
 */
#define MSR_UNC_PERF_GLOBAL_CTRL	0x00000e01	/* seed 001 Table 2-2 */
#define  UNC_GLOBAL_CTRL_PMI_SEL_CORE	GENMASK_ULL(3, 0)	/* PMI_SEL_COREx: bit x */
#define  UNC_GLOBAL_CTRL_EN		BIT_ULL(29)
#define  UNC_GLOBAL_CTRL_WAKE_ON_PMI	BIT_ULL(30)
#define  UNC_GLOBAL_CTRL_FRZ_ON_PMI	BIT_ULL(31)
#define MSR_UNC_PERF_GLOBAL_STATUS	0x00000e02	/* seed 001 Table 2-3: RW1C */
#define  UNC_GLOBAL_STATUS_FIXED_OVF	BIT_ULL(0)
#define  UNC_GLOBAL_STATUS_ARB_OVF	BIT_ULL(1)
#define  UNC_GLOBAL_STATUS_CBO_OVF	BIT_ULL(3)	/* the seed's table prints "31" for this
							 * row under "Reserved 63:4"; SDM Vol. 4
							 * (MSR_UNC_PERF_GLOBAL_STATUS) gives 3 */
#define MSR_UNC_PERF_FIXED_CTRL		0x00000394	/* seed 001 Table 2-4 */
#define  UNC_FIXED_CTRL_OVF_EN		BIT_ULL(20)
#define  UNC_FIXED_CTRL_CNT_EN		BIT_ULL(22)
#define MSR_UNC_PERF_FIXED_CTR		0x00000395	/* UNC_CLOCK.SOCKET, 48 bits (Table 2-5) */
#define MSR_UNC_CBO_CONFIG		0x00000396	/* read-only (Table 2-6) */
#define  UNC_CBO_CONFIG_NO_CBO_BANKS	GENMASK_ULL(3, 0)	/* CBos = this - 1 (2.4.1) */
#define MSR_UNC_ARB_PERFCTR0		0x000003b0	/* ARB counter x = 0x3B0 + x, x < 2 */
#define MSR_UNC_ARB_PERFEVTSEL0		0x000003b2	/* ARB select x = 0x3B2 + x */
#define MSR_UNC_CBO_0_PERFEVTSEL0	0x00000700	/* CBo n select x = 0x700 + 0x10 n + x */
#define MSR_UNC_CBO_0_PERFCTR0		0x00000706	/* CBo n counter x = 0x706 + 0x10 n + x */
#define  UNC_CBO_MSR_STRIDE		0x10
#define MSR_CFL_UNC_CBO_7_PERFEVTSEL0	0x00000f70	/* the 8th CBo (Coffee Lake): Linux
							 * uncore_snb.c; 0x770 is IA32_PM_ENABLE */
#define MSR_CFL_UNC_CBO_7_PER_CTR0	0x00000f76
/* CBo and ARB event selects (Table 2-7); counters are 44 bits (Table 2-8). */
#define  UNC_EVTSEL_EVT_SEL		GENMASK_ULL(7, 0)
#define  UNC_EVTSEL_UMASK		GENMASK_ULL(15, 8)
#define  UNC_EVTSEL_E			BIT_ULL(18)	/* edge */
#define  UNC_EVTSEL_OVF_EN		BIT_ULL(20)
#define  UNC_EVTSEL_EN			BIT_ULL(22)
#define  UNC_EVTSEL_INV			BIT_ULL(23)
#define  UNC_EVTSEL_THR			GENMASK_ULL(28, 24)

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
