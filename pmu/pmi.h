/* SPDX-License-Identifier: MIT */
/*
 * Performance-monitoring interrupts: the local APIC LVT entry for the counters, and the
 * handler's bookkeeping (per CPU; bounded, so a PMI storm cannot wedge the run).
 */
#ifndef PMU_PMI_H
#define PMU_PMI_H

#include <stdbool.h>
#include <stdint.h>
#include "pmu/pmu.h"

#define PMI_LOOP_MAX	8	/* status re-reads per PMI before giving up */

struct pmi_stats {
	/* Set by the caller before the PMI: GLOBAL_STATUS bits the handler leaves set for the
	 * caller to inspect and clear itself (e.g. CTR_FRZ, bit 59: on version 4 clearing it
	 * unfreezes the counters, SDM 18.2.4.1). */
	uint64_t keep;
	/* Optional: re-arms the caller's counters, called while counting is off and before
	 * the LVT entry is unmasked (NULL: none). */
	void (*rearm)(void);

	uint64_t pmis;			/* PMIs: invocations that found an overflow bit (version
					 * 1: every fixed-vector invocation, and NMIs that found
					 * the LVT entry masked by delivery) */
	uint64_t overflows[64];		/* per GLOBAL_STATUS bit */
	uint64_t first_status;		/* GLOBAL_STATUS as the last PMI first read it */
	uint64_t last_status;		/* the bits it acknowledged last */
	uint64_t spurious;		/* fixed-vector invocations that found no status bit */
	uint64_t not_pmi;		/* NMIs that found no status bit: not PMIs (another NMI
					 * source, or a second NMI for one overflow) */
	uint64_t loop_limited;		/* PMIs that hit PMI_LOOP_MAX */
	uint32_t lvt_at_entry;		/* LVTPC as the handler found it (mask bit set by delivery) */
};

/* Points the performance-counter LVT at vector (or NMI delivery), unmasked. */
void pmu_pmi_lvt_setup(unsigned vector, bool nmi);
/* Masks the LVT entry again. */
void pmu_pmi_lvt_mask(void);

/*
 * The handler's work, for the firmware's interrupt (or NMI) handler to call, in the order
 * Linux's Intel PMI handler keeps (late acknowledge): reads GLOBAL_STATUS; stops counting
 * (GLOBAL_CTRL 0, the value saved); counts each overflow bit and acknowledges them (but
 * s->keep) through OVF_CTRL, repeating while bits remain (at most PMI_LOOP_MAX times);
 * re-arms (s->rearm); puts GLOBAL_CTRL back; only then unmasks the LVT entry the delivery
 * masked (unmasked while an overflowed counter is still set, Haswell and later raise a
 * spurious PMI: pmu-errata.md "Late/mid ACK"); signals EOI unless delivered as NMI. An NMI
 * that finds no overflow bit is not a PMI: it is counted in s->not_pmi and nothing is
 * touched (as Linux leaves an NMI it cannot claim). Version 1 (no global MSRs) counts the
 * PMI, re-arms and unmasks.
 */
void pmu_pmi_handle(const struct pmu_caps *p, struct pmi_stats *s, bool nmi);

/*
 * The PMI skid pmuboot allows, in instructions retired between the overflow and the PMI:
 * rr budgets up to 125 retired conditional branches of skid on recent cores (its
 * PerfCounters.cc), 500 instructions of loop4; 1000 leaves room and still fails a PMI
 * thousands of instructions late. A check that meets a late PMI allows this much.
 */
#define PMI_SKID_MAX	1000	/* instructions */

/*
 * Leaves no PMI behind: stops every counter and puts DEBUGCTL to the baseline
 * (pmu_reset); then, the LVT entry as it was, waits out the skid budget (PMI_SKID_MAX
 * instructions: a PMI the last overflow requested may still be on its way, as real PMIs
 * come late; Linux waits up to 50 us for an overflow to clear, amd_pmu_wait_on_overflow),
 * so that it lands in the IRR now rather than in a later check; masks the LVT entry and,
 * with nothing left to raise another, lets a PMI waiting in the IRR at `vector` be taken by
 * whatever handler is installed (which counts it); the LVT entry ends masked. Call with
 * interrupts disabled. Returns pmu_reset()'s status; *still_pending (may be NULL) says
 * whether the vector is still in the IRR (e.g. held back by an interrupt of higher
 * priority in service). pmu_quiesce_waited() gives the last wait in TSC ticks.
 */
int pmu_quiesce(const struct pmu_caps *p, unsigned vector, bool *still_pending);
uint64_t pmu_quiesce_waited(void);

#endif /* PMU_PMI_H */
