/* SPDX-License-Identifier: MIT */
/* First core-PMU checks: enumeration and RDPMC. They SKIP where CPUID says there is no PMU
 * and, with force-pmu, run anyway and must FAIL there. */
#include "arch/x86/msr.h"
#include "arch/x86/trap.h"
#include "pmu/pmu.h"
#include "tests/checks.h"

enum check_status check_pmu_arch_version(struct check_ctx *c)
{
	const char *why = pmu_unavailable_reason(plat.opt.force_pmu);

	if (why)
		return check_skip(c, "%s", why);
	if (pmu.version < 1 || pmu.num_gp < 1)
		return check_fail(c, "measured=version %u, %u GP counters (CPUID.0AH:EAX=0x%x) "
				  "expected=version >= 1 with >= 1 GP counter", pmu.version, pmu.num_gp,
				  pmu.eax);
	return check_pass(c, "measured=version %u, %u GP x %u bits, %u fixed x %u bits "
			  "expected=version >= 1 with >= 1 GP counter", pmu.version, pmu.num_gp,
			  pmu.gp_width, pmu.num_fixed, pmu.fixed_width);
}

enum check_status check_pmu_rdpmc_gp0(struct check_ctx *c)
{
	const char *why = pmu_unavailable_reason(plat.opt.force_pmu);
	uint64_t v;
	int fault;

	if (why)
		return check_skip(c, "%s", why);
	fault = rdpmc_safe(0, &v);
	if (fault)
		return check_fail(c, "measured=fault vector %d expected=no fault ecx=0", fault);
	return check_pass(c, "measured=no fault (PMC0=0x%llx) expected=no fault ecx=0",
			  (unsigned long long)v);
}
