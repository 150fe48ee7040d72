/* SPDX-License-Identifier: MIT */
/* TSC frequency discovery and PM-timer calibration. */
#include "arch/x86/tsc.h"
#ifndef PMUBOOT_HOST
#include "arch/x86/io.h"
#endif

struct tsc_info tsc;

const char *tsc_source_name(enum tsc_source s)
{
	switch (s) {
	case TSC_SRC_CPUID_15: return "CPUID.15H";
	case TSC_SRC_CPUID_16: return "CPUID.16H base frequency";
	case TSC_SRC_HYPERVISOR: return "hypervisor CPUID.40000010H";
	case TSC_SRC_PM_TIMER: return "ACPI PM timer calibration";
	case TSC_SRC_ASSUMED: return "assumed (no source)";
	default: return "none";
	}
}

uint64_t tsc_hz_from_cpuid(const struct cpu_info *ci, enum tsc_source *src)
{
	/* SDM Vol. 3B 18.7.3: TSC = crystal * EBX / EAX; ECX is the crystal in Hz or 0. When
	 * the crystal is not enumerated, CPUID.16H:EAX (base MHz) is the TSC's nominal rate on
	 * the processors that have leaf 0x15 without ECX (Skylake/Kaby Lake client). */
	if (ci->l15_eax && ci->l15_ebx && ci->l15_ecx) {
		*src = TSC_SRC_CPUID_15;
		return (uint64_t)ci->l15_ecx * ci->l15_ebx / ci->l15_eax;
	}
	if (ci->l15_eax && ci->l15_ebx && ci->l16_eax) {
		*src = TSC_SRC_CPUID_16;
		return (uint64_t)ci->l16_eax * 1000000ULL;
	}
	if (ci->hv_tsc_khz) {
		*src = TSC_SRC_HYPERVISOR;
		return (uint64_t)ci->hv_tsc_khz * 1000ULL;
	}
	*src = TSC_SRC_NONE;
	return 0;
}

#ifndef PMUBOOT_HOST
static uint64_t calibrate_pm_timer(const struct acpi_info *acpi)
{
	uint32_t mask = acpi->pm_timer_bits == 32 ? 0xffffffffu : 0xffffffu;
	uint64_t want = ACPI_PM_TIMER_HZ * TSC_CALIBRATE_MS / 1000, elapsed = 0;
	uint32_t prev, now;
	uint64_t t0, t1;

	/* Start on a tick edge so the partial first tick does not count. */
	prev = acpi_pm_timer_read(acpi);
	for (unsigned i = 0; i < 10000000 && (now = acpi_pm_timer_read(acpi)) == prev; i++)
		;
	prev = acpi_pm_timer_read(acpi);
	t0 = rdtsc();
	for (unsigned long spins = 0; elapsed < want; spins++) {
		now = acpi_pm_timer_read(acpi);
		elapsed += (now - prev) & mask;
		prev = now;
		if (spins > 200000000UL)
			return 0;	/* the timer does not advance */
	}
	t1 = rdtsc();
	return (t1 - t0) * ACPI_PM_TIMER_HZ / elapsed;
}

void tsc_init(const struct cpu_info *ci, const struct acpi_info *acpi)
{
	enum tsc_source src;

	tsc.enumerated_hz = tsc_hz_from_cpuid(ci, &src);
	tsc.calibrated_hz = acpi->pm_timer ? calibrate_pm_timer(acpi) : 0;
	if (tsc.enumerated_hz) {
		tsc.hz = tsc.enumerated_hz;
		tsc.source = src;
	} else if (tsc.calibrated_hz) {
		tsc.hz = tsc.calibrated_hz;
		tsc.source = TSC_SRC_PM_TIMER;
	} else {
		tsc.hz = TSC_ASSUMED_HZ;
		tsc.source = TSC_SRC_ASSUMED;
	}
}
#endif

uint64_t tsc_from_us(uint64_t us)
{
	return tsc.hz / 1000000 * us + tsc.hz % 1000000 * us / 1000000;
}

uint64_t tsc_to_us(uint64_t ticks)
{
	uint64_t mhz = tsc.hz / 1000000;

	return mhz ? ticks / mhz : ticks;
}
