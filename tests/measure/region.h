/* SPDX-License-Identifier: MIT */
/* Running a kernel in the measurement frame, and telling the reference oracle what the
 * model predicts for that region. */
#ifndef TESTS_MEASURE_REGION_H
#define TESTS_MEASURE_REGION_H

#include <stdint.h>
#include "tests/kernels/kernels.h"

/* Which measurement frame a region ran in. */
enum frame_kind {
	FRAME_TSC,		/* tests/kernels/frame.S: RDTSC around the call */
	FRAME_PMU,		/* pmu/frame.S: GLOBAL_CTRL on and off around the call */
};

struct region {
	unsigned id;		/* frame slot = oracle region id */
	unsigned seq;		/* how many times that id was used before on this CPU */
	unsigned vcpu;		/* APIC ID of the CPU that ran it (QEMU's vCPU index under
				 * -smp N, which the oracle reports) */
	uint64_t tsc;		/* TSC delta across the frame (FRAME_TSC), or across the
				 * call of the PMU frame (FRAME_PMU) */
};

/*
 * Runs k->fn(n, arg) once in the next frame slot with interrupts disabled. With the
 * oracle option, prints the region's predicted counts (frame part + kernel model) on a
 * "# oracle: region ..." line after the measurement.
 */
struct region measure_kernel(const struct kernel_desc *k, uint64_t n, void *arg);

/* Set while regions run on two CPUs at once (cross-core kernels): their predictions say
 * concurrent=1, and the oracle does not hold their TSC to the frame overhead (under
 * -icount every vCPU's instructions advance the clock). */
extern volatile bool measure_concurrent;

/*
 * Runs k->fn(n, arg) once in the next PMU frame slot with GLOBAL_CTRL = enable during it,
 * interrupts disabled; prints the oracle prediction like measure_kernel(). The caller has
 * programmed the counters; GLOBAL_CTRL must exist.
 */
struct region measure_kernel_pmu(const struct kernel_desc *k, uint64_t n, void *arg,
				 uint64_t enable);

/* measure_kernel_pmu() with the frame writing msr (enable before the call, 0 after). */
struct region measure_kernel_msr(const struct kernel_desc *k, uint64_t n, void *arg, uint32_t msr,
				 uint64_t enable);

/*
 * The same run without the frame: GLOBAL_CTRL = enable around a direct call of k->fn(n, arg),
 * interrupts disabled, no oracle region (id and seq 0, nothing printed). For runs an NMI
 * handler enters: the oracle predicts a region's kernel code only.
 */
struct region measure_kernel_pmu_unframed(const struct kernel_desc *k, uint64_t n, void *arg,
					  uint64_t enable);

/* measure_kernel_msr() without the frame, as measure_kernel_pmu_unframed(): msr = enable
 * around a direct call, interrupts disabled, no oracle region. For a run that an NMI
 * enters (the BTS threshold interrupt). */
struct region measure_kernel_msr_unframed(const struct kernel_desc *k, uint64_t n, void *arg,
					  uint32_t msr, uint64_t enable);

/*
 * measure_kernel() at CPL 3 (arch/x86/user.h): the TSC frame and the kernel run in user
 * mode. Returns the user call's fault vector (FAULT_NONE on success) in *fault.
 */
struct region measure_kernel_user(const struct kernel_desc *k, uint64_t n, void *arg, int *fault);

/* The whole region's prediction: the frame's part plus the kernel's model. */
void region_predict(const struct kernel_desc *k, uint64_t n, const void *arg, unsigned slot,
		    struct exec_counts *c);
void region_predict_frame(enum frame_kind f, const struct kernel_desc *k, uint64_t n,
			  const void *arg, unsigned slot, struct exec_counts *c);


/* Bytes of this CPU's cache at `level` (1 data, 2, 3) from CPUID leaf 4, 0 if none. */
uint64_t cpu_cache_bytes(unsigned level);

/*
 * With the oracle option, prints what the PMU counted in region r's window:
 * "# oracle: pmu id=I seq=S insns=A branches=B" (instructions and branches retired at CPL
 * 0), for the host harness to hold against what QEMU executed in the region.
 */
void measure_note_pmu(const struct region *r, uint64_t insns, uint64_t branches);

/*
 * The PMU frame's window holds the workload, its CALL, MOV, XOR, XOR (PMU_FRAME_INSNS) and,
 * by the CPU's own rule, none, one or both of the WRMSRs that open and close it (Intel
 * counts the closing one): *w, found once from loop4 at n = 1 and n = 2 (two runs of
 * pmu_count_insns_branches) and then held. 0, or an error (a run failed, or the excess is
 * not 0-2 or not the same at both sizes).
 */
int pmu_frame_wrmsrs(int *w, char *err, size_t errlen);

#endif /* TESTS_MEASURE_REGION_H */
