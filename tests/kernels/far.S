/* SPDX-License-Identifier: MIT */
/*
 * kernel_iret_loop(n, arg): a far transfer every iteration, an IRETQ to the next
 * instruction at the same privilege (errata such as Sierra Forest's SRF7 count far
 * transfers twice). The stack is first aligned down to a page boundary A, so the frame
 * IRETQ pops (SS, RSP = A, RFLAGS, CS, RIP) always fills the line and page just below A,
 * never the caller's. Exact model (kernel_iret_loop_desc):
 *   per iteration: 12 instructions (mov ss, push, lea, push, pushf, mov cs, push, lea,
 *   push, iretq, dec, jnz); 1 far branch (iretq, taken to the next instruction) and 1
 *   conditional branch (taken on all but the last iteration); 5 stores (the pushes), 1
 *   load (iretq);
 *   fixed: 5 instructions (save rsp, align, counter, restore rsp, ret); ret is 1 return and
 *   1 load; data: 1 line and 1 page below A, besides the caller's, and the GDT lines and
 *   page IRETQ reads the CS and SS descriptors from.
 * n must be >= 1. arg is unused. Clobbers rax, rcx, r8.
 */
	.text
	.globl	kernel_iret_loop, kernel_iret_loop_top, kernel_iret_loop_iret
	.globl	kernel_iret_loop_back, kernel_iret_loop_jnz, kernel_iret_loop_ret
	.balign	64
kernel_iret_loop:
	movq	%rsp, %r8
	andq	$-4096, %rsp
	movq	%rdi, %rcx
kernel_iret_loop_top:
	movl	%ss, %eax
	pushq	%rax				/* SS */
	leaq	8(%rsp), %rax
	pushq	%rax				/* RSP: A again after IRETQ */
	pushfq					/* RFLAGS (IF as it was) */
	movl	%cs, %eax
	pushq	%rax				/* CS */
	leaq	kernel_iret_loop_back(%rip), %rax
	pushq	%rax				/* RIP */
kernel_iret_loop_iret:
	iretq
kernel_iret_loop_back:
	decq	%rcx
kernel_iret_loop_jnz:
	jnz	kernel_iret_loop_top
	movq	%r8, %rsp
kernel_iret_loop_ret:
	ret

	.section .note.GNU-stack, "", @progbits
