/* SPDX-License-Identifier: MIT */
/* GDT/TSS/IDT setup for both run modes, and per-CPU GS base. */
#include "arch/x86/desc.h"
#include "arch/x86/msr.h"
#include "arch/x86/percpu.h"
#include "arch/x86/trap.h"
#include "lib/string.h"

extern char vector_stubs[];

struct percpu percpu_table[MAX_CPUS];

static struct idt_gate idt[NR_VECTORS] __attribute__((aligned(16)));
static struct desc_ptr firmware_idtr;
static bool firmware_idtr_saved;
static uint64_t saved_gs_base;
static bool gs_saved;

/* Code/data descriptor fields (SDM Vol. 3A 3.4.5). */
#define SEG_P		(1ULL << 47)
#define SEG_DPL(n)	((uint64_t)(n) << 45)
#define SEG_S		(1ULL << 44)
#define SEG_CODE	(1ULL << 43)
#define SEG_RW		(1ULL << 41)	/* readable code / writable data */
#define SEG_A		(1ULL << 40)
#define SEG_L		(1ULL << 53)	/* 64-bit code */
#define SEG_G		(1ULL << 55)
#define SEG_DB		(1ULL << 54)
#define SEG_LIMIT_MAX	(0xffffULL | (0xfULL << 48))

#define GATE_INTERRUPT	0x8e	/* present, DPL 0, 64-bit interrupt gate */
#define TSS_AVAILABLE	0x9ULL

static void set_gate(unsigned v, uint16_t sel, uint8_t ist)
{
	uint64_t a = (uint64_t)(uintptr_t)vector_stubs + 16ULL * v;
	struct idt_gate *g = &idt[v];

	g->offset_lo = (uint16_t)a;
	g->selector = sel;
	g->ist = ist;
	g->type_attr = GATE_INTERRUPT;
	g->offset_mid = (uint16_t)(a >> 16);
	g->offset_hi = (uint32_t)(a >> 32);
	g->reserved = 0;
}

static uint16_t read_cs(void)
{
	uint16_t cs;
	asm volatile("mov %%cs, %0" : "=r"(cs));
	return cs;
}

static void load_idt(void)
{
	struct desc_ptr p = { sizeof(idt) - 1, (uint64_t)(uintptr_t)idt };

	asm volatile("lidt %0" : : "m"(p) : "memory");
}

static void save_firmware_idt(void)
{
	if (!firmware_idtr_saved) {
		asm volatile("sidt %0" : "=m"(firmware_idtr));
		firmware_idtr_saved = true;
	}
}

static void load_cpu_desc(struct cpu_desc *d)
{
	uint64_t tss = (uint64_t)(uintptr_t)&d->tss;
	uint64_t code = SEG_P | SEG_S | SEG_CODE | SEG_RW | SEG_A | SEG_L | SEG_G | SEG_LIMIT_MAX;
	uint64_t data = SEG_P | SEG_S | SEG_RW | SEG_A | SEG_DB | SEG_G | SEG_LIMIT_MAX;

	memset(d->gdt, 0, sizeof(d->gdt));
	d->gdt[GDT_KERNEL_CS] = code;
	d->gdt[GDT_KERNEL_DS] = data;
	d->gdt[GDT_USER_CS] = code | SEG_DPL(3);
	d->gdt[GDT_USER_DS] = data | SEG_DPL(3);
	/* 16-byte TSS descriptor (SDM Vol. 3A Figure 8-4). */
	d->gdt[GDT_TSS] = (sizeof(struct tss64) - 1) | ((tss & 0xffffff) << 16) |
			  (TSS_AVAILABLE << 40) | SEG_P | ((tss >> 24) & 0xff) << 56;
	d->gdt[GDT_TSS + 1] = tss >> 32;

	memset(&d->tss, 0, sizeof(d->tss));
	d->tss.ist[IST_NMI - 1] = (uint64_t)(uintptr_t)(d->nmi_stack + NMI_STACK_SIZE);
	d->tss.ist[IST_DF - 1] = (uint64_t)(uintptr_t)(d->df_stack + FATAL_STACK_SIZE);
	d->tss.ist[IST_MC - 1] = (uint64_t)(uintptr_t)(d->mc_stack + FATAL_STACK_SIZE);
	d->tss.iomap_base = sizeof(struct tss64);	/* no I/O bitmap */
	d->tss.rsp[0] = (uint64_t)(uintptr_t)(d->ring0_stack + RING0_STACK_SIZE);

	struct desc_ptr gdtr = { sizeof(d->gdt) - 1, (uint64_t)(uintptr_t)d->gdt };
	/* Load the GDT, then reload CS through a far return and every data segment. The GS
	 * and FS selectors are loaded before GS base is written (loading a selector would reset
	 * the base). */
	asm volatile(
		"lgdt %0\n\t"
		"pushq %1\n\t"
		"leaq 1f(%%rip), %%rax\n\t"
		"pushq %%rax\n\t"
		"lretq\n"
		"1:\n\t"
		"movw %w2, %%ax\n\t"
		"movw %%ax, %%ds\n\t"
		"movw %%ax, %%es\n\t"
		"movw %%ax, %%ss\n\t"
		"movw %%ax, %%fs\n\t"
		"movw %%ax, %%gs\n\t"
		"movw %3, %%ax\n\t"
		"ltr %%ax\n\t"
		: : "m"(gdtr), "i"((uint64_t)KERNEL_CS), "r"((uint32_t)KERNEL_DS), "i"((uint16_t)TSS_SEL)
		: "rax", "memory");
}

void desc_install_owned(struct cpu_desc *d)
{
	save_firmware_idt();
	load_cpu_desc(d);
	for (unsigned v = 0; v < NR_VECTORS; v++)
		set_gate(v, KERNEL_CS, v == X86_TRAP_NMI ? IST_NMI : v == X86_TRAP_DF ? IST_DF :
				       v == X86_TRAP_MC ? IST_MC : 0);
	load_idt();
}

void desc_install_ap(struct cpu_desc *d)
{
	load_cpu_desc(d);
	load_idt();
}

void desc_install_shared(const bool owned[256])
{
	const struct idt_gate *fw;
	unsigned fw_entries;
	uint16_t cs = read_cs();

	save_firmware_idt();
	fw = (const struct idt_gate *)(uintptr_t)firmware_idtr.base;
	fw_entries = (firmware_idtr.limit + 1u) / sizeof(struct idt_gate);
	for (unsigned v = 0; v < NR_VECTORS; v++) {
		if (v < NR_EXCEPTIONS || owned[v] || v >= fw_entries)
			set_gate(v, cs, 0);
		else
			idt[v] = fw[v];
	}
	load_idt();
}

#define GATE_INTERRUPT_USER	0xee	/* present, DPL 3, 64-bit interrupt gate */

void desc_set_user_gate(unsigned vector)
{
	if (vector < NR_VECTORS)
		idt[vector].type_attr = GATE_INTERRUPT_USER;
}

void desc_restore_firmware(void)
{
	if (firmware_idtr_saved)
		asm volatile("lidt %0" : : "m"(firmware_idtr) : "memory");
}

void desc_idt_save(struct desc_ptr *p)
{
	asm volatile("sidt %0" : "=m"(*p));
}

void desc_idt_load_shared(void)
{
	load_idt();
}

void desc_idt_restore(const struct desc_ptr *p)
{
	asm volatile("lidt %0" : : "m"(*p) : "memory");
}

void percpu_install(struct percpu *cpu)
{
	cpu->self = cpu;
	if (!gs_saved) {
		saved_gs_base = rdmsr(MSR_GS_BASE);
		gs_saved = true;
	}
	wrmsr(MSR_GS_BASE, (uint64_t)(uintptr_t)cpu);
}

void percpu_restore(void)
{
	if (gs_saved)
		wrmsr(MSR_GS_BASE, saved_gs_base);
}
