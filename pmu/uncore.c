/* SPDX-License-Identifier: MIT */
/* Uncore PMU discovery and programming (Skylake client, Nehalem), through arch/x86/hw.h only. */
#include "pmu/uncore.h"
#include "arch/x86/hw.h"
#include "arch/x86/msr.h"
#include "arch/x86/pci.h"
#include "arch/x86/trap.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "pmu/counter.h"

struct uncore_caps uncore;

/* Writable bits of each register (seed 001 Tables 2-2..2-8; SDM 18.8.2 Figures for Nehalem). */
#define SKL_GLOBAL_CTRL_VALID	(UNC_GLOBAL_CTRL_PMI_SEL_CORE | UNC_GLOBAL_CTRL_EN | \
				 UNC_GLOBAL_CTRL_WAKE_ON_PMI | UNC_GLOBAL_CTRL_FRZ_ON_PMI)
#define SKL_STATUS_VALID	(UNC_GLOBAL_STATUS_FIXED_OVF | UNC_GLOBAL_STATUS_ARB_OVF | \
				 UNC_GLOBAL_STATUS_CBO_OVF)
#define SKL_FIXED_CTRL_VALID	(UNC_FIXED_CTRL_OVF_EN | UNC_FIXED_CTRL_CNT_EN)
#define SKL_EVTSEL_VALID	(UNC_EVTSEL_EVT_SEL | UNC_EVTSEL_UMASK | UNC_EVTSEL_E | \
				 UNC_EVTSEL_OVF_EN | UNC_EVTSEL_EN | UNC_EVTSEL_INV | UNC_EVTSEL_THR)
#define NHM_GLOBAL_CTRL_VALID	(UNCORE_GLOBAL_CTRL_EN_PC | UNCORE_GLOBAL_CTRL_EN_FC0 | \
				 UNCORE_GLOBAL_CTRL_EN_PMI_CORE | UNCORE_GLOBAL_CTRL_PMI_FRZ)
#define NHM_STATUS_VALID	(UNCORE_GLOBAL_STATUS_OVF_PC | UNCORE_GLOBAL_STATUS_OVF_FC0 | \
				 UNCORE_GLOBAL_STATUS_OVF_PMI | UNCORE_GLOBAL_STATUS_CHG)
#define NHM_FIXED_CTRL_VALID	(UNCORE_FIXED_CTR_CTRL_EN | UNCORE_FIXED_CTR_CTRL_PMI)
#define NHM_EVTSEL_VALID	(UNCORE_EVTSEL_EVENT | UNCORE_EVTSEL_UMASK | \
				 UNCORE_EVTSEL_OCC_CTR_RST | UNCORE_EVTSEL_EDGE | UNCORE_EVTSEL_PMI | \
				 UNCORE_EVTSEL_EN | UNCORE_EVTSEL_INV | UNCORE_EVTSEL_CMASK)
#define FIELD(mask, v)		(((uint64_t)(v) << __builtin_ctzll(mask)) & (mask))

/* Registers that exist on no such uncore: under a hypervisor they must fault as well, or a
 * read proves nothing (SDM 18.8.2: eight selects). On a Skylake client, the select of the
 * first CBo this part does not have (skl_canary()). */
#define NHM_CANARY_MSR		(MSR_UNCORE_PERFEVTSEL0 + UNC_NHM_CTRS)

/* ---- Pure ---- */

enum uncore_kind uncore_kind_from_model(enum cpu_vendor v, uint32_t family, uint32_t model)
{
	if (v != VENDOR_INTEL || family != 6)
		return UNCORE_NONE;
	switch (model) {
	case 0x4e: case 0x5e:		/* Skylake client (U/Y, S/H) */
	case 0x8e: case 0x9e:		/* Kaby Lake, Coffee Lake, Whiskey/Amber Lake */
	case 0xa5: case 0xa6:		/* Comet Lake */
		return UNCORE_SKL;
	case 0x1a: case 0x1e:		/* Nehalem EP/Bloomfield, Lynnfield/Clarksfield */
		return UNCORE_NHM;
	default:
		return UNCORE_NONE;
	}
}

const char *uncore_kind_name(enum uncore_kind k)
{
	switch (k) {
	case UNCORE_SKL: return "Skylake client (seed 001)";
	case UNCORE_NHM: return "Nehalem (seed 000)";
	default: return "none";
	}
}

unsigned uncore_skl_cbo_count(uint64_t v, char *why, size_t len)
{
	uint64_t banks = v & UNC_CBO_CONFIG_NO_CBO_BANKS;

	if (v & ~UNC_CBO_CONFIG_NO_CBO_BANKS) {
		pmu_error(why, len, "MSR_UNC_CBO_CONFIG (396H) = 0x%llx: reserved bits 63:4 set",
		    (unsigned long long)v);
		return 0;
	}
	/* Seed 001 2.4.1: "read this register and subtract one". */
	if (banks < 2) {
		pmu_error(why, len, "MSR_UNC_CBO_CONFIG (396H) = 0x%llx: NO_CBO_BANKS %llu gives %lld CBos "
		    "(seed 001 2.4.1: the field minus one), not at least 1", (unsigned long long)v,
		    (unsigned long long)banks, (long long)banks - 1);
		return 0;
	}
	/* A part with more (Comet Lake, 10 cores) has them: only the first 8 have known MSRs. */
	return banks - 1 > UNC_SKL_MAX_CBO ? UNC_SKL_MAX_CBO : (unsigned)(banks - 1);
}

/* CBo n's select x and counter x: 700H + 10H n (+6 for the counter), the 8th at 0F70H. */
static void cbo_msrs(unsigned n, unsigned x, uint32_t *sel, uint32_t *ctr)
{
	if (n == 7) {
		*sel = MSR_CFL_UNC_CBO_7_PERFEVTSEL0 + x;
		*ctr = MSR_CFL_UNC_CBO_7_PER_CTR0 + x;
	} else {
		*sel = MSR_UNC_CBO_0_PERFEVTSEL0 + UNC_CBO_MSR_STRIDE * n + x;
		*ctr = MSR_UNC_CBO_0_PERFCTR0 + UNC_CBO_MSR_STRIDE * n + x;
	}
}

/*
 * A CBo select this part lacks: the fifth's (740H) where it reports four or fewer, as on
 * every 6th-generation part (a part that reports one CBo too few then still has its
 * uncore checked, and fails them), else the first beyond its count; 0 with eight CBos
 * (none is left to probe).
 */
static uint32_t skl_canary(unsigned ncbo)
{
	uint32_t sel = 0, ctr;

	if (ncbo < 4)
		ncbo = 4;
	if (ncbo < UNC_SKL_MAX_CBO)
		cbo_msrs(ncbo, 0, &sel, &ctr);
	return sel;
}

uint64_t uncore_mchbar_base(uint64_t reg)
{
	return reg & MCHBAR_BASE;
}

uint64_t uncore_mchbar_base_seed(uint64_t reg)
{
	return reg & MCHBAR_BASE_SEED001;
}

uint64_t uncore_delta(uint64_t start, uint64_t end, unsigned width)
{
	return (end - start) & (width >= 64 ? ~0ULL : (1ULL << width) - 1);
}

uint32_t uncore_imc_offset(enum uncore_imc_ctr c)
{
	static const uint32_t off[UNC_IMC_NUM] = { 0x5040, 0x5044, 0x5048, 0x5050, 0x5054 };

	return (unsigned)c < UNC_IMC_NUM ? off[c] : 0;
}

const char *uncore_imc_name(enum uncore_imc_ctr c)
{
	static const char *const n[UNC_IMC_NUM] = { "DRAM_GT_REQUESTS", "DRAM_IA_REQUESTS",
		"DRAM_IO_REQUESTS", "DRAM_DATA_READS", "DRAM_DATA_WRITES" };

	return (unsigned)c < UNC_IMC_NUM ? n[c] : "?";
}

unsigned uncore_event_counters(enum uncore_kind k, enum uncore_box box, uint8_t event,
			       uint8_t umask)
{
	(void)umask;
	/* Seed 001 Table 3-2: UNC_ARB_TRK_OCCUPANCY.ALL and .CYCLES_WITH_ANY_REQUEST (80H/01H)
	 * count on ARB counter 0 only; every other event of Tables 3-1 and 3-2 on 0 and 1. */
	if (k == UNCORE_SKL && box == UNC_BOX_ARB && event == UNC_ARB_TRK_OCCUPANCY)
		return 1U << 0;
	if (k == UNCORE_SKL)
		return (1U << UNC_SKL_BOX_CTRS) - 1;
	return (1U << UNC_NHM_CTRS) - 1;
}

int uncore_evtsel_encode(enum uncore_kind k, const struct uncore_evtsel *e, uint64_t *sel,
			 char *err, size_t errlen)
{
	uint64_t v;

	if (k == UNCORE_SKL) {
		if (e->thr > (UNC_EVTSEL_THR >> 24))
			return pmu_error(err, errlen, "THR %u does not fit bits 28:24 (seed 001 Table 2-7)",
				   e->thr);
		if (e->occ_rst)
			return pmu_error(err, errlen, "OCC_CTR_RST is Nehalem's; Skylake's bit 17 is reserved");
		v = FIELD(UNC_EVTSEL_EVT_SEL, e->event) | FIELD(UNC_EVTSEL_UMASK, e->umask) |
		    FIELD(UNC_EVTSEL_THR, e->thr) | (e->inv ? UNC_EVTSEL_INV : 0) |
		    (e->edge ? UNC_EVTSEL_E : 0) | (e->ovf_en ? UNC_EVTSEL_OVF_EN : 0) |
		    (e->en ? UNC_EVTSEL_EN : 0);
	} else if (k == UNCORE_NHM) {
		v = FIELD(UNCORE_EVTSEL_EVENT, e->event) | FIELD(UNCORE_EVTSEL_UMASK, e->umask) |
		    FIELD(UNCORE_EVTSEL_CMASK, e->thr) | (e->inv ? UNCORE_EVTSEL_INV : 0) |
		    (e->edge ? UNCORE_EVTSEL_EDGE : 0) | (e->ovf_en ? UNCORE_EVTSEL_PMI : 0) |
		    (e->en ? UNCORE_EVTSEL_EN : 0) | (e->occ_rst ? UNCORE_EVTSEL_OCC_CTR_RST : 0);
	} else {
		return pmu_error(err, errlen, "no uncore");
	}
	*sel = v;
	return 0;
}

unsigned uncore_width(enum uncore_kind k, enum uncore_box box)
{
	if (k == UNCORE_SKL)
		return box == UNC_BOX_FIXED ? UNC_SKL_FIXED_WIDTH : UNC_SKL_CTR_WIDTH;
	return k == UNCORE_NHM ? UNC_NHM_WIDTH : 0;
}

uint64_t uncore_status_bit(enum uncore_kind k, struct uncore_ctr c)
{
	if (k == UNCORE_SKL)
		return c.box == UNC_BOX_FIXED ? UNC_GLOBAL_STATUS_FIXED_OVF :
		       c.box == UNC_BOX_ARB ? UNC_GLOBAL_STATUS_ARB_OVF : UNC_GLOBAL_STATUS_CBO_OVF;
	if (k == UNCORE_NHM)
		return c.box == UNC_BOX_FIXED ? UNCORE_GLOBAL_STATUS_OVF_FC0 : BIT_ULL(c.idx);
	return 0;
}

uint64_t uncore_status_bits(enum uncore_kind k)
{
	return k == UNCORE_SKL ? SKL_STATUS_VALID : k == UNCORE_NHM ? NHM_STATUS_VALID : 0;
}

uint32_t uncore_global_ctrl_msr(enum uncore_kind k)
{
	return k == UNCORE_SKL ? MSR_UNC_PERF_GLOBAL_CTRL : MSR_UNCORE_PERF_GLOBAL_CTRL;
}

uint64_t uncore_global_value(enum uncore_kind k, const struct uncore_ctr *ctrs, unsigned n,
			     uint32_t pmi_cores, bool frz)
{
	uint64_t v = 0;

	if (k == UNCORE_SKL) {
		/* Seed 001 Table 2-2: EN enables every uncore counter locally enabled. */
		v = UNC_GLOBAL_CTRL_EN | FIELD(UNC_GLOBAL_CTRL_PMI_SEL_CORE, pmi_cores) |
		    (frz ? UNC_GLOBAL_CTRL_FRZ_ON_PMI : 0);
	} else if (k == UNCORE_NHM) {
		for (unsigned i = 0; i < n; i++)
			v |= ctrs[i].box == UNC_BOX_FIXED ? UNCORE_GLOBAL_CTRL_EN_FC0 :
			     BIT_ULL(ctrs[i].idx & 7);
		v |= FIELD(UNCORE_GLOBAL_CTRL_EN_PMI_CORE, pmi_cores) |
		     (frz ? UNCORE_GLOBAL_CTRL_PMI_FRZ : 0);
	}
	return v;
}

/* ---- Discovery ---- */

static int rd(uint32_t msr, uint64_t *v)
{
	return hw_rdmsr(msr, v);
}

static void skl_discover(struct uncore_caps *u, const struct pmu_caps *p)
{
	uint64_t v;
	int r;

	if ((r = rd(MSR_UNC_CBO_CONFIG, &u->cbo_config))) {
		fmt_snprintf(u->why, sizeof(u->why), "RDMSR MSR_UNC_CBO_CONFIG (396H) faulted (vector "
			     "%d): no uncore PMU at the seed 001 addresses", r);
		return;
	}
	if (!(u->num_cbo = uncore_skl_cbo_count(u->cbo_config, u->why, sizeof(u->why))))
		return;
	u->cbo_found = (unsigned)((u->cbo_config & UNC_CBO_CONFIG_NO_CBO_BANKS) - 1);
	if ((r = rd(MSR_UNC_PERF_GLOBAL_CTRL, &v))) {
		fmt_snprintf(u->why, sizeof(u->why), "RDMSR MSR_UNC_PERF_GLOBAL_CTRL (E01H) faulted "
			     "(vector %d)", r);
		return;
	}
	if (v & ~SKL_GLOBAL_CTRL_VALID) {
		fmt_snprintf(u->why, sizeof(u->why), "MSR_UNC_PERF_GLOBAL_CTRL (E01H) = 0x%llx: "
			     "reserved bits set (seed 001 Table 2-2)", (unsigned long long)v);
		return;
	}
	u->global_ctrl_found = v;
	if (p->hypervisor && !skl_canary(u->num_cbo)) {
		fmt_snprintf(u->why, sizeof(u->why), "under a hypervisor, with %u CBos no absent CBo's "
			     "select is left to probe: its MSR reads cannot show an uncore", u->cbo_found);
		return;
	}
	if (p->hypervisor && !rd(skl_canary(u->num_cbo), &v)) {
		fmt_snprintf(u->why, sizeof(u->why), "under a hypervisor, MSR %XH (CBo %u's select, "
			     "absent with %u CBos) reads 0x%llx without #GP: its MSR reads cannot show an "
			     "uncore", skl_canary(u->num_cbo), u->num_cbo < 4 ? 4 : u->num_cbo,
			     u->num_cbo, (unsigned long long)v);
		return;
	}
	u->present = true;
}

static void nhm_discover(struct uncore_caps *u, const struct pmu_caps *p)
{
	static const struct { uint32_t msr; uint64_t valid; const char *name; } regs[] = {
		{ MSR_UNCORE_PERF_GLOBAL_CTRL, NHM_GLOBAL_CTRL_VALID, "MSR_UNCORE_PERF_GLOBAL_CTRL" },
		{ MSR_UNCORE_PERF_GLOBAL_STATUS, NHM_STATUS_VALID, "MSR_UNCORE_PERF_GLOBAL_STATUS" },
		{ MSR_UNCORE_FIXED_CTR_CTRL, NHM_FIXED_CTRL_VALID, "MSR_UNCORE_FIXED_CTR_CTRL" },
	};
	uint64_t v;
	int r;

	for (unsigned i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		if ((r = rd(regs[i].msr, &v))) {
			fmt_snprintf(u->why, sizeof(u->why), "RDMSR %s (%XH) faulted (vector %d)",
				     regs[i].name, regs[i].msr, r);
			return;
		}
		if (v & ~regs[i].valid) {
			fmt_snprintf(u->why, sizeof(u->why), "%s (%XH) = 0x%llx: reserved bits set "
				     "(SDM 18.8.2)", regs[i].name, regs[i].msr, (unsigned long long)v);
			return;
		}
		if (i == 0)
			u->global_ctrl_found = v;
	}
	if (p->hypervisor && !rd(NHM_CANARY_MSR, &v)) {
		fmt_snprintf(u->why, sizeof(u->why), "under a hypervisor, MSR %XH (a ninth uncore "
			     "select, which no part has) reads 0x%llx without #GP: its MSR reads cannot "
			     "show an uncore", NHM_CANARY_MSR, (unsigned long long)v);
		return;
	}
	u->present = true;
}

static void imc_discover(struct uncore_caps *u)
{
	uint32_t id = hw_pci_read32(0, 0, 0, PCI_VENDOR_ID);

	u->host_vendor = (uint16_t)id;
	u->host_device = (uint16_t)(id >> 16);
	if (u->host_vendor != PCI_VENDOR_INTEL) {
		fmt_snprintf(u->imc_why, sizeof(u->imc_why), "host bridge 0:0.0 vendor %04x, not Intel "
			     "(%04x): no MCHBAR", u->host_vendor, PCI_VENDOR_INTEL);
		return;
	}
	u->mchbar_reg = hw_pci_read32(0, 0, 0, PCI_INTEL_MCHBAR_LO) |
			(uint64_t)hw_pci_read32(0, 0, 0, PCI_INTEL_MCHBAR_HI) << 32;
	u->mchbar = uncore_mchbar_base(u->mchbar_reg);
	u->mchbar_seed = uncore_mchbar_base_seed(u->mchbar_reg);
	u->masks_differ = u->mchbar != u->mchbar_seed;
	if (!(u->mchbar_reg & MCHBAR_MCHBAREN)) {
		fmt_snprintf(u->imc_why, sizeof(u->imc_why), "MCHBAR (0:0.0 48H, host bridge %04x:%04x) "
			     "= 0x%llx: MCHBAREN[0] clear, the IMC counters are not mapped",
			     u->host_vendor, u->host_device, (unsigned long long)u->mchbar_reg);
		return;
	}
	if (!u->mchbar) {
		fmt_snprintf(u->imc_why, sizeof(u->imc_why), "MCHBAR (0:0.0 48H) = 0x%llx: base 0",
			     (unsigned long long)u->mchbar_reg);
		return;
	}
	u->imc = true;
}

void uncore_discover(struct uncore_caps *u, const struct pmu_caps *p)
{
	memset(u, 0, sizeof(*u));
	u->probed = true;
	u->kind = uncore_kind_from_model(p->vendor, p->family, p->model);
	str_lcpy(u->imc_why, "the IMC counters are Skylake-client's (seed 001 3.3)", sizeof(u->imc_why));
	if (u->kind == UNCORE_NONE) {
		fmt_snprintf(u->why, sizeof(u->why), "no uncore PMU pmuboot knows on %s family 0x%x "
			     "model 0x%x (Skylake client 4EH/5EH/8EH/9EH/A5H/A6H and Nehalem 1AH/1EH "
			     "only)", p->vendor == VENDOR_INTEL ? "Intel" : p->vendor == VENDOR_AMD ?
			     "AMD" : p->vendor == VENDOR_HYGON ? "Hygon" : "this vendor's",
			     p->family, p->model);
		return;
	}
	if (u->kind == UNCORE_SKL)
		imc_discover(u);
	/* Every part with either uncore has an architectural core PMU (version 3 on Nehalem,
	 * 4 on Skylake), and the uncore's PMIs arrive through it; a CPUID without one is a
	 * hypervisor that hides the PMU, and the uncore with it. */
	if (p->version == 0) {
		fmt_snprintf(u->why, sizeof(u->why), "%s model 0x%x without an architectural core PMU "
			     "(CPUID.0AH:EAX[7:0]=0%s): the uncore MSRs are not read",
			     u->kind == UNCORE_SKL ? "Skylake-client" : "Nehalem", p->model,
			     p->hypervisor ? ", the hypervisor hides the PMU" :
			     "; every such part has one");
		return;
	}
	if (u->kind == UNCORE_SKL)
		skl_discover(u, p);
	else
		nhm_discover(u, p);
}

void uncore_probe(void)
{
	uncore_discover(&uncore, &pmu);
}

void uncore_caps_describe(const struct uncore_caps *u, void (*print)(const char *line))
{
	char b[300];

	if (!u->probed)
		return;
	if (u->kind == UNCORE_NONE) {
		fmt_snprintf(b, sizeof(b), "none: %s", u->why);
		print(b);
		return;
	}
	if (u->present && u->kind == UNCORE_SKL)
		fmt_snprintf(b, sizeof(b), "%s: %u CBos%s (MSR_UNC_CBO_CONFIG 0x%llx), ARB, fixed UCLK; "
			     "global control found 0x%llx", uncore_kind_name(u->kind), u->cbo_found,
			     u->cbo_found > u->num_cbo ? ", the first 8 with known MSRs used" : "",
			     (unsigned long long)u->cbo_config, (unsigned long long)u->global_ctrl_found);
	else if (u->present)
		fmt_snprintf(b, sizeof(b), "%s: 8 counters and the fixed UCLK counter, 48 bits; global "
			     "control found 0x%llx", uncore_kind_name(u->kind),
			     (unsigned long long)u->global_ctrl_found);
	else
		fmt_snprintf(b, sizeof(b), "%s expected by model, absent: %s", uncore_kind_name(u->kind),
			     u->why);
	print(b);
	if (u->kind != UNCORE_SKL)
		return;
	if (u->imc)
		fmt_snprintf(b, sizeof(b), "IMC: MCHBAR 0x%llx (0:0.0 48H = 0x%llx, bits 38:15, host "
			     "bridge %04x:%04x)%s", (unsigned long long)u->mchbar,
			     (unsigned long long)u->mchbar_reg, u->host_vendor, u->host_device,
			     u->masks_differ ? "; seed 001's mask (bits 34:15) would give a different "
			     "base: the datasheet's is used" : "; seed 001's mask gives the same base");
	else
		fmt_snprintf(b, sizeof(b), "IMC: unavailable: %s", u->imc_why);
	print(b);
	if (u->imc && u->masks_differ) {
		fmt_snprintf(b, sizeof(b), "IMC: seed 001 base 0x%llx differs from the datasheet's 0x%llx",
			     (unsigned long long)u->mchbar_seed, (unsigned long long)u->mchbar);
		print(b);
	}
}

const char *uncore_unavailable_reason(const struct uncore_caps *u, enum uncore_kind want)
{
	static char why[260];

	if (!u->probed)
		return "the uncore was not probed";
	if (u->kind != want) {
		fmt_snprintf(why, sizeof(why), "not a %s uncore: %s", uncore_kind_name(want),
			     u->kind == UNCORE_NONE ? u->why : uncore_kind_name(u->kind));
		return why;
	}
	if (!u->present)
		return u->why;
	return NULL;
}

const char *uncore_imc_unavailable_reason(const struct uncore_caps *u)
{
	if (!u->probed)
		return "the uncore was not probed";
	if (u->kind != UNCORE_SKL)
		return uncore_unavailable_reason(u, UNCORE_SKL);	/* names what this is */
	return u->imc ? NULL : u->imc_why;
}

/* ---- Programming ---- */

int uncore_ctr_msrs(const struct uncore_caps *u, struct uncore_ctr c, uint32_t *sel,
		    uint32_t *ctr, char *err, size_t errlen)
{
	if (!u->present)
		return pmu_error(err, errlen, "no uncore: %s", u->why);
	if (u->kind == UNCORE_SKL) {
		switch (c.box) {
		case UNC_BOX_FIXED:
			*sel = MSR_UNC_PERF_FIXED_CTRL;
			*ctr = MSR_UNC_PERF_FIXED_CTR;
			return 0;
		case UNC_BOX_CBO:
			if (c.unit >= u->num_cbo || c.idx >= UNC_SKL_BOX_CTRS)
				return pmu_error(err, errlen, "CBo %u counter %u does not exist (%u CBos, %u "
					   "counters each)", c.unit, c.idx, u->num_cbo, UNC_SKL_BOX_CTRS);
			cbo_msrs(c.unit, c.idx, sel, ctr);
			return 0;
		case UNC_BOX_ARB:
			if (c.idx >= UNC_SKL_BOX_CTRS)
				return pmu_error(err, errlen, "ARB counter %u does not exist (2)", c.idx);
			*sel = MSR_UNC_ARB_PERFEVTSEL0 + c.idx;
			*ctr = MSR_UNC_ARB_PERFCTR0 + c.idx;
			return 0;
		default:
			return pmu_error(err, errlen, "a Nehalem counter on a Skylake uncore");
		}
	}
	if (c.box == UNC_BOX_FIXED) {
		*sel = MSR_UNCORE_FIXED_CTR_CTRL;
		*ctr = MSR_UNCORE_FIXED_CTR0;
		return 0;
	}
	if (c.box != UNC_BOX_NHM || c.idx >= UNC_NHM_CTRS)
		return pmu_error(err, errlen, "Nehalem uncore counter %u does not exist (8)", c.idx);
	*sel = MSR_UNCORE_PERFEVTSEL0 + c.idx;
	*ctr = MSR_UNCORE_PMC0 + c.idx;
	return 0;
}

static uint64_t width_mask(unsigned w)
{
	return w >= 64 ? ~0ULL : (1ULL << w) - 1;
}

static const char *box_name(enum uncore_box b)
{
	return b == UNC_BOX_CBO ? "CBo" : b == UNC_BOX_ARB ? "ARB" : b == UNC_BOX_FIXED ? "fixed" :
	       "uncore";
}

int uncore_program(const struct uncore_caps *u, struct uncore_ctr c, const struct uncore_evtsel *e,
		   uint64_t value, char *err, size_t errlen)
{
	uint32_t sel_msr, ctr_msr;
	uint64_t sel;
	unsigned allowed;
	int r;

	if (c.box == UNC_BOX_FIXED)
		return pmu_error(err, errlen, "the fixed counter has no event select: uncore_fixed_program");
	if ((r = uncore_ctr_msrs(u, c, &sel_msr, &ctr_msr, err, errlen)))
		return r;
	allowed = uncore_event_counters(u->kind, c.box, e->event, e->umask);
	if (!(allowed & (1U << c.idx)))
		return pmu_error(err, errlen, "event %02XH/%02XH may not use %s counter %u (valid counters "
			   "mask 0x%x; seed 001 Table 3-2: UNC_ARB_TRK_OCCUPANCY counts on ARB "
			   "counter 0 only)", e->event, e->umask, box_name(c.box), c.idx, allowed);
	if (value & ~width_mask(uncore_width(u->kind, c.box)))
		return pmu_error(err, errlen, "value 0x%llx exceeds the %u-bit %s counter",
			   (unsigned long long)value, uncore_width(u->kind, c.box), box_name(c.box));
	if ((r = uncore_evtsel_encode(u->kind, e, &sel, err, errlen)))
		return r;
	/* As for core counters: the select disabled before its counter is written. */
	if ((r = hw_wrmsr(sel_msr, sel & ~UNC_EVTSEL_EN)) || (r = hw_wrmsr(ctr_msr, value)))
		return r;
	return sel & UNC_EVTSEL_EN ? hw_wrmsr(sel_msr, sel) : 0;
}

int uncore_nhm_match_write(const struct uncore_caps *u, uint32_t msr, uint64_t v, char *err,
			   size_t errlen)
{
	int r;

	if (!u->present || u->kind != UNCORE_NHM)
		return pmu_error(err, errlen, "MSR 0x%x is a Nehalem uncore match register; no Nehalem "
			   "uncore here", msr);
	if (msr != MSR_GQ_SNOOP_MESF && msr != MSR_UNCORE_ADDR_OPCODE_MATCH)
		return pmu_error(err, errlen, "MSR 0x%x is no Nehalem uncore match register (301H, "
			   "396H)", msr);
	if ((r = hw_wrmsr(msr, v)))
		return pmu_error(err, errlen, "WRMSR 0x%x <- 0x%llx faulted (vector %d)", msr,
				 (unsigned long long)v, r);
	return 0;
}

int uncore_fixed_program(const struct uncore_caps *u, bool en, bool ovf_en, uint64_t value,
			 char *err, size_t errlen)
{
	struct uncore_ctr c = { UNC_BOX_FIXED, 0, 0 };
	uint32_t ctl, ctr;
	uint64_t v;
	int r;

	if ((r = uncore_ctr_msrs(u, c, &ctl, &ctr, err, errlen)))
		return r;
	if (value & ~width_mask(uncore_width(u->kind, UNC_BOX_FIXED)))
		return pmu_error(err, errlen, "value 0x%llx exceeds the %u-bit fixed counter",
			   (unsigned long long)value, uncore_width(u->kind, UNC_BOX_FIXED));
	if (u->kind == UNCORE_SKL)
		v = (en ? UNC_FIXED_CTRL_CNT_EN : 0) | (ovf_en ? UNC_FIXED_CTRL_OVF_EN : 0);
	else
		v = (en ? UNCORE_FIXED_CTR_CTRL_EN : 0) | (ovf_en ? UNCORE_FIXED_CTR_CTRL_PMI : 0);
	if ((r = hw_wrmsr(ctl, 0)) || (r = hw_wrmsr(ctr, value)))
		return r;
	return v ? hw_wrmsr(ctl, v) : 0;
}

int uncore_read(const struct uncore_caps *u, struct uncore_ctr c, uint64_t *v)
{
	uint32_t sel, ctr;
	int r = uncore_ctr_msrs(u, c, &sel, &ctr, NULL, 0);

	return r ? r : hw_rdmsr(ctr, v);
}

int uncore_write(const struct uncore_caps *u, struct uncore_ctr c, uint64_t v)
{
	uint32_t sel, ctr;
	int r = uncore_ctr_msrs(u, c, &sel, &ctr, NULL, 0);

	return r ? r : hw_wrmsr(ctr, v);
}

int uncore_cbo_sum(const struct uncore_caps *u, unsigned idx, uint64_t *sum)
{
	uint64_t v;
	int r;

	*sum = 0;
	if (!u->present || u->kind != UNCORE_SKL)
		return PMU_EARG;
	for (unsigned i = 0; i < u->num_cbo; i++) {
		if ((r = uncore_read(u, (struct uncore_ctr){ UNC_BOX_CBO, i, idx }, &v)))
			return r;
		*sum += v;
	}
	return 0;
}

static uint64_t global_valid(enum uncore_kind k)
{
	return k == UNCORE_SKL ? SKL_GLOBAL_CTRL_VALID : NHM_GLOBAL_CTRL_VALID;
}

int uncore_global_ctrl_write(const struct uncore_caps *u, uint64_t v, char *err, size_t errlen)
{
	if (!u->present)
		return pmu_error(err, errlen, "no uncore: %s", u->why);
	if (v & ~global_valid(u->kind))
		return pmu_error(err, errlen, "uncore global control 0x%llx sets reserved bits (valid 0x%llx)",
			   (unsigned long long)v, (unsigned long long)global_valid(u->kind));
	return hw_wrmsr(uncore_global_ctrl_msr(u->kind), v);
}

int uncore_global_ctrl_read(const struct uncore_caps *u, uint64_t *v)
{
	return u->present ? hw_rdmsr(uncore_global_ctrl_msr(u->kind), v) : PMU_EARG;
}

static uint32_t status_msr(enum uncore_kind k)
{
	return k == UNCORE_SKL ? MSR_UNC_PERF_GLOBAL_STATUS : MSR_UNCORE_PERF_GLOBAL_STATUS;
}

int uncore_global_status(const struct uncore_caps *u, uint64_t *v)
{
	return u->present ? hw_rdmsr(status_msr(u->kind), v) : PMU_EARG;
}

int uncore_global_status_clear(const struct uncore_caps *u, uint64_t bits)
{
	bits &= uncore_status_bits(u->kind);
	if (!u->present)
		return PMU_EARG;
	if (!bits)
		return 0;
	return hw_wrmsr(u->kind == UNCORE_SKL ? MSR_UNC_PERF_GLOBAL_STATUS :
			MSR_UNCORE_PERF_GLOBAL_OVF_CTRL, bits);
}

int uncore_global_status_write(const struct uncore_caps *u, uint64_t v)
{
	return u->present ? hw_wrmsr(status_msr(u->kind), v) : PMU_EARG;
}

int uncore_imc_read(const struct uncore_caps *u, enum uncore_imc_ctr c, uint32_t *v)
{
	if (!u->imc || (unsigned)c >= UNC_IMC_NUM) {
		*v = 0;
		return PMU_EARG;
	}
	return hw_mmio_read32(u->mchbar + uncore_imc_offset(c), v);
}

/* ---- Save, restore, reset ---- */

/* Every programmable counter of the uncore, in save order. */
static unsigned all_ctrs(const struct uncore_caps *u, struct uncore_ctr *out)
{
	unsigned n = 0;

	if (u->kind == UNCORE_SKL) {
		for (unsigned b = 0; b < u->num_cbo; b++)
			for (unsigned i = 0; i < UNC_SKL_BOX_CTRS; i++)
				out[n++] = (struct uncore_ctr){ UNC_BOX_CBO, b, i };
		for (unsigned i = 0; i < UNC_SKL_BOX_CTRS; i++)
			out[n++] = (struct uncore_ctr){ UNC_BOX_ARB, 0, i };
	} else {
		for (unsigned i = 0; i < UNC_NHM_CTRS; i++)
			out[n++] = (struct uncore_ctr){ UNC_BOX_NHM, 0, i };
	}
	return n;
}

#define MAX_CTRS	(sizeof(((struct uncore_state *)0)->sel) / sizeof(uint64_t))

int uncore_save(const struct uncore_caps *u, struct uncore_state *s)
{
	struct uncore_ctr c[MAX_CTRS];
	uint32_t sel, ctr;
	unsigned n;
	int r = 0;

	*s = (struct uncore_state){ 0 };
	if (!u->present)
		return PMU_EARG;
	n = all_ctrs(u, c);
	r |= hw_rdmsr(uncore_global_ctrl_msr(u->kind), &s->global_ctrl);
	uncore_ctr_msrs(u, (struct uncore_ctr){ UNC_BOX_FIXED, 0, 0 }, &sel, &ctr, NULL, 0);
	r |= hw_rdmsr(sel, &s->fixed_ctrl);
	r |= hw_rdmsr(ctr, &s->fixed);
	for (unsigned i = 0; i < n; i++) {
		uncore_ctr_msrs(u, c[i], &sel, &ctr, NULL, 0);
		r |= hw_rdmsr(sel, &s->sel[i]);
		r |= hw_rdmsr(ctr, &s->ctr[i]);
	}
	s->saved = r == 0;
	return r ? X86_TRAP_GP : 0;
}

/* Stops everything, then writes selects (EN clear), counters, selects, fixed control. */
static int load(const struct uncore_caps *u, const struct uncore_state *s)
{
	struct uncore_ctr c[MAX_CTRS];
	unsigned n = all_ctrs(u, c);
	uint32_t sel, ctr;
	int r = 0;

	r |= hw_wrmsr(uncore_global_ctrl_msr(u->kind), 0);
	uncore_ctr_msrs(u, (struct uncore_ctr){ UNC_BOX_FIXED, 0, 0 }, &sel, &ctr, NULL, 0);
	r |= hw_wrmsr(sel, 0);
	r |= hw_wrmsr(ctr, s->fixed & width_mask(uncore_width(u->kind, UNC_BOX_FIXED)));
	for (unsigned i = 0; i < n; i++) {
		uint64_t en = u->kind == UNCORE_SKL ? UNC_EVTSEL_EN : UNCORE_EVTSEL_EN;
		uint64_t valid = u->kind == UNCORE_SKL ? SKL_EVTSEL_VALID :
				 NHM_EVTSEL_VALID & ~UNCORE_EVTSEL_OCC_CTR_RST;

		uncore_ctr_msrs(u, c[i], &sel, &ctr, NULL, 0);
		r |= hw_wrmsr(sel, s->sel[i] & valid & ~en);
		r |= hw_wrmsr(ctr, s->ctr[i] & width_mask(uncore_width(u->kind, c[i].box)));
		if (s->sel[i] & en)
			r |= hw_wrmsr(sel, s->sel[i] & valid);
	}
	uncore_ctr_msrs(u, (struct uncore_ctr){ UNC_BOX_FIXED, 0, 0 }, &sel, &ctr, NULL, 0);
	if (s->fixed_ctrl)
		r |= hw_wrmsr(sel, s->fixed_ctrl & (u->kind == UNCORE_SKL ? SKL_FIXED_CTRL_VALID :
						    NHM_FIXED_CTRL_VALID));
	r |= uncore_global_status_clear(u, uncore_status_bits(u->kind)) > 0;
	if (s->global_ctrl)
		r |= hw_wrmsr(uncore_global_ctrl_msr(u->kind), s->global_ctrl & global_valid(u->kind));
	return r ? X86_TRAP_GP : 0;
}

int uncore_restore(const struct uncore_caps *u, const struct uncore_state *s)
{
	if (!u->present || !s->saved)
		return PMU_EARG;
	return load(u, s);
}

int uncore_reset(const struct uncore_caps *u)
{
	static const struct uncore_state zero;

	if (!u->present)
		return PMU_EARG;
	return load(u, &zero);
}

static struct uncore_state boot_state;
static bool claimed;

int uncore_claim(void)
{
	if (!uncore.present)
		return PMU_EARG;
	if (!claimed) {
		uncore_save(&uncore, &boot_state);
		claimed = true;
	}
	return 0;
}

void uncore_quiesce(void)
{
	if (claimed)
		uncore_reset(&uncore);
}

void uncore_boot_restore(void)
{
	if (claimed && boot_state.saved)
		uncore_restore(&uncore, &boot_state);
}
