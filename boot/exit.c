/* SPDX-License-Identifier: MIT */
/* Ending a run: QEMU isa-debug-exit, UEFI ResetSystem, halt, or back to efi_main. */
#include "arch/x86/console.h"
#include "arch/x86/io.h"
#include "arch/x86/serial.h"
#include "arch/x86/smp.h"
#include "arch/x86/trap.h"
#include "boot/main.h"
#include "boot/platform.h"
#include "boot/uefi.h"
#include "pmu/counter.h"
#include "pmu/uncore.h"

static const uint8_t debug_exit_code[] = {
	[RUN_PASS] = DEBUG_EXIT_PASS,
	[RUN_FAIL] = DEBUG_EXIT_FAIL,
	[RUN_USAGE] = DEBUG_EXIT_USAGE,
	[RUN_FATAL] = DEBUG_EXIT_FATAL,
};

static const char *const run_status_name[] = {
	[RUN_PASS] = "pass",
	[RUN_FAIL] = "fail",
	[RUN_USAGE] = "usage",
	[RUN_FATAL] = "fatal",
};

static const char *const on_exit_word[] = {
	[ON_EXIT_DEFAULT] = "shutdown",	/* options_on_exit() never returns it */
	[ON_EXIT_SHUTDOWN] = "shutdown",
	[ON_EXIT_REBOOT] = "reboot",
	[ON_EXIT_HALT] = "halt",
	[ON_EXIT_RETURN] = "return",
};

uint64_t run_status_to_efi(enum run_status st)
{
	switch (st) {
	case RUN_PASS: return UEFI_STATUS_SUCCESS;
	case RUN_USAGE: return UEFI_STATUS_INVALID_PARAMETER;
	default: return UEFI_STATUS_ABORTED;
	}
}

void platform_final_action(enum run_status st, bool boot_services)
{
	enum opt_on_exit how = options_on_exit(&plat.opt);

	if (how == ON_EXIT_RETURN && boot_services && smp.pmu_unsafe) {
		/* A CPU given up with its PMU not stopped may write PEBS or BTS records into
		 * memory the firmware gets back: never return to it then. */
		con_printf("# error: %u CPU(s) given up with their PMU possibly armed (counters, "
			   "PEBS, BTS): halting instead of returning to the firmware (on-exit=return)\n",
			   smp.pmu_unsafe);
		how = ON_EXIT_HALT;
	}
	/* The run's closing line: its verdict and what happens next, so that whoever reads the
	 * serial port (run.sh, LAVA) can end the run here, whatever the firmware does after. */
	con_printf("# end: status=%s on-exit=%s\n", run_status_name[st],
		   how == ON_EXIT_RETURN && !boot_services ? "halt" : on_exit_word[how]);
	serial_flush();
	if (how == ON_EXIT_RETURN && boot_services)
		return;
	if (how == ON_EXIT_SHUTDOWN && plat.debug_exit)
		outb(DEBUG_EXIT_PORT, debug_exit_code[st]);	/* QEMU exits here */
	if (how == ON_EXIT_SHUTDOWN || how == ON_EXIT_REBOOT)
		uefi_reset(how == ON_EXIT_REBOOT ? UEFI_RESET_COLD : UEFI_RESET_SHUTDOWN,
			   run_status_to_efi(st));
	/* halt, or a reset that returned */
	for (;;) {
		irq_disable();
		hlt();
	}
}

void platform_exit(enum run_status st)
{
	/* Leave the PMU as the firmware had it (while this_cpu() and the fault fixups still
	 * work: boot-services=keep gives GS back to the firmware in efi_main). */
	pmu_boot_restore();
	/* The other CPUs' PMUs too (the runner restores each after its checks; a run that
	 * ended early has not), then those CPUs back to wait-for-SIPI. */
	for (unsigned i = 1; i < smp.ncpus; i++)
		if (smp.cpu[i].state == SMP_IDLE && pmu_cpus[i].probed)
			run_on(i, pmu_cpu_restore, &pmu_cpus[i], 100000);
	smp_park_all();
	uncore_boot_restore();		/* only if a check wrote the uncore */
	if (plat.boot_services_kept)
		main_return_to_efi(st);		/* efi_main tears down, writes the results file */
	platform_final_action(st, false);
	for (;;)
		hlt();
}
