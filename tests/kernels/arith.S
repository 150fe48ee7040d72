/* SPDX-License-Identifier: MIT */
/*
 * Dependent arithmetic chains and the divider loop. Every kernel: k(n, arg), n >= 1, arg
 * unused; per-iteration counts below, plus a fixed part of 2 instructions (the counter
 * setup and ret; ret is 1 return and 1 load). Each loop's back edge is one conditional
 * branch, taken on all but the last iteration.
 *
 *   kernel_add_chain:  8 dependent adds + dec + jnz      = 10 instructions/iteration
 *   kernel_imul_chain: 4 dependent imuls + dec + jnz     =  6 instructions/iteration
 *   kernel_div_loop:   xor + div + 8 dependent adds + dec + jnz = 12 instructions/iteration
 *                      (fixed: + 2 more, loading the divisor and the addend: 4 in all)
 * No loads or stores inside the loops.
 */
	.text

.macro KERNEL_LABELS name
	.globl	\name, \name\()_top, \name\()_jnz, \name\()_ret
.endm

	KERNEL_LABELS kernel_add_chain
	.balign	64
kernel_add_chain:
	movq	%rdi, %rcx
kernel_add_chain_top:
	.rept	8
	addq	$1, %rax
	.endr
	decq	%rcx
kernel_add_chain_jnz:
	jnz	kernel_add_chain_top
kernel_add_chain_ret:
	ret

	KERNEL_LABELS kernel_imul_chain
	.balign	64
kernel_imul_chain:
	movq	%rdi, %rcx
kernel_imul_chain_top:
	.rept	4
	imulq	%rax, %rax
	.endr
	decq	%rcx
kernel_imul_chain_jnz:
	jnz	kernel_imul_chain_top
kernel_imul_chain_ret:
	ret

	/* rax = rax / 3 + 8 * 0x10000, repeated: the quotient never reaches a fault (divisor
	 * is a non-zero constant, the dividend fits in rax with rdx = 0). Each DIV waits for
	 * the previous iteration's last ADD; the eight ADDs wait for the DIV and for each
	 * other, so after every DIV stall the core retires one instruction a cycle for eight
	 * cycles: many retiring cycles (CMASK=1), one stall (INV) and one burst (EDGE) per
	 * iteration. */
	KERNEL_LABELS kernel_div_loop
	.balign	64
kernel_div_loop:
	movq	%rdi, %rcx
	movl	$3, %r8d
	movl	$0x10000, %r9d
kernel_div_loop_top:
	xorl	%edx, %edx
	divq	%r8
	.rept	8
	addq	%r9, %rax
	.endr
	decq	%rcx
kernel_div_loop_jnz:
	jnz	kernel_div_loop_top
kernel_div_loop_ret:
	ret

	.section .note.GNU-stack, "", @progbits
