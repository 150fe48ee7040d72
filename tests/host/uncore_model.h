/* SPDX-License-Identifier: MIT */
/* Host test double for the uncore: a strict model of seed 001's (Skylake client) and Nehalem's uncore PMU. */
#ifndef TESTS_HOST_UNCORE_MODEL_H
#define TESTS_HOST_UNCORE_MODEL_H

#include <stdbool.h>
#include <stdint.h>

/*
 * tests/host/uncore_model.c extends the strict PMU model (tests/host/pmu_model.c, which
 * hands it every MSR the core PMU does not have) with the uncore, written from seed
 * 001_dad58ad4a296bcf3.txt (Tables 2-1..2-8, 3-3) and SDM Vol. 3B 18.8.2 (Nehalem), never
 * from driver code:
 *
 *  Skylake client: MSR_UNC_CBO_CONFIG read-only (NO_CBO_BANKS = CBos + 1); CBo MSRs of boxes
 *  beyond that, and a box's third or fourth select, #GP; reserved bits #GP in every
 *  register; counters 44 bits (CBo, ARB), the fixed one 48, a value above the width #GP;
 *  GLOBAL_STATUS bits 0, 1, 3 RW1C (writing 1 clears, 0 is ignored); a counter counts only
 *  with its local enable and the global EN; an overflow sets its box's status bit, and with
 *  OVF_EN requests a PMI: FRZ_ON_PMI clears EN, the request goes to the cores selected in
 *  PMI_SEL_CORE (the model is core 0) when IA32_DEBUGCTL.UNCORE_PMI_EN (bit 13) is set.
 *  The IMC: PCI 0:0.0 reads (vendor/device, MCHBAR at 48H/4CH) and 32-bit MMIO reads of the
 *  five DRAM counters at MCHBAR (bits 38:15) + 5040H..5054H, free-running, wrapping at 2^32;
 *  a read anywhere else in MMIO is an error (#PF) and counted.
 *
 *  Nehalem: GLOBAL_CTRL (EN_PCx, EN_FC0, EN_PMI_COREx, PMI_FRZ), STATUS read-only, cleared
 *  by 1s to OVF_CTRL (which reads 0); eight 48-bit counters and the 48-bit fixed counter,
 *  each counting with its local EN and its global enable; OCC_CTR_RST reads as 0; overflow
 *  sets OVF_PCx/OVF_FC0 and CHG, with PMI also OVF_PMI, PMI_FRZ clearing every enable.
 *
 * Successful writes appear in the PMU model's write log (pmu_model_log) like any WRMSR.
 */

enum uncore_model_kind { UNCORE_MODEL_NONE, UNCORE_MODEL_SKL, UNCORE_MODEL_NHM };

struct uncore_model_config {
	enum uncore_model_kind kind;
	uint64_t cbo_config;		/* Skylake MSR_UNC_CBO_CONFIG (CBos + 1 for a real part) */
	bool imc;			/* host bridge present with MCHBAR */
	uint16_t host_vendor, host_device;
	uint64_t mchbar_reg;		/* 0:0.0 48H/4CH */
};

/* A Skylake client with `cbos` CBos and MCHBAR enabled at 0xFED10000; Nehalem. */
struct uncore_model_config uncore_model_skl(unsigned cbos);
struct uncore_model_config uncore_model_nhm(void);

/* Installs c (all registers 0); pmu_model_reset() removes the uncore (kind NONE). */
void uncore_model_setup(const struct uncore_model_config *c);
void uncore_model_clear(void);

/* Called by the PMU model for an MSR it does not have: whether the uncore has it, and the
 * access (0, or 13 with why filled in). */
bool uncore_model_has_msr(uint32_t msr);
int uncore_model_rdmsr(uint32_t msr, uint64_t *val, char *why, unsigned len);
int uncore_model_wrmsr(uint32_t msr, uint64_t val, char *why, unsigned len);

/* Raw register value (not an access), and a backdoor store bypassing every rule. */
uint64_t uncore_model_msr(uint32_t msr);
void uncore_model_poke(uint32_t msr, uint64_t v);

/* Events: every enabled counter of that box with that event and umask advances. */
void uncore_model_cbo_event(unsigned cbo, uint8_t event, uint8_t umask, uint64_t count);
void uncore_model_arb_event(uint8_t event, uint8_t umask, uint64_t count);
void uncore_model_nhm_event(uint8_t event, uint8_t umask, uint64_t count);
void uncore_model_uclk(uint64_t cycles);		/* the fixed counter */
void uncore_model_imc_add(unsigned idx, uint32_t count);	/* 0..4 as Table 3-3's order */

/* Statistics: PMI requests the uncore forwarded to core 0, PCI and MMIO reads, MMIO reads
 * outside the five counters. */
unsigned uncore_model_pmis(void);
unsigned uncore_model_pci_reads(void);
unsigned uncore_model_mmio_reads(void);
unsigned uncore_model_bad_mmio(void);

#endif /* TESTS_HOST_UNCORE_MODEL_H */
