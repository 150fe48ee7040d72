/* SPDX-License-Identifier: MIT */
/* IA32_PERFEVTSELx encode/decode/validation and the architectural event table. */
#include "pmu/event.h"
#include "arch/x86/msr.h"
#include "lib/fmt.h"

const struct arch_event_desc arch_events[NR_ARCH_EVENTS] = {
	[ARCH_EVENT_CORE_CYCLES] = { "core_cycles", 0x3c, 0x00, 1 },
	[ARCH_EVENT_INSTRUCTIONS] = { "instructions", 0xc0, 0x00, 0 },
	[ARCH_EVENT_REF_CYCLES] = { "ref_cycles", 0x3c, 0x01, 2 },
	[ARCH_EVENT_LLC_REFERENCES] = { "llc_references", 0x2e, 0x4f, -1 },
	[ARCH_EVENT_LLC_MISSES] = { "llc_misses", 0x2e, 0x41, -1 },
	[ARCH_EVENT_BRANCHES] = { "branches", 0xc4, 0x00, -1 },
	[ARCH_EVENT_BRANCH_MISSES] = { "branch_misses", 0xc5, 0x00, -1 },
	[ARCH_EVENT_TOPDOWN_SLOTS] = { "topdown_slots", 0xa4, 0x01, 3 },
};

uint64_t pmu_evtsel_encode(const struct pmu_evtsel *e)
{
	return (uint64_t)e->event | (uint64_t)e->umask << 8 |
	       (e->usr ? ARCH_PERFMON_EVENTSEL_USR : 0) | (e->os ? ARCH_PERFMON_EVENTSEL_OS : 0) |
	       (e->edge ? ARCH_PERFMON_EVENTSEL_EDGE : 0) |
	       (e->pc ? ARCH_PERFMON_EVENTSEL_PIN_CONTROL : 0) |
	       (e->intr ? ARCH_PERFMON_EVENTSEL_INT : 0) | (e->any ? ARCH_PERFMON_EVENTSEL_ANY : 0) |
	       (e->en ? ARCH_PERFMON_EVENTSEL_ENABLE : 0) | (e->inv ? ARCH_PERFMON_EVENTSEL_INV : 0) |
	       (uint64_t)e->cmask << 24 | (e->adaptive ? ARCH_PERFMON_EVENTSEL_ADAPTIVE : 0);
}

void pmu_evtsel_decode(uint64_t v, struct pmu_evtsel *e)
{
	e->event = (uint8_t)(v & ARCH_PERFMON_EVENTSEL_EVENT);
	e->umask = (uint8_t)((v & ARCH_PERFMON_EVENTSEL_UMASK) >> 8);
	e->usr = v & ARCH_PERFMON_EVENTSEL_USR;
	e->os = v & ARCH_PERFMON_EVENTSEL_OS;
	e->edge = v & ARCH_PERFMON_EVENTSEL_EDGE;
	e->pc = v & ARCH_PERFMON_EVENTSEL_PIN_CONTROL;
	e->intr = v & ARCH_PERFMON_EVENTSEL_INT;
	e->any = v & ARCH_PERFMON_EVENTSEL_ANY;
	e->en = v & ARCH_PERFMON_EVENTSEL_ENABLE;
	e->inv = v & ARCH_PERFMON_EVENTSEL_INV;
	e->cmask = (uint8_t)((v & ARCH_PERFMON_EVENTSEL_CMASK) >> 24);
	e->adaptive = v & ARCH_PERFMON_EVENTSEL_ADAPTIVE;
}

uint64_t pmu_evtsel_reserved(const struct pmu_caps *p)
{
	/* Bits 63:32 are reserved in the architectural definition (model-specific uses such
	 * as Haswell's IN_TX/IN_TXCP are not architectural and not used here); AnyThread
	 * exists from version 3 on; bit 34 (adaptive record) with adaptive PEBS. */
	return (ARCH_PERFMON_EVENTSEL_RESERVED &
		~(p->dsc.pebs_baseline ? ARCH_PERFMON_EVENTSEL_ADAPTIVE : 0)) |
	       (p->version < 3 ? ARCH_PERFMON_EVENTSEL_ANY : 0);
}

int pmu_evtsel_check(const struct pmu_caps *p, uint64_t v, char *err, size_t errlen)
{
	uint64_t bad = v & pmu_evtsel_reserved(p);

	if (bad) {
		fmt_snprintf(err, errlen, "PERFEVTSEL value 0x%llx sets reserved bits 0x%llx "
			     "(PMU version %u)", (unsigned long long)v, (unsigned long long)bad,
			     p->version);
		return -1;
	}
	return 0;
}

int pmu_fixed_event(unsigned idx)
{
	for (int ev = 0; ev < NR_ARCH_EVENTS; ev++)
		if (arch_events[ev].fixed >= 0 && (unsigned)arch_events[ev].fixed == idx)
			return ev;
	return -1;
}

struct pmu_evtsel pmu_arch_evtsel(enum arch_event ev, bool usr, bool os)
{
	struct pmu_evtsel e = {
		.event = arch_events[ev].event,
		.umask = arch_events[ev].umask,
		.usr = usr,
		.os = os,
		.en = true,
	};

	return e;
}
