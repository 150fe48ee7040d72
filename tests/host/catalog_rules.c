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
	/* Fixed counter 1 as event 00H umask 02H: libpfm4's (Intel's event tables') spelling of
	 * CPU_CLK_UNHALTED.THREAD/CORE on these models, by the pattern of Linux's 0x0100, 0x0300
	 * and 0x0400 (fixed counter n: umask n + 1). */
	{ "glm,tmt,icl,icx,spr", 0x00, 0x02, 1, "libpfm4 glm/spr CPU_CLK_UNHALTED 0x0200; " LNX("FIXED pseudo-encoding pattern") },
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
	/* Golden Cove: 2AH/01H RSP_0 (Linux intel_glc_extra_regs; its 2BH/01H RSP_1 has no
	 * libpfm4 4.13 event: that version encodes spr OFFCORE_RESPONSE_1 as 2AH too, so those
	 * entries count through RSP_0 like OFFCORE_RESPONSE_0's) */
	{ "spr", 0x2a, 0x01, MSR_OFFCORE_RSP_0, PMU_EVF_OFFCORE,
	  LNX("intel_glc_extra_regs 0x012a MSR_OFFCORE_RSP_0") },
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

/* The seeds' spellings of events libpfm4 names differently (seed 000_666bff9af8f20138.txt:
 * its tables and the text around them). */
#define SEED000(t) "seed 000_666bff9af8f20138.txt Table " t
const struct cat_alias cat_aliases[] = {
	{ "nhm", "FP_ASSIST.ANY", "FP_ASSIST:ALL", 0x0, SEED000("8") },
	{ "nhm", "LARGE_TLB.HIT", "LARGE_ITLB:HIT", 0x0, SEED000("19") },
	{ "nhm", "MACHINE_CLEAR.CYCLES", "MACHINE_CLEARS:CYCLES", 0x0, SEED000("21 (text)") },
	{ "nhm", "MEM_LOAD_RETIRED.DTLB_MISSES", "MEM_LOAD_RETIRED:DTLB_MISS", 0x0, SEED000("3 (text)") },
	{ "nhm", "MEM_LOAD_RETIRED.LLC_HIT_NO_SNOOP", "MEM_LOAD_RETIRED:LLC_UNSHARED_HIT", 0x0, SEED000("3 (text: its better name)") },
	{ "nhm", "MEM_LOAD_RETIRED.LLC_HIT_OTHER_CORE_HIT_HITM", "MEM_LOAD_RETIRED:OTHER_CORE_L2_HIT_HITM", 0x0, SEED000("3 (text)") },
	{ "nhm", "MEM_LOAD_RETIRED.LLC_HIT_SNOOP", "MEM_LOAD_RETIRED:OTHER_CORE_L2_HIT_HITM", 0x0, SEED000("3 (text: its better name)") },
	{ "nhm", "MEM_LOAD_RETIRED.OTHER_CORE_HIT_HITM", "MEM_LOAD_RETIRED:OTHER_CORE_L2_HIT_HITM", 0x0, SEED000("3 (text)") },
	{ "nhm", "MEM_UNCORE_RETIRED.NON_LOCAL_DRAM", "MEM_UNCORE_RETIRED:REMOTE_DRAM", 0x0, SEED000("3 (text)") },
	{ "nhm", "UOPS_ISSUED.STALL_CYCLES", "UOPS_ISSUED:STALLED_CYCLES", 0x0, SEED000("1") },
	{ "nhm", "UOPS_ISSUED.CORE_CYCLES_ACTIVE", "UOPS_ISSUED:ANY:c=1:t=1", 0x0, SEED000("1 (text: cmask=1, allthreads)") },
	{ "nhm", "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_4", "MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=4", 0x4, SEED000("4") },
	{ "nhm", "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_8", "MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=8", 0x8, SEED000("4") },
	{ "nhm", "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_10", "MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=16", 0x10, SEED000("4") },
	{ "nhm", "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_20", "MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=32", 0x20, SEED000("4") },
	{ "nhm", "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_40", "MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=64", 0x40, SEED000("4") },
	{ "nhm", "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_80", "MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=128", 0x80, SEED000("4") },
	{ "nhm", "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_100", "MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=256", 0x100, SEED000("4") },
	{ "nhm", "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_200", "MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=512", 0x200, SEED000("4") },
	{ "nhm", "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_400", "MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=1024", 0x400, SEED000("4") },
	{ "nhm", "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_800", "MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=2048", 0x800, SEED000("4") },
	{ "nhm", "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_1000", "MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=4096", 0x1000, SEED000("4") },
	{ "nhm", "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_2000", "MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=8192", 0x2000, SEED000("4") },
	{ "nhm", "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_4000", "MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=16384", 0x4000, SEED000("4") },
	{ "nhm", "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_8000", "MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD:ldlat=32768", 0x8000, SEED000("4") },
	{ "nhm", "OFFCORE_RESPONSE_0.DATA_IFETCH.ANY_DRAM", "OFFCORE_RESPONSE_0:DMND_DATA_RD:DMND_RFO:DMND_IFETCH:PF_DATA_RD:PF_RFO:PF_IFETCH:ANY_DRAM", 0x6077, SEED000("9 (request and response encodings)") },
	{ "nhm", "OFFCORE_RESPONSE_0.DATA_IFETCH.LLC_MISS_LOCAL_DRAM", "OFFCORE_RESPONSE_0:DMND_DATA_RD:DMND_RFO:DMND_IFETCH:PF_DATA_RD:PF_RFO:PF_IFETCH:LOCAL_DRAM", 0x4077, SEED000("9 (request and response encodings)") },
	{ "nhm", "OFFCORE_RESPONSE_0.DATA_IFETCH.LLC_MISS_REMOTE_DRAM", "OFFCORE_RESPONSE_0:DMND_DATA_RD:DMND_RFO:DMND_IFETCH:PF_DATA_RD:PF_RFO:PF_IFETCH:REMOTE_DRAM", 0x2077, SEED000("9 (request and response encodings)") },
	{ "nhm", "OFFCORE_RESPONSE_0.DATA_IFETCH.LOCAL_DRAM", "OFFCORE_RESPONSE_0:DMND_DATA_RD:DMND_RFO:DMND_IFETCH:PF_DATA_RD:PF_RFO:PF_IFETCH:LOCAL_DRAM", 0x4077, SEED000("9 (request and response encodings)") },
	{ "nhm", "OFFCORE_RESPONSE_0.DATA_IFETCH.REMOTE_CACHE_DRAM", "OFFCORE_RESPONSE_0:DMND_DATA_RD:DMND_RFO:DMND_IFETCH:PF_DATA_RD:PF_RFO:PF_IFETCH:REMOTE_CACHE_DRAM", 0x3877, SEED000("9 (request and response encodings)") },
	{ "nhm", "OFFCORE_RESPONSE_0.DATA_IN.LLC_MISS", "OFFCORE_RESPONSE_0:ANY_DATA:ANY_LLC_MISS", 0xf833, SEED000("9 (request and response encodings)") },
	{ "nhm", "OFFCORE_RESPONSE_0.DATA_IN.LLC_MISS_LOCAL_DRAM", "OFFCORE_RESPONSE_0:ANY_DATA:LOCAL_DRAM", 0x4033, SEED000("9 (request and response encodings)") },
	{ "nhm", "OFFCORE_RESPONSE_0.DATA_IN.LLC_MISS_REMOTE_DRAM", "OFFCORE_RESPONSE_0:ANY_DATA:REMOTE_DRAM", 0x2033, SEED000("9 (request and response encodings)") },
	{ "nhm", "OFFCORE_RESPONSE_0.DATA_IN.LOCAL_DRAM", "OFFCORE_RESPONSE_0:ANY_DATA:LOCAL_DRAM", 0x4033, SEED000("9 (request and response encodings)") },
	{ "nhm", "OFFCORE_RESPONSE_0.DATA_IN.REMOTE_DRAM", "OFFCORE_RESPONSE_0:ANY_DATA:REMOTE_DRAM", 0x2033, SEED000("9 (request and response encodings)") },
	{ "nhm", "OFFCORE_RESPONSE_0.DEMAND_DATA.LLC_HIT_NO_OTHER_CORE", "OFFCORE_RESPONSE_0:DMND_DATA_RD:DMND_RFO:UNCORE_HIT", 0x103, SEED000("9 (request and response encodings)") },
	{ "nhm", "OFFCORE_RESPONSE_0.DEMAND_DATA.LLC_HIT_OTHER_CORE_HIT", "OFFCORE_RESPONSE_0:DMND_DATA_RD:DMND_RFO:OTHER_CORE_HIT_SNP", 0x203, SEED000("9 (request and response encodings)") },
	{ "nhm", "OFFCORE_RESPONSE_0.DEMAND_DATA.LLC_HIT_OTHER_CORE_HITM", "OFFCORE_RESPONSE_0:DMND_DATA_RD:DMND_RFO:OTHER_CORE_HITM", 0x403, SEED000("9 (request and response encodings)") },
	{ "nhm", "OFFCORE_RESPONSE_0.DEMAND_DATA.LOCAL_CACHE", "OFFCORE_RESPONSE_0:DMND_DATA_RD:DMND_RFO:UNCORE_HIT:OTHER_CORE_HIT_SNP:OTHER_CORE_HITM", 0x703, SEED000("9 (request and response encodings)") },
	{ "nhm", "OFFCORE_RESPONSE_0.OTHER.ANY_CACHE_DRAM", "OFFCORE_RESPONSE_0:OTHER:ANY_CACHE_DRAM", 0x7f80, SEED000("9 (request and response encodings)") },
	{ "nhm", "OFFCORE_RESPONSE_0.OTHER.LLC_MISS_LOCAL_CACHE_DRAM", "OFFCORE_RESPONSE_0:OTHER:LOCAL_CACHE_DRAM", 0x4780, SEED000("9 (request and response encodings)") },
	{ "nhm", "OFFCORE_RESPONSE_0.OTHER.LLC_MISS_REMOTE_DRAM", "OFFCORE_RESPONSE_0:OTHER:REMOTE_DRAM", 0x2080, SEED000("9 (request and response encodings)") },
	{ "nhm_unc", "UNC_GQ_ALLOC.RT", "UNC_GQ_ALLOC:READ_TRACKER", 0x0, SEED000("22") },
	{ "nhm_unc", "UNC_GQ_ALLOC.WT", "UNC_GQ_ALLOC:WRITE_TRACKER", 0x0, SEED000("22") },
	{ "nhm_unc", "UNC_GQ_ALLOC.PPT", "UNC_GQ_ALLOC:PEER_PROBE_TRACKER", 0x0, SEED000("22") },
	{ "nhm_unc", "UNC_GQ_CYCLES_BUSY.READ_TRACKER", "UNC_GQ_CYCLES_NOT_EMPTY:READ_TRACKER", 0x0, SEED000("23") },
	{ "nhm_unc", "UNC_GQ_CYCLES_BUSY.WRITE_TRACKER", "UNC_GQ_CYCLES_NOT_EMPTY:WRITE_TRACKER", 0x0, SEED000("23") },
	{ "nhm_unc", "UNC_GQ_CYCLES_BUSY.PEER_PROBE_TRACKER", "UNC_GQ_CYCLES_NOT_EMPTY:PEER_PROBE_TRACKER", 0x0, SEED000("23") },
	{ "nhm_unc", "UNC_GQ_DATA.FROM_IMC", "UNC_GQ_DATA_FROM:QMC", 0x0, SEED000("25") },
	{ "nhm_unc", "UNC_GQ_DATA.TO_QPI_IMC", "UNC_GQ_DATA_TO:QPI_QMC", 0x0, SEED000("25") },
	{ "nhm_unc", "UNC_SNP_RESP_TO_LOCAL_HOME.HITM", "UNC_SNP_RESP_TO_LOCAL_HOME:FWD_S_STATE:WB", 0x0, SEED000("26") },
	{ "nhm_unc", "UNC_SNP_RESP_TO_LOCAL_HOME.HIT", "UNC_SNP_RESP_TO_LOCAL_HOME:S_STATE:FWD_I_STATE:CONFLICT", 0x0, SEED000("26") },
	{ "nhm_unc", "UNC_SNP_RESP_TO_REMOTE_HOME.HIT", "UNC_SNP_RESP_TO_REMOTE_HOME:S_STATE:FWD_I_STATE:CONFLICT", 0x0, SEED000("27") },
	{ "nhm_unc", "UNC_IMC_NORMAL_OCCUPANCY.CH0", "UNC_QMC_OCCUPANCY:CH0", 0x0, SEED000("32") },
	{ "nhm_unc", "UNC_IMC_NORMAL_OCCUPANCY.CH1", "UNC_QMC_OCCUPANCY:CH1", 0x0, SEED000("32") },
	{ "nhm_unc", "UNC_IMC_NORMAL_OCCUPANCY.CH2", "UNC_QMC_OCCUPANCY:CH2", 0x0, SEED000("32") },
	{ "nhm_unc", "UNC_IMC_NORMAL_READS.ANY", "UNC_QMC_NORMAL_READS:ANY", 0x0, SEED000("32") },
	{ "nhm_unc", "UNC_IMC_WRITES.FULL.ANY", "UNC_QMC_WRITES:FULL_ANY", 0x0, SEED000("32") },
	{ "nhm_unc", "UNC_IMC_WRITES.PARTIAL.ANY", "UNC_QMC_WRITES:PARTIAL_ANY", 0x0, SEED000("32") },
	{ "nhm_unc", "UNC_IMC_HIGH_PRIORITY_READS.ANY", "UNC_QMC_HIGH_PRIORITY_READS:ANY", 0x0, SEED000("36") },
	{ "nhm_unc", "UNC_IMC_CRITICAL_PRIORITY_READS.ANY", "UNC_QMC_CRITICAL_PRIORITY_READS:ANY", 0x0, SEED000("36") },
	{ "nhm_unc", "UNC_IMC_NORMAL_READS.CH0", "UNC_QMC_NORMAL_READS:CH0", 0x0, SEED000("32") },
	{ "nhm_unc", "UNC_IMC_WRITES.FULL.CH0", "UNC_QMC_WRITES:FULL_CH0", 0x0, SEED000("32") },
	{ "nhm_unc", "UNC_IMC_WRITES.PARTIAL.CH0", "UNC_QMC_WRITES:PARTIAL_CH0", 0x0, SEED000("32") },
	{ "nhm_unc", "UNC_IMC_HIGH_PRIORITY_READS.CH0", "UNC_QMC_HIGH_PRIORITY_READS:CH0", 0x0, SEED000("36") },
	{ "nhm_unc", "UNC_IMC_CRITICAL_PRIORITY_READS.CH0", "UNC_QMC_CRITICAL_PRIORITY_READS:CH0", 0x0, SEED000("36") },
	{ "nhm_unc", "UNC_IMC_NORMAL_READS.CH1", "UNC_QMC_NORMAL_READS:CH1", 0x0, SEED000("32") },
	{ "nhm_unc", "UNC_IMC_WRITES.FULL.CH1", "UNC_QMC_WRITES:FULL_CH1", 0x0, SEED000("32") },
	{ "nhm_unc", "UNC_IMC_WRITES.PARTIAL.CH1", "UNC_QMC_WRITES:PARTIAL_CH1", 0x0, SEED000("32") },
	{ "nhm_unc", "UNC_IMC_HIGH_PRIORITY_READS.CH1", "UNC_QMC_HIGH_PRIORITY_READS:CH1", 0x0, SEED000("36") },
	{ "nhm_unc", "UNC_IMC_CRITICAL_PRIORITY_READS.CH1", "UNC_QMC_CRITICAL_PRIORITY_READS:CH1", 0x0, SEED000("36") },
	{ "nhm_unc", "UNC_IMC_NORMAL_READS.CH2", "UNC_QMC_NORMAL_READS:CH2", 0x0, SEED000("32") },
	{ "nhm_unc", "UNC_IMC_WRITES.FULL.CH2", "UNC_QMC_WRITES:FULL_CH2", 0x0, SEED000("32") },
	{ "nhm_unc", "UNC_IMC_WRITES.PARTIAL.CH2", "UNC_QMC_WRITES:PARTIAL_CH2", 0x0, SEED000("32") },
	{ "nhm_unc", "UNC_IMC_HIGH_PRIORITY_READS.CH2", "UNC_QMC_HIGH_PRIORITY_READS:CH2", 0x0, SEED000("36") },
	{ "nhm_unc", "UNC_IMC_CRITICAL_PRIORITY_READS.CH2", "UNC_QMC_CRITICAL_PRIORITY_READS:CH2", 0x0, SEED000("36") },
	{ "nhm_unc", "UNC_IMC_WRITES.FULL", "UNC_QMC_WRITES:FULL_ANY", 0x0, SEED000("32 (text)") },
	{ "nhm_unc", "UNC_IMC_BUSY.READ.CH0", "UNC_QMC_BUSY:READ_CH0", 0x0, SEED000("33") },
	{ "nhm_unc", "UNC_IMC_ISOC_FULL.READ.CH0", "UNC_QMC_ISOC_FULL:READ_CH0", 0x0, SEED000("34") },
	{ "nhm_unc", "UNC_IMC_BUSY.READ.CH1", "UNC_QMC_BUSY:READ_CH1", 0x0, SEED000("33") },
	{ "nhm_unc", "UNC_IMC_ISOC_FULL.READ.CH1", "UNC_QMC_ISOC_FULL:READ_CH1", 0x0, SEED000("34") },
	{ "nhm_unc", "UNC_IMC_BUSY.READ.CH2", "UNC_QMC_BUSY:READ_CH2", 0x0, SEED000("33") },
	{ "nhm_unc", "UNC_IMC_ISOC_FULL.READ.CH2", "UNC_QMC_ISOC_FULL:READ_CH2", 0x0, SEED000("34") },
	{ "nhm_unc", "UNC_IMC_BUSY.WRITE.CH0", "UNC_QMC_BUSY:WRITE_CH0", 0x0, SEED000("33") },
	{ "nhm_unc", "UNC_IMC_ISOC_FULL.WRITE.CH0", "UNC_QMC_ISOC_FULL:WRITE_CH0", 0x0, SEED000("34") },
	{ "nhm_unc", "UNC_IMC_BUSY.WRITE.CH1", "UNC_QMC_BUSY:WRITE_CH1", 0x0, SEED000("33") },
	{ "nhm_unc", "UNC_IMC_ISOC_FULL.WRITE.CH1", "UNC_QMC_ISOC_FULL:WRITE_CH1", 0x0, SEED000("34") },
	{ "nhm_unc", "UNC_IMC_BUSY.WRITE.CH2", "UNC_QMC_BUSY:WRITE_CH2", 0x0, SEED000("33") },
	{ "nhm_unc", "UNC_IMC_ISOC_FULL.WRITE.CH2", "UNC_QMC_ISOC_FULL:WRITE_CH2", 0x0, SEED000("34") },
};
const unsigned cat_naliases = N(cat_aliases);

/* Events of seed 000's tables libpfm4 4.13 does not have for Nehalem, from the seed (check:
 * libpfm4's Westmere encoding of the same event, where it has one). */
const struct cat_seed_event cat_seed_events[] = {
	{ "nhm", "INST_RETIRED.MMX", 0xc0, 0x04, 0, 0, 0, 0x0ULL, "wsm::INST_RETIRED:MMX",
	  "Retired MMX instructions", SEED000("8") },
	{ "nhm", "INST_RETIRED.TOTAL_CYCLES", 0xc0, 0x01, 16, PMU_EVF_INV, 0, 0x0ULL, "wsm::INST_RETIRED:TOTAL_CYCLES",
	  "Total cycles (CMASK 16, INV)", SEED000("8") },
	{ "nhm", "INST_RETIRED.TOTAL_CYCLES_R0", 0xc0, 0x01, 16, PMU_EVF_INV, 0, 0x0ULL, "wsm::INST_RETIRED:TOTAL_CYCLES",
	  "Total cycles in ring 0 (count with OS only)", SEED000("8") },
	{ "nhm", "INST_RETIRED.TOTAL_CYCLES_R3", 0xc0, 0x01, 16, PMU_EVF_INV, 0, 0x0ULL, "wsm::INST_RETIRED:TOTAL_CYCLES",
	  "Total cycles in ring 3 (count with USR only)", SEED000("8") },
	{ "nhm", "MEM_UNCORE_RETIRED.UNCACHEABLE", 0x0f, 0x80, 0, 0, 0, 0x0ULL, "wsm::MEM_UNCORE_RETIRED:UNCACHEABLE",
	  "Memory instructions retired to IO", SEED000("3") },
	{ "nhm", "MEM_LOAD_RETIRED.DROPPED_EVENTS", 0xcb, 0x20, 0, 0, 0, 0x0ULL, NULL,
	  "Retired load info dropped due to a data breakpoint", SEED000("3") },
	{ "nhm", "MEM_STORE_RETIRED.DROPPED_EVENTS", 0x0c, 0x02, 0, 0, 0, 0x0ULL, NULL,
	  "Retired stores dropped due to a data breakpoint", SEED000("3") },
	{ "nhm", "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_0", 0x0b, 0x10, 0, PMU_EVF_LDLAT, MSR_PEBS_LD_LAT_THRESHOLD, 0x0ULL, NULL,
	  "Load instructions retired above 0 cycles (libpfm4 takes ldlat 3 and up)", SEED000("4") },
	{ "nhm", "L1D_PEND_MISS.PENDING", 0x48, 0x01, 0, 0, 0, 0x0ULL, NULL,
	  "Outstanding L1 data cache misses at any cycle", SEED000("16") },
	{ "nhm", "L1D_PEND_MISS.LOAD_BUFFERS_FULL", 0x48, 0x02, 0, 0, 0, 0x0ULL, NULL,
	  "L1 data cache load fill buffer full", SEED000("16") },
	{ "nhm", "LSD_REPLAY.COUNT", 0x1f, 0x01, 0, 0, 0, 0x0ULL, NULL,
	  "Loops replayed by the LSD", SEED000("20") },
	{ "nhm", "LSD_REPLAY.ABORT", 0x1f, 0x02, 0, 0, 0, 0x0ULL, NULL,
	  "Loops aborted by the LSD", SEED000("20") },
	{ "nhm", "DTLB_LOAD_MISSES.PMH_BUSY_CYCLES", 0x08, 0x08, 0, 0, 0, 0x0ULL, NULL,
	  "Page walks blocked because the PMH is busy", SEED000("15") },
	{ "nhm", "DTLB_MISSES.PMH_BUSY_CYCLES", 0x49, 0x08, 0, 0, 0, 0x0ULL, NULL,
	  "Page walks blocked because the PMH is busy", SEED000("15") },
	{ "nhm", "ITLB_MISSES.PMH_BUSY_CYCLES", 0x85, 0x08, 0, 0, 0, 0x0ULL, NULL,
	  "Page walks blocked because the PMH is busy", SEED000("15") },
	{ "nhm", "UOPS_EXECUTED.CORE_STALL_CYCLES", 0xb1, 0x3f, 1, PMU_EVF_INV | PMU_EVF_ANY, 0, 0x0ULL, NULL,
	  "Cycles no uops were dispatched on any port of the core", SEED000("1") },
	{ "nhm", "UOPS_EXECUTED.CORE_STALLS_CYCLES", 0xb1, 0x3f, 1, PMU_EVF_INV | PMU_EVF_ANY, 0, 0x0ULL, NULL,
	  "Spelling of UOPS_EXECUTED.CORE_STALL_CYCLES in the text", SEED000("1 (text)") },
	{ "nhm", "UOPC_EXECUTED.CORE_STALL_CYCLES", 0xb1, 0x3f, 1, PMU_EVF_INV | PMU_EVF_ANY, 0, 0x0ULL, NULL,
	  "Spelling of UOPS_EXECUTED.CORE_STALL_CYCLES in the text", SEED000("1 (text)") },
	{ "nhm", "UOPS_EXECUTED.CORE_ACTIVE_CYCLES", 0xb1, 0x3f, 1, PMU_EVF_ANY, 0, 0x0ULL, NULL,
	  "Cycles uops were dispatched on some port of the core", SEED000("1 (text)") },
	{ "nhm", "UOPS_EXECUTED.CORE_STALL_COUNT", 0xb1, 0x3f, 1, PMU_EVF_INV | PMU_EVF_EDGE | PMU_EVF_ANY, 0, 0x0ULL, NULL,
	  "Execution stalls of the core (CMASK 1, INV, EDGE)", SEED000("1 (text)") },
	{ "nhm", "UOPS_EXECUTED.CORE_STALLS_COUNT", 0xb1, 0x3f, 1, PMU_EVF_INV | PMU_EVF_EDGE | PMU_EVF_ANY, 0, 0x0ULL, NULL,
	  "Spelling of UOPS_EXECUTED.CORE_STALL_COUNT in the text", SEED000("1 (text)") },
	{ "nhm_unc", "UNC_GQ_TRACKER_OCCUP.RT", 0x02, 0x01, 0, 0, 0, 0x0ULL, NULL,
	  "GQ tracker occupancy (RT)", SEED000("22") },
	{ "nhm_unc", "UNC_GQ_TRACKER_OCCUP.RT_LLC_MISS", 0x02, 0x02, 0, 0, 0, 0x0ULL, NULL,
	  "GQ tracker occupancy (RT_LLC_MISS)", SEED000("22") },
	{ "nhm_unc", "UNC_GQ_TRACKER_OCCUP.RT_TO_LLC_RESP", 0x02, 0x04, 0, 0, 0, 0x0ULL, NULL,
	  "GQ tracker occupancy (RT_TO_LLC_RESP)", SEED000("22") },
	{ "nhm_unc", "UNC_GQ_TRACKER_OCCUP.RT_TO_RTID_ACQUIRED", 0x02, 0x08, 0, 0, 0, 0x0ULL, NULL,
	  "GQ tracker occupancy (RT_TO_RTID_ACQUIRED)", SEED000("22") },
	{ "nhm_unc", "UNC_GQ_TRACKER_OCCUP.WT_TO_RTID_ACQUIRED", 0x02, 0x10, 0, 0, 0, 0x0ULL, NULL,
	  "GQ tracker occupancy (WT_TO_RTID_ACQUIRED)", SEED000("22") },
	{ "nhm_unc", "UNC_GQ_TRACKER_OCCUP.WT", 0x02, 0x20, 0, 0, 0, 0x0ULL, NULL,
	  "GQ tracker occupancy (WT)", SEED000("22") },
	{ "nhm_unc", "UNC_GQ_TRACKER_OCCUP.PPT", 0x02, 0x40, 0, 0, 0, 0x0ULL, NULL,
	  "GQ tracker occupancy (PPT)", SEED000("22") },
	{ "nhm_unc", "UNC_GQ_TRACKER_OCCUP.RT_LLC_MISS_FULL", 0x02, 0x02, 32, 0, 0, 0x0ULL, NULL,
	  "Cycles with 32 or more entries (RT_LLC_MISS)", SEED000("24") },
	{ "nhm_unc", "UNC_GQ_TRACKER_OCCUP.RT_LLC_MISS_BUSY", 0x02, 0x02, 1, 0, 0, 0x0ULL, NULL,
	  "Cycles with an entry (RT_LLC_MISS)", SEED000("24") },
	{ "nhm_unc", "UNC_GQ_TRACKER_OCCUP.RT_TO_LLC_RESP_FULL", 0x02, 0x04, 32, 0, 0, 0x0ULL, NULL,
	  "Cycles with 32 or more entries (RT_TO_LLC_RESP)", SEED000("24") },
	{ "nhm_unc", "UNC_GQ_TRACKER_OCCUP.RT_TO_LLC_RESP_BUSY", 0x02, 0x04, 1, 0, 0, 0x0ULL, NULL,
	  "Cycles with an entry (RT_TO_LLC_RESP)", SEED000("24") },
	{ "nhm_unc", "UNC_GQ_TRACKER_OCCUP.RT_TO_RTID_ACQUIRED_FULL", 0x02, 0x08, 32, 0, 0, 0x0ULL, NULL,
	  "Cycles with 32 or more entries (RT_TO_RTID_ACQUIRED)", SEED000("24") },
	{ "nhm_unc", "UNC_GQ_TRACKER_OCCUP.RT_TO_RTID_ACQUIRED_BUSY", 0x02, 0x08, 1, 0, 0, 0x0ULL, NULL,
	  "Cycles with an entry (RT_TO_RTID_ACQUIRED)", SEED000("24") },
	{ "nhm_unc", "UNC_GQ_SNOOP.GOTO_S", 0x0c, 0x01, 0, 0, 0, 0x0ULL, NULL,
	  "Snoops changing a line to S", SEED000("28") },
	{ "nhm_unc", "UNC_GQ_SNOOP.GOTO_I", 0x0c, 0x02, 0, 0, 0, 0x0ULL, NULL,
	  "Snoops changing a line to I", SEED000("28") },
	{ "nhm_unc", "UNC_GQ_SNOOP.GOTO_S_HIT_M", 0x0c, 0x04, 0, PMU_EVF_MATCH, MSR_GQ_SNOOP_MESF, 0x1ULL, NULL,
	  "Snoops changing a line from M to S", SEED000("28") },
	{ "nhm_unc", "UNC_GQ_SNOOP.GOTO_S_HIT_E", 0x0c, 0x04, 0, PMU_EVF_MATCH, MSR_GQ_SNOOP_MESF, 0x2ULL, NULL,
	  "Snoops changing a line from E to S", SEED000("28") },
	{ "nhm_unc", "UNC_GQ_SNOOP.GOTO_S_HIT_S", 0x0c, 0x04, 0, PMU_EVF_MATCH, MSR_GQ_SNOOP_MESF, 0x4ULL, NULL,
	  "Snoops changing a line from S to S", SEED000("28") },
	{ "nhm_unc", "UNC_GQ_SNOOP.GOTO_S_HIT_F", 0x0c, 0x04, 0, PMU_EVF_MATCH, MSR_GQ_SNOOP_MESF, 0x8ULL, NULL,
	  "Snoops changing a line from F to S", SEED000("28") },
	{ "nhm_unc", "UNC_GQ_SNOOP.GOTO_I_HIT_M", 0x0c, 0x08, 0, PMU_EVF_MATCH, MSR_GQ_SNOOP_MESF, 0x10ULL, NULL,
	  "Snoops changing a line from M to I", SEED000("28") },
	{ "nhm_unc", "UNC_GQ_SNOOP.GOTO_I_HIT_E", 0x0c, 0x08, 0, PMU_EVF_MATCH, MSR_GQ_SNOOP_MESF, 0x20ULL, NULL,
	  "Snoops changing a line from E to I", SEED000("28") },
	{ "nhm_unc", "UNC_GQ_SNOOP.GOTO_I_HIT_S", 0x0c, 0x08, 0, PMU_EVF_MATCH, MSR_GQ_SNOOP_MESF, 0x40ULL, NULL,
	  "Snoops changing a line from S to I", SEED000("28") },
	{ "nhm_unc", "UNC_GQ_SNOOP.GOTO_I_HIT_F", 0x0c, 0x08, 0, PMU_EVF_MATCH, MSR_GQ_SNOOP_MESF, 0x80ULL, NULL,
	  "Snoops changing a line from F to I", SEED000("28") },
	{ "nhm_unc", "UNC_ADDR_OPCODE_MATCH.IOH.NONE", 0x35, 0x01, 0, PMU_EVF_MATCH, MSR_UNCORE_ADDR_OPCODE_MATCH, 0x0ULL, NULL,
	  "Address/opcode match, IOH requests, opcode NONE", SEED000("38") },
	{ "nhm_unc", "UNC_ADDR_OPCODE_MATCH.IOH.RSPFWDI", 0x35, 0x01, 0, PMU_EVF_MATCH, MSR_UNCORE_ADDR_OPCODE_MATCH, 0x4000190000000000ULL, NULL,
	  "Address/opcode match, IOH requests, opcode RSPFWDI", SEED000("38") },
	{ "nhm_unc", "UNC_ADDR_OPCODE_MATCH.IOH.RSPFWDS", 0x35, 0x01, 0, PMU_EVF_MATCH, MSR_UNCORE_ADDR_OPCODE_MATCH, 0x40001a0000000000ULL, NULL,
	  "Address/opcode match, IOH requests, opcode RSPFWDS", SEED000("38") },
	{ "nhm_unc", "UNC_ADDR_OPCODE_MATCH.IOH.RSPIWB", 0x35, 0x01, 0, PMU_EVF_MATCH, MSR_UNCORE_ADDR_OPCODE_MATCH, 0x40001d0000000000ULL, NULL,
	  "Address/opcode match, IOH requests, opcode RSPIWB", SEED000("38") },
	{ "nhm_unc", "UNC_ADDR_OPCODE_MATCH.REMOTE.NONE", 0x35, 0x02, 0, PMU_EVF_MATCH, MSR_UNCORE_ADDR_OPCODE_MATCH, 0x0ULL, NULL,
	  "Address/opcode match, REMOTE requests, opcode NONE", SEED000("38") },
	{ "nhm_unc", "UNC_ADDR_OPCODE_MATCH.REMOTE.RSPFWDI", 0x35, 0x02, 0, PMU_EVF_MATCH, MSR_UNCORE_ADDR_OPCODE_MATCH, 0x4000190000000000ULL, NULL,
	  "Address/opcode match, REMOTE requests, opcode RSPFWDI", SEED000("38") },
	{ "nhm_unc", "UNC_ADDR_OPCODE_MATCH.REMOTE.RSPFWDS", 0x35, 0x02, 0, PMU_EVF_MATCH, MSR_UNCORE_ADDR_OPCODE_MATCH, 0x40001a0000000000ULL, NULL,
	  "Address/opcode match, REMOTE requests, opcode RSPFWDS", SEED000("38") },
	{ "nhm_unc", "UNC_ADDR_OPCODE_MATCH.REMOTE.RSPIWB", 0x35, 0x02, 0, PMU_EVF_MATCH, MSR_UNCORE_ADDR_OPCODE_MATCH, 0x40001d0000000000ULL, NULL,
	  "Address/opcode match, REMOTE requests, opcode RSPIWB", SEED000("38") },
	{ "nhm_unc", "UNC_ADDR_OPCODE_MATCH.LOCAL.NONE", 0x35, 0x04, 0, PMU_EVF_MATCH, MSR_UNCORE_ADDR_OPCODE_MATCH, 0x0ULL, NULL,
	  "Address/opcode match, LOCAL requests, opcode NONE", SEED000("38") },
	{ "nhm_unc", "UNC_ADDR_OPCODE_MATCH.LOCAL.RSPFWDI", 0x35, 0x04, 0, PMU_EVF_MATCH, MSR_UNCORE_ADDR_OPCODE_MATCH, 0x4000190000000000ULL, NULL,
	  "Address/opcode match, LOCAL requests, opcode RSPFWDI", SEED000("38") },
	{ "nhm_unc", "UNC_ADDR_OPCODE_MATCH.LOCAL.RSPFWDS", 0x35, 0x04, 0, PMU_EVF_MATCH, MSR_UNCORE_ADDR_OPCODE_MATCH, 0x40001a0000000000ULL, NULL,
	  "Address/opcode match, LOCAL requests, opcode RSPFWDS", SEED000("38") },
	{ "nhm_unc", "UNC_ADDR_OPCODE_MATCH.LOCAL.RSPIWB", 0x35, 0x04, 0, PMU_EVF_MATCH, MSR_UNCORE_ADDR_OPCODE_MATCH, 0x40001d0000000000ULL, NULL,
	  "Address/opcode match, LOCAL requests, opcode RSPIWB", SEED000("38") },
};
const unsigned cat_nseed_events = N(cat_seed_events);

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
