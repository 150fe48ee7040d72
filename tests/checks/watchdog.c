/* SPDX-License-Identifier: MIT */
/* The watchdog stops a deliberately stuck loop and the run continues. */
#include "arch/x86/io.h"
#include "tests/harness/check.h"
#include "tests/harness/env.h"
#include "arch/x86/watchdog.h"

#define STUCK_LIMIT_US		50000ULL
/* Upper bound on how late the timer may fire: generous for emulators (TCG delivers
 * interrupts at translation-block boundaries, and -icount runs slower). */
#define STUCK_SLACK_US		2000000ULL

static void spin_forever(void *arg)
{
	volatile unsigned long *n = arg;

	for (;;) {
		(*n)++;
		cpu_relax();
	}
}

static enum check_status check_watchdog_stuck_loop(struct check_ctx *c)
{
	volatile unsigned long spins = 0;
	uint64_t elapsed = 0;
	enum guard_result r;

	if (!watchdog_usable())
		return check_skip(c, "%s", env.watchdog_note);
	r = guard_call(spin_forever, (void *)&spins, STUCK_LIMIT_US, &elapsed);
	if (r != GUARD_TIMEOUT)
		return check_result(c, CHECK_FAIL, "returned", "timeout");
	if (elapsed < STUCK_LIMIT_US || elapsed > STUCK_LIMIT_US + STUCK_SLACK_US)
		return check_result(c, CHECK_FAIL, "%llu us", "%llu..%llu us",
				    (unsigned long long)elapsed, STUCK_LIMIT_US,
				    STUCK_LIMIT_US + STUCK_SLACK_US);
	if (spins == 0)
		return check_result(c, CHECK_FAIL, "loop never ran", "spinning until stopped");
	return check_result(c, CHECK_PASS, "stopped after %llu us", "%llu..%llu us spins=%lu",
			    (unsigned long long)elapsed, STUCK_LIMIT_US, STUCK_LIMIT_US + STUCK_SLACK_US,
			    (unsigned long)spins);
}
CHECK_DEFINE(70, "watchdog.stuck_loop", check_watchdog_stuck_loop,
	     "the watchdog stops a deliberately stuck loop");
