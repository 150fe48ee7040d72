/* SPDX-License-Identifier: MIT */
/* Host unit tests for the ACPI walk (arch/x86/acpi.c) over tables built in memory. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "arch/x86/acpi.h"

static uint8_t mem[8192] __attribute__((aligned(16)));

static uint64_t pa(const void *p) { return (uint64_t)(uintptr_t)p; }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

static void fix_checksum(uint8_t *t, uint32_t len, unsigned off)
{
	t[off] = 0;
	t[off] = (uint8_t)(0x100 - acpi_checksum(t, len));
}

static uint8_t *sdt(uint8_t *t, const char *sig, uint32_t len)
{
	memset(t, 0, len);
	memcpy(t, sig, 4);
	put32(t + 4, len);
	t[8] = 2;
	memcpy(t + 10, "PMUBT ", 6);
	return t;
}

struct layout {
	uint8_t *rsdp, *xsdt, *rsdt, *madt, *fadt;
};

/* RSDP (rev 2) -> XSDT -> { MADT, FADT }, and an RSDT listing the same two. */
static struct layout build(void)
{
	struct layout l;
	uint8_t *m;

	memset(mem, 0, sizeof(mem));
	l.rsdp = mem;
	l.xsdt = mem + 64;
	l.rsdt = mem + 256;
	l.madt = mem + 512;
	l.fadt = mem + 1024;

	/* MADT: two xAPIC entries (one disabled and not online-capable), one x2APIC entry
	 * duplicating APIC ID 0, one x2APIC entry for ID 300, and an address override. */
	uint32_t mlen = 44 + 8 + 8 + 16 + 16 + 12;
	sdt(l.madt, "APIC", mlen);
	put32(l.madt + 36, 0xfee00000);
	m = l.madt + 44;
	m[0] = 0; m[1] = 8; m[2] = 0; m[3] = 0; put32(m + 4, 1); m += 8;	/* ID 0 enabled */
	m[0] = 0; m[1] = 8; m[2] = 1; m[3] = 7; put32(m + 4, 0); m += 8;	/* ID 7 absent */
	m[0] = 9; m[1] = 16; put32(m + 4, 0); put32(m + 8, 1); m += 16;		/* ID 0 again */
	m[0] = 9; m[1] = 16; put32(m + 4, 300); put32(m + 8, 2); m += 16;	/* online-capable */
	m[0] = 5; m[1] = 12; put64(m + 4, 0xfed00000ULL);
	fix_checksum(l.madt, mlen, 9);

	/* FADT (ACPI 6 length 276): 32-bit timer flag and X_PM_TMR_BLK in I/O space. */
	sdt(l.fadt, "FACP", 276);
	put32(l.fadt + FADT_PM_TMR_BLK, 0x608);
	l.fadt[FADT_PM_TMR_LEN] = 4;
	put32(l.fadt + FADT_FLAGS, FADT_FLAG_TMR_VAL_EXT);
	l.fadt[FADT_X_PM_TMR_BLK] = ACPI_GAS_IO;
	l.fadt[FADT_X_PM_TMR_BLK + 1] = 32;
	put64(l.fadt + FADT_X_PM_TMR_BLK + 4, 0x1808);
	fix_checksum(l.fadt, 276, 9);

	sdt(l.xsdt, "XSDT", 36 + 16);
	put64(l.xsdt + 36, pa(l.madt));
	put64(l.xsdt + 44, pa(l.fadt));
	fix_checksum(l.xsdt, 36 + 16, 9);

	sdt(l.rsdt, "RSDT", 36 + 8);
	put32(l.rsdt + 36, 0);	/* host pointers do not fit 32 bits: the RSDT lists nothing */
	put32(l.rsdt + 40, 0);
	fix_checksum(l.rsdt, 36 + 8, 9);

	memcpy(l.rsdp, "RSD PTR ", 8);
	memcpy(l.rsdp + 9, "PMUBT ", 6);
	l.rsdp[15] = 2;
	put32(l.rsdp + 16, (uint32_t)pa(l.rsdt));
	put32(l.rsdp + 20, 36);
	put64(l.rsdp + 24, pa(l.xsdt));
	fix_checksum(l.rsdp, 20, 8);
	fix_checksum(l.rsdp, 36, 32);
	return l;
}

static struct acpi_info info;

static void test_full_walk(void **state)
{
	struct layout l = build();
	(void)state;

	acpi_parse(&info, pa(l.rsdp));
	assert_true(info.found);
	assert_int_equal(info.revision, 2);
	assert_string_equal(info.oem_id, "PMUBT ");
	assert_int_equal(info.xsdt, pa(l.xsdt));
	assert_int_equal(info.madt, pa(l.madt));
	assert_int_equal(info.fadt, pa(l.fadt));
	assert_int_equal(info.bad_checksums, 0);
	/* IDs 0 and 300: the disabled one is left out, the duplicate counted once. */
	assert_int_equal(info.ncpus, 2);
	assert_int_equal(info.apic_ids[0], 0);
	assert_int_equal(info.apic_ids[1], 300);
	/* ID 0 enabled (in both of its entries); 300 only online-capable: listed, not started. */
	assert_true(info.cpu_enabled[0]);
	assert_false(info.cpu_enabled[1]);
	assert_int_equal(info.lapic_addr, 0xfed00000ULL);
	assert_true(info.pm_timer);
	assert_int_equal(info.pm_timer_space, ACPI_GAS_IO);
	assert_int_equal(info.pm_timer_addr, 0x1808);	/* X_PM_TMR_BLK wins */
	assert_int_equal(info.pm_timer_bits, 32);
	assert_false(info.hw_reduced);
}

static void test_bad_table_checksum_is_ignored(void **state)
{
	struct layout l = build();
	(void)state;

	l.madt[20] ^= 0x55;	/* corrupt the MADT */
	acpi_parse(&info, pa(l.rsdp));
	assert_true(info.found);
	assert_int_equal(info.madt, 0);
	assert_int_equal(info.ncpus, 0);
	assert_int_equal(info.bad_checksums, 1);
	assert_true(info.pm_timer);
}

static void test_bad_rsdp(void **state)
{
	struct layout l = build();
	(void)state;

	l.rsdp[3] = 'X';	/* signature */
	acpi_parse(&info, pa(l.rsdp));
	assert_false(info.found);
	acpi_parse(&info, 0);
	assert_false(info.found);
	assert_int_equal(info.bad_checksums, 0);
}

static void test_legacy_pm_timer(void **state)
{
	struct layout l = build();
	(void)state;

	/* An ACPI 1.0-sized FADT (116 bytes) has no X_PM_TMR_BLK and 24-bit timer. */
	put32(l.fadt + 4, 116);
	put32(l.fadt + FADT_FLAGS, 0);
	fix_checksum(l.fadt, 116, 9);
	acpi_parse(&info, pa(l.rsdp));
	assert_true(info.pm_timer);
	assert_int_equal(info.pm_timer_addr, 0x608);
	assert_int_equal(info.pm_timer_bits, 24);
}

static void test_madt_truncated_entry(void **state)
{
	struct layout l = build();
	(void)state;

	/* An entry claiming a length past the table end stops the walk, no overrun. */
	l.madt[44 + 1] = 200;
	fix_checksum(l.madt, 44 + 60, 9);
	acpi_parse(&info, pa(l.rsdp));
	assert_int_equal(info.madt, pa(l.madt));
	assert_int_equal(info.ncpus, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_walk),
		cmocka_unit_test(test_bad_table_checksum_is_ignored),
		cmocka_unit_test(test_bad_rsdp),
		cmocka_unit_test(test_legacy_pm_timer),
		cmocka_unit_test(test_madt_truncated_entry),
	};

	return cmocka_run_group_tests_name("acpi", tests, NULL, NULL);
}
