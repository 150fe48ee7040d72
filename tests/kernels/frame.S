/* SPDX-License-Identifier: MIT */
/*
 * The measurement frame, in 256 identical 64-byte slots that differ only in the region id
 * their oracle markers carry (lib/oracle_tag.h):
 *
 *   uint64_t frame_slot_N(kernel_fn k, uint64_t n, void *arg)   [frame_tsc() picks N]
 *
 *     push rbx; k -> r11; n -> rdi; arg -> rsi
 *     lfence; rdtsc; shl; or; mov -> rbx        first TSC read
 *     nopl START|N                              region N begins after this
 *     call *r11                                 k(n, arg): in the region
 *     nopl END|N                                region N ends before this
 *     rdtsc; shl; or; sub                       second TSC read
 *     pop rbx; ret
 *
 * Between the two TSC reads the frame itself retires shl, or, mov, the two markers and one
 * of the RDTSCs (QEMU -icount counts it): FRAME_TSC_OVERHEAD = 6 instructions beyond the
 * region, which holds the call and the kernel (kernel model + 1 instruction, 1 call, 1
 * store). Call with interrupts disabled.
 */
#include "lib/oracle_tag.h"

#define SLOT_SIZE 64

.macro SLOT id
	.org	frame_slots + SLOT_SIZE * \id, 0xcc
	pushq	%rbx
	movq	%rdi, %r11
	movq	%rsi, %rdi
	movq	%rdx, %rsi
	lfence
	rdtsc
	shlq	$32, %rdx
	orq	%rdx, %rax
	movq	%rax, %rbx
	MARKER	ORACLE_KIND_START, \id
	.if \id == 0
	.globl	frame_slot0_call
frame_slot0_call:
	.endif
	callq	*%r11
	.if \id == 0
	.globl	frame_slot0_return
frame_slot0_return:
	.endif
	MARKER	ORACLE_KIND_END, \id
	rdtsc
	shlq	$32, %rdx
	orq	%rdx, %rax
	subq	%rbx, %rax
	popq	%rbx
	ret
.endm

	.text
	.altmacro
	.balign	64
	.globl	frame_slots
frame_slots:
	.set	slot, 0
	.rept	ORACLE_MAX_REGIONS
	SLOT	%slot
	.set	slot, slot + 1
	.endr
	.org	frame_slots + SLOT_SIZE * ORACLE_MAX_REGIONS, 0xcc

/* void oracle_arm(void): tells the oracle plugin that pmuboot's run has begun. */
	.globl	oracle_arm
oracle_arm:
	MARKER	ORACLE_KIND_ARM, 0
	ret

	.section .note.GNU-stack, "", @progbits
