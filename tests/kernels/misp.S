/* SPDX-License-Identifier: MIT */
/*
 * kernel_ind_misp(n, arg): indirect branches with random targets and a return that never
 * goes where its call came from, for the mispredicted-branch events. arg: struct ind_misp
 * (kernels.h): the kernel stores its entry rsp at 0 and steps the Galois LFSR whose state
 * and taps are at 8 and 16. Per iteration: the LFSR step (6), a target chosen by the new
 * state's bit 0 (mov, test, cmovnz) and `jmp *` to t0 or t1, each `jmp join`; a function
 * chosen by bit 40 (lea, bt, lea, cmovc: bit 1 would be the next
 * iteration's bit 0, which a path-history predictor could learn) and `call *` to f0 or f1, each a `ret`; `call fr`,
 * whose body puts `back` over its return address and returns there (the return stack
 * predicts the call's own next instruction: every such return is mispredicted); dec, jnz:
 * 23 instructions; 2 jumps (one indirect), 2 calls (one indirect), 2 returns, 1 conditional
 * branch; 3 stores (two return addresses and the overwrite, all at rsp - 8), 2 loads (the
 * returns). Fixed: mov (store rsp), 2 loads of the LFSR, mov, 2 lea, and ret = 7.
 */
	.text
	.globl	kernel_ind_misp, kernel_ind_misp_top, kernel_ind_misp_jmp_ind
	.globl	kernel_ind_misp_t0, kernel_ind_misp_t1, kernel_ind_misp_join
	.globl	kernel_ind_misp_call_ind, kernel_ind_misp_f0, kernel_ind_misp_f1
	.globl	kernel_ind_misp_call_rel, kernel_ind_misp_fr, kernel_ind_misp_fr_ret
	.globl	kernel_ind_misp_back, kernel_ind_misp_jnz, kernel_ind_misp_ret
	.balign	64
kernel_ind_misp:
	movq	%rsp, (%rsi)
	movq	8(%rsi), %r8
	movq	16(%rsi), %r9
	movq	%rdi, %rcx
	leaq	kernel_ind_misp_t0(%rip), %r10
	leaq	kernel_ind_misp_t1(%rip), %r11
kernel_ind_misp_top:
	movq	%r8, %rax
	andl	$1, %eax
	negq	%rax
	andq	%r9, %rax
	shrq	$1, %r8
	xorq	%rax, %r8
	movq	%r10, %rdx
	testb	$1, %r8b
	cmovnzq	%r11, %rdx
kernel_ind_misp_jmp_ind:
	jmp	*%rdx
kernel_ind_misp_t0:
	jmp	kernel_ind_misp_join
kernel_ind_misp_t1:
	jmp	kernel_ind_misp_join
kernel_ind_misp_join:
	leaq	kernel_ind_misp_f0(%rip), %rdx
	btq	$40, %r8
	leaq	kernel_ind_misp_f1(%rip), %rax
	cmovcq	%rax, %rdx
kernel_ind_misp_call_ind:
	call	*%rdx
kernel_ind_misp_call_rel:
	call	kernel_ind_misp_fr
	ud2
kernel_ind_misp_back:
	decq	%rcx
kernel_ind_misp_jnz:
	jnz	kernel_ind_misp_top
kernel_ind_misp_ret:
	ret

kernel_ind_misp_f0:
	ret
kernel_ind_misp_f1:
	ret
kernel_ind_misp_fr:
	leaq	kernel_ind_misp_back(%rip), %rax
	movq	%rax, (%rsp)
kernel_ind_misp_fr_ret:
	ret

	.section .note.GNU-stack, "", @progbits
