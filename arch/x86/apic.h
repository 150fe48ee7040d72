/* SPDX-License-Identifier: MIT */
/* Local APIC: xAPIC through MMIO, or x2APIC through MSRs when the firmware left it enabled. */
#ifndef ARCH_X86_APIC_H
#define ARCH_X86_APIC_H

#include <stdbool.h>
#include <stdint.h>

/* Register offsets in the xAPIC MMIO page (SDM Vol. 3A Table 10-1). */
#define APIC_ID			0x020
#define APIC_LVR		0x030	/* version */
#define  APIC_LVR_VERSION(v)	((v) & 0xff)
#define  APIC_LVR_MAXLVT(v)	(((v) >> 16) & 0xff)
#define APIC_TPR		0x080
#define APIC_EOI		0x0b0
#define APIC_SVR		0x0f0
#define  APIC_SVR_ENABLE	(1U << 8)
#define APIC_ISR		0x100	/* 8 registers, 16 bytes apart */
#define APIC_TMR		0x180
#define APIC_IRR		0x200
#define APIC_ESR		0x280
#define APIC_ICR		0x300
#define APIC_ICR2		0x310
#define  APIC_ICR_DM_FIXED	(0U << 8)
#define  APIC_ICR_DM_NMI	(4U << 8)
#define  APIC_ICR_DM_INIT	(5U << 8)
#define  APIC_ICR_DM_STARTUP	(6U << 8)
#define  APIC_ICR_BUSY		(1U << 12)	/* delivery status, xAPIC only */
#define  APIC_ICR_LEVEL_ASSERT	(1U << 14)
#define  APIC_ICR_DEST_SELF	(1U << 18)
#define APIC_LVTT		0x320	/* timer */
#define  APIC_LVTT_ONESHOT	(0U << 17)
#define  APIC_LVTT_PERIODIC	(1U << 17)
#define  APIC_LVTT_TSCDEADLINE	(2U << 17)
#define APIC_LVTTHMR		0x330
#define APIC_LVTPC		0x340	/* performance-monitoring counters */
#define APIC_LVT0		0x350
#define APIC_LVT1		0x360
#define APIC_LVTERR		0x370
#define  APIC_LVT_MASKED	(1U << 16)
#define  APIC_LVT_DM_NMI	(4U << 8)
#define  APIC_LVT_DELIVERY_PENDING (1U << 12)
#define APIC_TMICT		0x380	/* timer initial count */
#define APIC_TMCCT		0x390	/* timer current count */
#define APIC_TDCR		0x3e0	/* timer divide configuration */
#define  APIC_TDCR_DIV_16	0x3
#define  APIC_TDCR_DIV_128	0xa

struct apic_state {
	bool present;
	bool x2apic;
	uint64_t base;		/* MMIO physical base (xAPIC) */
	uint32_t id;
	uint32_t version;	/* APIC_LVR */
	uint64_t timer_hz;	/* timer input clock after APIC_TDCR_DIV_16, 0 until calibrated */
};

extern struct apic_state apic;

uint32_t apic_read(uint32_t reg);
void apic_write(uint32_t reg, uint32_t v);

/*
 * Finds the local APIC (IA32_APIC_BASE). With `own` true (boot services gone) it takes it
 * over: software-enabled with VECTOR_SPURIOUS, TPR 0, timer/LINT0/thermal/PMC LVTs masked,
 * error LVT to VECTOR_APIC_ERROR. With `own` false only the timer is touched later, and
 * apic_restore() puts it back. Returns false when there is no usable local APIC.
 */
bool apic_init(bool own);
void apic_restore(void);
/* The `own` part of apic_init() on the CPU it runs on (an AP after start-up: its APIC
 * comes out of INIT software-disabled); returns that CPU's APIC ID. */
uint32_t apic_take_over(void);
/* The APIC ID of the CPU this runs on. */
uint32_t apic_current_id(void);
/* An IPI to `dest` (physical destination): icr_low is the ICR's low half (delivery mode,
 * level, vector). xAPIC: waits (bounded) for the previous one to leave the ICR first. */
void apic_send_ipi(uint32_t dest, uint32_t icr_low);

void apic_eoi(void);
/* The error status (ESR): written first, which loads the errors seen since the last write
 * (SDM Vol. 3A 10.5.3), then read. */
uint32_t apic_read_esr(void);
/* EOI only when `vector` is in service (unexpected interrupts may be edge noise). */
void apic_eoi_if_in_service(unsigned vector);
bool apic_in_service(unsigned vector);
bool apic_irr_pending(unsigned vector);

/* Fixed-delivery IPI to this CPU. */
void apic_self_ipi(unsigned vector);

/* Measures the timer clock (divide by 16) against the TSC over about `ms` milliseconds. */
void apic_timer_calibrate(uint64_t tsc_hz, unsigned ms);
/* One-shot timer firing `vector` after `us` microseconds (clamped to the counter range). */
void apic_timer_oneshot(unsigned vector, uint64_t us);
void apic_timer_stop(void);
/* Whether the firmware has the timer LVT unmasked (then pmuboot must not use it). */
bool apic_timer_in_use_by_firmware(void);

/* Masks every line of both legacy 8259 PICs (their interrupts would otherwise arrive on
 * whatever vectors the firmware programmed). */
#define PIC1_DATA		0x21
#define PIC2_DATA		0xa1
void legacy_pic_mask_all(void);

#endif /* ARCH_X86_APIC_H */
