/* SPDX-License-Identifier: MIT */
/*
 * xmm_load(const uint64_t v[32]): loads XMM0..XMM15 from v (two quadwords each, low first),
 * so a PEBS record's XMM group has known contents to compare (the firmware's C code uses no
 * SSE register: -mgeneral-regs-only). xmm_zero() clears them again.
 */
	.text
	.globl	xmm_load, xmm_zero
xmm_load:
	movdqu	0x00(%rdi), %xmm0
	movdqu	0x10(%rdi), %xmm1
	movdqu	0x20(%rdi), %xmm2
	movdqu	0x30(%rdi), %xmm3
	movdqu	0x40(%rdi), %xmm4
	movdqu	0x50(%rdi), %xmm5
	movdqu	0x60(%rdi), %xmm6
	movdqu	0x70(%rdi), %xmm7
	movdqu	0x80(%rdi), %xmm8
	movdqu	0x90(%rdi), %xmm9
	movdqu	0xa0(%rdi), %xmm10
	movdqu	0xb0(%rdi), %xmm11
	movdqu	0xc0(%rdi), %xmm12
	movdqu	0xd0(%rdi), %xmm13
	movdqu	0xe0(%rdi), %xmm14
	movdqu	0xf0(%rdi), %xmm15
	ret

xmm_zero:
	pxor	%xmm0, %xmm0
	pxor	%xmm1, %xmm1
	pxor	%xmm2, %xmm2
	pxor	%xmm3, %xmm3
	pxor	%xmm4, %xmm4
	pxor	%xmm5, %xmm5
	pxor	%xmm6, %xmm6
	pxor	%xmm7, %xmm7
	pxor	%xmm8, %xmm8
	pxor	%xmm9, %xmm9
	pxor	%xmm10, %xmm10
	pxor	%xmm11, %xmm11
	pxor	%xmm12, %xmm12
	pxor	%xmm13, %xmm13
	pxor	%xmm14, %xmm14
	pxor	%xmm15, %xmm15
	ret

	.section .note.GNU-stack, "", @progbits
