/* SPDX-License-Identifier: MIT */
/*
 * Host unit tests of the PMU library (the pmu/ sources) against the strict SDM model
 * (tests/host/pmu_model.c), which stands in for arch/x86/hw.c: discovery, encoding,
 * programming order, reserved bits, legacy and full-width writes, counting and its gates,
 * overflow arithmetic and status, save/restore, and the PMI handler's bookkeeping.
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
#include "pmu/ds.h"
#include "pmu/event.h"
#include "pmu/pmi.h"
#include "pmu/pmu.h"
#include "tests/host/pmu_model.h"

#define W48 ((1ULL << 48) - 1)

static struct cpuid_regs model_cpuid(void *ctx, uint32_t leaf, uint32_t sub)
{
	(void)ctx;
	return hw_cpuid(leaf, sub);
}

/* Resets the model to cfg and discovers it into p, as the firmware does at boot. */
static void boot(struct pmu_model_config cfg, struct pmu_caps *p)
{
	struct cpu_info ci;

	pmu_model_reset(&cfg);
	cpu_info_decode(&ci, model_cpuid, NULL);
	pmu_discover(p, &ci);
	pmu_model_clear_log();
}

static void test_discover_skylake(void **state)
{
	struct pmu_caps p;
	(void)state;

	boot(pmu_model_skylake(), &p);
	assert_int_equal(p.version, 4);
	assert_int_equal(p.num_gp, 4);
	assert_int_equal(p.gp_width, 48);
	assert_int_equal(p.num_fixed, 3);
	assert_int_equal(p.fixed_width, 48);
	assert_int_equal(p.fixed_mask, 0x7);
	assert_true(p.has_perf_caps);
	assert_true(p.full_width_write);
	assert_int_equal(p.uarch, UARCH_SKYLAKE);
	assert_false(p.hybrid);
	assert_int_equal(pmu_gp_mask(&p), 0xf);
	assert_int_equal(pmu_fixed_mask(&p), 0x7ULL << 32);
}

static void test_discover_others(void **state)
{
	struct pmu_caps p;
	struct pmu_model_config cfg;
	(void)state;

	boot(pmu_model_nehalem(), &p);
	assert_int_equal(p.version, 3);
	assert_int_equal(p.uarch, UARCH_NEHALEM);
	assert_false(p.full_width_write);

	boot(pmu_model_v1(), &p);
	assert_int_equal(p.version, 1);
	assert_int_equal(p.num_gp, 2);
	assert_int_equal(p.num_fixed, 0);	/* fixed counters are enumerated from v2 */
	assert_false(p.has_perf_caps);

	boot(pmu_model_none(), &p);
	assert_int_equal(p.version, 0);
	assert_int_equal(p.num_gp, 0);

	/* Version 5: ECX adds fixed counters beyond EDX[4:0]; a hybrid E-core; events
	 * marked unavailable in EBX are left out. */
	cfg = pmu_model_skylake();
	cfg.version = 5;
	cfg.num_fixed = 3;
	cfg.fixed_mask_ecx = 0x9;	/* fixed 0 and 3 */
	cfg.ebx_len = 8;
	cfg.ebx_unavailable = 1U << ARCH_EVENT_LLC_MISSES;
	cfg.hybrid = true;
	cfg.core_type = HYBRID_CORE_ATOM;
	cfg.model = 0x97;
	boot(cfg, &p);
	assert_int_equal(p.fixed_mask, 0xf);
	assert_int_equal(p.num_fixed, 4);
	assert_int_equal(p.events, 0xff & ~(1U << ARCH_EVENT_LLC_MISSES));
	assert_true(p.hybrid);
	assert_int_equal(p.core_type, HYBRID_CORE_ATOM);
	assert_int_equal(p.uarch, UARCH_ALDER_LAKE);
	assert_string_equal(pmu_core_type_name(p.core_type), "Atom (E-core)");
	assert_false(p.pcore_extra);

	/* Issue 21 item 16: an Alder Lake P-core, CPUID.0AH saying 6 GP and fixed 0-2 (what
	 * both core types have): PMC6-7 and fixed 3 are added; on the E-core, on Raptor Lake's
	 * E-core and with leaf 23H nothing is. */
	cfg = pmu_model_skylake();
	cfg.version = 5;
	cfg.num_gp = 6;
	cfg.num_fixed = 3;
	cfg.hybrid = true;
	cfg.core_type = HYBRID_CORE_CORE;
	cfg.model = 0x97;
	boot(cfg, &p);
	assert_int_equal(p.num_gp, 8);
	assert_int_equal(p.num_gp_cpuid, 8);
	assert_int_equal(p.fixed_mask, 0xf);
	assert_int_equal(p.num_fixed, 4);
	assert_true(p.pcore_extra);
	cfg.model = 0xb7;	/* Raptor Lake */
	boot(cfg, &p);
	assert_true(p.pcore_extra);
	cfg.core_type = HYBRID_CORE_ATOM;
	boot(cfg, &p);
	assert_int_equal(p.num_gp, 6);
	assert_false(p.pcore_extra);
	cfg.core_type = HYBRID_CORE_CORE;
	cfg.model = 0x5e;	/* not Alder/Raptor Lake: left alone */
	boot(cfg, &p);
	assert_int_equal(p.num_gp, 6);
	pmu_caps_apply_counter_leaf(&p, 0x3f, 0x7);
	p.uarch = UARCH_ALDER_LAKE;
	pmu_caps_apply_hybrid_core(&p);	/* leaf 23H already said: left alone */
	assert_int_equal(p.num_gp, 6);
	assert_false(p.pcore_extra);
}

/* Meteor Lake and later: CPUID.23H.1 gives this core type's counters, replacing 0AH's. */
static void test_counter_leaf_per_core_type(void **state)
{
	struct pmu_caps p;
	(void)state;

	boot(pmu_model_skylake(), &p);
	pmu_caps_apply_counter_leaf(&p, 0xff, 0x7);	/* a P-core: 8 GP, fixed 0-2 */
	assert_true(p.leaf23);
	assert_int_equal(p.num_gp_cpuid, 8);
	assert_int_equal(p.num_gp, 8);
	assert_int_equal(p.fixed_mask, 0x7);
	assert_int_equal(p.num_fixed, 3);
	pmu_caps_apply_counter_leaf(&p, 0x3f, 0x9);	/* an E-core: 6 GP, fixed 0 and 3 */
	assert_int_equal(p.num_gp, 6);
	assert_int_equal(p.fixed_mask, 0x9);
	assert_int_equal(p.num_fixed, 4);
	pmu_caps_apply_counter_leaf(&p, 0x0b, 0);	/* a gap after counter 1: 0 and 1 used */
	assert_int_equal(p.num_gp_cpuid, 4);
	assert_int_equal(p.num_gp, 2);
	assert_int_equal(p.num_fixed, 0);
	boot(pmu_model_none(), &p);
	pmu_caps_apply_counter_leaf(&p, 0xff, 0x7);	/* no architectural PMU: nothing */
	assert_int_equal(p.num_gp, 0);
	assert_false(p.leaf23);
}

static void test_evtsel_encoding(void **state)
{
	struct pmu_caps p;
	struct pmu_evtsel e = {
		.event = 0xc0, .umask = 0x01, .usr = true, .os = false, .edge = true, .pc = false,
		.intr = true, .any = false, .en = true, .inv = true, .cmask = 3,
	}, d;
	char err[PMU_ERR_LEN];
	(void)state;

	/* seed 002: event 7:0, umask 15:8, USR 16, OS 17, E 18, PC 19, INT 20, ANY 21,
	 * EN 22, INV 23, CMASK 31:24. */
	assert_int_equal(pmu_evtsel_encode(&e), 0x03d501c0ULL);
	pmu_evtsel_decode(0x03d501c0ULL, &d);
	assert_memory_equal(&d, &e, sizeof(e));
	e = (struct pmu_evtsel){ .pc = true, .any = true, .os = true };
	assert_int_equal(pmu_evtsel_encode(&e), (1ULL << 19) | (1ULL << 21) | (1ULL << 17));

	boot(pmu_model_skylake(), &p);
	assert_int_equal(pmu_evtsel_check(&p, 1ULL << 21, err, sizeof(err)), 0);	/* AnyThread ok on v3+ */
	assert_int_equal(pmu_evtsel_check(&p, 1ULL << 40, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "0x10000000000"));
	p.version = 2;
	assert_int_equal(pmu_evtsel_check(&p, 1ULL << 21, err, sizeof(err)), -1);

	e = pmu_arch_evtsel(ARCH_EVENT_BRANCHES, true, true);
	assert_int_equal(pmu_evtsel_encode(&e), 0x4300c4ULL);
}

static void test_program_order_and_reserved_bits(void **state)
{
	struct pmu_caps p;
	char err[PMU_ERR_LEN];
	uint64_t sel = 0x4200c0ULL;	/* instructions, OS, EN */
	(void)state;

	boot(pmu_model_skylake(), &p);
	/* Reserved bits: refused before any WRMSR. */
	assert_int_equal(pmu_gp_program(&p, 1, sel | (1ULL << 33), 0, err, sizeof(err)), PMU_EARG);
	assert_int_equal(pmu_model_writes(), 0);
	/* A counter that does not exist: refused too. */
	assert_int_equal(pmu_gp_program(&p, 4, sel, 0, err, sizeof(err)), PMU_EARG);
	assert_int_equal(pmu_model_writes(), 0);

	/* The manual's order: selector with EN clear, counter, selector with EN. */
	assert_int_equal(pmu_gp_program(&p, 1, sel, 5, err, sizeof(err)), 0);
	assert_int_equal(pmu_model_log_len(), 3);
	assert_int_equal(pmu_model_log(0).msr, MSR_IA32_PERFEVTSEL0 + 1);
	assert_int_equal(pmu_model_log(0).value, sel & ~ARCH_PERFMON_EVENTSEL_ENABLE);
	assert_int_equal(pmu_model_log(1).msr, MSR_IA32_PMC0_FULL + 1);
	assert_int_equal(pmu_model_log(2).value, sel);
	assert_int_equal(pmu_model_violations(), 0);
	assert_int_equal(pmu_model_msr(MSR_IA32_PMC0 + 1), 5);

	/* Rewriting an enabled counter goes through a disabled selector, then restores it. */
	assert_int_equal(pmu_gp_write(&p, 1, 77, err, sizeof(err)), 0);
	assert_int_equal(pmu_model_violations(), 0);
	assert_int_equal(pmu_model_msr(MSR_IA32_PERFEVTSEL0 + 1), sel);
	assert_int_equal(pmu_model_msr(MSR_IA32_PMC0 + 1), 77);
}

static void test_legacy_and_full_width_writes(void **state)
{
	struct pmu_caps p;
	char err[PMU_ERR_LEN];
	uint64_t v;
	(void)state;

	/* Legacy: bit 31 is copied upward to the counter width. */
	assert_int_equal(pmu_legacy_write_result(0x80000000ULL, 48), 0xffff80000000ULL);
	assert_int_equal(pmu_legacy_write_result(0x7fffffffULL, 48), 0x7fffffffULL);
	assert_int_equal(pmu_legacy_write_result(0x1234ffffffffULL, 40), 0xffffffffffULL);

	boot(pmu_model_nehalem(), &p);
	/* Representable through a legacy write: allowed, and the model agrees. */
	assert_int_equal(pmu_gp_program(&p, 0, 0, W48 - 99, err, sizeof(err)), 0);
	assert_int_equal(pmu_gp_read(&p, 0, &v), 0);
	assert_int_equal(v, W48 - 99);
	/* Not representable without full-width writes: refused, nothing written. */
	pmu_model_clear_log();
	assert_int_equal(pmu_gp_write(&p, 0, 0x100000000ULL, err, sizeof(err)), PMU_EARG);
	assert_non_null(strstr(err, "full-width"));
	assert_int_equal(pmu_model_log_find(MSR_IA32_PMC0, 0), -1);
	/* The model faults the full-width MSR without PERF_CAPABILITIES bit 13. */
	assert_int_equal(hw_wrmsr(MSR_IA32_PMC0_FULL, 1), 13);

	boot(pmu_model_skylake(), &p);
	assert_int_equal(pmu_gp_write(&p, 2, 0x123456789aULL, err, sizeof(err)), 0);
	assert_int_equal(pmu_gp_read(&p, 2, &v), 0);
	assert_int_equal(v, 0x123456789aULL);
	assert_int_equal(pmu_gp_write(&p, 2, 1ULL << 48, err, sizeof(err)), PMU_EARG);
}

static void test_counting_and_gates(void **state)
{
	struct pmu_caps p;
	char err[PMU_ERR_LEN];
	uint64_t v;
	struct pmu_evtsel os = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	struct pmu_evtsel usr = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, true, false);
	(void)state;

	boot(pmu_model_skylake(), &p);
	assert_int_equal(pmu_global_ctrl_write(&p, 0, err, sizeof(err)), 0);
	assert_int_equal(pmu_gp_program(&p, 0, pmu_evtsel_encode(&os), 0, err, sizeof(err)), 0);
	assert_int_equal(pmu_gp_program(&p, 1, pmu_evtsel_encode(&usr), 0, err, sizeof(err)), 0);
	assert_int_equal(pmu_fixed_program(&p, 0, FIXED_CTR_CTRL_OS, 0, err, sizeof(err)), 0);

	pmu_model_retire(100, 0);	/* GLOBAL_CTRL off: nothing counts */
	assert_int_equal(pmu_gp_rdpmc(&p, 0, &v), 0);
	assert_int_equal(v, 0);

	assert_int_equal(pmu_global_ctrl_write(&p, 0x3 | (1ULL << 32), err, sizeof(err)), 0);
	pmu_model_retire(1000, 0);	/* ring 0 */
	pmu_model_retire(7, 3);		/* ring 3 */
	assert_int_equal(pmu_gp_rdpmc(&p, 0, &v), 0);
	assert_int_equal(v, 1000);
	assert_int_equal(pmu_gp_rdpmc(&p, 1, &v), 0);
	assert_int_equal(v, 7);
	assert_int_equal(pmu_fixed_rdpmc(&p, 0, &v), 0);
	assert_int_equal(v, 1000);
	assert_int_equal(pmu_fixed_read(&p, 0, &v), 0);
	assert_int_equal(v, 1000);

	/* Enabling a counter that does not exist is refused before the WRMSR. */
	assert_int_equal(pmu_global_ctrl_write(&p, 1ULL << 4, err, sizeof(err)), PMU_EARG);
	assert_int_equal(pmu_fixed_program(&p, 3, FIXED_CTR_CTRL_OS, 0, err, sizeof(err)), PMU_EARG);
	assert_int_equal(pmu_fixed_program(&p, 0, 0x10, 0, err, sizeof(err)), PMU_EARG);
	assert_int_equal(pmu_model_faults(), 0);

	/* Version 1 has no GLOBAL_CTRL: refused without touching the MSR. */
	boot(pmu_model_v1(), &p);
	assert_int_equal(pmu_global_ctrl_write(&p, 1, err, sizeof(err)), PMU_EARG);
	assert_int_equal(pmu_model_writes(), 0);
}

static void test_overflow_and_status(void **state)
{
	struct pmu_caps p;
	char err[PMU_ERR_LEN];
	uint64_t v, st;
	struct pmu_evtsel os = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	(void)state;

	/* Width-correct differences across a wrap. */
	assert_int_equal(pmu_counter_delta(W48 - 9, 10, 48), 20);
	assert_int_equal(pmu_counter_delta(5, 5, 48), 0);
	assert_int_equal(pmu_counter_delta(0, W48, 48), W48);
	assert_int_equal(pmu_counter_delta(~0ULL, 0, 64), 1);

	boot(pmu_model_skylake(), &p);
	assert_int_equal(pmu_gp_program(&p, 3, pmu_evtsel_encode(&os), W48 - 9, err, sizeof(err)), 0);
	assert_int_equal(pmu_global_ctrl_write(&p, 1ULL << 3, err, sizeof(err)), 0);
	pmu_model_retire(20, 0);
	assert_int_equal(pmu_gp_read(&p, 3, &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(pmu_global_status(&p, &st), 0);
	assert_int_equal(st, 1ULL << 3);
	/* OVF_CTRL clears it; bits OVF_CTRL may not define are never written (no WRMSR, no
	 * fault). */
	pmu_model_clear_log();
	assert_int_equal(pmu_global_ovf_clear(&p, (1ULL << 20) | (1ULL << 60)), 0);
	assert_int_equal(pmu_model_log_len(), 0);
	assert_int_equal(pmu_model_faults(), 0);
	assert_int_equal(pmu_global_ovf_clear(&p, 1ULL << 3), 0);
	assert_int_equal(pmu_global_status(&p, &st), 0);
	assert_int_equal(st, 0);
	/* Version 4: STATUS_SET sets, INUSE reports. */
	assert_int_equal(pmu_global_status_set(&p, 1ULL << 1), 0);
	assert_int_equal(pmu_global_status(&p, &st), 0);
	assert_int_equal(st, 1ULL << 1);
	assert_int_equal(pmu_global_inuse(&p, &v), 0);
	assert_true(v & (1ULL << 3));
	assert_true(pmu_status_bits(&p) & GLOBAL_STATUS_COUNTERS_FROZEN);
	assert_true(pmu_ovf_clear_bits(&p) & GLOBAL_STATUS_COUNTERS_FROZEN);
	assert_false(pmu_ovf_clear_bits(&p) & (GLOBAL_STATUS_ASCI | GLOBAL_STATUS_TRACE_TOPAPMI));

	boot(pmu_model_nehalem(), &p);
	assert_int_equal(pmu_global_status_set(&p, 1), PMU_EARG);	/* v3: no STATUS_SET */
	assert_false(pmu_status_bits(&p) & GLOBAL_STATUS_COUNTERS_FROZEN);
}

static void test_save_restore(void **state)
{
	struct pmu_caps p;
	struct pmu_state s;
	char err[PMU_ERR_LEN];
	uint32_t regs[] = {
		MSR_IA32_PERFEVTSEL0, MSR_IA32_PERFEVTSEL0 + 2, MSR_IA32_PMC0, MSR_IA32_PMC0 + 2,
		MSR_CORE_PERF_FIXED_CTR0 + 1, MSR_CORE_PERF_FIXED_CTR_CTRL, MSR_CORE_PERF_GLOBAL_CTRL,
		MSR_CORE_PERF_GLOBAL_STATUS, MSR_IA32_DEBUGCTLMSR,
	};
	uint64_t before[sizeof(regs) / sizeof(regs[0])];
	(void)state;

	boot(pmu_model_skylake(), &p);
	/* What "firmware before us" left: two counters programmed, one running, a status. */
	assert_int_equal(pmu_gp_program(&p, 0, 0x4300c4ULL, 0x1234, err, sizeof(err)), 0);
	assert_int_equal(pmu_gp_program(&p, 2, 0x01003cULL, 99, err, sizeof(err)), 0);
	assert_int_equal(pmu_fixed_program(&p, 1, FIXED_CTR_CTRL_OS | FIXED_CTR_CTRL_USR, 555, err, sizeof(err)), 0);
	assert_int_equal(pmu_global_ctrl_write(&p, 0x1 | (1ULL << 33), err, sizeof(err)), 0);
	assert_int_equal(pmu_global_status_set(&p, 1ULL << 2), 0);
	assert_int_equal(hw_wrmsr(MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI), 0);
	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
		before[i] = pmu_model_msr(regs[i]);

	assert_int_equal(pmu_save(&p, &s), 0);
	assert_true(s.saved);
	assert_int_equal(pmu_reset(&p), 0);	/* pmuboot's own use of the PMU */
	assert_int_equal(pmu_model_msr(MSR_CORE_PERF_GLOBAL_CTRL), 0);
	assert_int_equal(pmu_model_msr(MSR_IA32_PMC0), 0);
	assert_int_equal(pmu_model_msr(MSR_CORE_PERF_GLOBAL_STATUS), 0);
	assert_int_equal(pmu_restore(&p, &s), 0);
	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		if (pmu_model_msr(regs[i]) != before[i])
			fail_msg("MSR 0x%x restored as 0x%llx, was 0x%llx", regs[i],
				 (unsigned long long)pmu_model_msr(regs[i]), (unsigned long long)before[i]);
	}
	assert_int_equal(pmu_model_violations(), 0);
	assert_int_equal(pmu_model_faults(), 0);
	/* GLOBAL_CTRL goes back last, after every selector and counter. */
	assert_int_equal(pmu_model_log(pmu_model_log_len() - 1).msr, MSR_CORE_PERF_GLOBAL_CTRL);
}

static void test_boot_save_reset_restore(void **state)
{
	char err[PMU_ERR_LEN];
	(void)state;

	boot(pmu_model_nehalem(), &pmu);
	pmu_boot_state = (struct pmu_state){ 0 };
	assert_int_equal(pmu_gp_program(&pmu, 1, 0x4300c0ULL, 42, err, sizeof(err)), 0);
	assert_int_equal(pmu_global_ctrl_write(&pmu, 0x2, err, sizeof(err)), 0);
	pmu_boot_save();		/* what efi_main does before the first check */
	assert_true(pmu_boot_state.saved);
	assert_int_equal(pmu_model_msr(MSR_IA32_PERFEVTSEL0 + 1), 0);
	assert_int_equal(pmu_model_msr(MSR_CORE_PERF_GLOBAL_CTRL), 0);
	pmu_model_retire(10, 0);	/* nothing counts while the checks own the PMU */
	assert_int_equal(pmu_model_msr(MSR_IA32_PMC0 + 1), 0);
	pmu_boot_restore();		/* what every way out does */
	assert_int_equal(pmu_model_msr(MSR_IA32_PERFEVTSEL0 + 1), 0x4300c0ULL);
	assert_int_equal(pmu_model_msr(MSR_IA32_PMC0 + 1), 42);
	assert_int_equal(pmu_model_msr(MSR_CORE_PERF_GLOBAL_CTRL), 0x2);
	assert_int_equal(pmu_model_violations(), 0);

	/* No PMU: nothing saved, nothing touched. */
	boot(pmu_model_none(), &pmu);
	pmu_boot_state = (struct pmu_state){ 0 };
	pmu_boot_save();
	pmu_boot_restore();
	assert_false(pmu_boot_state.saved);
	assert_int_equal(pmu_model_writes(), 0);
}

static void test_pmi_bookkeeping(void **state)
{
	struct pmu_caps p;
	struct pmi_stats s;
	char err[PMU_ERR_LEN];
	uint64_t st;
	struct pmu_evtsel e = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	(void)state;

	boot(pmu_model_skylake(), &p);
	memset(&s, 0, sizeof(s));
	e.intr = true;
	pmu_pmi_lvt_setup(0xf0, false);
	assert_false(pmu_model_lvtpc() & APIC_LVT_MASKED);
	assert_int_equal(pmu_gp_program(&p, 0, pmu_evtsel_encode(&e), W48, err, sizeof(err)), 0);
	assert_int_equal(pmu_fixed_program(&p, 0, FIXED_CTR_CTRL_OS | FIXED_CTR_CTRL_PMI, W48, err, sizeof(err)), 0);
	assert_int_equal(pmu_global_ctrl_write(&p, 1 | (1ULL << 32), err, sizeof(err)), 0);
	pmu_model_retire(1, 0);		/* both wrap */
	assert_int_equal(pmu_model_pmis(), 1);
	assert_true(pmu_model_lvtpc() & APIC_LVT_MASKED);	/* delivery masks the LVT */

	pmu_model_clear_log();
	pmu_pmi_handle(&p, &s, false);
	/* Late acknowledge (Linux intel_pmu_handle_irq; pmu-errata.md "Late/mid ACK"): counting
	 * stops first, status is acknowledged, GLOBAL_CTRL comes back, and only then is the
	 * LVT entry unmasked. */
	assert_int_equal(pmu_model_log(0).msr, MSR_CORE_PERF_GLOBAL_CTRL);
	assert_int_equal(pmu_model_log(0).value, 0);
	assert_int_equal(pmu_model_log(1).msr, MSR_CORE_PERF_GLOBAL_OVF_CTRL);
	assert_int_equal(pmu_model_log(pmu_model_log_len() - 1).msr, MSR_CORE_PERF_GLOBAL_CTRL);
	assert_int_equal(pmu_model_log(pmu_model_log_len() - 1).value, 1 | (1ULL << 32));
	assert_int_equal(pmu_model_lvtpc_written_after(), pmu_model_writes());
	assert_int_equal(s.pmis, 1);
	assert_int_equal(s.overflows[0], 1);
	assert_int_equal(s.overflows[32], 1);
	assert_int_equal(s.last_status, 1 | (1ULL << 32));
	assert_true(s.lvt_at_entry & APIC_LVT_MASKED);
	assert_false(pmu_model_lvtpc() & APIC_LVT_MASKED);	/* the handler unmasked it */
	assert_int_equal(pmu_model_lvtpc() & 0xff, 0xf0);
	assert_int_equal(pmu_model_eois(), 1);
	assert_int_equal(pmu_global_status(&p, &st), 0);
	assert_int_equal(st, 0);

	/* A fixed-vector PMI that finds no status bit is spurious (still unmasked and EOI'd:
	 * it came through the LVT). */
	pmu_model_clear_log();
	pmu_pmi_handle(&p, &s, false);
	assert_int_equal(s.spurious, 1);
	assert_int_equal(s.pmis, 1);
	assert_int_equal(pmu_model_eois(), 2);

	/* An NMI that finds no overflow bit is not a PMI (another NMI source, or a second NMI
	 * for one overflow): counted apart, no MSR written, no EOI; the LVT entry only
	 * unmasked if delivery masked it (a PMI whose status was already acknowledged). */
	hw_apic_lvtpc_write(APIC_LVT_DM_NMI);
	pmu_model_clear_log();
	pmu_pmi_handle(&p, &s, true);
	assert_int_equal(s.pmis, 1);
	assert_int_equal(s.not_pmi, 1);
	assert_int_equal(pmu_model_eois(), 2);
	assert_int_equal(pmu_model_lvtpc(), APIC_LVT_DM_NMI);
	assert_int_equal(pmu_model_log_len(), 0);
	hw_apic_lvtpc_write(APIC_LVT_MASKED | APIC_LVT_DM_NMI);
	pmu_pmi_handle(&p, &s, true);
	assert_int_equal(s.not_pmi, 2);
	assert_int_equal(pmu_model_lvtpc(), APIC_LVT_DM_NMI);
	assert_int_equal(pmu_model_log_len(), 0);
}

/* ---- Issue 7: what a review against the SDM found ---- */

/* A handler for the model's interrupt delivery: the firmware's PMI handler, whose own
 * instructions count at CPL 0 like any other (handler_insns of them before it acks). */
static struct pmu_caps *irq_caps;
static struct pmi_stats irq_stats;
static uint64_t handler_insns;
static bool storm_rearm;
static uint64_t storm_start;

static void rearm(void)
{
	char err[PMU_ERR_LEN];

	if (storm_rearm)
		assert_int_equal(pmu_gp_write(irq_caps, 0, storm_start, err, sizeof(err)), 0);
}

static void model_pmi_handler(unsigned vector, bool nmi)
{
	(void)vector;
	pmu_model_retire(handler_insns, 0);
	pmu_pmi_handle(irq_caps, &irq_stats, nmi);
}

static void irq_setup(struct pmu_caps *p, uint64_t keep)
{
	irq_caps = p;
	memset(&irq_stats, 0, sizeof(irq_stats));
	irq_stats.keep = keep;
	irq_stats.rearm = rearm;
	handler_insns = 0;
	storm_rearm = false;
	pmu_model_set_irq_handler(model_pmi_handler);
}

/* 1: efi_main probes before pmuboot's GS base and IDT exist; only CPUID may be used then
 * (rdmsr_safe writes its fault status through %gs:0, the firmware's GS base). */
static void test_probe_before_ownership(void **state)
{
	struct pmu_model_config cfg = pmu_model_skylake();
	struct cpu_info ci;
	struct pmu_caps p;
	(void)state;

	pmu_model_reset(&cfg);
	cpu_info_decode(&ci, model_cpuid, NULL);
	pmu_model_set_owned(false);
	pmu_probe_cpuid(&ci);				/* efi_main */
	assert_int_equal(pmu_model_violations(), 0);
	assert_int_equal(pmu.num_gp, 4);
	assert_true(pmu.pdcm);
	assert_false(pmu.has_perf_caps);		/* not read yet */
	/* The one-step discovery the firmware used to run there reads PERF_CAPABILITIES: the
	 * model flags exactly that access. */
	pmu_discover(&p, &ci);
	/* PERF_CAPABILITIES, IA32_MISC_ENABLE (the debug store's availability), then
	 * IA32_BIOS_SIGN_ID written and read (the microcode revision). */
	assert_int_equal(pmu_model_violations(), 4);
	assert_non_null(strstr(pmu_model_last_violation(), "rdmsr 0x8b"));
	pmu_model_set_owned(true);			/* run(): GS and IDT are pmuboot's */
	pmu_probe_msrs();
	assert_int_equal(pmu_model_violations(), 4);
	assert_true(pmu.has_perf_caps);
	assert_true(pmu.full_width_write);
	assert_true(pmu.freeze_while_smm);
}

/* 2: GP counters 8 and up are not at 0xC1 + i / 0x186 + i (0xCE is MSR_PLATFORM_INFO). */
static void test_gp_counters_beyond_eight(void **state)
{
	struct pmu_model_config cfg = pmu_model_skylake();
	struct pmu_caps p;
	struct pmu_state st;
	char err[PMU_ERR_LEN];
	(void)state;

	cfg.num_gp = 12;		/* CPUID says 12; the model has IA32_PMC0..7 only */
	boot(cfg, &p);
	assert_int_equal(p.num_gp_cpuid, 12);
	assert_int_equal(p.num_gp, PMU_LEGACY_MAX_GP);
	assert_int_equal(pmu_gp_mask(&p), 0xff);
	assert_int_equal(pmu_save(&p, &st), 0);
	assert_int_equal(pmu_reset(&p), 0);
	assert_int_equal(pmu_restore(&p, &st), 0);
	assert_int_equal(pmu_gp_program(&p, 8, 0, 0, err, sizeof(err)), PMU_EARG);
	assert_int_equal(pmu_model_faults(), 0);
	for (unsigned i = 0; i < pmu_model_log_len(); i++) {
		uint32_t msr = pmu_model_log(i).msr;

		if ((msr >= MSR_IA32_PMC0 + 8 && msr <= MSR_PLATFORM_INFO + 1) ||
		    (msr >= MSR_IA32_PERFEVTSEL0 + 8 && msr < MSR_IA32_PERFEVTSEL0 + 16))
			fail_msg("wrote MSR 0x%x, which is not a GP counter register", msr);
	}
}

/* 3: v4 streamlined freeze (SDM 18.2.4.1): CTR_FRZ holds every counter until software
 * clears it. A handler that acknowledged it along with the overflow unfroze them, and with
 * pmi=nmi (delivered inside the measured run) the counters went on counting. */
static void test_freeze_v4_held_through_the_handler(void **state)
{
	struct pmu_caps p;
	struct pmu_evtsel trig = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	struct pmu_evtsel watch = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	char err[PMU_ERR_LEN];
	uint64_t v, st;
	(void)state;

	trig.intr = true;
	for (int keep = 0; keep < 2; keep++) {
		boot(pmu_model_skylake(), &p);
		irq_setup(&p, keep ? GLOBAL_STATUS_COUNTERS_FROZEN : 0);
		pmu_pmi_lvt_setup(0, true);
		assert_int_equal(hw_wrmsr(MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI), 0);
		assert_int_equal(pmu_gp_program(&p, 0, pmu_evtsel_encode(&trig), W48 - 999, err,
						sizeof(err)), 0);
		assert_int_equal(pmu_gp_program(&p, 1, pmu_evtsel_encode(&watch), 0, err, sizeof(err)), 0);
		assert_int_equal(pmu_global_ctrl_write(&p, 0x3, err, sizeof(err)), 0);
		pmu_model_retire(1000, 0);	/* the 1000th overflows GP0: PMI request, NMI */
		pmu_model_retire(5000, 0);
		assert_int_equal(irq_stats.pmis, 1);
		assert_true(irq_stats.first_status & GLOBAL_STATUS_COUNTERS_FROZEN);
		assert_int_equal(pmu_gp_read(&p, 1, &v), 0);
		assert_int_equal(pmu_global_status(&p, &st), 0);
		if (!keep) {
			/* The old handler: CTR_FRZ acknowledged, counting resumed. */
			assert_int_equal(v, 6000);
			assert_false(st & GLOBAL_STATUS_COUNTERS_FROZEN);
			continue;
		}
		assert_int_equal(v, 1000);
		assert_int_equal(st, GLOBAL_STATUS_COUNTERS_FROZEN);	/* overflow acked, freeze kept */
		/* STATUS_RESET of CTR_FRZ unfreezes. */
		assert_int_equal(pmu_global_ovf_clear(&p, GLOBAL_STATUS_COUNTERS_FROZEN), 0);
		pmu_model_retire(10, 0);
		assert_int_equal(pmu_gp_read(&p, 1, &v), 0);
		assert_int_equal(v, 1010);
	}

	/* Legacy (v3): the freeze clears GLOBAL_CTRL; the handler does not re-enable it. */
	boot(pmu_model_nehalem(), &p);
	irq_setup(&p, GLOBAL_STATUS_COUNTERS_FROZEN);
	pmu_pmi_lvt_setup(0, true);
	assert_int_equal(hw_wrmsr(MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI), 0);
	assert_int_equal(pmu_gp_program(&p, 0, pmu_evtsel_encode(&trig), W48 - 999, err,
					sizeof(err)), 0);
	assert_int_equal(pmu_gp_program(&p, 1, pmu_evtsel_encode(&watch), 0, err, sizeof(err)), 0);
	assert_int_equal(pmu_global_ctrl_write(&p, 0x3, err, sizeof(err)), 0);
	pmu_model_retire(1000, 0);
	pmu_model_retire(5000, 0);
	assert_int_equal(irq_stats.pmis, 1);
	assert_int_equal(pmu_gp_read(&p, 1, &v), 0);
	assert_int_equal(v, 1000);
	assert_int_equal(pmu_model_msr(MSR_CORE_PERF_GLOBAL_CTRL), 0);
	pmu_model_set_irq_handler(NULL);
}

/* 4: a counter left counting with INT after CLI leaves a PMI in the IRR, taken later by
 * whatever runs with interrupts on next. Stopping it first, then draining, leaves none. */
static void test_pmi_left_pending_after_cli(void **state)
{
	struct pmu_caps p;
	struct pmu_evtsel e = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	char err[PMU_ERR_LEN];
	bool pending = true;
	unsigned pmis;
	(void)state;

	e.intr = true;
	storm_start = W48 - 299;
	for (int fixed_order = 0; fixed_order < 2; fixed_order++) {
		boot(pmu_model_skylake(), &p);
		irq_setup(&p, 0);
		handler_insns = 40;
		pmu_pmi_lvt_setup(0xf0, false);
		assert_int_equal(pmu_gp_program(&p, 0, pmu_evtsel_encode(&e), storm_start, err,
						sizeof(err)), 0);
		assert_int_equal(pmu_global_ctrl_write(&p, 1, err, sizeof(err)), 0);
		storm_rearm = true;
		pmu_model_set_if(true);
		for (int i = 0; i < 100; i++)
			pmu_model_retire(50, 0);	/* a PMI about every 300 instructions */
		assert_true(irq_stats.pmis >= 10);
		if (!fixed_order) {
			/* The old order: CLI, then the counter still counts, then stop it. */
			pmu_model_set_if(false);
			pmu_model_retire(400, 0);
			storm_rearm = false;
			pmu_global_ctrl_write(&p, 0, err, sizeof(err));
			pmu_pmi_lvt_mask();
			assert_true(hw_apic_irr_pending(0xf0));	/* left for the next check */
			continue;
		}
		/* Stop while interrupts are on, then CLI, then drain. */
		pmu_global_ctrl_write(&p, 0, err, sizeof(err));
		storm_rearm = false;
		pmu_model_set_if(false);
		pmu_model_retire(400, 0);
		assert_int_equal(pmu_quiesce(&p, 0xf0, &pending), 0);
		assert_false(pending);
		assert_false(hw_apic_irr_pending(0xf0));
	}

	/* A PMI already waiting when the check ends is taken by the drain, after the counter
	 * is stopped: the handler's own instructions cannot raise another. */
	boot(pmu_model_skylake(), &p);
	irq_setup(&p, 0);
	handler_insns = 40;
	pmu_pmi_lvt_setup(0xf0, false);
	assert_int_equal(pmu_gp_program(&p, 0, pmu_evtsel_encode(&e), W48 - 1, err, sizeof(err)), 0);
	assert_int_equal(pmu_global_ctrl_write(&p, 1, err, sizeof(err)), 0);
	pmu_model_retire(2, 0);			/* IF clear: the PMI waits in the IRR */
	assert_true(pmu_model_irr_pending());
	assert_int_equal(pmu_gp_write(&p, 0, W48 - 10, err, sizeof(err)), 0);
	pmis = pmu_model_pmis();
	pending = true;
	assert_int_equal(pmu_quiesce(&p, 0xf0, &pending), 0);
	assert_false(pending);
	assert_int_equal(pmu_model_handler_calls(), 1);
	assert_false(pmu_model_irr_pending());
	assert_int_equal(pmu_model_pmis(), pmis);	/* no new PMI from the handler's 40 */
	assert_true(pmu_model_lvtpc() & APIC_LVT_MASKED);
	pmu_model_set_irq_handler(NULL);
}

/* Issue 21 item 22: a PMI comes late (skid). One requested just before a check stops its
 * counter reaches the LVT after the stop: pmu_quiesce waits out the skid budget with the
 * entry as it was, so the PMI lands in the IRR and is drained there, not taken by the next
 * check once it unmasks the entry. */
static void test_quiesce_waits_for_a_late_pmi(void **state)
{
	struct pmu_model_config cfg = pmu_model_skylake();
	struct pmu_caps p;
	struct pmu_evtsel e = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	char err[PMU_ERR_LEN];
	bool pending = true;
	unsigned calls;
	(void)state;

	e.intr = true;
	cfg.pmi_skid = PMI_SKID_MAX / 2;
	boot(cfg, &p);
	irq_setup(&p, 0);
	pmu_pmi_lvt_setup(0xf0, false);
	assert_int_equal(pmu_gp_program(&p, 0, pmu_evtsel_encode(&e), W48 - 9, err, sizeof(err)), 0);
	assert_int_equal(pmu_global_ctrl_write(&p, 1, err, sizeof(err)), 0);
	pmu_model_retire(20, 0);		/* overflows; its PMI is on its way */
	assert_int_equal(pmu_model_handler_calls(), 0);
	assert_false(pmu_model_irr_pending());
	assert_int_equal(pmu_quiesce(&p, 0xf0, &pending), 0);
	assert_false(pending);
	assert_int_equal(pmu_model_handler_calls(), 1);	/* drained by the quiesce */
	assert_int_equal(pmu_model_pmis_masked(), 0);
	assert_true(pmu_quiesce_waited() >= PMI_SKID_MAX);	/* the model: a tick an insn */
	/* The next check points the entry at its vector and runs: nothing from before. */
	calls = pmu_model_handler_calls();
	pmu_pmi_lvt_setup(0xf0, false);
	pmu_model_set_if(true);
	pmu_model_retire(2 * PMI_SKID_MAX, 0);
	pmu_model_set_if(false);
	assert_int_equal(pmu_model_handler_calls(), calls);
	assert_false(pmu_model_irr_pending());
	pmu_model_set_irq_handler(NULL);
}

/* Issue 21 item 8: on Nehalem and Westmere (AAK100, AAP53, BD53) counters are added only
 * after the four selectors ran the non-counting events 4300B5H, 4300D2H, 4300B1H, 4300B1H
 * with GLOBAL_CTRL bits 0-3 set for a moment; each reset, each run and each enabling
 * GLOBAL_CTRL write does it, putting back what someone else set; no other model does. */
static void test_nhm_counter_reset(void **state)
{
	static const uint64_t magic[4] = { 0x4300b5, 0x4300d2, 0x4300b1, 0x4300b1 };
	struct pmu_caps p;
	char err[PMU_ERR_LEN];
	int at, on, off;
	(void)state;

	boot(pmu_model_nehalem(), &p);
	assert_true(p.errata & PMU_ERRATUM_NHM_RESET);
	pmu_model_clear_log();
	assert_int_equal(pmu_reset(&p), 0);
	for (unsigned i = 0; i < 4; i++) {
		at = pmu_model_log_find(MSR_IA32_PERFEVTSEL0 + i, 0);
		while (at >= 0 && pmu_model_log((unsigned)at).value != magic[i])
			at = pmu_model_log_find(MSR_IA32_PERFEVTSEL0 + i, (unsigned)at + 1);
		assert_true(at >= 0);
	}
	on = pmu_model_log_find(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	while (on >= 0 && pmu_model_log((unsigned)on).value != 0xf)
		on = pmu_model_log_find(MSR_CORE_PERF_GLOBAL_CTRL, (unsigned)on + 1);
	assert_true(on >= 0);
	off = pmu_model_log_find(MSR_CORE_PERF_GLOBAL_CTRL, (unsigned)on + 1);
	assert_true(off > on);
	assert_int_equal(pmu_model_log((unsigned)off).value, 0);
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(pmu_model_msr(MSR_IA32_PERFEVTSEL0 + i), 0);
		assert_int_equal(pmu_model_msr(MSR_IA32_PMC0 + i), 0);
	}
	assert_int_equal(pmu_model_msr(MSR_CORE_PERF_GLOBAL_STATUS), 0);
	assert_int_equal(pmu_model_violations(), 0);

	/* A selector and counter someone set (a counter that has counted, reprogrammed):
	 * the sequence still runs, then both are put back, as Linux programs its events again
	 * after it; GLOBAL_CTRL is what it was. */
	assert_int_equal(pmu_gp_program(&p, 1, 0x4300c0, 0x1234, err, sizeof(err)), 0);
	pmu_model_clear_log();
	assert_int_equal(pmu_nhm_counter_reset(&p), 0);
	on = pmu_model_log_find(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	while (on >= 0 && pmu_model_log((unsigned)on).value != 0xf)
		on = pmu_model_log_find(MSR_CORE_PERF_GLOBAL_CTRL, (unsigned)on + 1);
	assert_true(on >= 0);
	assert_int_equal(pmu_model_msr(MSR_IA32_PERFEVTSEL0 + 1), 0x4300c0);
	assert_int_equal(pmu_model_msr(MSR_IA32_PMC0 + 1), 0x1234);
	assert_int_equal(pmu_model_msr(MSR_CORE_PERF_GLOBAL_CTRL), 0);
	assert_true(pmu_model_log_find(MSR_IA32_PERFEVTSEL0 + 1, (unsigned)on) >
		    pmu_model_log_find(MSR_IA32_PERFEVTSEL0 + 1, 0));

	/* Enabling GP counters adds them: the sequence comes before the enabling write. */
	pmu_model_clear_log();
	assert_int_equal(pmu_global_ctrl_write(&p, 0x2, err, sizeof(err)), 0);
	on = pmu_model_log_find(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	while (on >= 0 && pmu_model_log((unsigned)on).value != 0xf)
		on = pmu_model_log_find(MSR_CORE_PERF_GLOBAL_CTRL, (unsigned)on + 1);
	assert_true(on >= 0);
	off = pmu_model_log_find(MSR_CORE_PERF_GLOBAL_CTRL, (unsigned)on + 1);
	assert_int_equal(pmu_model_log((unsigned)off).value, 0);
	at = pmu_model_log_find(MSR_CORE_PERF_GLOBAL_CTRL, (unsigned)off + 1);
	assert_int_equal(pmu_model_log((unsigned)at).value, 0x2);
	assert_int_equal(pmu_model_msr(MSR_IA32_PERFEVTSEL0 + 1), 0x4300c0);
	/* Counters already enabled are not added again: no sequence. */
	pmu_model_clear_log();
	assert_int_equal(pmu_global_ctrl_write(&p, 0x2, err, sizeof(err)), 0);
	assert_int_equal(pmu_model_log_len(), 1);
	assert_int_equal(pmu_global_ctrl_write(&p, 0, err, sizeof(err)), 0);
	/* An unprogrammed counter is left 0; a programmed one whose value a legacy write
	 * cannot put back (bit 31 set, bits 47:32 clear, no full-width writes) is refused,
	 * with nothing changed. */
	assert_true(pmu_model_poke(MSR_IA32_PMC0 + 2, 0x12345));
	assert_int_equal(pmu_nhm_counter_reset(&p), 0);
	assert_int_equal(pmu_model_msr(MSR_IA32_PMC0 + 2), 0);
	assert_false(p.full_width_write);
	assert_true(pmu_model_poke(MSR_IA32_PMC0 + 1, 0x80000000ULL));
	pmu_model_clear_log();
	assert_int_equal(pmu_nhm_counter_reset(&p), PMU_EARG);
	assert_int_equal(pmu_model_msr(MSR_IA32_PMC0 + 1), 0x80000000ULL);
	assert_int_equal(pmu_model_msr(MSR_IA32_PERFEVTSEL0 + 1), 0x4300c0);
	assert_true(pmu_global_ctrl_write(&p, 0x2, err, sizeof(err)) != 0);
	assert_non_null(strstr(err, "full-width"));
	assert_int_equal(pmu_model_msr(MSR_CORE_PERF_GLOBAL_CTRL), 0);
	assert_true(pmu_model_poke(MSR_IA32_PMC0 + 1, 0));
	/* Only fixed counters: nothing added to the four, no sequence. */
	assert_int_equal(pmu_global_ctrl_write(&p, 0, err, sizeof(err)), 0);
	pmu_model_clear_log();
	assert_int_equal(pmu_global_ctrl_write(&p, 1ULL << 32, err, sizeof(err)), 0);
	assert_int_equal(pmu_model_log_len(), 1);
	assert_int_equal(pmu_global_ctrl_write(&p, 0, err, sizeof(err)), 0);

	/* Other models: nothing. */
	boot(pmu_model_skylake(), &p);
	assert_false(p.errata & PMU_ERRATUM_NHM_RESET);
	pmu_model_clear_log();
	assert_int_equal(pmu_reset(&p), 0);
	for (int i = pmu_model_log_find(MSR_CORE_PERF_GLOBAL_CTRL, 0); i >= 0;
	     i = pmu_model_log_find(MSR_CORE_PERF_GLOBAL_CTRL, (unsigned)i + 1))
		assert_int_equal(pmu_model_log((unsigned)i).value, 0);
}

/* Issue 21 item 3: LVTPC's delivery status (bit 12) is read-only, and a WRMSR that sets it
 * #GPs in x2APIC mode. Every read-modify-write of the entry clears it: the mask, the
 * quiesce, the PMI handler's unmask and the restore of a state saved while it read set. */
static void test_lvtpc_writes_clear_delivery_status(void **state)
{
	struct pmu_caps p;
	struct pmu_state s;
	struct pmi_stats st;
	(void)state;

	boot(pmu_model_skylake(), &p);
	pmu_pmi_lvt_setup(0xf0, false);
	pmu_model_set_delivery_pending(true);
	assert_int_equal(pmu_save(&p, &s), 0);		/* saves bit 12 as it reads */
	pmu_pmi_lvt_mask();
	assert_int_equal(pmu_quiesce(&p, 0xf0, NULL), 0);
	memset(&st, 0, sizeof(st));
	pmu_pmi_handle(&p, &st, true);		/* an NMI that finds no PMI: unmasks */
	assert_int_equal(pmu_restore(&p, &s), 0);
	assert_int_equal(pmu_model_violations(), 0);
	pmu_model_set_delivery_pending(false);
}

/* 12: DEBUGCTL's PMU bits, the LVT entry and an armed counter are all put back by the
 * reset a check ends with (the watchdog can stop a check anywhere). */
static void test_quiesce_after_a_stopped_check(void **state)
{
	struct pmu_caps p;
	struct pmu_evtsel e = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	char err[PMU_ERR_LEN];
	(void)state;

	e.intr = true;
	boot(pmu_model_skylake(), &p);
	pmu_pmi_lvt_setup(0xf0, false);
	assert_int_equal(hw_wrmsr(MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI |
				  DEBUGCTLMSR_FREEZE_LBRS_ON_PMI | DEBUGCTLMSR_LBR | DEBUGCTLMSR_BTF), 0);
	assert_int_equal(pmu_gp_program(&p, 2, pmu_evtsel_encode(&e), W48 - 5, err, sizeof(err)), 0);
	assert_int_equal(pmu_fixed_program(&p, 1, FIXED_CTR_CTRL_OS | FIXED_CTR_CTRL_PMI, 0, err,
					   sizeof(err)), 0);
	assert_int_equal(pmu_global_ctrl_write(&p, 0x4 | (1ULL << 33), err, sizeof(err)), 0);
	/* ... the watchdog stops the check here ... */
	assert_int_equal(pmu_quiesce(&p, 0xf0, NULL), 0);
	assert_int_equal(pmu_model_msr(MSR_CORE_PERF_GLOBAL_CTRL), 0);
	assert_int_equal(pmu_model_msr(MSR_IA32_PERFEVTSEL0 + 2), 0);
	assert_int_equal(pmu_model_msr(MSR_CORE_PERF_FIXED_CTR_CTRL), 0);
	/* BTF is the debugger's; FREEZE_WHILE_SMM is pmuboot's baseline where allowed. */
	assert_int_equal(pmu_model_msr(MSR_IA32_DEBUGCTLMSR), DEBUGCTLMSR_BTF | DEBUGCTLMSR_FREEZE_IN_SMM);
	assert_true(pmu_model_lvtpc() & APIC_LVT_MASKED);
	pmu_model_retire(100, 0);
	assert_int_equal(pmu_model_pmis() + pmu_model_pmis_masked(), 0);

	/* Without PERF_CAPABILITIES[12] the baseline leaves FREEZE_WHILE_SMM clear (it would
	 * #GP). */
	boot(pmu_model_nehalem(), &p);
	assert_int_equal(hw_wrmsr(MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI), 0);
	assert_int_equal(pmu_reset(&p), 0);
	assert_int_equal(pmu_model_msr(MSR_IA32_DEBUGCTLMSR), 0);
	assert_int_equal(pmu_model_faults(), 0);
}

/* 12: the LVT entry as the firmware left it comes back at exit (boot services kept). */
static void test_lvtpc_saved_and_restored(void **state)
{
	(void)state;

	boot(pmu_model_skylake(), &pmu);
	hw_apic_lvtpc_write(APIC_LVT_DM_NMI);	/* the firmware's: unmasked NMI delivery */
	pmu_boot_state = (struct pmu_state){ 0 };
	pmu_boot_save();
	assert_true(pmu_model_lvtpc() & APIC_LVT_MASKED);	/* nothing delivered while checks run */
	pmu_pmi_lvt_setup(0xf0, false);
	pmu_boot_restore();
	assert_int_equal(pmu_model_lvtpc(), APIC_LVT_DM_NMI);
}

/* 12: an NMI from elsewhere arriving while PMIs go to NMI is not a PMI. */
static void test_foreign_nmi_is_not_a_pmi(void **state)
{
	struct pmu_caps p;
	struct pmu_evtsel e = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	char err[PMU_ERR_LEN];
	(void)state;

	e.intr = true;
	boot(pmu_model_skylake(), &p);
	irq_setup(&p, 0);
	pmu_pmi_lvt_setup(0, true);
	pmu_model_nmi();
	assert_int_equal(irq_stats.pmis, 0);
	assert_int_equal(irq_stats.not_pmi, 1);
	assert_false(pmu_model_lvtpc() & APIC_LVT_MASKED);
	assert_int_equal(pmu_gp_program(&p, 0, pmu_evtsel_encode(&e), W48, err, sizeof(err)), 0);
	assert_int_equal(pmu_global_ctrl_write(&p, 1, err, sizeof(err)), 0);
	pmu_model_retire(1, 0);
	assert_int_equal(irq_stats.pmis, 1);
	assert_int_equal(irq_stats.not_pmi, 1);
	pmu_model_set_irq_handler(NULL);
}

/* 9: MSR_SMI_COUNT where the model has it, nothing touched where not. */
static void test_smi_count(void **state)
{
	struct pmu_caps p;
	uint64_t v = 99;
	(void)state;

	boot(pmu_model_skylake(), &p);
	assert_true(p.has_smi_count);
	assert_int_equal(pmu_smi_count(&p, &v), 0);
	assert_int_equal(v, 0);
	pmu_model_smi(100);
	assert_int_equal(pmu_smi_count(&p, &v), 0);
	assert_int_equal(v, 1);

	boot(pmu_model_v1(), &p);		/* 06_0EH: no MSR_SMI_COUNT */
	assert_false(p.has_smi_count);
	assert_int_equal(pmu_smi_count(&p, &v), PMU_EARG);
	assert_int_equal(pmu_model_faults(), 0);
}

/* An event's extra MSR is written only where the part has it: Nehalem one OFFCORE_RSP,
 * no load latency without PEBS; the uncore's match registers are not the core's. */
static void test_extra_msr_gated(void **state)
{
	struct pmu_caps p;
	char err[160];
	(void)state;

	boot(pmu_model_nehalem(), &p);
	assert_int_equal(pmu_extra_msr_write(&p, MSR_OFFCORE_RSP_1, 1, err, sizeof(err)), PMU_EARG);
	assert_non_null(strstr(err, "MSR_OFFCORE_RSP_1 (0x1a7): Nehalem has none"));
	assert_int_equal(pmu_extra_msr_write(&p, MSR_UNCORE_ADDR_OPCODE_MATCH, 1, err, sizeof(err)),
			 PMU_EARG);
	assert_non_null(strstr(err, "uncore_nhm_match_write"));
	assert_int_equal(pmu_model_faults(), 0);	/* refused unwritten */
	/* RSP_0 is tried (the host model has no such MSR: the write faults, and says so) */
	pmu_extra_msr_write(&p, MSR_OFFCORE_RSP_0, 1, err, sizeof(err));
	assert_non_null(strstr(err, "WRMSR 0x1a6 <- 0x1 faulted"));

	boot(pmu_model_v1(), &p);
	assert_int_equal(pmu_extra_msr_write(&p, MSR_OFFCORE_RSP_0, 1, err, sizeof(err)), PMU_EARG);
	assert_int_equal(pmu_extra_msr_write(&p, MSR_PEBS_LD_LAT_THRESHOLD, 3, err, sizeof(err)),
			 PMU_EARG);
	assert_non_null(strstr(err, "no PEBS load latency"));
	assert_int_equal(pmu_model_faults(), 0);
}

/* 7: the fixed counters pmuboot knows an event for. */
static void test_fixed_events(void **state)
{
	(void)state;

	assert_int_equal(pmu_fixed_event(0), ARCH_EVENT_INSTRUCTIONS);
	assert_int_equal(pmu_fixed_event(1), ARCH_EVENT_CORE_CYCLES);
	assert_int_equal(pmu_fixed_event(2), ARCH_EVENT_REF_CYCLES);
	assert_int_equal(pmu_fixed_event(3), ARCH_EVENT_TOPDOWN_SLOTS);
	for (unsigned i = 4; i < PMU_MAX_FIXED; i++)
		assert_int_equal(pmu_fixed_event(i), -1);
}

/* 11: an AMD CPU is not "without a PMU". */
static void test_amd_reason(void **state)
{
	struct pmu_model_config cfg = pmu_model_none();
	struct pmu_caps p;
	(void)state;

	cfg.amd = true;
	boot(cfg, &p);
	assert_int_equal(p.vendor, VENDOR_AMD);
	assert_non_null(strstr(pmu_caps_unavailable_reason(&p, false), "AMD PMU"));
	assert_null(strstr(pmu_caps_unavailable_reason(&p, false), "no architectural PMU"));
	assert_null(pmu_caps_unavailable_reason(&p, true));
	boot(pmu_model_none(), &p);
	assert_string_equal(pmu_caps_unavailable_reason(&p, false),
			    "no architectural PMU: CPUID.0AH:EAX[7:0]=0");
}

/* Known errata by model: SRF7 on the Atom servers, the PMI-period limits Linux applies
 * (nhm_limit_period, bdw_limit_period), nothing elsewhere or on another family. */
/* Issue 21 item 2: Sandy Bridge PEBS needs the microcode Linux's intel_snb_pebs_broken
 * asks for; the revision is read by the SDM's protocol (WRMSR 0, CPUID(1), RDMSR 8BH: the
 * model returns what was stored until CPUID loads the revision). */
static void test_snb_pebs_microcode(void **state)
{
	struct pmu_model_config snb = pmu_model_nehalem();
	struct pmu_caps p;
	const char *why;
	(void)state;

	assert_int_equal(pmu_pebs_min_microcode(6, 0x2a, 7), 0x28);
	assert_int_equal(pmu_pebs_min_microcode(6, 0x2d, 6), 0x618);
	assert_int_equal(pmu_pebs_min_microcode(6, 0x2d, 7), 0x70c);
	assert_int_equal(pmu_pebs_min_microcode(6, 0x2d, 5), UINT32_MAX);
	assert_int_equal(pmu_pebs_min_microcode(6, 0x3a, 9), 0);	/* Ivy Bridge */
	assert_int_equal(pmu_pebs_min_microcode(15, 0x2a, 7), 0);

	snb.model = 0x2a;
	snb.stepping = 7;
	snb.ucode_rev = 0x27;
	boot(snb, &p);
	assert_true(p.has_ucode_rev);
	assert_int_equal(p.ucode_rev, 0x27);
	assert_int_equal(p.stepping, 7);
	why = pebs_unavailable(&p, false);
	assert_non_null(why);
	assert_non_null(strstr(why, "microcode >= 0x28"));
	assert_non_null(strstr(why, "this one has 0x27"));
	assert_null(pebs_unavailable(&p, true));
	snb.ucode_rev = 0x28;	/* read back 0 if CPUID(1) were skipped: still refused */
	boot(snb, &p);
	assert_null(pebs_unavailable(&p, false));

	snb.model = 0x2d;
	snb.stepping = 6;
	snb.ucode_rev = 0x617;
	boot(snb, &p);
	assert_non_null(strstr(pebs_unavailable(&p, false), "0x618"));
	snb.ucode_rev = 0x618;
	boot(snb, &p);
	assert_null(pebs_unavailable(&p, false));
	snb.stepping = 5;
	snb.ucode_rev = 0xffff;
	boot(snb, &p);
	assert_non_null(strstr(pebs_unavailable(&p, false), "with any microcode"));

	/* No gate elsewhere, whatever the revision. */
	snb = pmu_model_skylake();
	boot(snb, &p);
	assert_true(p.has_ucode_rev);
	assert_null(pebs_unavailable(&p, false));
}

static void test_model_errata(void **state)
{
	(void)state;
	assert_int_equal(pmu_model_errata(6, 0x86), PMU_ERRATUM_FAR_INSNS | PMU_ERRATUM_FAR_BRANCHES);
	assert_int_equal(pmu_model_errata(6, 0xdd), PMU_ERRATUM_FAR_INSNS);
	assert_int_equal(pmu_min_pmi_period(pmu_model_errata(6, 0x1a)), 32);
	assert_int_equal(pmu_min_pmi_period(pmu_model_errata(6, 0x2e)), 32);
	assert_int_equal(pmu_min_pmi_period(pmu_model_errata(6, 0x3c)), 128);
	assert_int_equal(pmu_model_errata(6, 0x2a), PMU_ERRATUM_HT_MEM_EXCL);
	assert_int_equal(pmu_model_errata(6, 0x3e), PMU_ERRATUM_HT_MEM_EXCL);
	assert_true(pmu_model_errata(6, 0x3c) & PMU_ERRATUM_HT_MEM_EXCL);
	assert_false(pmu_model_errata(6, 0x3d) & PMU_ERRATUM_HT_MEM_EXCL);	/* Broadwell */
	assert_false(pmu_model_errata(6, 0x5e) & PMU_ERRATUM_HT_MEM_EXCL);	/* Skylake */
	assert_non_null(strstr(pmu_erratum_note(PMU_ERRATUM_HT_MEM_EXCL), "HSD29"));
	assert_int_equal(pmu_min_pmi_period(pmu_model_errata(6, 0x4f)), 128);
	assert_int_equal(pmu_min_pmi_period(pmu_model_errata(6, 0x5e)), 1);	/* Skylake */
	assert_int_equal(pmu_min_pmi_period(pmu_model_errata(6, 0x6a)), 1);	/* Ice Lake-SP */
	assert_int_equal(pmu_model_errata(15, 0x1a), 0);
	assert_true(pmu_model_errata(6, 0x1a) & PMU_ERRATUM_LBR_CALL_FILTER);	/* Nehalem */
	assert_true(pmu_model_errata(6, 0x2c) & PMU_ERRATUM_LBR_CALL_FILTER);	/* Westmere */
	assert_false(pmu_model_errata(6, 0x5e) & PMU_ERRATUM_LBR_CALL_FILTER);
	assert_non_null(strstr(pmu_erratum_note(PMU_ERRATUM_LBR_CALL_FILTER), "nhm_lbr_sel_map"));
	assert_non_null(strstr(pmu_erratum_note(PMU_ERRATUM_PERIOD_32), "32"));
	assert_non_null(strstr(pmu_erratum_note(PMU_ERRATUM_PERIOD_128), "BDM11"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_discover_skylake),
		cmocka_unit_test(test_discover_others),
		cmocka_unit_test(test_counter_leaf_per_core_type),
		cmocka_unit_test(test_evtsel_encoding),
		cmocka_unit_test(test_program_order_and_reserved_bits),
		cmocka_unit_test(test_legacy_and_full_width_writes),
		cmocka_unit_test(test_counting_and_gates),
		cmocka_unit_test(test_overflow_and_status),
		cmocka_unit_test(test_save_restore),
		cmocka_unit_test(test_boot_save_reset_restore),
		cmocka_unit_test(test_pmi_bookkeeping),
		cmocka_unit_test(test_probe_before_ownership),
		cmocka_unit_test(test_gp_counters_beyond_eight),
		cmocka_unit_test(test_freeze_v4_held_through_the_handler),
		cmocka_unit_test(test_pmi_left_pending_after_cli),
		cmocka_unit_test(test_quiesce_waits_for_a_late_pmi),
		cmocka_unit_test(test_lvtpc_writes_clear_delivery_status),
		cmocka_unit_test(test_nhm_counter_reset),
		cmocka_unit_test(test_quiesce_after_a_stopped_check),
		cmocka_unit_test(test_lvtpc_saved_and_restored),
		cmocka_unit_test(test_foreign_nmi_is_not_a_pmi),
		cmocka_unit_test(test_smi_count),
		cmocka_unit_test(test_extra_msr_gated),
		cmocka_unit_test(test_fixed_events),
		cmocka_unit_test(test_amd_reason),
		cmocka_unit_test(test_model_errata),
		cmocka_unit_test(test_snb_pebs_microcode),
	};

	return cmocka_run_group_tests_name("pmu", tests, NULL, NULL);
}
