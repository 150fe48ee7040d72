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
	.globl	kernel_bigcode_insns, kernel_bigcode_end
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
kernel_bigcode_end:

/*
 * kernel_smallcode(n, arg): the same loop with SMALLCODE_INSNS adds (2 KiB of code, which
 * every L1 instruction cache and decoded-uop cache holds): the front-end checks' quiet
 * case. Per iteration: SMALLCODE_INSNS + 2 instructions, 1 conditional branch; fixed 2.
 */
#define SMALLCODE_INSNS 512
	.globl	kernel_smallcode, kernel_smallcode_top, kernel_smallcode_jnz, kernel_smallcode_ret
	.balign	4096
kernel_smallcode:
	movq	%rdi, %rcx
kernel_smallcode_top:
	.rept	SMALLCODE_INSNS
	addq	$1, %rax
	.endr
	decq	%rcx
kernel_smallcode_jnz:
	jnz	kernel_smallcode_top
kernel_smallcode_ret:
	ret

	.section .rodata
	.balign	8
kernel_bigcode_insns:
	.quad	BIGCODE_INSNS

	.section .note.GNU-stack, "", @progbits
