/* SPDX-License-Identifier: MIT */
/* Self-IPI through the local APIC to the PMI vector: proves IDT + APIC delivery + EOI. */
#include "arch/x86/apic.h"
#include "tests/harness/check.h"
#include "arch/x86/io.h"
#include "arch/x86/trap.h"
#include "arch/x86/tsc.h"

static volatile unsigned ipi_count;
static volatile bool ipi_in_service;

static void ipi_handler(struct trap_frame *f)
{
	(void)f;
	ipi_count++;
	ipi_in_service = apic_in_service(VECTOR_PMI);
	apic_eoi();
}

/* Spins (interrupts as they are) until cond() or `us` elapse. */
static bool wait_us(bool (*cond)(void), uint64_t us)
{
	uint64_t t0 = rdtsc(), limit = tsc_from_us(us);

	while (!cond()) {
		if (rdtsc() - t0 > limit)
			return false;
		cpu_relax();
	}
	return true;
}

static bool delivered(void) { return ipi_count > 0; }
static bool pending(void) { return apic_irr_pending(VECTOR_PMI); }

static enum check_status check_apic_self_ipi(struct check_ctx *c)
{
	bool was_pending, held;
	uint64_t flags;
	enum check_status st;

	if (!apic.present)
		return check_result(c, CHECK_FAIL, "no local APIC", "enabled local APIC "
				    "(IA32_APIC_BASE[11])");
	ipi_count = 0;
	ipi_in_service = false;
	trap_set_handler(VECTOR_PMI, ipi_handler);

	flags = irq_save();
	apic_self_ipi(VECTOR_PMI);
	was_pending = wait_us(pending, 10000);
	held = ipi_count == 0;			/* IF=0 must hold it back */
	irq_enable();
	wait_us(delivered, 100000);
	irq_disable();
	/* Give a duplicate delivery the chance to show. */
	irq_enable();
	wait_us(pending, 1000);
	irq_disable();

	if (!held)
		st = check_result(c, CHECK_FAIL, "delivered with IF=0", "held pending until STI");
	else if (ipi_count != 1)
		st = check_result(c, CHECK_FAIL, "%u deliveries", "1 vector=0x%x", ipi_count, VECTOR_PMI);
	else if (!ipi_in_service)
		st = check_result(c, CHECK_FAIL, "ISR bit clear in handler", "set vector=0x%x", VECTOR_PMI);
	else if (apic_in_service(VECTOR_PMI) || apic_irr_pending(VECTOR_PMI))
		st = check_result(c, CHECK_FAIL, "ISR/IRR still set after EOI", "clear vector=0x%x",
				  VECTOR_PMI);
	else
		st = check_result(c, CHECK_PASS, "1 delivery", "1 vector=0x%x irr_before_sti=%d mode=%s",
				  VECTOR_PMI, was_pending, apic.x2apic ? "x2APIC" : "xAPIC");
	trap_set_handler(VECTOR_PMI, 0);
	irq_restore(flags);
	return st;
}
CHECK_DEFINE(60, "apic.self_ipi", check_apic_self_ipi,
	     "a self-IPI to the PMI vector waits for IF, is delivered once, EOI clears ISR");
