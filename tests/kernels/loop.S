/* SPDX-License-Identifier: MIT */
/*
 * kernel_loop4(n, arg): the calibrated loop. Exact model (kernel_loop4_desc):
 *   per iteration: 4 instructions (add, add, dec, jnz), 1 conditional branch (taken on all
 *   but the last iteration), 0 loads, 0 stores;
 *   fixed: 2 instructions (mov to the counter, ret); ret is 1 return and 1 load.
 * n must be >= 1 (n = 0 would run 2^64 iterations). arg is unused.
 */
	.text
	.globl	kernel_loop4
	.globl	kernel_loop4_top
	.globl	kernel_loop4_jnz
	.globl	kernel_loop4_ret
	.balign	64
kernel_loop4:
	movq	%rdi, %rcx
kernel_loop4_top:
	addq	$1, %rax
	addq	$1, %rdx
	decq	%rcx
kernel_loop4_jnz:
	jnz	kernel_loop4_top
kernel_loop4_ret:
	ret

	.section .note.GNU-stack, "", @progbits
