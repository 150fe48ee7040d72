/* SPDX-License-Identifier: MIT */
/* CPL-3 calls: IRETQ in through the trampoline, INT VECTOR_USER_EXIT (or a fault) back out. */
#include "arch/x86/user.h"
#include "arch/x86/desc.h"
#include "arch/x86/io.h"
#include "arch/x86/msr.h"
#include "arch/x86/paging.h"
#include "arch/x86/percpu.h"
#include "arch/x86/trap.h"


#define USER_DONE	0x1000	/* recover code for a normal return; fault vectors are < 256 */

void enter_user(user_fn fn, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
		uint64_t stack_top) __attribute__((noreturn));

static uint64_t user_cr3, user_stack_top, split_spare;
static unsigned split_left;
static const char *why_not = "user mode needs boot-services=exit (pmuboot's GDT, TSS and page "
			     "tables), and RAM below 512 GiB";
static struct percpu *user_owner;

static void user_exit_irq(struct trap_frame *f)
{
	struct percpu *c = this_cpu();
	struct recover_point *rp = c->probe_rp;

	if (!(f->cs & 3) || !rp) {
		c->unexpected[VECTOR_USER_EXIT]++;	/* not from a user call */
		return;
	}
	c->user_ret = f->rax;
	c->probe_rp = 0;
	recover_resume(f, rp, USER_DONE);
}

void user_setup(uint64_t cr3, uint64_t stack, uint64_t stack_size)
{
	if (read_cr4() & X86_CR4_LA57) {
		why_not = "5-level paging is on: pmuboot's 4-level user tables cannot replace it";
		return;
	}
	if (!cr3 || !stack) {
		why_not = "no memory for user page tables or stack";
		return;
	}
	user_cr3 = cr3;
	user_stack_top = (stack + stack_size) & ~15ULL;
	desc_set_user_gate(VECTOR_USER_EXIT);
	trap_set_handler(VECTOR_USER_EXIT, user_exit_irq);
	why_not = 0;
}

const char *user_unavailable(void)
{
	return why_not;
}

void user_setup_spare(uint64_t spare)
{
	split_spare = spare;
	split_left = spare ? PAGING_SPLIT_SPARE : 0;
}

const char *own_tables_unavailable(void)
{
	if (why_not)
		return why_not;
	return split_spare ? NULL : "no memory was reserved for splitting pmuboot's tables";
}

int own_tables_split_4k(uint64_t start, uint64_t end)
{
	if (own_tables_unavailable())
		return -1;
	for (uint64_t a = start & ~((2ULL << 20) - 1); a < end; a += 2ULL << 20)
		if (paging_split_4k(user_cr3, a, &split_spare, &split_left))
			return -1;
	return 0;
}

/* Loads pmuboot's tables with SMEP/SMAP off (every page of them is user-accessible:
 * supervisor execution and data access protection would fault pmuboot itself), and
 * whatever else of CR4 is set in cr4_set and not in cr4_clear; tables_leave() undoes it.
 * The outermost caller's CR3/CR4 are kept in this CPU's percpu, so a check stopped inside
 * (a fault outside a recovery point, the watchdog) has them put back by tables_reset(). */
static void tables_enter(uint64_t cr4_set, uint64_t cr4_clear)
{
	struct percpu *c = this_cpu();
	uint64_t cr4 = read_cr4();

	if (!c->tables_on) {
		c->tables_cr3 = read_cr3();
		c->tables_cr4 = cr4;
	}
	write_cr4(((cr4 & ~(uint64_t)(X86_CR4_SMEP | X86_CR4_SMAP)) | cr4_set) & ~cr4_clear);
	asm volatile("mov %0, %%cr3" : : "r"(user_cr3) : "memory");
	c->tables_on = true;
}

static void tables_leave(uint64_t cr3, uint64_t cr4, bool outer)
{
	asm volatile("mov %0, %%cr3" : : "r"(cr3) : "memory");
	write_cr4(cr4);
	if (outer)
		this_cpu()->tables_on = false;
}

bool tables_reset(void)
{
	struct percpu *c = this_cpu();

	if (!c->tables_on)
		return false;
	tables_leave(c->tables_cr3, c->tables_cr4, true);
	return true;
}

void own_tables_call(void (*fn)(void *), void *arg)
{
	uint64_t cr3 = read_cr3(), cr4 = read_cr4();
	bool outer = !this_cpu()->tables_on;

	tables_enter(0, 0);
	fn(arg);
	tables_leave(cr3, cr4, outer);
}

void user_restore_gs(void)
{
	if (user_owner)
		wrmsr(MSR_GS_BASE, (uint64_t)(uintptr_t)user_owner);
}

int user_call(user_fn fn, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, bool pce,
	      uint64_t *ret)
{
	struct percpu *c = this_cpu();
	struct recover_point rp;
	struct recover_point *outer_rp = c->probe_rp;
	uint64_t flags, cr3, cr4;
	volatile int code;
	bool outer;

	if (why_not)
		return X86_TRAP_GP;
	flags = irq_save();
	cr3 = read_cr3();
	cr4 = read_cr4();
	outer = !c->tables_on;
	tables_enter(pce ? X86_CR4_PCE : 0, pce ? 0 : X86_CR4_PCE);
	user_owner = c;
	code = recover_set(&rp);
	if (code == 0) {
		c->probe_rp = &rp;
		enter_user(fn, a0, a1, a2, a3, user_stack_top);
	}
	c->probe_rp = outer_rp;
	tables_leave(cr3, cr4, outer);
	irq_restore(flags);
	if (code == USER_DONE) {
		*ret = c->user_ret;
		return FAULT_NONE;
	}
	return code - 1;
}
