/* SPDX-License-Identifier: MIT */
/*
 * Programming the core counters: GP (IA32_PERFEVTSELx/IA32_PMCx, full-width IA32_A_PMCx),
 * fixed (IA32_FIXED_CTR_CTRL/IA32_FIXED_CTRx), the global MSRs, reads through RDMSR and
 * RDPMC, width-correct arithmetic, and saving/restoring the PMU found at start.
 *
 * Every function returns 0, PMU_EARG (-1) for a request the PMU cannot take (err says
 * why; nothing was written), or the exception vector an access raised (the bulk
 * operations — reset, save, restore — return X86_TRAP_GP if any access faulted).
 */
#ifndef PMU_COUNTER_H
#define PMU_COUNTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "arch/x86/percpu.h"
#include "pmu/pmu.h"
#include "pmu/ds.h"
#include "pmu/lbr.h"

#define PMU_EARG	(-1)
#define PMU_ERR_LEN	160

/* RDPMC ECX (SDM Vol. 2B RDPMC; Vol. 3B 18.2.6). */
#define RDPMC_FIXED	(1U << 30)	/* select fixed-function counters */
#define RDPMC_FAST	(1U << 31)	/* fast read: low 32 bits (where supported) */

/* Counter width masks. */
uint64_t pmu_gp_width_mask(const struct pmu_caps *p);
uint64_t pmu_fixed_width_mask(const struct pmu_caps *p);
/* end - start modulo 2^width: correct across one wrap. */
uint64_t pmu_counter_delta(uint64_t start, uint64_t end, unsigned width);
/* What a legacy IA32_PMCx write of v leaves in a counter of `width` bits: bits 31:0,
 * with bit 31 copied into every bit above it (SDM Vol. 3B 18.2.6). */
uint64_t pmu_legacy_write_result(uint64_t v, unsigned width);

/*
 * Programs GP counter idx: checks the selector against the reserved bits, then in the
 * manual's order — selector with EN clear, counter value, selector as given. Values that
 * a legacy write cannot produce need full-width writes (PERF_CAPABILITIES bit 13);
 * without them such a value is refused.
 */
int pmu_gp_program(const struct pmu_caps *p, unsigned idx, uint64_t evtsel, uint64_t value,
		   char *err, size_t errlen);
/* Writes GP counter idx, clearing EN first if set and restoring the selector after. */
int pmu_gp_write(const struct pmu_caps *p, unsigned idx, uint64_t value, char *err, size_t errlen);
/* Writes GP counter idx as it is, counting or not: a running counter goes on from value
 * (SDM Vol. 3B 18.2.1.1 sets no condition on writing a counter that counts). */
int pmu_gp_write_running(const struct pmu_caps *p, unsigned idx, uint64_t value, char *err,
			 size_t errlen);
int pmu_gp_read(const struct pmu_caps *p, unsigned idx, uint64_t *v);
int pmu_gp_rdpmc(const struct pmu_caps *p, unsigned idx, uint64_t *v);

/* Fixed counter idx: its 4-bit FIXED_CTR_CTRL field (FIXED_CTR_CTRL_OS/USR/ANY/PMI) and
 * value, written with the field cleared first. */
int pmu_fixed_program(const struct pmu_caps *p, unsigned idx, unsigned ctrl, uint64_t value,
		      char *err, size_t errlen);
/* Adaptive PEBS (PERF_CAPABILITIES.PEBS_BASELINE): FIXED_CTR_CTRL bit 32 + 4 idx, which makes
 * the counter's PEBS records adaptive ones. PMU_EARG without adaptive PEBS. */
int pmu_fixed_set_adaptive(const struct pmu_caps *p, unsigned idx, bool on);
int pmu_fixed_read(const struct pmu_caps *p, unsigned idx, uint64_t *v);
int pmu_fixed_rdpmc(const struct pmu_caps *p, unsigned idx, uint64_t *v);

/* Global control (version 2+): GP counter i = bit i, fixed i = bit 32+i. */
int pmu_global_ctrl_write(const struct pmu_caps *p, uint64_t mask, char *err, size_t errlen);
int pmu_global_ctrl_read(const struct pmu_caps *p, uint64_t *mask);
int pmu_global_status(const struct pmu_caps *p, uint64_t *status);
int pmu_global_ovf_clear(const struct pmu_caps *p, uint64_t mask);
int pmu_global_status_set(const struct pmu_caps *p, uint64_t mask);	/* version 4+ */
int pmu_global_inuse(const struct pmu_caps *p, uint64_t *inuse);	/* version 4+ */
/* GLOBAL_STATUS bits this PMU may report. */
uint64_t pmu_status_bits(const struct pmu_caps *p);
/* The subset pmuboot writes to OVF_CTRL: overflow bits, DS buffer, CondChgd, uncore (v3+),
 * LBR/counter freeze (v4+). Trace ToPA (55, only with Intel PT) and ASCI (60) are left
 * alone: where a part lacks them the bits are reserved and writing them faults. */
uint64_t pmu_ovf_clear_bits(const struct pmu_caps *p);

/*
 * IA32_DEBUGCTL bits that belong to the PMU and branch recording (SDM Vol. 3B Figure 17-3):
 * LBR, TR, BTS, BTINT, BTS_OFF_OS/USR, FREEZE_LBRS_ON_PMI, FREEZE_PERFMON_ON_PMI,
 * UNCORE_PMI_EN, FREEZE_WHILE_SMM. pmuboot's baseline clears them all but
 * FREEZE_WHILE_SMM, which it sets where PERF_CAPABILITIES[12] allows (SDM 18.18.1 / 20.8:
 * SMM handler work then counts nowhere). BTF and RTM_DEBUG are the debugger's and stay.
 */
uint64_t pmu_debugctl_pmu_bits(void);
uint64_t pmu_debugctl_baseline(const struct pmu_caps *p, uint64_t debugctl);

/*
 * Nehalem and Westmere (PMU_ERRATUM_NHM_RESET: AAK100, AAP53, BD53): before counters are
 * added, the four GP selectors run the three non-counting events 4300B5H, 4300D2H,
 * 4300B1H (and 4300B1H again, as Linux's intel_pmu_nhm_workaround: some do count) for a
 * moment with GLOBAL_CTRL bits 0-3 set; then the four selectors and counters, PEBS_ENABLE
 * and GLOBAL_CTRL are put back as they were (Linux programs its events again after it): a
 * counter that has counted and was reprogrammed is added again, and needs it again (the
 * emulated PMU's nhm-reset switch made one count wrongly). pmu_reset, pmu_run and every
 * pmu_global_ctrl_write that enables a GP counter call it; clear the overflow status after.
 * Does nothing on other models. 0, the fault vector, or PMU_EARG where a counter holds a
 * value a legacy write cannot put back (no full-width writes).
 */
int pmu_nhm_counter_reset(const struct pmu_caps *p);

/* Stops every counter and clears selectors, counters and overflow status; PEBS off
 * (IA32_PEBS_ENABLE 0) and architectural LBR off where they exist; puts DEBUGCTL's PMU bits
 * to the baseline. Touches nothing without an architectural PMU. */
int pmu_reset(const struct pmu_caps *p);

/* MSR_SMI_COUNT (SMIs since reset), where the model has it (p->has_smi_count); PMU_EARG
 * where it does not. */
int pmu_smi_count(const struct pmu_caps *p, uint64_t *count);

/* The extra MSR a core event of the catalog needs (pmu_event_def.msr: MSR_OFFCORE_RSP_0/1,
 * MSR_PEBS_LD_LAT_THRESHOLD), refused unwritten where this part has no such MSR (Nehalem one
 * OFFCORE_RSP, Core 2 and Bonnell none; load latency: pebs_has_ld_lat); any other MSR is
 * refused too (Nehalem's uncore match registers are uncore_nhm_match_write's). */
int pmu_extra_msr_write(const struct pmu_caps *p, uint32_t msr, uint64_t v, char *err,
			size_t errlen);

/* The PMU as found, to put back at exit. */
struct pmu_state {
	bool saved;
	uint64_t evtsel[PMU_MAX_GP], pmc[PMU_MAX_GP];
	uint64_t fixed[PMU_MAX_FIXED], fixed_ctrl;
	uint64_t global_ctrl, global_status;
	uint64_t debugctl;
	uint32_t lvtpc;			/* the local APIC's performance-counter LVT entry */
	struct ds_state ds;		/* IA32_DS_AREA and the PEBS MSRs */
	struct lbr_state lbr;		/* LBR_SELECT, or IA32_LBR_CTL/DEPTH */
};

int pmu_save(const struct pmu_caps *p, struct pmu_state *s);
/* Restores in a safe order: counting off, selectors with EN clear, counters, selectors,
 * fixed control, status (version 4+: through STATUS_SET), the DS area and PEBS MSRs (PEBS
 * enables last), LBR settings, DEBUGCTL, the LVT entry, global control last. */
int pmu_restore(const struct pmu_caps *p, const struct pmu_state *s);

/* The PMU as the firmware left it: saved (then reset, and its LVT entry masked) before the
 * first check when a PMU is enumerated, and put back when the run ends, whatever ended it. */
extern struct pmu_state pmu_boot_state;
void pmu_boot_save(void);
void pmu_boot_restore(void);

/*
 * Every CPU's own PMU (several CPUs, arch/x86/smp.h): its CPUID (hybrid parts enumerate
 * per core type), capabilities and the state the firmware left in it. Entry 0 is the
 * bootstrap processor's (the global pmu and pmu_boot_state); pmu_cpu_probe() and
 * pmu_cpu_restore() run on the CPU itself (through run_on()), pmu_select() makes a CPU's
 * capabilities the global pmu the checks read while they run on it.
 */
struct pmu_cpu {
	bool probed;
	struct cpu_info cpu;
	struct pmu_caps caps;
	struct pmu_state boot;
};
extern struct pmu_cpu pmu_cpus[MAX_CPUS];
void pmu_cpu_probe(void *pmu_cpu);		/* on that CPU: discover, save, reset, mask */
void pmu_cpu_restore(void *pmu_cpu);		/* on that CPU: the firmware's state back */
void pmu_select(unsigned cpu);
/* Whether two CPUs' PMUs enumerate the same (so one description serves both). */
bool pmu_caps_same(const struct pmu_caps *a, const struct pmu_caps *b);

#endif /* PMU_COUNTER_H */
