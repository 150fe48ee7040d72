/* SPDX-License-Identifier: MIT */
/*
 * Running code at CPL 3: kernels for USR/OS counting checks, and probes that must fault
 * there. pmuboot's own identity-mapped, user-accessible page tables are loaded only for
 * the duration of a call; an exception at CPL 3 unwinds back to the caller.
 */
#ifndef ARCH_X86_USER_H
#define ARCH_X86_USER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VECTOR_USER_EXIT	0x80	/* INT from CPL 3 ending a user call (gate DPL 3) */
#define USER_STACK_SIZE		(64u << 10)

typedef uint64_t (*user_fn)(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3);

/*
 * Makes user calls possible (exit mode only): page tables at cr3 (from
 * paging_build_identity), a user stack, the exit gate. Records why not otherwise.
 */
void user_setup(uint64_t cr3, uint64_t stack, uint64_t stack_size);
/* PAGING_SPLIT_SPARE pages for own_tables_split_4k(), once user_setup() ran. */
void user_setup_spare(uint64_t spare);

/*
 * pmuboot's own tables at CPL 0, for checks that need known page sizes (issue 21 item 10):
 * own_tables_split_4k() maps [start, end) by 4 KiB pages there (0, or -1 when not in exit
 * mode or out of spare pages: own_tables_unavailable() says why); own_tables_call() runs
 * fn(arg) with them loaded (SMEP/SMAP off: every page is user-accessible) and the
 * firmware's put back after. Interrupts are as the caller has them.
 */
int own_tables_split_4k(uint64_t start, uint64_t end);
const char *own_tables_unavailable(void);
void own_tables_call(void (*fn)(void *), void *arg);
/* Where a check was stopped with pmuboot's tables loaded (in a user call or own_tables_call:
 * the watchdog, a fault outside their recovery), puts this CPU's CR3 and CR4 back as they
 * were before; true if it had to. */
bool tables_reset(void);
/* NULL when user calls work, else why not. */
const char *user_unavailable(void);

/*
 * Runs fn(a0, a1, a2, a3) at CPL 3 with interrupts disabled and CR4.PCE as `pce` asks.
 * Returns FAULT_NONE with fn's return value in *ret, or the vector of the exception fn
 * raised (and nothing in *ret).
 */
int user_call(user_fn fn, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, bool pce,
	      uint64_t *ret);

/* Called by trap_dispatch on entry from CPL 3. */
void user_restore_gs(void);

/* CPL-3 probes (arch/x86/entry.S). */
uint64_t user_probe_cli(uint64_t, uint64_t, uint64_t, uint64_t);
uint64_t user_probe_rdpmc0(uint64_t, uint64_t, uint64_t, uint64_t);
uint64_t user_probe_hlt(uint64_t, uint64_t, uint64_t, uint64_t);
/* Raises #UD as the first thing a user call runs at CPL 3: before it, the IRETQ into CPL 3
 * (where it counts there) and 1 instruction and 1 branch (the trampoline's CALL) retired at
 * CPL 3; its delivery returns to CPL 0, where counters can be read without RDPMC's
 * ordering questions. */
#define USER_PROBE_IRET_INSNS		1
#define USER_PROBE_IRET_BRANCHES	1
uint64_t user_probe_iret(uint64_t, uint64_t, uint64_t, uint64_t);

#endif /* ARCH_X86_USER_H */
