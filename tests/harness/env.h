/* SPDX-License-Identifier: MIT */
/*
 * What a check may know of the run, filled by the harness (runner_run) from what boot found
 * and the options: checks read env, never boot's globals. Read-only for checks.
 */
#ifndef TESTS_HARNESS_ENV_H
#define TESTS_HARNESS_ENV_H

#include <stdbool.h>
#include <stdint.h>
#include "arch/x86/cpuid.h"
#include "tests/harness/options.h"

struct check_env {
	uint64_t buf;			/* the test buffer: identity-mapped physical address */
	uint64_t buf_size;		/* its bytes */
	uint32_t reps;			/* reps=N */
	bool reps_set;			/* reps= was given (else checks may use their own) */
	bool force_pmu;			/* force-pmu: run the PMU checks where CPUID has no PMU */
	bool pmi_nmi;			/* pmi=nmi: PMIs through the LVT as NMIs */
	bool icount;			/* icount: the TSC counts retired instructions */
	bool oracle;			/* oracle: every region's model prediction is printed */
	enum opt_oracle_fault oracle_fault;	/* oracle-fault=: a deliberate misprediction */
	bool bts;			/* bts: the branch trace store checks run */
	uint64_t cpus;			/* cpus=: the chosen CPUs, one bit each */
	const struct cpu_info *cpu;	/* the bootstrap processor's CPUID decode */
	unsigned ncpus;			/* CPUs the ACPI MADT lists */
	const char *watchdog_note;	/* why the watchdog is unusable, where it is */
};

extern struct check_env env;

#endif /* TESTS_HARNESS_ENV_H */
