/* SPDX-License-Identifier: MIT */
/*
 * kernel_branch_mix(n, arg): every kind of near branch LBR_SELECT sorts, once per iteration,
 * for the LBR filter checks. arg points to one quadword where the kernel stores its stack
 * pointer at entry (the model needs it to know the lines the CALLs' return addresses use).
 * Exact model (kernel_branch_mix_desc):
 *   fixed: mov (store rsp), mov, lea, lea, and ret = 5 instructions; 1 store, 1 load (ret),
 *          1 return;
 *   per iteration: jmp (near relative), jmp *%r8 (near indirect), call (near relative), ret,
 *          call *%r9 (near indirect), ret, dec, jnz = 8 instructions; 2 jumps, 2 calls, 2
 *          returns, 1 conditional branch (taken on all but the last iteration); 2 stores (the
 *          return addresses, both at rsp - 8) and 2 loads (the RETs).
 * Taken branches per iteration, in order: jmp_rel -> jmp_ind, jmp_ind -> ind_target,
 * call_rel -> fn, fn -> after_call_rel, call_ind -> fn, fn -> after_call_ind, jnz -> top.
 */
	.text
	.globl	kernel_branch_mix, kernel_branch_mix_top, kernel_branch_mix_jmp_ind
	.globl	kernel_branch_mix_ind_target, kernel_branch_mix_call_ind
	.globl	kernel_branch_mix_after_call_ind, kernel_branch_mix_jnz, kernel_branch_mix_ret
	.globl	kernel_branch_mix_fn
	.balign	64
kernel_branch_mix:
	movq	%rsp, (%rsi)
	movq	%rdi, %rcx
	leaq	kernel_branch_mix_ind_target(%rip), %r8
	leaq	kernel_branch_mix_fn(%rip), %r9
kernel_branch_mix_top:
	jmp	kernel_branch_mix_jmp_ind
	ud2
kernel_branch_mix_jmp_ind:
	jmp	*%r8
	ud2
kernel_branch_mix_ind_target:
	call	kernel_branch_mix_fn
kernel_branch_mix_call_ind:
	call	*%r9
kernel_branch_mix_after_call_ind:
	decq	%rcx
kernel_branch_mix_jnz:
	jnz	kernel_branch_mix_top
kernel_branch_mix_ret:
	ret
	.balign	16
kernel_branch_mix_fn:
	ret

	.section .note.GNU-stack, "", @progbits
