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
	uint64_t pmis;			/* handler invocations */
	uint64_t overflows[64];		/* per GLOBAL_STATUS bit */
	uint64_t last_status;
	uint64_t spurious;		/* PMIs that found no status bit */
	uint64_t loop_limited;		/* PMIs that hit PMI_LOOP_MAX */
	uint32_t lvt_at_entry;		/* LVTPC as the handler found it (mask bit set by delivery) */
};

/* Points the performance-counter LVT at vector (or NMI delivery), unmasked. */
void pmu_pmi_lvt_setup(unsigned vector, bool nmi);
/* Masks the LVT entry again. */
void pmu_pmi_lvt_mask(void);

/*
 * The handler's work, for the firmware's interrupt (or NMI) handler to call: reads
 * GLOBAL_STATUS, counts each overflow bit, acknowledges them through OVF_CTRL, repeats
 * while bits remain (at most PMI_LOOP_MAX times), unmasks the LVT entry the delivery
 * masked, and signals EOI unless delivered as NMI. Version-1 PMUs (no global status)
 * count the PMI only.
 */
void pmu_pmi_handle(const struct pmu_caps *p, struct pmi_stats *s, bool nmi);

#endif /* PMU_PMI_H */
