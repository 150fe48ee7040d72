/* SPDX-License-Identifier: MIT */
/* TSC frequency: from CPUID 0x15/0x16 (or the hypervisor leaf), cross-checked against the ACPI PM timer. */
#ifndef ARCH_X86_TSC_H
#define ARCH_X86_TSC_H

#include <stdint.h>
#include "arch/x86/acpi.h"
#include "arch/x86/cpuid.h"

enum tsc_source {
	TSC_SRC_NONE = 0,
	TSC_SRC_CPUID_15,	/* crystal clock * EBX / EAX */
	TSC_SRC_CPUID_16,	/* base frequency (MHz) */
	TSC_SRC_HYPERVISOR,	/* CPUID 0x40000010 */
	TSC_SRC_PM_TIMER,	/* calibrated */
	TSC_SRC_ASSUMED,	/* nothing available: a fixed guess */
};

#define TSC_ASSUMED_HZ		3000000000ULL
#define TSC_CALIBRATE_MS	20

struct tsc_info {
	uint64_t hz;			/* the frequency in use */
	enum tsc_source source;
	uint64_t enumerated_hz;		/* from CPUID, 0 if none */
	uint64_t calibrated_hz;		/* from the PM timer, 0 if none */
};

extern struct tsc_info tsc;

/* Pure: frequency CPUID enumerates (0 when it does not), and which leaf said so. */
uint64_t tsc_hz_from_cpuid(const struct cpu_info *ci, enum tsc_source *src);
/* Fills `tsc`: calibrates against the PM timer (when present) and picks the enumerated value
 * when there is one, else the calibrated one. */
void tsc_init(const struct cpu_info *ci, const struct acpi_info *acpi);
const char *tsc_source_name(enum tsc_source s);

/* Microseconds <-> TSC ticks at tsc.hz. */
uint64_t tsc_from_us(uint64_t us);
uint64_t tsc_to_us(uint64_t ticks);

#endif /* ARCH_X86_TSC_H */
