/* SPDX-License-Identifier: MIT */
/* Last branch records: stack layout by model, record decode by format, filters, reads. */
#include "pmu/lbr.h"
#include "arch/x86/hw.h"
#include "arch/x86/msr.h"
#include "arch/x86/trap.h"
#include "pmu/counter.h"
#include "lib/fmt.h"
#include "lib/string.h"

/*
 * Model-specific stacks (SDM Vol. 3B 17.9 Core 2: 4 entries at 40H/60H; 17.10 Atom: 8 at
 * 40H/60H; 17.11 Silvermont/Airmont: 8 at 40H/60H with LBR_SELECT; 17.12 Goldmont and later
 * Atom: 32 at 680H/6C0H; 17.9/17.11-ish Nehalem through Broadwell: 16 at 680H/6C0H with
 * LBR_SELECT; 17.12 Skylake and later big cores: 32 at 680H/6C0H, LBR_INFO at DC0H; Knights
 * Landing/Mill: 8 at 680H/6C0H). Architectural LBR parts are found through CPUID instead.
 */
static const struct {
	enum pmu_uarch u;
	uint8_t depth;
	bool nhm_msrs;		/* 680H/6C0H rather than 40H/60H */
	bool select;		/* MSR_LBR_SELECT */
} lbr_models[] = {
	{ UARCH_CORE2, 4, false, false },
	{ UARCH_BONNELL, 8, false, false }, { UARCH_SALTWELL, 8, false, false },
	{ UARCH_SILVERMONT, 8, false, true }, { UARCH_AIRMONT, 8, false, true },
	{ UARCH_GOLDMONT, 32, true, true }, { UARCH_GOLDMONT_PLUS, 32, true, true },
	{ UARCH_TREMONT, 32, true, true },
	{ UARCH_NEHALEM, 16, true, true }, { UARCH_WESTMERE, 16, true, true },
	{ UARCH_SANDY_BRIDGE, 16, true, true }, { UARCH_IVY_BRIDGE, 16, true, true },
	{ UARCH_HASWELL, 16, true, true }, { UARCH_BROADWELL, 16, true, true },
	{ UARCH_SKYLAKE, 32, true, true }, { UARCH_SKYLAKE_X, 32, true, true },
	{ UARCH_KABY_LAKE, 32, true, true }, { UARCH_CANNON_LAKE, 32, true, true },
	{ UARCH_ICE_LAKE, 32, true, true }, { UARCH_ICE_LAKE_X, 32, true, true },
	{ UARCH_TIGER_LAKE, 32, true, true }, { UARCH_ROCKET_LAKE, 32, true, true },
	/* Knights Landing/Mill: the Sandy Bridge LBR_SELECT, and a mispredicted flag in
	 * FROM[63] although PERF_CAPABILITIES says LIP (Linux intel_pmu_lbr_init_knl). */
	{ UARCH_KNIGHTS_LANDING, 8, true, true }, { UARCH_KNIGHTS_MILL, 8, true, true },
};

void lbr_caps_decode(struct lbr_caps *l, enum pmu_uarch u, bool have_format, unsigned format,
		     const struct cpuid_regs *arch_leaf)
{
	memset(l, 0, sizeof(*l));
	l->format = format;
	if (arch_leaf) {
		uint32_t depths = ARCH_LBR_EAX_DEPTH_MASK(arch_leaf->eax);

		l->arch = true;
		l->present = depths != 0;
		l->arch_depths = depths;
		for (unsigned n = 0; n < 8; n++)
			if (depths & (1U << n))
				l->depth = 8 * (n + 1);	/* the deepest one offered */
		l->from = MSR_ARCH_LBR_FROM_0;
		l->to = MSR_ARCH_LBR_TO_0;
		l->info = MSR_ARCH_LBR_INFO_0;
		l->arch_lip = arch_leaf->eax & ARCH_LBR_EAX_LIP;
		l->arch_deep_c_reset = arch_leaf->eax & ARCH_LBR_EAX_DEEP_C_RESET;
		l->arch_cpl_filter = arch_leaf->ebx & ARCH_LBR_EBX_CPL_FILTER;
		l->arch_branch_filter = arch_leaf->ebx & ARCH_LBR_EBX_BRANCH_FILTER;
		l->arch_call_stack = arch_leaf->ebx & ARCH_LBR_EBX_CALL_STACK;
		l->has_mispred = arch_leaf->ecx & ARCH_LBR_ECX_MISPRED;
		l->has_cycles = arch_leaf->ecx & ARCH_LBR_ECX_TIMED;
		return;
	}
	if (!have_format)
		return;
	for (size_t i = 0; i < sizeof(lbr_models) / sizeof(lbr_models[0]); i++) {
		if (lbr_models[i].u != u)
			continue;
		l->present = true;
		l->depth = lbr_models[i].depth;
		l->from = lbr_models[i].nhm_msrs ? MSR_LBR_NHM_FROM : MSR_LBR_CORE_FROM;
		l->to = lbr_models[i].nhm_msrs ? MSR_LBR_NHM_TO : MSR_LBR_CORE_TO;
		l->has_select = lbr_models[i].select;
	}
	if (!l->present)
		return;
	if ((u == UARCH_KNIGHTS_LANDING || u == UARCH_KNIGHTS_MILL) && format == LBR_FORMAT_LIP)
		l->format = format = LBR_FORMAT_EIP_FLAGS;
	switch (format) {
	case LBR_FORMAT_EIP_FLAGS:
	case LBR_FORMAT_EIP_FLAGS2:
		l->has_mispred = true;
		break;
	case LBR_FORMAT_INFO:
	case LBR_FORMAT_INFO2:
		l->info = MSR_LBR_INFO_0;
		l->has_mispred = true;
		l->has_cycles = true;
		break;
	case LBR_FORMAT_TIME:
		l->has_mispred = true;
		l->has_cycles = true;
		break;
	case LBR_FORMAT_32:
	case LBR_FORMAT_LIP:
	case LBR_FORMAT_EIP:
		break;
	default:
		l->present = false;	/* a layout pmuboot does not know */
	}
}

const char *lbr_kind_name(enum lbr_kind k)
{
	static const char *const names[NR_LBR_KINDS] = {
		"jcc", "near_rel_jmp", "near_ind_jmp", "near_rel_call", "near_ind_call",
		"near_ret", "far",
	};

	return (unsigned)k < NR_LBR_KINDS ? names[k] : "?";
}

uint64_t lbr_select_value(const struct lbr_filter *f)
{
	static const uint64_t bit[NR_LBR_KINDS] = {
		[LBR_KIND_JCC] = LBR_SELECT_JCC,
		[LBR_KIND_REL_JMP] = LBR_SELECT_NEAR_REL_JMP,
		[LBR_KIND_IND_JMP] = LBR_SELECT_NEAR_IND_JMP,
		[LBR_KIND_REL_CALL] = LBR_SELECT_NEAR_REL_CALL,
		[LBR_KIND_IND_CALL] = LBR_SELECT_NEAR_IND_CALL,
		[LBR_KIND_RET] = LBR_SELECT_NEAR_RET,
		[LBR_KIND_FAR] = LBR_SELECT_FAR_BRANCH,
	};
	uint64_t v = 0;

	for (unsigned k = 0; k < NR_LBR_KINDS; k++)
		if (f->drop_kinds & (1U << k))
			v |= bit[k];
	if (f->drop_cpl0)
		v |= LBR_SELECT_CPL_EQ_0;
	if (f->drop_user)
		v |= LBR_SELECT_CPL_NEQ_0;
	return v;
}

uint64_t arch_lbr_ctl_value(const struct lbr_filter *f)
{
	static const uint64_t bit[NR_LBR_KINDS] = {
		[LBR_KIND_JCC] = ARCH_LBR_CTL_JCC,
		[LBR_KIND_REL_JMP] = ARCH_LBR_CTL_NEAR_REL_JMP,
		[LBR_KIND_IND_JMP] = ARCH_LBR_CTL_NEAR_IND_JMP,
		[LBR_KIND_REL_CALL] = ARCH_LBR_CTL_NEAR_REL_CALL,
		[LBR_KIND_IND_CALL] = ARCH_LBR_CTL_NEAR_IND_CALL,
		[LBR_KIND_RET] = ARCH_LBR_CTL_NEAR_RET,
		[LBR_KIND_FAR] = ARCH_LBR_CTL_OTHER_BRANCH,
	};
	uint64_t v = ARCH_LBR_CTL_LBREN;

	for (unsigned k = 0; k < NR_LBR_KINDS; k++)
		if (!(f->drop_kinds & (1U << k)))
			v |= bit[k];
	if (!f->drop_cpl0)
		v |= ARCH_LBR_CTL_OS;
	if (!f->drop_user)
		v |= ARCH_LBR_CTL_USR;
	return v;
}

/* Sign-extends v from bit `top` (the highest address bit the format leaves). */
static uint64_t sext(uint64_t v, unsigned top)
{
	unsigned shift = 63 - top;

	return (uint64_t)((int64_t)(v << shift) >> shift);
}

void lbr_decode(const struct lbr_caps *l, uint64_t from, uint64_t to, uint64_t info,
		struct lbr_entry *e)
{
	memset(e, 0, sizeof(*e));
	e->raw_from = from;
	e->raw_to = to;
	e->raw_info = info;
	if (l->arch) {
		e->from = from;
		e->to = to;
		e->mispred = info & LBR_INFO_MISPRED;
		e->in_tx = info & LBR_INFO_IN_TX;
		e->abort = info & LBR_INFO_ABORT;
		e->cycles = (uint16_t)(info & LBR_INFO_CYCLES);
		return;
	}
	switch (l->format) {
	case LBR_FORMAT_32:	/* one MSR: FROM in bits 31:0, TO in bits 63:32 */
		e->from = from & 0xffffffffULL;
		e->to = from >> 32;
		break;
	case LBR_FORMAT_EIP_FLAGS:
		e->mispred = from & LBR_FROM_FLAG_MISPRED;
		e->from = sext(from, 62);
		e->to = to;
		break;
	case LBR_FORMAT_EIP_FLAGS2:
		e->mispred = from & LBR_FROM_FLAG_MISPRED;
		e->in_tx = from & LBR_FROM_FLAG_IN_TX;
		e->abort = from & LBR_FROM_FLAG_ABORT;
		e->from = sext(from, 60);
		e->to = to;
		break;
	case LBR_FORMAT_TIME:	/* TO[63:48] elapsed cycles; FROM[63] mispredicted */
		e->mispred = from & LBR_FROM_FLAG_MISPRED;
		e->from = sext(from, 62);
		e->cycles = (uint16_t)(to >> 48);
		e->to = sext(to, 47);
		break;
	case LBR_FORMAT_INFO:
	case LBR_FORMAT_INFO2:
		e->from = from;
		e->to = to;
		e->mispred = info & LBR_INFO_MISPRED;
		e->in_tx = info & LBR_INFO_IN_TX;
		e->abort = info & LBR_INFO_ABORT;
		e->cycles = (uint16_t)(info & LBR_INFO_CYCLES);
		break;
	default:		/* LIP, EIP: plain addresses */
		e->from = from;
		e->to = to;
	}
}

const char *lbr_unavailable(const struct pmu_caps *p, bool force)
{
	static char why[200];

	if (force)
		return NULL;
	if (p->vendor != VENDOR_INTEL)
		return pmu_caps_unavailable_reason(p, false) ? pmu_caps_unavailable_reason(p, false) :
		       "not an Intel CPU: pmuboot knows only Intel's LBR";
	if (p->lbr.arch && !p->lbr.present)
		return "architectural LBR enumerated with no depth (CPUID.1CH:EAX[7:0]=0)";
	if (p->lbr.arch)
		return NULL;
	if (!p->pdcm)
		return "no IA32_PERF_CAPABILITIES (CPUID.01H:ECX.PDCM[15]=0): the LBR record format "
		       "is unknown";
	if (!p->has_perf_caps)
		return "IA32_PERF_CAPABILITIES could not be read: the LBR record format is unknown";
	if (!p->lbr.present) {
		if (p->uarch == UARCH_UNKNOWN)
			fmt_snprintf(why, sizeof(why), "no LBR stack pmuboot knows for family 0x%x model "
				     "0x%x (and no architectural LBR: CPUID.07H.0:EDX[19]=0)",
				     p->family, p->model);
		else
			fmt_snprintf(why, sizeof(why), "LBR format %u (IA32_PERF_CAPABILITIES[5:0]) on %s "
				     "is not one pmuboot decodes", p->lbr_format,
				     pmu_uarch_name(p->uarch));
		return why;
	}
	return NULL;
}

unsigned lbr_depth(const struct lbr_caps *l)
{
	uint64_t d;

	if (l->arch && hw_rdmsr(MSR_ARCH_LBR_DEPTH, &d) == 0 && d && d <= LBR_MAX_DEPTH)
		return (unsigned)d;
	return l->depth;
}

int lbr_clear(const struct lbr_caps *l)
{
	unsigned depth = lbr_depth(l);
	int r = 0;

	for (unsigned i = 0; i < depth; i++) {
		if (l->format != LBR_FORMAT_32 || l->arch)
			r |= hw_wrmsr(l->to + i, 0);
		r |= hw_wrmsr(l->from + i, 0);
		if (l->info)
			r |= hw_wrmsr(l->info + i, 0);
	}
	/* The TOS is read-only on some parts (Core 2): a fault there is not an error. */
	if (!l->arch)
		hw_wrmsr(MSR_LASTBRANCH_TOS, 0);
	return r ? X86_TRAP_GP : 0;
}

int lbr_set_filter(const struct lbr_caps *l, const struct lbr_filter *f)
{
	if (l->arch)
		return hw_wrmsr(MSR_ARCH_LBR_CTL, arch_lbr_ctl_value(f) & ~ARCH_LBR_CTL_LBREN);
	if (!l->has_select)
		return f->drop_kinds || f->drop_cpl0 || f->drop_user ? PMU_EARG : 0;
	return hw_wrmsr(MSR_LBR_SELECT, lbr_select_value(f));
}

void lbr_start_msr(const struct lbr_caps *l, const struct lbr_filter *f, uint64_t debugctl,
		   uint32_t *msr, uint64_t *value)
{
	static const struct lbr_filter none;

	if (l->arch) {
		*msr = MSR_ARCH_LBR_CTL;
		*value = arch_lbr_ctl_value(f ? f : &none);
	} else {
		*msr = MSR_IA32_DEBUGCTLMSR;
		*value = debugctl | DEBUGCTLMSR_LBR;
	}
}

int lbr_tos(const struct lbr_caps *l, unsigned *tos)
{
	uint64_t v = 0;
	int r;

	*tos = 0;
	if (l->arch)
		return 0;	/* entry 0 is always the newest */
	r = hw_rdmsr(MSR_LASTBRANCH_TOS, &v);
	*tos = (unsigned)(v % (l->depth ? l->depth : 1));
	return r;
}

int lbr_read(const struct lbr_caps *l, struct lbr_entry *out, unsigned max, unsigned *n)
{
	unsigned depth = lbr_depth(l), tos = 0;
	int r;

	*n = 0;
	if (!l->present || !depth)
		return PMU_EARG;
	if ((r = lbr_tos(l, &tos)))
		return r;
	for (unsigned i = 0; i < depth && i < max; i++) {
		unsigned idx = l->arch ? i : (tos + depth - i) % depth;
		uint64_t from = 0, to = 0, info = 0;

		if ((r = hw_rdmsr(l->from + idx, &from)))
			return r;
		if ((l->arch || l->format != LBR_FORMAT_32) && (r = hw_rdmsr(l->to + idx, &to)))
			return r;
		if (l->info && (r = hw_rdmsr(l->info + idx, &info)))
			return r;
		lbr_decode(l, from, to, info, &out[i]);
		*n = i + 1;
	}
	return 0;
}

int lbr_save(const struct lbr_caps *l, struct lbr_state *s)
{
	int r = 0;

	memset(s, 0, sizeof(*s));
	if (!l->present)
		return 0;
	if (l->arch) {
		r |= hw_rdmsr(MSR_ARCH_LBR_CTL, &s->ctl);
		r |= hw_rdmsr(MSR_ARCH_LBR_DEPTH, &s->depth);
	} else if (l->has_select) {
		r |= hw_rdmsr(MSR_LBR_SELECT, &s->select);
	}
	s->saved = r == 0;
	return r ? X86_TRAP_GP : 0;
}

int lbr_restore(const struct lbr_caps *l, const struct lbr_state *s)
{
	int r = 0;

	if (!s->saved)
		return 0;
	if (l->arch) {
		r |= hw_wrmsr(MSR_ARCH_LBR_DEPTH, s->depth);
		r |= hw_wrmsr(MSR_ARCH_LBR_CTL, s->ctl);
	} else if (l->has_select) {
		r |= hw_wrmsr(MSR_LBR_SELECT, s->select);
	}
	return r ? X86_TRAP_GP : 0;
}
