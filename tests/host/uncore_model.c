/* SPDX-License-Identifier: MIT */
/* Host test double: the uncore of seed 001 (Skylake client) and of Nehalem (SDM 18.8.2), strict. */
#include <stdio.h>
#include <string.h>

#include "tests/host/uncore_model.h"
#include "tests/host/pmu_model.h"
#include "arch/x86/io.h"
#include "arch/x86/hw.h"

/*
 * Register numbers and fields, written here from the seed and the SDM rather than taken
 * from arch/x86/msr.h, so a wrong number there cannot hide in both.
 */
/* Seed 001 Table 2-1 */
#define S_GLOBAL_CTRL	0xe01
#define S_GLOBAL_STATUS	0xe02
#define S_FIXED_CTRL	0x394
#define S_FIXED_CTR	0x395
#define S_CBO_CONFIG	0x396
#define S_ARB_CTR0	0x3b0
#define S_ARB_SEL0	0x3b2
#define S_CBO_SEL0	0x700
#define S_CBO_CTR0	0x706
#define S_CBO_STRIDE	0x10
#define S_CBO7_SEL0	0xf70
/* Table 2-2 */
#define S_CTRL_PMI_SEL	GENMASK_ULL(3, 0)
#define S_CTRL_EN	BIT_ULL(29)
#define S_CTRL_WAKE	BIT_ULL(30)
#define S_CTRL_FRZ	BIT_ULL(31)
/* Table 2-3 (the CBo bit is 3: "Reserved 63:4", and SDM Vol. 4) */
#define S_ST_FIXED	BIT_ULL(0)
#define S_ST_ARB	BIT_ULL(1)
#define S_ST_CBO	BIT_ULL(3)
/* Table 2-4 */
#define S_FIX_OVF_EN	BIT_ULL(20)
#define S_FIX_CNT_EN	BIT_ULL(22)
/* Table 2-7 */
#define S_SEL_VALID	(GENMASK_ULL(15, 0) | BIT_ULL(18) | BIT_ULL(20) | BIT_ULL(22) | \
			 BIT_ULL(23) | GENMASK_ULL(28, 24))
#define S_SEL_OVF_EN	BIT_ULL(20)
#define S_SEL_EN	BIT_ULL(22)
#define S_SEL_THR	GENMASK_ULL(28, 24)
/* SDM 18.8.2 (Nehalem) */
#define N_GLOBAL_CTRL	0x391
#define N_GLOBAL_STATUS	0x392
#define N_OVF_CTRL	0x393
#define N_FIXED_CTR	0x394
#define N_FIXED_CTRL	0x395
#define N_PMC0		0x3b0
#define N_SEL0		0x3c0
#define N_CTRL_VALID	(GENMASK_ULL(7, 0) | BIT_ULL(32) | GENMASK_ULL(51, 48) | BIT_ULL(63))
#define N_CTRL_FC0	BIT_ULL(32)
#define N_CTRL_PMI0	BIT_ULL(48)
#define N_CTRL_FRZ	BIT_ULL(63)
#define N_ST_FC0	BIT_ULL(32)
#define N_ST_PMI	BIT_ULL(61)
#define N_ST_CHG	BIT_ULL(63)
#define N_ST_VALID	(GENMASK_ULL(7, 0) | N_ST_FC0 | N_ST_PMI | N_ST_CHG)
#define N_FIX_EN	BIT_ULL(0)
#define N_FIX_PMI	BIT_ULL(2)
#define N_SEL_VALID	(GENMASK_ULL(15, 0) | BIT_ULL(17) | BIT_ULL(18) | BIT_ULL(20) | \
			 BIT_ULL(22) | BIT_ULL(23) | GENMASK_ULL(31, 24))
#define N_SEL_OCC_RST	BIT_ULL(17)
#define N_SEL_PMI	BIT_ULL(20)
#define N_SEL_EN	BIT_ULL(22)
/* IA32_DEBUGCTL bit 13: uncore PMIs reach this core (SDM 18.8.2, 18.x "uncore PMI") */
#define DEBUGCTL_MSR	0x1d9
#define DEBUGCTL_UNC_PMI BIT_ULL(13)
/* Seed 001 3.3 / datasheet MCHBAR */
#define MCHBAR_EN	BIT_ULL(0)
#define MCHBAR_MASK	GENMASK_ULL(38, 15)
#define IMC_FIRST	0x5040
#define IMC_LAST	0x5054

#define W44	GENMASK_ULL(43, 0)
#define W48	GENMASK_ULL(47, 0)
#define MAX_CBO	8	/* the 8th (Coffee Lake) at 0F70H: Linux uncore_snb.c CFL_UNC_CBO_7_* */

static struct {
	struct uncore_model_config cfg;
	unsigned ncbo;
	/* Skylake */
	uint64_t ctrl, status, fixed_ctrl, fixed;
	uint64_t cbo_sel[MAX_CBO][2], cbo_ctr[MAX_CBO][2], arb_sel[2], arb_ctr[2];
	/* Nehalem */
	uint64_t n_sel[8], n_ctr[8];
	/* IMC */
	uint32_t imc[5];
	unsigned pmis, pci_reads, mmio_reads, bad_mmio;
} u;

/* Provided by tests/host/pmu_model.c: an uncore PMI request reaching core 0. */
void pmu_model_uncore_pmi(void);

struct uncore_model_config uncore_model_skl(unsigned cbos)
{
	return (struct uncore_model_config){
		.kind = UNCORE_MODEL_SKL, .cbo_config = cbos + 1, .imc = true,
		.host_vendor = 0x8086, .host_device = 0x191f,	/* Skylake-S host bridge */
		.mchbar_reg = 0xfed10000ULL | MCHBAR_EN,
	};
}

struct uncore_model_config uncore_model_nhm(void)
{
	return (struct uncore_model_config){ .kind = UNCORE_MODEL_NHM };
}

void uncore_model_clear(void)
{
	memset(&u, 0, sizeof(u));
}

void uncore_model_setup(const struct uncore_model_config *c)
{
	memset(&u, 0, sizeof(u));
	u.cfg = *c;
	if (c->kind == UNCORE_MODEL_SKL) {
		uint64_t banks = c->cbo_config & 0xf;

		u.ncbo = banks >= 1 ? (unsigned)(banks - 1) : 0;
		if (u.ncbo > MAX_CBO)
			u.ncbo = MAX_CBO;
	}
}

/* ---- Decode ---- */

enum reg { R_NONE, R_CTRL, R_STATUS, R_FIXED_CTRL, R_FIXED, R_CBO_CONFIG, R_CBO_SEL, R_CBO_CTR,
	   R_ARB_SEL, R_ARB_CTR, R_N_OVF, R_N_SEL, R_N_CTR };

static enum reg decode(uint32_t msr, unsigned *box, unsigned *idx)
{
	*box = *idx = 0;
	if (u.cfg.kind == UNCORE_MODEL_SKL) {
		switch (msr) {
		case S_GLOBAL_CTRL:	return R_CTRL;
		case S_GLOBAL_STATUS:	return R_STATUS;
		case S_FIXED_CTRL:	return R_FIXED_CTRL;
		case S_FIXED_CTR:	return R_FIXED;
		case S_CBO_CONFIG:	return R_CBO_CONFIG;
		default:		break;
		}
		if (msr >= S_ARB_CTR0 && msr < S_ARB_CTR0 + 2) {
			*idx = msr - S_ARB_CTR0;
			return R_ARB_CTR;
		}
		if (msr >= S_ARB_SEL0 && msr < S_ARB_SEL0 + 2) {
			*idx = msr - S_ARB_SEL0;
			return R_ARB_SEL;
		}
		if ((msr >= S_CBO_SEL0 && msr < S_CBO_SEL0 + (MAX_CBO - 1) * S_CBO_STRIDE) ||
		    (msr >= S_CBO7_SEL0 && msr < S_CBO7_SEL0 + S_CBO_STRIDE)) {
			uint32_t rel = msr >= S_CBO7_SEL0 ? msr - S_CBO7_SEL0 + 7 * S_CBO_STRIDE :
					msr - S_CBO_SEL0;
			unsigned b = rel / S_CBO_STRIDE, off = rel % S_CBO_STRIDE;

			if (b >= u.ncbo)
				return R_NONE;	/* an absent box: #GP */
			*box = b;
			if (off < 2) {
				*idx = off;
				return R_CBO_SEL;
			}
			if (off >= 6 && off < 8) {
				*idx = off - 6;
				return R_CBO_CTR;
			}
		}
		return R_NONE;
	}
	if (u.cfg.kind == UNCORE_MODEL_NHM) {
		switch (msr) {
		case N_GLOBAL_CTRL:	return R_CTRL;
		case N_GLOBAL_STATUS:	return R_STATUS;
		case N_OVF_CTRL:	return R_N_OVF;
		case N_FIXED_CTR:	return R_FIXED;
		case N_FIXED_CTRL:	return R_FIXED_CTRL;
		default:		break;
		}
		if (msr >= N_PMC0 && msr < N_PMC0 + 8) {
			*idx = msr - N_PMC0;
			return R_N_CTR;
		}
		if (msr >= N_SEL0 && msr < N_SEL0 + 8) {
			*idx = msr - N_SEL0;
			return R_N_SEL;
		}
	}
	return R_NONE;
}

bool uncore_model_has_msr(uint32_t msr)
{
	unsigned b, i;

	return decode(msr, &b, &i) != R_NONE;
}

static uint64_t *reg_ptr(enum reg r, unsigned b, unsigned i)
{
	switch (r) {
	case R_CTRL:		return &u.ctrl;
	case R_STATUS:		return &u.status;
	case R_FIXED_CTRL:	return &u.fixed_ctrl;
	case R_FIXED:		return &u.fixed;
	case R_CBO_SEL:		return &u.cbo_sel[b][i];
	case R_CBO_CTR:		return &u.cbo_ctr[b][i];
	case R_ARB_SEL:		return &u.arb_sel[i];
	case R_ARB_CTR:		return &u.arb_ctr[i];
	case R_N_SEL:		return &u.n_sel[i];
	case R_N_CTR:		return &u.n_ctr[i];
	default:		return NULL;
	}
}

uint64_t uncore_model_msr(uint32_t msr)
{
	unsigned b, i;
	enum reg r = decode(msr, &b, &i);
	uint64_t *p = reg_ptr(r, b, i);

	if (r == R_CBO_CONFIG)
		return u.cfg.cbo_config;
	return p ? *p : 0;
}

void uncore_model_poke(uint32_t msr, uint64_t v)
{
	unsigned b, i;
	enum reg r = decode(msr, &b, &i);
	uint64_t *p = reg_ptr(r, b, i);

	if (p)
		*p = v;
}

int uncore_model_rdmsr(uint32_t msr, uint64_t *val, char *why, unsigned len)
{
	unsigned b, i;
	enum reg r = decode(msr, &b, &i);

	*val = 0;
	if (r == R_NONE) {
		snprintf(why, len, "rdmsr 0x%x: no such uncore MSR", msr);
		return 13;
	}
	if (r == R_N_OVF)	/* a command register: reads 0 */
		return 0;
	*val = uncore_model_msr(msr);
	return 0;
}

static int reject(char *why, unsigned len, uint32_t msr, uint64_t val, const char *what)
{
	snprintf(why, len, "wrmsr 0x%x = 0x%llx: %s", msr, (unsigned long long)val, what);
	return 13;
}

int uncore_model_wrmsr(uint32_t msr, uint64_t val, char *why, unsigned len)
{
	unsigned b, i;
	enum reg r = decode(msr, &b, &i);
	bool skl = u.cfg.kind == UNCORE_MODEL_SKL;

	switch (r) {
	case R_NONE:
		return reject(why, len, msr, val, "no such uncore MSR");
	case R_CBO_CONFIG:
		return reject(why, len, msr, val, "MSR_UNC_CBO_CONFIG is read-only");
	case R_CTRL:
		if (val & ~(skl ? (S_CTRL_PMI_SEL | S_CTRL_EN | S_CTRL_WAKE | S_CTRL_FRZ) : N_CTRL_VALID))
			return reject(why, len, msr, val, "reserved bits of the global control");
		u.ctrl = val;
		return 0;
	case R_STATUS:
		if (!skl)
			return reject(why, len, msr, val, "MSR_UNCORE_PERF_GLOBAL_STATUS is read-only");
		if (val & ~(S_ST_FIXED | S_ST_ARB | S_ST_CBO))
			return reject(why, len, msr, val, "reserved bits of the global status");
		u.status &= ~val;	/* RW1C: 1 clears, 0 is ignored */
		return 0;
	case R_N_OVF:
		if (val & ~N_ST_VALID)
			return reject(why, len, msr, val, "reserved bits of the overflow control");
		u.status &= ~val;
		return 0;
	case R_FIXED_CTRL:
		if (val & ~(skl ? (S_FIX_OVF_EN | S_FIX_CNT_EN) : (N_FIX_EN | N_FIX_PMI)))
			return reject(why, len, msr, val, "reserved bits of the fixed counter control");
		u.fixed_ctrl = val;
		return 0;
	case R_FIXED:
		if (val & ~W48)
			return reject(why, len, msr, val, "above the fixed counter's 48 bits");
		u.fixed = val;
		return 0;
	case R_CBO_SEL:
	case R_ARB_SEL:
		if (val & ~S_SEL_VALID)
			return reject(why, len, msr, val, "reserved bits of a CBo/ARB select");
		*reg_ptr(r, b, i) = val;
		return 0;
	case R_CBO_CTR:
	case R_ARB_CTR:
		if (val & ~W44)
			return reject(why, len, msr, val, "above the counter's 44 bits");
		*reg_ptr(r, b, i) = val;
		return 0;
	case R_N_SEL:
		if (val & ~N_SEL_VALID)
			return reject(why, len, msr, val, "reserved bits of an uncore select");
		u.n_sel[i] = val & ~N_SEL_OCC_RST;	/* reads as 0 */
		return 0;
	case R_N_CTR:
		if (val & ~W48)
			return reject(why, len, msr, val, "above the counter's 48 bits");
		u.n_ctr[i] = val;
		return 0;
	}
	return 13;
}

/* ---- Counting, overflow, PMI ---- */

static bool core_takes_uncore_pmi(void)
{
	return pmu_model_msr(DEBUGCTL_MSR) & DEBUGCTL_UNC_PMI;
}

static void skl_overflow(uint64_t status_bit, bool ovf_en)
{
	u.status |= status_bit;
	if (!ovf_en)
		return;
	/* Table 2-2: with FRZ_ON_PMI the PMI request clears EN. */
	if (u.ctrl & S_CTRL_FRZ)
		u.ctrl &= ~S_CTRL_EN;
	if ((u.ctrl & S_CTRL_PMI_SEL & BIT_ULL(0)) && core_takes_uncore_pmi()) {
		u.pmis++;
		pmu_model_uncore_pmi();
	}
}

static bool advance(uint64_t *ctr, uint64_t mask, uint64_t count)
{
	uint64_t room = mask - *ctr;

	*ctr = (*ctr + count) & mask;
	return count > room;
}

static void skl_box_event(uint64_t *sel, uint64_t *ctr, uint64_t st, uint8_t event, uint8_t umask,
			  uint64_t count)
{
	for (unsigned i = 0; i < 2; i++) {
		if (!(sel[i] & S_SEL_EN) || !(u.ctrl & S_CTRL_EN))
			continue;	/* local EN gated by the global EN */
		if ((sel[i] & 0xff) != event || ((sel[i] >> 8) & 0xff) != umask)
			continue;
		if (sel[i] & S_SEL_THR)
			continue;	/* the per-cycle threshold is not simulated: never counts */
		if (advance(&ctr[i], W44, count))
			skl_overflow(st, sel[i] & S_SEL_OVF_EN);
	}
}

void uncore_model_cbo_event(unsigned cbo, uint8_t event, uint8_t umask, uint64_t count)
{
	if (u.cfg.kind == UNCORE_MODEL_SKL && cbo < u.ncbo)
		skl_box_event(u.cbo_sel[cbo], u.cbo_ctr[cbo], S_ST_CBO, event, umask, count);
}

void uncore_model_arb_event(uint8_t event, uint8_t umask, uint64_t count)
{
	if (u.cfg.kind != UNCORE_MODEL_SKL)
		return;
	/* Seed 001 Table 3-2: UNC_ARB_TRK_OCCUPANCY (80H) counts on counter 0 only. */
	if (event == 0x80) {
		uint64_t sel1 = u.arb_sel[1];

		u.arb_sel[1] &= ~S_SEL_EN;
		skl_box_event(u.arb_sel, u.arb_ctr, S_ST_ARB, event, umask, count);
		u.arb_sel[1] = sel1;
		return;
	}
	skl_box_event(u.arb_sel, u.arb_ctr, S_ST_ARB, event, umask, count);
}

static void nhm_overflow(uint64_t status_bit, bool pmi)
{
	u.status |= status_bit | N_ST_CHG;
	if (!pmi)
		return;
	u.status |= N_ST_PMI;
	if (u.ctrl & N_CTRL_FRZ)	/* PMI_FRZ: every uncore counter disabled */
		u.ctrl &= ~(GENMASK_ULL(7, 0) | N_CTRL_FC0);
	if ((u.ctrl & N_CTRL_PMI0) && core_takes_uncore_pmi()) {
		u.pmis++;
		pmu_model_uncore_pmi();
	}
}

void uncore_model_nhm_event(uint8_t event, uint8_t umask, uint64_t count)
{
	if (u.cfg.kind != UNCORE_MODEL_NHM)
		return;
	for (unsigned i = 0; i < 8; i++) {
		uint64_t s = u.n_sel[i];

		if (!(s & N_SEL_EN) || !(u.ctrl & BIT_ULL(i)))
			continue;
		if ((s & 0xff) != event || ((s >> 8) & 0xff) != umask || (s >> 24) & 0xff)
			continue;
		if (advance(&u.n_ctr[i], W48, count))
			nhm_overflow(BIT_ULL(i), s & N_SEL_PMI);
	}
}

void uncore_model_uclk(uint64_t cycles)
{
	if (u.cfg.kind == UNCORE_MODEL_SKL) {
		if ((u.fixed_ctrl & S_FIX_CNT_EN) && (u.ctrl & S_CTRL_EN) &&
		    advance(&u.fixed, W48, cycles))
			skl_overflow(S_ST_FIXED, u.fixed_ctrl & S_FIX_OVF_EN);
	} else if (u.cfg.kind == UNCORE_MODEL_NHM) {
		if ((u.fixed_ctrl & N_FIX_EN) && (u.ctrl & N_CTRL_FC0) &&
		    advance(&u.fixed, W48, cycles))
			nhm_overflow(N_ST_FC0, u.fixed_ctrl & N_FIX_PMI);
	}
}

void uncore_model_imc_add(unsigned idx, uint32_t count)
{
	if (idx < 5)
		u.imc[idx] += count;	/* 32 bits, wrapping */
}

unsigned uncore_model_pmis(void) { return u.pmis; }
unsigned uncore_model_pci_reads(void) { return u.pci_reads; }
unsigned uncore_model_mmio_reads(void) { return u.mmio_reads; }
unsigned uncore_model_bad_mmio(void) { return u.bad_mmio; }

/* ---- PCI configuration and MMIO (arch/x86/hw.h) ---- */

uint32_t hw_pci_read32(uint8_t bus, uint8_t dev, uint8_t fn, uint8_t off)
{
	u.pci_reads++;
	if (bus || dev || fn || !u.cfg.imc)
		return 0xffffffffU;	/* nothing answers */
	switch (off & 0xfc) {
	case 0x00:	return u.cfg.host_vendor | (uint32_t)u.cfg.host_device << 16;
	case 0x48:	return (uint32_t)u.cfg.mchbar_reg;
	case 0x4c:	return (uint32_t)(u.cfg.mchbar_reg >> 32);
	default:	return 0;
	}
}

int hw_mmio_read32(uint64_t addr, uint32_t *val)
{
	uint64_t base = u.cfg.mchbar_reg & MCHBAR_MASK;
	static const uint32_t offs[5] = { 0x5040, 0x5044, 0x5048, 0x5050, 0x5054 };

	u.mmio_reads++;
	if (u.cfg.imc && (u.cfg.mchbar_reg & MCHBAR_EN) && addr >= base + IMC_FIRST &&
	    addr <= base + IMC_LAST)
		for (unsigned i = 0; i < 5; i++)
			if (addr == base + offs[i]) {
				*val = u.imc[i];
				return 0;
			}
	u.bad_mmio++;
	*val = 0xffffffffU;
	return 14;	/* nothing mapped there: #PF */
}
