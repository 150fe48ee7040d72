/* SPDX-License-Identifier: MIT */
/*
 * Per-CPU state, reached through GS base (this_cpu()): entry 0 is the bootstrap
 * processor's, the others the APs' (arch/x86/smp.c): descriptors, fault and watchdog
 * bookkeeping, interrupt counters.
 */
#ifndef ARCH_X86_PERCPU_H
#define ARCH_X86_PERCPU_H

#include <stdint.h>
#include "arch/x86/desc.h"

#define MAX_CPUS	64
#define NR_VECTORS	256

/* Callee-saved state captured by recover_set() (arch/x86/entry.S); offsets used there. */
struct recover_point {
	uint64_t rbx, rbp, r12, r13, r14, r15;
	uint64_t rsp;		/* stack pointer after recover_set() returns */
	uint64_t rip;		/* its return address */
	uint64_t rflags;	/* flags when it was called (IF restored on resume) */
	uint64_t cs, ss;	/* its code and stack selectors (a resume from CPL 3 needs them) */
};

struct percpu {
	struct percpu *self;		/* offset 0: this_cpu() reads %gs:0 */
	unsigned index;
	uint32_t apic_id;

	/* Exception-table fixups (rdmsr_safe & co.): vector and error code of the last fault. */
	volatile int ex_vector;
	volatile uint64_t ex_error;

	/* probe_call(): innermost recovery point, and what the last probe saw. */
	struct recover_point *probe_rp;
	uint64_t probe_error;		/* error code pushed by the probed fault */
	uint64_t probe_rip;		/* RIP of the probed fault */

	/* Watchdog: the guarded check's recovery point; armed while its timer runs. */
	struct recover_point *guard_rp;
	volatile int guard_armed;
	volatile uint64_t guard_fired_tsc;
	uint64_t guard_deadline;		/* TSC at which the guarded check is stopped */

	/* Interrupt accounting. */
	uint64_t unexpected[NR_VECTORS];	/* vectors that arrived with no handler */
	uint64_t spurious;
	uint64_t apic_errors;		/* APIC error interrupts (VECTOR_APIC_ERROR) */
	uint32_t apic_esr;		/* ... the ESR bits they reported, ORed */
	unsigned trap_depth;			/* nesting of trap_dispatch */

	/* Giving the CPU up (arch/x86/smp.c): the BSP asks, by NMI, for its PMU to be stopped
	 * before the INIT; the CPU answers and stays in the NMI handler until the INIT. */
	volatile int quiesce_req, quiesce_done;

	/* User mode (arch/x86/user.c): the value the CPL-3 function returned; while pmuboot's
	 * own tables are loaded (a user call, own_tables_call), the CR3 and CR4 to put back. */
	uint64_t user_ret;
	bool tables_on;
	uint64_t tables_cr3, tables_cr4;

	struct cpu_desc desc;			/* GDT and TSS (IDT is shared) */
};

extern struct percpu percpu_table[MAX_CPUS];

static inline struct percpu *this_cpu(void)
{
	struct percpu *p;
	asm volatile("movq %%gs:0, %0" : "=r"(p));
	return p;
}

/* Points GS base at cpu's block (saving the old base for percpu_restore). */
void percpu_install(struct percpu *cpu);
void percpu_restore(void);

#endif /* ARCH_X86_PERCPU_H */
