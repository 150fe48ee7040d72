/* SPDX-License-Identifier: MIT */
/* ACPI table walk: checksums verified, MADT processors counted, FADT PM timer located. */
#include "arch/x86/acpi.h"
#include "lib/string.h"
#ifndef PMUBOOT_HOST
#include "arch/x86/io.h"
#endif

#define SDT_HEADER_LEN	36

static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static const uint8_t *ptr(uint64_t pa) { return (const uint8_t *)(uintptr_t)pa; }

uint8_t acpi_checksum(const void *p, uint64_t len)
{
	const uint8_t *b = p;
	uint8_t s = 0;

	for (uint64_t i = 0; i < len; i++)
		s += b[i];
	return s;
}

/* A table is used only when its length is sane and its checksum is right. */
static bool table_ok(struct acpi_info *a, uint64_t pa)
{
	uint32_t len;

	if (!pa)
		return false;
	len = rd32(ptr(pa) + 4);
	if (len < SDT_HEADER_LEN || len > (16u << 20) || acpi_checksum(ptr(pa), len)) {
		a->bad_checksums++;
		return false;
	}
	return true;
}

static void parse_madt(struct acpi_info *a, uint64_t pa)
{
	const uint8_t *t = ptr(pa);
	uint32_t len = rd32(t + 4);

	a->lapic_addr = rd32(t + MADT_LAPIC_ADDR);
	for (uint32_t off = MADT_ENTRIES; off + 2 <= len;) {
		uint8_t type = t[off], elen = t[off + 1];
		uint32_t id = 0, flags = 0;
		bool cpu = false;

		if (elen < 2 || off + elen > len)
			break;
		if (type == MADT_TYPE_LAPIC && elen >= 8) {
			id = t[off + 3];
			flags = rd32(t + off + 4);
			cpu = true;
		} else if (type == MADT_TYPE_X2APIC && elen >= 16) {
			id = rd32(t + off + 4);
			flags = rd32(t + off + 8);
			cpu = true;
		} else if (type == MADT_TYPE_LAPIC_OVERRIDE && elen >= 12) {
			a->lapic_addr = rd64(t + off + 4);
		}
		if (cpu && (flags & (MADT_LAPIC_ENABLED | MADT_LAPIC_ONLINE_CAPABLE))) {
			/* Firmware may list a CPU in both forms; count each APIC ID once. */
			bool dup = false;

			for (unsigned i = 0; i < a->ncpus && i < ACPI_MAX_CPUS; i++) {
				if (a->apic_ids[i] == id) {
					dup = true;
					a->cpu_enabled[i] |= flags & MADT_LAPIC_ENABLED;
				}
			}
			if (!dup) {
				if (a->ncpus < ACPI_MAX_CPUS) {
					a->apic_ids[a->ncpus] = id;
					a->cpu_enabled[a->ncpus] = flags & MADT_LAPIC_ENABLED;
				}
				a->ncpus++;
			}
		}
		off += elen;
	}
}

static void parse_fadt(struct acpi_info *a, uint64_t pa)
{
	const uint8_t *t = ptr(pa);
	uint32_t len = rd32(t + 4);
	uint32_t flags = len >= FADT_FLAGS + 4 ? rd32(t + FADT_FLAGS) : 0;

	a->hw_reduced = flags & FADT_FLAG_HW_REDUCED;
	a->pm_timer_bits = (flags & FADT_FLAG_TMR_VAL_EXT) ? 32 : 24;
	/* Prefer X_PM_TMR_BLK when present (ACPI 2.0+), else the 32-bit port. */
	if (len >= FADT_MIN_LEN_X_PM_TMR && rd64(t + FADT_X_PM_TMR_BLK + 4)) {
		uint8_t space = t[FADT_X_PM_TMR_BLK];

		if (space == ACPI_GAS_IO || space == ACPI_GAS_MEMORY) {
			a->pm_timer_space = space;
			a->pm_timer_addr = rd64(t + FADT_X_PM_TMR_BLK + 4);
			a->pm_timer = true;
			return;
		}
	}
	if (len >= FADT_PM_TMR_LEN + 1 && rd32(t + FADT_PM_TMR_BLK) && t[FADT_PM_TMR_LEN] >= 4) {
		a->pm_timer_space = ACPI_GAS_IO;
		a->pm_timer_addr = rd32(t + FADT_PM_TMR_BLK);
		a->pm_timer = true;
	}
}

void acpi_parse(struct acpi_info *a, uint64_t rsdp)
{
	const uint8_t *r = ptr(rsdp);
	uint64_t sdt;
	unsigned entry_size, n;

	memset(a, 0, sizeof(*a));
	if (!rsdp || memcmp(r, "RSD PTR ", 8) || acpi_checksum(r, 20)) {
		if (rsdp)
			a->bad_checksums++;
		return;
	}
	a->found = true;
	a->rsdp = rsdp;
	a->revision = r[15];
	memcpy(a->oem_id, r + 9, 6);
	a->oem_id[6] = '\0';
	a->rsdt = rd32(r + 16);
	if (a->revision >= 2 && rd32(r + 20) >= 36 && !acpi_checksum(r, rd32(r + 20)))
		a->xsdt = rd64(r + 24);

	if (a->xsdt && table_ok(a, a->xsdt) && !memcmp(ptr(a->xsdt), "XSDT", 4)) {
		sdt = a->xsdt;
		entry_size = 8;
	} else if (table_ok(a, a->rsdt) && !memcmp(ptr(a->rsdt), "RSDT", 4)) {
		a->xsdt = 0;
		sdt = a->rsdt;
		entry_size = 4;
	} else {
		return;
	}
	n = (rd32(ptr(sdt) + 4) - SDT_HEADER_LEN) / entry_size;
	for (unsigned i = 0; i < n; i++) {
		const uint8_t *e = ptr(sdt) + SDT_HEADER_LEN + i * entry_size;
		uint64_t pa = entry_size == 8 ? rd64(e) : rd32(e);

		if (!table_ok(a, pa))
			continue;
		if (!memcmp(ptr(pa), "APIC", 4) && !a->madt) {
			a->madt = pa;
			parse_madt(a, pa);
		} else if (!memcmp(ptr(pa), "FACP", 4) && !a->fadt) {
			a->fadt = pa;
			parse_fadt(a, pa);
		}
	}
}

#ifndef PMUBOOT_HOST
uint32_t acpi_pm_timer_read(const struct acpi_info *a)
{
	uint32_t v, mask = a->pm_timer_bits == 32 ? 0xffffffffu : 0xffffffu;

	if (!a->pm_timer)
		return 0;
	if (a->pm_timer_space == ACPI_GAS_IO)
		v = inl((uint16_t)a->pm_timer_addr);
	else
		v = mmio_read32(a->pm_timer_addr);
	return v & mask;
}
#endif
