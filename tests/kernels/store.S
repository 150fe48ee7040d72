/* SPDX-License-Identifier: MIT */
/*
 * Store kernels over a buffer, one 64-byte line per iteration (arg: 64-byte aligned).
 *
 * kernel_store_nt (MOVNTI): 8 non-temporal 8-byte stores, add, dec, jnz = 11 instructions
 * kernel_store_ntdq (MOVNTDQ): 4 non-temporal 16-byte stores, add, dec, jnz = 7
 * kernel_store_plain (MOV): 8 ordinary 8-byte stores, add, dec, jnz = 11
 * per iteration: 8, 4 and 8 store instructions; 1 conditional branch; 1 line.
 * fixed: counter setup, ret (1 return, 1 load), and for the non-temporal ones a final
 * SFENCE (kernel_store_ntdq also zeroes %xmm0 first): 3, 4 and 2 instructions.
 */
	.text

.macro STORE_KERNEL name, per, insn, reg, step, pre, post
	.globl	\name, \name\()_top, \name\()_jnz, \name\()_ret
	.balign	64
\name:
	\pre
	movq	%rdi, %rcx
\name\()_top:
	.set	off, 0
	.rept	\per
	\insn	\reg, off(%rsi)
	.set	off, off + \step
	.endr
	addq	$64, %rsi
	decq	%rcx
\name\()_jnz:
	jnz	\name\()_top
	\post
\name\()_ret:
	ret
.endm

	STORE_KERNEL kernel_store_nt, 8, movnti, %rax, 8, "", "sfence"
	STORE_KERNEL kernel_store_ntdq, 4, movntdq, %xmm0, 16, "pxor %xmm0, %xmm0", "sfence"
	STORE_KERNEL kernel_store_plain, 8, movq, %rax, 8, "", ""

	.section .note.GNU-stack, "", @progbits
