/* SPDX-License-Identifier: MIT */
/*
 * Floating-point, SIMD, locked and front-end kernels for the seed-event expectations. Each
 * k(n, arg), n >= 1; the loop's back edge is one conditional branch taken on all but the
 * last iteration; ret is 1 return and 1 load. Per iteration / fixed (setup and ret):
 *
 *   kernel_x87_loop:    fadd, fsub, fadd, fsub (x87, st0 +- st1), dec, jnz = 6 / 6
 *                       (fixed: mov, fld1, fldz, fstp, fstp, ret)
 *   kernel_mmx_loop:    4 paddd (MMX), dec, jnz                     = 6 / 5
 *                       (fixed: mov, pxor, pxor, emms, ret)
 *   kernel_sse_ps_loop: 4 addps; _pd 4 addpd; _ss 4 addss; _sd 4 addsd; _int 4 paddd on
 *                       XMM; each with dec, jnz                      = 6 / 4
 *                       (fixed: mov, xorps, xorps, ret; every input 0.0: no assists)
 *   kernel_lock_loop:   lock add $1, (arg + 64 i), add $64, dec, jnz = 4 / 2
 *                       (1 load and 1 store per iteration, one line each: n lines from arg)
 *   kernel_lcp_loop:    32 addw $imm16, %ax (66H prefix with a 16-bit immediate: a
 *                       length-changing prefix each), dec, jnz       = 34 / 2
 *                       (more uops than Nehalem's loop stream detector holds, 28: every
 *                       iteration is decoded again)
 *   kernel_x87_denormal: fld st0, fadd st1 (a denormal plus a denormal), fstp st0, dec,
 *                       jnz                                          = 5 / 4
 *                       (fixed: mov, fldl (arg): 1 load of the denormal, fstp, ret)
 *   kernel_fldcw_loop:  fnstcw (arg), fldcw (arg), twice, dec, jnz  = 6 / 2
 *                       (2 stores, 2 loads per iteration, arg's line)
 *   kernel_ldmxcsr_loop: stmxcsr (arg), ldmxcsr (arg), twice, dec, jnz = 6 / 2
 *                       (2 stores, 2 loads per iteration, arg's line)
 *   kernel_load_stream: 8 independent loads of one line, add $64, dec, jnz = 11 / 2
 *                       (8 loads per iteration, one line each: n lines from arg)
 */
	.text

.macro LOOP_LABELS name
	.globl	\name, \name\()_top, \name\()_jnz, \name\()_ret
	.balign	64
\name:
.endm

	LOOP_LABELS kernel_x87_loop
	movq	%rdi, %rcx
	fld1
	fldz
kernel_x87_loop_top:
	fadd	%st(1), %st
	fsub	%st(1), %st
	fadd	%st(1), %st
	fsub	%st(1), %st
	decq	%rcx
kernel_x87_loop_jnz:
	jnz	kernel_x87_loop_top
	fstp	%st(0)
	fstp	%st(0)
kernel_x87_loop_ret:
	ret

	LOOP_LABELS kernel_mmx_loop
	movq	%rdi, %rcx
	pxor	%mm0, %mm0
	pxor	%mm1, %mm1
kernel_mmx_loop_top:
	.rept	4
	paddd	%mm1, %mm0
	.endr
	decq	%rcx
kernel_mmx_loop_jnz:
	jnz	kernel_mmx_loop_top
	emms
kernel_mmx_loop_ret:
	ret

.macro SSE_KERNEL name, insn
	LOOP_LABELS \name
	movq	%rdi, %rcx
	xorps	%xmm0, %xmm0
	xorps	%xmm1, %xmm1
\name\()_top:
	.rept	4
	\insn	%xmm1, %xmm0
	.endr
	decq	%rcx
\name\()_jnz:
	jnz	\name\()_top
\name\()_ret:
	ret
.endm

	SSE_KERNEL kernel_sse_ps_loop, addps
	SSE_KERNEL kernel_sse_pd_loop, addpd
	SSE_KERNEL kernel_sse_ss_loop, addss
	SSE_KERNEL kernel_sse_sd_loop, addsd
	SSE_KERNEL kernel_sse_int_loop, paddd

	LOOP_LABELS kernel_lock_loop
	movq	%rdi, %rcx
kernel_lock_loop_top:
	lock addq $1, (%rsi)
	addq	$64, %rsi
	decq	%rcx
kernel_lock_loop_jnz:
	jnz	kernel_lock_loop_top
kernel_lock_loop_ret:
	ret

	LOOP_LABELS kernel_lcp_loop
	movq	%rdi, %rcx
kernel_lcp_loop_top:
	.rept	32
	addw	$0x1234, %ax
	.endr
	decq	%rcx
kernel_lcp_loop_jnz:
	jnz	kernel_lcp_loop_top
kernel_lcp_loop_ret:
	ret

	LOOP_LABELS kernel_x87_denormal
	movq	%rdi, %rcx
	fldl	(%rsi)
kernel_x87_denormal_top:
	fld	%st(0)
	fadd	%st(1), %st
	fstp	%st(0)
	decq	%rcx
kernel_x87_denormal_jnz:
	jnz	kernel_x87_denormal_top
	fstp	%st(0)
kernel_x87_denormal_ret:
	ret

	LOOP_LABELS kernel_fldcw_loop
	movq	%rdi, %rcx
kernel_fldcw_loop_top:
	.rept	2
	fnstcw	(%rsi)
	fldcw	(%rsi)
	.endr
	decq	%rcx
kernel_fldcw_loop_jnz:
	jnz	kernel_fldcw_loop_top
kernel_fldcw_loop_ret:
	ret

	LOOP_LABELS kernel_ldmxcsr_loop
	movq	%rdi, %rcx
kernel_ldmxcsr_loop_top:
	.rept	2
	stmxcsr	(%rsi)
	ldmxcsr	(%rsi)
	.endr
	decq	%rcx
kernel_ldmxcsr_loop_jnz:
	jnz	kernel_ldmxcsr_loop_top
kernel_ldmxcsr_loop_ret:
	ret

	LOOP_LABELS kernel_load_stream
	movq	%rdi, %rcx
kernel_load_stream_top:
	.set	off, 0
	.rept	8
	movq	off(%rsi), %rax
	.set	off, off + 8
	.endr
	addq	$64, %rsi
	decq	%rcx
kernel_load_stream_jnz:
	jnz	kernel_load_stream_top
kernel_load_stream_ret:
	ret

	.section .note.GNU-stack, "", @progbits
