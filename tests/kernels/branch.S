/* SPDX-License-Identifier: MIT */
/*
 * Branch-pattern kernels. The measured branch is a JC/JNZ whose outcome the data decides;
 * when not taken it falls through a NOP.
 *
 * kernel_branch_pattern(n, p): p = { uint64_t bits; uint64_t period; }, 1 <= period <= 64.
 *   Iteration i takes the pattern branch iff bit (i mod period) of bits is set.
 *   fixed: 2 loads (bits, period), 2 xors, counter setup, ret = 6 instructions, 3 loads
 *          (2 + ret), 1 return
 *   per iteration: bt, jc, [nop when not taken], inc, cmp, cmovae, dec, jnz
 *          = 7 instructions + 1 per not-taken pattern branch; 2 conditional branches
 *   always taken: bits=1 period=1; never: bits=0 period=1; alternating: bits=2 period=2.
 *
 * kernel_branch_lfsr(n, p): p = { uint64_t state; uint64_t taps; } (state != 0).
 *   Galois LFSR step without branches, then the branch on the new low bit:
 *   fixed: 2 loads, counter setup, ret = 4 instructions, 3 loads, 1 return
 *   per iteration: mov, and, neg, and, shr, xor (step), test, jnz, [nop when not taken],
 *          dec, jnz = 10 instructions + 1 per not-taken; 2 conditional branches
 *   The state sequence is known by construction (kernels.c steps the same LFSR), and about
 *   half its low bits are set: an unpredictable branch.
 */
	.text
	.globl	kernel_branch_pattern, kernel_branch_pattern_top, kernel_branch_pattern_jc
	.globl	kernel_branch_pattern_skip, kernel_branch_pattern_jnz, kernel_branch_pattern_ret
	.globl	kernel_branch_pattern_nop
	.balign	64
kernel_branch_pattern:
	movq	(%rsi), %r8
	movq	8(%rsi), %r9
	xorl	%r10d, %r10d
	xorl	%r11d, %r11d
	movq	%rdi, %rcx
kernel_branch_pattern_top:
	btq	%r10, %r8
kernel_branch_pattern_jc:
	jc	kernel_branch_pattern_skip
kernel_branch_pattern_nop:
	nop
kernel_branch_pattern_skip:
	incq	%r10
	cmpq	%r9, %r10
	cmovaeq	%r11, %r10
	decq	%rcx
kernel_branch_pattern_jnz:
	jnz	kernel_branch_pattern_top
kernel_branch_pattern_ret:
	ret

	.globl	kernel_branch_lfsr, kernel_branch_lfsr_top, kernel_branch_lfsr_jb
	.globl	kernel_branch_lfsr_skip, kernel_branch_lfsr_jnz, kernel_branch_lfsr_ret
	.balign	64
kernel_branch_lfsr:
	movq	(%rsi), %r8
	movq	8(%rsi), %r9
	movq	%rdi, %rcx
kernel_branch_lfsr_top:
	movq	%r8, %rax
	andl	$1, %eax
	negq	%rax
	andq	%r9, %rax
	shrq	$1, %r8
	xorq	%rax, %r8
	testb	$1, %r8b
kernel_branch_lfsr_jb:
	jnz	kernel_branch_lfsr_skip
	nop
kernel_branch_lfsr_skip:
	decq	%rcx
kernel_branch_lfsr_jnz:
	jnz	kernel_branch_lfsr_top
kernel_branch_lfsr_ret:
	ret

	.section .note.GNU-stack, "", @progbits
