/* SPDX-License-Identifier: MIT */
/*
 * Cross-core kernels: each CPU runs one side, in its own measurement frame, at the same
 * time; arg is that side's struct xcore_arg (kernels.h; 64-byte aligned, its own line):
 * 0 shared, 8 role, 16 spins (out), 24 sum (out), 32 spin_limit.
 *
 * A wait loop counts its turns in %rcx (spins, stored to arg->spins) and gives up once the
 * count reaches arg->spin_limit (the other CPU has stopped: the frame runs with interrupts
 * off, so nothing else would end it); then the kernel skips to its end. Every kernel ends
 * with the same tail of 32 iterations (31 taken back edges and the RET): the last 32 taken
 * branches are the tail's whatever the waits did.
 *
 * kernel_pingpong (shared: one line): side `role` (0 or 1) waits until word 0 is 2i+role,
 *   then writes 2i+role+1, for i < n: each write hands the modified line to the other
 *   side, whose next read takes it from this core (2n - 1 cross-core transfers of a
 *   modified line for the pair, by construction).
 *   3 (2 loads) + n * 7 + spins * 7 + 1 (store) + tail; per hand-off: cmp (load), je, inc,
 *   mov (store), inc, dec, jnz; per spin: cmp (load), je, inc, pause, cmp (load of the
 *   limit), jae, jmp.
 * kernel_produce (shared: n consecutive lines): writes i + 1 to word 0 of line i.
 *   2 (1 load) + n * 5 (mov store, add, inc, dec, jnz) + tail.
 * kernel_consume (shared: the producer's lines): waits for line i to hold i + 1, adds it
 *   to the sum: each line is read from the producer's core once it is written there (n
 *   transfers of a modified line). 4 (1 load) + n * 7 (cmp load, je, add load, add, inc,
 *   dec, jnz) + spins * 7 (as above) + 2 stores + tail.
 * kernel_false_share (shared: this side's own 8-byte counter): n increments (INC m64: a
 *   load and a store). 1 (load) + n * 3 (inc, dec, jnz) + tail. Two sides with counters in one
 *   line make that line move between the cores; in separate lines nothing moves.
 * tail: mov, 32 x (dec, jnz), ret = 66 instructions, 31 taken, 1 not taken, 1 return
 * (1 load). A side that gave up waiting is not modelled: its check fails first.
 */
#define XC_SHARED	0
#define XC_ROLE		8
#define XC_SPINS	16
#define XC_SUM		24
#define XC_LIMIT	32

	.text

.macro TAIL name
	movl	$32, %ecx
\name\()_tail_top:
	decl	%ecx
\name\()_tail_jnz:
	jnz	\name\()_tail_top
\name\()_ret:
	ret
	.globl	\name\()_tail_top, \name\()_tail_jnz, \name\()_ret
.endm

	.globl	kernel_pingpong
	.balign	64
kernel_pingpong:
	movq	XC_SHARED(%rsi), %rdx
	movq	XC_ROLE(%rsi), %rax
	xorl	%ecx, %ecx
1:	cmpq	%rax, (%rdx)
	je	2f
	incq	%rcx
	pause
	cmpq	XC_LIMIT(%rsi), %rcx
	jae	3f
	jmp	1b
2:	incq	%rax
	movq	%rax, (%rdx)
	incq	%rax
	decq	%rdi
	jnz	1b
3:	movq	%rcx, XC_SPINS(%rsi)
	TAIL	kernel_pingpong

	.globl	kernel_produce
	.balign	64
kernel_produce:
	movq	XC_SHARED(%rsi), %rdx
	movl	$1, %eax
1:	movq	%rax, (%rdx)
	addq	$64, %rdx
	incq	%rax
	decq	%rdi
	jnz	1b
	TAIL	kernel_produce

	.globl	kernel_consume
	.balign	64
kernel_consume:
	movq	XC_SHARED(%rsi), %rdx
	movl	$1, %eax
	xorl	%ecx, %ecx
	xorl	%r8d, %r8d
1:	cmpq	%rax, (%rdx)
	je	2f
	incq	%rcx
	pause
	cmpq	XC_LIMIT(%rsi), %rcx
	jae	3f
	jmp	1b
2:	addq	(%rdx), %r8
	addq	$64, %rdx
	incq	%rax
	decq	%rdi
	jnz	1b
3:	movq	%rcx, XC_SPINS(%rsi)
	movq	%r8, XC_SUM(%rsi)
	TAIL	kernel_consume

	.globl	kernel_false_share
	.balign	64
kernel_false_share:
	movq	XC_SHARED(%rsi), %rdx
1:	incq	(%rdx)
	decq	%rdi
	jnz	1b
	TAIL	kernel_false_share

	.section .note.GNU-stack, "", @progbits
