/* SPDX-License-Identifier: MIT */
/* A check's PMIs: routed as the option pmi= says, acknowledged into the check's statistics. */
#ifndef TESTS_MEASURE_PMI_H
#define TESTS_MEASURE_PMI_H

#include <stdint.h>
#include "arch/x86/trap.h"
#include "pmu/pmi.h"

/* PMI_SKID_MAX, the skid pmuboot allows: pmu/pmi.h. */

/* Routes PMIs (pmi=interrupt: the PMI vector; pmi=nmi: the NMI) to a handler that
 * acknowledges each through pmu_pmi_handle() into *st, and points the LVT entry there. */
void pmi_route(struct pmi_stats *st);
/* Interrupts that handler has taken into *st, of every kind. */
uint64_t pmi_handled(const struct pmi_stats *st);
/* Undoes pmi_route(): every counter stopped first, then a PMI still waiting in the IRR is
 * taken by the handler (counted in *st), then the handler goes. Returns how many were
 * waiting (one still pending after the drain counts too). */
unsigned pmi_unroute(struct pmi_stats *st);
/* With interrupts on for up to 10 ms, lets a PMI requested inside the frame arrive: until
 * st->pmis reaches want. */
void pmi_wait(const struct pmi_stats *st, uint64_t want);

/* A check's own NMI handler for its PMIs, whatever pmi= says (a PMI that must interrupt
 * the kernel where it lands, IF or not): the handler on the NMI, the LVT entry at NMI. */
void pmi_route_nmi(void (*handler)(struct trap_frame *f));
/* Undoes pmi_route_nmi(): every counter stopped first (a PMI still waiting is taken by the
 * check's handler), then the handler goes. */
void pmi_unroute_nmi(void);

#endif /* TESTS_MEASURE_PMI_H */
