/* SPDX-License-Identifier: MIT */
/* Routing a check's PMIs (pmi=interrupt|nmi) and waiting for them. */
#include "tests/measure/pmi.h"
#include "arch/x86/apic.h"
#include "arch/x86/io.h"
#include "arch/x86/trap.h"
#include "arch/x86/tsc.h"
#include "pmu/pmu.h"
#include "tests/harness/env.h"

static struct pmi_stats *routed;

static void pmi_irq(struct trap_frame *f)
{
	(void)f;
	pmu_pmi_handle(&pmu, routed, env.pmi_nmi);
}

static unsigned pmi_vector(void)
{
	return env.pmi_nmi ? X86_TRAP_NMI : VECTOR_PMI;
}

void pmi_route(struct pmi_stats *st)
{
	routed = st;
	trap_set_handler(pmi_vector(), pmi_irq);
	pmu_pmi_lvt_setup(VECTOR_PMI, env.pmi_nmi);
}

uint64_t pmi_handled(const struct pmi_stats *st)
{
	return st->pmis + st->spurious + st->not_pmi;
}

unsigned pmi_unroute(struct pmi_stats *st)
{
	uint64_t before = pmi_handled(st);
	bool pending = false;

	pmu_quiesce(&pmu, VECTOR_PMI, &pending);
	trap_set_handler(pmi_vector(), 0);
	return (unsigned)(pmi_handled(st) - before) + pending;
}

void pmi_wait(const struct pmi_stats *st, uint64_t want)
{
	uint64_t t0 = rdtsc();

	irq_enable();
	while (st->pmis < want && rdtsc() - t0 < tsc_from_us(10000))
		cpu_relax();
	irq_disable();
}

void pmi_route_nmi(void (*handler)(struct trap_frame *f))
{
	trap_set_handler(X86_TRAP_NMI, handler);
	pmu_pmi_lvt_setup(0, true);
}

void pmi_unroute_nmi(void)
{
	pmu_quiesce(&pmu, VECTOR_PMI, NULL);
	trap_set_handler(X86_TRAP_NMI, 0);
}
