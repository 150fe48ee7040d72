/* SPDX-License-Identifier: MIT */
/* Measurement regions and the oracle's prediction lines. */
#include "tests/measure/region.h"
#include "tests/measure/pmu_run.h"
#include "tests/harness/env.h"
#include "pmu/counter.h"
#include "pmu/frame.h"
#include "arch/x86/percpu.h"
#include "arch/x86/trap.h"
#include "arch/x86/user.h"
#include "arch/x86/io.h"
#include "arch/x86/msr.h"
#include "arch/x86/cpuid.h"
#include "arch/x86/console.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "lib/oracle_tag.h"

volatile bool measure_concurrent;
static unsigned regions_used[MAX_CPUS];	/* per CPU, as the oracle numbers them */

void region_predict(const struct kernel_desc *k, uint64_t n, const void *arg, unsigned slot,
		    struct exec_counts *c)
{
	region_predict_frame(FRAME_TSC, k, n, arg, slot, c);
}

void region_predict_frame(enum frame_kind f, const struct kernel_desc *k, uint64_t n,
			  const void *arg, unsigned slot, struct exec_counts *c)
{
	bool pmu_frame = f == FRAME_PMU;

	memset(c, 0, sizeof(*c));
	/* The frame's part: its instructions in the region (TSC frame: the CALL; PMU frame:
	 * WRMSR, CALL, MOV, XOR, XOR, WRMSR), 1 call, 1 store (the return address), whose
	 * stack line and page no kernel data shares. */
	c->insns += pmu_frame ? PMU_FRAME_REGION_INSNS : FRAME_REGION_INSNS;
	c->calls += 1;
	c->stores += 1;
	c->lines += 1;
	c->pages += 1;
	exec_taken(c, pmu_frame ? pmu_frame_call_site(slot) : frame_call_site(slot),
		   (uint64_t)(uintptr_t)k->fn, LBR_KIND_IND_CALL);
	k->predict(n, arg, pmu_frame ? pmu_frame_return_site(slot) : frame_return_site(slot), c);

	/* oracle-fault=: deliberately wrong models, for the harness's negative test. */
	switch (env.oracle_fault) {
	case ORACLE_FAULT_LOADS:
		c->loads -= 1;
		break;
	case ORACLE_FAULT_LBR:
		c->lbr[(c->lbr_head + LBR_DEPTH - 1) % LBR_DEPTH].to += 1;
		break;
	case ORACLE_FAULT_INSNS:
		c->insns += 1;
		break;
	default:
		break;
	}
}

static void print_prediction(enum frame_kind f, const struct kernel_desc *k, uint64_t n,
			     const struct region *r, const struct exec_counts *c)
{
	struct branch_rec lbr[LBR_DEPTH];
	unsigned nl = exec_lbr(c, lbr);
	char b[1536];
	size_t len;

	/* One line, one con_write: another CPU may print at the same time. */
	fmt_snprintf(b, sizeof(b), "# oracle: region id=%u seq=%u vcpu=%u kernel=%s n=%llu "
		     "frame=%s tsc=%llu insns=%llu cond_taken=%llu cond_not_taken=%llu jumps=%llu "
		     "calls=%llu rets=%llu far=%llu loads=%llu stores=%llu lines=%llu pages=%llu "
		     "lbr=", r->id, r->seq, r->vcpu, k->name, (unsigned long long)n,
		     f == FRAME_PMU ? "pmu" : "tsc", (unsigned long long)r->tsc,
		     (unsigned long long)c->insns, (unsigned long long)c->cond_taken,
		     (unsigned long long)c->cond_not_taken, (unsigned long long)c->jumps,
		     (unsigned long long)c->calls, (unsigned long long)c->rets,
		     (unsigned long long)c->far, (unsigned long long)c->loads,
		     (unsigned long long)c->stores, (unsigned long long)c->lines,
		     (unsigned long long)c->pages);
	for (unsigned i = 0; i < nl; i++) {
		len = str_len(b);
		fmt_snprintf(b + len, sizeof(b) - len, "%s%llx:%llx", i ? "," : "",
			     (unsigned long long)lbr[i].from, (unsigned long long)lbr[i].to);
	}
	len = str_len(b);
	fmt_snprintf(b + len, sizeof(b) - len, "%s\n", measure_concurrent ? " concurrent=1" : "");
	con_write(b);
}

static struct region next_region(void)
{
	struct region r;
	struct percpu *c = this_cpu();
	unsigned *used = &regions_used[c->index % MAX_CPUS];

	r.id = *used % ORACLE_MAX_REGIONS;
	r.seq = *used / ORACLE_MAX_REGIONS;
	r.vcpu = c->apic_id;
	r.tsc = 0;
	(*used)++;
	return r;
}

static void predict_and_print(enum frame_kind f, const struct kernel_desc *k, uint64_t n,
			      void *arg, const struct region *r)
{
	if (env.oracle) {
		struct exec_counts c;

		region_predict_frame(f, k, n, arg, r->id, &c);
		print_prediction(f, k, n, r, &c);
	}
}

struct region measure_kernel(const struct kernel_desc *k, uint64_t n, void *arg)
{
	struct region r = next_region();
	uint64_t flags = irq_save();

	r.tsc = frame_tsc(r.id, k->fn, n, arg);
	irq_restore(flags);
	predict_and_print(FRAME_TSC, k, n, arg, &r);
	return r;
}

struct region measure_kernel_user(const struct kernel_desc *k, uint64_t n, void *arg, int *fault)
{
	struct region r = next_region();

	*fault = user_call((user_fn)(uintptr_t)frame_slot(r.id), (uint64_t)(uintptr_t)k->fn, n,
			   (uint64_t)(uintptr_t)arg, 0, false, &r.tsc);
	if (*fault == FAULT_NONE)
		predict_and_print(FRAME_TSC, k, n, arg, &r);
	return r;
}

struct region measure_kernel_pmu(const struct kernel_desc *k, uint64_t n, void *arg,
				 uint64_t enable)
{
	struct region r = next_region();
	uint64_t flags = irq_save();
	uint64_t t0 = rdtsc();

	pmu_frame_run(r.id, k->fn, n, arg, enable);
	r.tsc = rdtsc() - t0;
	irq_restore(flags);
	predict_and_print(FRAME_PMU, k, n, arg, &r);
	return r;
}

struct region measure_kernel_msr(const struct kernel_desc *k, uint64_t n, void *arg, uint32_t msr,
				 uint64_t enable)
{
	struct region r = next_region();
	uint64_t flags = irq_save();
	uint64_t t0 = rdtsc();

	pmu_frame_run_msr(r.id, k->fn, n, arg, msr, enable);
	r.tsc = rdtsc() - t0;
	irq_restore(flags);
	predict_and_print(FRAME_PMU, k, n, arg, &r);
	return r;
}

struct region measure_kernel_pmu_unframed(const struct kernel_desc *k, uint64_t n, void *arg,
					  uint64_t enable)
{
	struct region r = { 0, 0, 0, 0 };
	uint64_t flags, t0;

	/* A plain write of GLOBAL_CTRL, as the frame makes: pmu_run_arm has done what adding
	 * the counters needs (the Nehalem AAK100 sequence included), which through
	 * pmu_global_ctrl_write would run again inside the timed span. Version 1 has no
	 * GLOBAL_CTRL: its selectors' EN bits count. */
	if (pmu.version >= 2)
		return measure_kernel_msr_unframed(k, n, arg, MSR_CORE_PERF_GLOBAL_CTRL, enable);
	flags = irq_save();
	t0 = rdtsc();
	k->fn(n, arg);
	r.tsc = rdtsc() - t0;
	irq_restore(flags);
	return r;
}

struct region measure_kernel_msr_unframed(const struct kernel_desc *k, uint64_t n, void *arg,
					  uint32_t msr, uint64_t enable)
{
	struct region r = { 0, 0, 0, 0 };
	uint64_t flags = irq_save();
	uint64_t t0 = rdtsc();

	wrmsr_safe(msr, enable);
	k->fn(n, arg);
	wrmsr_safe(msr, 0);
	r.tsc = rdtsc() - t0;
	irq_restore(flags);
	return r;
}

void measure_note_pmu(const struct region *r, uint64_t insns, uint64_t branches)
{
	if (env.oracle)
		con_printf("# oracle: pmu id=%u seq=%u vcpu=%u insns=%llu branches=%llu\n", r->id,
			   r->seq, r->vcpu, (unsigned long long)insns, (unsigned long long)branches);
}

static struct cpuid_regs real_cpuid(void *ctx, uint32_t leaf, uint32_t sub)
{
	(void)ctx;
	return cpuid_count(leaf, sub);
}

uint64_t cpu_cache_bytes(unsigned level)
{
	struct cache_info caches[MAX_CACHES];
	unsigned n = cpu_caches(real_cpuid, NULL, env.cpu, caches, MAX_CACHES);

	return cache_size(caches, n, level);
}

int pmu_frame_wrmsrs(int *w, char *err, size_t errlen)
{
	static int found = -1;
	uint64_t insns, br;
	int d[2];

	if (found >= 0) {
		*w = found;
		return 0;
	}
	for (unsigned n = 1; n <= 2; n++) {
		struct exec_counts e;
		int r = pmu_count_insns_branches(&kernel_loop4_desc, n, NULL, &insns, &br, err, errlen);

		if (r)
			return r;
		region_predict_frame(FRAME_PMU, &kernel_loop4_desc, n, NULL, 0, &e);
		d[n - 1] = (int)((int64_t)insns - (int64_t)(e.insns - PMU_FRAME_REGION_INSNS +
							    PMU_FRAME_INSNS));
	}
	if (d[0] != d[1] || d[0] < 0 || d[0] > 2) {
		fmt_snprintf(err, errlen, "the frame's own count is not 0, 1 or 2 WRMSRs, nor constant: "
			     "%d at n=1, %d at n=2 (loop4)", d[0], d[1]);
		return -1;
	}
	*w = found = d[0];
	return 0;
}
