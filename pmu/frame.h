/* SPDX-License-Identifier: MIT */
/* The PMU measurement frame (pmu/frame_slots.S): counting enabled through GLOBAL_CTRL around one
 * call of a workload, with the fewest instructions inside the window. */
#ifndef PMU_FRAME_H
#define PMU_FRAME_H

#include <stdint.h>

typedef void (*pmu_workload_fn)(uint64_t n, void *arg);

/* Instructions the frame adds inside the counted window (CALL, MOV, XOR, XOR). */
#define PMU_FRAME_INSNS		4
/* Of those, the ones before the workload's first instruction: the CALL. */
#define PMU_FRAME_HEAD_INSNS	1
/* Instructions of the frame inside its oracle region: the window's 4 and both WRMSRs. */
#define PMU_FRAME_REGION_INSNS	6

/* Runs w(n, arg) in slot `slot` (0..255) with IA32_PERF_GLOBAL_CTRL = enable during it and
 * 0 after. Interrupts must be disabled; GLOBAL_CTRL must exist (PMU version 2+). */
void pmu_frame_run(unsigned slot, pmu_workload_fn w, uint64_t n, void *arg, uint64_t enable);
/* The same frame around another MSR: msr = enable before the call, 0 after it (DEBUGCTL with
 * LBR set, IA32_LBR_CTL, IA32_PEBS_ENABLE, ...). The counted window is the same. */
void pmu_frame_run_msr(unsigned slot, pmu_workload_fn w, uint64_t n, void *arg, uint32_t msr,
		       uint64_t enable);
/* The slot's CALL and the return address it pushes (for predicted branch records). */
uint64_t pmu_frame_call_site(unsigned slot);
uint64_t pmu_frame_return_site(unsigned slot);
/* The instructions after the workload returns, in order: MOV ecx (the MSR), XOR eax, XOR
 * edx (inside the window), then the closing WRMSR (i = 3). Their addresses in the slot, 0
 * for i past them; i = 0 is the return site. */
#define PMU_FRAME_TAIL_INSNS	4
uint64_t pmu_frame_tail_site(unsigned slot, unsigned i);
/* The instruction after the closing WRMSR (outside the window). */
uint64_t pmu_frame_end_site(unsigned slot);

#endif /* PMU_FRAME_H */
