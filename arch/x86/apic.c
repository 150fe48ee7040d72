/* SPDX-License-Identifier: MIT */
/* Local APIC access, self-IPI, EOI and the one-shot timer behind the watchdog. */
#include "arch/x86/apic.h"
#include "arch/x86/io.h"
#include "arch/x86/msr.h"
#include "arch/x86/trap.h"

struct apic_state apic;

/* State saved for apic_restore() (boot-services-kept mode). */
static struct {
	bool saved;
	uint32_t lvtt, tdcr, tmict;
} fw;

uint32_t apic_read(uint32_t reg)
{
	if (apic.x2apic)
		return (uint32_t)rdmsr(MSR_X2APIC_BASE + (reg >> 4));
	return mmio_read32(apic.base + reg);
}

void apic_write(uint32_t reg, uint32_t v)
{
	if (apic.x2apic)
		wrmsr(MSR_X2APIC_BASE + (reg >> 4), v);
	else
		mmio_write32(apic.base + reg, v);
}

bool apic_init(bool own)
{
	uint64_t base;

	if (rdmsr_safe(MSR_IA32_APICBASE, &base) || !(base & MSR_IA32_APICBASE_ENABLE)) {
		apic.present = false;
		return false;
	}
	apic.present = true;
	apic.x2apic = base & MSR_IA32_APICBASE_EXTD;
	apic.base = base & MSR_IA32_APICBASE_BASE;
	apic.id = apic_read(APIC_ID);
	if (!apic.x2apic)
		apic.id >>= 24;
	apic.version = apic_read(APIC_LVR);

	fw.lvtt = apic_read(APIC_LVTT);
	fw.tdcr = apic_read(APIC_TDCR);
	fw.tmict = apic_read(APIC_TMICT);
	fw.saved = true;

	if (own)
		apic_take_over();
	return true;
}

uint32_t apic_current_id(void)
{
	uint32_t id = apic_read(APIC_ID);

	return apic.x2apic ? id : id >> 24;
}

uint32_t apic_take_over(void)
{
	apic_write(APIC_SVR, APIC_SVR_ENABLE | VECTOR_SPURIOUS);
	apic_write(APIC_TPR, 0);
	apic_write(APIC_LVTT, APIC_LVT_MASKED | VECTOR_WATCHDOG);
	apic_write(APIC_TMICT, 0);
	apic_write(APIC_LVT0, APIC_LVT_MASKED);
	if (APIC_LVR_MAXLVT(apic.version) >= 4)
		apic_write(APIC_LVTPC, APIC_LVT_MASKED | VECTOR_PMI);
	if (APIC_LVR_MAXLVT(apic.version) >= 5)
		apic_write(APIC_LVTTHMR, APIC_LVT_MASKED);
	apic_write(APIC_LVTERR, VECTOR_APIC_ERROR);
	/* ESR is write-then-read (SDM 10.5.3); writes clear the latched errors. */
	apic_write(APIC_ESR, 0);
	apic_write(APIC_ESR, 0);
	/* LINT1 (usually NMI) is left as the firmware set it. */
	return apic_current_id();
}

static void icr_wait_idle(void)
{
	for (unsigned i = 0; i < 1000000 && (apic_read(APIC_ICR) & APIC_ICR_BUSY); i++)
		cpu_relax();
}

void apic_send_ipi(uint32_t dest, uint32_t icr_low)
{
	if (apic.x2apic) {
		/* x2APIC: one 64-bit write, destination in the high half (SDM 10.12.9). That
		 * WRMSR is not serializing and may complete before earlier stores are visible
		 * (SDM 10.12.3): fence first, as Linux does (weak_wrmsr_fence), so the woken CPU
		 * finds its job. */
		__asm__ volatile("mfence; lfence" ::: "memory");
		wrmsr(MSR_X2APIC_BASE + (APIC_ICR >> 4), ((uint64_t)dest << 32) | icr_low);
		return;
	}
	/* xAPIC destinations are 8 bits and 0xFF is every CPU: an INIT meant for an ID above
	 * 254 would reset them all, the BSP included. smp_start never starts such a CPU. */
	if (dest > 0xFE)
		return;
	icr_wait_idle();
	apic_write(APIC_ICR2, dest << 24);
	apic_write(APIC_ICR, icr_low);
	icr_wait_idle();
}

void apic_restore(void)
{
	if (!apic.present || !fw.saved)
		return;
	apic_write(APIC_LVTT, fw.lvtt | APIC_LVT_MASKED);
	apic_write(APIC_TDCR, fw.tdcr);
	apic_write(APIC_TMICT, fw.tmict);
	apic_write(APIC_LVTT, fw.lvtt);
}

void apic_eoi(void)
{
	apic_write(APIC_EOI, 0);
}

static bool vector_bit(uint32_t reg, unsigned vector)
{
	return apic_read(reg + 0x10 * (vector / 32)) & (1U << (vector % 32));
}

bool apic_in_service(unsigned vector)
{
	return apic.present && vector_bit(APIC_ISR, vector);
}

bool apic_irr_pending(unsigned vector)
{
	return apic.present && vector_bit(APIC_IRR, vector);
}

uint32_t apic_read_esr(void)
{
	if (!apic.present)
		return 0;
	apic_write(APIC_ESR, 0);
	return apic_read(APIC_ESR);
}

void apic_eoi_if_in_service(unsigned vector)
{
	if (apic_in_service(vector))
		apic_eoi();
}

void apic_self_ipi(unsigned vector)
{
	if (apic.x2apic) {
		wrmsr(MSR_X2APIC_SELF_IPI, vector & 0xff);
		return;
	}
	icr_wait_idle();
	apic_write(APIC_ICR, APIC_ICR_DEST_SELF | APIC_ICR_DM_FIXED | APIC_ICR_LEVEL_ASSERT |
		   (vector & 0xff));
}

bool apic_timer_in_use_by_firmware(void)
{
	return fw.saved && !(fw.lvtt & APIC_LVT_MASKED);
}

void apic_timer_calibrate(uint64_t tsc_hz, unsigned ms)
{
	uint64_t t0, target, ticks;
	uint32_t start = 0xffffffffu, left;

	if (!apic.present || !tsc_hz)
		return;
	apic_write(APIC_LVTT, APIC_LVT_MASKED | VECTOR_WATCHDOG);
	apic_write(APIC_TDCR, APIC_TDCR_DIV_16);
	target = tsc_hz / 1000 * ms;
	t0 = rdtsc();
	apic_write(APIC_TMICT, start);
	while (rdtsc() - t0 < target)
		cpu_relax();
	left = apic_read(APIC_TMCCT);
	ticks = rdtsc() - t0;
	apic_write(APIC_TMICT, 0);
	apic.timer_hz = (uint64_t)(start - left) * tsc_hz / (ticks ? ticks : 1);
}

void apic_timer_oneshot(unsigned vector, uint64_t us)
{
	uint64_t count;

	if (!apic.present || !apic.timer_hz)
		return;
	count = apic.timer_hz / 1000000 * us + apic.timer_hz % 1000000 * us / 1000000;
	if (count == 0)
		count = 1;
	if (count > 0xffffffffu)
		count = 0xffffffffu;
	apic_write(APIC_TDCR, APIC_TDCR_DIV_16);
	apic_write(APIC_LVTT, APIC_LVTT_ONESHOT | (vector & 0xff));
	apic_write(APIC_TMICT, (uint32_t)count);
}

void apic_timer_stop(void)
{
	if (!apic.present)
		return;
	apic_write(APIC_TMICT, 0);
	apic_write(APIC_LVTT, APIC_LVT_MASKED | VECTOR_WATCHDOG);
}

void legacy_pic_mask_all(void)
{
	outb(PIC1_DATA, 0xff);
	outb(PIC2_DATA, 0xff);
}
