/* SPDX-License-Identifier: MIT */
/*
 * pmuboot's own page tables: an identity map of the low physical address space with every
 * page user-accessible, so checks can run kernels at CPL 3 (the firmware's tables map
 * everything supervisor-only). Built in memory allocated while boot services exist.
 */
#ifndef ARCH_X86_PAGING_H
#define ARCH_X86_PAGING_H

#include <stdbool.h>
#include <stdint.h>

/* Page-table entry bits (SDM Vol. 3A 4.5). */
#define PTE_P		(1ULL << 0)
#define PTE_RW		(1ULL << 1)
#define PTE_US		(1ULL << 2)
#define PTE_PS		(1ULL << 7)	/* 2-MiB (PD) or 1-GiB (PDPT) page */
#define PTE_ADDR	0x000ffffffffff000ULL

#define PAGING_MAX_BYTES	(512ULL << 30)	/* one PDPT: 512 GiB */

/* Bytes of table memory identity-mapping [0, top) needs (2-MiB pages, or 1-GiB). */
uint64_t paging_table_bytes(uint64_t top, bool gib_pages);

/*
 * Fills tables at `mem` (4-KiB aligned, paging_table_bytes() long) with the identity map
 * of [0, top) — top rounded up to 1 GiB, at most PAGING_MAX_BYTES — present, writable,
 * user, write-back (PAT 0; MTRRs keep MMIO uncached). Returns the CR3 value.
 */
uint64_t paging_build_identity(uint64_t mem, uint64_t top, bool gib_pages);

/*
 * The size of the page that maps `va` in the tables at cr3 (4-level, or 5-level with la57):
 * 4096, 2 MiB or 1 GiB; 0 where it is not present. The tables are read at their physical
 * addresses, so they must be identity-mapped (the firmware's and pmuboot's are).
 */
uint64_t paging_page_size(uint64_t cr3, bool la57, uint64_t va);

/*
 * In 4-level tables at cr3 that map va by a 2 MiB or 1 GiB page, maps the 2 MiB around va
 * by 4 KiB pages instead, the same addresses and flags, with a page table (and, from a
 * 1 GiB page, a page directory) taken from *spare, which advances; *spare_left counts the
 * 4 KiB pages left there. 0, or -1 (not mapped, or no spare page) with nothing changed.
 * Already 4 KiB: 0. The caller flushes the TLB (loading CR3 does).
 */
int paging_split_4k(uint64_t cr3, uint64_t va, uint64_t *spare, unsigned *spare_left);
#define PAGING_SPLIT_SPARE	4	/* pages reserved for splits: two 2 MiB regions */

#endif /* ARCH_X86_PAGING_H */
