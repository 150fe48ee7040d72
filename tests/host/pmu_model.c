/* SPDX-License-Identifier: MIT */
/* Host test double for arch/x86/hw.h: a strict model of an Intel architectural PMU (SDM Vol. 3B ch. 18). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tests/host/pmu_model.h"
#include "tests/host/uncore_model.h"
#include "arch/x86/apic.h"
#include "arch/x86/msr.h"
#include "pmu/pmu.h"

/*
 * Written from the SDM Vol. 3B ch. 18 (18.2 architectural performance monitoring versions
 * 1-5), Vol. 3B 17.4.7 (freeze on PMI), Vol. 4 Table 2-2 (architectural MSRs) and seed
 * 002_28e325465e681290.txt 18.2.1.1 (IA32_PERFEVTSELx fields). One logical processor.
 */

/* Encoders for CPUID.0AH, the inverse of pmu/pmu.h's PMU_EAX_* / PMU_EDX_* decoders. */
#define PMU_MODEL_EAX(ver, ngp, wgp, len) \
	(((uint32_t)(ver) & 0xff) | ((uint32_t)(ngp) & 0xff) << 8 | \
	 ((uint32_t)(wgp) & 0xff) << 16 | ((uint32_t)(len) & 0xff) << 24)
#define PMU_MODEL_EDX(nfix, wfix) (((uint32_t)(nfix) & 0x1f) | ((uint32_t)(wfix) & 0xff) << 5)

/* A value placed into / taken from the contiguous field `mask` of a 64-bit register. */
#define MODEL_FIELD_PREP(mask, v)	(((uint64_t)(v) << __builtin_ctzll(mask)) & (mask))
#define MODEL_FIELD_GET(mask, r)	(((r) & (mask)) >> __builtin_ctzll(mask))

/* CPUID fields the project headers do not name. */
#define MODEL_LEAF_VENDOR		0x00
#define MODEL_LEAF_FEATURES		0x01
#define MODEL_LEAF_EXT_FEATURES		0x07
#define MODEL_LEAF_HYBRID		0x1a	/* native model ID and core type */
#define MODEL_MAX_LEAF			MODEL_LEAF_HYBRID
#define MODEL_7_EDX_HYBRID		BIT(15)
#define MODEL_1A_CORE_TYPE_SHIFT	24
#define MODEL_SIG_MODEL_SHIFT		4
#define MODEL_SIG_FAMILY_SHIFT	8
#define MODEL_SIG_EXT_MODEL_SHIFT	16
#define MODEL_SIG_EXT_FAMILY_SHIFT	20

/* RDPMC's ECX (SDM Vol. 2B RDPMC): bit 30 selects the fixed counters, bits 29:0 the index,
 * bit 31 the "fast read" (low 32 bits) form of some older processors. */
#define MODEL_RDPMC_FIXED		BIT(30)
#define MODEL_RDPMC_FAST		BIT(31)
#define MODEL_RDPMC_INDEX		GENMASK(29, 0)

/*
 * IA32_DEBUGCTL bits msr.h does not name (Vol. 3B Figure 17-3): 6 TR, 7 BTS, 8 BTINT,
 * 9 BTS_OFF_OS, 10 BTS_OFF_USR, 13 UNCORE_PMI_EN, 15 RTM_DEBUG. Bits 5:2 and 63:16 are
 * reserved and fault; FREEZE_WHILE_SMM (bit 14) faults unless PERF_CAPABILITIES[12].
 */
#define MODEL_DEBUGCTL_BTS_BITS	GENMASK_ULL(10, 6)
#define MODEL_DEBUGCTL_UNCORE_PMI_EN	BIT_ULL(13)
#define MODEL_DEBUGCTL_RTM_DEBUG	BIT_ULL(15)

/* Fixed counter i counts this architectural event (SDM Table 18-2 / seed Table 18-1). */
static const struct {
	uint8_t event, umask;
} fixed_event[] = {
	{ 0xc0, 0x00 },		/* IA32_FIXED_CTR0: INST_RETIRED.ANY */
	{ 0x3c, 0x00 },		/* IA32_FIXED_CTR1: CPU_CLK_UNHALTED.CORE */
	{ 0x3c, 0x01 },		/* IA32_FIXED_CTR2: CPU_CLK_UNHALTED.REF */
	{ 0xa4, 0x01 },		/* IA32_FIXED_CTR3: TOPDOWN.SLOTS */
};
#define MODEL_EV_INST_RETIRED	0xc0

enum msr_kind {
	K_NONE,
	K_PMC,		/* IA32_PMCx: legacy, sign-extended 32-bit writes */
	K_A_PMC,	/* IA32_A_PMCx: full-width writes */
	K_EVTSEL,
	K_FIXED,
	K_FIXED_CTRL,
	K_STATUS,
	K_CTRL,
	K_OVF_CTRL,
	K_STATUS_SET,
	K_INUSE,
	K_PERF_CAP,
	K_DEBUGCTL,
	K_SMI_COUNT,	/* MSR_SMI_COUNT: read-only */
	K_UCODE_REV,	/* IA32_BIOS_SIGN_ID */
	K_MISC_ENABLE,	/* IA32_MISC_ENABLE: the PMU bits are read-only */
	K_DS_AREA,
	K_PEBS_ENABLE,
	K_PEBS_DATA_CFG,
	K_PEBS_LD_LAT,
	K_PEBS_FRONTEND,
	K_LBR_SELECT,
	K_LBR_TOS,
	K_LBR_FROM,
	K_LBR_TO,
	K_LBR_INFO,
};

/* IA32_MISC_ENABLE bits the model reports (SDM Vol. 4 Table 2-2). */
#define MODEL_MISC_PERF_AVAIL	BIT_ULL(7)
#define MODEL_MISC_BTS_UNAVAIL	BIT_ULL(11)
#define MODEL_MISC_PEBS_UNAVAIL	BIT_ULL(12)
/* LBR_SELECT bits 8:0 (seed 000 Table 7; bit 9 EN_CALLSTACK is Haswell's, not modelled). */
#define MODEL_LBR_SELECT_VALID	GENMASK_ULL(8, 0)
#define MODEL_LBR_SELECT_CPL_EQ_0	BIT_ULL(0)
#define MODEL_LBR_SELECT_CPL_NEQ_0	BIT_ULL(1)
#define MODEL_LBR_MISPRED	BIT_ULL(63)	/* FROM (formats 3, 4) or LBR_INFO (5) */
#define MODEL_LBR_MAX		32
#define MODEL_CPUID_1_EDX_DS	BIT(21)
#define MODEL_CPUID_1_ECX_DTES64	BIT(2)

static struct {
	bool init;
	struct pmu_model_config cfg;
	/* Effective PMU (cfg normalized to what the version defines). */
	unsigned version, num_gp;
	uint32_t fixed_present;		/* bit i: IA32_FIXED_CTRi exists */
	uint64_t gp_mask, fixed_mask;	/* counter value masks (width) */
	/* Registers. */
	uint64_t pmc[PMU_MODEL_MAX_GP], evtsel[PMU_MODEL_MAX_GP];
	uint64_t fixed[PMU_MODEL_MAX_FIXED], fixed_ctrl;
	uint64_t global_ctrl, global_status, debugctl;
	uint32_t lvtpc;
	uint64_t ds_area, pebs_enable, data_cfg, ld_lat, frontend;
	uint64_t lbr_select, lbr_from[MODEL_LBR_MAX], lbr_to[MODEL_LBR_MAX], lbr_info[MODEL_LBR_MAX];
	unsigned lbr_tos;
	/* Statistics. */
	unsigned violations, faults, writes, lvtpc_writes, pmis, pmis_masked, eois;
	unsigned lvtpc_after;		/* writes at the last LVTPC write */
	char last_violation[160], last_fault[160];
	struct pmu_model_write log[PMU_MODEL_LOG_LEN];
	/* Interrupts, SMM, noise, ownership. */
	bool not_owned;			/* GS base and IDT not yet pmuboot's */
	bool if_flag;			/* RFLAGS.IF */
	bool irr;			/* LVTPC vector pending in the IRR */
	uint64_t pmi_late;		/* instructions until a skidding PMI reaches the LVT */
	bool delivery_pending;		/* LVTPC bit 12 reads set (a delivery under way) */
	unsigned irr_vector;
	bool in_nmi, nmi_latched;
	pmu_model_irq_fn handler;
	unsigned handler_calls;
	uint64_t smi_count;
	uint64_t ucode_msr;	/* IA32_BIOS_SIGN_ID as stored */
	uint64_t noise_max;
	uint32_t noise_state;
} m;

static uint64_t width_mask(unsigned width)
{
	return width >= 64 ? ~0ULL : (1ULL << width) - 1;
}

/* ---- Configurations ---- */

struct pmu_model_config pmu_model_skylake(void)
{
	return (struct pmu_model_config){
		.version = 4, .num_gp = 4, .gp_width = 48, .num_fixed = 3, .fixed_width = 48,
		.ebx_len = 7, .pdcm = true,
		/* LBR format 5, PEBS trap, PEBS arch regs, PEBS format 3, freeze while SMM,
		 * full-width writes: the value a Skylake client reports (0x33c5). */
		.perf_capabilities = MODEL_FIELD_PREP(PERF_CAP_LBR_FMT, 5) | PERF_CAP_PEBS_TRAP |
			PERF_CAP_PEBS_ARCH_REG | MODEL_FIELD_PREP(PERF_CAP_PEBS_FORMAT, 3) |
			PERF_CAP_FREEZE_WHILE_SMM | PERF_CAP_FW_WRITE,
		.family = 6, .model = 0x5e, .smi_count = true,
		/* SDM Vol. 4 Skylake tables: 32 LBR entries at 680H/6C0H, LBR_INFO at DC0H. */
		.ds = true, .frontend = true,
		.lbr_depth = 32, .lbr_from = 0x680, .lbr_to = 0x6c0, .lbr_info = 0xdc0, .lbr_select = true,
	};
}

struct pmu_model_config pmu_model_nehalem(void)
{
	return (struct pmu_model_config){
		.version = 3, .num_gp = 4, .gp_width = 48, .num_fixed = 3, .fixed_width = 48,
		.ebx_len = 7, .pdcm = true,
		/* LBR format 3, PEBS trap, PEBS arch regs, PEBS format 1 (0x1c3). */
		.perf_capabilities = MODEL_FIELD_PREP(PERF_CAP_LBR_FMT, 3) | PERF_CAP_PEBS_TRAP |
			PERF_CAP_PEBS_ARCH_REG | MODEL_FIELD_PREP(PERF_CAP_PEBS_FORMAT, 1),
		.family = 6, .model = 0x1a, .smi_count = true,
		/* SDM Vol. 4 Nehalem tables: 16 LBR entries at 680H/6C0H, no LBR_INFO. */
		.ds = true,
		.lbr_depth = 16, .lbr_from = 0x680, .lbr_to = 0x6c0, .lbr_select = true,
	};
}

struct pmu_model_config pmu_model_v1(void)
{
	/* Core Solo/Duo (06_0EH), the first architectural PMU. */
	return (struct pmu_model_config){
		.version = 1, .num_gp = 2, .gp_width = 40, .ebx_len = 7,
		.family = 6, .model = 0x0e,
	};
}

struct pmu_model_config pmu_model_none(void)
{
	/* A Skylake guest whose hypervisor hides the PMU (CPUID.0AH all zero). */
	return (struct pmu_model_config){ .family = 6, .model = 0x5e };
}

/* ---- Reset and state access ---- */

void pmu_model_reset(const struct pmu_model_config *c)
{
	memset(&m, 0, sizeof(m));
	uncore_model_clear();
	m.init = true;
	m.cfg = *c;
	m.version = c->version;
	m.num_gp = c->version ? c->num_gp : 0;
	if (m.num_gp > PMU_MODEL_MAX_GP)
		m.num_gp = PMU_MODEL_MAX_GP;
	/* Fixed counters arrive with version 2 (SDM 18.2.2); version 5 adds the ECX bitmap:
	 * fixed counter i exists if ECX[i] || EDX[4:0] > i (SDM 18.2.5). */
	if (c->version >= 2) {
		for (unsigned i = 0; i < PMU_MODEL_MAX_FIXED; i++)
			if (i < c->num_fixed || (c->version >= 5 && (c->fixed_mask_ecx & BIT(i))))
				m.fixed_present |= BIT(i);
	}
	m.gp_mask = width_mask(c->gp_width);
	m.fixed_mask = width_mask(c->fixed_width);
	/* SDM Vol. 4 IA32_PERF_GLOBAL_CTRL: on reset the GP enables are set (so software
	 * written for version 1 counts with IA32_PERFEVTSELx.EN alone), fixed enables clear. */
	if (m.version >= 2)
		m.global_ctrl = width_mask(m.num_gp);
	/* SDM Vol. 3A 10.5.1: every LVT entry resets with its mask bit set. */
	m.lvtpc = APIC_LVT_MASKED;
}

static void ensure_init(void)
{
	if (!m.init) {
		struct pmu_model_config c = pmu_model_none();

		pmu_model_reset(&c);
	}
}

const struct pmu_model_config *pmu_model_get_config(void)
{
	ensure_init();
	return &m.cfg;
}

uint32_t pmu_model_lvtpc(void) { ensure_init(); return m.lvtpc; }
void pmu_model_set_owned(bool owned) { ensure_init(); m.not_owned = !owned; }
unsigned pmu_model_handler_calls(void) { return m.handler_calls; }
uint64_t pmu_model_smis(void) { return m.smi_count; }
unsigned pmu_model_violations(void) { return m.violations; }
const char *pmu_model_last_violation(void) { return m.last_violation; }
unsigned pmu_model_faults(void) { return m.faults; }
const char *pmu_model_last_fault(void) { return m.last_fault; }
unsigned pmu_model_writes(void) { return m.writes; }
unsigned pmu_model_lvtpc_writes(void) { return m.lvtpc_writes; }
unsigned pmu_model_lvtpc_written_after(void) { return m.lvtpc_after; }
unsigned pmu_model_pmis(void) { return m.pmis; }
unsigned pmu_model_pmis_masked(void) { return m.pmis_masked; }
unsigned pmu_model_eois(void) { return m.eois; }

unsigned pmu_model_log_len(void)
{
	return m.writes < PMU_MODEL_LOG_LEN ? m.writes : PMU_MODEL_LOG_LEN;
}

struct pmu_model_write pmu_model_log(unsigned i)
{
	unsigned len = pmu_model_log_len();

	if (i >= len)
		return (struct pmu_model_write){ 0, 0 };
	return m.log[(m.writes - len + i) % PMU_MODEL_LOG_LEN];
}

int pmu_model_log_find(uint32_t msr, unsigned from)
{
	for (unsigned i = from; i < pmu_model_log_len(); i++)
		if (pmu_model_log(i).msr == msr)
			return (int)i;
	return -1;
}

void pmu_model_clear_log(void)
{
	m.writes = 0;
}

static int fault(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fault(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m.last_fault, sizeof(m.last_fault), fmt, ap);
	va_end(ap);
	m.faults++;
	return PMU_MODEL_FAULT_GP;
}

static void violation(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void violation(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m.last_violation, sizeof(m.last_violation), fmt, ap);
	va_end(ap);
	m.violations++;
}

/* ---- MSR decode and bit masks ---- */

static bool fixed_exists(unsigned i)
{
	return i < PMU_MODEL_MAX_FIXED && (m.fixed_present & BIT(i));
}

static bool full_width_writes(void)
{
	return m.cfg.pdcm && (m.cfg.perf_capabilities & PERF_CAP_FW_WRITE);
}

static bool pebs_present(void)
{
	return m.cfg.ds && !m.cfg.pebs_unavailable;
}

static bool lbr_range(uint32_t msr, uint32_t first, unsigned *idx)
{
	unsigned depth = m.cfg.lbr_depth < MODEL_LBR_MAX ? m.cfg.lbr_depth : MODEL_LBR_MAX;

	if (!depth || msr < first || msr >= first + depth)
		return false;
	*idx = msr - first;
	return true;
}

/* Which register msr is in this configuration (K_NONE: it does not exist), and its index. */
static enum msr_kind classify(uint32_t msr, unsigned *idx)
{
	*idx = 0;
	if (msr >= MSR_IA32_PMC0 && msr < MSR_IA32_PMC0 + PMU_MODEL_MAX_GP) {
		*idx = msr - MSR_IA32_PMC0;
		return *idx < m.num_gp ? K_PMC : K_NONE;
	}
	if (msr >= MSR_IA32_PMC0_FULL && msr < MSR_IA32_PMC0_FULL + PMU_MODEL_MAX_GP) {
		*idx = msr - MSR_IA32_PMC0_FULL;
		return *idx < m.num_gp && full_width_writes() ? K_A_PMC : K_NONE;
	}
	if (msr >= MSR_IA32_PERFEVTSEL0 && msr < MSR_IA32_PERFEVTSEL0 + PMU_MODEL_MAX_GP) {
		*idx = msr - MSR_IA32_PERFEVTSEL0;
		return *idx < m.num_gp ? K_EVTSEL : K_NONE;
	}
	if (msr >= MSR_CORE_PERF_FIXED_CTR0 && msr < MSR_CORE_PERF_FIXED_CTR0 + PMU_MODEL_MAX_FIXED) {
		*idx = msr - MSR_CORE_PERF_FIXED_CTR0;
		return fixed_exists(*idx) ? K_FIXED : K_NONE;
	}
	switch (msr) {
	case MSR_CORE_PERF_FIXED_CTR_CTRL:	return m.version >= 2 ? K_FIXED_CTRL : K_NONE;
	case MSR_CORE_PERF_GLOBAL_STATUS:	return m.version >= 2 ? K_STATUS : K_NONE;
	case MSR_CORE_PERF_GLOBAL_CTRL:		return m.version >= 2 ? K_CTRL : K_NONE;
	case MSR_CORE_PERF_GLOBAL_OVF_CTRL:	return m.version >= 2 ? K_OVF_CTRL : K_NONE;
	case MSR_CORE_PERF_GLOBAL_STATUS_SET:	return m.version >= 4 ? K_STATUS_SET : K_NONE;
	case MSR_CORE_PERF_GLOBAL_INUSE:	return m.version >= 4 ? K_INUSE : K_NONE;
	case MSR_IA32_PERF_CAPABILITIES:	return m.cfg.pdcm ? K_PERF_CAP : K_NONE;
	case MSR_IA32_DEBUGCTLMSR:		return K_DEBUGCTL;
	case MSR_SMI_COUNT:			return m.cfg.smi_count ? K_SMI_COUNT : K_NONE;
	case MSR_IA32_UCODE_REV:		return m.cfg.amd ? K_NONE : K_UCODE_REV;
	case MSR_IA32_MISC_ENABLE:		return K_MISC_ENABLE;
	case MSR_IA32_DS_AREA:			return m.cfg.ds ? K_DS_AREA : K_NONE;
	case MSR_IA32_PEBS_ENABLE:		return pebs_present() ? K_PEBS_ENABLE : K_NONE;
	case MSR_PEBS_LD_LAT_THRESHOLD:		return pebs_present() ? K_PEBS_LD_LAT : K_NONE;
	case MSR_PEBS_FRONTEND:			return pebs_present() && m.cfg.frontend ?
						       K_PEBS_FRONTEND : K_NONE;
	case MSR_PEBS_DATA_CFG:			return pebs_present() && (m.cfg.perf_capabilities &
						       PERF_CAP_PEBS_BASELINE) ? K_PEBS_DATA_CFG : K_NONE;
	case MSR_LBR_SELECT:			return m.cfg.lbr_depth && m.cfg.lbr_select ?
						       K_LBR_SELECT : K_NONE;
	case MSR_LASTBRANCH_TOS:		return m.cfg.lbr_depth ? K_LBR_TOS : K_NONE;
	default:				break;
	}
	if (lbr_range(msr, m.cfg.lbr_from, idx))
		return K_LBR_FROM;
	if (lbr_range(msr, m.cfg.lbr_to, idx))
		return K_LBR_TO;
	if (m.cfg.lbr_info && lbr_range(msr, m.cfg.lbr_info, idx))
		return K_LBR_INFO;
	return K_NONE;
}

/* GLOBAL_CTRL / STATUS layout: the counters that exist. */
static uint64_t counter_bits(void)
{
	return width_mask(m.num_gp) | (uint64_t)m.fixed_present << GLOBAL_FIXED_SHIFT;
}

/*
 * Non-counter GLOBAL_STATUS bits each version defines in OVF_CTRL (a.k.a.
 * IA32_PERF_GLOBAL_STATUS_RESET from v4; SDM Figures 18-8, 18-11 and Vol. 4 Table 2-2):
 * v2 ClrOvfBuffer 62, ClrCondChgd 63; v3 adds ClrOvfUncore 61; v4 adds ClrTraceToPAPMI 55,
 * ClrLBR_Frz 58, ClrCTR_Frz 59, ClrASCI 60.
 */
static uint64_t ovf_ctrl_extra(void)
{
	uint64_t b = 0;

	if (m.version >= 2)
		b |= GLOBAL_STATUS_BUFFER_OVF | GLOBAL_STATUS_COND_CHGD;
	if (m.version >= 3)
		b |= GLOBAL_STATUS_UNCORE_OVF;
	if (m.version >= 4)
		b |= GLOBAL_STATUS_TRACE_TOPAPMI | GLOBAL_STATUS_LBRS_FROZEN |
		     GLOBAL_STATUS_COUNTERS_FROZEN | GLOBAL_STATUS_ASCI;
	return b;
}

/*
 * IA32_PERF_GLOBAL_STATUS_SET (v4, SDM Figure 18-12) sets 55 and 58-62 besides the
 * counters; bit 63 (CondChgd) has no Set bit there, so writing it faults.
 */
static uint64_t status_set_extra(void)
{
	return GLOBAL_STATUS_TRACE_TOPAPMI | GLOBAL_STATUS_LBRS_FROZEN |
	       GLOBAL_STATUS_COUNTERS_FROZEN | GLOBAL_STATUS_ASCI | GLOBAL_STATUS_UNCORE_OVF |
	       GLOBAL_STATUS_BUFFER_OVF;
}

/* Writable IA32_PERFEVTSELx bits: 31:0 (seed Figure 18-1); AnyThread (21) from v3 only. */
static uint64_t evtsel_valid(void)
{
	uint64_t v = ~ARCH_PERFMON_EVENTSEL_RESERVED;

	if (m.version < 3)
		v &= ~ARCH_PERFMON_EVENTSEL_ANY;
	return v;
}

/* Writable IA32_FIXED_CTR_CTRL bits: EN (OS, USR) and PMI of each existing fixed counter,
 * AnyThread from v3 only (SDM Figures 18-2, 18-7). */
static uint64_t fixed_ctrl_valid(void)
{
	uint64_t field = FIXED_CTR_CTRL_OS | FIXED_CTR_CTRL_USR | FIXED_CTR_CTRL_PMI;
	uint64_t v = 0;

	if (m.version >= 3)
		field |= FIXED_CTR_CTRL_ANY;
	for (unsigned i = 0; i < PMU_MODEL_MAX_FIXED; i++)
		if (fixed_exists(i))
			v |= field << (i * FIXED_CTR_CTRL_BITS);
	return v;
}

static uint64_t fixed_field(unsigned i)
{
	return (m.fixed_ctrl >> (i * FIXED_CTR_CTRL_BITS)) & GENMASK_ULL(FIXED_CTR_CTRL_BITS - 1, 0);
}

static uint64_t debugctl_valid(void)
{
	uint64_t v = DEBUGCTLMSR_LBR | DEBUGCTLMSR_BTF | MODEL_DEBUGCTL_BTS_BITS |
		     DEBUGCTLMSR_FREEZE_LBRS_ON_PMI | DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI |
		     MODEL_DEBUGCTL_UNCORE_PMI_EN | MODEL_DEBUGCTL_RTM_DEBUG;

	if (m.cfg.pdcm && (m.cfg.perf_capabilities & PERF_CAP_FREEZE_WHILE_SMM))
		v |= DEBUGCTLMSR_FREEZE_IN_SMM;
	return v;
}

/*
 * IA32_PERF_GLOBAL_INUSE (v4, SDM 18.2.4.3): bit n = (IA32_PERFEVTSELn[7:0] != 0); bit 32+i
 * = (IA32_FIXED_CTR_CTRL enable field i != 0); bit 63 (PMI_InUse) = any PERFEVTSELn.INT or
 * fixed PMI bit set (the PEBS_ENABLE term is not modelled: no PEBS).
 */
#define MODEL_INUSE_PMI	BIT_ULL(63)

static uint64_t global_inuse(void)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < m.num_gp; i++) {
		if (m.evtsel[i] & ARCH_PERFMON_EVENTSEL_EVENT)
			v |= BIT_ULL(i);
		if (m.evtsel[i] & ARCH_PERFMON_EVENTSEL_INT)
			v |= MODEL_INUSE_PMI;
	}
	for (unsigned i = 0; i < PMU_MODEL_MAX_FIXED; i++) {
		if (!fixed_exists(i))
			continue;
		if (fixed_field(i) & (FIXED_CTR_CTRL_OS | FIXED_CTR_CTRL_USR))
			v |= BIT_ULL(GLOBAL_FIXED_SHIFT + i);
		if (fixed_field(i) & FIXED_CTR_CTRL_PMI)
			v |= MODEL_INUSE_PMI;
	}
	return v;
}

/* ---- MSR access ---- */

static bool msr_value(enum msr_kind k, unsigned i, uint64_t *val)
{
	switch (k) {
	case K_PMC:
	case K_A_PMC:		*val = m.pmc[i]; return true;
	case K_EVTSEL:		*val = m.evtsel[i]; return true;
	case K_FIXED:		*val = m.fixed[i]; return true;
	case K_FIXED_CTRL:	*val = m.fixed_ctrl; return true;
	case K_STATUS:		*val = m.global_status; return true;
	case K_CTRL:		*val = m.global_ctrl; return true;
	case K_OVF_CTRL:	/* write-1-to-clear command register: reads 0 */
	case K_STATUS_SET:	*val = 0; return true;
	case K_INUSE:		*val = global_inuse(); return true;
	case K_PERF_CAP:	*val = m.cfg.perf_capabilities; return true;
	case K_DEBUGCTL:	*val = m.debugctl; return true;
	case K_SMI_COUNT:	*val = m.smi_count & MSR_SMI_COUNT_MASK; return true;
	case K_UCODE_REV:	*val = m.ucode_msr; return true;
	case K_MISC_ENABLE:
		*val = (m.version ? MODEL_MISC_PERF_AVAIL : 0) |
		       (!m.cfg.ds || m.cfg.bts_unavailable ? MODEL_MISC_BTS_UNAVAIL : 0) |
		       (!m.cfg.ds || m.cfg.pebs_unavailable ? MODEL_MISC_PEBS_UNAVAIL : 0);
		return true;
	case K_DS_AREA:		*val = m.ds_area; return true;
	case K_PEBS_ENABLE:	*val = m.pebs_enable; return true;
	case K_PEBS_DATA_CFG:	*val = m.data_cfg; return true;
	case K_PEBS_LD_LAT:	*val = m.ld_lat; return true;
	case K_PEBS_FRONTEND:	*val = m.frontend; return true;
	case K_LBR_SELECT:	*val = m.lbr_select; return true;
	case K_LBR_TOS:		*val = m.lbr_tos; return true;
	case K_LBR_FROM:	*val = m.lbr_from[i]; return true;
	case K_LBR_TO:		*val = m.lbr_to[i]; return true;
	case K_LBR_INFO:	*val = m.lbr_info[i]; return true;
	case K_NONE:		break;
	}
	*val = 0;
	return false;
}

uint64_t pmu_model_msr(uint32_t msr)
{
	unsigned i;
	uint64_t v;
	enum msr_kind k;

	ensure_init();
	k = classify(msr, &i);
	msr_value(k, i, &v);
	return v;
}

bool pmu_model_poke(uint32_t msr, uint64_t v)
{
	unsigned i;

	ensure_init();
	switch (classify(msr, &i)) {
	case K_PMC:
	case K_A_PMC:		m.pmc[i] = v & m.gp_mask; return true;
	case K_EVTSEL:		m.evtsel[i] = v; return true;
	case K_FIXED:		m.fixed[i] = v & m.fixed_mask; return true;
	case K_FIXED_CTRL:	m.fixed_ctrl = v; return true;
	case K_STATUS:		m.global_status = v; return true;
	case K_CTRL:		m.global_ctrl = v; return true;
	case K_DEBUGCTL:	m.debugctl = v; return true;
	case K_LBR_FROM:	m.lbr_from[i] = v; return true;
	case K_LBR_TO:		m.lbr_to[i] = v; return true;
	case K_LBR_INFO:	m.lbr_info[i] = v; return true;
	case K_LBR_TOS:		m.lbr_tos = (unsigned)v % m.cfg.lbr_depth; return true;
	case K_OVF_CTRL:
	case K_STATUS_SET:
	case K_INUSE:
	case K_PERF_CAP:
	case K_SMI_COUNT:
	default:		break;
	}
	return false;
}

static void check_owned(const char *what, uint32_t which)
{
	if (m.not_owned)
		violation("%s 0x%x before pmuboot owns GS base and the IDT (a fault-safe access "
			  "would go through the firmware's GS and IDT)", what, which);
}

int hw_rdmsr(uint32_t msr, uint64_t *val)
{
	unsigned i;
	enum msr_kind k;

	ensure_init();
	check_owned("rdmsr", msr);
	k = classify(msr, &i);
	if (k == K_NONE && uncore_model_has_msr(msr)) {
		char why[160];

		if (uncore_model_rdmsr(msr, val, why, sizeof(why)))
			return fault("%s", why);
		return 0;
	}
	if (k == K_NONE && m.cfg.tcg_msrs) {
		*val = 0;	/* QEMU 7.2 TCG: an MSR it does not know reads 0, no #GP */
		return 0;
	}
	if (!msr_value(k, i, val))
		return fault("rdmsr 0x%x: no such MSR (PMU version %u, %u GP, fixed mask 0x%x)",
			     msr, m.version, m.num_gp, m.fixed_present);
	return 0;
}

static void check_pmc_disabled(uint32_t msr, unsigned i)
{
	/* Seed 18.2.1.1 (EN flag): the event logic must be disabled (IA32_PERFEVTSELx.EN = 0)
	 * before IA32_PMCx is written. Hardware accepts the write; the model records it. */
	if (m.evtsel[i] & ARCH_PERFMON_EVENTSEL_ENABLE)
		violation("wrmsr 0x%x: PMC written while enabled (IA32_PERFEVTSEL%u = 0x%llx)",
			  msr, i, (unsigned long long)m.evtsel[i]);
}

int hw_wrmsr(uint32_t msr, uint64_t val)
{
	unsigned i;
	enum msr_kind k;
	uint64_t bad;

	ensure_init();
	check_owned("wrmsr", msr);
	k = classify(msr, &i);
	switch (k) {
	case K_NONE:
		if (uncore_model_has_msr(msr)) {
			char why[160];

			if (uncore_model_wrmsr(msr, val, why, sizeof(why)))
				return fault("%s", why);
			break;
		}
		if (m.cfg.tcg_msrs)
			break;	/* QEMU 7.2 TCG drops the write, no #GP (it is logged) */
		return fault("wrmsr 0x%x = 0x%llx: no such MSR (PMU version %u, %u GP, fixed mask 0x%x)",
			     msr, (unsigned long long)val, m.version, m.num_gp, m.fixed_present);
	case K_PMC: {
		/*
		 * SDM 18.2 "Full-Width Writes to Performance Counter Registers": WRMSR to IA32_PMCx writes EAX[31:0] and
		 * sign-extends bit 31 through the counter's width; EDX is ignored. Values with
		 * bit 31 set therefore load the counter with 2^width - 2^32 + low.
		 */
		uint64_t v = val & GENMASK_ULL(31, 0);

		if (v & BIT_ULL(31))
			v |= GENMASK_ULL(63, 32);
		check_pmc_disabled(msr, i);
		m.pmc[i] = v & m.gp_mask;
		break;
	}
	case K_A_PMC:
		/* IA32_A_PMCx: the full counter width; bits at or above it are reserved. */
		if (val & ~m.gp_mask)
			return fault("wrmsr 0x%x = 0x%llx: bits above the %u-bit counter width",
				     msr, (unsigned long long)val, m.cfg.gp_width);
		check_pmc_disabled(msr, i);
		m.pmc[i] = val;
		break;
	case K_EVTSEL:
		bad = val & ~evtsel_valid();
		if (bad)
			return fault("wrmsr IA32_PERFEVTSEL%u = 0x%llx: reserved bits 0x%llx (version %u)",
				     i, (unsigned long long)val, (unsigned long long)bad, m.version);
		m.evtsel[i] = val;
		break;
	case K_FIXED:
		if (val & ~m.fixed_mask)
			return fault("wrmsr IA32_FIXED_CTR%u = 0x%llx: bits above the %u-bit width",
				     i, (unsigned long long)val, m.cfg.fixed_width);
		m.fixed[i] = val;
		break;
	case K_FIXED_CTRL:
		bad = val & ~fixed_ctrl_valid();
		if (bad)
			return fault("wrmsr IA32_FIXED_CTR_CTRL = 0x%llx: reserved bits 0x%llx (version %u)",
				     (unsigned long long)val, (unsigned long long)bad, m.version);
		m.fixed_ctrl = val;
		break;
	case K_STATUS:
		return fault("wrmsr IA32_PERF_GLOBAL_STATUS = 0x%llx: read-only",
			     (unsigned long long)val);
	case K_CTRL:
		bad = val & ~counter_bits();
		if (bad)
			return fault("wrmsr IA32_PERF_GLOBAL_CTRL = 0x%llx: reserved bits 0x%llx",
				     (unsigned long long)val, (unsigned long long)bad);
		m.global_ctrl = val;
		break;
	case K_OVF_CTRL:
		bad = val & ~(counter_bits() | ovf_ctrl_extra());
		if (bad)
			return fault("wrmsr IA32_PERF_GLOBAL_OVF_CTRL = 0x%llx: reserved bits 0x%llx (version %u)",
				     (unsigned long long)val, (unsigned long long)bad, m.version);
		m.global_status &= ~val;	/* write 1 to clear */
		break;
	case K_STATUS_SET:
		bad = val & ~(counter_bits() | status_set_extra());
		if (bad)
			return fault("wrmsr IA32_PERF_GLOBAL_STATUS_SET = 0x%llx: reserved bits 0x%llx",
				     (unsigned long long)val, (unsigned long long)bad);
		m.global_status |= val;
		break;
	case K_INUSE:
		return fault("wrmsr IA32_PERF_GLOBAL_INUSE = 0x%llx: read-only",
			     (unsigned long long)val);
	case K_PERF_CAP:
		return fault("wrmsr IA32_PERF_CAPABILITIES = 0x%llx: read-only",
			     (unsigned long long)val);
	case K_SMI_COUNT:
		return fault("wrmsr MSR_SMI_COUNT = 0x%llx: read-only", (unsigned long long)val);
	case K_UCODE_REV:
		m.ucode_msr = val;
		break;
	case K_MISC_ENABLE:
		return fault("wrmsr IA32_MISC_ENABLE = 0x%llx: the model keeps it read-only",
			     (unsigned long long)val);
	case K_DS_AREA:
		m.ds_area = val;
		break;
	case K_PEBS_ENABLE: {
		/* PEBS_EN_PMCx for each GP counter; bits 32 + x: load latency (before version
		 * 5) or a fixed counter (adaptive PEBS). */
		uint64_t ok = width_mask(m.num_gp) | width_mask(m.num_gp) << 32;

		if (m.cfg.perf_capabilities & PERF_CAP_PEBS_BASELINE)
			ok |= (uint64_t)m.fixed_present << 32;
		if (val & ~ok)
			return fault("wrmsr IA32_PEBS_ENABLE = 0x%llx: reserved bits 0x%llx",
				     (unsigned long long)val, (unsigned long long)(val & ~ok));
		m.pebs_enable = val;
		break;
	}
	case K_PEBS_DATA_CFG:
		if (val & ~(GENMASK_ULL(3, 0) | GENMASK_ULL(31, 24)))
			return fault("wrmsr MSR_PEBS_DATA_CFG = 0x%llx: reserved bits",
				     (unsigned long long)val);
		m.data_cfg = val;
		break;
	case K_PEBS_LD_LAT:
		if (val & ~GENMASK_ULL(15, 0))
			return fault("wrmsr MSR_PEBS_LD_LAT_THRESHOLD = 0x%llx: bits above 15",
				     (unsigned long long)val);
		m.ld_lat = val;
		break;
	case K_PEBS_FRONTEND:
		if (val & ~GENMASK_ULL(22, 0))
			return fault("wrmsr MSR_PEBS_FRONTEND = 0x%llx: reserved bits",
				     (unsigned long long)val);
		m.frontend = val;
		break;
	case K_LBR_SELECT:
		if (val & ~MODEL_LBR_SELECT_VALID)
			return fault("wrmsr MSR_LBR_SELECT = 0x%llx: reserved bits",
				     (unsigned long long)val);
		m.lbr_select = val;
		break;
	case K_LBR_TOS:
		if (val >= m.cfg.lbr_depth)
			return fault("wrmsr MSR_LASTBRANCH_TOS = 0x%llx: past the %u entries",
				     (unsigned long long)val, m.cfg.lbr_depth);
		m.lbr_tos = (unsigned)val;
		break;
	case K_LBR_FROM:
		m.lbr_from[i] = val;
		break;
	case K_LBR_TO:
		m.lbr_to[i] = val;
		break;
	case K_LBR_INFO:
		m.lbr_info[i] = val;
		break;
	case K_DEBUGCTL:
		bad = val & ~debugctl_valid();
		if (bad)
			return fault("wrmsr IA32_DEBUGCTL = 0x%llx: reserved bits 0x%llx",
				     (unsigned long long)val, (unsigned long long)bad);
		m.debugctl = val;
		break;
	}
	m.log[m.writes % PMU_MODEL_LOG_LEN] = (struct pmu_model_write){ msr, val };
	m.writes++;
	return 0;
}

/*
 * RDPMC (SDM Vol. 2B): ECX[30] selects the fixed counters, ECX[29:0] the index; an index
 * with no counter raises #GP. The "fast read" form (ECX[31]) existed on a few older
 * processors only and is not enumerated architecturally, so the model rejects it with #GP.
 * Without an architectural PMU (version 0) every RDPMC faults. CR4.PCE/CPL are not modelled
 * (the firmware runs at CPL 0).
 */
int hw_rdpmc(uint32_t ecx, uint64_t *val)
{
	uint32_t i = ecx & MODEL_RDPMC_INDEX;

	ensure_init();
	check_owned("rdpmc", ecx);
	*val = 0;
	if (m.version == 0)
		return fault("rdpmc 0x%x: no architectural PMU", ecx);
	if (ecx & MODEL_RDPMC_FAST)
		return fault("rdpmc 0x%x: fast-read form (ECX[31]) not supported", ecx);
	if (ecx & MODEL_RDPMC_FIXED) {
		if (!fixed_exists(i))
			return fault("rdpmc 0x%x: no fixed counter %u", ecx, i);
		*val = m.fixed[i];
	} else {
		if (i >= m.num_gp)
			return fault("rdpmc 0x%x: no GP counter %u (%u present)", ecx, i, m.num_gp);
		*val = m.pmc[i];
	}
	return 0;
}

/* ---- CPUID ---- */

static uint32_t vendor_word(const char *four)
{
	uint32_t w;

	memcpy(&w, four, sizeof(w));
	return w;
}

static uint32_t signature(uint32_t family, uint32_t model)
{
	uint32_t base_fam = family > 0xf ? 0xf : family, ext_fam = family > 0xf ? family - 0xf : 0;
	uint32_t sig = base_fam << MODEL_SIG_FAMILY_SHIFT | (model & 0xf) << MODEL_SIG_MODEL_SHIFT |
		       ext_fam << MODEL_SIG_EXT_FAMILY_SHIFT;

	/* The extended model field is used only with display family 6 or 0FH. */
	if (base_fam == 6 || base_fam == 0xf)
		sig |= ((model >> 4) & 0xf) << MODEL_SIG_EXT_MODEL_SHIFT;
	return sig;
}

/*
 * Leaf 0 (max leaf 1AH, GenuineIntel), 1 (signature, PDCM; EDX TSC/MSR/APIC), 7.0 (EDX[15]
 * hybrid), 0AH (from the configuration, verbatim) and 1AH (core type when hybrid); every
 * other leaf and subleaf reads as zeros.
 */
struct cpuid_regs hw_cpuid(uint32_t leaf, uint32_t subleaf)
{
	struct cpuid_regs r = { 0, 0, 0, 0 };
	const struct pmu_model_config *c;

	ensure_init();
	c = &m.cfg;
	switch (leaf) {
	case MODEL_LEAF_VENDOR:
		r.eax = MODEL_MAX_LEAF;
		r.ebx = vendor_word(c->amd ? "Auth" : "Genu");
		r.edx = vendor_word(c->amd ? "enti" : "ineI");
		r.ecx = vendor_word(c->amd ? "cAMD" : "ntel");
		break;
	case MODEL_LEAF_FEATURES:
		r.eax = signature(c->family, c->model) | (c->stepping & 0xf);
		m.ucode_msr = (uint64_t)c->ucode_rev << MSR_IA32_UCODE_REV_SHIFT;
		r.ecx = (c->pdcm ? CPUID_1_ECX_PDCM : 0) | (c->ds ? MODEL_CPUID_1_ECX_DTES64 : 0);
		r.edx = CPUID_1_EDX_TSC | CPUID_1_EDX_MSR | CPUID_1_EDX_APIC |
			(c->ds ? MODEL_CPUID_1_EDX_DS : 0);
		break;
	case MODEL_LEAF_EXT_FEATURES:
		if (subleaf == 0)
			r.edx = c->hybrid ? MODEL_7_EDX_HYBRID : 0;
		break;
	case CPUID_LEAF_PMU:
		r.eax = PMU_MODEL_EAX(c->version, c->num_gp, c->gp_width, c->ebx_len);
		r.ebx = c->ebx_unavailable;
		r.ecx = c->fixed_mask_ecx;
		r.edx = PMU_MODEL_EDX(c->num_fixed, c->fixed_width);
		break;
	case MODEL_LEAF_HYBRID:
		if (c->hybrid)
			r.eax = (uint32_t)c->core_type << MODEL_1A_CORE_TYPE_SHIFT;
		break;
	default:
		break;
	}
	return r;
}

/* ---- Local APIC LVTPC ---- */

uint32_t hw_apic_lvtpc_read(void)
{
	ensure_init();
	return m.lvtpc | (m.delivery_pending ? APIC_LVT_DELIVERY_PENDING : 0);
}

void pmu_model_set_delivery_pending(bool on)
{
	ensure_init();
	m.delivery_pending = on;
}

void hw_apic_lvtpc_write(uint32_t v)
{
	ensure_init();
	/* Delivery status (bit 12) is read-only; in x2APIC mode a WRMSR with it set #GPs. */
	if (v & APIC_LVT_DELIVERY_PENDING)
		violation("APIC_LVTPC written as 0x%x: delivery status (bit 12, read-only) set, a "
			  "#GP under x2APIC", v);
	m.lvtpc = v & ~APIC_LVT_DELIVERY_PENDING;
	m.lvtpc_writes++;
	m.lvtpc_after = m.writes;
}

void hw_apic_eoi(void)
{
	ensure_init();
	m.eois++;
}

/* ---- Interrupt delivery (SDM Vol. 3A 6.7: NMI is not masked by IF; 10.8.4: fixed
 * interrupts wait in the IRR until IF allows them; interrupt gates clear IF) ---- */

#define MODEL_LVT_DM_MASK	GENMASK(10, 8)	/* LVT delivery mode */
#define MODEL_LVT_VECTOR	GENMASK(7, 0)
#define MODEL_NMI_VECTOR	2

static void run_handler(unsigned vector, bool nmi)
{
	bool saved_if = m.if_flag;

	m.handler_calls++;
	m.if_flag = false;
	m.handler(vector, nmi);
	m.if_flag = saved_if;
}

static void deliver_nmi(void)
{
	if (!m.handler)
		return;
	if (m.in_nmi) {		/* NMIs are blocked until the handler returns (IRET) */
		m.nmi_latched = true;
		return;
	}
	do {
		m.nmi_latched = false;
		m.in_nmi = true;
		run_handler(MODEL_NMI_VECTOR, true);
		m.in_nmi = false;
	} while (m.nmi_latched);
}

static void take_pending(void)
{
	while (m.if_flag && m.irr && m.handler) {
		m.irr = false;
		run_handler(m.irr_vector, false);
	}
}

void pmu_model_set_irq_handler(pmu_model_irq_fn fn)
{
	ensure_init();
	m.handler = fn;
}

void pmu_model_set_if(bool on)
{
	ensure_init();
	m.if_flag = on;
	take_pending();
}

bool pmu_model_irr_pending(void)
{
	return m.irr;
}

void pmu_model_nmi(void)
{
	ensure_init();
	deliver_nmi();
}

bool hw_apic_irr_pending(unsigned vector)
{
	ensure_init();
	return m.irr && m.irr_vector == vector;
}

void hw_irq_window(void)
{
	ensure_init();
	m.if_flag = true;
	take_pending();
	m.if_flag = false;
}

/* ---- SMM and noise ---- */

void pmu_model_smi(uint64_t insns)
{
	ensure_init();
	m.smi_count++;
	if (m.debugctl & DEBUGCTLMSR_FREEZE_IN_SMM) {
		/* SDM 18.18.1: the enables are cleared before the SMI handler runs, so its
		 * instructions count nowhere; at RSM "the enable bits of IA32_PERF_GLOBAL_CTRL
		 * will be set to 1". Modelled as written, for every counter: the harsher
		 * reading (a counter whose selector is armed starts counting). */
		m.global_ctrl = 0;
		pmu_model_count(MODEL_EV_INST_RETIRED, 0, insns, 0);
		m.global_ctrl = counter_bits();
	} else {
		pmu_model_count(MODEL_EV_INST_RETIRED, 0, insns, 0);
	}
}

void pmu_model_set_noise(uint64_t max, uint32_t seed)
{
	ensure_init();
	m.noise_max = max;
	m.noise_state = seed ? seed : 1;
}

/* xorshift32: a repeatable pseudo-random 0..noise_max. */
static uint64_t noise(void)
{
	uint32_t x = m.noise_state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	m.noise_state = x;
	return x % (m.noise_max + 1);
}

/* ---- Events, overflow, PMI ---- */

/*
 * A PMI request: a counter with INT (PERFEVTSELx[20]) or the fixed PMI bit overflowed.
 *
 * Freeze on PMI (IA32_DEBUGCTL[12], [11]) acts on the PMI *request* (SDM 17.4.7: "on a PMI
 * request"), whether or not the LVTPC then delivers it:
 *  - versions 2 and 3 (legacy freeze): the processor clears every IA32_PERF_GLOBAL_CTRL
 *    enable bit; Freeze_LBRs_On_PMI clears IA32_DEBUGCTL.LBR;
 *  - version 4+ (streamlined freeze, SDM 18.2.4.1): the processor sets
 *    IA32_PERF_GLOBAL_STATUS.CTR_FRZ (59), GLOBAL_CTRL is left alone, and no counter counts
 *    until software clears CTR_FRZ through OVF_CTRL (STATUS_RESET); Freeze_LBRs_On_PMI sets
 *    LBR_FRZ (58) instead of clearing DEBUGCTL.LBR;
 *  - version 1 has no global enables: perfmon freeze does nothing; the LBR freeze clears
 *    IA32_DEBUGCTL.LBR as in the legacy scheme.
 *
 * Delivery: when the LVTPC is unmasked the PMI is delivered and the local APIC sets the
 * LVTPC mask bit (SDM 18.2.1 / 10.5.1 note: a PMI masks the performance-counter LVT entry);
 * when masked, the request is lost (counted by pmu_model_pmis_masked()).
 */
static void pmi_lvt(void);

static void pmi_request(void)
{
	if (m.debugctl & DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI) {
		if (m.version >= 4)
			m.global_status |= GLOBAL_STATUS_COUNTERS_FROZEN;
		else if (m.version >= 2)
			m.global_ctrl = 0;
	}
	if (m.debugctl & DEBUGCTLMSR_FREEZE_LBRS_ON_PMI) {
		if (m.version >= 4)
			m.global_status |= GLOBAL_STATUS_LBRS_FROZEN;
		else
			m.debugctl &= ~DEBUGCTLMSR_LBR;
	}
	if (m.cfg.pmi_skid) {		/* on its way: pmi_lvt() when the skid has retired */
		m.pmi_late = m.cfg.pmi_skid;
		return;
	}
	pmi_lvt();
}

/* The LVT sends a PMI request: lost when the entry is masked. */
static void pmi_lvt(void)
{
	if (m.lvtpc & APIC_LVT_MASKED) {
		m.pmis_masked++;
	} else {
		m.pmis++;
		m.lvtpc |= APIC_LVT_MASKED;
		if ((m.lvtpc & MODEL_LVT_DM_MASK) == APIC_LVT_DM_NMI) {
			deliver_nmi();
		} else {
			m.irr = true;
			m.irr_vector = m.lvtpc & MODEL_LVT_VECTOR;
			take_pending();
		}
	}
}

/* Adds count modulo mask + 1; true when the counter passed its maximum (overflowed). */
static bool advance(uint64_t *ctr, uint64_t mask, uint64_t count)
{
	uint64_t room = mask - *ctr;	/* increments until the counter reads its maximum */

	*ctr = (*ctr + count) & mask;
	return count > room;
}

static bool cpl_selected_gp(uint64_t sel, int cpl)
{
	return sel & (cpl == 0 ? ARCH_PERFMON_EVENTSEL_OS : ARCH_PERFMON_EVENTSEL_USR);
}

/*
 * Every counter that counts (event, umask) at cpl advances together; then overflows are
 * reported. Overflow (a counter passing 2^width - 1): the counter wraps modulo 2^width, its
 * GLOBAL_STATUS bit (GP x: bit x, fixed x: bit 32+x) is set on v2+, and a counter with its
 * interrupt bit raises one PMI request for the whole step.
 */
void pmu_model_count(uint8_t event, uint8_t umask, uint64_t count, int cpl)
{
	uint64_t ovf = 0;
	bool pmi = false;

	ensure_init();
	if (m.noise_max)
		count += noise();
	if (!count)
		return;
	if (m.version >= 4 && (m.global_status & GLOBAL_STATUS_COUNTERS_FROZEN))
		return;

	for (unsigned i = 0; i < m.num_gp; i++) {
		uint64_t sel = m.evtsel[i];

		if (!(sel & ARCH_PERFMON_EVENTSEL_ENABLE) || !cpl_selected_gp(sel, cpl))
			continue;
		if (MODEL_FIELD_GET(ARCH_PERFMON_EVENTSEL_EVENT, sel) != event ||
		    MODEL_FIELD_GET(ARCH_PERFMON_EVENTSEL_UMASK, sel) != umask)
			continue;
		if (sel & ARCH_PERFMON_EVENTSEL_CMASK)
			continue;	/* per-cycle threshold not simulated: never counts */
		if (m.version >= 2 && !(m.global_ctrl & BIT_ULL(i)))
			continue;
		if (advance(&m.pmc[i], m.gp_mask, count)) {
			ovf |= BIT_ULL(i);
			if (sel & ARCH_PERFMON_EVENTSEL_INT)
				pmi = true;
		}
	}

	for (unsigned i = 0; i < sizeof(fixed_event) / sizeof(fixed_event[0]); i++) {
		uint64_t f = fixed_field(i);
		unsigned bit = GLOBAL_FIXED_SHIFT + i;

		if (!fixed_exists(i) || fixed_event[i].event != event || fixed_event[i].umask != umask)
			continue;
		if (!(f & (cpl == 0 ? FIXED_CTR_CTRL_OS : FIXED_CTR_CTRL_USR)))
			continue;
		if (!(m.global_ctrl & BIT_ULL(bit)))
			continue;
		if (advance(&m.fixed[i], m.fixed_mask, count)) {
			ovf |= BIT_ULL(bit);
			if (f & FIXED_CTR_CTRL_PMI)
				pmi = true;
		}
	}

	if (m.version >= 2)
		m.global_status |= ovf;
	if (pmi)
		pmi_request();
}

void pmu_model_branch(uint64_t from, uint64_t to, enum pmu_model_branch_kind kind, int cpl,
		      bool mispred)
{
	unsigned fmt = (unsigned)MODEL_FIELD_GET(PERF_CAP_LBR_FMT, m.cfg.perf_capabilities);
	unsigned t;

	ensure_init();
	if (!m.cfg.lbr_depth || !(m.debugctl & DEBUGCTLMSR_LBR))
		return;
	if (m.version >= 4 && (m.global_status & GLOBAL_STATUS_LBRS_FROZEN))
		return;
	if (m.cfg.lbr_select && ((m.lbr_select & BIT_ULL(kind)) ||
	    (cpl == 0 && (m.lbr_select & MODEL_LBR_SELECT_CPL_EQ_0)) ||
	    (cpl > 0 && (m.lbr_select & MODEL_LBR_SELECT_CPL_NEQ_0))))
		return;
	t = m.lbr_tos = (m.lbr_tos + 1) % m.cfg.lbr_depth;
	m.lbr_from[t] = from | ((fmt == 3 || fmt == 4) && mispred ? MODEL_LBR_MISPRED : 0);
	m.lbr_to[t] = to;
	if (m.cfg.lbr_info)
		m.lbr_info[t] = mispred ? MODEL_LBR_MISPRED : 0;
}

uint64_t pmu_model_lbr_from(unsigned i) { return i < MODEL_LBR_MAX ? m.lbr_from[i] : 0; }
uint64_t pmu_model_lbr_to(unsigned i) { return i < MODEL_LBR_MAX ? m.lbr_to[i] : 0; }
unsigned pmu_model_lbr_tos(void) { return m.lbr_tos; }

void pmu_model_retire(uint64_t insns, int cpl)
{
	pmu_model_count(MODEL_EV_INST_RETIRED, 0, insns, cpl);
	if (m.pmi_late) {
		m.pmi_late = insns >= m.pmi_late ? 0 : m.pmi_late - insns;
		if (!m.pmi_late)
			pmi_lvt();
	}
}

uint64_t hw_retire(uint64_t insns)
{
	ensure_init();
	pmu_model_retire(insns, 0);
	return insns;	/* "ticks": one an instruction */
}

/* An uncore PMI request reaching this core (tests/host/uncore_model.c): IA32_PERF_GLOBAL_STATUS
 * Ovf_Uncore (bit 61, version 3+) and a PMI through the LVTPC as for a core counter. */
void pmu_model_uncore_pmi(void)
{
	ensure_init();
	if (m.version >= 3)
		m.global_status |= GLOBAL_STATUS_UNCORE_OVF;
	pmi_request();
}
