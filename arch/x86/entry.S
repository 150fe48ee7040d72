/* SPDX-License-Identifier: MIT */
/* Interrupt/exception entry stubs for all 256 vectors, the common trap path, recover_set. */

	.text
	.code64
	.altmacro		/* so VECTOR %vec expands the current number */

/* Vectors for which the CPU pushes an error code (SDM Vol. 3A Table 6-1). */
.macro VECTOR n
	/* Stub n sits at vector_stubs + 16 * n (C computes the gate addresses that way); an
	 * overlong stub makes this .org move backwards, which the assembler rejects. */
	.org	vector_stubs + 16 * \n, 0xcc
	.if (\n == 8) || ((\n >= 10) && (\n <= 14)) || (\n == 17) || (\n == 21) || (\n == 29) || (\n == 30)
	.else
	pushq	$0
	.endif
	.if \n < 128
	pushq	$\n
	.else
	pushq	$(\n - 256)	/* push imm8 sign-extends; trap_common masks it back */
	.endif
	jmp	trap_common
.endm

	.balign 16
	.globl	vector_stubs
vector_stubs:
	.set	vec, 0
	.rept	256
	VECTOR	%vec
	.set	vec, vec + 1
	.endr
	.org	vector_stubs + 16 * 256, 0xcc

/*
 * Frame layout (struct trap_frame in trap.h): r15 ... rax, vector, error_code, then what the
 * CPU pushed: rip, cs, rflags, rsp, ss. 15 GPRs + 2 + 5 = 22 quadwords = 176 bytes, so the
 * stack stays 16-byte aligned for the C call (the CPU aligned it before pushing).
 */
trap_common:
	pushq	%rax
	pushq	%rbx
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%rbp
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	andq	$0xff, 120(%rsp)	/* vector: undo the imm8 sign extension */
	cld
	movq	%rsp, %rdi
	call	trap_dispatch
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rbp
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	popq	%rbx
	popq	%rax
	addq	$16, %rsp		/* vector, error code */
	iretq

/*
 * int recover_set(struct recover_point *rp): like setjmp. Returns 0; a later
 * recover_resume() (trap.c) makes it return again with a non-zero code.
 */
	.globl	recover_set
recover_set:
	movq	%rbx, 0(%rdi)
	movq	%rbp, 8(%rdi)
	movq	%r12, 16(%rdi)
	movq	%r13, 24(%rdi)
	movq	%r14, 32(%rdi)
	movq	%r15, 40(%rdi)
	leaq	8(%rsp), %rax
	movq	%rax, 48(%rdi)
	movq	(%rsp), %rax
	movq	%rax, 56(%rdi)
	pushfq
	popq	%rax
	movq	%rax, 64(%rdi)
	movq	%cs, %rax
	movq	%rax, 72(%rdi)
	movq	%ss, %rax
	movq	%rax, 80(%rdi)
	xorl	%eax, %eax
	ret

/*
 * void recover_jump(const struct recover_point *rp, int code): makes recover_set(rp)
 * return `code` (non-zero) again, from ordinary code (no trap frame involved).
 */
	.globl	recover_jump
recover_jump:
	movq	0(%rdi), %rbx
	movq	8(%rdi), %rbp
	movq	16(%rdi), %r12
	movq	24(%rdi), %r13
	movq	32(%rdi), %r14
	movq	40(%rdi), %r15
	movq	48(%rdi), %rsp
	pushq	64(%rdi)
	popfq
	movl	%esi, %eax
	jmpq	*56(%rdi)

/*
 * void call_on_stack(void *stack_top, void (*fn)(void *), void *arg): runs fn(arg) on a new
 * stack; fn must not return (it ends the run).
 */
	.globl	call_on_stack
call_on_stack:
	andq	$-16, %rdi
	movq	%rdi, %rsp
	xorl	%ebp, %ebp
	movq	%rdx, %rdi
	callq	*%rsi
1:	cli
	hlt
	jmp	1b

/*
 * void call_on_stack_return(void *stack_top, void (*fn)(void *), void *arg): runs fn(arg)
 * on another stack and comes back to the caller's.
 */
	.globl	call_on_stack_return
call_on_stack_return:
	pushq	%rbx
	movq	%rsp, %rbx
	andq	$-16, %rdi
	movq	%rdi, %rsp
	movq	%rdx, %rdi
	callq	*%rsi
	movq	%rbx, %rsp
	popq	%rbx
	ret

/*
 * void enter_user(fn, a0, a1, a2, a3, stack_top): IRETQ to CPL 3 at user_trampoline with
 * fn in r11 and a0..a3 in rdi, rsi, rdx, rcx; interrupts stay off. The trampoline calls
 * fn and returns to CPL 0 through INT VECTOR_USER_EXIT (arch/x86/user.c resumes there).
 */
#define USER_CS_SEL	(3 * 8 + 3)	/* arch/x86/desc.h */
#define USER_DS_SEL	(4 * 8 + 3)
#define VECTOR_USER_EXIT_NR 0x80	/* arch/x86/user.h */

	.text
	.globl	enter_user
enter_user:
	movq	%rdi, %r11
	movq	%rsi, %rdi
	movq	%rdx, %rsi
	movq	%rcx, %rdx
	movq	%r8, %rcx
	pushq	$USER_DS_SEL
	pushq	%r9
	pushq	$0x2
	pushq	$USER_CS_SEL
	leaq	user_trampoline(%rip), %rax
	pushq	%rax
	iretq

	.globl	user_trampoline
user_trampoline:
	callq	*%r11
	int	$VECTOR_USER_EXIT_NR
	ud2

/* Small CPL-3 probes for the user-mode checks. */
	.globl	user_probe_cli, user_probe_rdpmc0, user_probe_hlt, user_probe_iret
user_probe_cli:
	cli
	ret
user_probe_rdpmc0:
	xorl	%ecx, %ecx
	rdpmc
	shlq	$32, %rdx
	orq	%rdx, %rax
	ret
user_probe_hlt:
	hlt
	ret

/*
 * user_probe_iret: called by the trampoline right after enter_user's IRETQ, the first CPL-3
 * instructions of a user call, it raises #UD at once (a faulting instruction does not
 * retire). At CPL 3 there retired the IRETQ (if it counts there) and the trampoline's CALL;
 * the #UD's delivery took the CPU back to CPL 0, where the caller reads its counters. One
 * delivery from CPL 3 and one IRETQ into it: what a PMI at CPL 3 adds too.
 */
user_probe_iret:
	ud2

	.section .note.GNU-stack, "", @progbits
