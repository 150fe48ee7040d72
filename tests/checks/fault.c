/* SPDX-License-Identifier: MIT */
/* Fault recovery: #UD, #GP from a non-canonical access and from a reserved MSR bit, RDPMC faults. */
#include "arch/x86/msr.h"
#include "tests/harness/check.h"
#include "tests/harness/env.h"
#include "arch/x86/trap.h"
#include "pmu/pmu.h"

static const char *vec_name(int v)
{
	switch (v) {
	case FAULT_NONE: return "none";
	case X86_TRAP_UD: return "#UD(6)";
	case X86_TRAP_GP: return "#GP(13)";
	case X86_TRAP_SS: return "#SS(12)";
	case X86_TRAP_PF: return "#PF(14)";
	default: return "other";
	}
}

static enum check_status check_fault_ud(struct check_ctx *c)
{
	uint64_t fn = (uint64_t)(uintptr_t)probe_ud2;
	int v1 = probe_call(probe_ud2, 0);
	uint64_t rip = this_cpu()->probe_rip;
	int v2 = probe_call(probe_ud2, 0);	/* the probe must be reusable */

	if (v1 != X86_TRAP_UD || v2 != X86_TRAP_UD)
		return check_result(c, CHECK_FAIL, "%s,%s", "#UD(6),#UD(6)", vec_name(v1), vec_name(v2));
	if (rip < fn || rip >= fn + 64)
		return check_result(c, CHECK_FAIL, "RIP 0x%lx", "inside probe_ud2 at 0x%lx",
				    (unsigned long)rip, (unsigned long)fn);
	return check_result(c, CHECK_PASS, "#UD(6)", "#UD(6) rip=probe_ud2+%lu",
			    (unsigned long)(rip - fn));
}
CHECK_DEFINE(20, "fault.ud", check_fault_ud,
	     "ud2 raises #UD and the probe recovers (twice)");

static enum check_status check_fault_gp_noncanonical(struct check_ctx *c)
{
	int v = probe_call(probe_noncanonical_read, 0);
	uint64_t err = this_cpu()->probe_error;

	if (v != X86_TRAP_GP || err != 0)
		return check_result(c, CHECK_FAIL, "%s error=0x%lx", "#GP(13) error=0x0",
				    vec_name(v), (unsigned long)err);
	return check_result(c, CHECK_PASS, "#GP(13) error=0x0", "#GP(13) error=0x0");
}
CHECK_DEFINE(30, "fault.gp_noncanonical", check_fault_gp_noncanonical,
	     "a load from a non-canonical address raises #GP(0)");

static enum check_status check_fault_gp_msr_reserved(struct check_ctx *c)
{
	/* IA32_PKRS bits 63:32 are reserved; where the MSR does not exist at all the write
	 * faults too. Either way a correct CPU (and QEMU's TCG) raises #GP(0). */
	int v = wrmsr_safe(MSR_IA32_PKRS, 1ULL << 32);

	if (v != X86_TRAP_GP)
		return check_error(c, v ? vec_name(v) : "none", "#GP(13) msr=0x%x value=0x100000000", MSR_IA32_PKRS);
	return check_result(c, CHECK_PASS, "#GP(13)", "#GP(13) msr=0x%x value=0x100000000",
			    MSR_IA32_PKRS);
}
CHECK_DEFINE(40, "fault.gp_msr_reserved", check_fault_gp_msr_reserved,
	     "WRMSR setting reserved bits of IA32_PKRS raises #GP(0)");

/* GP counter 0xFFFF exists on no PMU (SDM Vol. 2B RDPMC: an out-of-range ECX is #GP(0)). */
#define RDPMC_INVALID_INDEX	0x0000ffffu

static enum check_status check_fault_rdpmc_invalid(struct check_ctx *c)
{
	uint64_t val;
	int v = rdpmc_safe(RDPMC_INVALID_INDEX, &val);
	/* An emulator without RDPMC (QEMU TCG) raises #UD for every RDPMC; accepted only where a
	 * hypervisor is present and enumerates no PMU, and said so in the detail. */
	bool ud_ok = env.cpu->hypervisor && pmu.version == 0;

	if (v == X86_TRAP_GP)
		return check_result(c, CHECK_PASS, "#GP(13)", "#GP(13) ecx=0x%x", RDPMC_INVALID_INDEX);
	if (v == X86_TRAP_UD && ud_ok)
		return check_result(c, CHECK_PASS, "#UD(6)", "#GP(13) or #UD(6) ecx=0x%x "
				    "(hypervisor without a PMU: RDPMC not implemented)", RDPMC_INVALID_INDEX);
	return check_error(c, v ? vec_name(v) : "none", "#GP(13) ecx=0x%x",
			   RDPMC_INVALID_INDEX);
}
CHECK_DEFINE(50, "fault.rdpmc_invalid", check_fault_rdpmc_invalid,
	     "RDPMC of a counter no PMU has faults (#GP; #UD where a hypervisor has no RDPMC)");
