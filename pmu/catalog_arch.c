/* SPDX-License-Identifier: MIT */
/*
 * The architectural events' catalog (seed 002_28e325465e681290.txt Table 18-1, the fixed
 * counters of SDM Vol. 3B Table 18-2), hand-written: no library has it as a table (libpfm4
 * builds its ix86arch PMU from CPUID at run time). Each Table 18-1 event under libpfm4's
 * name of it (UNHALTED_CORE_CYCLES ...), after the SDM's EVENT.UMASK names of the same
 * encoding as its aliases. pmu/event.c's arch_events is the other copy of Table 18-1: the
 * host test test_catalog checks the two agree, and test_catalog_pfm checks both against
 * libpfm4.
 */
#include "pmu/catalog.h"

#define ARCH(name, ev, um, fixed, desc) \
	{ name, ev, um, 0, 0, 0, fixed, PMU_UNIT_CORE, 0, 0, desc }
#define ALIAS(name, ev, um, fixed, desc) \
	{ name, ev, um, 0, PMU_EVF_ALIAS, 0, fixed, PMU_UNIT_CORE, 0, 0, desc }

static const struct pmu_event_def events[] = {
	/* Table 18-1 bit 0 */
	ALIAS("CPU_CLK_UNHALTED.THREAD", 0x3c, 0x00, 1, "UnHalted Core Cycles (fixed counter 1)"),
	ALIAS("CPU_CLK_UNHALTED.CORE", 0x3c, 0x00, 1, "UnHalted Core Cycles (fixed counter 1)"),
	ALIAS("CPU_CLK_UNHALTED.THREAD_P", 0x3c, 0x00, 1, "UnHalted Core Cycles, programmable"),
	ARCH("UNHALTED_CORE_CYCLES", 0x3c, 0x00, 1, "UnHalted Core Cycles (Table 18-1 bit 0)"),
	/* bit 1 */
	ALIAS("INST_RETIRED.ANY", 0xc0, 0x00, 0, "Instructions retired (fixed counter 0)"),
	ALIAS("INST_RETIRED.ANY_P", 0xc0, 0x00, 0, "Instructions retired, programmable"),
	ARCH("INSTRUCTION_RETIRED", 0xc0, 0x00, 0, "Instruction Retired (Table 18-1 bit 1)"),
	/* bit 2 */
	ALIAS("CPU_CLK_UNHALTED.REF_XCLK", 0x3c, 0x01, 2, "UnHalted Reference Cycles, programmable"),
	ALIAS("CPU_CLK_UNHALTED.REF_P", 0x3c, 0x01, 2, "UnHalted Reference Cycles, programmable"),
	ARCH("UNHALTED_REFERENCE_CYCLES", 0x3c, 0x01, 2,
	     "UnHalted Reference Cycles (Table 18-1 bit 2)"),
	/* bit 3 */
	ALIAS("LONGEST_LAT_CACHE.REFERENCE", 0x2e, 0x4f, -1, "LLC Reference"),
	ARCH("LLC_REFERENCES", 0x2e, 0x4f, -1, "LLC Reference (Table 18-1 bit 3)"),
	/* bit 4 */
	ALIAS("LONGEST_LAT_CACHE.MISS", 0x2e, 0x41, -1, "LLC Misses"),
	ARCH("LLC_MISSES", 0x2e, 0x41, -1, "LLC Misses (Table 18-1 bit 4)"),
	/* bit 5 */
	ALIAS("BR_INST_RETIRED.ALL_BRANCHES", 0xc4, 0x00, -1, "Branch Instruction Retired"),
	ARCH("BRANCH_INSTRUCTIONS_RETIRED", 0xc4, 0x00, -1,
	     "Branch Instruction Retired (Table 18-1 bit 5)"),
	/* bit 6 */
	ALIAS("BR_MISP_RETIRED.ALL_BRANCHES", 0xc5, 0x00, -1, "Branch Misses Retired"),
	ARCH("MISPREDICTED_BRANCH_RETIRED", 0xc5, 0x00, -1,
	     "Branch Misses Retired (Table 18-1 bit 6)"),
	/* bit 7 */
	ALIAS("TOPDOWN.SLOTS", 0xa4, 0x01, 3, "Topdown Slots (fixed counter 3)"),
	ALIAS("TOPDOWN.SLOTS_P", 0xa4, 0x01, 3, "Topdown Slots, programmable"),
	ARCH("TOPDOWN_SLOTS", 0xa4, 0x01, 3, "Topdown Slots (Table 18-1 bit 7)"),
	/* Fixed counter 2's own encoding (Linux's pseudo-encoding 0x0300: no GP counter) */
	ALIAS("CPU_CLK_UNHALTED.REF", 0x00, 0x03, 2, "Reference cycles (fixed counter 2)"),
	ARCH("CPU_CLK_UNHALTED.REF_TSC", 0x00, 0x03, 2,
	     "Reference cycles at the TSC rate (fixed counter 2)"),
};

const struct pmu_catalog pmu_catalog_arch = {
	.model = "arch",
	.title = "Intel architectural events",
	.source = "seed 002_28e325465e681290.txt Table 18-1; SDM Vol. 3B Table 18-2",
	.unit = PMU_UNIT_CORE,
	.events = events,
	.count = sizeof(events) / sizeof(events[0]),
};
