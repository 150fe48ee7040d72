/* SPDX-License-Identifier: MIT */
/* Identity-mapped, user-accessible 4-level page tables (pure: they are only written). */
#include "arch/x86/paging.h"
#include "lib/string.h"

#define GIB	(1ULL << 30)
#define MIB2	(2ULL << 20)

static uint64_t round_top(uint64_t top)
{
	top = (top + GIB - 1) & ~(GIB - 1);
	if (top == 0)
		top = GIB;
	return top > PAGING_MAX_BYTES ? PAGING_MAX_BYTES : top;
}

uint64_t paging_table_bytes(uint64_t top, bool gib_pages)
{
	uint64_t gibs = round_top(top) / GIB;

	/* PML4 + PDPT (+ one PD per GiB with 2-MiB pages). */
	return 4096 * (2 + (gib_pages ? 0 : gibs));
}

uint64_t paging_build_identity(uint64_t mem, uint64_t top, bool gib_pages)
{
	uint64_t *pml4 = (uint64_t *)(uintptr_t)mem;
	uint64_t *pdpt = pml4 + 512;
	uint64_t gibs = round_top(top) / GIB;
	const uint64_t flags = PTE_P | PTE_RW | PTE_US;

	memset(pml4, 0, (size_t)paging_table_bytes(top, gib_pages));
	pml4[0] = ((uint64_t)(uintptr_t)pdpt & PTE_ADDR) | flags;
	for (uint64_t g = 0; g < gibs; g++) {
		if (gib_pages) {
			pdpt[g] = (g * GIB) | flags | PTE_PS;
			continue;
		}
		uint64_t *pd = pml4 + 1024 + 512 * g;

		pdpt[g] = ((uint64_t)(uintptr_t)pd & PTE_ADDR) | flags;
		for (uint64_t i = 0; i < 512; i++)
			pd[i] = (g * GIB + i * MIB2) | flags | PTE_PS;
	}
	return mem;
}

uint64_t paging_page_size(uint64_t cr3, bool la57, uint64_t va)
{
	const uint64_t *t = (const uint64_t *)(uintptr_t)(cr3 & PTE_ADDR);

	for (unsigned level = la57 ? 5 : 4; level >= 1; level--) {
		unsigned shift = 12 + 9 * (level - 1);
		uint64_t e = t[(va >> shift) & 511];

		if (!(e & PTE_P))
			return 0;
		if (level == 1 || ((level == 2 || level == 3) && (e & PTE_PS)))
			return 1ULL << shift;
		t = (const uint64_t *)(uintptr_t)(e & PTE_ADDR);
	}
	return 0;
}

int paging_split_4k(uint64_t cr3, uint64_t va, uint64_t *spare, unsigned *spare_left)
{
	uint64_t *pml4 = (uint64_t *)(uintptr_t)(cr3 & PTE_ADDR), *pdpt, *pd, *pt;
	uint64_t *pdpte, *pde;

	if (!(pml4[(va >> 39) & 511] & PTE_P))
		return -1;
	pdpt = (uint64_t *)(uintptr_t)(pml4[(va >> 39) & 511] & PTE_ADDR);
	pdpte = &pdpt[(va >> 30) & 511];
	if (!(*pdpte & PTE_P))
		return -1;
	if (*pdpte & PTE_PS) {		/* a 1 GiB page: a directory of 2 MiB pages first */
		uint64_t base = *pdpte & PTE_ADDR & ~(GIB - 1), flags = *pdpte & ~PTE_ADDR;

		if (*spare_left < 2)
			return -1;
		pd = (uint64_t *)(uintptr_t)*spare;
		for (unsigned i = 0; i < 512; i++)
			pd[i] = (base + MIB2 * i) | flags;
		*spare += 4096;
		(*spare_left)--;
		*pdpte = ((uint64_t)(uintptr_t)pd & PTE_ADDR) | (flags & ~PTE_PS);
	}
	pd = (uint64_t *)(uintptr_t)(*pdpte & PTE_ADDR);
	pde = &pd[(va >> 21) & 511];
	if (!(*pde & PTE_P))
		return -1;
	if (!(*pde & PTE_PS))
		return 0;
	if (*spare_left < 1)
		return -1;
	{
		uint64_t base = *pde & PTE_ADDR & ~(MIB2 - 1), flags = *pde & ~PTE_ADDR & ~PTE_PS;

		pt = (uint64_t *)(uintptr_t)*spare;
		for (unsigned i = 0; i < 512; i++)
			pt[i] = (base + 4096ULL * i) | flags;
		*spare += 4096;
		(*spare_left)--;
		*pde = ((uint64_t)(uintptr_t)pt & PTE_ADDR) | flags;
	}
	return 0;
}
