/* SPDX-License-Identifier: MIT */
/* Fault-safe memory-mapped I/O reads (device registers whose presence is being probed). */
#ifndef ARCH_X86_MMIO_H
#define ARCH_X86_MMIO_H

#include <stdint.h>

/*
 * Reads the 32-bit register at physical address addr (identity-mapped, as the firmware's
 * page tables map it) with one 32-bit load. Returns 0, or the exception vector the load
 * raised (14 #PF for an unmapped address, 13 #GP for a non-canonical one); *val is then
 * 0xFFFFFFFF, what an unclaimed MMIO read returns. Needs pmuboot's GS base and IDT.
 */
int mmio_read32_safe(uint64_t addr, uint32_t *val);

#endif /* ARCH_X86_MMIO_H */
