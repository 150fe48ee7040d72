/* SPDX-License-Identifier: MIT */
/* Exception and interrupt dispatch: handlers, fault fixups, probes, fatal-fault reports. */
#ifndef ARCH_X86_TRAP_H
#define ARCH_X86_TRAP_H

#include <stdint.h>
#include "arch/x86/percpu.h"

/* Exception vectors (SDM Vol. 3A Table 6-1). */
#define X86_TRAP_DE	0	/* divide error */
#define X86_TRAP_DB	1
#define X86_TRAP_NMI	2
#define X86_TRAP_BP	3
#define X86_TRAP_OF	4
#define X86_TRAP_BR	5
#define X86_TRAP_UD	6	/* invalid opcode */
#define X86_TRAP_NM	7
#define X86_TRAP_DF	8	/* double fault */
#define X86_TRAP_TS	10
#define X86_TRAP_NP	11
#define X86_TRAP_SS	12	/* stack-segment fault (non-canonical stack access) */
#define X86_TRAP_GP	13	/* general protection */
#define X86_TRAP_PF	14
#define X86_TRAP_MF	16
#define X86_TRAP_AC	17
#define X86_TRAP_MC	18
#define X86_TRAP_XM	19
#define X86_TRAP_VE	20
#define X86_TRAP_CP	21
#define NR_EXCEPTIONS	32

/* Vectors pmuboot owns (priority class = vector >> 4; the watchdog outranks the PMI). */
#define VECTOR_PMI		0xf0	/* performance-counter LVT; the self-IPI check uses it */
#define VECTOR_SMP_WAKE		0xfc	/* IPI: an AP has work (arch/x86/smp.c) */
#define VECTOR_WATCHDOG		0xfd	/* local APIC timer one-shot */
#define VECTOR_APIC_ERROR	0xfe
#define VECTOR_SPURIOUS		0xff

/* Saved by arch/x86/entry.S, lowest address first. */
struct trap_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error_code;
	uint64_t rip, cs, rflags, rsp, ss;	/* pushed by the CPU */
};
_Static_assert(sizeof(struct trap_frame) == 22 * 8, "must match entry.S");

typedef void (*irq_handler_fn)(struct trap_frame *f);

/* Installs a handler for an interrupt vector (>= 32, or NMI). NULL removes it. */
void trap_set_handler(unsigned vector, irq_handler_fn fn);

/* Called once the run's output path exists: prints and ends the run on a fatal fault. */
typedef void (*trap_fatal_fn)(const struct trap_frame *f) __attribute__((noreturn));
void trap_set_fatal_hook(trap_fatal_fn fn);

/* Register dump of a frame, one "# " diagnostic line each, through print(). */
void trap_dump(const struct trap_frame *f, void (*print)(const char *line));
const char *trap_name(unsigned vector);

/*
 * Exception table: an instruction at `insn` that faults resumes at `fixup`, with the vector
 * and error code recorded in this_cpu()->ex_vector / ex_error. Entries are 32-bit
 * self-relative offsets, so the table needs no relocation.
 */
#define EX_TABLE_ENTRY(insn, fixup)				\
	".pushsection ex_table, \"a\"\n\t"			\
	".balign 4\n\t"						\
	".long (" #insn ") - .\n\t"				\
	".long (" #fixup ") - .\n\t"				\
	".popsection\n\t"

#define FAULT_NONE	(-1)

/* int recover_set(struct recover_point *rp): see entry.S. */
int recover_set(struct recover_point *rp) __attribute__((returns_twice));
/* Makes recover_set(rp) return code again, from ordinary code. */
void recover_jump(const struct recover_point *rp, int code) __attribute__((noreturn));
/* Runs fn(arg) on the stack ending at stack_top; fn must not return. */
void call_on_stack(void *stack_top, void (*fn)(void *), void *arg) __attribute__((noreturn));
/* The same, returning to the caller's stack when fn returns. */
void call_on_stack_return(void *stack_top, void (*fn)(void *), void *arg);
/* Makes the interrupted context of f continue as a return from recover_set(rp) == code. */
void recover_resume(struct trap_frame *f, const struct recover_point *rp, int code);

/*
 * Runs fn(arg); an exception it raises (any vector but NMI) unwinds back here. Returns
 * FAULT_NONE, or the vector; this_cpu()->probe_error / probe_rip tell the rest.
 */
int probe_call(void (*fn)(void *), void *arg);

/* Executes `ud2` / reads a non-canonical address under probe_call (for checks). */
void probe_ud2(void *unused);
void probe_noncanonical_read(void *unused);

#endif /* ARCH_X86_TRAP_H */
