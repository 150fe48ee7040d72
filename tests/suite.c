/* SPDX-License-Identifier: MIT */
/* The suite: every check, in run order. */
#include "tests/checks.h"

const struct check suite_checks[] = {
	{ "cpuid.sanity", "CPUID decode is self-consistent and agrees with the running CPU",
	  check_cpuid_sanity, 0, 0, 0, 0 },
	{ "fault.ud", "ud2 raises #UD and the probe recovers (twice)",
	  check_fault_ud, 0, 0, 0, 0 },
	{ "fault.gp_noncanonical", "a load from a non-canonical address raises #GP(0)",
	  check_fault_gp_noncanonical, 0, 0, 0, 0 },
	{ "fault.gp_msr_reserved", "WRMSR setting reserved bits of IA32_PKRS raises #GP(0)",
	  check_fault_gp_msr_reserved, 0, 0, 0, 0 },
	{ "fault.rdpmc_invalid", "RDPMC of a counter no PMU has faults (#GP; #UD where a hypervisor has no RDPMC)",
	  check_fault_rdpmc_invalid, 0, 0, 0, 0 },
	{ "apic.self_ipi", "a self-IPI to the PMI vector waits for IF, is delivered once, EOI clears ISR",
	  check_apic_self_ipi, 0, 0, 0, 0 },
	{ "watchdog.stuck_loop", "the watchdog stops a deliberately stuck loop",
	  check_watchdog_stuck_loop, 0, 0, 0, 0 },
	{ "icount.loop_delta", "count(2N) - count(N) = 4N exactly for the calibrated loop (-icount)",
	  check_icount_loop_delta, 0, 0, 0, 0 },
	{ "icount.repeatable", "reps= repetitions of the framed loop read the same count (-icount)",
	  check_icount_repeatable, 0, 0, 0, 0 },
	{ "icount.frame_overhead", "the measurement frame's overhead is the same for every N (-icount)",
	  check_icount_frame_overhead, 0, 0, 0, 0 },
	{ "model", "each kernel's instruction model is exact at every size (-icount; --oracle: all counts)",
	  check_model, 0, 0, model_instances, model_instance_name },
	{ "pmu.arch_version", "CPUID.0AH enumerates an architectural PMU with GP counters",
	  check_pmu_arch_version, 0, 0, 0, 0 },
	{ "pmu.rdpmc_gp0", "RDPMC of GP counter 0 does not fault where a PMU is enumerated",
	  check_pmu_rdpmc_gp0, 0, 0, 0, 0 },
	{ "selftest.fail", "fails by design: proves a failing check fails the run",
	  check_selftest_fail, CHECK_MANUAL, 0, 0, 0 },
	{ "selftest.hang", "hangs by design: the watchdog must report it and the run go on",
	  check_selftest_hang, CHECK_MANUAL, 200, 0, 0 },
	{ "selftest.fault", "faults by design: an unexpected #UD must end the run with a report",
	  check_selftest_fault, CHECK_MANUAL, 0, 0, 0 },
	{ "system.unexpected_interrupts", "no interrupt arrived without a handler during the run",
	  check_system_unexpected_interrupts, 0, 0, 0, 0 },
};

const size_t suite_count = sizeof(suite_checks) / sizeof(suite_checks[0]);
