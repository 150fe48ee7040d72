/* SPDX-License-Identifier: MIT */
/*
 * The Skylake client uncore's catalog, hand-written from seed 001_dad58ad4a296bcf3.txt (no
 * library has it: libpfm4 4.13 has client uncores up to Ivy Bridge only): Table 3-1 (CBo),
 * Table 3-2 (ARB and the fixed UNC_CLOCK counter), Table 3-3 (the IMC's free-running
 * counters). The encodings are pmu/uncore.h's, so the catalog and pmu/uncore.c cannot
 * disagree; the host test test_catalog checks the counter masks against
 * uncore_event_counters().
 */
#include "pmu/catalog.h"
#include "pmu/uncore.h"

#define CBO_CTRS	0x3	/* Table 3-1 "Valid Counters": 0, 1 */
#define ARB_CTRS	0x3	/* Table 3-2: 0, 1 */
#define ARB_CTR0	0x1	/* Table 3-2: 0 */

#define CBO(name, ev, um, desc) \
	{ name, ev, um, 0, 0, CBO_CTRS, -1, PMU_UNIT_SKL_CBO, 0, 0, desc }
#define ARB(name, ev, um, cmask, ctrs, desc) \
	{ name, ev, um, cmask, 0, ctrs, -1, PMU_UNIT_SKL_ARB, 0, 0, desc }
/* The IMC counters have no encoding: fixed is the counter (enum uncore_imc_ctr), msr_value
 * its offset from MCHBAR (uncore_imc_offset()). */
#define IMC(name, idx, off, desc) \
	{ name, 0, 0, 0, 0, 0, idx, PMU_UNIT_SKL_IMC, 0, off, desc }

static const struct pmu_event_def events[] = {
	/* Table 3-1 */
	CBO("UNC_CBO_XSNP_RESPONSE.MISS_XCORE", UNC_CBO_XSNP_RESPONSE, UNC_CBO_XSNP_MISS_XCORE,
	    "Cross-core snoops for core requests that missed in some other core"),
	CBO("UNC_CBO_XSNP_RESPONSE.MISS_EVICTION", UNC_CBO_XSNP_RESPONSE, UNC_CBO_XSNP_MISS_EVICTION,
	    "Cross-core snoops for LLC evictions that missed in some core"),
	CBO("UNC_CBO_XSNP_RESPONSE.HIT_XCORE", UNC_CBO_XSNP_RESPONSE, UNC_CBO_XSNP_HIT_XCORE,
	    "Cross-core snoops for core requests that hit an unmodified line in another core"),
	CBO("UNC_CBO_XSNP_RESPONSE.HITM_XCORE", UNC_CBO_XSNP_RESPONSE, UNC_CBO_XSNP_HITM_XCORE,
	    "Cross-core snoops for core requests that hit a modified line in another core"),
	CBO("UNC_CBO_CACHE_LOOKUP.WRITE_M", UNC_CBO_CACHE_LOOKUP, UNC_CBO_LOOKUP_WRITE_M,
	    "LLC lookups by writes that found the line in M state"),
	CBO("UNC_CBO_CACHE_LOOKUP.ANY_M", UNC_CBO_CACHE_LOOKUP, UNC_CBO_LOOKUP_ANY_M,
	    "LLC lookups by any request that found the line in M state"),
	CBO("UNC_CBO_CACHE_LOOKUP.READ_I", UNC_CBO_CACHE_LOOKUP, UNC_CBO_LOOKUP_READ_I,
	    "LLC lookups by reads that found the line in I state"),
	CBO("UNC_CBO_CACHE_LOOKUP.ANY_I", UNC_CBO_CACHE_LOOKUP, UNC_CBO_LOOKUP_ANY_I,
	    "LLC lookups by any request that found the line in I state"),
	CBO("UNC_CBO_CACHE_LOOKUP.READ_MESI", UNC_CBO_CACHE_LOOKUP, UNC_CBO_LOOKUP_READ_MESI,
	    "LLC lookups by reads, any MESI state"),
	CBO("UNC_CBO_CACHE_LOOKUP.WRITE_MESI", UNC_CBO_CACHE_LOOKUP, UNC_CBO_LOOKUP_WRITE_MESI,
	    "LLC lookups by writes, any MESI state"),
	CBO("UNC_CBO_CACHE_LOOKUP.ANY_MESI", UNC_CBO_CACHE_LOOKUP, UNC_CBO_LOOKUP_ANY_MESI,
	    "LLC lookups by any request, any MESI state"),
	CBO("UNC_CBO_CACHE_LOOKUP.ANY_ES", UNC_CBO_CACHE_LOOKUP, UNC_CBO_LOOKUP_ANY_ES,
	    "LLC lookups by any request that found the line in E or S state"),
	CBO("UNC_CBO_CACHE_LOOKUP.READ_ES", UNC_CBO_CACHE_LOOKUP, UNC_CBO_LOOKUP_READ_ES,
	    "LLC lookups by reads that found the line in E or S state"),
	CBO("UNC_CBO_CACHE_LOOKUP.WRITE_ES", UNC_CBO_CACHE_LOOKUP, UNC_CBO_LOOKUP_WRITE_ES,
	    "LLC lookups by writes that found the line in E or S state"),
	/* Table 3-2 */
	ARB("UNC_ARB_TRK_OCCUPANCY.ALL", UNC_ARB_TRK_OCCUPANCY, UNC_ARB_TRK_OCCUPANCY_ALL, 0,
	    ARB_CTR0, "Valid outgoing entries from the cores, per cycle (occupancy)"),
	ARB("UNC_ARB_TRK_REQUESTS.ALL", UNC_ARB_TRK_REQUESTS, UNC_ARB_TRK_REQUESTS_ALL, 0,
	    ARB_CTRS, "Core outgoing entries allocated, coherent and non-coherent"),
	ARB("UNC_ARB_TRK_REQUESTS.WRITES", UNC_ARB_TRK_REQUESTS, UNC_ARB_TRK_REQUESTS_WRITES, 0,
	    ARB_CTRS, "Writes allocated: full, partial and evictions"),
	ARB("UNC_ARB_COH_TRK_REQUESTS.ALL", UNC_ARB_COH_TRK_REQUESTS, UNC_ARB_COH_TRK_REQUESTS_ALL,
	    0, ARB_CTRS, "Coherent tracker entries allocated, any type"),
	/* The table gives 80H/01H, the occupancy's encoding; counting cycles with at least one
	 * request (its description) rather than the occupancy takes a threshold of 1. */
	ARB("UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", UNC_ARB_TRK_OCCUPANCY,
	    UNC_ARB_TRK_OCCUPANCY_ALL, 1, ARB_CTR0,
	    "Cycles with at least one request outstanding (THR 1)"),
	{ "UNC_CLOCK.SOCKET", 0x00, 0x01, 0, 0, 0, 0, PMU_UNIT_SKL_UCLK, 0, 0,
	  "UCLK cycles (the 48-bit fixed counter, MSR_UNC_PERF_FIXED_CTR)" },
	/* Table 3-3 */
	IMC("DRAM_GT_REQUESTS", UNC_IMC_GT_REQUESTS, 0x5040,
	    "Requests to DRAM from the GT engine (all channels)"),
	IMC("DRAM_IA_REQUESTS", UNC_IMC_IA_REQUESTS, 0x5044,
	    "Requests to DRAM from IA cores, demand and prefetch (all channels)"),
	IMC("DRAM_IO_REQUESTS", UNC_IMC_IO_REQUESTS, 0x5048,
	    "Requests to DRAM from IO sources (all channels)"),
	IMC("DRAM_DATA_READS", UNC_IMC_DATA_READS, 0x5050,
	    "RdCAS issued to DRAM, 64 bytes each (all channels)"),
	IMC("DRAM_DATA_WRITES", UNC_IMC_DATA_WRITES, 0x5054,
	    "WrCAS issued to DRAM, 64 bytes each (all channels)"),
};

const struct pmu_catalog pmu_catalog_skl_unc = {
	.model = "skl_unc",
	.title = "Intel Skylake client uncore (CBo, ARB, UNC_CLOCK, IMC)",
	.source = "seed 001_dad58ad4a296bcf3.txt Tables 3-1 to 3-3",
	.unit = PMU_UNIT_SKL_CBO,
	.events = events,
	.count = sizeof(events) / sizeof(events[0]),
};
