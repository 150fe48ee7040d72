/* SPDX-License-Identifier: MIT */
/*
 * Application-processor start-up code (SDM Vol. 3A 9.4.4 and 9.8.5): copied by smp.c to a
 * page below 1 MiB whose number is the STARTUP IPI's vector. The AP starts here in real
 * mode at CS:IP = page:0, loads the GDT below, enters protected mode, loads the BSP's CR4
 * (PAE, LA57 ...), CR3 and EFER (LME, NX), enables paging (IA32_EFER.LMA becomes 1), jumps
 * to a 64-bit code segment, takes its stack and calls the entry point with its argument;
 * the GDT, TSS and IDT of pmuboot replace the trampoline's there.
 *
 * Position-independent: every address is an offset from smp_trampoline_start, rebased at
 * run time on the page's linear address (kept in EBX/RBX), so the copy needs no
 * relocation. smp.c fills the data fields (SMP_TR_* in smp.h) before each start.
 */
#include "arch/x86/smp.h"

#define TR(x)		((x) - smp_trampoline_start)
#define SEL_CODE32	0x08
#define SEL_DATA	0x10
#define SEL_CODE64	0x18

	.text
	.balign 16
	.globl	smp_trampoline_start
	.globl	smp_trampoline_end
	.code16
smp_trampoline_start:
	cli
	cld
	movw	%cs, %ax
	movw	%ax, %ds
	movzwl	%ax, %ebx
	shll	$4, %ebx			/* EBX: linear address of the page */
	/* The GDT's linear base and the far pointer to the 32-bit code. */
	leal	TR(tr_gdt)(%ebx), %eax
	movl	%eax, TR(tr_gdtr) + 2
	leal	TR(pm32)(%ebx), %eax
	movl	%eax, TR(tr_far32)
	movw	$SEL_CODE32, TR(tr_far32) + 4
	lgdtl	TR(tr_gdtr)
	movl	%cr0, %eax
	orl	$1, %eax			/* CR0.PE */
	movl	%eax, %cr0
	ljmpl	*TR(tr_far32)

	.code32
pm32:
	movw	$SEL_DATA, %ax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %ss
	movw	%ax, %fs
	movw	%ax, %gs
	movl	(SMP_TR_CR4_32)(%ebx), %eax	/* PAE and the rest, before paging */
	movl	%eax, %cr4
	movl	(SMP_TR_CR3)(%ebx), %eax
	movl	%eax, %cr3
	movl	$0xc0000080, %ecx		/* IA32_EFER */
	movl	(SMP_TR_EFER)(%ebx), %eax
	xorl	%edx, %edx
	wrmsr
	movl	(SMP_TR_CR0)(%ebx), %eax	/* PG: long mode is active from here */
	movl	%eax, %cr0
	leal	TR(lm64)(%ebx), %eax
	movl	%eax, TR(tr_far64)(%ebx)
	movw	$SEL_CODE64, TR(tr_far64) + 4(%ebx)
	ljmpl	*TR(tr_far64)(%ebx)

	.code64
lm64:
	movq	(SMP_TR_CR4)(%rbx), %rax	/* PCIDE and CET need long mode and CR0.WP */
	movq	%rax, %cr4
	movq	(SMP_TR_STACK)(%rbx), %rsp
	movq	(SMP_TR_ARG)(%rbx), %rdi
	movq	(SMP_TR_ENTRY)(%rbx), %rax
	xorl	%ebp, %ebp
	callq	*%rax				/* does not return */
1:	cli
	hlt
	jmp	1b

	.balign 8
tr_gdt:
	.quad	0
	.quad	0x00cf9a000000ffff		/* 0x08: 32-bit code, base 0, 4 GiB */
	.quad	0x00cf92000000ffff		/* 0x10: data, base 0, 4 GiB */
	.quad	0x00af9a000000ffff		/* 0x18: 64-bit code */
tr_gdt_end:
	.balign 8
tr_gdtr:
	.word	tr_gdt_end - tr_gdt - 1
	.long	0
	.balign 8
tr_far32:
	.long	0
	.word	0
	.balign 8
tr_far64:
	.long	0
	.word	0
	/* The data smp.c fills: at SMP_TR_DATA from the start, in the order of smp.h. */
	.org	smp_trampoline_start + SMP_TR_DATA, 0xcc
	.fill	SMP_TR_DATA_SIZE, 1, 0
smp_trampoline_end:
	.section .note.GNU-stack,"",@progbits
