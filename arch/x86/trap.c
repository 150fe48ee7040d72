/* SPDX-License-Identifier: MIT */
/* Trap dispatch: fixups, probes, interrupt handlers, unexpected-interrupt accounting, fatal faults. */
#include "arch/x86/trap.h"
#include "arch/x86/apic.h"
#include "arch/x86/io.h"
#include "arch/x86/msr.h"
#include "arch/x86/smp.h"
#include "arch/x86/user.h"
#include "lib/fmt.h"
#include "lib/string.h"

struct ex_entry {
	int32_t insn;
	int32_t fixup;
};

/* Provided by linker/pmuboot.lds. */
extern const struct ex_entry __start_ex_table[], __stop_ex_table[];
extern char ImageBase[];

static irq_handler_fn handlers[NR_VECTORS];
static trap_fatal_fn fatal_hook;

void trap_set_handler(unsigned vector, irq_handler_fn fn)
{
	if (vector < NR_VECTORS)
		handlers[vector] = fn;
}

void trap_set_fatal_hook(trap_fatal_fn fn)
{
	fatal_hook = fn;
}

static const char *const names[NR_EXCEPTIONS] = {
	"#DE divide error", "#DB debug", "NMI", "#BP breakpoint", "#OF overflow",
	"#BR bound range", "#UD invalid opcode", "#NM device not available",
	"#DF double fault", "coprocessor segment overrun", "#TS invalid TSS",
	"#NP segment not present", "#SS stack fault", "#GP general protection",
	"#PF page fault", "reserved 15", "#MF x87 error", "#AC alignment check",
	"#MC machine check", "#XM SIMD exception", "#VE virtualization exception",
	"#CP control protection", "reserved 22", "reserved 23", "reserved 24",
	"reserved 25", "reserved 26", "reserved 27", "#HV hypervisor injection",
	"#VC VMM communication", "#SX security exception", "reserved 31",
};

const char *trap_name(unsigned vector)
{
	if (vector < NR_EXCEPTIONS)
		return names[vector];
	return vector == VECTOR_SPURIOUS ? "spurious" : "interrupt";
}

static uint64_t ex_fixup_for(uint64_t rip)
{
	for (const struct ex_entry *e = __start_ex_table; e < __stop_ex_table; e++) {
		uint64_t insn = (uint64_t)(uintptr_t)&e->insn + (int64_t)e->insn;

		if (insn == rip)
			return (uint64_t)(uintptr_t)&e->fixup + (int64_t)e->fixup;
	}
	return 0;
}

void recover_resume(struct trap_frame *f, const struct recover_point *rp, int code)
{
	f->rbx = rp->rbx;
	f->rbp = rp->rbp;
	f->r12 = rp->r12;
	f->r13 = rp->r13;
	f->r14 = rp->r14;
	f->r15 = rp->r15;
	f->rsp = rp->rsp;
	f->rip = rp->rip;
	f->rflags = rp->rflags & ~(uint64_t)X86_EFLAGS_DF;
	f->cs = rp->cs;		/* back at the recovery point's privilege, from CPL 3 too */
	f->ss = rp->ss;
	f->rax = (uint64_t)(int64_t)code;
}

void trap_dump(const struct trap_frame *f, void (*print)(const char *line))
{
	char b[160];
	uint64_t base = (uint64_t)(uintptr_t)ImageBase;

	fmt_snprintf(b, sizeof(b), "vector %lu (%s) error code 0x%lx",
		     (unsigned long)f->vector, trap_name((unsigned)f->vector),
		     (unsigned long)f->error_code);
	print(b);
	fmt_snprintf(b, sizeof(b), "RIP %016lx (pmuboot.efi+0x%lx)  CS %04lx  RFLAGS %016lx",
		     (unsigned long)f->rip, (unsigned long)(f->rip - base),
		     (unsigned long)f->cs, (unsigned long)f->rflags);
	print(b);
	fmt_snprintf(b, sizeof(b), "RSP %016lx  SS %04lx  CR2 %016lx  CR3 %016lx",
		     (unsigned long)f->rsp, (unsigned long)f->ss,
		     (unsigned long)read_cr2(), (unsigned long)read_cr3());
	print(b);
#define R3(a, b_, c) fmt_snprintf(b, sizeof(b), "%-3s %016lx  %-3s %016lx  %-3s %016lx", \
	#a, (unsigned long)f->a, #b_, (unsigned long)f->b_, #c, (unsigned long)f->c); print(b)
	R3(rax, rbx, rcx);
	R3(rdx, rsi, rdi);
	R3(rbp, r8, r9);
	R3(r10, r11, r12);
	R3(r13, r14, r15);
#undef R3
	fmt_snprintf(b, sizeof(b), "CR0 %016lx  CR4 %016lx",
		     (unsigned long)read_cr0(), (unsigned long)read_cr4());
	print(b);
	/* Frame-pointer backtrace (the firmware is built with -fno-omit-frame-pointer). Only
	 * frames inside the image are followed, at most 8. */
	uint64_t rbp = f->rbp;
	for (int i = 0; i < 8 && rbp >= 0x1000 && !(rbp & 7); i++) {
		uint64_t ret = ((uint64_t *)(uintptr_t)rbp)[1];

		if (ret < base || ret - base > (64ULL << 20))
			break;
		fmt_snprintf(b, sizeof(b), "called from pmuboot.efi+0x%lx", (unsigned long)(ret - base));
		print(b);
		rbp = ((uint64_t *)(uintptr_t)rbp)[0];
	}
}

static void __attribute__((noreturn)) trap_fatal(struct trap_frame *f)
{
	struct percpu *c = this_cpu();

	if (fatal_hook && c->trap_depth <= 2)
		fatal_hook(f);
	/* No output path yet, or a fault while reporting a fault: stop here. */
	for (;;) {
		irq_disable();
		hlt();
	}
}

void trap_dispatch(struct trap_frame *f)
{
	struct percpu *c;
	unsigned v = (unsigned)f->vector;

	/* From CPL 3 the GS base may not be ours any more (IRET to CPL 3 nulls GS, and a null
	 * selector clears the base on some CPUs): restore it before this_cpu(). */
	if (f->cs & 3)
		user_restore_gs();
	c = this_cpu();

	c->trap_depth++;
	if (v == X86_TRAP_NMI && c->quiesce_req)
		smp_quiesce_self();	/* the BSP is giving this CPU up */
	if (v < NR_EXCEPTIONS && v != X86_TRAP_NMI) {
		uint64_t fixup = ex_fixup_for(f->rip);

		if (fixup) {
			c->ex_vector = (int)v;
			c->ex_error = f->error_code;
			f->rip = fixup;
		} else if (c->probe_rp && v != X86_TRAP_DF && v != X86_TRAP_MC) {
			struct recover_point *rp = c->probe_rp;

			c->probe_rp = 0;
			c->probe_error = f->error_code;
			c->probe_rip = f->rip;
			recover_resume(f, rp, (int)v + 1);
		} else {
			trap_fatal(f);
		}
	} else if (handlers[v]) {
		handlers[v](f);
	} else if (v == VECTOR_SPURIOUS) {
		c->spurious++;		/* no EOI for a spurious interrupt (SDM 10.9) */
	} else if (v == VECTOR_APIC_ERROR) {
		/* SDM Vol. 3A 10.5.3: a write to the ESR loads it with the errors seen since
		 * the last write; then it can be read. Counted with its bits, for a result. */
		c->apic_errors++;
		c->apic_esr |= apic_read_esr();
		apic_eoi_if_in_service(v);	/* not for an INT 0FEH, which sets no ISR bit */
	} else {
		c->unexpected[v]++;
		if (v >= NR_EXCEPTIONS)
			apic_eoi_if_in_service(v);
	}
	c->trap_depth--;
}

int probe_call(void (*fn)(void *), void *arg)
{
	struct percpu *c = this_cpu();
	struct recover_point rp;
	struct recover_point *outer = c->probe_rp;
	int code;

	code = recover_set(&rp);
	if (code == 0) {
		c->probe_rp = &rp;
		fn(arg);
		c->probe_rp = outer;
		return FAULT_NONE;
	}
	c->probe_rp = outer;
	return code - 1;
}

void probe_ud2(void *unused)
{
	(void)unused;
	asm volatile("ud2" ::: "memory");
}

void probe_noncanonical_read(void *unused)
{
	(void)unused;
	/* Bits 63 and 47 set, 62:48 clear: non-canonical under both 48-bit and 57-bit linear
	 * addresses (bits 63:47, resp. 63:56, differ), so the load raises #GP(0). */
	volatile uint64_t *p = (volatile uint64_t *)(uintptr_t)0x8000800000000000ULL;
	(void)*p;
}

int rdmsr_safe(uint32_t msr, uint64_t *val)
{
	struct percpu *c = this_cpu();
	uint32_t lo = 0, hi = 0;

	c->ex_vector = FAULT_NONE;
	asm volatile("1: rdmsr\n2:\n\t" EX_TABLE_ENTRY(1b, 2b)
		     : "+a"(lo), "+d"(hi) : "c"(msr) : "memory");
	if (c->ex_vector != FAULT_NONE) {
		*val = 0;
		return c->ex_vector;
	}
	*val = lo | ((uint64_t)hi << 32);
	return 0;
}

int wrmsr_safe(uint32_t msr, uint64_t val)
{
	struct percpu *c = this_cpu();

	c->ex_vector = FAULT_NONE;
	asm volatile("1: wrmsr\n2:\n\t" EX_TABLE_ENTRY(1b, 2b)
		     : : "c"(msr), "a"((uint32_t)val), "d"((uint32_t)(val >> 32)) : "memory");
	return c->ex_vector != FAULT_NONE ? c->ex_vector : 0;
}

int rdpmc_safe(uint32_t ecx, uint64_t *val)
{
	struct percpu *c = this_cpu();
	uint32_t lo = 0, hi = 0;

	c->ex_vector = FAULT_NONE;
	asm volatile("1: rdpmc\n2:\n\t" EX_TABLE_ENTRY(1b, 2b)
		     : "+a"(lo), "+d"(hi) : "c"(ecx) : "memory");
	if (c->ex_vector != FAULT_NONE) {
		*val = 0;
		return c->ex_vector;
	}
	*val = lo | ((uint64_t)hi << 32);
	return 0;
}
