/* SPDX-License-Identifier: MIT */
/*
 * The PMU measurement frame, 256 slots of 128 bytes (one per oracle region id):
 *
 *   void pmu_frame_slot_N(workload w, uint64_t n, void *arg, uint64_t enable, uint32_t msr)
 *
 *     push rbx; ebx = msr (callee-saved: it survives the workload)
 *     w -> r11, n -> rdi, arg -> rsi, enable -> edx:eax, ecx = msr
 *     lfence
 *     nopl START|N             oracle region N begins
 *     wrmsr                    msr = enable: counting (or recording) starts
 *     call *r11                w(n, arg)
 *     mov ebx, ecx; xor eax; xor edx
 *     wrmsr                    msr = 0: it stops
 *     nopl END|N               oracle region N ends
 *     lfence; pop rbx; ret
 *
 * msr is IA32_PERF_GLOBAL_CTRL for counting, IA32_DEBUGCTL or IA32_LBR_CTL for branch
 * recording, IA32_PEBS_ENABLE for precise sampling.
 *
 * Inside the counted window the frame adds 4 instructions to the workload: the CALL,
 * MOV, XOR, XOR (PMU_FRAME_INSNS); whether the two WRMSRs themselves are counted is the
 * CPU's business, and the differential method count(2N) - count(N) cancels all of it.
 * The oracle region holds the window plus both WRMSRs: workload + 6 instructions.
 * Call with interrupts disabled and every selector already programmed.
 */
#include "lib/oracle_tag.h"

#define SLOT_SIZE 128

.macro SLOT id
	.org	pmu_frame_slots + SLOT_SIZE * \id, 0xcc
	pushq	%rbx
	movl	%r8d, %ebx
	movq	%rdi, %r11
	movq	%rdx, %r8
	movq	%rcx, %rax
	movq	%rcx, %rdx
	shrq	$32, %rdx
	movq	%rsi, %rdi
	movq	%r8, %rsi
	movl	%ebx, %ecx
	lfence
	MARKER	ORACLE_KIND_START, \id
	wrmsr
	.if \id == 0
	.globl	pmu_frame_slot0_call
pmu_frame_slot0_call:
	.endif
	callq	*%r11
	.if \id == 0
	.globl	pmu_frame_slot0_return, pmu_frame_slot0_tail1, pmu_frame_slot0_tail2
	.globl	pmu_frame_slot0_tail3, pmu_frame_slot0_end
pmu_frame_slot0_return:
	.endif
	movl	%ebx, %ecx
	.if \id == 0
pmu_frame_slot0_tail1:
	.endif
	xorl	%eax, %eax
	.if \id == 0
pmu_frame_slot0_tail2:
	.endif
	xorl	%edx, %edx
	.if \id == 0
pmu_frame_slot0_tail3:
	.endif
	wrmsr
	.if \id == 0
pmu_frame_slot0_end:
	.endif
	MARKER	ORACLE_KIND_END, \id
	lfence
	popq	%rbx
	ret
.endm

	.text
	.altmacro
	.balign	128
	.globl	pmu_frame_slots
pmu_frame_slots:
	.set	slot, 0
	.rept	ORACLE_MAX_REGIONS
	SLOT	%slot
	.set	slot, slot + 1
	.endr
	.org	pmu_frame_slots + SLOT_SIZE * ORACLE_MAX_REGIONS, 0xcc

	.section .note.GNU-stack, "", @progbits
