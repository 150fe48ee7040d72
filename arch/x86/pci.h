/* SPDX-License-Identifier: MIT */
/* PCI configuration space through the legacy 0xCF8/0xCFC mechanism (bus 0-255, offset < 256). */
#ifndef ARCH_X86_PCI_H
#define ARCH_X86_PCI_H

#include <stdint.h>
#include "arch/x86/io.h"

#define PCI_CONFIG_ADDRESS	0xcf8
#define PCI_CONFIG_DATA		0xcfc
#define  PCI_CONFIG_ENABLE	(1U << 31)

#define PCI_VENDOR_ID		0x00
#define PCI_DEVICE_ID		0x02
#define PCI_VENDOR_NONE		0xffff

/*
 * Intel client host bridge (0:0.0): MCHBAR, a 64-bit register at 48H/4CH (6th Generation
 * Core datasheet Vol. 2, MCHBAR: base in bits 38:15, MCHBAREN bit 0). Seed
 * 001_dad58ad4a296bcf3.txt 3.3 masks it with 0x0007FFFF8000 (bits 34:15); the two agree for
 * a base below 32 GiB.
 */
#define PCI_VENDOR_INTEL	0x8086
#define PCI_INTEL_MCHBAR_LO	0x48
#define PCI_INTEL_MCHBAR_HI	0x4c
#define  MCHBAR_MCHBAREN	BIT_ULL(0)
#define  MCHBAR_BASE		GENMASK_ULL(38, 15)	/* the datasheet's field */
#define  MCHBAR_BASE_SEED001	GENMASK_ULL(34, 15)	/* seed 001's mask */

uint32_t pci_read32(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off);
uint16_t pci_read16(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off);
uint8_t pci_read8(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off);
void pci_write32(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off, uint32_t v);

/* Host bridge (0:0.0) vendor and device, e.g. for the IMC's MCHBAR later. */
uint32_t pci_host_bridge_id(void);

#endif /* ARCH_X86_PCI_H */
