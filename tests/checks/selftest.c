/* SPDX-License-Identifier: MIT */
/* Checks that fail, hang or fault on purpose, to prove the runner reports each correctly.
 * They are manual: selected only by tests=selftest.* (the QEMU boot tests do that). */
#include "arch/x86/io.h"
#include "arch/x86/smp.h"
#include "tests/harness/checks.h"

enum check_status check_selftest_fail(struct check_ctx *c)
{
	return check_fail(c, "measured=1 expected=2 (fails by design)");
}

enum check_status check_selftest_hang(struct check_ctx *c)
{
	(void)c;
	for (;;)
		cpu_relax();
}

enum check_status check_selftest_fault(struct check_ctx *c)
{
	(void)c;
	asm volatile("ud2" ::: "memory");	/* no probe: this must be fatal */
	return check_fail(c, "measured=ud2 did not fault expected=fatal #UD");
}

/* Interrupts off for ever: the CPU's own watchdog cannot stop it, only the limit run_on()
 * puts on the whole call (after which the CPU is stopped with INIT). On the bootstrap
 * processor nothing could end it, so it runs only on the others. */
enum check_status check_selftest_hang_irqs_off(struct check_ctx *c)
{
	if (smp_this_cpu() == 0)
		return check_skip(c, "on the bootstrap processor nothing can end a loop with "
				  "interrupts off; choose another CPU with cpus=");
	irq_disable();
	for (;;)
		cpu_relax();
}
