/* SPDX-License-Identifier: MIT */
/* CPUID decode sanity: facts that must hold on any x86-64 CPU pmuboot runs on. */
#include "arch/x86/apic.h"
#include "tests/harness/check.h"
#include "tests/harness/env.h"
#include "arch/x86/cpuid.h"
#include "arch/x86/msr.h"
#include "lib/fmt.h"
#include "lib/string.h"

static bool printable(const char *s)
{
	for (; *s; s++)
		if (*s == '?')	/* cpu_info_decode replaces unprintable bytes by '?' */
			return false;
	return true;
}

static enum check_status check_cpuid_sanity(struct check_ctx *c)
{
	const struct cpu_info *ci = env.cpu;
	struct cpu_info again;
	char bad[CHECK_DETAIL_LEN] = "";
	uint64_t efer = 0;

#define PROBLEM(...) do { if (!bad[0]) fmt_snprintf(bad, sizeof(bad), __VA_ARGS__); \
			  else check_diag(c, __VA_ARGS__); } while (0)
	if (ci->max_leaf < 1)
		PROBLEM("CPUID.0:EAX=%u: leaf 1 missing", ci->max_leaf);
	if (str_len(ci->vendor_id) != 12 || !printable(ci->vendor_id))
		PROBLEM("vendor id '%s' is not 12 printable characters", ci->vendor_id);
	if (!ci->long_mode)
		PROBLEM("CPUID.80000001H:EDX[29] (LM) clear while running in 64-bit mode");
	if (rdmsr_safe(MSR_EFER, &efer) || !(efer & EFER_LMA))
		PROBLEM("IA32_EFER.LMA clear (EFER=0x%llx) while running in 64-bit mode",
			(unsigned long long)efer);
	if (!ci->tsc || !ci->msr)
		PROBLEM("CPUID.1:EDX TSC=%d MSR=%d: both must be set", ci->tsc, ci->msr);
	if (ci->family < 6)
		PROBLEM("display family %u: no x86-64 CPU has a family below 6", ci->family);
	if (ci->apic != apic.present)
		PROBLEM("CPUID.1:EDX[9] (APIC)=%d but IA32_APIC_BASE says the local APIC is %s",
			ci->apic, apic.present ? "enabled" : "absent or disabled");
	if (apic.present && !apic.x2apic && (apic.id & 0xff) != ci->initial_apic_id)
		PROBLEM("APIC ID register %u differs from CPUID.1:EBX[31:24]=%u",
			apic.id, ci->initial_apic_id);
	if (ci->max_ext_leaf >= 0x80000004 && (!ci->brand[0] || !printable(ci->brand)))
		PROBLEM("brand string '%s' empty or unprintable", ci->brand);
	cpu_info_read(&again);
	if (again.signature != ci->signature || str_cmp(again.vendor_id, ci->vendor_id) ||
	    str_cmp(again.brand, ci->brand) || again.max_leaf != ci->max_leaf)
		PROBLEM("a second CPUID decode differs (signature 0x%x vs 0x%x)",
			again.signature, ci->signature);
#undef PROBLEM
	if (bad[0])
		return check_error(c, bad, "consistent CPUID");
	return check_result(c, CHECK_PASS, "%s family 0x%x model 0x%x stepping %u", "consistent CPUID",
			    ci->vendor_id, ci->family, ci->model, ci->stepping);
}
CHECK_DEFINE(10, "cpuid.sanity", check_cpuid_sanity,
	     "CPUID decode is self-consistent and agrees with the running CPU");
