/* SPDX-License-Identifier: MIT */
/* Fault-safe MMIO reads through the exception table (as rdmsr_safe). */
#include "arch/x86/mmio.h"
#include "arch/x86/percpu.h"
#include "arch/x86/trap.h"

int mmio_read32_safe(uint64_t addr, uint32_t *val)
{
	struct percpu *c = this_cpu();
	uint32_t v = 0xffffffffU;

	c->ex_vector = FAULT_NONE;
	asm volatile("1: movl (%1), %0\n2:\n\t" EX_TABLE_ENTRY(1b, 2b)
		     : "+r"(v) : "r"((uintptr_t)addr) : "memory");
	if (c->ex_vector != FAULT_NONE) {
		*val = 0xffffffffU;
		return c->ex_vector;
	}
	*val = v;
	return 0;
}
