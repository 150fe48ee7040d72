/* SPDX-License-Identifier: MIT */
/* PCI configuration space through the legacy 0xCF8/0xCFC mechanism (bus 0-255, offset < 256). */
#ifndef ARCH_X86_PCI_H
#define ARCH_X86_PCI_H

#include <stdint.h>

#define PCI_CONFIG_ADDRESS	0xcf8
#define PCI_CONFIG_DATA		0xcfc
#define  PCI_CONFIG_ENABLE	(1U << 31)

#define PCI_VENDOR_ID		0x00
#define PCI_DEVICE_ID		0x02
#define PCI_VENDOR_NONE		0xffff

uint32_t pci_read32(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off);
uint16_t pci_read16(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off);
uint8_t pci_read8(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off);
void pci_write32(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off, uint32_t v);

/* Host bridge (0:0.0) vendor and device, e.g. for the IMC's MCHBAR later. */
uint32_t pci_host_bridge_id(void);

#endif /* ARCH_X86_PCI_H */
