/* SPDX-License-Identifier: MIT */
/* Port I/O, control registers and small CPU instructions (inline, no state). */
#ifndef ARCH_X86_IO_H
#define ARCH_X86_IO_H

#include <stdint.h>

#define BIT(n)		(1U << (n))
#define BIT_ULL(n)	(1ULL << (n))
#define GENMASK_ULL(h, l) ((~0ULL >> (63 - (h))) & (~0ULL << (l)))
#define GENMASK(h, l)	((uint32_t)GENMASK_ULL(h, l))

static inline void outb(uint16_t port, uint8_t v) { asm volatile("outb %0, %1" : : "a"(v), "Nd"(port)); }
static inline void outw(uint16_t port, uint16_t v) { asm volatile("outw %0, %1" : : "a"(v), "Nd"(port)); }
static inline void outl(uint16_t port, uint32_t v) { asm volatile("outl %0, %1" : : "a"(v), "Nd"(port)); }
static inline uint8_t inb(uint16_t port) { uint8_t v; asm volatile("inb %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline uint16_t inw(uint16_t port) { uint16_t v; asm volatile("inw %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline uint32_t inl(uint16_t port) { uint32_t v; asm volatile("inl %1, %0" : "=a"(v) : "Nd"(port)); return v; }

static inline void cpu_relax(void) { asm volatile("pause" ::: "memory"); }
static inline void irq_disable(void) { asm volatile("cli" ::: "memory"); }
static inline void irq_enable(void) { asm volatile("sti" ::: "memory"); }
static inline void hlt(void) { asm volatile("hlt" ::: "memory"); }
static inline void lfence(void) { asm volatile("lfence" ::: "memory"); }
static inline void mfence(void) { asm volatile("mfence" ::: "memory"); }
static inline void barrier(void) { asm volatile("" ::: "memory"); }
static inline void clflush(const volatile void *p) { asm volatile("clflush %0" : "+m"(*(volatile char *)p)); }
/* Drops the TLB entries (both levels) for the page holding p. */
static inline void invlpg(const volatile void *p) { asm volatile("invlpg (%0)" : : "r"(p) : "memory"); }

#define X86_EFLAGS_IF	BIT(9)
#define X86_EFLAGS_DF	BIT(10)

static inline uint64_t read_flags(void)
{
	uint64_t f;
	asm volatile("pushfq; popq %0" : "=r"(f) : : "memory");
	return f;
}

/* Disables interrupts and returns the previous RFLAGS, for irq_restore(). */
static inline uint64_t irq_save(void)
{
	uint64_t f = read_flags();
	irq_disable();
	return f;
}

static inline void irq_restore(uint64_t flags)
{
	if (flags & X86_EFLAGS_IF)
		irq_enable();
}

#define X86_CR0_PE	BIT(0)
#define X86_CR0_WP	BIT(16)
#define X86_CR0_PG	BIT(31)
#define X86_CR4_PCE	BIT(8)
#define X86_CR4_OSFXSR	BIT(9)
#define X86_CR4_LA57	BIT(12)
#define X86_CR4_PCIDE	BIT(17)
#define X86_CR4_OSXSAVE	BIT(18)
#define X86_CR4_SMEP	BIT(20)
#define X86_CR4_SMAP	BIT(21)
#define X86_CR4_CET	BIT(23)

static inline uint64_t read_cr0(void) { uint64_t v; asm volatile("mov %%cr0, %0" : "=r"(v)); return v; }
static inline uint64_t read_cr2(void) { uint64_t v; asm volatile("mov %%cr2, %0" : "=r"(v)); return v; }
static inline uint64_t read_cr3(void) { uint64_t v; asm volatile("mov %%cr3, %0" : "=r"(v)); return v; }
static inline uint64_t read_cr4(void) { uint64_t v; asm volatile("mov %%cr4, %0" : "=r"(v)); return v; }
static inline void write_cr4(uint64_t v) { asm volatile("mov %0, %%cr4" : : "r"(v) : "memory"); }
/* XCR0 (XGETBV/XSETBV with ECX 0); only with CR4.OSXSAVE set. */
static inline uint64_t read_xcr0(void)
{
	uint32_t lo, hi;
	asm volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return lo | ((uint64_t)hi << 32);
}
static inline void write_xcr0(uint64_t v)
{
	asm volatile("xsetbv" : : "c"(0), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)) : "memory");
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return lo | ((uint64_t)hi << 32);
}

static inline uint32_t mmio_read32(uint64_t addr) { return *(volatile uint32_t *)(uintptr_t)addr; }
static inline void mmio_write32(uint64_t addr, uint32_t v) { *(volatile uint32_t *)(uintptr_t)addr = v; }

#endif /* ARCH_X86_IO_H */
