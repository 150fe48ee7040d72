/* SPDX-License-Identifier: MIT */
/* The catalog generator's hand-written rows (see catalog_rules.h), each with its source. */
#include <string.h>
#include "tests/host/catalog_rules.h"
#include "arch/x86/msr.h"
#include "pmu/catalog.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Linux arch/x86/events/intel/core.c (v6.x) intel_*_event_constraints: the GP counters an
 * event may use (bits 0..7; the fixed-counter rows are cat_fixed_encodings). */
#define LNX(t) "Linux intel/core.c " t
const struct cat_constraint cat_constraints[] = {
	/* Core 2 */
	{ "core", 0x10, 0x10, -1, 0x1, LNX("intel_core2_event_constraints FP_COMP_OPS_EXE") },
	{ "core", 0x11, 0x11, -1, 0x2, LNX("intel_core2_event_constraints FP_ASSIST") },
	{ "core", 0x12, 0x12, -1, 0x2, LNX("intel_core2_event_constraints MUL") },
	{ "core", 0x13, 0x13, -1, 0x2, LNX("intel_core2_event_constraints DIV") },
	{ "core", 0x14, 0x14, -1, 0x1, LNX("intel_core2_event_constraints CYCLES_DIV_BUSY") },
	{ "core", 0x18, 0x18, -1, 0x1, LNX("intel_core2_event_constraints IDLE_DURING_DIV") },
	{ "core", 0x19, 0x19, -1, 0x2, LNX("intel_core2_event_constraints DELAYED_BYPASS") },
	{ "core", 0xa1, 0xa1, -1, 0x1, LNX("intel_core2_event_constraints RS_UOPS_DISPATCH_CYCLES") },
	{ "core", 0xc9, 0xc9, -1, 0x1, LNX("intel_core2_event_constraints ITLB_MISS_RETIRED") },
	{ "core", 0xcb, 0xcb, -1, 0x1, LNX("intel_core2_event_constraints MEM_LOAD_RETIRED") },
	/* Nehalem */
	{ "nhm", 0x40, 0x43, -1, 0x3, LNX("intel_nehalem_event_constraints L1D_CACHE_LD/ST/LOCK, L1D_ALL_REF") },
	{ "nhm", 0x48, 0x48, -1, 0x3, LNX("intel_nehalem_event_constraints L1D_PEND_MISS") },
	{ "nhm", 0x4e, 0x4e, -1, 0x3, LNX("intel_nehalem_event_constraints L1D_PREFETCH") },
	{ "nhm", 0x51, 0x51, -1, 0x3, LNX("intel_nehalem_event_constraints L1D") },
	{ "nhm", 0x63, 0x63, -1, 0x3, LNX("intel_nehalem_event_constraints CACHE_LOCK_CYCLES") },
	/* Westmere */
	{ "wsm", 0x51, 0x51, -1, 0x3, LNX("intel_westmere_event_constraints L1D") },
	{ "wsm", 0x60, 0x60, -1, 0x1, LNX("intel_westmere_event_constraints OFFCORE_REQUESTS_OUTSTANDING") },
	{ "wsm", 0x63, 0x63, -1, 0x3, LNX("intel_westmere_event_constraints CACHE_LOCK_CYCLES") },
	{ "wsm", 0xb3, 0xb3, -1, 0x1, LNX("intel_westmere_event_constraints SNOOPQ_REQUEST_OUTSTANDING") },
	/* Sandy Bridge */
	{ "snb", 0xa3, 0xa3, 0x04, 0xf, LNX("intel_snb_event_constraints CYCLE_ACTIVITY.CYCLES_NO_DISPATCH") },
	{ "snb", 0xa3, 0xa3, 0x05, 0xf, LNX("intel_snb_event_constraints CYCLE_ACTIVITY.STALLS_L2_PENDING") },
	{ "snb", 0xa3, 0xa3, 0x02, 0x4, LNX("intel_snb_event_constraints CYCLE_ACTIVITY.CYCLES_L1D_PENDING") },
	{ "snb", 0xa3, 0xa3, 0x06, 0x4, LNX("intel_snb_event_constraints CYCLE_ACTIVITY.STALLS_L1D_PENDING") },
	{ "snb", 0x48, 0x48, -1, 0x4, LNX("intel_snb_event_constraints L1D_PEND_MISS.PENDING") },
	{ "snb", 0xc0, 0xc0, 0x01, 0x2, LNX("intel_snb_event_constraints INST_RETIRED.PREC_DIST") },
	{ "snb", 0xcd, 0xcd, -1, 0x8, LNX("intel_snb_event_constraints MEM_TRANS_RETIRED.LOAD_LATENCY") },
	{ "snb", 0xd0, 0xd3, -1, 0xf, LNX("intel_snb_event_constraints MEM_UOPS_RETIRED, MEM_LOAD_UOPS_*") },
	/* Ivy Bridge */
	{ "ivb", 0x48, 0x48, 0x01, 0x4, LNX("intel_ivb_event_constraints L1D_PEND_MISS.PENDING") },
	{ "ivb", 0x79, 0x79, 0x02, 0xf, LNX("intel_ivb_event_constraints IDQ.EMPTY") },
	{ "ivb", 0x9c, 0x9c, 0x01, 0xf, LNX("intel_ivb_event_constraints IDQ_UOPS_NOT_DELIVERED.CORE") },
	{ "ivb", 0xa3, 0xa3, 0x02, 0xf, LNX("intel_ivb_event_constraints CYCLE_ACTIVITY.CYCLES_LDM_PENDING") },
	{ "ivb", 0xa3, 0xa3, 0x04, 0xf, LNX("intel_ivb_event_constraints CYCLE_ACTIVITY.CYCLES_NO_EXECUTE") },
	{ "ivb", 0xa3, 0xa3, 0x05, 0xf, LNX("intel_ivb_event_constraints CYCLE_ACTIVITY.STALLS_L2_PENDING") },
	{ "ivb", 0xa3, 0xa3, 0x06, 0xf, LNX("intel_ivb_event_constraints CYCLE_ACTIVITY.STALLS_LDM_PENDING") },
	{ "ivb", 0xa3, 0xa3, 0x08, 0x4, LNX("intel_ivb_event_constraints CYCLE_ACTIVITY.CYCLES_L1D_PENDING") },
	{ "ivb", 0xa3, 0xa3, 0x0c, 0x4, LNX("intel_ivb_event_constraints CYCLE_ACTIVITY.STALLS_L1D_PENDING") },
	{ "ivb", 0xc0, 0xc0, 0x01, 0x2, LNX("intel_ivb_event_constraints INST_RETIRED.PREC_DIST") },
	{ "ivb", 0xd0, 0xd3, -1, 0xf, LNX("intel_ivb_event_constraints MEM_UOPS_RETIRED, MEM_LOAD_UOPS_*") },
	/* Haswell */
	{ "hsw", 0x48, 0x48, 0x01, 0x4, LNX("intel_hsw_event_constraints L1D_PEND_MISS.PENDING") },
	{ "hsw", 0xc0, 0xc0, 0x01, 0x2, LNX("intel_hsw_event_constraints INST_RETIRED.PREC_DIST") },
	{ "hsw", 0xcd, 0xcd, -1, 0x8, LNX("intel_hsw_event_constraints MEM_TRANS_RETIRED.LOAD_LATENCY") },
	{ "hsw", 0xa3, 0xa3, 0x08, 0x4, LNX("intel_hsw_event_constraints CYCLE_ACTIVITY.CYCLES_L1D_PENDING") },
	{ "hsw", 0xa3, 0xa3, 0x0c, 0x4, LNX("intel_hsw_event_constraints CYCLE_ACTIVITY.STALLS_L1D_PENDING") },
	{ "hsw", 0xa3, 0xa3, 0x04, 0xf, LNX("intel_hsw_event_constraints CYCLE_ACTIVITY.CYCLES_NO_EXECUTE") },
	{ "hsw", 0xd0, 0xd3, -1, 0xf, LNX("intel_hsw_event_constraints MEM_UOPS_RETIRED, MEM_LOAD_UOPS_*") },
	/* Broadwell */
	{ "bdw", 0x48, 0x48, 0x01, 0x4, LNX("intel_bdw_event_constraints L1D_PEND_MISS.PENDING") },
	{ "bdw", 0xa3, 0xa3, 0x08, 0x4, LNX("intel_bdw_event_constraints CYCLE_ACTIVITY.CYCLES_L1D_MISS") },
	{ "bdw", 0xd0, 0xd2, -1, 0xf, LNX("intel_bdw_event_constraints MEM_UOPS_RETIRED, MEM_LOAD_UOPS_*") },
	{ "bdw", 0xcd, 0xcd, -1, 0xf, LNX("intel_bdw_event_constraints MEM_TRANS_RETIRED") },
	/* Skylake (client and server share the table) */
	{ "skl,skx", 0xc0, 0xc0, 0x01, 0x2, LNX("intel_skl_event_constraints INST_RETIRED.PREC_DIST") },
	{ "skl,skx", 0xd0, 0xd2, -1, 0xf, LNX("intel_skl_event_constraints MEM_INST_RETIRED, MEM_LOAD_*") },
	{ "skl,skx", 0xcd, 0xcd, -1, 0xf, LNX("intel_skl_event_constraints MEM_TRANS_RETIRED") },
	{ "skl,skx", 0xc6, 0xc6, -1, 0xf, LNX("intel_skl_event_constraints FRONTEND_RETIRED") },
	/* Ice Lake (client and server share the table) */
	{ "icl,icx", 0x03, 0x0a, -1, 0xf, LNX("intel_icl_event_constraints 03H-0AH") },
	{ "icl,icx", 0x1f, 0x28, -1, 0xf, LNX("intel_icl_event_constraints 1FH-28H") },
	{ "icl,icx", 0x32, 0x32, -1, 0xf, LNX("intel_icl_event_constraints SW_PREFETCH_ACCESS") },
	{ "icl,icx", 0x48, 0x56, -1, 0xf, LNX("intel_icl_event_constraints 48H-56H") },
	{ "icl,icx", 0x60, 0x8b, -1, 0xf, LNX("intel_icl_event_constraints 60H-8BH") },
	{ "icl,icx", 0xa3, 0xa3, 0x04, 0xff, LNX("intel_icl_event_constraints CYCLE_ACTIVITY.STALLS_TOTAL") },
	{ "icl,icx", 0xa3, 0xa3, 0x10, 0xff, LNX("intel_icl_event_constraints CYCLE_ACTIVITY.CYCLES_MEM_ANY") },
	{ "icl,icx", 0xa3, 0xa3, 0x14, 0xff, LNX("intel_icl_event_constraints CYCLE_ACTIVITY.STALLS_MEM_ANY") },
	{ "icl,icx", 0xa3, 0xa3, -1, 0xf, LNX("intel_icl_event_constraints CYCLE_ACTIVITY") },
	{ "icl,icx", 0xa8, 0xb0, -1, 0xf, LNX("intel_icl_event_constraints A8H-B0H") },
	{ "icl,icx", 0xb7, 0xbd, -1, 0xf, LNX("intel_icl_event_constraints B7H-BDH") },
	{ "icl,icx", 0xd0, 0xe6, -1, 0xf, LNX("intel_icl_event_constraints D0H-E6H") },
	{ "icl,icx", 0xef, 0xef, -1, 0xf, LNX("intel_icl_event_constraints EFH") },
	{ "icl,icx", 0xf0, 0xf4, -1, 0xf, LNX("intel_icl_event_constraints F0H-F4H") },
	/* Sapphire Rapids (Golden Cove) */
	{ "spr", 0x2e, 0x2e, -1, 0xff, LNX("intel_glc_event_constraints 2EH unrestricted") },
	{ "spr", 0x3c, 0x3c, -1, 0xff, LNX("intel_glc_event_constraints 3CH unrestricted") },
	{ "spr", 0x01, 0x8f, -1, 0xf, LNX("intel_glc_event_constraints 01H-8FH") },
	{ "spr", 0xa3, 0xa3, 0x01, 0xf, LNX("intel_glc_event_constraints CYCLE_ACTIVITY 01H") },
	{ "spr", 0xa3, 0xa3, 0x02, 0xf, LNX("intel_glc_event_constraints CYCLE_ACTIVITY 02H") },
	{ "spr", 0xa3, 0xa3, 0x08, 0xf, LNX("intel_glc_event_constraints CYCLE_ACTIVITY 08H") },
	{ "spr", 0xa4, 0xa4, 0x04, 0x1, LNX("intel_glc_event_constraints TOPDOWN 04H") },
	{ "spr", 0xa4, 0xa4, 0x08, 0x1, LNX("intel_glc_event_constraints TOPDOWN 08H") },
	{ "spr", 0xcd, 0xcd, 0x02, 0x1, LNX("intel_glc_event_constraints MEM_TRANS_RETIRED.STORE_SAMPLE") },
	{ "spr", 0xce, 0xce, -1, 0x1, LNX("intel_glc_event_constraints CEH") },
	{ "spr", 0xd0, 0xdf, -1, 0xf, LNX("intel_glc_event_constraints D0H-DFH") },
};
const unsigned cat_nconstraints = N(cat_constraints);

/* Fixed counters: Linux FIXED_EVENT_CONSTRAINT rows (the SDM's Table 18-2 events:
 * INST_RETIRED.ANY, CPU_CLK_UNHALTED.THREAD/CORE, CPU_CLK_UNHALTED.REF(_TSC), TOPDOWN.SLOTS;
 * seed 000_666bff9af8f20138.txt Table 1 "Fixed Ctr"). 0x0300 and 0x0400, 0x0100 are
 * pseudo-encodings no GP counter takes. */
#define ALL_CORE "core,atom,nhm,wsm,snb,ivb,hsw,bdw,skl,skx,icl,icx,spr,slm,glm,tmt,knl,knm"
const struct cat_fixed cat_fixed_encodings[] = {
	{ ALL_CORE, 0xc0, 0x00, 0, LNX("FIXED_EVENT_CONSTRAINT(0x00c0, 0) INST_RETIRED.ANY") },
	{ ALL_CORE, 0x3c, 0x00, 1, LNX("FIXED_EVENT_CONSTRAINT(0x003c, 1) CPU_CLK_UNHALTED.CORE") },
	{ ALL_CORE, 0x00, 0x03, 2, LNX("FIXED_EVENT_CONSTRAINT(0x0300, 2) CPU_CLK_UNHALTED.REF") },
	{ "icl,icx,spr", 0x00, 0x04, 3, LNX("intel_icl/glc_event_constraints FIXED 0x0400 SLOTS") },
	{ "icl,icx,spr", 0x00, 0x01, 0, LNX("intel_icl/glc_event_constraints FIXED 0x0100 INST_RETIRED.PREC_DIST") },
	{ "icl,icx", 0xc0, 0x01, 0, LNX("intel_icl_event_constraints FIXED 0x01c0 old INST_RETIRED.PREC_DIST") },
	{ "spr", 0x3c, 0x01, 2, LNX("intel_glc_event_constraints FIXED 0x013c CPU_CLK_UNHALTED.REF_TSC_P") },
};
const unsigned cat_nfixed = N(cat_fixed_encodings);

/* Extra MSRs: Linux intel_*_extra_regs (INTEL_UEVENT_EXTRA_REG, _PEBS_LDLAT_EXTRA_REG);
 * seed 000_666bff9af8f20138.txt "Off-core response" (MSR 1A6H) and "Load latency" (3F6H). */
const struct cat_extra cat_extras[] = {
	{ "nhm,wsm,snb,ivb,hsw,bdw,skl,skx,icl,icx,slm,glm,tmt,knl,knm", 0xb7, 0x01,
	  MSR_OFFCORE_RSP_0, PMU_EVF_OFFCORE, LNX("intel_*_extra_regs 0x01b7 MSR_OFFCORE_RSP_0") },
	{ "wsm,snb,ivb,hsw,bdw,skl,skx,icl,icx", 0xbb, 0x01, MSR_OFFCORE_RSP_1, PMU_EVF_OFFCORE,
	  LNX("intel_westmere/snb/skl/icl_extra_regs 0x01bb MSR_OFFCORE_RSP_1") },
	{ "slm,glm,tmt,knl,knm", 0xb7, 0x02, MSR_OFFCORE_RSP_1, PMU_EVF_OFFCORE,
	  LNX("intel_slm/glm/knl_extra_regs 0x02b7 MSR_OFFCORE_RSP_1") },
	{ "spr", 0x2a, 0x01, MSR_OFFCORE_RSP_0, PMU_EVF_OFFCORE,
	  LNX("intel_glc_extra_regs 0x012a MSR_OFFCORE_RSP_0") },
	{ "spr", 0x2b, 0x01, MSR_OFFCORE_RSP_1, PMU_EVF_OFFCORE,
	  LNX("intel_glc_extra_regs 0x012b MSR_OFFCORE_RSP_1") },
	{ "nhm,wsm", 0x0b, 0x10, MSR_PEBS_LD_LAT_THRESHOLD, PMU_EVF_LDLAT,
	  LNX("INTEL_UEVENT_PEBS_LDLAT_EXTRA_REG(0x100b)") },
	{ "snb,ivb,hsw,bdw,skl,skx,icl,icx,spr", 0xcd, 0x01, MSR_PEBS_LD_LAT_THRESHOLD, PMU_EVF_LDLAT,
	  LNX("INTEL_UEVENT_PEBS_LDLAT_EXTRA_REG(0x01cd)") },
	{ "skl,skx,icl,icx,spr", 0xc6, 0x01, MSR_PEBS_FRONTEND, PMU_EVF_FRONTEND,
	  LNX("intel_skl/icl/glc_extra_regs 0x01c6 MSR_PEBS_FRONTEND") },
};
const unsigned cat_nextras = N(cat_extras);

/* Fixed-counter events under the SDM's names where libpfm4 lists only the programmable
 * twin (seed 000_666bff9af8f20138.txt Table 1: INST_RETIRED.ANY, CPU_CLK_UNHALTED.THREAD,
 * CPU_CLK_UNHALTED.REF on Fixed Ctr; SDM Vol. 3B Table 18-2 for the later names). */
#define SEED000_T1 "seed 000_666bff9af8f20138.txt Table 1 (Fixed Ctr); SDM Vol. 3B Table 18-2"
const struct cat_hand cat_hand_events[] = {
	{ ALL_CORE, "INST_RETIRED.ANY", 0xc0, 0x00, 0,
	  "Instructions retired (fixed counter 0)", SEED000_T1 },
	{ ALL_CORE, "CPU_CLK_UNHALTED.THREAD", 0x3c, 0x00, 1,
	  "Core cycles when the thread is not halted (fixed counter 1)", SEED000_T1 },
	{ "core,atom", "CPU_CLK_UNHALTED.CORE", 0x3c, 0x00, 1,
	  "Core cycles when the core is not halted (fixed counter 1)", SEED000_T1 },
	{ ALL_CORE, "CPU_CLK_UNHALTED.REF", 0x00, 0x03, 2,
	  "Reference cycles when the thread is not halted (fixed counter 2)", SEED000_T1 },
	{ ALL_CORE, "CPU_CLK_UNHALTED.REF_TSC", 0x00, 0x03, 2,
	  "Reference cycles at the TSC rate when not halted (fixed counter 2)", SEED000_T1 },
};
const unsigned cat_nhand = N(cat_hand_events);

/* The seeds' spellings libpfm4 lacks (seed 000_666bff9af8f20138.txt event tables). */
#define SEED000(t) "seed 000_666bff9af8f20138.txt Table " t
const struct cat_alias cat_aliases[] = {
	{ "nhm,wsm", "UOPS_ISSUED.STALL_CYCLES", "UOPS_ISSUED:STALLED_CYCLES", SEED000("1") },
};
const unsigned cat_naliases = N(cat_aliases);

bool cat_model_in(const char *list, const char *model)
{
	size_t n = strlen(model);

	for (const char *p = list; *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if ((len == 1 && *p == '*') || (len == n && !strncmp(p, model, n)))
			return true;
		if (!e)
			break;
		p = e + 1;
	}
	return false;
}
