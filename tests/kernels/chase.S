/* SPDX-License-Identifier: MIT */
/*
 * kernel_chase(n, first): pointer chase. arg is the first node; each node's first
 * quadword points to the next (a single cycle built by chase_build() in kernels.c: one
 * node per 64-byte line, or one per 4 KiB page). Per iteration: mov (load), dec, jnz = 3
 * instructions, 1 load, 1 conditional branch (taken on all but the last). Fixed: the
 * counter setup and ret (1 return, 1 load) = 2 instructions.
 */
	.text
	.globl	kernel_chase, kernel_chase_top, kernel_chase_jnz, kernel_chase_ret
	.balign	64
kernel_chase:
	movq	%rdi, %rcx
kernel_chase_top:
	movq	(%rsi), %rsi
	decq	%rcx
kernel_chase_jnz:
	jnz	kernel_chase_top
kernel_chase_ret:
	ret

	.section .note.GNU-stack, "", @progbits
