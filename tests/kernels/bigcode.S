/* SPDX-License-Identifier: MIT */
/*
 * kernel_bigcode(n, arg): a front-end kernel. The loop body is BIGCODE_INSNS straight-line
 * 4-byte adds (64 KiB of code: larger than any L1 instruction cache or decoded-uop cache
 * pmuboot targets), then dec and jnz. Per iteration: BIGCODE_INSNS + 2 instructions, 1
 * conditional branch; fixed: counter setup and ret (1 return, 1 load) = 2.
 */
#define BIGCODE_INSNS 16384

	.text
	.globl	kernel_bigcode, kernel_bigcode_top, kernel_bigcode_jnz, kernel_bigcode_ret
	.globl	kernel_bigcode_insns
	.balign	4096
kernel_bigcode:
	movq	%rdi, %rcx
kernel_bigcode_top:
	.rept	BIGCODE_INSNS
	addq	$1, %rax
	.endr
	decq	%rcx
kernel_bigcode_jnz:
	jnz	kernel_bigcode_top
kernel_bigcode_ret:
	ret

	.section .rodata
	.balign	8
kernel_bigcode_insns:
	.quad	BIGCODE_INSNS

	.section .note.GNU-stack, "", @progbits
