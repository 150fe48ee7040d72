/* SPDX-License-Identifier: MIT */
/* Host test double for arch/x86/hw.h: a strict model of an Intel architectural PMU (SDM Vol. 3B ch. 18). */
#ifndef TESTS_HOST_PMU_MODEL_H
#define TESTS_HOST_PMU_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include "arch/x86/hw.h"

/*
 * tests/host/pmu_model.c implements every function of arch/x86/hw.h for host unit tests.
 * It is written from the SDM (Vol. 3B ch. 18, Vol. 4 MSR tables) and seed
 * 002_28e325465e681290.txt 18.2.1.1, never from driver code:
 *
 *  - An access the hardware would reject returns 13 (#GP) and changes nothing; it is counted
 *    by pmu_model_faults() (a probe that expects a fault is not an error).
 *  - An access the hardware accepts but the SDM forbids (writing IA32_PMCx / IA32_A_PMCx
 *    while its IA32_PERFEVTSELx.EN is set) takes effect and is counted by
 *    pmu_model_violations(); a correct library leaves that count at 0.
 *  - Events happen only when a test says so: pmu_model_count() / pmu_model_retire().
 *
 * Call pmu_model_reset() before use; until then the model is pmu_model_none().
 */

#define PMU_MODEL_FAULT_GP	13	/* the vector a rejected access returns */
#define PMU_MODEL_MAX_GP	8	/* IA32_PMC0..7 / IA32_PERFEVTSEL0..7 (0xC1.., 0x186..) */
#define PMU_MODEL_MAX_FIXED	8	/* IA32_FIXED_CTR0..7: 8 x 4-bit FIXED_CTR_CTRL fields */
#define PMU_MODEL_LOG_LEN	512	/* successful WRMSRs kept by the write log */

struct pmu_model_config {
	unsigned version;		/* CPUID.0AH:EAX[7:0]; 0 = no architectural PMU */
	unsigned num_gp, gp_width;	/* CPUID.0AH:EAX[15:8], [23:16] */
	unsigned num_fixed, fixed_width; /* CPUID.0AH:EDX[4:0], [12:5] */
	uint32_t fixed_mask_ecx;	/* v5 CPUID.0AH:ECX: fixed counter i exists if bit i set */
	uint32_t ebx_unavailable;	/* CPUID.0AH:EBX: architectural events NOT available */
	unsigned ebx_len;		/* CPUID.0AH:EAX[31:24] */
	bool pdcm;			/* CPUID.1:ECX[15]: IA32_PERF_CAPABILITIES present */
	uint64_t perf_capabilities;	/* value of IA32_PERF_CAPABILITIES (read-only) */
	uint32_t family, model;		/* display family/model encoded into CPUID.1:EAX */
	uint32_t stepping;		/* CPUID.1:EAX[3:0] */
	/* IA32_BIOS_SIGN_ID (8BH), SDM Vol. 3A 9.11.7.1: a WRMSR stores its value; CPUID(1)
	 * loads ucode_rev into bits 63:32; a read returns what is stored. */
	uint32_t ucode_rev;
	bool hybrid;			/* CPUID.7.0:EDX[15] */
	uint8_t core_type;		/* CPUID 1AH EAX[31:24] (when hybrid) */
	bool amd;			/* CPUID.0 vendor AuthenticAMD instead of GenuineIntel */
	bool smi_count;			/* MSR_SMI_COUNT (34H) exists (SDM Vol. 4: Nehalem and
					 * later, Silvermont and later) */
	unsigned pmi_skid;		/* instructions between a PMI request and the LVT
					 * sending it (0: at once); the mask is read then */
	/* Debug store (SDM Vol. 3B 17.4.9): CPUID.1:EDX.DS and ECX.DTES64, IA32_MISC_ENABLE,
	 * IA32_DS_AREA, IA32_PEBS_ENABLE, MSR_PEBS_LD_LAT_THRESHOLD, MSR_PEBS_FRONTEND (with
	 * `frontend`), MSR_PEBS_DATA_CFG (PERF_CAPABILITIES[14]). */
	bool ds;
	bool bts_unavailable, pebs_unavailable;	/* IA32_MISC_ENABLE bits 11, 12 */
	bool frontend;
	/* The model-specific LBR stack (SDM Vol. 3B 17.4.8; Vol. 4 per family): depth 0 for
	 * none; its FROM/TO/INFO MSRs (info 0: none), MSR_LASTBRANCH_TOS, MSR_LBR_SELECT. The
	 * record format is PERF_CAPABILITIES[5:0]. */
	unsigned lbr_depth;
	uint32_t lbr_from, lbr_to, lbr_info;
	bool lbr_select;
	/* QEMU 7.2's TCG: every MSR the model does not have (uncore included, see
	 * tests/host/uncore_model.h) reads 0 and takes writes without #GP. */
	bool tcg_msrs;
};

/*
 * Ready configurations. CPUID reports a configuration verbatim; the MSR model follows the
 * SDM for its version (no fixed counters below version 2, no counters at all at version
 * 0) and clamps counts to PMU_MODEL_MAX_GP / PMU_MODEL_MAX_FIXED.
 */
struct pmu_model_config pmu_model_skylake(void);	/* v4, 4 GP x 48, 3 fixed x 48, FW writes,
							 * FREEZE_WHILE_SMM, SMI count, 06_5EH */
struct pmu_model_config pmu_model_nehalem(void);	/* v3, 4 GP x 48, 3 fixed x 48, no FW writes,
							 * SMI count, 06_1AH */
struct pmu_model_config pmu_model_v1(void);		/* v1, 2 GP x 40, no fixed/global MSRs, no PDCM */
struct pmu_model_config pmu_model_none(void);		/* version 0 */

/* Power-on state for c (copied): every register 0 except IA32_PERF_GLOBAL_CTRL (v2+: GP
 * enables [num_gp-1:0] set), IA32_PERF_CAPABILITIES (the configured value) and the LVTPC
 * (APIC_LVT_MASKED, as every LVT entry after reset). Clears every statistic and the log;
 * RFLAGS.IF clear, nothing pending, no interrupt handler, no noise, owned (below). */
void pmu_model_reset(const struct pmu_model_config *c);
const struct pmu_model_config *pmu_model_get_config(void);

/* Current raw value of msr (counters within their width; OVF_CTRL/STATUS_SET read 0);
 * 0 for an MSR that does not exist. Not an access: no fault, no statistics. */
uint64_t pmu_model_msr(uint32_t msr);
/* Backdoor for test setup: stores v (masked to the register's width) into an existing MSR,
 * read-only ones included (GLOBAL_STATUS), bypassing every rule; no log, no statistics.
 * Returns false when msr does not exist in this configuration. */
bool pmu_model_poke(uint32_t msr, uint64_t v);
uint32_t pmu_model_lvtpc(void);

/*
 * Whether the caller owns GS base and the IDT, which the firmware's fault-safe accessors
 * need (this_cpu() reads %gs:0; a fault goes through pmuboot's IDT). An MSR or RDPMC access
 * while not owned is a violation (it would write through the firmware's GS base, 0 on EDK2).
 * Reset: owned.
 */
void pmu_model_set_owned(bool owned);

/* SDM rules broken by accesses that were accepted (see above). */
unsigned pmu_model_violations(void);
const char *pmu_model_last_violation(void);	/* "" when none */
/* Accesses rejected with #GP (WRMSR, RDMSR, RDPMC). */
unsigned pmu_model_faults(void);
const char *pmu_model_last_fault(void);		/* "" when none */

/* Successful WRMSRs since reset or pmu_model_clear_log(), and the last PMU_MODEL_LOG_LEN of
 * them in order: index 0 is the oldest kept, pmu_model_log_len() - 1 the newest. */
struct pmu_model_write {
	uint32_t msr;
	uint64_t value;		/* the WRMSR operand as written */
};
unsigned pmu_model_writes(void);
unsigned pmu_model_log_len(void);
struct pmu_model_write pmu_model_log(unsigned i);	/* {0, 0} beyond the log */
/* Index of the first logged write to msr at or after index from, or -1. */
int pmu_model_log_find(uint32_t msr, unsigned from);
void pmu_model_clear_log(void);
unsigned pmu_model_lvtpc_writes(void);
/* pmu_model_writes() as it was at the last LVTPC write: orders that write among the
 * MSR writes of the log. */
unsigned pmu_model_lvtpc_written_after(void);

/*
 * Events. pmu_model_count() advances, by count, every counter that counts (event, umask)
 * at privilege level cpl (0 = OS, 1..3 = USR) right now:
 *  - GP counter x: IA32_PERFEVTSELx.EN, its event select and umask equal (event, umask), USR
 *    (cpl > 0) or OS (cpl == 0) set, CMASK == 0 (the model does not simulate the per-cycle
 *    CMASK comparison, so a counter with CMASK != 0 never counts; EDGE and INV are ignored),
 *    and on v2+ IA32_PERF_GLOBAL_CTRL bit x;
 *  - fixed counter i: its architectural event (0: C0H/00H instructions retired, 1: 3CH/00H
 *    core cycles, 2: 3CH/01H reference cycles, 3: A4H/01H topdown slots; i > 3 never counts),
 *    FIXED_CTR_CTRL field i enabled for cpl, and GLOBAL_CTRL bit 32+i;
 *  - on v4+, nothing counts while IA32_PERF_GLOBAL_STATUS.CTR_FRZ (bit 59) is set.
 * Overflow and PMIs: see pmu_model.c.
 */
void pmu_model_count(uint8_t event, uint8_t umask, uint64_t count, int cpl);
void pmu_model_retire(uint64_t insns, int cpl);	/* pmu_model_count(0xC0, 0, insns, cpl) */

/* PMIs delivered through the LVTPC (each masks it), PMI requests lost because the LVTPC was
 * masked, and hw_apic_eoi() calls; all since reset. */
unsigned pmu_model_pmis(void);
unsigned pmu_model_pmis_masked(void);
unsigned pmu_model_eois(void);

/*
 * Interrupts. The model keeps RFLAGS.IF (reset: clear) and the local APIC IRR bit of the
 * LVTPC's vector. A PMI the LVTPC delivers (it is unmasked; delivery masks it):
 *  - NMI delivery mode: the handler runs at once, whatever IF says; an NMI arriving while
 *    the NMI handler runs is held and runs when it returns (one at most, as the CPU's NMI
 *    latch);
 *  - fixed delivery: the vector is set in the IRR; the handler runs when IF is set, at once
 *    or later (pmu_model_set_if(true), hw_irq_window()), with IF clear while it runs.
 * The handler is the test's (NULL: a delivered interrupt is only counted and left in the
 * IRR until a handler takes it). pmu_model_nmi() raises an NMI that is not a PMI.
 */
typedef void (*pmu_model_irq_fn)(unsigned vector, bool nmi);
void pmu_model_set_irq_handler(pmu_model_irq_fn fn);
void pmu_model_set_if(bool on);
bool pmu_model_irr_pending(void);
void pmu_model_nmi(void);
unsigned pmu_model_handler_calls(void);
/* LVTPC reads with its delivery status (bit 12) set, as while an interrupt is on its way. */
void pmu_model_set_delivery_pending(bool on);

/*
 * System-management interrupts (SDM Vol. 3B 18.18.1 / 20.x "Filtering of SMM handler
 * overhead"): MSR_SMI_COUNT advances by one, and the SMM handler's `insns` instructions
 * count as CPL-0 instructions retired unless IA32_DEBUGCTL.FREEZE_WHILE_SMM is set, in
 * which case the processor clears the GLOBAL_CTRL enables for the handler's duration and
 * sets them to 1 at RSM (as the SDM words it: every counter's enable, not the saved ones).
 */
void pmu_model_smi(uint64_t insns);
uint64_t pmu_model_smis(void);

/*
 * A retired taken branch of `kind` (seed 000 Table 7's order) ending at privilege level cpl:
 * recorded in the LBR stack when IA32_DEBUGCTL.LBR is set, version 4's LBR_FRZ (GLOBAL_STATUS
 * bit 58) is clear and MSR_LBR_SELECT does not drop its kind or level. The TOS advances
 * (modulo the depth) and the entry takes from/to with the mispredicted flag where the format
 * has one (3, 4: FROM[63]; 5: LBR_INFO[63]).
 */
enum pmu_model_branch_kind {
	PMU_MODEL_BR_JCC = 2, PMU_MODEL_BR_REL_CALL, PMU_MODEL_BR_IND_CALL, PMU_MODEL_BR_RET,
	PMU_MODEL_BR_IND_JMP, PMU_MODEL_BR_REL_JMP, PMU_MODEL_BR_FAR,
};
void pmu_model_branch(uint64_t from, uint64_t to, enum pmu_model_branch_kind kind, int cpl,
		      bool mispred);
/* Raw LBR entry i (not an access) and the TOS. */
uint64_t pmu_model_lbr_from(unsigned i);
uint64_t pmu_model_lbr_to(unsigned i);
unsigned pmu_model_lbr_tos(void);

/* Noise, as interrupts and SMIs add on real parts: every pmu_model_count() call adds a
 * pseudo-random 0..max (seeded, repeatable) to its count. max 0: none (reset). */
void pmu_model_set_noise(uint64_t max, uint32_t seed);

/* An uncore PMI request (tests/host/uncore_model.c): Ovf_Uncore (GLOBAL_STATUS bit 61, v3+)
 * and a PMI through the LVTPC. */
void pmu_model_uncore_pmi(void);

#endif /* TESTS_HOST_PMU_MODEL_H */
