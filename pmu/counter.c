/* SPDX-License-Identifier: MIT */
/* Core counter programming and reading, through arch/x86/hw.h only. */
#include "pmu/counter.h"
#include "arch/x86/apic.h"
#include "arch/x86/hw.h"
#include "arch/x86/msr.h"
#include "arch/x86/trap.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "pmu/ds.h"
#include "pmu/event.h"
#include "pmu/pmi.h"

static uint64_t width_mask(unsigned width)
{
	return width >= 64 ? ~0ULL : width ? (1ULL << width) - 1 : 0;
}

uint64_t pmu_gp_width_mask(const struct pmu_caps *p)
{
	return width_mask(p->gp_width);
}

uint64_t pmu_fixed_width_mask(const struct pmu_caps *p)
{
	return width_mask(p->fixed_width);
}

uint64_t pmu_counter_delta(uint64_t start, uint64_t end, unsigned width)
{
	return (end - start) & width_mask(width);
}

uint64_t pmu_legacy_write_result(uint64_t v, unsigned width)
{
	uint64_t low = v & 0xffffffffULL;

	if (low & 0x80000000ULL)
		low |= ~0xffffffffULL;
	return low & width_mask(width);
}

static int gp_index_ok(const struct pmu_caps *p, unsigned idx, char *err, size_t errlen)
{
	if (idx >= p->num_gp)
		return pmu_error(err, errlen, "GP counter %u does not exist (CPUID.0AH: %u GP counters)",
			   idx, p->num_gp);
	return 0;
}

static int fixed_index_ok(const struct pmu_caps *p, unsigned idx, char *err, size_t errlen)
{
	if (p->version < 2 || idx >= PMU_MAX_FIXED || !(p->fixed_mask & (1U << idx)))
		return pmu_error(err, errlen, "fixed counter %u does not exist (mask 0x%x, version %u)",
			   idx, p->fixed_mask, p->version);
	return 0;
}

/* Writes a counter value with the selector already disabled. */
static int gp_write_raw(const struct pmu_caps *p, unsigned idx, uint64_t value, char *err,
			size_t errlen)
{
	uint64_t m = pmu_gp_width_mask(p);

	if (value & ~m)
		return pmu_error(err, errlen, "value 0x%llx exceeds the %u-bit GP counter",
			   (unsigned long long)value, p->gp_width);
	if (p->full_width_write)
		return hw_wrmsr(MSR_IA32_PMC0_FULL + idx, value);
	if (pmu_legacy_write_result(value, p->gp_width) != value)
		return pmu_error(err, errlen, "value 0x%llx needs full-width writes, which "
			   "PERF_CAPABILITIES does not advertise (legacy writes sign-extend bit 31)",
			   (unsigned long long)value);
	return hw_wrmsr(MSR_IA32_PMC0 + idx, value);
}

int pmu_gp_program(const struct pmu_caps *p, unsigned idx, uint64_t evtsel, uint64_t value,
		   char *err, size_t errlen)
{
	int r;

	if ((r = gp_index_ok(p, idx, err, errlen)) || pmu_evtsel_check(p, evtsel, err, errlen))
		return r ? r : PMU_EARG;
	/* Seed 002 (EN flag): the selector must be disabled before IA32_PMCx is written. */
	if ((r = hw_wrmsr(MSR_IA32_PERFEVTSEL0 + idx, evtsel & ~ARCH_PERFMON_EVENTSEL_ENABLE)))
		return r;
	if ((r = gp_write_raw(p, idx, value, err, errlen)))
		return r;
	if (evtsel & ARCH_PERFMON_EVENTSEL_ENABLE)
		return hw_wrmsr(MSR_IA32_PERFEVTSEL0 + idx, evtsel);
	return 0;
}

int pmu_gp_write(const struct pmu_caps *p, unsigned idx, uint64_t value, char *err, size_t errlen)
{
	uint64_t sel;
	int r;

	if ((r = gp_index_ok(p, idx, err, errlen)) || (r = hw_rdmsr(MSR_IA32_PERFEVTSEL0 + idx, &sel)))
		return r;
	if ((sel & ARCH_PERFMON_EVENTSEL_ENABLE) &&
	    (r = hw_wrmsr(MSR_IA32_PERFEVTSEL0 + idx, sel & ~ARCH_PERFMON_EVENTSEL_ENABLE)))
		return r;
	r = gp_write_raw(p, idx, value, err, errlen);
	if (sel & ARCH_PERFMON_EVENTSEL_ENABLE) {
		int r2 = hw_wrmsr(MSR_IA32_PERFEVTSEL0 + idx, sel);

		r = r ? r : r2;
	}
	return r;
}

int pmu_gp_write_running(const struct pmu_caps *p, unsigned idx, uint64_t value, char *err,
			 size_t errlen)
{
	int r = gp_index_ok(p, idx, err, errlen);

	return r ? r : gp_write_raw(p, idx, value, err, errlen);
}

int pmu_gp_read(const struct pmu_caps *p, unsigned idx, uint64_t *v)
{
	int r = gp_index_ok(p, idx, NULL, 0);

	return r ? r : hw_rdmsr(MSR_IA32_PMC0 + idx, v);
}

/* RDPMC of ecx, the result cut to the counter's width (bits above it are undefined). */
static int rdpmc_width(uint32_t ecx, uint64_t mask, uint64_t *v)
{
	int r = hw_rdpmc(ecx, v);

	if (!r)
		*v &= mask;
	return r;
}

int pmu_gp_rdpmc(const struct pmu_caps *p, unsigned idx, uint64_t *v)
{
	int r = gp_index_ok(p, idx, NULL, 0);

	return r ? r : rdpmc_width(idx, pmu_gp_width_mask(p), v);
}

static uint64_t fixed_field(unsigned idx, uint64_t bits)
{
	return (bits & 0xf) << (FIXED_CTR_CTRL_BITS * idx);
}

int pmu_fixed_program(const struct pmu_caps *p, unsigned idx, unsigned ctrl, uint64_t value,
		      char *err, size_t errlen)
{
	uint64_t cur;
	int r;

	if ((r = fixed_index_ok(p, idx, err, errlen)))
		return r;
	if (ctrl & ~0xfU)
		return pmu_error(err, errlen, "fixed control 0x%x has bits beyond the 4-bit field", ctrl);
	if ((ctrl & FIXED_CTR_CTRL_ANY) && p->version < 3)
		return pmu_error(err, errlen, "AnyThread needs PMU version 3 (this is %u)", p->version);
	if (value & ~pmu_fixed_width_mask(p))
		return pmu_error(err, errlen, "value 0x%llx exceeds the %u-bit fixed counter",
			   (unsigned long long)value, p->fixed_width);
	if ((r = hw_rdmsr(MSR_CORE_PERF_FIXED_CTR_CTRL, &cur)))
		return r;
	cur &= ~fixed_field(idx, 0xf);
	if ((r = hw_wrmsr(MSR_CORE_PERF_FIXED_CTR_CTRL, cur)) ||
	    (r = hw_wrmsr(MSR_CORE_PERF_FIXED_CTR0 + idx, value)))
		return r;
	return ctrl ? hw_wrmsr(MSR_CORE_PERF_FIXED_CTR_CTRL, cur | fixed_field(idx, ctrl)) : 0;
}

int pmu_fixed_set_adaptive(const struct pmu_caps *p, unsigned idx, bool on)
{
	uint64_t cur, bit = 1ULL << (FIXED_CTR_CTRL_ADAPTIVE_SHIFT + FIXED_CTR_CTRL_BITS * idx);
	int r;

	if (!p->dsc.pebs_baseline || fixed_index_ok(p, idx, NULL, 0))
		return PMU_EARG;
	if ((r = hw_rdmsr(MSR_CORE_PERF_FIXED_CTR_CTRL, &cur)))
		return r;
	return hw_wrmsr(MSR_CORE_PERF_FIXED_CTR_CTRL, on ? cur | bit : cur & ~bit);
}

int pmu_fixed_read(const struct pmu_caps *p, unsigned idx, uint64_t *v)
{
	int r = fixed_index_ok(p, idx, NULL, 0);

	return r ? r : hw_rdmsr(MSR_CORE_PERF_FIXED_CTR0 + idx, v);
}

int pmu_fixed_rdpmc(const struct pmu_caps *p, unsigned idx, uint64_t *v)
{
	int r = fixed_index_ok(p, idx, NULL, 0);

	return r ? r : rdpmc_width(RDPMC_FIXED | idx, pmu_fixed_width_mask(p), v);
}

uint64_t pmu_status_bits(const struct pmu_caps *p)
{
	uint64_t b = pmu_gp_mask(p) | pmu_fixed_mask(p);

	if (p->version >= 2)
		b |= GLOBAL_STATUS_BUFFER_OVF | GLOBAL_STATUS_COND_CHGD;
	if (p->version >= 3)
		b |= GLOBAL_STATUS_UNCORE_OVF;
	if (p->version >= 4)
		b |= GLOBAL_STATUS_TRACE_TOPAPMI | GLOBAL_STATUS_LBRS_FROZEN |
		     GLOBAL_STATUS_COUNTERS_FROZEN | GLOBAL_STATUS_ASCI;
	return b;
}

uint64_t pmu_ovf_clear_bits(const struct pmu_caps *p)
{
	uint64_t b = pmu_gp_mask(p) | pmu_fixed_mask(p);

	if (p->version >= 2)
		b |= GLOBAL_STATUS_BUFFER_OVF | GLOBAL_STATUS_COND_CHGD;
	if (p->version >= 3)
		b |= GLOBAL_STATUS_UNCORE_OVF;
	if (p->version >= 4)
		b |= GLOBAL_STATUS_LBRS_FROZEN | GLOBAL_STATUS_COUNTERS_FROZEN;
	return b;
}

static int need_version(const struct pmu_caps *p, unsigned v)
{
	return p->version >= v ? 0 : PMU_EARG;
}

int pmu_global_ctrl_write(const struct pmu_caps *p, uint64_t mask, char *err, size_t errlen)
{
	uint64_t valid = pmu_gp_mask(p) | pmu_fixed_mask(p), cur = 0;
	int r;

	if (need_version(p, 2))
		return pmu_error(err, errlen, "GLOBAL_CTRL needs PMU version 2 (this is %u)", p->version);
	if (mask & ~valid)
		return pmu_error(err, errlen, "GLOBAL_CTRL 0x%llx enables counters that do not exist "
			   "(valid 0x%llx)", (unsigned long long)mask, (unsigned long long)valid);
	/* Enabling GP counters that were off is where they are added: the Nehalem sequence
	 * goes first (Linux runs it in intel_pmu_nhm_enable_all when events were added).
	 * Nothing elsewhere. */
	if ((p->errata & PMU_ERRATUM_NHM_RESET) && (mask & pmu_gp_mask(p)) &&
	    !hw_rdmsr(MSR_CORE_PERF_GLOBAL_CTRL, &cur) && (mask & ~cur & pmu_gp_mask(p)) &&
	    (r = pmu_nhm_counter_reset(p)))
		return r == PMU_EARG ?
		       pmu_error(err, errlen, "the Nehalem counter reset (AAK100) cannot put back a "
				 "counter value without full-width writes") :
		       pmu_error(err, errlen, "the Nehalem counter reset (AAK100) faulted (vector "
				 "%d)", r);
	return hw_wrmsr(MSR_CORE_PERF_GLOBAL_CTRL, mask);
}

int pmu_global_ctrl_read(const struct pmu_caps *p, uint64_t *mask)
{
	return need_version(p, 2) ? PMU_EARG : hw_rdmsr(MSR_CORE_PERF_GLOBAL_CTRL, mask);
}

int pmu_global_status(const struct pmu_caps *p, uint64_t *status)
{
	return need_version(p, 2) ? PMU_EARG : hw_rdmsr(MSR_CORE_PERF_GLOBAL_STATUS, status);
}

int pmu_global_ovf_clear(const struct pmu_caps *p, uint64_t mask)
{
	mask &= pmu_ovf_clear_bits(p);
	if (need_version(p, 2))
		return PMU_EARG;
	return mask ? hw_wrmsr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, mask) : 0;
}

int pmu_global_status_set(const struct pmu_caps *p, uint64_t mask)
{
	/* STATUS_SET has no CondChgd bit (SDM Vol. 3B Figure 18-12 era layouts). */
	if (need_version(p, 4) || (mask & ~(pmu_ovf_clear_bits(p) & ~GLOBAL_STATUS_COND_CHGD)))
		return PMU_EARG;
	return hw_wrmsr(MSR_CORE_PERF_GLOBAL_STATUS_SET, mask);
}

int pmu_global_inuse(const struct pmu_caps *p, uint64_t *inuse)
{
	return need_version(p, 4) ? PMU_EARG : hw_rdmsr(MSR_CORE_PERF_GLOBAL_INUSE, inuse);
}

uint64_t pmu_debugctl_pmu_bits(void)
{
	return DEBUGCTLMSR_LBR | DEBUGCTLMSR_TR | DEBUGCTLMSR_BTS | DEBUGCTLMSR_BTINT |
	       DEBUGCTLMSR_BTS_OFF_OS | DEBUGCTLMSR_BTS_OFF_USR | DEBUGCTLMSR_FREEZE_LBRS_ON_PMI |
	       DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI | DEBUGCTLMSR_UNCORE_PMI_EN |
	       DEBUGCTLMSR_FREEZE_IN_SMM;
}

uint64_t pmu_debugctl_baseline(const struct pmu_caps *p, uint64_t debugctl)
{
	return (debugctl & ~pmu_debugctl_pmu_bits()) |
	       (p->freeze_while_smm ? DEBUGCTLMSR_FREEZE_IN_SMM : 0);
}

int pmu_smi_count(const struct pmu_caps *p, uint64_t *count)
{
	int r;

	if (!p->has_smi_count)
		return PMU_EARG;
	r = hw_rdmsr(MSR_SMI_COUNT, count);
	if (!r)
		*count &= MSR_SMI_COUNT_MASK;
	return r;
}

/* Whether this part has MSR_OFFCORE_RSP_<idx>: Nehalem has RSP_0 only, Westmere and every
 * later big core both, Silvermont and later Atoms both, Core 2 and Bonnell none (facts from
 * Linux intel/core.c's extra_regs tables: intel_nehalem_extra_regs, westmere, snb .. and
 * slm/glm/tnt/grt). */
static bool has_offcore_rsp(const struct pmu_caps *p, unsigned idx)
{
	switch (p->uarch) {
	case UARCH_UNKNOWN: case UARCH_CORE2: case UARCH_BONNELL: case UARCH_SALTWELL:
		return false;
	case UARCH_NEHALEM:
		return idx == 0;
	default:
		return true;
	}
}

int pmu_extra_msr_write(const struct pmu_caps *p, uint32_t msr, uint64_t v, char *err,
			size_t errlen)
{
	int r;

	switch (msr) {
	case MSR_OFFCORE_RSP_0:
	case MSR_OFFCORE_RSP_1:
		if (!has_offcore_rsp(p, msr - MSR_OFFCORE_RSP_0))
			return pmu_error(err, errlen, "MSR_OFFCORE_RSP_%u (0x%x): %s has none",
					 msr - MSR_OFFCORE_RSP_0, msr, pmu_uarch_name(p->uarch));
		break;
	case MSR_PEBS_LD_LAT_THRESHOLD:
		if (!pebs_has_ld_lat(p))
			return pmu_error(err, errlen, "MSR_PEBS_LD_LAT_THRESHOLD (0x%x): %s has no PEBS "
					 "load latency", msr, pmu_uarch_name(p->uarch));
		break;
	default:
		return pmu_error(err, errlen, "MSR 0x%x is no core event's extra MSR (Nehalem's "
				 "uncore match registers: uncore_nhm_match_write)", msr);
	}
	r = hw_wrmsr(msr, v);
	if (r)
		return pmu_error(err, errlen, "WRMSR 0x%x <- 0x%llx faulted (vector %d)", msr,
				 (unsigned long long)v, r);
	return 0;
}

int pmu_nhm_counter_reset(const struct pmu_caps *p)
{
	static const uint64_t magic[4] = { 0x4300b5, 0x4300d2, 0x4300b1, 0x4300b1 };
	uint64_t sel[4], ctr[4], ctrl = 0, pebs = 0;
	bool has_pebs;
	int r = 0;

	if (!(p->errata & PMU_ERRATUM_NHM_RESET) || p->version < 2 || p->num_gp < 4)
		return 0;
	has_pebs = !pebs_unavailable(p, false);
	/* Stopped first, as Linux disables all before its workaround, then read: what the
	 * caller set stays (its programmed selectors with their counters, PEBS_ENABLE and
	 * GLOBAL_CTRL are put back after the sequence, as Linux programs its events again
	 * after it); an unprogrammed counter is left 0 (Linux zeroes it). A programmed
	 * counter's value a legacy write cannot put back (no full-width writes) is refused. */
	r |= hw_rdmsr(MSR_CORE_PERF_GLOBAL_CTRL, &ctrl);
	r |= hw_wrmsr(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	if (has_pebs) {
		r |= hw_rdmsr(MSR_IA32_PEBS_ENABLE, &pebs);
		if (pebs)
			r |= hw_wrmsr(MSR_IA32_PEBS_ENABLE, 0);
	}
	for (unsigned i = 0; i < 4; i++) {
		r |= hw_rdmsr(MSR_IA32_PERFEVTSEL0 + i, &sel[i]);
		r |= hw_rdmsr(MSR_IA32_PMC0 + i, &ctr[i]);
		if (!sel[i])
			ctr[i] = 0;
	}
	for (unsigned i = 0; i < 4 && !r; i++)
		if (!p->full_width_write && pmu_legacy_write_result(ctr[i], p->gp_width) != ctr[i])
			r = -1;
	if (r) {
		/* Nothing changed but the stop: put it back. */
		if (has_pebs && pebs)
			hw_wrmsr(MSR_IA32_PEBS_ENABLE, pebs);
		if (ctrl)
			hw_wrmsr(MSR_CORE_PERF_GLOBAL_CTRL, ctrl);
		return r < 0 ? PMU_EARG : X86_TRAP_GP;
	}
	for (unsigned i = 0; i < 4; i++) {
		r |= hw_wrmsr(MSR_IA32_PERFEVTSEL0 + i, 0);
		r |= hw_wrmsr(MSR_IA32_PMC0 + i, 0);
		r |= hw_wrmsr(MSR_IA32_PERFEVTSEL0 + i, magic[i]);
	}
	r |= hw_wrmsr(MSR_CORE_PERF_GLOBAL_CTRL, 0xf);
	r |= hw_wrmsr(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	for (unsigned i = 0; i < 4; i++) {
		r |= hw_wrmsr(MSR_IA32_PERFEVTSEL0 + i, 0);
		r |= hw_wrmsr(p->full_width_write ? MSR_IA32_PMC0_FULL + i : MSR_IA32_PMC0 + i,
			      ctr[i]);
		if (sel[i])
			r |= hw_wrmsr(MSR_IA32_PERFEVTSEL0 + i, sel[i]);
	}
	if (has_pebs && pebs)
		r |= hw_wrmsr(MSR_IA32_PEBS_ENABLE, pebs);
	if (ctrl)
		r |= hw_wrmsr(MSR_CORE_PERF_GLOBAL_CTRL, ctrl);
	return r ? X86_TRAP_GP : 0;
}

int pmu_reset(const struct pmu_caps *p)
{
	uint64_t dbg;
	int r = 0;

	if (p->version == 0)
		return 0;
	if (p->version >= 2) {
		r |= hw_wrmsr(MSR_CORE_PERF_GLOBAL_CTRL, 0);
		if (p->num_fixed)
			r |= hw_wrmsr(MSR_CORE_PERF_FIXED_CTR_CTRL, 0);
	}
	for (unsigned i = 0; i < p->num_gp; i++) {
		r |= hw_wrmsr(MSR_IA32_PERFEVTSEL0 + i, 0);
		r |= hw_wrmsr(MSR_IA32_PMC0 + i, 0);
	}
	for (unsigned i = 0; i < p->num_fixed; i++)
		if (p->fixed_mask & (1U << i))
			r |= hw_wrmsr(MSR_CORE_PERF_FIXED_CTR0 + i, 0);
	r |= ds_quiesce(p);		/* PEBS off before the Nehalem sequence */
	r |= pmu_nhm_counter_reset(p);
	if (p->version >= 2)
		r |= hw_wrmsr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, pmu_ovf_clear_bits(p));
	if (p->lbr.arch && p->lbr.present)
		r |= hw_wrmsr(MSR_ARCH_LBR_CTL, 0);
	/* Freeze, LBR and BTS bits a check (or the firmware) left would change what the next
	 * check measures. Written only when it differs: bits are only cleared, or
	 * FREEZE_WHILE_SMM set where PERF_CAPABILITIES says it exists. */
	if (!hw_rdmsr(MSR_IA32_DEBUGCTLMSR, &dbg)) {
		if (pmu_debugctl_baseline(p, dbg) != dbg)
			r |= hw_wrmsr(MSR_IA32_DEBUGCTLMSR, pmu_debugctl_baseline(p, dbg));
	} else {
		r = 1;
	}
	return r ? X86_TRAP_GP : 0;
}

int pmu_save(const struct pmu_caps *p, struct pmu_state *s)
{
	int r = 0;

	*s = (struct pmu_state){ 0 };
	for (unsigned i = 0; i < p->num_gp; i++) {
		r |= hw_rdmsr(MSR_IA32_PERFEVTSEL0 + i, &s->evtsel[i]);
		r |= hw_rdmsr(MSR_IA32_PMC0 + i, &s->pmc[i]);
	}
	if (p->version >= 2) {
		for (unsigned i = 0; i < p->num_fixed; i++)
			if (p->fixed_mask & (1U << i))
				r |= hw_rdmsr(MSR_CORE_PERF_FIXED_CTR0 + i, &s->fixed[i]);
		if (p->num_fixed)
			r |= hw_rdmsr(MSR_CORE_PERF_FIXED_CTR_CTRL, &s->fixed_ctrl);
		r |= hw_rdmsr(MSR_CORE_PERF_GLOBAL_CTRL, &s->global_ctrl);
		r |= hw_rdmsr(MSR_CORE_PERF_GLOBAL_STATUS, &s->global_status);
	}
	r |= hw_rdmsr(MSR_IA32_DEBUGCTLMSR, &s->debugctl);
	s->lvtpc = hw_apic_lvtpc_read();
	/* The debug store and LBR settings are not the counters': a fault there (a hypervisor
	 * without them) leaves those parts unsaved, not the whole state. */
	ds_save(p, &s->ds);
	lbr_save(&p->lbr, &s->lbr);
	s->saved = r == 0;
	return r ? X86_TRAP_GP : 0;
}

int pmu_restore(const struct pmu_caps *p, const struct pmu_state *s)
{
	int r = 0;

	if (!s->saved)
		return PMU_EARG;
	if (p->version >= 2)
		r |= hw_wrmsr(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	for (unsigned i = 0; i < p->num_gp; i++) {
		r |= hw_wrmsr(MSR_IA32_PERFEVTSEL0 + i, s->evtsel[i] & ~ARCH_PERFMON_EVENTSEL_ENABLE);
		r |= gp_write_raw(p, i, s->pmc[i] & pmu_gp_width_mask(p), NULL, 0) > 0;
		r |= hw_wrmsr(MSR_IA32_PERFEVTSEL0 + i, s->evtsel[i]);
	}
	if (p->version >= 2) {
		if (p->num_fixed)
			r |= hw_wrmsr(MSR_CORE_PERF_FIXED_CTR_CTRL, 0);
		for (unsigned i = 0; i < p->num_fixed; i++)
			if (p->fixed_mask & (1U << i))
				r |= hw_wrmsr(MSR_CORE_PERF_FIXED_CTR0 + i, s->fixed[i]);
		if (p->num_fixed)
			r |= hw_wrmsr(MSR_CORE_PERF_FIXED_CTR_CTRL, s->fixed_ctrl);
		/* Overflow status cannot be written before version 4; there, clear what we
		 * left and set what was found. */
		r |= hw_wrmsr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, pmu_ovf_clear_bits(p));
		if (p->version >= 4 && (s->global_status & pmu_ovf_clear_bits(p)))
			r |= hw_wrmsr(MSR_CORE_PERF_GLOBAL_STATUS_SET,
				      s->global_status & pmu_ovf_clear_bits(p) &
				      ~GLOBAL_STATUS_COND_CHGD);
	}
	ds_restore(p, &s->ds);
	lbr_restore(&p->lbr, &s->lbr);
	r |= hw_wrmsr(MSR_IA32_DEBUGCTLMSR, s->debugctl);
	hw_apic_lvtpc_write(s->lvtpc & ~APIC_LVT_DELIVERY_PENDING);	/* read-only */
	if (p->version >= 2)
		r |= hw_wrmsr(MSR_CORE_PERF_GLOBAL_CTRL, s->global_ctrl);
	return r ? X86_TRAP_GP : 0;
}

struct pmu_state pmu_boot_state;

/* Checks start from a quiet PMU: whatever the firmware left counting is saved and stopped
 * (and comes back at exit), the LVT entry masked. */
static void save_and_quiet(const struct pmu_caps *p, struct pmu_state *s)
{
	if (p->version >= 1 && pmu_save(p, s) == 0) {
		pmu_reset(p);
		pmu_pmi_lvt_mask();
	}
}

void pmu_boot_save(void)
{
	save_and_quiet(&pmu, &pmu_boot_state);
}

void pmu_boot_restore(void)
{
	if (pmu_boot_state.saved)
		pmu_restore(&pmu, &pmu_boot_state);
}

struct pmu_cpu pmu_cpus[MAX_CPUS];
static unsigned selected;

void pmu_cpu_probe(void *arg)
{
	struct pmu_cpu *pc = arg;

	cpu_info_read(&pc->cpu);
	pmu_discover(&pc->caps, &pc->cpu);
	memset(&pc->boot, 0, sizeof(pc->boot));
	save_and_quiet(&pc->caps, &pc->boot);
	pc->probed = true;
}

void pmu_cpu_restore(void *arg)
{
	struct pmu_cpu *pc = arg;

	if (pc->probed && pc->boot.saved)
		pmu_restore(&pc->caps, &pc->boot);
}

void pmu_select(unsigned cpu)
{
	if (cpu >= MAX_CPUS || cpu == selected)
		return;
	if (selected == 0)
		pmu_cpus[0].caps = pmu;		/* the BSP's, as discovered at boot */
	pmu = cpu == 0 ? pmu_cpus[0].caps : pmu_cpus[cpu].caps;
	selected = cpu;
}

bool pmu_caps_same(const struct pmu_caps *a, const struct pmu_caps *b)
{
	return a->vendor == b->vendor && a->eax == b->eax && a->ebx == b->ebx &&
	       a->ecx == b->ecx && a->edx == b->edx && a->perf_caps == b->perf_caps &&
	       a->uarch == b->uarch && a->core_type == b->core_type &&
	       a->lbr.format == b->lbr.format && a->lbr.depth == b->lbr.depth &&
	       a->num_gp == b->num_gp && a->num_fixed == b->num_fixed;
}
