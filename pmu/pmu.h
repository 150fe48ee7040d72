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
#define HYBRID_CORE_TYPE(eax)		(((eax) >> 24) & 0xff)
#define HYBRID_CORE_ATOM		0x20
#define HYBRID_CORE_CORE		0x40

#define PMU_MAX_GP	16
#define PMU_MAX_FIXED	8

enum pmu_uarch {
	UARCH_UNKNOWN = 0,
	UARCH_NEHALEM, UARCH_WESTMERE, UARCH_SANDY_BRIDGE, UARCH_IVY_BRIDGE, UARCH_HASWELL,
	UARCH_BROADWELL, UARCH_SKYLAKE, UARCH_SKYLAKE_X, UARCH_KABY_LAKE, UARCH_CANNON_LAKE,
	UARCH_ICE_LAKE, UARCH_ICE_LAKE_X, UARCH_TIGER_LAKE, UARCH_ROCKET_LAKE, UARCH_ALDER_LAKE,
	UARCH_RAPTOR_LAKE, UARCH_METEOR_LAKE, UARCH_SAPPHIRE_RAPIDS, UARCH_EMERALD_RAPIDS,
	UARCH_GRANITE_RAPIDS, UARCH_BONNELL, UARCH_SALTWELL, UARCH_SILVERMONT, UARCH_AIRMONT,
	UARCH_GOLDMONT, UARCH_GOLDMONT_PLUS, UARCH_TREMONT, UARCH_GRACEMONT, UARCH_SIERRA_FOREST,
	UARCH_KNIGHTS_LANDING, UARCH_KNIGHTS_MILL,
};

struct pmu_caps {
	uint32_t eax, ebx, ecx, edx;	/* raw CPUID.0AH */
	unsigned version;		/* 0: no architectural PMU */
	unsigned num_gp, gp_width;
	unsigned num_fixed, fixed_width;
	uint32_t fixed_mask;		/* bit i: fixed counter i exists (v5: ECX, else EDX[4:0]) */
	unsigned ebx_len;		/* architectural-event bits valid in EBX */
	uint32_t events;		/* bit i: architectural event i available (Table 18-1) */
	bool has_perf_caps;		/* CPUID.1:ECX.PDCM */
	uint64_t perf_caps;		/* IA32_PERF_CAPABILITIES, 0 without PDCM */
	unsigned lbr_format, pebs_format;
	bool pebs_trap, pebs_arch_reg, freeze_while_smm, full_width_write;
	enum pmu_uarch uarch;
	bool hybrid;
	uint8_t core_type;		/* HYBRID_CORE_*; 0 when not hybrid */
};

extern struct pmu_caps pmu;

/* Pure decode of CPUID.0AH; cpu is consulted for max_leaf and vendor. */
void pmu_caps_decode(struct pmu_caps *p, const struct cpu_info *cpu, struct cpuid_regs leaf_a);
/* Pure: IA32_PERF_CAPABILITIES fields into p. */
void pmu_caps_decode_perf_caps(struct pmu_caps *p, uint64_t perf_caps);
/* Pure: microarchitecture of an Intel family/model, and names. */
enum pmu_uarch pmu_uarch_from_model(uint32_t family, uint32_t model);
const char *pmu_uarch_name(enum pmu_uarch u);
const char *pmu_core_type_name(uint8_t core_type);

/* Discovers the running CPU's PMU (pmu/discover.c, through arch/x86/hw.h) into p. */
void pmu_discover(struct pmu_caps *p, const struct cpu_info *cpu);
/* pmu_discover() into the global pmu. */
void pmu_probe(const struct cpu_info *cpu);

/* One line per capability group, through print(); for the run's header. */
void pmu_caps_describe(const struct pmu_caps *p, void (*print)(const char *line));

/*
 * Why counter checks cannot run, or NULL when they can. `force` (option force-pmu)
 * makes them run regardless: they must then fail where there is no PMU.
 */
const char *pmu_unavailable_reason(bool force);

/* Masks of counters in GLOBAL_CTRL/STATUS layout. */
uint64_t pmu_gp_mask(const struct pmu_caps *p);
uint64_t pmu_fixed_mask(const struct pmu_caps *p);	/* bits 32+i */

#endif /* PMU_PMU_H */
