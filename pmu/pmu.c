/* SPDX-License-Identifier: MIT */
/* Core PMU capability decode (pure): CPUID.0AH, PERF_CAPABILITIES, microarchitecture. */
#include "pmu/pmu.h"
#include "arch/x86/msr.h"
#include "lib/fmt.h"
#include "lib/string.h"

struct pmu_caps pmu;

void pmu_caps_decode(struct pmu_caps *p, const struct cpu_info *cpu, struct cpuid_regs r)
{
	memset(p, 0, sizeof(*p));
	p->vendor = cpu->vendor;
	p->pdcm = cpu->pdcm;
	p->family = cpu->family;
	p->model = cpu->model;
	p->stepping = cpu->stepping;
	p->dsc.ds = cpu->leaf1_edx & CPUID_1_EDX_DS;
	p->dsc.dtes64 = cpu->leaf1_ecx & CPUID_1_ECX_DTES64;
	if (cpu->max_leaf < CPUID_LEAF_PMU)
		return;
	p->eax = r.eax;
	p->ebx = r.ebx;
	p->ecx = r.ecx;
	p->edx = r.edx;
	p->version = PMU_EAX_VERSION(r.eax);
	if (p->version == 0)
		return;
	p->num_gp_cpuid = PMU_EAX_NUM_GP(r.eax);
	p->num_gp = p->num_gp_cpuid < PMU_LEGACY_MAX_GP ? p->num_gp_cpuid : PMU_LEGACY_MAX_GP;
	p->gp_width = PMU_EAX_GP_WIDTH(r.eax);
	p->ebx_len = PMU_EAX_EBX_LEN(r.eax);
	/* EBX bit i set = architectural event i NOT available, for i < EBX length. */
	for (unsigned i = 0; i < p->ebx_len && i < 32; i++)
		if (!(r.ebx & (1U << i)))
			p->events |= 1U << i;
	/* Fixed counters are enumerated in EDX from version 2 on (SDM Vol. 3B 18.2.2); on
	 * version 5 ECX is a bitmap of fixed counters, any one of which may exist beyond
	 * EDX[4:0] (SDM 18.2.5). */
	if (p->version >= 2) {
		p->num_fixed = PMU_EDX_NUM_FIXED(r.edx);
		p->fixed_width = PMU_EDX_FIXED_WIDTH(r.edx);
		for (unsigned i = 0; i < p->num_fixed && i < 32; i++)
			p->fixed_mask |= 1U << i;
		if (p->version >= 5)
			p->fixed_mask |= r.ecx;
		p->fixed_mask &= (1U << PMU_MAX_FIXED) - 1;
		/* Counters run from 0 to the highest one present. */
		while (p->num_fixed < PMU_MAX_FIXED && (p->fixed_mask >> p->num_fixed))
			p->num_fixed++;
	}
	if (p->num_fixed > PMU_MAX_FIXED)
		p->num_fixed = PMU_MAX_FIXED;
}

void pmu_caps_apply_counter_leaf(struct pmu_caps *p, uint32_t gp, uint32_t fixed)
{
	unsigned n = 0;

	if (p->version == 0)
		return;
	p->leaf23 = true;
	p->num_gp_cpuid = gp ? 32 - (unsigned)__builtin_clz(gp) : 0;
	while (n < 32 && (gp & (1U << n)))
		n++;
	p->num_gp = n < PMU_LEGACY_MAX_GP ? n : PMU_LEGACY_MAX_GP;
	p->fixed_mask = fixed & ((1U << PMU_MAX_FIXED) - 1);
	p->num_fixed = 0;
	while (p->num_fixed < PMU_MAX_FIXED && (p->fixed_mask >> p->num_fixed))
		p->num_fixed++;
}

/*
 * Hybrid Alder Lake and Raptor Lake: CPUID.0AH gives what both core types have (6 GP, fixed
 * 0-2); a P-core also has IA32_PMC6-7 and fixed counter 3 (TOPDOWN.SLOTS), which Linux adds
 * for its cpu_core PMU (intel_pmu_init: num_counters + 2, num_counters_fixed + 1). Meteor
 * Lake and later enumerate each core type in leaf 23H instead.
 */
void pmu_caps_apply_hybrid_core(struct pmu_caps *p)
{
	if (p->leaf23 || !p->hybrid || p->core_type != HYBRID_CORE_CORE || p->version < 2 ||
	    (p->uarch != UARCH_ALDER_LAKE && p->uarch != UARCH_RAPTOR_LAKE) || p->num_gp != 6 ||
	    p->num_gp_cpuid != 6)
		return;
	p->num_gp = p->num_gp_cpuid = 8;
	p->fixed_mask |= 1U << 3;
	p->num_fixed = 4;
	p->pcore_extra = true;
}

void pmu_caps_decode_perf_caps(struct pmu_caps *p, uint64_t v)
{
	p->perf_caps = v;
	p->lbr_format = (unsigned)(v & PERF_CAP_LBR_FMT);
	p->pebs_trap = v & PERF_CAP_PEBS_TRAP;
	p->pebs_arch_reg = v & PERF_CAP_PEBS_ARCH_REG;
	p->pebs_format = (unsigned)((v & PERF_CAP_PEBS_FORMAT) >> 8);
	p->freeze_while_smm = v & PERF_CAP_FREEZE_WHILE_SMM;
	p->full_width_write = v & PERF_CAP_FW_WRITE;
	p->dsc.pebs_baseline = v & PERF_CAP_PEBS_BASELINE;
	p->dsc.pebs_timing = v & PERF_CAP_PEBS_TIMING_INFO;
}

/* Intel family 6 models (SDM Vol. 4 Table 2-1 and the processor identification tables). */
static const struct {
	uint8_t model;
	enum pmu_uarch uarch;
} models[] = {
	{ 0x1a, UARCH_NEHALEM }, { 0x1e, UARCH_NEHALEM }, { 0x1f, UARCH_NEHALEM },
	{ 0x2e, UARCH_NEHALEM },
	{ 0x25, UARCH_WESTMERE }, { 0x2c, UARCH_WESTMERE }, { 0x2f, UARCH_WESTMERE },
	{ 0x2a, UARCH_SANDY_BRIDGE }, { 0x2d, UARCH_SANDY_BRIDGE },
	{ 0x3a, UARCH_IVY_BRIDGE }, { 0x3e, UARCH_IVY_BRIDGE },
	{ 0x3c, UARCH_HASWELL }, { 0x3f, UARCH_HASWELL }, { 0x45, UARCH_HASWELL },
	{ 0x46, UARCH_HASWELL },
	{ 0x3d, UARCH_BROADWELL }, { 0x47, UARCH_BROADWELL }, { 0x4f, UARCH_BROADWELL },
	{ 0x56, UARCH_BROADWELL },
	{ 0x4e, UARCH_SKYLAKE }, { 0x5e, UARCH_SKYLAKE }, { 0x55, UARCH_SKYLAKE_X },
	{ 0x8e, UARCH_KABY_LAKE }, { 0x9e, UARCH_KABY_LAKE }, { 0xa5, UARCH_KABY_LAKE },
	{ 0xa6, UARCH_KABY_LAKE },
	{ 0x66, UARCH_CANNON_LAKE },
	{ 0x7d, UARCH_ICE_LAKE }, { 0x7e, UARCH_ICE_LAKE }, { 0x6a, UARCH_ICE_LAKE_X },
	{ 0x6c, UARCH_ICE_LAKE_X },
	{ 0x8c, UARCH_TIGER_LAKE }, { 0x8d, UARCH_TIGER_LAKE }, { 0xa7, UARCH_ROCKET_LAKE },
	{ 0x97, UARCH_ALDER_LAKE }, { 0x9a, UARCH_ALDER_LAKE },
	{ 0xb7, UARCH_RAPTOR_LAKE }, { 0xba, UARCH_RAPTOR_LAKE }, { 0xbf, UARCH_RAPTOR_LAKE },
	{ 0xaa, UARCH_METEOR_LAKE }, { 0xac, UARCH_METEOR_LAKE },
	{ 0x8f, UARCH_SAPPHIRE_RAPIDS }, { 0xcf, UARCH_EMERALD_RAPIDS },
	{ 0xad, UARCH_GRANITE_RAPIDS }, { 0xae, UARCH_GRANITE_RAPIDS },
	{ 0x1c, UARCH_BONNELL }, { 0x26, UARCH_BONNELL }, { 0x27, UARCH_SALTWELL },
	{ 0x35, UARCH_SALTWELL }, { 0x36, UARCH_SALTWELL },
	{ 0x37, UARCH_SILVERMONT }, { 0x4a, UARCH_SILVERMONT }, { 0x4d, UARCH_SILVERMONT },
	{ 0x5a, UARCH_SILVERMONT }, { 0x5d, UARCH_SILVERMONT }, { 0x4c, UARCH_AIRMONT },
	{ 0x5c, UARCH_GOLDMONT }, { 0x5f, UARCH_GOLDMONT }, { 0x7a, UARCH_GOLDMONT_PLUS },
	{ 0x86, UARCH_TREMONT }, { 0x96, UARCH_TREMONT }, { 0x9c, UARCH_TREMONT },
	{ 0xbe, UARCH_GRACEMONT }, { 0xaf, UARCH_SIERRA_FOREST },
	{ 0x57, UARCH_KNIGHTS_LANDING }, { 0x85, UARCH_KNIGHTS_MILL },
	{ 0xc5, UARCH_ARROW_LAKE }, { 0xc6, UARCH_ARROW_LAKE }, { 0xbd, UARCH_LUNAR_LAKE },
	{ 0xcc, UARCH_PANTHER_LAKE }, { 0xb6, UARCH_GRAND_RIDGE }, { 0xdd, UARCH_CLEARWATER_FOREST },
	{ 0x0f, UARCH_CORE2 }, { 0x16, UARCH_CORE2 }, { 0x17, UARCH_CORE2 }, { 0x1d, UARCH_CORE2 },
};

uint32_t pmu_model_errata(uint32_t family, uint32_t model)
{
	if (family != 6)
		return 0;
	switch (model) {
	case 0x4d:	/* Avoton/Rangeley (Silvermont) */
		return PMU_ERRATUM_FAR_INSNS | PMU_ERRATUM_FAR_BRANCHES | PMU_ERRATUM_LBR_CALL_FILTER;
	case 0x5f:	/* Denverton */
	case 0x86:	/* Jacobsville */
	case 0xaf:	/* Sierra Forest */
		return PMU_ERRATUM_FAR_INSNS | PMU_ERRATUM_FAR_BRANCHES;
	case 0xdd:	/* Clearwater Forest: instructions only */
		return PMU_ERRATUM_FAR_INSNS;
	case 0x1a: case 0x1e: case 0x1f: case 0x2e:	/* Nehalem */
		return PMU_ERRATUM_PERIOD_32 | PMU_ERRATUM_LBR_CALL_FILTER | PMU_ERRATUM_NHM_RESET;
	case 0x25: case 0x2c: case 0x2f:		/* Westmere */
		return PMU_ERRATUM_LBR_CALL_FILTER | PMU_ERRATUM_NHM_RESET;
	case 0x37: case 0x4a: case 0x5a: case 0x5d:	/* Silvermont */
	case 0x4c:					/* Airmont */
		return PMU_ERRATUM_LBR_CALL_FILTER;
	case 0x0f: case 0x16: case 0x17: case 0x1d:	/* Core 2 */
		return PMU_ERRATUM_PEBS_CORE2;
	case 0x2a: case 0x2d:				/* Sandy Bridge */
	case 0x3a: case 0x3e:				/* Ivy Bridge */
		return PMU_ERRATUM_HT_MEM_EXCL;
	case 0x3c: case 0x3f: case 0x45: case 0x46:	/* Haswell */
		return PMU_ERRATUM_PERIOD_128 | PMU_ERRATUM_HT_MEM_EXCL;
	case 0x3d: case 0x47: case 0x4f: case 0x56:	/* Broadwell */
		return PMU_ERRATUM_PERIOD_128;
	default:
		return 0;
	}
}

const char *pmu_erratum_note(uint32_t erratum)
{
	if (erratum & (PMU_ERRATUM_FAR_INSNS | PMU_ERRATUM_FAR_BRANCHES))
		return "known erratum SRF7 of this model: instructions (and branches) retired count "
		       "far transfers and VM exits twice";
	if (erratum & PMU_ERRATUM_PERIOD_32)
		return "known Nehalem erratum: PMI periods below 32 storm (Linux nhm_limit_period)";
	if (erratum & PMU_ERRATUM_LBR_CALL_FILTER)
		return "known Nehalem/Westmere erratum: LBR_SELECT drops near calls unless the jump "
		       "kinds are recorded too (Linux nhm_lbr_sel_map, also used for Silvermont)";
	if (erratum & PMU_ERRATUM_PEBS_CORE2)
		return "known Core 2 errata AJ68 (the PEBS threshold PMI one record late) and AJ69 "
		       "(GLOBAL_STATUS[62] only with DEBUGCTL[12])";
	if (erratum & PMU_ERRATUM_PERIOD_128)
		return "known errata HSW11/BDM11/BDM55: INST_RETIRED PMI periods below 128 "
		       "misbehave (Linux bdw_limit_period)";
	if (erratum & PMU_ERRATUM_HT_MEM_EXCL)
		return "known errata BJ122/BV98/HSD29: with hyper-threads the sibling's D0H-D3H "
		       "MEM event on the same counter index corrupts the count (Linux intel_ht_bug "
		       "makes them exclusive)";
	return "known erratum";
}

uint32_t pmu_pebs_min_microcode(uint32_t family, uint32_t model, uint32_t stepping)
{
	if (family != 6)
		return 0;
	if (model == 0x2a)
		return 0x28;
	if (model == 0x2d)
		return stepping == 6 ? 0x618 : stepping == 7 ? 0x70c : UINT32_MAX;
	return 0;
}

uint64_t pmu_min_pmi_period(uint32_t errata)
{
	if (errata & PMU_ERRATUM_PERIOD_128)
		return 128;
	if (errata & PMU_ERRATUM_PERIOD_32)
		return 32;
	return 1;
}

bool pmu_uarch_has_smi_count(enum pmu_uarch u)
{
	switch (u) {
	case UARCH_UNKNOWN: case UARCH_BONNELL: case UARCH_SALTWELL: case UARCH_CORE2:
		return false;
	default:
		return true;
	}
}

enum pmu_uarch pmu_uarch_from_model(uint32_t family, uint32_t model)
{
	if (family != 6)
		return UARCH_UNKNOWN;
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (models[i].model == model)
			return models[i].uarch;
	return UARCH_UNKNOWN;
}

const char *pmu_uarch_name(enum pmu_uarch u)
{
	static const char *const names[] = {
		[UARCH_UNKNOWN] = "unknown", [UARCH_NEHALEM] = "Nehalem",
		[UARCH_WESTMERE] = "Westmere", [UARCH_SANDY_BRIDGE] = "Sandy Bridge",
		[UARCH_IVY_BRIDGE] = "Ivy Bridge", [UARCH_HASWELL] = "Haswell",
		[UARCH_BROADWELL] = "Broadwell", [UARCH_SKYLAKE] = "Skylake",
		[UARCH_SKYLAKE_X] = "Skylake-SP/Cascade Lake/Cooper Lake",
		[UARCH_KABY_LAKE] = "Kaby/Coffee/Comet Lake", [UARCH_CANNON_LAKE] = "Cannon Lake",
		[UARCH_ICE_LAKE] = "Ice Lake", [UARCH_ICE_LAKE_X] = "Ice Lake-SP",
		[UARCH_TIGER_LAKE] = "Tiger Lake", [UARCH_ROCKET_LAKE] = "Rocket Lake",
		[UARCH_ALDER_LAKE] = "Alder Lake", [UARCH_RAPTOR_LAKE] = "Raptor Lake",
		[UARCH_METEOR_LAKE] = "Meteor Lake", [UARCH_SAPPHIRE_RAPIDS] = "Sapphire Rapids",
		[UARCH_EMERALD_RAPIDS] = "Emerald Rapids", [UARCH_GRANITE_RAPIDS] = "Granite Rapids",
		[UARCH_BONNELL] = "Bonnell (Atom)", [UARCH_SALTWELL] = "Saltwell (Atom)",
		[UARCH_SILVERMONT] = "Silvermont (Atom)", [UARCH_AIRMONT] = "Airmont (Atom)",
		[UARCH_GOLDMONT] = "Goldmont (Atom)", [UARCH_GOLDMONT_PLUS] = "Goldmont Plus (Atom)",
		[UARCH_TREMONT] = "Tremont (Atom)", [UARCH_GRACEMONT] = "Gracemont (Atom)",
		[UARCH_SIERRA_FOREST] = "Sierra Forest (Crestmont)",
		[UARCH_KNIGHTS_LANDING] = "Knights Landing", [UARCH_KNIGHTS_MILL] = "Knights Mill",
		[UARCH_ARROW_LAKE] = "Arrow Lake", [UARCH_LUNAR_LAKE] = "Lunar Lake",
		[UARCH_PANTHER_LAKE] = "Panther Lake", [UARCH_GRAND_RIDGE] = "Grand Ridge (Crestmont)",
		[UARCH_CLEARWATER_FOREST] = "Clearwater Forest (Darkmont)",
		[UARCH_CORE2] = "Core 2",
	};

	return (unsigned)u < sizeof(names) / sizeof(names[0]) && names[u] ? names[u] : "unknown";
}

const char *pmu_core_type_name(uint8_t t)
{
	switch (t) {
	case HYBRID_CORE_ATOM: return "Atom (E-core)";
	case HYBRID_CORE_CORE: return "Core (P-core)";
	case 0: return "not hybrid";
	default: return "unknown core type";
	}
}

uint64_t pmu_gp_mask(const struct pmu_caps *p)
{
	return p->num_gp ? (~0ULL >> (64 - p->num_gp)) : 0;
}

uint64_t pmu_fixed_mask(const struct pmu_caps *p)
{
	return (uint64_t)p->fixed_mask << 32;
}

void pmu_caps_describe(const struct pmu_caps *p, void (*print)(const char *line))
{
	char b[200];

	fmt_snprintf(b, sizeof(b), "version %u, %u GP x %u bits, %u fixed x %u bits (mask 0x%x), "
		     "arch events 0x%x of %u (CPUID.0AH EAX=0x%x EBX=0x%x ECX=0x%x EDX=0x%x)",
		     p->version, p->num_gp, p->gp_width, p->num_fixed, p->fixed_width, p->fixed_mask,
		     p->events, p->ebx_len, p->eax, p->ebx, p->ecx, p->edx);
	print(b);
	if (p->pcore_extra) {
		fmt_snprintf(b, sizeof(b), "hybrid P-core: IA32_PMC6-7 and fixed counter 3 used beyond "
			     "what CPUID.0AH enumerates (both core types' counters), as Linux's "
			     "cpu_core PMU does");
		print(b);
	}
	if (p->num_gp_cpuid > p->num_gp) {
		fmt_snprintf(b, sizeof(b), "CPUID.0AH enumerates %u GP counters; pmuboot uses the "
			     "first %u (IA32_PMC%u would be MSR 0x%x, another register)",
			     p->num_gp_cpuid, p->num_gp, p->num_gp, MSR_IA32_PMC0 + p->num_gp);
		print(b);
	}
	if (p->pdcm && !p->has_perf_caps)
		fmt_snprintf(b, sizeof(b), "PERF_CAPABILITIES: CPUID.1:ECX.PDCM set, %s",
			     "not read yet (read once pmuboot owns GS and the IDT) or RDMSR faulted");
	else if (p->has_perf_caps)
		fmt_snprintf(b, sizeof(b), "PERF_CAPABILITIES 0x%llx: LBR format %u, PEBS format %u "
			     "trap %d arch-regs %d, freeze-while-SMM %d, full-width writes %d",
			     (unsigned long long)p->perf_caps, p->lbr_format, p->pebs_format,
			     p->pebs_trap, p->pebs_arch_reg, p->freeze_while_smm, p->full_width_write);
	else
		fmt_snprintf(b, sizeof(b), "PERF_CAPABILITIES: absent (CPUID.1:ECX.PDCM clear)");
	print(b);
	fmt_snprintf(b, sizeof(b), "microarchitecture %s%s%s", pmu_uarch_name(p->uarch),
		     p->hybrid ? ", hybrid, this core: " : "",
		     p->hybrid ? pmu_core_type_name(p->core_type) : "");
	print(b);
	if (p->has_ucode_rev)
		fmt_snprintf(b, sizeof(b), "microcode: revision 0x%x (IA32_BIOS_SIGN_ID), family %u "
			     "model 0x%x stepping %u", p->ucode_rev, p->family, p->model, p->stepping);
	else
		fmt_snprintf(b, sizeof(b), "microcode: revision unknown (IA32_BIOS_SIGN_ID not "
			     "readable), family %u model 0x%x stepping %u", p->family, p->model,
			     p->stepping);
	print(b);
	if (p->version == 0)
		return;
	fmt_snprintf(b, sizeof(b), "debug store: DS %d DTES64 %d; IA32_MISC_ENABLE %s%s%s; "
		     "PEBS baseline %d", p->dsc.ds, p->dsc.dtes64,
		     p->dsc.has_misc_enable ? "read" : "not read",
		     p->dsc.bts_unavailable ? ", BTS unavailable" : "",
		     p->dsc.pebs_unavailable ? ", PEBS unavailable" : "", p->dsc.pebs_baseline);
	print(b);
	if (p->lbr.arch)
		fmt_snprintf(b, sizeof(b), "LBR: architectural, depth %u (depths 0x%x), CPL filter %d, "
			     "branch filter %d, call stack %d, mispredict %d, deep C-state reset %d",
			     p->lbr.depth, p->lbr.arch_depths, p->lbr.arch_cpl_filter,
			     p->lbr.arch_branch_filter, p->lbr.arch_call_stack, p->lbr.has_mispred,
			     p->lbr.arch_deep_c_reset);
	else if (p->lbr.present)
		fmt_snprintf(b, sizeof(b), "LBR: %u entries, FROM 0x%x TO 0x%x INFO 0x%x (0: none), "
			     "format %u%s", p->lbr.depth, p->lbr.from, p->lbr.to, p->lbr.info,
			     p->lbr.format, p->lbr.has_select ? ", LBR_SELECT" : "");
	else
		fmt_snprintf(b, sizeof(b), "LBR: none pmuboot knows for this model and format");
	print(b);
	fmt_snprintf(b, sizeof(b), "SMM: DEBUGCTL.FREEZE_WHILE_SMM %s; MSR_SMI_COUNT %s",
		     p->freeze_while_smm ? "set while checks run" :
		     "not available (PERF_CAPABILITIES[12] clear or unread)",
		     p->has_smi_count ? "read around every run, a repetition that took an SMI is "
		     "discarded" : "not on this model: SMIs go undetected");
	print(b);
}

const char *pmu_caps_unavailable_reason(const struct pmu_caps *p, bool force)
{
	static char why[200];

	if (force)
		return NULL;
	if (p->vendor == VENDOR_AMD || p->vendor == VENDOR_HYGON) {
		fmt_snprintf(why, sizeof(why), "%s PMU: its core counters (PERF_CTL/PERF_CTR, MSRs "
			     "C001_0000H.. and C001_0200H..) are not Intel architectural perfmon, and "
			     "pmuboot does not yet program them",
			     p->vendor == VENDOR_AMD ? "AMD" : "Hygon");
		return why;
	}
	if (p->version == 0) {
		fmt_snprintf(why, sizeof(why), "no architectural PMU: CPUID.0AH:EAX[7:0]=0");
		return why;
	}
	if (p->num_gp == 0) {
		fmt_snprintf(why, sizeof(why), "no general-purpose counters: CPUID.0AH:EAX[15:8]=0");
		return why;
	}
	return NULL;
}

const char *pmu_unavailable_reason(bool force)
{
	return pmu_caps_unavailable_reason(&pmu, force);
}

int pmu_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		fmt_vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;	/* PMU_EARG */
}
