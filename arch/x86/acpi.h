/* SPDX-License-Identifier: MIT */
/* ACPI tables pmuboot reads: RSDP -> XSDT (or RSDT) -> MADT and FADT; the PM timer. */
#ifndef ARCH_X86_ACPI_H
#define ARCH_X86_ACPI_H

#include <stdbool.h>
#include <stdint.h>

#define ACPI_MAX_CPUS		1024
#define ACPI_PM_TIMER_HZ	3579545ULL	/* ACPI 6.x 4.8.3.3: 3.579545 MHz */

/* Generic Address Structure address spaces (ACPI 6.x 5.2.3.2). */
#define ACPI_GAS_MEMORY		0
#define ACPI_GAS_IO		1

/* FADT fields (byte offsets in the table, ACPI 6.x Table 5.9). */
#define FADT_PM_TMR_BLK		76
#define FADT_PM_TMR_LEN		91
#define FADT_FLAGS		112
#define  FADT_FLAG_TMR_VAL_EXT	(1U << 8)
#define  FADT_FLAG_HW_REDUCED	(1U << 20)
#define FADT_X_PM_TMR_BLK	208
#define FADT_MIN_LEN_X_PM_TMR	220

/* MADT (ACPI 6.x 5.2.12). */
#define MADT_LAPIC_ADDR		36
#define MADT_ENTRIES		44
#define MADT_TYPE_LAPIC		0
#define MADT_TYPE_LAPIC_OVERRIDE 5
#define MADT_TYPE_X2APIC	9
#define MADT_LAPIC_ENABLED	(1U << 0)
#define MADT_LAPIC_ONLINE_CAPABLE (1U << 1)

struct acpi_info {
	bool found;			/* a valid RSDP */
	uint8_t revision;		/* RSDP revision: 0 = ACPI 1.0 (RSDT only) */
	char oem_id[7];
	uint64_t rsdp, xsdt, rsdt, madt, fadt;	/* physical addresses, 0 when absent */
	unsigned bad_checksums;		/* tables seen with a wrong checksum (and ignored) */
	/* MADT */
	uint64_t lapic_addr;
	unsigned ncpus;			/* enabled or online-capable processors */
	uint32_t apic_ids[ACPI_MAX_CPUS];
	bool cpu_enabled[ACPI_MAX_CPUS];	/* enabled; else only online-capable */
	/* FADT */
	bool hw_reduced;
	bool pm_timer;			/* a usable PM timer */
	uint8_t pm_timer_space;		/* ACPI_GAS_IO or ACPI_GAS_MEMORY */
	uint64_t pm_timer_addr;
	unsigned pm_timer_bits;		/* 24 or 32 */
};

/* Sums len bytes; a valid table sums to 0 (mod 256). */
uint8_t acpi_checksum(const void *p, uint64_t len);

/* Walks the tables from the RSDP at `rsdp` (identity-mapped memory). */
void acpi_parse(struct acpi_info *a, uint64_t rsdp);

/* Reads the PM timer (masked to its width); 0 if there is none. */
uint32_t acpi_pm_timer_read(const struct acpi_info *a);

#endif /* ARCH_X86_ACPI_H */
