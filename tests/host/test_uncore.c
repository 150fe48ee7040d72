/* SPDX-License-Identifier: MIT */
/*
 * Host unit tests of the uncore library (pmu/uncore.c) against the strict model of seed
 * 001's and Nehalem's uncore (tests/host/uncore_model.c): detection by model, the read-only
 * probe (no write ever reaches an absent or unproven uncore), the CBo count rule, MCHBAR and
 * the seed/datasheet mask difference, the IMC's 32-bit wrap, programming order, counter
 * restrictions, widths, RW1C status, local enables gated by the global one, freeze and PMI.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "arch/x86/apic.h"
#include "arch/x86/cpuid.h"
#include "arch/x86/hw.h"
#include "arch/x86/msr.h"
#include "pmu/counter.h"
#include "pmu/pmu.h"
#include "pmu/uncore.h"
#include "tests/host/pmu_model.h"
#include "tests/host/uncore_model.h"

#define W44 ((1ULL << 44) - 1)
#define W48 ((1ULL << 48) - 1)
#define CBO(b, i)	((struct uncore_ctr){ UNC_BOX_CBO, (b), (i) })
#define ARB(i)		((struct uncore_ctr){ UNC_BOX_ARB, 0, (i) })
#define NHM(i)		((struct uncore_ctr){ UNC_BOX_NHM, 0, (i) })
#define FIXED		((struct uncore_ctr){ UNC_BOX_FIXED, 0, 0 })

static struct cpuid_regs model_cpuid(void *ctx, uint32_t leaf, uint32_t sub)
{
	(void)ctx;
	return hw_cpuid(leaf, sub);
}

/* Boots the core model cfg with the uncore model uc (NULL: none), discovers both. */
static void boot(struct pmu_model_config cfg, const struct uncore_model_config *uc,
		 bool hypervisor, struct pmu_caps *p, struct uncore_caps *u)
{
	struct cpu_info ci;

	pmu_model_reset(&cfg);
	if (uc)
		uncore_model_setup(uc);
	cpu_info_decode(&ci, model_cpuid, NULL);
	pmu_discover(p, &ci);
	p->hypervisor = hypervisor;
	pmu_model_clear_log();
	uncore_discover(u, p);
}

static void test_kind_from_model(void **state)
{
	static const uint32_t skl[] = { 0x4e, 0x5e, 0x8e, 0x9e, 0xa5, 0xa6 };
	static const uint32_t none[] = { 0x55, 0x2e, 0x2f, 0x25, 0x2c, 0x3c, 0x7e, 0x97 };
	(void)state;

	for (unsigned i = 0; i < sizeof(skl) / sizeof(skl[0]); i++)
		assert_int_equal(uncore_kind_from_model(VENDOR_INTEL, 6, skl[i]), UNCORE_SKL);
	assert_int_equal(uncore_kind_from_model(VENDOR_INTEL, 6, 0x1a), UNCORE_NHM);
	assert_int_equal(uncore_kind_from_model(VENDOR_INTEL, 6, 0x1e), UNCORE_NHM);
	for (unsigned i = 0; i < sizeof(none) / sizeof(none[0]); i++)
		assert_int_equal(uncore_kind_from_model(VENDOR_INTEL, 6, none[i]), UNCORE_NONE);
	assert_int_equal(uncore_kind_from_model(VENDOR_AMD, 6, 0x5e), UNCORE_NONE);
	assert_int_equal(uncore_kind_from_model(VENDOR_INTEL, 0xf, 0x5e), UNCORE_NONE);
}

/* Seed 001 2.4.1: NO_CBO_BANKS minus one; 1..4 CBos on 6th-generation parts (Table 1-2),
 * one per core on 6- and 8-core Coffee Lake, 10 on Comet Lake: never "implausible", the first
 * 8 (those with known MSRs) used. */
static void test_cbo_count_rule(void **state)
{
	char why[200];
	(void)state;

	assert_int_equal(uncore_skl_cbo_count(5, why, sizeof(why)), 4);
	assert_int_equal(uncore_skl_cbo_count(2, why, sizeof(why)), 1);
	assert_int_equal(uncore_skl_cbo_count(0, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "396H"));
	assert_non_null(strstr(why, "NO_CBO_BANKS 0"));
	assert_int_equal(uncore_skl_cbo_count(1, why, sizeof(why)), 0);
	assert_int_equal(uncore_skl_cbo_count(6, why, sizeof(why)), 5);
	assert_int_equal(uncore_skl_cbo_count(7, why, sizeof(why)), 6);
	assert_int_equal(uncore_skl_cbo_count(9, why, sizeof(why)), 8);
	assert_int_equal(uncore_skl_cbo_count(0xb, why, sizeof(why)), 8);
	assert_int_equal(uncore_skl_cbo_count(0x15, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "reserved"));
}

/* Issue 21 item 13: Coffee Lake with 8 cores. CBo 7's select and counter are at 0F70H and
 * 0F76H (Linux uncore_snb.c), not 770H (IA32_PM_ENABLE); save, program and reset reach all
 * eight; a 10-core Comet Lake uses the first 8 and says how many it has. */
static void test_coffee_lake_eight_cbos(void **state)
{
	struct uncore_model_config uc = uncore_model_skl(8);
	struct uncore_state st;
	struct pmu_caps p;
	struct uncore_caps u;
	char err[PMU_ERR_LEN];
	uint32_t sel, ctr;
	(void)state;

	boot(pmu_model_skylake(), &uc, false, &p, &u);
	assert_true(u.present);
	assert_int_equal(u.num_cbo, 8);
	assert_int_equal(u.cbo_found, 8);
	assert_int_equal(uncore_ctr_msrs(&u, CBO(6, 1), &sel, &ctr, err, sizeof(err)), 0);
	assert_int_equal(sel, 0x761);
	assert_int_equal(ctr, 0x767);
	assert_int_equal(uncore_ctr_msrs(&u, CBO(7, 0), &sel, &ctr, err, sizeof(err)), 0);
	assert_int_equal(sel, 0xf70);
	assert_int_equal(ctr, 0xf76);
	assert_int_equal(uncore_ctr_msrs(&u, CBO(7, 1), &sel, &ctr, err, sizeof(err)), 0);
	assert_int_equal(sel, 0xf71);
	assert_int_equal(ctr, 0xf77);
	assert_int_equal(uncore_save(&u, &st), 0);
	assert_int_equal(uncore_program(&u, CBO(7, 0), &(struct uncore_evtsel){ .event = 0x34,
			 .umask = 0x1f, .en = true }, 0, err, sizeof(err)), 0);
	assert_int_equal(uncore_model_msr(0xf70) & 0xffff, 0x1f34);
	assert_int_equal(uncore_reset(&u), 0);
	assert_int_equal(uncore_model_msr(0xf70), 0);
	assert_int_equal(uncore_restore(&u, &st), 0);
	assert_int_equal(pmu_model_faults(), 0);
	/* Under a hypervisor with eight CBos no absent select is left to probe: not present. */
	boot(pmu_model_skylake(), &uc, true, &p, &u);
	assert_false(u.present);
	assert_non_null(strstr(u.why, "no absent CBo"));
	/* Six CBos under a strict hypervisor: CBo 6's select (760H) faults, present. */
	uc = uncore_model_skl(6);
	boot(pmu_model_skylake(), &uc, true, &p, &u);
	assert_true(u.present);
	assert_int_equal(u.num_cbo, 6);
	/* Comet Lake, 10 cores: NO_CBO_BANKS 11; 8 used, 10 reported. */
	uc = uncore_model_skl(8);
	uc.cbo_config = 11;
	boot(pmu_model_skylake(), &uc, false, &p, &u);
	assert_true(u.present);
	assert_int_equal(u.num_cbo, 8);
	assert_int_equal(u.cbo_found, 10);
}

static void test_discover_skylake(void **state)
{
	struct uncore_model_config uc = uncore_model_skl(4);
	struct pmu_caps p;
	struct uncore_caps u;
	(void)state;

	boot(pmu_model_skylake(), &uc, false, &p, &u);
	assert_int_equal(u.kind, UNCORE_SKL);
	assert_true(u.present);
	assert_int_equal(u.num_cbo, 4);
	assert_true(u.imc);
	assert_int_equal(u.mchbar, 0xfed10000ULL);
	assert_false(u.masks_differ);
	assert_int_equal(pmu_model_writes(), 0);	/* discovery only reads */
	assert_int_equal(pmu_model_faults(), 0);
	assert_null(uncore_unavailable_reason(&u, UNCORE_SKL));
	assert_non_null(strstr(uncore_unavailable_reason(&u, UNCORE_NHM), "not a Nehalem"));
	/* Under a hypervisor a strict emulation faults on the fifth CBo: still present. */
	boot(pmu_model_skylake(), &uc, true, &p, &u);
	assert_true(u.present);
	assert_int_equal(pmu_model_writes(), 0);
}

/* A Skylake model number with no uncore: the first read faults, nothing is written. */
static void test_absent_uncore_never_written(void **state)
{
	struct pmu_model_config cfg = pmu_model_skylake();
	struct pmu_caps p;
	struct uncore_caps u;
	char err[PMU_ERR_LEN];
	(void)state;

	boot(cfg, NULL, false, &p, &u);
	assert_false(u.present);
	assert_non_null(strstr(u.why, "MSR_UNC_CBO_CONFIG (396H) faulted"));
	assert_false(u.imc);
	assert_non_null(strstr(u.imc_why, "vendor ffff"));
	/* Every programming call refuses without touching anything. */
	assert_int_equal(uncore_program(&u, CBO(0, 0), &(struct uncore_evtsel){ .event = 0x34,
			 .umask = 0x1f, .en = true }, 0, err, sizeof(err)), PMU_EARG);
	assert_int_equal(uncore_global_ctrl_write(&u, UNC_GLOBAL_CTRL_EN, err, sizeof(err)), PMU_EARG);
	assert_int_equal(uncore_fixed_program(&u, true, false, 0, err, sizeof(err)), PMU_EARG);
	assert_int_equal(uncore_reset(&u), PMU_EARG);
	assert_int_equal(pmu_model_writes(), 0);
	assert_int_equal(uncore_model_mmio_reads(), 0);

	/* QEMU's TCG (-cpu Skylake-Client): every unknown MSR reads 0, no #GP. */
	cfg.tcg_msrs = true;
	boot(cfg, NULL, true, &p, &u);
	assert_false(u.present);
	assert_non_null(strstr(u.why, "MSR_UNC_CBO_CONFIG (396H) = 0x0: NO_CBO_BANKS 0"));
	assert_int_equal(pmu_model_writes(), 0);
}

/* Nehalem under a TCG-like hypervisor: every register reads a plausible 0; the ninth select,
 * which no part has, reads too: not present, and no write. */
static void test_nehalem_canary(void **state)
{
	struct pmu_model_config cfg = pmu_model_nehalem();
	struct uncore_model_config uc = uncore_model_nhm();
	struct pmu_caps p;
	struct uncore_caps u;
	(void)state;

	cfg.tcg_msrs = true;
	boot(cfg, NULL, true, &p, &u);
	assert_int_equal(u.kind, UNCORE_NHM);
	assert_false(u.present);
	assert_non_null(strstr(u.why, "3C8H"));
	assert_int_equal(pmu_model_writes(), 0);
	/* On bare metal (no hypervisor) the same reads are taken as they are. */
	boot(cfg, NULL, false, &p, &u);
	assert_true(u.present);
	/* A strict Nehalem uncore under a hypervisor: the canary faults, present. */
	boot(pmu_model_nehalem(), &uc, true, &p, &u);
	assert_true(u.present);
	assert_int_equal(pmu_model_writes(), 0);
	/* No uncore at all: the global control's read faults. */
	boot(pmu_model_nehalem(), NULL, false, &p, &u);
	assert_false(u.present);
	assert_non_null(strstr(u.why, "MSR_UNCORE_PERF_GLOBAL_CTRL (391H) faulted"));
}

/* A Skylake model number whose CPUID hides the core PMU: the uncore is not even read. */
static void test_no_core_pmu_no_access(void **state)
{
	struct uncore_model_config uc = uncore_model_skl(4);
	struct pmu_caps p;
	struct uncore_caps u;
	(void)state;

	boot(pmu_model_none(), &uc, true, &p, &u);
	assert_false(u.present);
	assert_non_null(strstr(u.why, "CPUID.0AH:EAX[7:0]=0"));
	assert_int_equal(pmu_model_faults(), 0);
	assert_int_equal(pmu_model_writes(), 0);
	/* AMD: no uncore pmuboot knows, named as such. */
	boot((struct pmu_model_config){ .amd = true, .family = 0x17, .model = 1 }, NULL, true, &p, &u);
	assert_int_equal(u.kind, UNCORE_NONE);
	assert_non_null(strstr(u.why, "AMD"));
}

/* The seed masks MCHBAR with bits 34:15, the datasheet with 38:15: above 32 GiB they differ,
 * and the datasheet's base is the one the counters answer at. */
static void test_mchbar_masks(void **state)
{
	struct uncore_model_config uc = uncore_model_skl(2);
	struct pmu_caps p;
	struct uncore_caps u;
	uint32_t v;
	(void)state;

	uc.mchbar_reg = 0x9fed10000ULL | 1;
	boot(pmu_model_skylake(), &uc, false, &p, &u);
	assert_true(u.imc);
	assert_int_equal(u.mchbar, 0x9fed10000ULL);
	assert_int_equal(u.mchbar_seed, 0x1fed10000ULL);
	assert_true(u.masks_differ);
	uncore_model_imc_add(3, 1234);
	assert_int_equal(uncore_imc_read(&u, UNC_IMC_DATA_READS, &v), 0);
	assert_int_equal(v, 1234);
	assert_int_equal(uncore_model_bad_mmio(), 0);
	/* What the seed's mask would read: nothing there. */
	assert_int_not_equal(hw_mmio_read32(u.mchbar_seed + 0x5050, &v), 0);
	assert_int_equal(uncore_model_bad_mmio(), 1);
	/* Bits 14:1 and 63:39 are not the base. */
	assert_int_equal(uncore_mchbar_base(0xfff0007ffffffffeULL | 0x1), 0x7fffff8000ULL);
	assert_int_equal(uncore_mchbar_base_seed(0x7fffffffffULL), 0x7ffff8000ULL);

	uc.mchbar_reg = 0xfed10000ULL;	/* MCHBAREN clear */
	boot(pmu_model_skylake(), &uc, false, &p, &u);
	assert_false(u.imc);
	assert_non_null(strstr(u.imc_why, "MCHBAREN[0] clear"));
	uc.mchbar_reg = 1;		/* enabled, base 0 */
	boot(pmu_model_skylake(), &uc, false, &p, &u);
	assert_false(u.imc);
	assert_int_equal(uncore_imc_read(&u, UNC_IMC_DATA_READS, &v), PMU_EARG);
	uc.host_vendor = 0x1022;	/* not Intel */
	uc.mchbar_reg = 0xfed10001ULL;
	boot(pmu_model_skylake(), &uc, false, &p, &u);
	assert_false(u.imc);
	assert_int_equal(uncore_model_mmio_reads(), 0);
}

/* The IMC counters are 32 bits, free-running: a difference across the wrap is still right. */
static void test_imc_wrap(void **state)
{
	struct uncore_model_config uc = uncore_model_skl(4);
	struct pmu_caps p;
	struct uncore_caps u;
	uint32_t a, b;
	(void)state;

	boot(pmu_model_skylake(), &uc, false, &p, &u);
	uncore_model_imc_add(4, 0xfffffff0U);
	assert_int_equal(uncore_imc_read(&u, UNC_IMC_DATA_WRITES, &a), 0);
	uncore_model_imc_add(4, 0x30);
	assert_int_equal(uncore_imc_read(&u, UNC_IMC_DATA_WRITES, &b), 0);
	assert_true(b < a);
	assert_int_equal(uncore_delta(a, b, UNC_IMC_WIDTH), 0x30);
	assert_int_equal(uncore_delta(5, 5, UNC_IMC_WIDTH), 0);
	assert_int_equal(uncore_imc_offset(UNC_IMC_GT_REQUESTS), 0x5040);
	assert_int_equal(uncore_imc_offset(UNC_IMC_DATA_WRITES), 0x5054);
}

static const struct uncore_evtsel lookup = { .event = UNC_CBO_CACHE_LOOKUP,
					     .umask = UNC_CBO_LOOKUP_READ_MESI, .en = true };

/* Local EN counts only under the global EN (seed 001 Table 2-2); select written disabled
 * before its counter. */
static void test_local_en_gated_by_global(void **state)
{
	struct uncore_model_config uc = uncore_model_skl(2);
	struct pmu_caps p;
	struct uncore_caps u;
	char err[PMU_ERR_LEN];
	uint64_t v;
	int i;
	(void)state;

	boot(pmu_model_skylake(), &uc, false, &p, &u);
	assert_int_equal(uncore_program(&u, CBO(1, 0), &lookup, 100, err, sizeof(err)), 0);
	i = pmu_model_log_find(MSR_UNC_CBO_0_PERFEVTSEL0 + 0x10, 0);
	assert_true(i >= 0);
	assert_false(pmu_model_log(i).value & UNC_EVTSEL_EN);
	assert_true(pmu_model_log_find(MSR_UNC_CBO_0_PERFCTR0 + 0x10, i) > i);
	uncore_model_cbo_event(1, 0x34, 0x1f, 5);
	assert_int_equal(uncore_read(&u, CBO(1, 0), &v), 0);
	assert_int_equal(v, 100);		/* global EN clear: no count */
	assert_int_equal(uncore_global_ctrl_write(&u, uncore_global_value(UNCORE_SKL, NULL, 0, 0,
						   false), err, sizeof(err)), 0);
	uncore_model_cbo_event(1, 0x34, 0x1f, 5);
	uncore_model_cbo_event(0, 0x34, 0x1f, 7);	/* CBo 0 not programmed */
	uncore_read(&u, CBO(1, 0), &v);
	assert_int_equal(v, 105);
	uncore_model_cbo_event(1, 0x34, 0x1f, 1);
	assert_int_equal(uncore_cbo_sum(&u, 0, &v), 0);
	assert_int_equal(v, 106);
	assert_int_equal(uncore_global_ctrl_write(&u, BIT_ULL(5), err, sizeof(err)), PMU_EARG);
	assert_non_null(strstr(err, "reserved"));
	assert_int_equal(pmu_model_faults(), 0);
	assert_int_equal(pmu_model_violations(), 0);
}

/* Seed 001 Table 3-2: UNC_ARB_TRK_OCCUPANCY only on ARB counter 0; absent boxes refused. */
static void test_restrictions(void **state)
{
	struct uncore_model_config uc = uncore_model_skl(2);
	struct uncore_evtsel occ = { .event = UNC_ARB_TRK_OCCUPANCY,
				     .umask = UNC_ARB_TRK_OCCUPANCY_ALL, .en = true };
	struct uncore_evtsel req = { .event = UNC_ARB_TRK_REQUESTS,
				     .umask = UNC_ARB_TRK_REQUESTS_ALL, .en = true };
	struct pmu_caps p;
	struct uncore_caps u;
	char err[PMU_ERR_LEN];
	uint64_t sel;
	(void)state;

	boot(pmu_model_skylake(), &uc, false, &p, &u);
	assert_int_equal(uncore_program(&u, ARB(1), &occ, 0, err, sizeof(err)), PMU_EARG);
	assert_non_null(strstr(err, "ARB counter 1"));
	assert_non_null(strstr(err, "Table 3-2"));
	assert_int_equal(pmu_model_writes(), 0);
	assert_int_equal(uncore_program(&u, ARB(0), &occ, 0, err, sizeof(err)), 0);
	assert_int_equal(uncore_program(&u, ARB(1), &req, 0, err, sizeof(err)), 0);
	assert_int_equal(uncore_event_counters(UNCORE_SKL, UNC_BOX_CBO, 0x22, 0x48), 3);
	pmu_model_clear_log();
	assert_int_equal(uncore_program(&u, CBO(2, 0), &lookup, 0, err, sizeof(err)), PMU_EARG);
	assert_non_null(strstr(err, "2 CBos"));
	assert_int_equal(uncore_program(&u, CBO(0, 2), &lookup, 0, err, sizeof(err)), PMU_EARG);
	assert_int_equal(pmu_model_writes(), 0);
	/* The model itself: a third CBo's select, a CBo's third select #GP. */
	assert_int_equal(hw_wrmsr(0x720, 0), 13);
	assert_int_equal(hw_wrmsr(0x702, 0), 13);
	/* THR beyond 5 bits, and Nehalem's OCC_CTR_RST, do not encode on Skylake. */
	assert_int_equal(uncore_evtsel_encode(UNCORE_SKL, &(struct uncore_evtsel){ .thr = 32 },
					      &sel, err, sizeof(err)), PMU_EARG);
	assert_int_equal(uncore_evtsel_encode(UNCORE_SKL, &(struct uncore_evtsel){ .occ_rst = true },
					      &sel, err, sizeof(err)), PMU_EARG);
	assert_int_equal(uncore_evtsel_encode(UNCORE_SKL, &(struct uncore_evtsel){ .event = 0x34,
			 .umask = 0x1f, .thr = 31, .inv = true, .edge = true, .ovf_en = true,
			 .en = true }, &sel, err, sizeof(err)), 0);
	assert_int_equal(sel, 0x1fd41f34ULL);
}

/* 44-bit CBo/ARB counters, 48-bit fixed: wrap, status bit per box, RW1C. */
static void test_widths_and_status_w1c(void **state)
{
	struct uncore_model_config uc = uncore_model_skl(4);
	struct pmu_caps p;
	struct uncore_caps u;
	char err[PMU_ERR_LEN];
	uint64_t v, st;
	(void)state;

	boot(pmu_model_skylake(), &uc, false, &p, &u);
	assert_int_equal(uncore_program(&u, CBO(3, 1), &lookup, W44 + 1, err, sizeof(err)), PMU_EARG);
	assert_non_null(strstr(err, "44-bit"));
	assert_int_equal(uncore_program(&u, CBO(3, 1), &lookup, W44 - 1, err, sizeof(err)), 0);
	assert_int_equal(uncore_fixed_program(&u, true, false, W48, err, sizeof(err)), 0);
	assert_int_equal(uncore_write(&u, CBO(3, 1), W44 + 1), 13);	/* above the width: #GP */
	uncore_global_ctrl_write(&u, UNC_GLOBAL_CTRL_EN, err, sizeof(err));
	uncore_model_cbo_event(3, 0x34, 0x1f, 3);
	uncore_model_uclk(2);
	uncore_read(&u, CBO(3, 1), &v);
	assert_int_equal(v, 1);
	uncore_read(&u, FIXED, &v);
	assert_int_equal(v, 1);
	assert_int_equal(uncore_global_status(&u, &st), 0);
	assert_int_equal(st, UNC_GLOBAL_STATUS_CBO_OVF | UNC_GLOBAL_STATUS_FIXED_OVF);
	assert_int_equal(uncore_status_bit(UNCORE_SKL, CBO(3, 1)), UNC_GLOBAL_STATUS_CBO_OVF);
	assert_int_equal(uncore_status_bit(UNCORE_SKL, ARB(0)), UNC_GLOBAL_STATUS_ARB_OVF);
	/* Writing 0 is ignored; 1 clears that bit only. */
	assert_int_equal(uncore_global_status_write(&u, 0), 0);
	uncore_global_status(&u, &st);
	assert_int_equal(st, UNC_GLOBAL_STATUS_CBO_OVF | UNC_GLOBAL_STATUS_FIXED_OVF);
	assert_int_equal(uncore_global_status_clear(&u, UNC_GLOBAL_STATUS_FIXED_OVF), 0);
	uncore_global_status(&u, &st);
	assert_int_equal(st, UNC_GLOBAL_STATUS_CBO_OVF);
	assert_int_equal(uncore_global_status_write(&u, BIT_ULL(2)), 13);	/* reserved */
	assert_int_equal(uncore_width(UNCORE_SKL, UNC_BOX_ARB), 44);
	assert_int_equal(uncore_width(UNCORE_SKL, UNC_BOX_FIXED), 48);
	assert_int_equal(uncore_width(UNCORE_NHM, UNC_BOX_NHM), 48);
}

static unsigned irqs;
static void count_irq(unsigned vector, bool nmi)
{
	(void)vector;
	(void)nmi;
	irqs++;
}

/* An overflow with OVF_EN: a PMI on core 0 when PMI_SEL_CORE0 and DEBUGCTL[13]; FRZ_ON_PMI
 * clears EN and the counters stop. */
static void test_pmi_and_freeze(void **state)
{
	struct uncore_model_config uc = uncore_model_skl(4);
	struct pmu_caps p;
	struct uncore_caps u;
	char err[PMU_ERR_LEN];
	uint64_t v, ctrl;
	(void)state;

	boot(pmu_model_skylake(), &uc, false, &p, &u);
	pmu_model_set_irq_handler(count_irq);
	pmu_model_set_if(true);
	hw_apic_lvtpc_write(0xf0);
	irqs = 0;
	/* No core selected: the status bit, no PMI. */
	uncore_fixed_program(&u, true, true, W48 - 1, err, sizeof(err));
	hw_wrmsr(MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_UNCORE_PMI_EN);
	uncore_global_ctrl_write(&u, uncore_global_value(UNCORE_SKL, NULL, 0, 0, false), err,
				 sizeof(err));
	uncore_model_uclk(4);
	assert_int_equal(irqs, 0);
	assert_int_equal(uncore_model_pmis(), 0);
	/* Core 0 selected, with freeze. */
	uncore_global_status_clear(&u, uncore_status_bits(UNCORE_SKL));
	uncore_fixed_program(&u, true, true, W48 - 1, err, sizeof(err));
	uncore_global_ctrl_write(&u, uncore_global_value(UNCORE_SKL, NULL, 0, 1, true), err,
				 sizeof(err));
	uncore_model_uclk(4);
	assert_int_equal(irqs, 1);
	assert_true(pmu_model_msr(MSR_CORE_PERF_GLOBAL_STATUS) & GLOBAL_STATUS_UNCORE_OVF);
	uncore_global_ctrl_read(&u, &ctrl);
	assert_false(ctrl & UNC_GLOBAL_CTRL_EN);
	uncore_read(&u, FIXED, &v);
	uncore_model_uclk(100);
	uncore_model_cbo_event(0, 0x34, 0x1f, 1);
	uncore_read(&u, FIXED, &ctrl);
	assert_int_equal(ctrl, v);		/* frozen */
	/* Without DEBUGCTL[13] the core does not take it. */
	hw_wrmsr(MSR_IA32_DEBUGCTLMSR, 0);
	hw_apic_lvtpc_write(0xf0);
	uncore_fixed_program(&u, true, true, W48 - 1, err, sizeof(err));
	uncore_global_ctrl_write(&u, uncore_global_value(UNCORE_SKL, NULL, 0, 1, false), err,
				 sizeof(err));
	uncore_model_uclk(4);
	assert_int_equal(irqs, 1);
	assert_int_equal(uncore_global_value(UNCORE_SKL, NULL, 0, 0xf, true),
			 UNC_GLOBAL_CTRL_EN | UNC_GLOBAL_CTRL_FRZ_ON_PMI | 0xf);
}

static void test_save_reset_restore(void **state)
{
	struct uncore_model_config uc = uncore_model_skl(2);
	struct pmu_caps p;
	struct uncore_caps u;
	struct uncore_state s;
	char err[PMU_ERR_LEN];
	(void)state;

	boot(pmu_model_skylake(), &uc, false, &p, &u);
	/* The firmware left the ARB counting with PMIs to core 1. */
	uncore_model_poke(MSR_UNC_ARB_PERFEVTSEL0, 0x400181);
	uncore_model_poke(MSR_UNC_ARB_PERFCTR0, 77);
	uncore_model_poke(MSR_UNC_PERF_GLOBAL_CTRL, UNC_GLOBAL_CTRL_EN | 2);
	assert_int_equal(uncore_save(&u, &s), 0);
	assert_int_equal(pmu_model_writes(), 0);
	uncore_program(&u, CBO(1, 1), &lookup, 5, err, sizeof(err));
	assert_int_equal(uncore_reset(&u), 0);
	assert_int_equal(uncore_model_msr(MSR_UNC_PERF_GLOBAL_CTRL), 0);
	assert_int_equal(uncore_model_msr(MSR_UNC_CBO_0_PERFEVTSEL0 + 0x11), 0);
	assert_int_equal(uncore_model_msr(MSR_UNC_ARB_PERFCTR0), 0);
	assert_int_equal(uncore_restore(&u, &s), 0);
	assert_int_equal(uncore_model_msr(MSR_UNC_ARB_PERFEVTSEL0), 0x400181);
	assert_int_equal(uncore_model_msr(MSR_UNC_ARB_PERFCTR0), 77);
	assert_int_equal(uncore_model_msr(MSR_UNC_PERF_GLOBAL_CTRL), UNC_GLOBAL_CTRL_EN | 2);
	/* The global enable was written last. */
	assert_int_equal(pmu_model_log(pmu_model_log_len() - 1).msr, MSR_UNC_PERF_GLOBAL_CTRL);
	assert_int_equal(pmu_model_faults(), 0);
}

/* Nehalem: per-counter global enables, status cleared through OVF_CTRL, OCC_CTR_RST. */
static void test_nehalem(void **state)
{
	struct uncore_model_config uc = uncore_model_nhm();
	struct uncore_evtsel alloc = { .event = UNC_GQ_ALLOC, .umask = UNC_GQ_RT, .en = true,
				       .occ_rst = true };
	struct uncore_ctr ctrs[2] = { NHM(3), FIXED };
	struct pmu_caps p;
	struct uncore_caps u;
	char err[PMU_ERR_LEN];
	uint64_t v, st;
	(void)state;

	boot(pmu_model_nehalem(), &uc, false, &p, &u);
	assert_true(u.present);
	assert_int_equal(uncore_program(&u, NHM(3), &alloc, W48 - 1, err, sizeof(err)), 0);
	assert_int_equal(uncore_model_msr(MSR_UNCORE_PERFEVTSEL0 + 3) & UNCORE_EVTSEL_OCC_CTR_RST, 0);
	assert_int_equal(uncore_fixed_program(&u, true, false, 0, err, sizeof(err)), 0);
	v = uncore_global_value(UNCORE_NHM, ctrs, 2, 0, false);
	assert_int_equal(v, BIT_ULL(3) | UNCORE_GLOBAL_CTRL_EN_FC0);
	uncore_model_nhm_event(0x03, 0x01, 5);
	uncore_read(&u, NHM(3), &st);
	assert_int_equal(st, W48 - 1);		/* EN_PC3 clear: nothing */
	assert_int_equal(uncore_global_ctrl_write(&u, v, err, sizeof(err)), 0);
	uncore_model_nhm_event(0x03, 0x01, 5);
	uncore_model_uclk(10);
	uncore_read(&u, NHM(3), &st);
	assert_int_equal(st, 3);
	uncore_read(&u, FIXED, &st);
	assert_int_equal(st, 10);
	uncore_global_status(&u, &st);
	assert_true(st & BIT_ULL(3));
	assert_int_equal(uncore_global_status_write(&u, BIT_ULL(3)), 13);	/* read-only */
	assert_int_equal(uncore_global_status_clear(&u, BIT_ULL(3)), 0);
	assert_true(pmu_model_log_find(MSR_UNCORE_PERF_GLOBAL_OVF_CTRL, 0) >= 0);
	uncore_global_status(&u, &st);
	assert_false(st & BIT_ULL(3));
	assert_int_equal(uncore_global_value(UNCORE_NHM, ctrs, 1, 1, true),
			 BIT_ULL(3) | BIT_ULL(48) | BIT_ULL(63));
	assert_int_equal(uncore_program(&u, NHM(8), &alloc, 0, err, sizeof(err)), PMU_EARG);
	assert_int_equal(pmu_model_faults(), 1);	/* the read-only status write above */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kind_from_model),
		cmocka_unit_test(test_cbo_count_rule),
		cmocka_unit_test(test_coffee_lake_eight_cbos),
		cmocka_unit_test(test_discover_skylake),
		cmocka_unit_test(test_absent_uncore_never_written),
		cmocka_unit_test(test_nehalem_canary),
		cmocka_unit_test(test_no_core_pmu_no_access),
		cmocka_unit_test(test_mchbar_masks),
		cmocka_unit_test(test_imc_wrap),
		cmocka_unit_test(test_local_en_gated_by_global),
		cmocka_unit_test(test_restrictions),
		cmocka_unit_test(test_widths_and_status_w1c),
		cmocka_unit_test(test_pmi_and_freeze),
		cmocka_unit_test(test_save_reset_restore),
		cmocka_unit_test(test_nehalem),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
