/* SPDX-License-Identifier: MIT */
/* Event encodings: the IA32_PERFEVTSELx fields as one type, and the architectural events. */
#ifndef PMU_EVENT_H
#define PMU_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "pmu/pmu.h"

/* Every field of IA32_PERFEVTSELx (seed 002_28e325465e681290.txt 18.2.1.1). */
struct pmu_evtsel {
	uint8_t event;		/* 7:0 event select */
	uint8_t umask;		/* 15:8 unit mask */
	bool usr;		/* 16: count at CPL 1-3 */
	bool os;		/* 17: count at CPL 0 */
	bool edge;		/* 18: count deasserted-to-asserted transitions */
	bool pc;		/* 19: pin control */
	bool intr;		/* 20: PMI on overflow */
	bool any;		/* 21: AnyThread (version 3+) */
	bool en;		/* 22: enable */
	bool inv;		/* 23: invert the CMASK comparison */
	uint8_t cmask;		/* 31:24: count cycles with >= CMASK events (< with INV) */
	bool adaptive;		/* 34: adaptive PEBS record (PERF_CAPABILITIES.PEBS_BASELINE) */
};

uint64_t pmu_evtsel_encode(const struct pmu_evtsel *e);
void pmu_evtsel_decode(uint64_t v, struct pmu_evtsel *e);
/* Bits this PMU reserves in IA32_PERFEVTSELx. */
uint64_t pmu_evtsel_reserved(const struct pmu_caps *p);
/* 0, or -1 with a message naming the value and the offending bits. */
int pmu_evtsel_check(const struct pmu_caps *p, uint64_t v, char *err, size_t errlen);

/* Pre-defined architectural events (seed 002 Table 18-1; SDM Vol. 3B Table 18-1). */
enum arch_event {
	ARCH_EVENT_CORE_CYCLES = 0,	/* UnHalted Core Cycles: 3CH/00H */
	ARCH_EVENT_INSTRUCTIONS,	/* Instruction Retired: C0H/00H */
	ARCH_EVENT_REF_CYCLES,		/* UnHalted Reference Cycles: 3CH/01H */
	ARCH_EVENT_LLC_REFERENCES,	/* LLC Reference: 2EH/4FH */
	ARCH_EVENT_LLC_MISSES,		/* LLC Misses: 2EH/41H */
	ARCH_EVENT_BRANCHES,		/* Branch Instruction Retired: C4H/00H */
	ARCH_EVENT_BRANCH_MISSES,	/* Branch Misses Retired: C5H/00H */
	ARCH_EVENT_TOPDOWN_SLOTS,	/* Topdown Slots: A4H/01H */
	NR_ARCH_EVENTS,
};

struct arch_event_desc {
	const char *name;
	uint8_t event, umask;
	int fixed;		/* the fixed counter that counts it, or -1 */
};

extern const struct arch_event_desc arch_events[NR_ARCH_EVENTS];

/* The architectural event fixed counter idx counts (SDM Vol. 3B Table 18-2: 0 instructions,
 * 1 core cycles, 2 reference cycles, 3 topdown slots), or -1 for one pmuboot does not know
 * (4-6 on Atom cores count topdown bad-speculation, front-end-bound and retiring slots). */
int pmu_fixed_event(unsigned idx);

/* An enabled counting selector for an architectural event (USR and OS as asked). */
struct pmu_evtsel pmu_arch_evtsel(enum arch_event ev, bool usr, bool os);

#endif /* PMU_EVENT_H */
