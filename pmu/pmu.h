/* SPDX-License-Identifier: MIT */
/*
 * Core PMU capabilities: CPUID leaf 0AH, IA32_PERF_CAPABILITIES, microarchitecture and
 * hybrid core type, decoded once into one struct that every check reads.
 */
#ifndef PMU_PMU_H
#define PMU_PMU_H

#include <stdbool.h>
#include <stddef.h>
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
/* CPUID.07H.0:EDX[15] hybrid part; CPUID.1AH:EAX[31:24] native core type. */
#define CPUID_7_EDX_HYBRID		(1U << 15)
#define CPUID_LEAF_HYBRID		0x1a
/* Architectural performance-monitoring extended leaf (Meteor Lake and later, where the core
 * types' counters differ): enumerated by CPUID.(07H,1):EAX[8]; sub-leaf 0 EAX is a bitmap
 * of the sub-leaves, sub-leaf 1 gives the GP (EAX) and fixed (EBX) counter bitmaps of the
 * core it runs on (Linux perf/x86/intel ARCH_PERFMON_EXT_LEAF, NUM_COUNTER_LEAF). */
#define CPUID_7_1_EAX_ARCH_PERFMON_EXT	(1U << 8)
#define CPUID_LEAF_ARCH_PERFMON_EXT	0x23
#define  ARCH_PERFMON_EXT_COUNTER_LEAF	1	/* sub-leaf, and its bit in sub-leaf 0 EAX */
#define HYBRID_CORE_TYPE(eax)		(((eax) >> 24) & 0xff)
#define HYBRID_CORE_ATOM		0x20
#define HYBRID_CORE_CORE		0x40
/* Architectural LBR: CPUID.07H.0:EDX[19]; leaf 1CH (SDM Vol. 2A CPUID, Table 3-8 leaf 1CH). */
#define CPUID_7_EDX_ARCH_LBR		(1U << 19)
#define CPUID_LEAF_ARCH_LBR		0x1c
#define ARCH_LBR_EAX_DEPTH_MASK(eax)	((eax) & 0xff)	/* bit n: depth 8 * (n + 1) */
#define ARCH_LBR_EAX_DEEP_C_RESET	(1U << 30)
#define ARCH_LBR_EAX_LIP		(1U << 31)
#define ARCH_LBR_EBX_CPL_FILTER		(1U << 0)
#define ARCH_LBR_EBX_BRANCH_FILTER	(1U << 1)
#define ARCH_LBR_EBX_CALL_STACK		(1U << 2)
#define ARCH_LBR_ECX_MISPRED		(1U << 0)
#define ARCH_LBR_ECX_TIMED		(1U << 1)
#define ARCH_LBR_ECX_BR_TYPE		(1U << 2)

#define PMU_MAX_GP	16
#define PMU_MAX_FIXED	8
/* GP counters addressable as IA32_PMCx = 0xC1 + x and IA32_PERFEVTSELx = 0x186 + x: eight.
 * Beyond them those addresses are other registers or none (0xC9..0xCF: 0xCE is
 * MSR_PLATFORM_INFO; 0x18E..0x195 are no event selects), so counters 8 and up, where
 * CPUID.0AH enumerates them, are left alone until pmuboot addresses them where the SDM
 * puts them. */
#define PMU_LEGACY_MAX_GP	8

enum pmu_uarch {
	UARCH_UNKNOWN = 0,
	UARCH_NEHALEM, UARCH_WESTMERE, UARCH_SANDY_BRIDGE, UARCH_IVY_BRIDGE, UARCH_HASWELL,
	UARCH_BROADWELL, UARCH_SKYLAKE, UARCH_SKYLAKE_X, UARCH_KABY_LAKE, UARCH_CANNON_LAKE,
	UARCH_ICE_LAKE, UARCH_ICE_LAKE_X, UARCH_TIGER_LAKE, UARCH_ROCKET_LAKE, UARCH_ALDER_LAKE,
	UARCH_RAPTOR_LAKE, UARCH_METEOR_LAKE, UARCH_SAPPHIRE_RAPIDS, UARCH_EMERALD_RAPIDS,
	UARCH_GRANITE_RAPIDS, UARCH_BONNELL, UARCH_SALTWELL, UARCH_SILVERMONT, UARCH_AIRMONT,
	UARCH_GOLDMONT, UARCH_GOLDMONT_PLUS, UARCH_TREMONT, UARCH_GRACEMONT, UARCH_SIERRA_FOREST,
	UARCH_KNIGHTS_LANDING, UARCH_KNIGHTS_MILL,
	UARCH_ARROW_LAKE, UARCH_LUNAR_LAKE, UARCH_PANTHER_LAKE, UARCH_GRAND_RIDGE,
	UARCH_CLEARWATER_FOREST,
	UARCH_CORE2,
};

/* The LBR stack of this CPU (pmu/lbr.c): where it is, how deep, how its records read. */
#define LBR_MAX_DEPTH	64
struct lbr_caps {
	bool present;			/* the model has an LBR stack pmuboot knows */
	bool arch;			/* architectural LBR (CPUID.07H.0:EDX[19]) */
	unsigned format;		/* PERF_CAPABILITIES[5:0]; 0x3f with architectural LBR */
	unsigned depth;			/* entries */
	uint32_t from, to, info;	/* first FROM/TO/INFO MSR; info 0: no LBR_INFO MSRs */
	bool has_select;		/* MSR_LBR_SELECT (Nehalem and later, Silvermont and later) */
	bool has_mispred;		/* records say whether the branch was mispredicted */
	bool has_cycles;		/* records carry an elapsed-cycle count */
	/* architectural LBR, CPUID leaf 1CH */
	uint32_t arch_depths;		/* bit n: depth 8 * (n + 1) may be chosen */
	bool arch_cpl_filter, arch_branch_filter, arch_call_stack, arch_lip;
	bool arch_deep_c_reset;		/* EAX[30]: MWAIT deeper than C1 may clear the stack */
};

/* The debug store (pmu/ds.c): BTS and PEBS. */
struct ds_caps {
	bool ds;			/* CPUID.1:EDX.DS[21] */
	bool dtes64;			/* CPUID.1:ECX.DTES64[2]: the 64-bit save-area layout */
	bool has_misc_enable;		/* IA32_MISC_ENABLE was read */
	uint64_t misc_enable;
	bool bts_unavailable;		/* IA32_MISC_ENABLE[11] */
	bool pebs_unavailable;		/* IA32_MISC_ENABLE[12] */
	bool pebs_baseline;		/* PERF_CAPABILITIES[14]: adaptive PEBS */
	bool pebs_timing;		/* PERF_CAPABILITIES[17]: retire latency in the basic group */
};

struct pmu_caps {
	enum cpu_vendor vendor;		/* CPUID.0: leaf 0AH is Intel's architectural PMU */
	uint32_t eax, ebx, ecx, edx;	/* raw CPUID.0AH */
	unsigned version;		/* 0: no architectural PMU */
	unsigned num_gp_cpuid;		/* GP counters CPUID.0AH:EAX[15:8] enumerates */
	unsigned num_gp, gp_width;	/* GP counters pmuboot uses (at most PMU_LEGACY_MAX_GP) */
	unsigned num_fixed, fixed_width;
	uint32_t fixed_mask;		/* bit i: fixed counter i exists (v5: ECX, else EDX[4:0]) */
	unsigned ebx_len;		/* architectural-event bits valid in EBX */
	uint32_t events;		/* bit i: architectural event i available (Table 18-1) */
	bool pdcm;			/* CPUID.1:ECX.PDCM: IA32_PERF_CAPABILITIES exists */
	bool has_perf_caps;		/* ... and was read (after pmuboot owns GS and the IDT) */
	uint64_t perf_caps;		/* IA32_PERF_CAPABILITIES, 0 without PDCM */
	unsigned lbr_format, pebs_format;
	bool pebs_trap, pebs_arch_reg, freeze_while_smm, full_width_write;
	enum pmu_uarch uarch;
	bool hybrid;
	bool leaf23;			/* counters from CPUID leaf 23H (per core type) */
	bool pcore_extra;		/* an Alder/Raptor Lake P-core's PMC6-7 and fixed 3 added */
	uint8_t core_type;		/* HYBRID_CORE_*; 0 when not hybrid */
	bool has_smi_count;		/* MSR_SMI_COUNT exists (by microarchitecture) */
	bool hypervisor;		/* CPUID.1:ECX[31]: a virtual PMU, if any */
	bool tcg;			/* ... QEMU's TCG (signature TCGTCGTCGTCG): its PMU is the
					 * emulated one of tests/qemu/vpmu */
	uint32_t errata;		/* PMU_ERRATUM_*: known errata of this model */
	struct lbr_caps lbr;
	struct ds_caps dsc;
	uint32_t family, model;		/* display family and model (CPUID.1) */
	uint32_t stepping;		/* CPUID.1:EAX[3:0] */
	bool has_ucode_rev;		/* IA32_BIOS_SIGN_ID (8BH) was read (Intel) */
	uint32_t ucode_rev;		/* ... its microcode revision, bits 63:32 */
};

/* Known errata that change what a correct check can expect, by model. */
#define PMU_ERRATUM_FAR_INSNS		(1U << 0)	/* instructions retired count far
							 * transfers (far CALL/JMP, RETF, IRET)
							 * and VM exits twice (SRF7, and the
							 * Atom server parts before it) */
#define PMU_ERRATUM_FAR_BRANCHES	(1U << 1)	/* ... branches retired too */
#define PMU_ERRATUM_PERIOD_32		(1U << 2)	/* a PMI period below 32 misbehaves
							 * (Nehalem; Linux nhm_limit_period) */
#define PMU_ERRATUM_PERIOD_128		(1U << 3)	/* INST_RETIRED PMI periods below 128
							 * misbehave (HSW11, BDM11, BDM55; Linux
							 * bdw_limit_period) */
#define PMU_ERRATUM_LBR_CALL_FILTER	(1U << 4)	/* LBR_SELECT keeps near calls only if
							 * it keeps the jump kinds too (Nehalem,
							 * Westmere; Linux nhm_lbr_sel_map, which
							 * it applies to Silvermont too) */
#define PMU_ERRATUM_PEBS_CORE2		(1U << 5)	/* the PEBS threshold PMI comes one record
							 * late (AJ68) and GLOBAL_STATUS[62] is set
							 * only with DEBUGCTL[12] (AJ69): Core 2 */
#define PMU_ERRATUM_NHM_RESET		(1U << 6)	/* counters added without first running
							 * the three non-counting events
							 * 4300B5H, 4300D2H, 4300B1H can count
							 * wrongly (AAK100, AAP53, BD53; Linux
							 * intel_pmu_nhm_workaround): Nehalem,
							 * Westmere */
#define PMU_ERRATUM_HT_MEM_EXCL		(1U << 7)	/* with hyper-threads, a D0H-D3H MEM_*
							 * event counted on a counter index is
							 * corrupted by the sibling counting one
							 * on the same index (BJ122, BV98,
							 * HSD29; Linux intel_ht_bug makes them
							 * exclusive): Sandy Bridge, Ivy Bridge,
							 * Haswell */
/* Pure: the known errata of an Intel family 6 model (pmu-errata.md; kvm-unit-tests
 * gates its exact counts on the same list). */
uint32_t pmu_model_errata(uint32_t family, uint32_t model);
/* A known erratum's name and effect, for result lines. */
const char *pmu_erratum_note(uint32_t erratum);
/* Pure: the lowest microcode revision with which PEBS works on this Intel family/model/
 * stepping, 0 where no revision is needed: Sandy Bridge 06_2AH 0x28, Sandy Bridge-EP
 * 06_2DH stepping 6 0x618, stepping 7 0x70c, other 2DH steppings never (UINT32_MAX), as
 * Linux's intel_snb_pebs_broken decides (PEBS records corrupted by earlier microcode). */
uint32_t pmu_pebs_min_microcode(uint32_t family, uint32_t model, uint32_t stepping);
/* The shortest PMI period the model's known errata allow (1 if none). */
uint64_t pmu_min_pmi_period(uint32_t errata);

extern struct pmu_caps pmu;

/* Pure decode of CPUID.0AH; cpu is consulted for max_leaf and vendor. */
void pmu_caps_decode(struct pmu_caps *p, const struct cpu_info *cpu, struct cpuid_regs leaf_a);
/* Pure: CPUID.23H.1 counter bitmaps (this core type's) replace what leaf 0AH gave: GP
 * counters 0.. up to the first gap (pmuboot addresses them by index), fixed ones by bitmap. */
void pmu_caps_apply_counter_leaf(struct pmu_caps *p, uint32_t gp_bitmap, uint32_t fixed_bitmap);
/* Pure: an Alder or Raptor Lake P-core without leaf 23H gets the counters CPUID.0AH leaves
 * out (IA32_PMC6-7, fixed counter 3); anything else is left alone. */
void pmu_caps_apply_hybrid_core(struct pmu_caps *p);
/* Pure: IA32_PERF_CAPABILITIES fields into p. */
void pmu_caps_decode_perf_caps(struct pmu_caps *p, uint64_t perf_caps);
/* Pure: microarchitecture of an Intel family/model, and names. */
enum pmu_uarch pmu_uarch_from_model(uint32_t family, uint32_t model);
const char *pmu_uarch_name(enum pmu_uarch u);
const char *pmu_core_type_name(uint8_t core_type);

/* Pure: whether MSR_SMI_COUNT (34H) exists on u (SDM Vol. 4: Nehalem and later big cores,
 * Silvermont and later Atom cores, Knights Landing/Mill). */
bool pmu_uarch_has_smi_count(enum pmu_uarch u);

/*
 * Discovery of the running CPU's PMU (pmu/discover.c, through arch/x86/hw.h), in two steps:
 * pmu_discover_cpuid() uses CPUID only and may run at any time (efi_main needs the counter
 * counts to validate tests= globs); pmu_discover_msrs() reads IA32_PERF_CAPABILITIES through
 * the fault-safe accessors, which work only once pmuboot's GS base and IDT are in place.
 */
void pmu_discover_cpuid(struct pmu_caps *p, const struct cpu_info *cpu);
void pmu_discover_msrs(struct pmu_caps *p);
/* Both steps, into p. */
void pmu_discover(struct pmu_caps *p, const struct cpu_info *cpu);
/* The two steps into the global pmu. */
void pmu_probe_cpuid(const struct cpu_info *cpu);
void pmu_probe_msrs(void);

/* One line per capability group, through print(); for the run's header. */
void pmu_caps_describe(const struct pmu_caps *p, void (*print)(const char *line));

/*
 * Why counter checks cannot run, or NULL when they can. `force` (option force-pmu)
 * makes them run regardless: they must then fail where there is no PMU. An AMD or Hygon
 * CPU is named as such (its PMU is not architectural perfmon, and pmuboot does not yet
 * program it), rather than reported as having no PMU.
 */
const char *pmu_caps_unavailable_reason(const struct pmu_caps *p, bool force);
/* The same for the global pmu. */
const char *pmu_unavailable_reason(bool force);

/* Masks of counters in GLOBAL_CTRL/STATUS layout. */
uint64_t pmu_gp_mask(const struct pmu_caps *p);
uint64_t pmu_fixed_mask(const struct pmu_caps *p);	/* bits 32+i */

/* Writes the message into err (when there is room) and returns -1 (PMU_EARG, counter.h):
 * how the library refuses a request. */
int pmu_error(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif /* PMU_PMU_H */
