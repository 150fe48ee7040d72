/* SPDX-License-Identifier: MIT */
/* CPL 3: kernels run in user mode and come back; privileged instructions fault there. */
#include "arch/x86/trap.h"
#include "tests/harness/check.h"
#include "tests/checks/icount.h"
#include "arch/x86/user.h"
#include "pmu/pmu.h"
#include "tests/measure/region.h"

static const char *vec(int v)
{
	return v == FAULT_NONE ? "no fault" : v == X86_TRAP_GP ? "#GP(13)" :
	       v == X86_TRAP_UD ? "#UD(6)" : v == X86_TRAP_PF ? "#PF(14)" : "another fault";
}

static enum check_status check_user_ring3(struct check_ctx *c)
{
	uint64_t ret = 0;
	int v;

	if (user_unavailable())
		return check_skip(c, "%s", user_unavailable());
	v = user_call((user_fn)(uintptr_t)kernel_loop4, 1000, 0, 0, 0, false, &ret);
	if (v != FAULT_NONE)
		return check_result(c, CHECK_FAIL, "%s (vector %d)", "loop4 runs at CPL 3 and returns",
				    vec(v), v);
	/* Privileged at CPL 3 (SDM Vol. 2): CLI with IOPL 0, HLT, RDPMC with CR4.PCE clear. */
	if ((v = user_call(user_probe_cli, 0, 0, 0, 0, false, &ret)) != X86_TRAP_GP)
		return check_result(c, CHECK_FAIL, "CLI at CPL 3: %s", "#GP(13)", vec(v));
	if ((v = user_call(user_probe_hlt, 0, 0, 0, 0, false, &ret)) != X86_TRAP_GP)
		return check_result(c, CHECK_FAIL, "HLT at CPL 3: %s", "#GP(13)", vec(v));
	if ((v = user_call(user_probe_rdpmc0, 0, 0, 0, 0, false, &ret)) != X86_TRAP_GP)
		return check_result(c, CHECK_FAIL, "RDPMC at CPL 3 with CR4.PCE=0: %s", "#GP(13)", vec(v));
	/* With CR4.PCE set RDPMC is allowed at CPL 3 where a PMU exists. */
	v = user_call(user_probe_rdpmc0, 0, 0, 0, 0, true, &ret);
	if (pmu.version >= 1 && v != FAULT_NONE)
		return check_result(c, CHECK_FAIL, "RDPMC at CPL 3 with CR4.PCE=1: %s", "no fault", vec(v));
	if (pmu.version == 0 && v == X86_TRAP_GP)
		return check_result(c, CHECK_FAIL, "RDPMC at CPL 3 with CR4.PCE=1: #GP", "PCE honoured");
	return check_result(c, CHECK_PASS, "kernel ran at CPL 3; CLI, HLT, RDPMC(PCE=0) #GP; RDPMC(PCE=1) %s",
			    "same", vec(v));
}
CHECK_DEFINE(80, "user.ring3", check_user_ring3,
	     "a kernel runs at CPL 3 and returns; CLI, HLT and RDPMC without CR4.PCE #GP there");

static enum check_status check_user_icount(struct check_ctx *c)
{
	const struct kernel_desc *k = &kernel_loop4_desc;
	struct region a, b;
	struct exec_counts e;
	int fa, fb;

	if (user_unavailable())
		return check_skip(c, "%s", user_unavailable());
	if (icount_unavailable())
		return check_skip(c, "%s", icount_unavailable());
	a = measure_kernel_user(k, 1000, NULL, &fa);
	b = measure_kernel_user(k, 2000, NULL, &fb);
	if (fa != FAULT_NONE || fb != FAULT_NONE)
		return check_error(c, vec(fa != FAULT_NONE ? fa : fb), "the frame runs at CPL 3");
	region_predict(k, 1000, NULL, a.id, &e);
	if (b.tsc - a.tsc != 4000 || a.tsc != e.insns + FRAME_TSC_OVERHEAD)
		return check_result(c, CHECK_FAIL, "count(2N)-count(N)=%llu count(N)=%llu", "4000 and %llu",
				    (unsigned long long)(b.tsc - a.tsc), (unsigned long long)a.tsc,
				    (unsigned long long)(e.insns + FRAME_TSC_OVERHEAD));
	return check_result(c, CHECK_PASS, "4000, count(N)=%llu at CPL 3", "4000 and %llu as at CPL 0",
			    (unsigned long long)a.tsc, (unsigned long long)(e.insns + FRAME_TSC_OVERHEAD));
}
CHECK_DEFINE(90, "user.icount", check_user_icount,
	     "the measurement frame at CPL 3 counts exactly as at CPL 0 (-icount)");
