/* SPDX-License-Identifier: MIT */
/*
 * uint64_t frame_tsc(kernel_fn k, uint64_t n): TSC delta across k(n).
 * Between the two RDTSCs the frame itself executes: shl, or, mov (keep start), mov (n to
 * %rdi) and the indirect call, then the kernel runs and returns to the second RDTSC. The
 * overhead is a constant, reported by the icount checks and cancelled by the differential
 * method count(2N) - count(N).
 */
	.text
	.globl	frame_tsc
	.balign	64
frame_tsc:
	pushq	%rbx
	pushq	%r12
	movq	%rdi, %r12
	movq	%rsi, %r11
	lfence
	rdtsc
	shlq	$32, %rdx
	orq	%rdx, %rax
	movq	%rax, %rbx
	movq	%r11, %rdi
	callq	*%r12
	rdtsc
	shlq	$32, %rdx
	orq	%rdx, %rax
	subq	%rbx, %rax
	popq	%r12
	popq	%rbx
	ret

	.section .note.GNU-stack, "", @progbits
