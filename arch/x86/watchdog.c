/* SPDX-License-Identifier: MIT */
/* Check watchdog on the local APIC timer (re-armed until the TSC deadline passes). */
#include "arch/x86/watchdog.h"
#include "arch/x86/apic.h"
#include "arch/x86/io.h"
#include "arch/x86/percpu.h"
#include "arch/x86/trap.h"
#include "arch/x86/tsc.h"

static bool usable;

/* The timer set to fire at TSC `deadline` (at once where it has passed). */
static void arm_until(uint64_t deadline)
{
	uint64_t now = rdtsc();

	apic_timer_oneshot(VECTOR_WATCHDOG, now < deadline ? tsc_to_us(deadline - now) + 1 : 1);
}

static void watchdog_irq(struct trap_frame *f)
{
	struct percpu *c = this_cpu();
	uint64_t now = rdtsc();
	struct recover_point *rp;

	apic_eoi();
	if (!c->guard_armed || !c->guard_rp)
		return;		/* a late tick after the check finished */
	if (now < c->guard_deadline) {
		/* The APIC counter is 32 bits: long limits take several rounds. */
		arm_until(c->guard_deadline);
		return;
	}
	rp = c->guard_rp;
	c->guard_armed = 0;
	c->guard_rp = 0;
	c->probe_rp = 0;	/* any probe inside the check is abandoned too */
	c->guard_fired_tsc = now;
	recover_resume(f, rp, GUARD_TIMEOUT);
}

void watchdog_init(bool ok)
{
	usable = ok;
	trap_set_handler(VECTOR_WATCHDOG, watchdog_irq);
}

bool watchdog_usable(void)
{
	return usable;
}

enum guard_result guard_call(void (*fn)(void *), void *arg, uint64_t timeout_us,
			     uint64_t *elapsed_us)
{
	struct percpu *c = this_cpu();
	struct recover_point rp;
	/* A guard may run inside another (the watchdog check runs under the runner's guard):
	 * the outer one is saved here and re-armed for its remaining time afterwards. */
	struct recover_point *outer_rp = c->guard_rp;
	int outer_armed = c->guard_armed;
	uint64_t outer_deadline = c->guard_deadline;
	volatile uint64_t t0;
	enum guard_result res;
	int code;

	irq_disable();
	t0 = rdtsc();
	code = recover_set(&rp);
	if (code == 0) {
		if (usable && timeout_us) {
			c->guard_deadline = t0 + tsc_from_us(timeout_us);
			c->guard_rp = &rp;
			c->guard_armed = 1;
			apic_timer_oneshot(VECTOR_WATCHDOG, timeout_us);
		}
		irq_enable();
		fn(arg);
		irq_disable();
		res = GUARD_DONE;
	} else {
		res = GUARD_TIMEOUT;	/* resumed by watchdog_irq with interrupts off */
	}
	c->guard_armed = 0;
	c->guard_rp = 0;
	if (usable)
		apic_timer_stop();
	if (elapsed_us)
		*elapsed_us = tsc_to_us(rdtsc() - t0);
	if (outer_armed && outer_rp) {
		c->guard_deadline = outer_deadline;
		c->guard_rp = outer_rp;
		c->guard_armed = 1;
		arm_until(outer_deadline);
	}
	return res;
}

/* The line MONITOR arms for watchdog_mwait(): nothing writes it, only the tick wakes. */
static volatile uint64_t mwait_line[8] __attribute__((aligned(64)));

/* watchdog_nap() with HLT (hint < 0) or MONITOR/MWAIT with EAX = hint, ECX = 0. */
static int nap(uint64_t us, int hint, uint64_t *ticks)
{
	uint64_t flags, t0;

	*ticks = 0;
	if (!usable)
		return -1;
	flags = irq_save();
	apic_timer_oneshot(VECTOR_WATCHDOG, us);
	if ((apic_read(APIC_LVTT) & APIC_LVT_MASKED) || !(apic_read(APIC_SVR) & APIC_SVR_ENABLE)) {
		irq_restore(flags);
		return -1;
	}
	t0 = rdtsc();
	/* STI's shadow covers the HLT or MWAIT: an interrupt due now ends the wait, not
	 * precedes it. MWAIT with ECX = 0 wakes on an interrupt only with IF set. */
	if (hint < 0) {
		asm volatile("sti; hlt; cli" ::: "memory");
	} else {
		asm volatile("monitor" :: "a"(mwait_line), "c"(0), "d"(0) : "memory");
		asm volatile("sti; mwait; cli" :: "a"((uint32_t)hint), "c"(0) : "memory");
	}
	*ticks = rdtsc() - t0;
	/* Another interrupt may have ended the halt before the tick: the tick must not come
	 * later, inside whatever the caller measures next. A guard running gets its own
	 * deadline back (its handler did that already if the tick came). */
	if (this_cpu()->guard_armed && this_cpu()->guard_rp)
		arm_until(this_cpu()->guard_deadline);
	else
		apic_timer_stop();
	irq_restore(flags);
	return 0;
}

int watchdog_nap(uint64_t us, uint64_t *ticks)
{
	return nap(us, -1, ticks);
}

int watchdog_mwait(uint64_t us, uint32_t hint, uint64_t *ticks)
{
	return nap(us, (int)(hint & 0xff), ticks);
}
