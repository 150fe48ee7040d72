/* SPDX-License-Identifier: MIT */
/* CPUID decode: vendor, family/model/stepping, brand string, features and time leaves. */
#include "arch/x86/cpuid.h"
#include "lib/string.h"

/* SDM Vol. 2A CPUID: DisplayFamily = Family + ExtendedFamily only when Family == 0FH. */
uint32_t cpuid_display_family(uint32_t sig)
{
	uint32_t fam = (sig >> 8) & 0xf;

	if (fam == 0xf)
		fam += (sig >> 20) & 0xff;
	return fam;
}

/* DisplayModel = ExtendedModel << 4 | Model when Family is 06H or 0FH. */
uint32_t cpuid_display_model(uint32_t sig)
{
	uint32_t fam = (sig >> 8) & 0xf;
	uint32_t model = (sig >> 4) & 0xf;

	if (fam == 0x6 || fam == 0xf)
		model |= ((sig >> 16) & 0xf) << 4;
	return model;
}

const char *cpu_vendor_name(enum cpu_vendor v)
{
	switch (v) {
	case VENDOR_INTEL: return "Intel";
	case VENDOR_AMD: return "AMD";
	case VENDOR_HYGON: return "Hygon";
	case VENDOR_OTHER: return "other";
	default: return "unknown";
	}
}

static void put_reg(char *dst, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		dst[i] = (char)(v >> (8 * i));
}

/* Replaces unprintable bytes and trims leading/trailing spaces (brand strings are padded). */
static void clean_string(char *s)
{
	size_t n = str_len(s), start = 0;

	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			s[i] = '?';
	while (start < n && s[start] == ' ')
		start++;
	while (n > start && s[n - 1] == ' ')
		n--;
	memmove(s, s + start, n - start);
	s[n - start] = '\0';
}

void cpu_info_decode(struct cpu_info *ci, cpuid_fn fn, void *ctx)
{
	struct cpuid_regs r;

	memset(ci, 0, sizeof(*ci));
	r = fn(ctx, 0, 0);
	ci->max_leaf = r.eax;
	put_reg(ci->vendor_id, r.ebx);
	put_reg(ci->vendor_id + 4, r.edx);
	put_reg(ci->vendor_id + 8, r.ecx);
	ci->vendor_id[12] = '\0';
	if (!str_cmp(ci->vendor_id, "GenuineIntel"))
		ci->vendor = VENDOR_INTEL;
	else if (!str_cmp(ci->vendor_id, "AuthenticAMD"))
		ci->vendor = VENDOR_AMD;
	else if (!str_cmp(ci->vendor_id, "HygonGenuine"))
		ci->vendor = VENDOR_HYGON;
	else
		ci->vendor = VENDOR_OTHER;
	clean_string(ci->vendor_id);

	if (ci->max_leaf >= 1) {
		r = fn(ctx, 1, 0);
		ci->signature = r.eax;
		ci->family = cpuid_display_family(r.eax);
		ci->model = cpuid_display_model(r.eax);
		ci->stepping = r.eax & 0xf;
		ci->leaf1_ecx = r.ecx;
		ci->leaf1_edx = r.edx;
		ci->initial_apic_id = r.ebx >> 24;
		ci->tsc = r.edx & CPUID_1_EDX_TSC;
		ci->msr = r.edx & CPUID_1_EDX_MSR;
		ci->apic = r.edx & CPUID_1_EDX_APIC;
		ci->pdcm = r.ecx & CPUID_1_ECX_PDCM;
		ci->x2apic = r.ecx & CPUID_1_ECX_X2APIC;
		ci->tsc_deadline = r.ecx & CPUID_1_ECX_TSC_DEADLINE;
		ci->hypervisor = r.ecx & CPUID_1_ECX_HYPERVISOR;
	}
	if (ci->max_leaf >= 0x15) {
		r = fn(ctx, 0x15, 0);
		ci->l15_eax = r.eax;
		ci->l15_ebx = r.ebx;
		ci->l15_ecx = r.ecx;
	}
	if (ci->max_leaf >= 0x16)
		ci->l16_eax = fn(ctx, 0x16, 0).eax & 0xffff;

	r = fn(ctx, 0x80000000, 0);
	/* A CPU without extended leaves echoes something below 0x80000000. */
	ci->max_ext_leaf = (r.eax & 0x80000000) ? r.eax : 0;
	if (ci->max_ext_leaf >= 0x80000001) {
		r = fn(ctx, 0x80000001, 0);
		ci->long_mode = r.edx & CPUID_80000001_EDX_LM;
		ci->pdpe1gb = r.edx & CPUID_80000001_EDX_PDPE1GB;
	}
	ci->phys_bits = 36;
	if (ci->max_ext_leaf >= 0x80000008 && (fn(ctx, 0x80000008, 0).eax & 0xff))
		ci->phys_bits = fn(ctx, 0x80000008, 0).eax & 0xff;
	if (ci->max_ext_leaf >= 0x80000004) {
		for (uint32_t i = 0; i < 3; i++) {
			r = fn(ctx, 0x80000002 + i, 0);
			put_reg(ci->brand + 16 * i, r.eax);
			put_reg(ci->brand + 16 * i + 4, r.ebx);
			put_reg(ci->brand + 16 * i + 8, r.ecx);
			put_reg(ci->brand + 16 * i + 12, r.edx);
		}
		ci->brand[48] = '\0';
		clean_string(ci->brand);
	}
	if (ci->max_ext_leaf >= 0x80000007)
		ci->invariant_tsc = fn(ctx, 0x80000007, 0).edx & CPUID_80000007_EDX_INVTSC;

	if (ci->hypervisor) {
		r = fn(ctx, CPUID_LEAF_HYPERVISOR, 0);
		/* Leaves 0x40000000+ are only meaningful when EAX names a leaf in that range. */
		if (r.eax >= CPUID_LEAF_HYPERVISOR && r.eax < CPUID_LEAF_HYPERVISOR + 0x10000) {
			ci->hv_max_leaf = r.eax;
			put_reg(ci->hv_signature, r.ebx);
			put_reg(ci->hv_signature + 4, r.ecx);
			put_reg(ci->hv_signature + 8, r.edx);
			ci->hv_signature[12] = '\0';
			clean_string(ci->hv_signature);
			/* VMware/KVM convention: leaf 0x40000010 EAX = TSC kHz. */
			if (ci->hv_max_leaf >= CPUID_LEAF_HYPERVISOR + 0x10)
				ci->hv_tsc_khz = fn(ctx, CPUID_LEAF_HYPERVISOR + 0x10, 0).eax;
		}
	}
}

static struct cpuid_regs cpuid_insn(void *ctx, uint32_t leaf, uint32_t subleaf)
{
	(void)ctx;
	return cpuid_count(leaf, subleaf);
}

void cpu_info_read(struct cpu_info *ci)
{
	cpu_info_decode(ci, cpuid_insn, 0);
}

unsigned cpu_caches(cpuid_fn fn, void *ctx, const struct cpu_info *ci, struct cache_info *out,
		    unsigned max)
{
	unsigned n = 0;

	if (ci->vendor != VENDOR_INTEL || ci->max_leaf < CPUID_LEAF_CACHE)
		return 0;
	for (uint32_t sub = 0; sub < 32 && n < max; sub++) {
		struct cpuid_regs r = fn(ctx, CPUID_LEAF_CACHE, sub);
		unsigned type = r.eax & 0x1f;

		if (type == 0)
			break;
		out[n].type = type;
		out[n].level = (r.eax >> 5) & 0x7;
		out[n].ways = ((r.ebx >> 22) & 0x3ff) + 1;
		out[n].line = (r.ebx & 0xfff) + 1;
		out[n].size = (uint64_t)out[n].ways * (((r.ebx >> 12) & 0x3ff) + 1) * out[n].line *
			      ((uint64_t)r.ecx + 1);
		n++;
	}
	return n;
}

#define TOPO_LEVEL_INVALID	0
#define TOPO_LEVEL_SMT		1

void cpu_topo_decode(struct cpu_topo *t, cpuid_fn fn, void *ctx, const struct cpu_info *ci)
{
	static const uint32_t leaves[] = { 0x1f, 0x0b };

	memset(t, 0, sizeof(*t));
	if (ci->vendor != VENDOR_INTEL)
		return;
	for (unsigned l = 0; l < 2 && !t->known; l++) {
		bool smt = false;
		unsigned levels = 0;

		if (ci->max_leaf < leaves[l] || !fn(ctx, leaves[l], 0).ebx)
			continue;	/* no such leaf, or no level in it (EBX 0 at subleaf 0) */
		for (uint32_t sub = 0; sub < 8; sub++) {
			struct cpuid_regs r = fn(ctx, leaves[l], sub);
			unsigned type = (r.ecx >> 8) & 0xff, shift = r.eax & 0x1f;

			if (type == TOPO_LEVEL_INVALID)
				break;
			if (type == TOPO_LEVEL_SMT) {
				smt = true;
				t->smt_shift = shift;
			}
			t->pkg_shift = shift;	/* the last level's shift: the package's ID above */
			levels++;
		}
		if (smt && levels >= 2 && t->pkg_shift >= t->smt_shift) {
			t->known = true;
			t->leaf = leaves[l];
		}
	}
	if (!t->known)
		t->smt_shift = t->pkg_shift = 0;
}

/* Whether APIC IDs a and b are threads of one core of one package (t known). */
static bool topo_same_core(const struct cpu_topo *t, uint32_t a, uint32_t b)
{
	return topo_package(t, a) == topo_package(t, b) && topo_core(t, a) == topo_core(t, b);
}

int topo_other_core(const struct cpu_topo *t, uint32_t me, const uint32_t *apic,
		    const bool *usable, unsigned n, int *sibling, int *remote)
{
	*sibling = *remote = -1;
	for (unsigned i = 0; i < n; i++) {
		if (!usable[i] || apic[i] == me)
			continue;
		if (!t->known)
			return (int)i;
		if (topo_package(t, apic[i]) != topo_package(t, me)) {
			if (*remote < 0)
				*remote = (int)i;
		} else if (topo_same_core(t, apic[i], me)) {
			if (*sibling < 0)
				*sibling = (int)i;
		} else {
			return (int)i;
		}
	}
	return -1;
}

int topo_sibling(const struct cpu_topo *t, uint32_t me, const uint32_t *apic, const bool *usable,
		 unsigned n)
{
	for (unsigned i = 0; t->known && i < n; i++)
		if (usable[i] && apic[i] != me && topo_same_core(t, apic[i], me))
			return (int)i;
	return -1;
}

void cpu_topo_read(struct cpu_topo *t, const struct cpu_info *ci)
{
	cpu_topo_decode(t, cpuid_insn, 0, ci);
}

uint64_t cache_size(const struct cache_info *c, unsigned n, unsigned level)
{
	for (unsigned i = 0; i < n; i++)
		if (c[i].level == level && c[i].type != CACHE_TYPE_INSN)
			return c[i].size;
	return 0;
}
