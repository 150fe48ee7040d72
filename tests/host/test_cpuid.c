/* SPDX-License-Identifier: MIT */
/* Host unit tests for the CPUID decode (arch/x86/cpuid.c), TSC enumeration (tsc.c) and
 * PMU leaf decode (pmu/pmu.c), driven by tables of CPUID values. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "arch/x86/cpuid.h"
#include "arch/x86/tsc.h"
#include "pmu/pmu.h"

struct leaf {
	uint32_t leaf;
	struct cpuid_regs r;
};

/* Table lookup; leaves not listed read as zero, like reserved leaves. */
static struct cpuid_regs table_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf)
{
	const struct leaf *t = ctx;
	struct cpuid_regs zero = { 0, 0, 0, 0 };

	(void)subleaf;
	for (; t->leaf || t->r.eax || t->r.ebx; t++)
		if (t->leaf == leaf)
			return t->r;
	return zero;
}

#define STR4(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

/* A Skylake client (family 6 model 0x5E stepping 3): leaf 0x15 without the crystal. */
static const struct leaf skylake[] = {
	{ 0, { 0x16, STR4('G', 'e', 'n', 'u'), STR4('n', 't', 'e', 'l'), STR4('i', 'n', 'e', 'I') } },
	{ 1, { 0x000506e3, 0x02100800, 0x7ffafbbf | (1u << 15), 0xbfebfbff } },
	{ 0x0a, { 0x07300404, 0x00000000, 0x00000000, 0x00000603 } },
	/* Leaf 4: one subleaf answered for every query (the table ignores subleaves). */
	{ 0x04, { 0x1c004121, 0x01c0003f, 0x0000003f, 0 } },
	{ 0x15, { 2, 300, 0, 0 } },
	{ 0x16, { 3400, 4000, 100, 0 } },
	{ 0x80000000, { 0x80000008, 0, 0, 0 } },
	{ 0x80000001, { 0, 0, 0x121, 0x2c100800 } },
	{ 0x80000002, { STR4(' ', ' ', 'I', 'n'), STR4('t', 'e', 'l', '('), STR4('R', ')', ' ', 'C'), STR4('o', 'r', 'e', '(') } },
	{ 0x80000003, { STR4('T', 'M', ')', ' '), STR4('i', '7', '-', '6'), STR4('7', '0', '0', 'K'), STR4(' ', 'C', 'P', 'U') } },
	{ 0x80000004, { STR4(' ', '@', ' ', '4'), STR4('.', '0', '0', 'G'), STR4('H', 'z', ' ', ' '), 0 } },
	{ 0x80000007, { 0, 0, 0, 1u << 8 } },
	{ 0, { 0, 0, 0, 0 } },
};

static void test_skylake_decode(void **state)
{
	struct cpu_info ci;
	enum tsc_source src;
	struct pmu_caps p;
	(void)state;

	cpu_info_decode(&ci, table_cpuid, (void *)skylake);
	assert_string_equal(ci.vendor_id, "GenuineIntel");
	assert_int_equal(ci.vendor, VENDOR_INTEL);
	assert_int_equal(ci.family, 6);
	assert_int_equal(ci.model, 0x5e);
	assert_int_equal(ci.stepping, 3);
	assert_int_equal(ci.initial_apic_id, 2);
	assert_true(ci.long_mode);
	assert_true(ci.invariant_tsc);
	assert_true(ci.pdcm);
	assert_false(ci.hypervisor);
	assert_string_equal(ci.brand, "Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz");
	/* No crystal in 0x15: the base frequency of 0x16 is the TSC rate. */
	assert_int_equal(tsc_hz_from_cpuid(&ci, &src), 3400000000ULL);
	assert_int_equal(src, TSC_SRC_CPUID_16);

	pmu_caps_decode(&p, &ci, table_cpuid((void *)skylake, 0x0a, 0));
	assert_int_equal(p.version, 4);
	assert_int_equal(p.num_gp, 4);
	assert_int_equal(p.gp_width, 48);
	assert_int_equal(p.ebx_len, 7);
	assert_int_equal(p.num_fixed, 3);
	assert_int_equal(p.fixed_width, 48);
}

static void test_display_family_model(void **state)
{
	(void)state;
	/* Family 0xF adds the extended family; model gets the extended model for 6 and 0xF. */
	assert_int_equal(cpuid_display_family(0x00800f12), 0x17);	/* AMD Zen: 0xF + 0x8 */
	assert_int_equal(cpuid_display_model(0x00800f12), 0x01);
	assert_int_equal(cpuid_display_family(0x000906ea), 6);
	assert_int_equal(cpuid_display_model(0x000906ea), 0x9e);
	/* Family 5 ignores the extended fields. */
	assert_int_equal(cpuid_display_family(0x0ff00543), 5);
	assert_int_equal(cpuid_display_model(0x0ff00543), 4);
}

/* The QEMU TCG qemu64 model as seen by pmuboot: AMD vendor, hypervisor leaf, no PMU. */
static const struct leaf qemu64[] = {
	{ 0, { 0xd, STR4('A', 'u', 't', 'h'), STR4('c', 'A', 'M', 'D'), STR4('e', 'n', 't', 'i') } },
	{ 1, { 0x00060fb1, 0x00000800, 0x80802001, 0x078bfbfd } },
	{ 0x40000000, { 0x40000001, STR4('T', 'C', 'G', 'T'), STR4('C', 'G', 'T', 'C'), STR4('G', 'T', 'C', 'G') } },
	{ 0x80000000, { 0x80000008, 0, 0, 0 } },
	{ 0x80000001, { 0, 0, 0, 1u << 29 } },
	{ 0, { 0, 0, 0, 0 } },
};

static void test_qemu64_decode(void **state)
{
	struct cpu_info ci;
	enum tsc_source src;
	struct pmu_caps p;
	(void)state;

	cpu_info_decode(&ci, table_cpuid, (void *)qemu64);
	assert_int_equal(ci.vendor, VENDOR_AMD);
	assert_int_equal(ci.family, 0xf);
	assert_int_equal(ci.model, 0x6b);
	assert_true(ci.hypervisor);
	assert_string_equal(ci.hv_signature, "TCGTCGTCGTCG");
	/* Extended leaves 0x80000002-4 are in range but read as zero: empty brand. */
	assert_string_equal(ci.brand, "");
	assert_int_equal(tsc_hz_from_cpuid(&ci, &src), 0);
	assert_int_equal(src, TSC_SRC_NONE);
	pmu_caps_decode(&p, &ci, table_cpuid((void *)qemu64, 0x0a, 0));
	assert_int_equal(p.version, 0);
	pmu = p;
	/* qemu64 is AuthenticAMD: the reason names an AMD PMU pmuboot does not program, not a
	 * missing one (issue: "no architectural PMU" was untrue on every AMD part). */
	assert_non_null(strstr(pmu_unavailable_reason(false), "AMD PMU"));
	assert_non_null(strstr(pmu_unavailable_reason(false), "does not yet program"));
	assert_null(pmu_unavailable_reason(true));
	/* The same leaves with an Intel vendor: no architectural PMU. */
	p.vendor = VENDOR_INTEL;
	assert_string_equal(pmu_caps_unavailable_reason(&p, false),
			    "no architectural PMU: CPUID.0AH:EAX[7:0]=0");
}

static void test_tsc_leaf15_crystal(void **state)
{
	struct cpu_info ci;
	enum tsc_source src;
	(void)state;

	memset(&ci, 0, sizeof(ci));
	ci.l15_eax = 2;
	ci.l15_ebx = 216;
	ci.l15_ecx = 24000000;	/* 24 MHz crystal * 216/2 = 2592 MHz */
	assert_int_equal(tsc_hz_from_cpuid(&ci, &src), 2592000000ULL);
	assert_int_equal(src, TSC_SRC_CPUID_15);
	ci.l15_eax = 0;		/* ratio not enumerated: fall through to the hypervisor leaf */
	ci.hv_tsc_khz = 2100000;
	assert_int_equal(tsc_hz_from_cpuid(&ci, &src), 2100000000ULL);
	assert_int_equal(src, TSC_SRC_HYPERVISOR);
	tsc.hz = 2592000000ULL;
	assert_int_equal(tsc_from_us(1000), 2592000);
	assert_int_equal(tsc_to_us(2592000), 1000);
}

/* A hypervisor leaf whose EAX is not a 0x4000xxxx leaf number is garbage: ignored. */
static const struct leaf bad_hv[] = {
	{ 0, { 1, STR4('G', 'e', 'n', 'u'), STR4('n', 't', 'e', 'l'), STR4('i', 'n', 'e', 'I') } },
	{ 1, { 0x000306c3, 0, 1u << 31, 0 } },
	{ 0x40000000, { 0x00000d00, 1, 2, 3 } },
	{ 0x80000000, { 0x00000001, 0, 0, 0 } },	/* no extended leaves at all */
	{ 0, { 0, 0, 0, 0 } },
};

static void test_bad_hypervisor_leaf(void **state)
{
	struct cpu_info ci;
	(void)state;

	cpu_info_decode(&ci, table_cpuid, (void *)bad_hv);
	assert_true(ci.hypervisor);
	assert_string_equal(ci.hv_signature, "");
	assert_int_equal(ci.max_ext_leaf, 0);
	assert_false(ci.long_mode);
	assert_int_equal(ci.model, 0x3c);
}

static struct cpuid_regs leaf4(void *ctx, uint32_t leaf, uint32_t sub)
{
	/* Skylake client: L1d 32K 8-way, L1i 32K, L2 256K 4-way, L3 8M 16-way, then null. */
	static const struct cpuid_regs caches[] = {
		{ 0x1c004121, 0x01c0003f, 0x0000003f, 0 },
		{ 0x1c004122, 0x01c0003f, 0x0000003f, 0 },
		{ 0x1c004143, 0x00c0003f, 0x000003ff, 0 },
		{ 0x1c03c163, 0x03c0003f, 0x00001fff, 6 },
		{ 0, 0, 0, 0 },
	};
	struct cpuid_regs zero = { 0, 0, 0, 0 };

	if (leaf != CPUID_LEAF_CACHE)
		return table_cpuid(ctx, leaf, sub);
	return sub < 5 ? caches[sub] : zero;
}

static void test_cache_leaf(void **state)
{
	struct cpu_info ci;
	struct cache_info c[MAX_CACHES];
	unsigned n;
	(void)state;

	cpu_info_decode(&ci, table_cpuid, (void *)skylake);
	n = cpu_caches(leaf4, (void *)skylake, &ci, c, MAX_CACHES);
	assert_int_equal(n, 4);
	assert_int_equal(c[0].level, 1);
	assert_int_equal(c[0].type, CACHE_TYPE_DATA);
	assert_int_equal(c[0].size, 32768);
	assert_int_equal(c[0].ways, 8);
	assert_int_equal(c[0].line, 64);
	assert_int_equal(cache_size(c, n, 1), 32768);		/* the data cache, not L1i */
	assert_int_equal(cache_size(c, n, 2), 262144);
	assert_int_equal(cache_size(c, n, 3), 8ULL << 20);
	assert_int_equal(cache_size(c, n, 4), 0);
	/* Not Intel: leaf 4 means something else; nothing is decoded. */
	ci.vendor = VENDOR_AMD;
	assert_int_equal(cpu_caches(leaf4, (void *)skylake, &ci, c, MAX_CACHES), 0);
}

/* Extended topology: which leaf answers, by subleaf. Leaf 0BH of a Skylake client with
 * hyper-threads (SMT shift 1, core level shift 4); leaf 1FH of a part with dies (SMT 1, core
 * 5, die 7); leaf 0BH listing only an SMT level (no core level: unknown). */
static int topo_kind;

static struct cpuid_regs topo_leaves(void *ctx, uint32_t leaf, uint32_t sub)
{
	static const struct cpuid_regs l0b[] = {
		{ 1, 2, 0x100, 5 }, { 4, 8, 0x201, 5 }, { 0, 0, 2, 5 },
	};
	static const struct cpuid_regs l1f[] = {
		{ 1, 2, 0x100, 0x45 }, { 5, 16, 0x201, 0x45 }, { 7, 32, 0x502, 0x45 }, { 0, 0, 3, 0x45 },
	};
	static const struct cpuid_regs smt_only[] = { { 1, 2, 0x100, 0 }, { 0, 0, 1, 0 } };
	struct cpuid_regs zero = { 0, 0, 0, 0 }, r;

	if (leaf == 0) {
		r = table_cpuid(ctx, 0, 0);
		r.eax = 0x1f;
		return r;
	}
	if (leaf == 0x0b && topo_kind != 2)
		return sub < 3 ? l0b[sub] : zero;
	if (leaf == 0x0b && topo_kind == 2)
		return sub < 2 ? smt_only[sub] : zero;
	if (leaf == 0x1f && topo_kind == 1)
		return sub < 4 ? l1f[sub] : zero;
	if (leaf == 0x1f)
		return zero;
	return table_cpuid(ctx, leaf, sub);
}

static void test_topology(void **state)
{
	struct cpu_info ci;
	struct cpu_topo t;
	(void)state;

	topo_kind = 0;
	cpu_info_decode(&ci, topo_leaves, (void *)skylake);
	cpu_topo_decode(&t, topo_leaves, (void *)skylake, &ci);
	assert_true(t.known);
	assert_int_equal(t.leaf, 0x0b);
	assert_int_equal(t.smt_shift, 1);
	assert_int_equal(t.pkg_shift, 4);
	/* APIC IDs 4 and 5: core 2's two threads; 6: core 3; 0x14: package 1's core 2. */
	assert_int_equal(topo_core(&t, 4), 2);
	assert_int_equal(topo_core(&t, 5), 2);
	assert_int_equal(topo_core(&t, 6), 3);
	assert_int_equal(topo_package(&t, 5), 0);
	assert_int_equal(topo_package(&t, 0x14), 1);
	assert_int_equal(topo_core(&t, 0x14), 2);
	/* Leaf 1FH wins where it has levels; the die level is part of the core's number. */
	topo_kind = 1;
	cpu_topo_decode(&t, topo_leaves, (void *)skylake, &ci);
	assert_true(t.known);
	assert_int_equal(t.leaf, 0x1f);
	assert_int_equal(t.pkg_shift, 7);
	assert_int_equal(topo_package(&t, 0x80), 1);
	assert_int_equal(topo_core(&t, 0x22), 0x11);
	/* The partner: APIC ID 1 is 0's sibling, 0x12 in package 1, 2 another core. */
	{
		const uint32_t apic[] = { 0, 1, 0x12, 2, 3 };
		bool usable[] = { false, true, true, true, true };
		int sib, rem;

		topo_kind = 0;
		cpu_topo_decode(&t, topo_leaves, (void *)skylake, &ci);
		assert_int_equal(topo_other_core(&t, 0, apic, usable, 5, &sib, &rem), 3);
		usable[3] = usable[4] = false;
		assert_int_equal(topo_other_core(&t, 0, apic, usable, 5, &sib, &rem), -1);
		assert_int_equal(sib, 1);
		assert_int_equal(rem, 2);
		/* From APIC ID 2 (core 1), ID 1 is another core of the package. */
		assert_int_equal(topo_other_core(&t, 2, apic, usable, 5, &sib, &rem), 1);
		/* The sibling alone: ID 1 for ID 0, none for ID 2 (core 1's other thread, 3, is
		 * not usable), 0 for ID 1 once 0 is usable. */
		assert_int_equal(topo_sibling(&t, 0, apic, usable, 5), 1);
		assert_int_equal(topo_sibling(&t, 2, apic, usable, 5), -1);
		usable[0] = true;
		assert_int_equal(topo_sibling(&t, 1, apic, usable, 5), 0);
		usable[0] = false;
		/* Unknown topology: the first usable CPU, as before; no sibling known. */
		t.known = false;
		assert_int_equal(topo_other_core(&t, 0, apic, usable, 5, &sib, &rem), 1);
		assert_int_equal(topo_sibling(&t, 0, apic, usable, 5), -1);
	}
	/* No core level: unknown, and so on a non-Intel CPU. */
	topo_kind = 2;
	cpu_topo_decode(&t, topo_leaves, (void *)skylake, &ci);
	assert_false(t.known);
	topo_kind = 0;
	ci.vendor = VENDOR_AMD;
	cpu_topo_decode(&t, topo_leaves, (void *)skylake, &ci);
	assert_false(t.known);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skylake_decode),
		cmocka_unit_test(test_display_family_model),
		cmocka_unit_test(test_qemu64_decode),
		cmocka_unit_test(test_tsc_leaf15_crystal),
		cmocka_unit_test(test_bad_hypervisor_leaf),
		cmocka_unit_test(test_cache_leaf),
		cmocka_unit_test(test_topology),
	};

	return cmocka_run_group_tests_name("cpuid", tests, NULL, NULL);
}
