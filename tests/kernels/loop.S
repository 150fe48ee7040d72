/* SPDX-License-Identifier: MIT */
/*
 * kernel_loop4(n): the calibrated loop. Exact model (kernel_loop4_model in kernels.c):
 *   per iteration: 4 instructions (add, add, dec, jnz), 1 conditional branch (taken on all
 *   but the last iteration), 0 loads, 0 stores;
 *   fixed: 2 instructions (mov to the counter, ret), of which ret is 1 return and 1 load.
 * n must be >= 1 (n = 0 would run 2^64 iterations).
 */
	.text
	.globl	kernel_loop4
	.balign	64
kernel_loop4:
	movq	%rdi, %rcx
1:	addq	$1, %rax
	addq	$1, %rdx
	decq	%rcx
	jnz	1b
	ret

	.section .note.GNU-stack, "", @progbits
