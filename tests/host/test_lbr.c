/* SPDX-License-Identifier: MIT */
/*
 * Host tests of pmu/lbr.c: the stack each model has, record decode for every format, the
 * filter encodings of seed 000 Table 7 and architectural LBR, and reads through the strict
 * model (tests/host/pmu_model.c), which records branches as the SDM says.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "arch/x86/hw.h"
#include "arch/x86/msr.h"
#include "pmu/lbr.h"
#include "tests/host/pmu_model.h"

static void test_model_table(void **state)
{
	struct lbr_caps l;
	struct cpuid_regs leaf = { 0x0c, 0x7, 0x7, 0 };	/* depths 24 and 32; filters; mispred, timed, type */
	(void)state;

	lbr_caps_decode(&l, UARCH_NEHALEM, true, LBR_FORMAT_EIP_FLAGS, NULL);
	assert_true(l.present);
	assert_int_equal(l.depth, 16);
	assert_int_equal(l.from, 0x680);
	assert_int_equal(l.to, 0x6c0);
	assert_int_equal(l.info, 0);
	assert_true(l.has_select);
	assert_true(l.has_mispred);
	lbr_caps_decode(&l, UARCH_SKYLAKE, true, LBR_FORMAT_INFO, NULL);
	assert_int_equal(l.depth, 32);
	assert_int_equal(l.info, 0xdc0);
	assert_true(l.has_cycles);
	lbr_caps_decode(&l, UARCH_CORE2, true, LBR_FORMAT_EIP, NULL);
	assert_int_equal(l.depth, 4);
	assert_int_equal(l.from, 0x40);
	assert_int_equal(l.to, 0x60);
	assert_false(l.has_select);
	assert_false(l.has_mispred);
	lbr_caps_decode(&l, UARCH_SILVERMONT, true, LBR_FORMAT_EIP_FLAGS, NULL);
	assert_int_equal(l.depth, 8);
	assert_true(l.has_select);
	lbr_caps_decode(&l, UARCH_KNIGHTS_LANDING, true, LBR_FORMAT_LIP, NULL);
	assert_int_equal(l.format, LBR_FORMAT_EIP_FLAGS);	/* Linux intel_pmu_lbr_init_knl */
	assert_true(l.has_mispred && l.has_select);
	assert_int_equal(l.depth, 8);
	/* Unknown: a model pmuboot has no table for, a format it cannot decode, no format. */
	lbr_caps_decode(&l, UARCH_UNKNOWN, true, LBR_FORMAT_INFO, NULL);
	assert_false(l.present);
	lbr_caps_decode(&l, UARCH_SKYLAKE, true, 9, NULL);
	assert_false(l.present);
	lbr_caps_decode(&l, UARCH_SKYLAKE, false, 0, NULL);
	assert_false(l.present);
	/* Architectural LBR wins over the table, whatever the model. */
	lbr_caps_decode(&l, UARCH_SAPPHIRE_RAPIDS, true, LBR_FORMAT_ARCH, &leaf);
	assert_true(l.arch);
	assert_true(l.present);
	assert_int_equal(l.depth, 32);
	assert_int_equal(l.arch_depths, 0x0c);
	assert_int_equal(l.from, 0x1500);
	assert_int_equal(l.to, 0x1600);
	assert_int_equal(l.info, 0x1200);
	assert_true(l.arch_cpl_filter && l.arch_branch_filter && l.arch_call_stack);
	assert_true(l.has_mispred && l.has_cycles);
	assert_false(l.arch_deep_c_reset);
	leaf.eax |= 1U << 30;	/* deep C-state reset */
	lbr_caps_decode(&l, UARCH_SAPPHIRE_RAPIDS, true, LBR_FORMAT_ARCH, &leaf);
	assert_true(l.arch_deep_c_reset);
	assert_int_equal(l.depth, 32);
}

static void test_decode_formats(void **state)
{
	struct lbr_caps l;
	struct lbr_entry e;
	(void)state;

	memset(&l, 0, sizeof(l));
	l.format = LBR_FORMAT_32;
	lbr_decode(&l, 0x2000000010ULL, 0, 0, &e);
	assert_int_equal(e.from, 0x10);
	assert_int_equal(e.to, 0x20);
	l.format = LBR_FORMAT_EIP_FLAGS;
	lbr_decode(&l, LBR_FROM_FLAG_MISPRED | 0x401000, 0x402000, 0, &e);
	assert_true(e.mispred);
	assert_int_equal(e.from, 0x401000);
	lbr_decode(&l, 0x7fffffffffff1000ULL, 0, 0, &e);	/* a kernel address, bit 62 set */
	assert_false(e.mispred);
	assert_int_equal(e.from, 0xffffffffffff1000ULL);
	l.format = LBR_FORMAT_EIP_FLAGS2;
	lbr_decode(&l, LBR_FROM_FLAG_MISPRED | LBR_FROM_FLAG_ABORT | 0x1000, 0x2000, 0, &e);
	assert_true(e.mispred && e.abort && !e.in_tx);
	assert_int_equal(e.from, 0x1000);
	l.format = LBR_FORMAT_INFO;
	lbr_decode(&l, 0x1000, 0x2000, LBR_INFO_MISPRED | 33, &e);
	assert_true(e.mispred);
	assert_int_equal(e.cycles, 33);
	assert_int_equal(e.to, 0x2000);
	l.format = LBR_FORMAT_TIME;
	lbr_decode(&l, 0x1000, 0x0007000000002000ULL, 0, &e);
	assert_int_equal(e.cycles, 7);
	assert_int_equal(e.to, 0x2000);
	l.arch = true;
	lbr_decode(&l, 0x1000, 0x2000, LBR_INFO_MISPRED | LBR_INFO_CYC_CNT_VALID | 5, &e);
	assert_true(e.mispred);
	assert_int_equal(e.cycles, 5);
}

/* Seed 000 Table 7: a set LBR_SELECT bit excludes; IA32_LBR_CTL's kind bits include. */
static void test_filters(void **state)
{
	struct lbr_filter f = { 0, false, false };
	(void)state;

	assert_int_equal(lbr_select_value(&f), 0);
	assert_int_equal(arch_lbr_ctl_value(&f), 0x7f0007);
	f.drop_kinds = 1U << LBR_KIND_JCC;
	assert_int_equal(lbr_select_value(&f), 1ULL << 2);
	f.drop_kinds = 1U << LBR_KIND_REL_CALL | 1U << LBR_KIND_IND_CALL;
	assert_int_equal(lbr_select_value(&f), 3ULL << 3);
	f.drop_kinds = 1U << LBR_KIND_RET;
	assert_int_equal(lbr_select_value(&f), 1ULL << 5);
	f.drop_kinds = 1U << LBR_KIND_IND_JMP | 1U << LBR_KIND_REL_JMP;
	assert_int_equal(lbr_select_value(&f), 3ULL << 6);
	f.drop_kinds = 1U << LBR_KIND_FAR;
	assert_int_equal(lbr_select_value(&f), 1ULL << 8);
	assert_int_equal(arch_lbr_ctl_value(&f), 0x3f0007);
	f.drop_kinds = 0;
	f.drop_cpl0 = true;
	assert_int_equal(lbr_select_value(&f), 1);
	assert_int_equal(arch_lbr_ctl_value(&f), 0x7f0005);
	f.drop_cpl0 = false;
	f.drop_user = true;
	assert_int_equal(lbr_select_value(&f), 2);
	assert_int_equal(arch_lbr_ctl_value(&f), 0x7f0003);
}

static struct cpuid_regs model_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf)
{
	(void)ctx;
	return hw_cpuid(leaf, subleaf);
}

static void discover(struct pmu_model_config cfg, struct pmu_caps *p)
{
	struct cpu_info ci;

	pmu_model_reset(&cfg);
	cpu_info_decode(&ci, model_cpuid, NULL);
	pmu_discover(p, &ci);
}

/* Reads through the model: newest first, across the wrap, filters and flags. */
static void test_read_through_model(void **state)
{
	struct pmu_model_config cfg = pmu_model_skylake();
	struct lbr_entry e[LBR_MAX_DEPTH];
	struct lbr_filter f = { 1U << LBR_KIND_JCC, false, false };
	struct pmu_caps p;
	uint32_t msr;
	uint64_t v;
	unsigned n;
	(void)state;

	discover(cfg, &p);
	assert_null(lbr_unavailable(&p, false));
	assert_int_equal(p.lbr.depth, 32);
	assert_int_equal(lbr_clear(&p.lbr), 0);
	lbr_start_msr(&p.lbr, NULL, 0, &msr, &v);
	assert_int_equal(msr, MSR_IA32_DEBUGCTLMSR);
	assert_int_equal(hw_wrmsr(msr, v), 0);
	for (unsigned i = 0; i < 40; i++)
		pmu_model_branch(0x1000 + i, 0x2000 + i, PMU_MODEL_BR_JCC, 0, i == 39);
	assert_int_equal(lbr_read(&p.lbr, e, LBR_MAX_DEPTH, &n), 0);
	assert_int_equal(n, 32);
	for (unsigned i = 0; i < 32; i++) {
		assert_int_equal(e[i].from, 0x1000 + 39 - i);
		assert_int_equal(e[i].to, 0x2000 + 39 - i);
		assert_int_equal(e[i].mispred, i == 0);
	}
	/* JCC dropped: a call is kept, a taken Jcc is not. */
	assert_int_equal(lbr_set_filter(&p.lbr, &f), 0);
	pmu_model_branch(0x5000, 0x6000, PMU_MODEL_BR_REL_CALL, 0, false);
	pmu_model_branch(0x7000, 0x8000, PMU_MODEL_BR_JCC, 0, false);
	assert_int_equal(lbr_read(&p.lbr, e, LBR_MAX_DEPTH, &n), 0);
	assert_int_equal(e[0].from, 0x5000);
	assert_int_equal(e[1].from, 0x1000 + 39);
	assert_int_equal(pmu_model_faults(), 0);
	assert_int_equal(pmu_model_violations(), 0);
	/* Nehalem: format 3, the flag in FROM[63]. */
	discover(pmu_model_nehalem(), &p);
	assert_int_equal(p.lbr.depth, 16);
	assert_int_equal(hw_wrmsr(MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_LBR), 0);
	pmu_model_branch(0x1234, 0x5678, PMU_MODEL_BR_RET, 0, true);
	assert_int_equal(lbr_read(&p.lbr, e, LBR_MAX_DEPTH, &n), 0);
	assert_int_equal(n, 16);
	assert_int_equal(e[0].from, 0x1234);
	assert_true(e[0].mispred);
	assert_int_equal(pmu_model_faults(), 0);
}

static void test_unavailable(void **state)
{
	struct pmu_model_config cfg = pmu_model_skylake();
	struct pmu_caps p;
	(void)state;

	cfg.pdcm = false;
	discover(cfg, &p);
	assert_non_null(strstr(lbr_unavailable(&p, false), "PDCM[15]=0"));
	assert_null(lbr_unavailable(&p, true));
	cfg = pmu_model_skylake();
	cfg.model = 0x01;	/* a family 6 model pmuboot has no table for */
	discover(cfg, &p);
	assert_non_null(strstr(lbr_unavailable(&p, false), "no LBR stack pmuboot knows for family "
					      "0x6 model 0x1"));
	cfg = pmu_model_skylake();
	cfg.amd = true;
	discover(cfg, &p);
	assert_non_null(strstr(lbr_unavailable(&p, false), "AMD"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_table),
		cmocka_unit_test(test_decode_formats),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_read_through_model),
		cmocka_unit_test(test_unavailable),
	};

	return cmocka_run_group_tests_name("lbr", tests, NULL, NULL);
}
