/* SPDX-License-Identifier: MIT */
/* Watchdog: runs a function with interrupts enabled under a local-APIC one-shot timer, and
 * unwinds it if it overruns. */
#ifndef ARCH_X86_WATCHDOG_H
#define ARCH_X86_WATCHDOG_H

#include <stdbool.h>
#include <stdint.h>

enum guard_result {
	GUARD_DONE = 0,		/* fn returned */
	GUARD_TIMEOUT,		/* the watchdog fired and unwound fn */
};

/* Installs the timer vector handler; `usable` says whether the APIC timer may be used. */
void watchdog_init(bool usable);
bool watchdog_usable(void);

/*
 * Calls fn(arg) with interrupts enabled. With a usable watchdog and timeout_us > 0, fn is
 * abandoned after timeout_us (its stack frames are discarded; it must hold no locks) and
 * GUARD_TIMEOUT is returned. Interrupts are disabled again on return either way.
 * *elapsed_us receives the time fn ran (TSC-measured), when non-NULL.
 */
enum guard_result guard_call(void (*fn)(void *), void *arg, uint64_t timeout_us,
			     uint64_t *elapsed_us);

/*
 * Halts this CPU (STI; HLT) until an interrupt, with the APIC timer set to end it after
 * about `us` microseconds; afterwards the timer is the guard's again (its deadline re-armed;
 * a guard due sooner fires late, by at most `us`), or stopped where no guard runs, so that
 * no tick of the nap's comes after it. *ticks gets
 * the TSC ticks from the HLT's start to its end (less when another interrupt ended it
 * first). -1 without halting where nothing would end the halt: no usable timer, or this
 * CPU's timer entry reads back masked or its APIC is software-disabled (a CPU the firmware
 * re-initialised, for one). Interrupts are as they were on return.
 */
int watchdog_nap(uint64_t us, uint64_t *ticks);

/*
 * watchdog_nap() with MONITOR (on a line of its own) and MWAIT, EAX = hint (the target
 * C-state in bits 7:4, less one, and its sub-state in 3:0; SDM Vol. 2B MWAIT), ECX = 0. The
 * caller makes sure CPUID.01H:ECX.MONITOR[3] is set. MWAIT may end early for any reason;
 * *ticks says how long it lasted.
 */
int watchdog_mwait(uint64_t us, uint32_t hint, uint64_t *ticks);

#endif /* ARCH_X86_WATCHDOG_H */
