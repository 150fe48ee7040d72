/* SPDX-License-Identifier: MIT */
/*
 * kernel_loop4(n, arg): the calibrated loop. Exact model (kernel_loop4_desc):
 *   per iteration: 4 instructions (add, add, dec, jnz), 1 conditional branch (taken on all
 *   but the last iteration), 0 loads, 0 stores;
 *   fixed: 2 instructions (mov to the counter, ret); ret is 1 return and 1 load.
 * n must be >= 1 (n = 0 would run 2^64 iterations). arg is unused.
 */
	.text
	.globl	kernel_loop4
	.globl	kernel_loop4_top
	.globl	kernel_loop4_jnz
	.globl	kernel_loop4_ret
	.balign	64
kernel_loop4:
	movq	%rdi, %rcx
kernel_loop4_top:
	addq	$1, %rax
	addq	$1, %rdx
	decq	%rcx
kernel_loop4_jnz:
	jnz	kernel_loop4_top
kernel_loop4_ret:
	ret

/*
 * kernel_regs_loop(n, arg): a loop whose registers say which instruction retired last, for
 * checking the state a PEBS record captures. Exact model (kernel_regs_loop_desc):
 *   fixed: mov, xor, xor, xor (rcx = n, rax = rdx = r8 = 0) and ret = 5 instructions; ret is
 *          1 return and 1 load;
 *   per iteration: inc rax, inc rdx, inc r8, dec rcx, jnz = 5 instructions, 1 conditional
 *          branch (taken on all but the last iteration), 0 loads, 0 stores.
 * After k whole iterations and j more instructions of the next (j < 5): rax = k + (j >= 1),
 * rdx = k + (j >= 2), r8 = k + (j >= 3), rcx = n - k - (j >= 4).
 */
	.globl	kernel_regs_loop, kernel_regs_loop_top, kernel_regs_loop_i1, kernel_regs_loop_i2
	.globl	kernel_regs_loop_i3, kernel_regs_loop_jnz, kernel_regs_loop_ret
	.balign	64
kernel_regs_loop:
	movq	%rdi, %rcx
	xorl	%eax, %eax
	xorl	%edx, %edx
	xorl	%r8d, %r8d
kernel_regs_loop_top:
	incq	%rax
kernel_regs_loop_i1:
	incq	%rdx
kernel_regs_loop_i2:
	incq	%r8
kernel_regs_loop_i3:
	decq	%rcx
kernel_regs_loop_jnz:
	jnz	kernel_regs_loop_top
kernel_regs_loop_ret:
	ret

	.section .note.GNU-stack, "", @progbits
