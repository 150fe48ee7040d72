/* SPDX-License-Identifier: MIT */
/* Slot addressing for the PMU measurement frame. */
#include "pmu/frame.h"
#include "lib/oracle_tag.h"
#include "arch/x86/msr.h"

#define PMU_FRAME_SLOT_SIZE	128

extern char pmu_frame_slots[], pmu_frame_slot0_call[], pmu_frame_slot0_return[];
extern char pmu_frame_slot0_tail1[], pmu_frame_slot0_tail2[], pmu_frame_slot0_tail3[];
extern char pmu_frame_slot0_end[];

typedef void (*slot_fn)(pmu_workload_fn w, uint64_t n, void *arg, uint64_t enable,
			uint32_t msr);

void pmu_frame_run_msr(unsigned slot, pmu_workload_fn w, uint64_t n, void *arg, uint32_t msr,
		       uint64_t enable)
{
	slot_fn f = (slot_fn)(uintptr_t)(pmu_frame_slots +
		PMU_FRAME_SLOT_SIZE * (slot % ORACLE_MAX_REGIONS));

	f(w, n, arg, enable, msr);
}

void pmu_frame_run(unsigned slot, pmu_workload_fn w, uint64_t n, void *arg, uint64_t enable)
{
	pmu_frame_run_msr(slot, w, n, arg, MSR_CORE_PERF_GLOBAL_CTRL, enable);
}

uint64_t pmu_frame_call_site(unsigned slot)
{
	return (uint64_t)(uintptr_t)pmu_frame_slot0_call +
	       PMU_FRAME_SLOT_SIZE * (slot % ORACLE_MAX_REGIONS);
}

uint64_t pmu_frame_return_site(unsigned slot)
{
	return (uint64_t)(uintptr_t)pmu_frame_slot0_return +
	       PMU_FRAME_SLOT_SIZE * (slot % ORACLE_MAX_REGIONS);
}

uint64_t pmu_frame_tail_site(unsigned slot, unsigned i)
{
	static char *const tail[PMU_FRAME_TAIL_INSNS] = {
		pmu_frame_slot0_return, pmu_frame_slot0_tail1, pmu_frame_slot0_tail2,
		pmu_frame_slot0_tail3,
	};

	if (i >= PMU_FRAME_TAIL_INSNS)
		return 0;
	return (uint64_t)(uintptr_t)tail[i] + PMU_FRAME_SLOT_SIZE * (slot % ORACLE_MAX_REGIONS);
}

uint64_t pmu_frame_end_site(unsigned slot)
{
	return (uint64_t)(uintptr_t)pmu_frame_slot0_end +
	       PMU_FRAME_SLOT_SIZE * (slot % ORACLE_MAX_REGIONS);
}
