/* SPDX-License-Identifier: MIT */
/* Checks that fail, hang or fault on purpose, to prove the runner reports each correctly.
 * They are manual: selected only by tests=selftest.* (the QEMU boot tests do that). */
#include "arch/x86/apic.h"
#include "arch/x86/io.h"
#include "arch/x86/trap.h"
#include "tests/harness/check.h"
#include "arch/x86/smp.h"
#include "arch/x86/user.h"
#include "pmu/counter.h"
#include "pmu/event.h"

static enum check_status check_selftest_fail(struct check_ctx *c)
{
	return check_result(c, CHECK_FAIL, "1", "2 (fails by design)");
}
CHECK_DEFINE(320, "selftest.fail", check_selftest_fail,
	     "fails by design: proves a failing check fails the run",
	     .flags = CHECK_MANUAL | CHECK_PER_CPU);

static enum check_status check_selftest_hang(struct check_ctx *c)
{
	(void)c;
	for (;;)
		cpu_relax();
	return CHECK_FAIL;	/* not reached; gcc wants it of a static function */
}
CHECK_DEFINE(330, "selftest.hang", check_selftest_hang,
	     "hangs by design: the watchdog must report it and the run go on",
	     .flags = CHECK_MANUAL | CHECK_PER_CPU, .timeout_ms = 200);

/* The same inside own_tables_call(): the cleanup must put the firmware's CR3 and CR4 back
 * (pmuboot's tables have SMEP/SMAP off) and say so. */
static void hang_here(void *arg)
{
	(void)arg;
	for (;;)
		cpu_relax();
}

static enum check_status check_selftest_hang_own_tables(struct check_ctx *c)
{
	if (own_tables_unavailable())
		return check_skip(c, "%s", own_tables_unavailable());
	own_tables_call(hang_here, NULL);
	return check_result(c, CHECK_FAIL, "own_tables_call() returned", "a hang");
}
CHECK_DEFINE(335, "selftest.hang_own_tables", check_selftest_hang_own_tables,
	     "hangs on pmuboot's own page tables by design: the watchdog stops it, the cleanup puts CR3 back",
	     .flags = CHECK_MANUAL | CHECK_PER_CPU, .timeout_ms = 200);

static enum check_status check_selftest_fault(struct check_ctx *c)
{
	(void)c;
	asm volatile("ud2" ::: "memory");	/* no probe: this must be fatal */
	return check_result(c, CHECK_FAIL, "ud2 did not fault", "fatal #UD");
}
CHECK_DEFINE(340, "selftest.fault", check_selftest_fault,
	     "faults by design: an unexpected #UD ends the run with a report (on another CPU: fails the check, the run goes on)",
	     .flags = CHECK_MANUAL | CHECK_PER_CPU);

/* An APIC error on purpose: a read of the reserved register at offset 40H latches
 * "illegal register address" (ESR bit 7, SDM Vol. 3A 10.5.3). A part raises the error
 * interrupt itself; QEMU's APIC only latches the bit, so INT 0FEH delivers it as well (on a
 * part: a second interrupt, which finds the ESR already read). The handler counts it and
 * system.unexpected_interrupts must then fail, naming the ESR bits. */
static enum check_status check_selftest_apic_error(struct check_ctx *c)
{
	if (!apic.present)
		return check_skip(c, "no local APIC");
	(void)apic_read(0x040);
	asm volatile("int %0" :: "i"(VECTOR_APIC_ERROR) : "memory");
	return check_result(c, CHECK_PASS, "an illegal APIC register read, then INT 0x%x",
			    "system.unexpected_interrupts to fail naming ESR bit 0x80",
			    VECTOR_APIC_ERROR);
}
CHECK_DEFINE(345, "selftest.apic_error", check_selftest_apic_error,
	     "an APIC error by design: system.unexpected_interrupts must fail naming the ESR bits",
	     .flags = CHECK_MANUAL);

/* Interrupts off for ever: the CPU's own watchdog cannot stop it, only the limit run_on()
 * puts on the whole call (after which the CPU is stopped with INIT). On the bootstrap
 * processor nothing could end it, so it runs only on the others. It hangs with GP0
 * counting, as a check stopped in its window would: INIT keeps the PMU (SDM Vol. 3A Table
 * 9-1), so pmuboot must stop it before it gives the CPU up, and report what it found. */
static enum check_status check_selftest_hang_irqs_off(struct check_ctx *c)
{
	struct pmu_evtsel e = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	char err[PMU_ERR_LEN];

	if (smp_this_cpu() == 0)
		return check_skip(c, "on the bootstrap processor nothing can end a loop with "
				  "interrupts off; choose another CPU with cpus=");
	if (pmu.version >= 1 && pmu.num_gp &&
	    pmu_gp_program(&pmu, 0, pmu_evtsel_encode(&e), 0, err, sizeof(err)) == 0 &&
	    pmu.version >= 2)
		pmu_global_ctrl_write(&pmu, 1, err, sizeof(err));
	irq_disable();
	for (;;)
		cpu_relax();
}
CHECK_DEFINE(350, "selftest.hang_irqs_off", check_selftest_hang_irqs_off,
	     "hangs with interrupts off by design (not on CPU 0): the CPU must be reported lost and stopped, the run go on",
	     .flags = CHECK_MANUAL | CHECK_PER_CPU, .timeout_ms = 200);
