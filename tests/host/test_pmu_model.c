/* SPDX-License-Identifier: MIT */
/* Host unit tests for tests/host/pmu_model.c, the strict SDM model behind arch/x86/hw.h. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "tests/host/pmu_model.h"
#include "arch/x86/apic.h"
#include "arch/x86/msr.h"
#include "pmu/pmu.h"

#define T_GP	PMU_MODEL_FAULT_GP

/* Architectural events (seed 002_28e325465e681290.txt Table 18-1). */
#define T_EV_CYCLES	0x3c	/* umask 00H core, 01H reference */
#define T_EV_INSNS	0xc0
#define T_EV_SLOTS	0xa4	/* umask 01H topdown slots */
#define T_EV_LLC		0x2e	/* umask 4FH references */

#define T_EVTSEL(ev, um, flags) \
	((uint64_t)(ev) | ((uint64_t)(um) << __builtin_ctzll(ARCH_PERFMON_EVENTSEL_UMASK)) | (flags))
#define T_EN		ARCH_PERFMON_EVENTSEL_ENABLE
#define T_USR		ARCH_PERFMON_EVENTSEL_USR
#define T_OS		ARCH_PERFMON_EVENTSEL_OS
#define T_INT		ARCH_PERFMON_EVENTSEL_INT
#define T_FIXED_FIELD(i, bits)	((uint64_t)(bits) << ((i) * FIXED_CTR_CTRL_BITS))
#define T_FIXED_ALL		(FIXED_CTR_CTRL_OS | FIXED_CTR_CTRL_USR)
#define T_GLOBAL_FIXED(i)		BIT_ULL(GLOBAL_FIXED_SHIFT + (i))
#define T_RDPMC_FIXED		BIT(30)
#define T_RDPMC_FAST		BIT(31)
#define T_CPL_OS			0
#define T_CPL_USR			3
#define T_MASK48			GENMASK_ULL(47, 0)
#define T_MASK40			GENMASK_ULL(39, 0)

static void use(struct pmu_model_config c)
{
	pmu_model_reset(&c);
}

static uint64_t rd(uint32_t msr)
{
	uint64_t v = ~0ULL;

	assert_int_equal(hw_rdmsr(msr, &v), 0);
	return v;
}

static void wr(uint32_t msr, uint64_t v)
{
	unsigned n = pmu_model_writes();

	assert_int_equal(hw_wrmsr(msr, v), 0);
	assert_int_equal(pmu_model_writes(), n + 1);
}

/* Every register the model has, for "a fault changed nothing" comparisons. */
static const uint32_t all_msrs[] = {
	MSR_IA32_PMC0, MSR_IA32_PMC0 + 1, MSR_IA32_PMC0 + 2, MSR_IA32_PMC0 + 3,
	MSR_IA32_PERFEVTSEL0, MSR_IA32_PERFEVTSEL0 + 1, MSR_IA32_PERFEVTSEL0 + 2,
	MSR_IA32_PERFEVTSEL0 + 3, MSR_CORE_PERF_FIXED_CTR0, MSR_CORE_PERF_FIXED_CTR0 + 1,
	MSR_CORE_PERF_FIXED_CTR0 + 2, MSR_CORE_PERF_FIXED_CTR0 + 3, MSR_CORE_PERF_FIXED_CTR_CTRL,
	MSR_CORE_PERF_GLOBAL_STATUS, MSR_CORE_PERF_GLOBAL_CTRL, MSR_CORE_PERF_GLOBAL_INUSE,
	MSR_IA32_PERF_CAPABILITIES, MSR_IA32_DEBUGCTLMSR,
};
#define N_MSRS (sizeof(all_msrs) / sizeof(all_msrs[0]))

static void snapshot(uint64_t *s)
{
	for (size_t i = 0; i < N_MSRS; i++)
		s[i] = pmu_model_msr(all_msrs[i]);
}

/* The write must raise #GP and leave every register, the write count and the log alone. */
static void wr_faults(uint32_t msr, uint64_t v)
{
	uint64_t before[N_MSRS], after[N_MSRS];
	unsigned writes = pmu_model_writes(), faults = pmu_model_faults();
	unsigned viol = pmu_model_violations(), log = pmu_model_log_len();

	snapshot(before);
	assert_int_equal(hw_wrmsr(msr, v), T_GP);
	snapshot(after);
	assert_memory_equal(before, after, sizeof(before));
	assert_int_equal(pmu_model_writes(), writes);
	assert_int_equal(pmu_model_log_len(), log);
	assert_int_equal(pmu_model_faults(), faults + 1);
	assert_int_equal(pmu_model_violations(), viol);
	assert_true(pmu_model_last_fault()[0] != '\0');
}

static void rd_faults(uint32_t msr)
{
	uint64_t v = ~0ULL;
	unsigned faults = pmu_model_faults();

	assert_int_equal(hw_rdmsr(msr, &v), T_GP);
	assert_int_equal(v, 0);
	assert_int_equal(pmu_model_faults(), faults + 1);
}

static void rdpmc_faults(uint32_t ecx)
{
	uint64_t v = ~0ULL;

	assert_int_equal(hw_rdpmc(ecx, &v), T_GP);
	assert_int_equal(v, 0);
}

static uint64_t rdpmc(uint32_t ecx)
{
	uint64_t v = ~0ULL;

	assert_int_equal(hw_rdpmc(ecx, &v), 0);
	return v;
}

/* ---- CPUID ---- */

static void test_cpuid_skylake(void **state)
{
	struct cpuid_regs r;
	char vendor[13] = { 0 };
	(void)state;

	use(pmu_model_skylake());
	r = hw_cpuid(0, 0);
	assert_int_equal(r.eax, 0x1a);
	memcpy(vendor, &r.ebx, 4);
	memcpy(vendor + 4, &r.edx, 4);
	memcpy(vendor + 8, &r.ecx, 4);
	assert_string_equal(vendor, "GenuineIntel");

	r = hw_cpuid(1, 0);
	assert_int_equal(r.eax, 0x506e0);	/* ext model 5, family 6, model E */
	assert_true(r.ecx & CPUID_1_ECX_PDCM);
	assert_true(r.edx & CPUID_1_EDX_MSR);

	r = hw_cpuid(7, 0);
	assert_int_equal(r.edx & BIT(15), 0);

	r = hw_cpuid(CPUID_LEAF_PMU, 0);
	assert_int_equal(PMU_EAX_VERSION(r.eax), 4);
	assert_int_equal(PMU_EAX_NUM_GP(r.eax), 4);
	assert_int_equal(PMU_EAX_GP_WIDTH(r.eax), 48);
	assert_int_equal(PMU_EAX_EBX_LEN(r.eax), 7);
	assert_int_equal(r.ebx, 0);
	assert_int_equal(r.ecx, 0);
	assert_int_equal(PMU_EDX_NUM_FIXED(r.edx), 3);
	assert_int_equal(PMU_EDX_FIXED_WIDTH(r.edx), 48);
	assert_int_equal(r.eax, 0x07300404);
	assert_int_equal(r.edx, 0x603);

	/* No hybrid leaf content, and other leaves are zero. */
	r = hw_cpuid(0x1a, 0);
	assert_int_equal(r.eax, 0);
	r = hw_cpuid(4, 0);
	assert_int_equal(r.eax | r.ebx | r.ecx | r.edx, 0);
	r = hw_cpuid(0x80000000, 0);
	assert_int_equal(r.eax | r.ebx | r.ecx | r.edx, 0);
}

static void test_cpuid_hybrid_v5_and_none(void **state)
{
	struct pmu_model_config c = pmu_model_skylake();
	struct cpuid_regs r;
	(void)state;

	c.version = 5;
	c.hybrid = true;
	c.core_type = 0x40;	/* Core (P-core) */
	c.fixed_mask_ecx = 0x0f;
	c.ebx_unavailable = BIT(3) | BIT(4);
	c.family = 6;
	c.model = 0x97;
	use(c);
	r = hw_cpuid(7, 0);
	assert_int_equal(r.edx, BIT(15));
	assert_int_equal(hw_cpuid(7, 1).edx, 0);
	assert_int_equal(hw_cpuid(0x1a, 0).eax, 0x40000000);
	r = hw_cpuid(CPUID_LEAF_PMU, 0);
	assert_int_equal(PMU_EAX_VERSION(r.eax), 5);
	assert_int_equal(r.ebx, 0x18);
	assert_int_equal(r.ecx, 0x0f);
	assert_int_equal(hw_cpuid(1, 0).eax, 0x90670);

	use(pmu_model_nehalem());
	assert_int_equal(hw_cpuid(1, 0).eax, 0x106a0);
	assert_int_equal(PMU_EAX_VERSION(hw_cpuid(CPUID_LEAF_PMU, 0).eax), 3);

	use(pmu_model_v1());
	r = hw_cpuid(CPUID_LEAF_PMU, 0);
	assert_int_equal(r.eax, 0x07280201);
	assert_int_equal(r.edx, 0);
	assert_int_equal(hw_cpuid(1, 0).ecx & CPUID_1_ECX_PDCM, 0);

	use(pmu_model_none());
	r = hw_cpuid(CPUID_LEAF_PMU, 0);
	assert_int_equal(r.eax | r.ebx | r.ecx | r.edx, 0);
	assert_int_equal(hw_cpuid(0, 0).eax, 0x1a);
}

/* ---- Reset state ---- */

static void test_reset_state(void **state)
{
	(void)state;

	use(pmu_model_skylake());
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_CTRL), 0xf);
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_STATUS), 0);
	assert_int_equal(rd(MSR_CORE_PERF_FIXED_CTR_CTRL), 0);
	assert_int_equal(rd(MSR_IA32_PMC0 + 3), 0);
	assert_int_equal(rd(MSR_IA32_PERFEVTSEL0), 0);
	assert_int_equal(rd(MSR_CORE_PERF_FIXED_CTR0 + 2), 0);
	assert_int_equal(rd(MSR_IA32_DEBUGCTLMSR), 0);
	assert_int_equal(rd(MSR_IA32_PERF_CAPABILITIES), 0x33c5);
	assert_true(rd(MSR_IA32_PERF_CAPABILITIES) & PERF_CAP_FW_WRITE);
	assert_int_equal(hw_apic_lvtpc_read(), APIC_LVT_MASKED);
	assert_int_equal(pmu_model_writes(), 0);
	assert_int_equal(pmu_model_faults(), 0);
	assert_int_equal(pmu_model_violations(), 0);
	assert_string_equal(pmu_model_last_violation(), "");
	assert_int_equal(pmu_model_pmis(), 0);

	use(pmu_model_nehalem());
	assert_int_equal(rd(MSR_IA32_PERF_CAPABILITIES), 0x1c3);
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_CTRL), 0xf);

	/* Two T_GP counters on a v2 PMU: GLOBAL_CTRL resets to 0x3. */
	{
		struct pmu_model_config c = pmu_model_nehalem();

		c.version = 2;
		c.num_gp = 2;
		use(c);
		assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_CTRL), 0x3);
	}
}

/* ---- Rule 1: MSRs that do not exist ---- */

static void test_nonexistent_msrs_fault(void **state)
{
	(void)state;

	use(pmu_model_skylake());
	rd_faults(MSR_IA32_PMC0 + 4);
	wr_faults(MSR_IA32_PMC0 + 4, 0);
	rd_faults(MSR_IA32_PERFEVTSEL0 + 4);
	wr_faults(MSR_IA32_PERFEVTSEL0 + 4, 0);
	rd_faults(MSR_CORE_PERF_FIXED_CTR0 + 3);
	wr_faults(MSR_CORE_PERF_FIXED_CTR0 + 3, 0);
	rd_faults(MSR_IA32_PMC0_FULL + 4);
	rd_faults(MSR_EFER);		/* not a PMU register: unknown to the model */
	wr_faults(MSR_EFER, 0);
	/* What does exist on v4 with FW writes. */
	rd(MSR_IA32_PMC0_FULL + 3);
	rd(MSR_CORE_PERF_GLOBAL_STATUS_SET);
	rd(MSR_CORE_PERF_GLOBAL_INUSE);

	/* v3: no STATUS_SET / INUSE, no IA32_A_PMCx without PERF_CAPABILITIES[13]. */
	use(pmu_model_nehalem());
	rd_faults(MSR_CORE_PERF_GLOBAL_STATUS_SET);
	wr_faults(MSR_CORE_PERF_GLOBAL_STATUS_SET, 1);
	rd_faults(MSR_CORE_PERF_GLOBAL_INUSE);
	rd_faults(MSR_IA32_PMC0_FULL);
	wr_faults(MSR_IA32_PMC0_FULL, 1);
	rd(MSR_IA32_PERF_CAPABILITIES);
	rd(MSR_CORE_PERF_GLOBAL_OVF_CTRL);

	/* v1: no fixed counters, no global MSRs, no PERF_CAPABILITIES (no PDCM). */
	use(pmu_model_v1());
	rd_faults(MSR_CORE_PERF_FIXED_CTR0);
	rd_faults(MSR_CORE_PERF_FIXED_CTR_CTRL);
	wr_faults(MSR_CORE_PERF_FIXED_CTR_CTRL, 0);
	rd_faults(MSR_CORE_PERF_GLOBAL_CTRL);
	wr_faults(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	rd_faults(MSR_CORE_PERF_GLOBAL_STATUS);
	wr_faults(MSR_CORE_PERF_GLOBAL_OVF_CTRL, 0);
	rd_faults(MSR_IA32_PERF_CAPABILITIES);
	rd_faults(MSR_IA32_PMC0 + 2);
	rd(MSR_IA32_PMC0 + 1);
	rd(MSR_IA32_PERFEVTSEL0 + 1);

	/* Version 0: no counters at all; DEBUGCTL is always there. */
	use(pmu_model_none());
	rd_faults(MSR_IA32_PMC0);
	rd_faults(MSR_IA32_PERFEVTSEL0);
	wr_faults(MSR_IA32_PERFEVTSEL0, 0);
	wr(MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_LBR);
	assert_int_equal(rd(MSR_IA32_DEBUGCTLMSR), DEBUGCTLMSR_LBR);
	assert_int_equal(pmu_model_msr(MSR_IA32_PMC0), 0);
}

/* PERF_CAPABILITIES exists only with PDCM, and IA32_A_PMCx only with its bit 13. */
static void test_perf_capabilities_gating(void **state)
{
	struct pmu_model_config c = pmu_model_skylake();
	(void)state;

	c.pdcm = false;		/* bit 13 in a register that is not there enumerates nothing */
	use(c);
	rd_faults(MSR_IA32_PERF_CAPABILITIES);
	rd_faults(MSR_IA32_PMC0_FULL);

	use(pmu_model_skylake());
	wr_faults(MSR_IA32_PERF_CAPABILITIES, 0);
	assert_int_equal(rd(MSR_IA32_PERF_CAPABILITIES), 0x33c5);
}

/* ---- Rule 2: reserved bits ---- */

static void test_evtsel_reserved_bits(void **state)
{
	struct pmu_model_config v2 = pmu_model_nehalem();
	(void)state;

	use(pmu_model_skylake());
	wr_faults(MSR_IA32_PERFEVTSEL0, BIT_ULL(32) | T_EVTSEL(T_EV_INSNS, 0, T_OS));
	wr_faults(MSR_IA32_PERFEVTSEL0 + 1, BIT_ULL(63));
	wr(MSR_IA32_PERFEVTSEL0, GENMASK_ULL(31, 0) & ~T_EN);	/* every defined bit */
	assert_int_equal(rd(MSR_IA32_PERFEVTSEL0), 0xffbfffff);
	wr(MSR_IA32_PERFEVTSEL0 + 1, ARCH_PERFMON_EVENTSEL_ANY);	/* AnyThread: v3+ */

	v2.version = 2;
	use(v2);
	wr_faults(MSR_IA32_PERFEVTSEL0, ARCH_PERFMON_EVENTSEL_ANY);
	use(pmu_model_v1());
	wr_faults(MSR_IA32_PERFEVTSEL0 + 1, ARCH_PERFMON_EVENTSEL_ANY | T_EVTSEL(T_EV_INSNS, 0, 0));
	wr(MSR_IA32_PERFEVTSEL0 + 1, T_EVTSEL(T_EV_INSNS, 0, T_USR | T_OS | T_INT));
	use(pmu_model_nehalem());
	wr(MSR_IA32_PERFEVTSEL0, ARCH_PERFMON_EVENTSEL_ANY);
}

static void test_fixed_ctrl_reserved_bits(void **state)
{
	struct pmu_model_config v2 = pmu_model_nehalem();
	(void)state;

	use(pmu_model_skylake());
	wr_faults(MSR_CORE_PERF_FIXED_CTR_CTRL, T_FIXED_FIELD(3, FIXED_CTR_CTRL_OS));	/* bit 12 */
	wr_faults(MSR_CORE_PERF_FIXED_CTR_CTRL, BIT_ULL(63));
	wr(MSR_CORE_PERF_FIXED_CTR_CTRL, 0xfff);
	assert_int_equal(rd(MSR_CORE_PERF_FIXED_CTR_CTRL), 0xfff);

	v2.version = 2;
	use(v2);
	wr_faults(MSR_CORE_PERF_FIXED_CTR_CTRL, T_FIXED_FIELD(1, FIXED_CTR_CTRL_ANY));
	wr(MSR_CORE_PERF_FIXED_CTR_CTRL, 0xbbb);	/* everything but AnyThread */
	assert_int_equal(rd(MSR_CORE_PERF_FIXED_CTR_CTRL), 0xbbb);
}

static void test_global_ctrl_reserved_bits(void **state)
{
	(void)state;

	use(pmu_model_skylake());
	wr_faults(MSR_CORE_PERF_GLOBAL_CTRL, BIT_ULL(4));	/* T_GP 4 of 4 */
	wr_faults(MSR_CORE_PERF_GLOBAL_CTRL, T_GLOBAL_FIXED(3));	/* fixed 3 of 3 */
	wr_faults(MSR_CORE_PERF_GLOBAL_CTRL, BIT_ULL(48));
	wr_faults(MSR_CORE_PERF_GLOBAL_CTRL, GLOBAL_STATUS_COND_CHGD);
	wr(MSR_CORE_PERF_GLOBAL_CTRL, 0x70000000fULL);
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_CTRL), 0x70000000fULL);
	wr(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_CTRL), 0);
}

static void test_ovf_ctrl_bits_per_version(void **state)
{
	struct pmu_model_config c = pmu_model_nehalem();
	(void)state;

	c.version = 2;
	use(c);
	wr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, GLOBAL_STATUS_BUFFER_OVF | GLOBAL_STATUS_COND_CHGD | 0x70000000fULL);
	wr_faults(MSR_CORE_PERF_GLOBAL_OVF_CTRL, GLOBAL_STATUS_UNCORE_OVF);
	wr_faults(MSR_CORE_PERF_GLOBAL_OVF_CTRL, GLOBAL_STATUS_COUNTERS_FROZEN);
	wr_faults(MSR_CORE_PERF_GLOBAL_OVF_CTRL, BIT_ULL(4));

	use(pmu_model_nehalem());
	wr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, GENMASK_ULL(63, 61));
	wr_faults(MSR_CORE_PERF_GLOBAL_OVF_CTRL, GLOBAL_STATUS_TRACE_TOPAPMI);
	wr_faults(MSR_CORE_PERF_GLOBAL_OVF_CTRL, GLOBAL_STATUS_LBRS_FROZEN);
	wr_faults(MSR_CORE_PERF_GLOBAL_OVF_CTRL, T_GLOBAL_FIXED(3));

	use(pmu_model_skylake());
	wr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, GENMASK_ULL(63, 58) | BIT_ULL(55) | 0x70000000fULL);
	wr_faults(MSR_CORE_PERF_GLOBAL_OVF_CTRL, BIT_ULL(56));
	wr_faults(MSR_CORE_PERF_GLOBAL_OVF_CTRL, BIT_ULL(57));
	wr_faults(MSR_CORE_PERF_GLOBAL_OVF_CTRL, BIT_ULL(31));
	/* Reading the command register returns 0. */
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_OVF_CTRL), 0);
}

static void test_status_read_only_and_status_set(void **state)
{
	(void)state;

	use(pmu_model_nehalem());
	wr_faults(MSR_CORE_PERF_GLOBAL_STATUS, 0);
	wr_faults(MSR_CORE_PERF_GLOBAL_STATUS, 1);

	use(pmu_model_skylake());
	wr_faults(MSR_CORE_PERF_GLOBAL_STATUS, 1);
	wr(MSR_CORE_PERF_GLOBAL_STATUS_SET, BIT_ULL(2) | T_GLOBAL_FIXED(1) | GLOBAL_STATUS_BUFFER_OVF);
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_STATUS), 0x4000000200000004ULL);
	wr(MSR_CORE_PERF_GLOBAL_STATUS_SET, BIT_ULL(0) | GLOBAL_STATUS_TRACE_TOPAPMI);
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_STATUS), 0x4080000200000005ULL);
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_STATUS_SET), 0);
	wr_faults(MSR_CORE_PERF_GLOBAL_STATUS_SET, GLOBAL_STATUS_COND_CHGD);
	wr_faults(MSR_CORE_PERF_GLOBAL_STATUS_SET, BIT_ULL(4));
	wr_faults(MSR_CORE_PERF_GLOBAL_STATUS_SET, BIT_ULL(56));
	/* W1C through OVF_CTRL (STATUS_RESET on v4): only the 1 bits clear. */
	wr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, BIT_ULL(2) | GLOBAL_STATUS_BUFFER_OVF);
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_STATUS), 0x0080000200000001ULL);
	wr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, 0);
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_STATUS), 0x0080000200000001ULL);
}

static void test_counter_width_faults(void **state)
{
	(void)state;

	use(pmu_model_skylake());
	wr_faults(MSR_IA32_PMC0_FULL, BIT_ULL(48));
	wr_faults(MSR_IA32_PMC0_FULL + 1, ~0ULL);
	wr(MSR_IA32_PMC0_FULL + 1, T_MASK48);
	assert_int_equal(rd(MSR_IA32_PMC0 + 1), T_MASK48);
	wr_faults(MSR_CORE_PERF_FIXED_CTR0, BIT_ULL(48));
	wr_faults(MSR_CORE_PERF_FIXED_CTR0 + 2, BIT_ULL(63));
	wr(MSR_CORE_PERF_FIXED_CTR0 + 2, T_MASK48);
	assert_int_equal(rd(MSR_CORE_PERF_FIXED_CTR0 + 2), T_MASK48);
}

/* ---- Rule 3: counter writes ---- */

static void test_legacy_pmc_sign_extension(void **state)
{
	(void)state;

	use(pmu_model_skylake());
	wr(MSR_IA32_PMC0, 0x80000000);
	assert_int_equal(rd(MSR_IA32_PMC0), 0xffff80000000ULL);
	wr(MSR_IA32_PMC0, 0xfffffffe);		/* -2: two events from overflow */
	assert_int_equal(rd(MSR_IA32_PMC0), 0xfffffffffffeULL);
	wr(MSR_IA32_PMC0, 0x7fffffff);
	assert_int_equal(rd(MSR_IA32_PMC0), 0x7fffffff);
	/* EDX (bits 63:32) is ignored by a legacy write, not a fault. */
	wr(MSR_IA32_PMC0 + 1, 0x123400000000abcdULL);
	assert_int_equal(rd(MSR_IA32_PMC0 + 1), 0xabcd);
	wr(MSR_IA32_PMC0 + 2, 0xffffffff00000005ULL);
	assert_int_equal(rd(MSR_IA32_PMC0 + 2), 5);
	/* The log keeps the operand as written. */
	assert_int_equal(pmu_model_log(pmu_model_log_len() - 1).value, 0xffffffff00000005ULL);

	/* 40-bit counters (v1). */
	use(pmu_model_v1());
	wr(MSR_IA32_PMC0 + 1, 0xffffffff);
	assert_int_equal(rd(MSR_IA32_PMC0 + 1), T_MASK40);
	wr(MSR_IA32_PMC0, 0x80000001);
	assert_int_equal(rd(MSR_IA32_PMC0), 0xff80000001ULL);
	assert_int_equal(rdpmc(0), 0xff80000001ULL);

	/* A full-width machine still sign-extends legacy writes. */
	use(pmu_model_nehalem());
	wr(MSR_IA32_PMC0 + 3, 0x80000000);
	assert_int_equal(rd(MSR_IA32_PMC0 + 3), 0xffff80000000ULL);
}

static void test_full_width_writes(void **state)
{
	(void)state;

	use(pmu_model_skylake());
	wr(MSR_IA32_PMC0_FULL + 2, 0x123456789abcULL);
	assert_int_equal(rd(MSR_IA32_PMC0 + 2), 0x123456789abcULL);
	assert_int_equal(rd(MSR_IA32_PMC0_FULL + 2), 0x123456789abcULL);
	assert_int_equal(rdpmc(2), 0x123456789abcULL);
	wr(MSR_IA32_PMC0_FULL, 0x80000000);	/* no sign extension */
	assert_int_equal(rd(MSR_IA32_PMC0), 0x80000000);
	assert_int_equal(pmu_model_msr(MSR_IA32_PMC0_FULL), 0x80000000);
	assert_int_equal(pmu_model_violations(), 0);
}

static void test_pmc_written_while_enabled(void **state)
{
	(void)state;

	use(pmu_model_skylake());
	wr(MSR_IA32_PERFEVTSEL0 + 1, T_EVTSEL(T_EV_INSNS, 0, T_OS));	/* EN clear */
	wr(MSR_IA32_PMC0 + 1, 5);
	assert_int_equal(pmu_model_violations(), 0);

	wr(MSR_IA32_PERFEVTSEL0 + 1, T_EVTSEL(T_EV_INSNS, 0, T_OS | T_EN));
	wr(MSR_IA32_PMC0 + 1, 7);			/* accepted, but a violation */
	assert_int_equal(pmu_model_violations(), 1);
	assert_non_null(strstr(pmu_model_last_violation(), "PMC written while enabled"));
	assert_int_equal(rd(MSR_IA32_PMC0 + 1), 7);
	wr(MSR_IA32_PMC0_FULL + 1, 9);
	assert_int_equal(pmu_model_violations(), 2);
	assert_int_equal(rd(MSR_IA32_PMC0 + 1), 9);
	/* Other counters, and GLOBAL_CTRL clear, are irrelevant: EN is what the rule names. */
	wr(MSR_IA32_PMC0, 1);
	assert_int_equal(pmu_model_violations(), 2);
	wr(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	wr(MSR_IA32_PMC0 + 1, 1);
	assert_int_equal(pmu_model_violations(), 3);
	/* Faults are not violations. */
	assert_int_equal(hw_wrmsr(MSR_IA32_PMC0_FULL + 1, ~0ULL), T_GP);
	assert_int_equal(pmu_model_violations(), 3);
}

/* ---- Counting ---- */

static void test_counting_gated_by_en_and_global_ctrl(void **state)
{
	(void)state;

	use(pmu_model_skylake());
	wr(MSR_IA32_PERFEVTSEL0, T_EVTSEL(T_EV_INSNS, 0, T_OS | T_USR));
	pmu_model_retire(100, T_CPL_OS);
	assert_int_equal(rd(MSR_IA32_PMC0), 0);			/* EN clear */
	wr(MSR_IA32_PERFEVTSEL0, T_EVTSEL(T_EV_INSNS, 0, T_OS | T_USR | T_EN));
	pmu_model_retire(100, T_CPL_OS);
	assert_int_equal(rd(MSR_IA32_PMC0), 100);		/* reset GLOBAL_CTRL enables T_GP */
	wr(MSR_CORE_PERF_GLOBAL_CTRL, 0xe);
	pmu_model_retire(50, T_CPL_OS);
	assert_int_equal(rd(MSR_IA32_PMC0), 100);		/* global enable clear */
	wr(MSR_CORE_PERF_GLOBAL_CTRL, 0x1);
	pmu_model_retire(50, T_CPL_USR);
	assert_int_equal(rdpmc(0), 150);

	/* Event and umask must both match; CMASK != 0 is not simulated (never counts). */
	wr(MSR_IA32_PERFEVTSEL0 + 1, T_EVTSEL(T_EV_CYCLES, 1, T_OS | T_EN));
	wr(MSR_IA32_PERFEVTSEL0 + 2, T_EVTSEL(T_EV_INSNS, 0, T_OS | T_EN) |
	   (1ULL << __builtin_ctzll(ARCH_PERFMON_EVENTSEL_CMASK)));
	wr(MSR_CORE_PERF_GLOBAL_CTRL, 0xf);
	pmu_model_count(T_EV_CYCLES, 0, 10, T_CPL_OS);
	assert_int_equal(rd(MSR_IA32_PMC0 + 1), 0);
	pmu_model_count(T_EV_CYCLES, 1, 10, T_CPL_OS);
	assert_int_equal(rd(MSR_IA32_PMC0 + 1), 10);
	pmu_model_count(T_EV_LLC, 0x4f, 10, T_CPL_OS);
	assert_int_equal(rd(MSR_IA32_PMC0 + 1), 10);
	pmu_model_retire(7, T_CPL_OS);
	assert_int_equal(rd(MSR_IA32_PMC0 + 2), 0);
	assert_int_equal(rd(MSR_IA32_PMC0), 157);

	/* v1: no GLOBAL_CTRL, EN alone. */
	use(pmu_model_v1());
	wr(MSR_IA32_PERFEVTSEL0 + 1, T_EVTSEL(T_EV_INSNS, 0, T_USR | T_EN));
	pmu_model_retire(33, T_CPL_USR);
	assert_int_equal(rd(MSR_IA32_PMC0 + 1), 33);
	assert_int_equal(rd(MSR_IA32_PMC0), 0);

	/* Version 0: nothing to count, nothing breaks. */
	use(pmu_model_none());
	pmu_model_retire(33, T_CPL_OS);
	assert_int_equal(pmu_model_writes(), 0);
}

static void test_counting_cpl_filter(void **state)
{
	(void)state;

	use(pmu_model_skylake());
	wr(MSR_IA32_PERFEVTSEL0, T_EVTSEL(T_EV_INSNS, 0, T_USR | T_EN));
	wr(MSR_IA32_PERFEVTSEL0 + 1, T_EVTSEL(T_EV_INSNS, 0, T_OS | T_EN));
	wr(MSR_IA32_PERFEVTSEL0 + 2, T_EVTSEL(T_EV_INSNS, 0, T_OS | T_USR | T_EN));
	wr(MSR_IA32_PERFEVTSEL0 + 3, T_EVTSEL(T_EV_INSNS, 0, T_EN));	/* neither: never */
	pmu_model_retire(10, T_CPL_OS);
	pmu_model_retire(1000, T_CPL_USR);
	pmu_model_retire(5, 1);		/* ring 1 counts as USR */
	assert_int_equal(rd(MSR_IA32_PMC0), 1005);
	assert_int_equal(rd(MSR_IA32_PMC0 + 1), 10);
	assert_int_equal(rd(MSR_IA32_PMC0 + 2), 1015);
	assert_int_equal(rd(MSR_IA32_PMC0 + 3), 0);

	/* Fixed counters: enable field bit 0 = ring 0, bit 1 = rings 1-3. */
	wr(MSR_CORE_PERF_GLOBAL_CTRL, 0x700000000ULL);
	wr(MSR_CORE_PERF_FIXED_CTR_CTRL, T_FIXED_FIELD(0, FIXED_CTR_CTRL_OS) |
	   T_FIXED_FIELD(1, FIXED_CTR_CTRL_USR) | T_FIXED_FIELD(2, T_FIXED_ALL));
	pmu_model_retire(10, T_CPL_OS);
	pmu_model_retire(1000, T_CPL_USR);
	pmu_model_count(T_EV_CYCLES, 0, 20, T_CPL_OS);
	pmu_model_count(T_EV_CYCLES, 0, 2000, T_CPL_USR);
	pmu_model_count(T_EV_CYCLES, 1, 30, T_CPL_OS);
	pmu_model_count(T_EV_CYCLES, 1, 3000, T_CPL_USR);
	assert_int_equal(rd(MSR_CORE_PERF_FIXED_CTR0), 10);
	assert_int_equal(rd(MSR_CORE_PERF_FIXED_CTR0 + 1), 2000);
	assert_int_equal(rd(MSR_CORE_PERF_FIXED_CTR0 + 2), 3030);
	/* T_GP counters were globally disabled meanwhile. */
	assert_int_equal(rd(MSR_IA32_PMC0), 1005);
}

static void test_fixed_counter_events_and_gating(void **state)
{
	struct pmu_model_config c = pmu_model_skylake();
	(void)state;

	use(pmu_model_skylake());
	/* Enabled in FIXED_CTR_CTRL but not in GLOBAL_CTRL (reset leaves fixed enables 0). */
	wr(MSR_CORE_PERF_FIXED_CTR_CTRL, 0x333);
	pmu_model_retire(10, T_CPL_OS);
	assert_int_equal(rd(MSR_CORE_PERF_FIXED_CTR0), 0);
	/* Enabled in GLOBAL_CTRL only. */
	wr(MSR_CORE_PERF_FIXED_CTR_CTRL, 0);
	wr(MSR_CORE_PERF_GLOBAL_CTRL, 0x70000000fULL);
	pmu_model_retire(10, T_CPL_OS);
	assert_int_equal(rd(MSR_CORE_PERF_FIXED_CTR0), 0);
	/* Both: each fixed counter its own event. */
	wr(MSR_CORE_PERF_FIXED_CTR_CTRL, 0x333);
	pmu_model_retire(11, T_CPL_OS);
	pmu_model_count(T_EV_CYCLES, 0, 22, T_CPL_OS);
	pmu_model_count(T_EV_CYCLES, 1, 33, T_CPL_OS);
	pmu_model_count(T_EV_SLOTS, 1, 44, T_CPL_OS);
	assert_int_equal(rd(MSR_CORE_PERF_FIXED_CTR0), 11);
	assert_int_equal(rd(MSR_CORE_PERF_FIXED_CTR0 + 1), 22);
	assert_int_equal(rd(MSR_CORE_PERF_FIXED_CTR0 + 2), 33);
	assert_int_equal(rdpmc(T_RDPMC_FIXED | 0), 11);
	assert_int_equal(rdpmc(T_RDPMC_FIXED | 2), 33);

	/* v5 with four fixed counters: fixed 3 counts topdown slots. */
	c.version = 5;
	c.num_fixed = 4;
	use(c);
	wr(MSR_CORE_PERF_GLOBAL_CTRL, T_GLOBAL_FIXED(3));
	wr(MSR_CORE_PERF_FIXED_CTR_CTRL, T_FIXED_FIELD(3, T_FIXED_ALL));
	pmu_model_count(T_EV_SLOTS, 1, 44, T_CPL_USR);
	pmu_model_retire(5, T_CPL_USR);
	assert_int_equal(rd(MSR_CORE_PERF_FIXED_CTR0 + 3), 44);
	assert_int_equal(rd(MSR_CORE_PERF_FIXED_CTR0), 0);
}

/* v5: fixed counter i exists if ECX[i] or i < EDX[4:0] (non-contiguous). */
static void test_v5_fixed_bitmap(void **state)
{
	struct pmu_model_config c = pmu_model_skylake();
	(void)state;

	c.version = 5;
	c.num_fixed = 2;
	c.fixed_mask_ecx = BIT(3);
	use(c);
	rd(MSR_CORE_PERF_FIXED_CTR0 + 1);
	rd_faults(MSR_CORE_PERF_FIXED_CTR0 + 2);
	rd(MSR_CORE_PERF_FIXED_CTR0 + 3);
	wr_faults(MSR_CORE_PERF_FIXED_CTR_CTRL, T_FIXED_FIELD(2, FIXED_CTR_CTRL_OS));
	wr(MSR_CORE_PERF_FIXED_CTR_CTRL, T_FIXED_FIELD(3, T_FIXED_ALL) | T_FIXED_FIELD(1, T_FIXED_ALL));
	wr_faults(MSR_CORE_PERF_GLOBAL_CTRL, T_GLOBAL_FIXED(2));
	wr(MSR_CORE_PERF_GLOBAL_CTRL, T_GLOBAL_FIXED(3) | T_GLOBAL_FIXED(1));
	rdpmc_faults(T_RDPMC_FIXED | 2);
	assert_int_equal(rdpmc(T_RDPMC_FIXED | 3), 0);

	/* Version 4 ignores ECX. */
	c.version = 4;
	use(c);
	rd_faults(MSR_CORE_PERF_FIXED_CTR0 + 3);
}

/* ---- Overflow, PMI, freeze ---- */

static void test_overflow_wraps_and_sets_status(void **state)
{
	(void)state;

	use(pmu_model_skylake());
	wr(MSR_IA32_PMC0_FULL + 2, T_MASK48 - 1);
	wr(MSR_IA32_PERFEVTSEL0 + 2, T_EVTSEL(T_EV_INSNS, 0, T_OS | T_EN));
	pmu_model_retire(1, T_CPL_OS);
	assert_int_equal(rd(MSR_IA32_PMC0 + 2), T_MASK48);	/* at the maximum: no overflow yet */
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_STATUS), 0);
	pmu_model_retire(3, T_CPL_OS);
	assert_int_equal(rd(MSR_IA32_PMC0 + 2), 2);
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_STATUS), BIT_ULL(2));
	assert_int_equal(pmu_model_pmis(), 0);	/* INT clear */
	assert_int_equal(pmu_model_pmis_masked(), 0);

	/* Fixed counter 1 overflows into bit 33. */
	wr(MSR_CORE_PERF_FIXED_CTR0 + 1, T_MASK48);
	wr(MSR_CORE_PERF_FIXED_CTR_CTRL, T_FIXED_FIELD(1, FIXED_CTR_CTRL_OS));
	wr(MSR_CORE_PERF_GLOBAL_CTRL, T_GLOBAL_FIXED(1));
	pmu_model_count(T_EV_CYCLES, 0, 1, T_CPL_OS);
	assert_int_equal(rd(MSR_CORE_PERF_FIXED_CTR0 + 1), 0);
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_STATUS), BIT_ULL(2) | BIT_ULL(33));

	/* W1C one of them. */
	wr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, BIT_ULL(2));
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_STATUS), BIT_ULL(33));
	wr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, BIT_ULL(33));
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_STATUS), 0);

	/* A legacy "-n" write overflows after n events (40-bit v1: wrap, no status MSR). */
	use(pmu_model_v1());
	wr(MSR_IA32_PMC0, (uint32_t)-10);
	wr(MSR_IA32_PERFEVTSEL0, T_EVTSEL(T_EV_INSNS, 0, T_OS | T_EN));
	pmu_model_retire(9, T_CPL_OS);
	assert_int_equal(rd(MSR_IA32_PMC0), T_MASK40);
	pmu_model_retire(6, T_CPL_OS);
	assert_int_equal(rd(MSR_IA32_PMC0), 5);
	assert_int_equal(pmu_model_msr(MSR_CORE_PERF_GLOBAL_STATUS), 0);
}

static void test_pmi_delivery_masks_lvtpc(void **state)
{
	const uint32_t lvt = 0xfe;	/* unmasked, fixed delivery, vector 0xfe */
	(void)state;

	use(pmu_model_skylake());
	hw_apic_lvtpc_write(lvt);
	assert_int_equal(hw_apic_lvtpc_read(), lvt);
	wr(MSR_IA32_PMC0, (uint32_t)-2);
	wr(MSR_IA32_PERFEVTSEL0, T_EVTSEL(T_EV_INSNS, 0, T_OS | T_EN | T_INT));
	pmu_model_retire(1, T_CPL_OS);
	assert_int_equal(pmu_model_pmis(), 0);
	pmu_model_retire(1, T_CPL_OS);
	assert_int_equal(pmu_model_pmis(), 1);
	assert_int_equal(hw_apic_lvtpc_read(), lvt | APIC_LVT_MASKED);
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_STATUS), BIT_ULL(0));

	/* Masked: a second overflow is not delivered. */
	wr(MSR_IA32_PERFEVTSEL0, 0);
	wr(MSR_IA32_PMC0, (uint32_t)-1);
	wr(MSR_IA32_PERFEVTSEL0, T_EVTSEL(T_EV_INSNS, 0, T_OS | T_EN | T_INT));
	pmu_model_retire(1, T_CPL_OS);
	assert_int_equal(pmu_model_pmis(), 1);
	assert_int_equal(pmu_model_pmis_masked(), 1);

	/* The handler's EOI and unmask re-arm it; a fixed counter PMI is delivered. */
	hw_apic_eoi();
	assert_int_equal(pmu_model_eois(), 1);
	hw_apic_lvtpc_write(lvt);
	assert_int_equal(pmu_model_lvtpc_writes(), 2);
	wr(MSR_CORE_PERF_FIXED_CTR0, T_MASK48);
	wr(MSR_CORE_PERF_FIXED_CTR_CTRL, T_FIXED_FIELD(0, FIXED_CTR_CTRL_OS | FIXED_CTR_CTRL_PMI));
	wr(MSR_CORE_PERF_GLOBAL_CTRL, T_GLOBAL_FIXED(0));
	pmu_model_retire(1, T_CPL_OS);
	assert_int_equal(pmu_model_pmis(), 2);
	assert_int_equal(pmu_model_lvtpc(), lvt | APIC_LVT_MASKED);
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_STATUS), BIT_ULL(0) | T_GLOBAL_FIXED(0));

	/* Two counters overflowing on one step raise one PMI. */
	hw_apic_lvtpc_write(lvt);
	wr(MSR_CORE_PERF_GLOBAL_CTRL, T_GLOBAL_FIXED(0) | BIT_ULL(1));
	wr(MSR_CORE_PERF_FIXED_CTR0, T_MASK48);
	wr(MSR_IA32_PMC0_FULL + 1, T_MASK48);
	wr(MSR_IA32_PERFEVTSEL0 + 1, T_EVTSEL(T_EV_INSNS, 0, T_OS | T_EN | T_INT));
	pmu_model_retire(1, T_CPL_OS);
	assert_int_equal(pmu_model_pmis(), 3);
	assert_int_equal(pmu_model_pmis_masked(), 1);

	/* v1 delivers PMIs too (no status register). */
	use(pmu_model_v1());
	hw_apic_lvtpc_write(lvt);
	wr(MSR_IA32_PMC0 + 1, (uint32_t)-1);
	wr(MSR_IA32_PERFEVTSEL0 + 1, T_EVTSEL(T_EV_INSNS, 0, T_OS | T_EN | T_INT));
	pmu_model_retire(1, T_CPL_OS);
	assert_int_equal(pmu_model_pmis(), 1);
	assert_int_equal(hw_apic_lvtpc_read(), lvt | APIC_LVT_MASKED);
}

/* Arms T_GP counter 0 one event from a PMI-raising overflow. */
static void arm_pmc0_overflow(void)
{
	wr(MSR_IA32_PERFEVTSEL0, 0);
	wr(MSR_IA32_PMC0, (uint32_t)-1);
	wr(MSR_IA32_PERFEVTSEL0, T_EVTSEL(T_EV_INSNS, 0, T_OS | T_EN | T_INT));
}

static void test_freeze_on_pmi_legacy_v2_v3(void **state)
{
	(void)state;

	for (unsigned version = 2; version <= 3; version++) {
		struct pmu_model_config c = pmu_model_nehalem();

		c.version = version;
		use(c);
		hw_apic_lvtpc_write(0xfe);
		wr(MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI | DEBUGCTLMSR_FREEZE_LBRS_ON_PMI |
		   DEBUGCTLMSR_LBR);
		wr(MSR_CORE_PERF_FIXED_CTR_CTRL, T_FIXED_FIELD(0, FIXED_CTR_CTRL_OS));
		wr(MSR_CORE_PERF_GLOBAL_CTRL, 0x70000000fULL);
		arm_pmc0_overflow();
		pmu_model_retire(1, T_CPL_OS);
		assert_int_equal(pmu_model_pmis(), 1);
		/* Legacy freeze: every GLOBAL_CTRL enable cleared, DEBUGCTL.LBR cleared. */
		assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_CTRL), 0);
		assert_int_equal(rd(MSR_IA32_DEBUGCTLMSR),
				 DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI | DEBUGCTLMSR_FREEZE_LBRS_ON_PMI);
		assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_STATUS), BIT_ULL(0));
		assert_int_equal(rd(MSR_CORE_PERF_FIXED_CTR0), 1);	/* counted on that step */
		pmu_model_retire(100, T_CPL_OS);
		assert_int_equal(rd(MSR_IA32_PMC0), 0);
		assert_int_equal(rd(MSR_CORE_PERF_FIXED_CTR0), 1);
		/* Software re-enables. */
		wr(MSR_CORE_PERF_GLOBAL_CTRL, 1);
		pmu_model_retire(100, T_CPL_OS);
		assert_int_equal(rd(MSR_IA32_PMC0), 100);
	}

	/* Without the DEBUGCTL bit nothing is frozen. */
	use(pmu_model_nehalem());
	arm_pmc0_overflow();
	pmu_model_retire(1, T_CPL_OS);
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_CTRL), 0xf);
	assert_int_equal(pmu_model_pmis_masked(), 1);	/* LVTPC still masked from reset */
}

static void test_freeze_on_pmi_v4(void **state)
{
	(void)state;

	use(pmu_model_skylake());
	hw_apic_lvtpc_write(0xfe);
	wr(MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI | DEBUGCTLMSR_FREEZE_LBRS_ON_PMI |
	   DEBUGCTLMSR_LBR);
	wr(MSR_CORE_PERF_FIXED_CTR_CTRL, T_FIXED_FIELD(0, FIXED_CTR_CTRL_OS));
	wr(MSR_CORE_PERF_GLOBAL_CTRL, 0x70000000fULL);
	arm_pmc0_overflow();
	pmu_model_retire(1, T_CPL_OS);
	assert_int_equal(pmu_model_pmis(), 1);
	/* Streamlined freeze: CTR_FRZ and LBR_FRZ set, GLOBAL_CTRL and DEBUGCTL untouched. */
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_STATUS),
			 BIT_ULL(0) | GLOBAL_STATUS_COUNTERS_FROZEN | GLOBAL_STATUS_LBRS_FROZEN);
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_CTRL), 0x70000000fULL);
	assert_true(rd(MSR_IA32_DEBUGCTLMSR) & DEBUGCTLMSR_LBR);
	pmu_model_retire(100, T_CPL_OS);
	assert_int_equal(rd(MSR_IA32_PMC0), 0);
	assert_int_equal(rd(MSR_CORE_PERF_FIXED_CTR0), 1);
	/* Clearing the counter overflow alone does not unfreeze. */
	wr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, BIT_ULL(0));
	pmu_model_retire(100, T_CPL_OS);
	assert_int_equal(rd(MSR_IA32_PMC0), 0);
	/* Clearing CTR_FRZ does. */
	wr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, GLOBAL_STATUS_COUNTERS_FROZEN | GLOBAL_STATUS_LBRS_FROZEN);
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_STATUS), 0);
	pmu_model_retire(100, T_CPL_OS);
	assert_int_equal(rd(MSR_IA32_PMC0), 100);
	assert_int_equal(rd(MSR_CORE_PERF_FIXED_CTR0), 101);

	/* The freeze follows the PMI request even when the LVTPC is masked (not delivered). */
	use(pmu_model_skylake());
	wr(MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI);
	arm_pmc0_overflow();
	pmu_model_retire(1, T_CPL_OS);
	assert_int_equal(pmu_model_pmis(), 0);
	assert_int_equal(pmu_model_pmis_masked(), 1);
	assert_true(rd(MSR_CORE_PERF_GLOBAL_STATUS) & GLOBAL_STATUS_COUNTERS_FROZEN);

	/* CTR_FRZ set through STATUS_SET freezes as well. */
	use(pmu_model_skylake());
	wr(MSR_IA32_PERFEVTSEL0, T_EVTSEL(T_EV_INSNS, 0, T_OS | T_EN));
	wr(MSR_CORE_PERF_GLOBAL_STATUS_SET, GLOBAL_STATUS_COUNTERS_FROZEN);
	pmu_model_retire(5, T_CPL_OS);
	assert_int_equal(rd(MSR_IA32_PMC0), 0);

	/* Without INT there is no PMI request and so no freeze. */
	use(pmu_model_skylake());
	wr(MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI);
	wr(MSR_IA32_PMC0, (uint32_t)-1);
	wr(MSR_IA32_PERFEVTSEL0, T_EVTSEL(T_EV_INSNS, 0, T_OS | T_EN));
	pmu_model_retire(1, T_CPL_OS);
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_STATUS), BIT_ULL(0));
}

/* ---- INUSE, DEBUGCTL, RDPMC ---- */

static void test_global_inuse(void **state)
{
	(void)state;

	use(pmu_model_skylake());
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_INUSE), 0);
	wr(MSR_IA32_PERFEVTSEL0 + 1, T_EVTSEL(T_EV_INSNS, 0, 0));
	wr(MSR_IA32_PERFEVTSEL0 + 2, T_EVTSEL(0, 1, T_OS));	/* event select 0: not in use */
	wr(MSR_CORE_PERF_FIXED_CTR_CTRL, T_FIXED_FIELD(2, FIXED_CTR_CTRL_USR));
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_INUSE), BIT_ULL(1) | T_GLOBAL_FIXED(2));
	wr(MSR_CORE_PERF_FIXED_CTR_CTRL, T_FIXED_FIELD(0, FIXED_CTR_CTRL_PMI));	/* PMI only */
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_INUSE), BIT_ULL(1) | BIT_ULL(63));
	wr(MSR_CORE_PERF_FIXED_CTR_CTRL, 0);
	wr(MSR_IA32_PERFEVTSEL0 + 3, T_EVTSEL(T_EV_CYCLES, 0, T_INT));
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_INUSE), BIT_ULL(1) | BIT_ULL(3) | BIT_ULL(63));
	wr_faults(MSR_CORE_PERF_GLOBAL_INUSE, 0);
}

static void test_debugctl(void **state)
{
	struct pmu_model_config c = pmu_model_skylake();
	(void)state;

	use(pmu_model_skylake());
	wr_faults(MSR_IA32_DEBUGCTLMSR, BIT_ULL(2));
	wr_faults(MSR_IA32_DEBUGCTLMSR, BIT_ULL(16));
	wr(MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_FREEZE_IN_SMM | DEBUGCTLMSR_BTF);
	assert_int_equal(rd(MSR_IA32_DEBUGCTLMSR), 0x4002);
	/* FREEZE_WHILE_SMM needs PERF_CAPABILITIES[12]. */
	c.perf_capabilities &= ~PERF_CAP_FREEZE_WHILE_SMM;
	use(c);
	wr_faults(MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_FREEZE_IN_SMM);
	use(pmu_model_v1());
	wr_faults(MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_FREEZE_IN_SMM);
	wr(MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI);
}

static void test_rdpmc_forms(void **state)
{
	(void)state;

	use(pmu_model_skylake());
	wr(MSR_IA32_PMC0_FULL + 3, 0xabcdef012345ULL);
	wr(MSR_CORE_PERF_FIXED_CTR0 + 1, 0x100000000ULL);
	assert_int_equal(rdpmc(3), 0xabcdef012345ULL);
	assert_int_equal(rdpmc(0), 0);
	assert_int_equal(rdpmc(T_RDPMC_FIXED | 1), 0x100000000ULL);
	rdpmc_faults(4);
	rdpmc_faults(T_RDPMC_FIXED | 3);
	rdpmc_faults(T_RDPMC_FAST | 0);
	rdpmc_faults(T_RDPMC_FAST | T_RDPMC_FIXED | 1);
	rdpmc_faults(BIT(29));
	assert_int_equal(pmu_model_faults(), 5);

	use(pmu_model_v1());
	assert_int_equal(rdpmc(1), 0);
	rdpmc_faults(2);
	rdpmc_faults(T_RDPMC_FIXED | 0);

	use(pmu_model_none());
	rdpmc_faults(0);
	rdpmc_faults(T_RDPMC_FIXED | 0);
}

/* ---- Write log, backdoor ---- */

static void test_write_log(void **state)
{
	(void)state;

	use(pmu_model_skylake());
	assert_int_equal(pmu_model_log_len(), 0);
	wr(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	wr(MSR_IA32_PERFEVTSEL0, T_EVTSEL(T_EV_INSNS, 0, T_OS));
	assert_int_equal(hw_wrmsr(MSR_IA32_PERFEVTSEL0 + 4, 0), T_GP);	/* not logged */
	wr(MSR_IA32_PMC0, 0);
	wr(MSR_CORE_PERF_GLOBAL_CTRL, 1);
	assert_int_equal(pmu_model_writes(), 4);
	assert_int_equal(pmu_model_log_len(), 4);
	assert_int_equal(pmu_model_log(0).msr, MSR_CORE_PERF_GLOBAL_CTRL);
	assert_int_equal(pmu_model_log(0).value, 0);
	assert_int_equal(pmu_model_log(1).msr, MSR_IA32_PERFEVTSEL0);
	assert_int_equal(pmu_model_log(1).value, 0x200c0);
	assert_int_equal(pmu_model_log(2).msr, MSR_IA32_PMC0);
	assert_int_equal(pmu_model_log(3).msr, MSR_CORE_PERF_GLOBAL_CTRL);
	assert_int_equal(pmu_model_log(3).value, 1);
	assert_int_equal(pmu_model_log(4).msr, 0);
	/* Order queries: GLOBAL_CTRL disabled before the event is programmed, enabled last. */
	assert_int_equal(pmu_model_log_find(MSR_CORE_PERF_GLOBAL_CTRL, 0), 0);
	assert_int_equal(pmu_model_log_find(MSR_CORE_PERF_GLOBAL_CTRL, 1), 3);
	assert_int_equal(pmu_model_log_find(MSR_IA32_PERFEVTSEL0 + 1, 0), -1);
	/* Reads are not writes. */
	rd(MSR_CORE_PERF_GLOBAL_CTRL);
	assert_int_equal(pmu_model_writes(), 4);

	/* The log keeps the newest PMU_MODEL_LOG_LEN writes. */
	for (unsigned i = 0; i < PMU_MODEL_LOG_LEN + 10; i++)
		wr(MSR_IA32_PMC0 + 1, i);
	assert_int_equal(pmu_model_writes(), PMU_MODEL_LOG_LEN + 14);
	assert_int_equal(pmu_model_log_len(), PMU_MODEL_LOG_LEN);
	assert_int_equal(pmu_model_log(0).value, 14 - 4 + 0);
	assert_int_equal(pmu_model_log(PMU_MODEL_LOG_LEN - 1).value, PMU_MODEL_LOG_LEN + 9);

	pmu_model_clear_log();
	assert_int_equal(pmu_model_writes(), 0);
	assert_int_equal(pmu_model_log_len(), 0);
	assert_int_equal(rd(MSR_IA32_PMC0 + 1), PMU_MODEL_LOG_LEN + 9);	/* state kept */
}

static void test_poke_and_peek(void **state)
{
	(void)state;

	use(pmu_model_nehalem());
	assert_true(pmu_model_poke(MSR_CORE_PERF_GLOBAL_STATUS, GLOBAL_STATUS_COND_CHGD | 1));
	assert_int_equal(rd(MSR_CORE_PERF_GLOBAL_STATUS), 0x8000000000000001ULL);
	assert_true(pmu_model_poke(MSR_IA32_PMC0, ~0ULL));
	assert_int_equal(rd(MSR_IA32_PMC0), T_MASK48);
	assert_false(pmu_model_poke(MSR_IA32_PMC0 + 4, 1));
	assert_false(pmu_model_poke(MSR_CORE_PERF_GLOBAL_INUSE, 1));
	assert_int_equal(pmu_model_writes(), 0);
	assert_int_equal(pmu_model_msr(MSR_EFER), 0);
	assert_int_equal(pmu_model_msr(MSR_CORE_PERF_GLOBAL_OVF_CTRL), 0);
	assert_int_equal(pmu_model_faults(), 0);
	assert_int_equal(pmu_model_get_config()->model, 0x1a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpuid_skylake),
		cmocka_unit_test(test_cpuid_hybrid_v5_and_none),
		cmocka_unit_test(test_reset_state),
		cmocka_unit_test(test_nonexistent_msrs_fault),
		cmocka_unit_test(test_perf_capabilities_gating),
		cmocka_unit_test(test_evtsel_reserved_bits),
		cmocka_unit_test(test_fixed_ctrl_reserved_bits),
		cmocka_unit_test(test_global_ctrl_reserved_bits),
		cmocka_unit_test(test_ovf_ctrl_bits_per_version),
		cmocka_unit_test(test_status_read_only_and_status_set),
		cmocka_unit_test(test_counter_width_faults),
		cmocka_unit_test(test_legacy_pmc_sign_extension),
		cmocka_unit_test(test_full_width_writes),
		cmocka_unit_test(test_pmc_written_while_enabled),
		cmocka_unit_test(test_counting_gated_by_en_and_global_ctrl),
		cmocka_unit_test(test_counting_cpl_filter),
		cmocka_unit_test(test_fixed_counter_events_and_gating),
		cmocka_unit_test(test_v5_fixed_bitmap),
		cmocka_unit_test(test_overflow_wraps_and_sets_status),
		cmocka_unit_test(test_pmi_delivery_masks_lvtpc),
		cmocka_unit_test(test_freeze_on_pmi_legacy_v2_v3),
		cmocka_unit_test(test_freeze_on_pmi_v4),
		cmocka_unit_test(test_global_inuse),
		cmocka_unit_test(test_debugctl),
		cmocka_unit_test(test_rdpmc_forms),
		cmocka_unit_test(test_write_log),
		cmocka_unit_test(test_poke_and_peek),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
