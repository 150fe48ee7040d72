/* SPDX-License-Identifier: MIT */
/* Host unit tests for arch/x86/paging.c: the identity map pmuboot builds and the walk that
 * tells which page size maps an address (issue 21 item 10). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "arch/x86/paging.h"

static uint64_t *tables(uint64_t bytes)
{
	void *p = aligned_alloc(4096, bytes);

	assert_non_null(p);
	memset(p, 0, bytes);
	return p;
}

/* pmuboot's identity map: 2 MiB pages, or 1 GiB ones; nothing above its top. */
static void test_identity_map_sizes(void **state)
{
	uint64_t bytes = paging_table_bytes(4ULL << 30, false);
	uint64_t *m = tables(bytes);
	uint64_t cr3 = paging_build_identity((uint64_t)(uintptr_t)m, 4ULL << 30, false);
	(void)state;

	assert_int_equal(paging_page_size(cr3, false, 0x12345678), 2ULL << 20);
	assert_int_equal(paging_page_size(cr3, false, (4ULL << 30) - 1), 2ULL << 20);
	assert_int_equal(paging_page_size(cr3, false, 4ULL << 30), 0);
	free(m);
	m = tables(paging_table_bytes(4ULL << 30, true));
	cr3 = paging_build_identity((uint64_t)(uintptr_t)m, 4ULL << 30, true);
	assert_int_equal(paging_page_size(cr3, false, 0x12345678), 1ULL << 30);
	free(m);
}

/* A firmware-like map: 4 KiB pages in one 2 MiB region (an image it protects), 2 MiB pages
 * around it; a 5-level walk goes through one more table. */
static void test_mixed_and_five_level(void **state)
{
	uint64_t *pml5 = tables(4096), *pml4 = tables(4096), *pdpt = tables(4096), *pd = tables(4096),
		 *pt = tables(4096);
	const uint64_t f = PTE_P | PTE_RW;
	(void)state;

	pml4[0] = (uint64_t)(uintptr_t)pdpt | f;
	pdpt[0] = (uint64_t)(uintptr_t)pd | f;
	pd[0] = 0 | f | PTE_PS;
	pd[1] = (uint64_t)(uintptr_t)pt | f;
	for (unsigned i = 0; i < 512; i++)
		pt[i] = ((2ULL << 20) + 4096ULL * i) | f;
	pt[7] = 0;	/* a hole */
	assert_int_equal(paging_page_size((uint64_t)(uintptr_t)pml4, false, 0x1000), 2ULL << 20);
	assert_int_equal(paging_page_size((uint64_t)(uintptr_t)pml4, false, 0x201000), 4096);
	assert_int_equal(paging_page_size((uint64_t)(uintptr_t)pml4, false, 0x207000), 0);
	assert_int_equal(paging_page_size((uint64_t)(uintptr_t)pml4, false, 0x400000), 0);
	pml5[0] = (uint64_t)(uintptr_t)pml4 | f;
	assert_int_equal(paging_page_size((uint64_t)(uintptr_t)pml5, true, 0x201000), 4096);
	assert_int_equal(paging_page_size((uint64_t)(uintptr_t)pml5 | 0x18, true, 0x1000),
			 2ULL << 20);	/* CR3's low bits (PWT, PCD) are not an address */
	free(pml5);
	free(pml4);
	free(pdpt);
	free(pd);
	free(pt);
}

/* Issue 21 item 10: pmuboot's own map with one 2 MiB region split into 4 KiB pages, from a
 * 2 MiB-page map and from a 1 GiB-page one (a directory first); the rest unchanged. */
static void test_split_4k(void **state)
{
	for (int gib = 0; gib <= 1; gib++) {
		uint64_t bytes = paging_table_bytes(4ULL << 30, gib);
		uint64_t *m = tables(bytes + 4 * 4096);
		uint64_t cr3 = paging_build_identity((uint64_t)(uintptr_t)m, 4ULL << 30, gib);
		uint64_t spare = (uint64_t)(uintptr_t)m + bytes, big = gib ? 1ULL << 30 : 2ULL << 20;
		unsigned left = 4;
		(void)state;

		assert_int_equal(paging_split_4k(cr3, 0x40123456, &spare, &left), 0);
		assert_int_equal(left, gib ? 2 : 3);
		assert_int_equal(paging_page_size(cr3, false, 0x40123456), 4096);
		assert_int_equal(paging_page_size(cr3, false, 0x40000000), 4096);
		assert_int_equal(paging_page_size(cr3, false, 0x401fffff), 4096);
		assert_int_equal(paging_page_size(cr3, false, 0x40200000), gib ? 2ULL << 20 : big);
		assert_int_equal(paging_page_size(cr3, false, 0x3fffffff), big);
		/* Again: already 4 KiB, nothing taken. */
		assert_int_equal(paging_split_4k(cr3, 0x40000000, &spare, &left), 0);
		assert_int_equal(left, gib ? 2 : 3);
		/* The identity and the flags kept: the PTE of 0x40123000 maps 0x40123000, user. */
		{
			uint64_t *pml4 = (uint64_t *)(uintptr_t)(cr3 & PTE_ADDR);
			uint64_t *pdpt = (uint64_t *)(uintptr_t)(pml4[0] & PTE_ADDR);
			uint64_t *pd = (uint64_t *)(uintptr_t)(pdpt[1] & PTE_ADDR);
			uint64_t *pt = (uint64_t *)(uintptr_t)(pd[0] & PTE_ADDR);

			assert_int_equal(pt[0x123] & PTE_ADDR, 0x40123000);
			assert_true(pt[0x123] & PTE_US);
			assert_false(pd[0] & PTE_PS);
		}
		/* Out of spare pages: -1, nothing changed. */
		left = 0;
		assert_int_equal(paging_split_4k(cr3, 0x80000000, &spare, &left), -1);
		assert_int_equal(paging_page_size(cr3, false, 0x80000000), big);
		free(m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity_map_sizes),
		cmocka_unit_test(test_mixed_and_five_level),
		cmocka_unit_test(test_split_4k),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
