/* SPDX-License-Identifier: MIT */
/* GDT, TSS and IDT: pmuboot's own descriptor tables (one IDT, per-CPU GDT and TSS). */
#ifndef ARCH_X86_DESC_H
#define ARCH_X86_DESC_H

#include <stdbool.h>
#include <stdint.h>

/* Selectors of pmuboot's GDT. */
#define GDT_NULL		0
#define GDT_KERNEL_CS		1
#define GDT_KERNEL_DS		2
#define GDT_USER_CS		3
#define GDT_USER_DS		4
#define GDT_TSS			5	/* 16-byte descriptor: entries 5 and 6 */
#define GDT_ENTRIES		7
#define KERNEL_CS		(GDT_KERNEL_CS * 8)
#define KERNEL_DS		(GDT_KERNEL_DS * 8)
#define USER_CS			(GDT_USER_CS * 8 + 3)
#define USER_DS			(GDT_USER_DS * 8 + 3)
#define TSS_SEL			(GDT_TSS * 8)

/* IST slots: NMI, #DF and #MC each start on a stack of their own, so a broken stack still
 * gets a report, and one of them arriving inside another's handler (an #MC during an NMI)
 * does not start on the same stack top and overwrite the frame it interrupted. */
#define IST_NMI			1
#define IST_DF			2
#define IST_MC			3
#define NMI_STACK_SIZE		16384	/* PMIs by NMI run their handlers here */
#define FATAL_STACK_SIZE	8192	/* #DF and #MC: a register dump and the end */

struct tss64 {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __attribute__((packed));
_Static_assert(sizeof(struct tss64) == 104, "SDM Vol. 3A Figure 8-11: 64-bit TSS is 104 bytes");

#define RING0_STACK_SIZE	16384

struct cpu_desc {
	uint64_t gdt[GDT_ENTRIES] __attribute__((aligned(16)));
	struct tss64 tss __attribute__((aligned(16)));
	uint8_t nmi_stack[NMI_STACK_SIZE] __attribute__((aligned(16)));
	uint8_t df_stack[FATAL_STACK_SIZE] __attribute__((aligned(16)));
	uint8_t mc_stack[FATAL_STACK_SIZE] __attribute__((aligned(16)));
	/* TSS.RSP0: the stack an interrupt or exception from CPL 3 starts on. */
	uint8_t ring0_stack[RING0_STACK_SIZE] __attribute__((aligned(16)));
};

struct idt_gate {
	uint16_t offset_lo;
	uint16_t selector;
	uint8_t ist;
	uint8_t type_attr;
	uint16_t offset_mid;
	uint32_t offset_hi;
	uint32_t reserved;
} __attribute__((packed));
_Static_assert(sizeof(struct idt_gate) == 16, "SDM Vol. 3A Figure 6-8: 64-bit IDT gate");

struct desc_ptr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

/*
 * Exit mode: loads cpu's own GDT (reloading every segment register) and TSS, and the
 * shared IDT with a pmuboot handler on all 256 vectors.
 */
void desc_install_owned(struct cpu_desc *d);
/* An AP: its own GDT and TSS as above, and the IDT desc_install_owned() built (unchanged). */
void desc_install_ap(struct cpu_desc *d);

/*
 * Boot-services-kept mode: the firmware's GDT stays (its interrupt handlers use its code
 * selector). The IDT becomes a copy of the firmware's with pmuboot's handlers on the
 * exception vectors and on the vectors pmuboot owns (owned[v] true). desc_restore_firmware()
 * puts the firmware's IDT back.
 */
void desc_install_shared(const bool owned[256]);
void desc_restore_firmware(void);
/* An AP the firmware runs (MP services, boot services kept): the IDT desc_install_shared()
 * built is loaded for a call, the AP's own put back after it. */
void desc_idt_save(struct desc_ptr *p);
void desc_idt_load_shared(void);
void desc_idt_restore(const struct desc_ptr *p);

/* Makes vector reachable from CPL 3 through INT n (gate DPL 3). */
void desc_set_user_gate(unsigned vector);

#endif /* ARCH_X86_DESC_H */
