/* SPDX-License-Identifier: MIT */
/*
 * kernel_cpuid_loop(n, arg): a CPUID (leaf 0) every iteration. CPUID is neither a branch
 * nor a far transfer, yet some parts count it as a retired branch (pmu-errata.md W146:
 * BR_INST_RETIRED.ANY counts CPUID); under a hypervisor CPUID always exits, and the
 * virtual PMU must still count it once as an instruction. Exact model
 * (kernel_cpuid_loop_desc):
 *   per iteration: 5 instructions (xor, xor, cpuid, dec, jnz), 1 conditional branch
 *   (taken on all but the last iteration), 0 loads, 0 stores;
 *   fixed: 4 instructions (save rbx, counter, restore rbx, ret); ret is 1 return and 1 load.
 * n must be >= 1. arg is unused. Clobbers rax, rcx, rdx, r8, r9 (rbx is restored).
 */
	.text
	.globl	kernel_cpuid_loop
	.globl	kernel_cpuid_loop_top
	.globl	kernel_cpuid_loop_jnz
	.globl	kernel_cpuid_loop_ret
	.balign	64
kernel_cpuid_loop:
	movq	%rbx, %r9
	movq	%rdi, %r8
kernel_cpuid_loop_top:
	xorl	%eax, %eax
	xorl	%ecx, %ecx
	cpuid
	decq	%r8
kernel_cpuid_loop_jnz:
	jnz	kernel_cpuid_loop_top
	movq	%r9, %rbx
kernel_cpuid_loop_ret:
	ret

	.section .note.GNU-stack, "", @progbits
