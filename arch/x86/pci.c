/* SPDX-License-Identifier: MIT */
/* PCI configuration mechanism #1 accessors. */
#include "arch/x86/pci.h"
#include "arch/x86/io.h"

static uint32_t cfg_addr(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off)
{
	return PCI_CONFIG_ENABLE | (uint32_t)bus << 16 | (uint32_t)(dev & 0x1f) << 11 |
	       (uint32_t)(fn & 7) << 8 | (off & 0xfc);
}

uint32_t pci_read32(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off)
{
	outl(PCI_CONFIG_ADDRESS, cfg_addr(bus, dev, fn, off));
	return inl(PCI_CONFIG_DATA);
}

uint16_t pci_read16(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off)
{
	return (uint16_t)(pci_read32(bus, dev, fn, off) >> (8 * (off & 2)));
}

uint8_t pci_read8(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off)
{
	return (uint8_t)(pci_read32(bus, dev, fn, off) >> (8 * (off & 3)));
}

void pci_write32(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off, uint32_t v)
{
	outl(PCI_CONFIG_ADDRESS, cfg_addr(bus, dev, fn, off));
	outl(PCI_CONFIG_DATA, v);
}

uint32_t pci_host_bridge_id(void)
{
	return pci_read32(0, 0, 0, PCI_VENDOR_ID);
}
