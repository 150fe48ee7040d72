/* SPDX-License-Identifier: MIT */
/* Two CPUs at once: the partner, both sides of a cross-core kernel, the plain ping-pong. */
#include "tests/measure/xcore.h"
#include "arch/x86/cpuid.h"
#include "arch/x86/percpu.h"
#include "arch/x86/smp.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "pmu/event.h"
#include "tests/harness/env.h"
#include "tests/measure/pmu_run.h"
#include "tests/measure/region.h"

#define PARTNER_WAIT_US	(20ULL * 1000 * 1000)


const struct hitm_event *xcore_hitm_event(void)
{
	static const struct hitm_event nhm = { 0x0f, 0x02, "MEM_UNCORE_RETIRED.OTHER_CORE_L2_HITM" };
	static const struct hitm_event skl = { 0xd2, 0x04, "MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM" };

	switch (pmu.uarch) {
	case UARCH_NEHALEM:
	case UARCH_WESTMERE:
		return &nhm;
	case UARCH_SKYLAKE:
	case UARCH_KABY_LAKE:
	case UARCH_ICE_LAKE:
	case UARCH_TIGER_LAKE:
	case UARCH_ROCKET_LAKE:
		return &skl;
	default:
		return NULL;
	}
}

const char *xcore_no_hitm_count(void)
{
	const char *why = pmu_unavailable_reason(false);

	if (why)
		return why;
	if (pmu.version < 2)
		return "PMU version 1: no IA32_PERF_GLOBAL_CTRL for the measurement frame";
	if (!xcore_hitm_event())
		return "pmuboot knows no cross-core HITM load event for this microarchitecture";
	return NULL;
}

void xcore_cpus(uint32_t apic[MAX_CPUS], bool usable[MAX_CPUS])
{
	for (unsigned k = 0; k < smp.ncpus; k++) {
		apic[k] = smp.cpu[k].apic_id;
		usable[k] = k != this_cpu()->index && smp.cpu[k].state == SMP_IDLE &&
			    (env.cpus & (1ULL << k));
	}
}

/* What a partner or sibling is chosen from: this CPU, the others, the topology. */
struct xcore_view {
	uint32_t apic[MAX_CPUS];
	bool usable[MAX_CPUS];
	struct cpu_topo t;
	uint32_t me;
};

static void xcore_view_read(struct xcore_view *v)
{
	xcore_cpus(v->apic, v->usable);
	cpu_topo_read(&v->t, env.cpu);
	v->me = this_cpu()->apic_id;
}

int xcore_partner(const char **why)
{
	static char buf[200];
	struct xcore_view v;
	int sibling, remote, i;

	if (smp.kept) {
		*why = "boot services kept: the firmware's MP services run one blocking call at a "
		       "time, not two sides at once";
		return -1;
	}
	xcore_view_read(&v);
	if ((i = topo_other_core(&v.t, v.me, v.apic, v.usable, smp.ncpus, &sibling, &remote)) >= 0)
		return i;
	if (sibling >= 0 || remote >= 0) {
		char sib[64] = "", rem[64] = "";

		if (sibling >= 0)
			fmt_snprintf(sib, sizeof(sib), "APIC ID %u is this core's hyper-thread sibling%s",
				     smp.cpu[sibling].apic_id, remote >= 0 ? ", " : "");
		if (remote >= 0)
			fmt_snprintf(rem, sizeof(rem), "APIC ID %u is in another package",
				     smp.cpu[remote].apic_id);
		fmt_snprintf(buf, sizeof(buf), "no other core of this package runs: %s%s (CPUID.%02XH: "
			     "SMT shift %u, package shift %u; APIC ID here %u)", sib, rem, v.t.leaf,
			     v.t.smt_shift, v.t.pkg_shift, v.me);
		*why = buf;
		return -1;
	}
	if (smp.ncpus <= 1)
		*why = "needs a second CPU: the MADT lists one";
	else if (smp.why[0])
		*why = smp.why;
	else
		*why = "needs a second CPU: none of the chosen ones (cpus=) is running";
	return -1;
}


int xcore_sibling(const char **why)
{
	static char buf[160];
	struct xcore_view v;
	int sib;

	xcore_view_read(&v);
	if (!v.t.known) {
		*why = "no extended topology (CPUID 1FH/0BH): the sibling is unknown";
		return -1;
	}
	sib = topo_sibling(&v.t, v.me, v.apic, v.usable, smp.ncpus);
	if (sib < 0) {
		fmt_snprintf(buf, sizeof(buf), "no hyper-thread sibling of this CPU (APIC ID %u) runs "
			     "pmuboot (CPUID.%02XH: SMT shift %u)", v.me, v.t.leaf, v.t.smt_shift);
		*why = buf;
	}
	return sib;
}

static void run_side(void *p)
{
	struct xcore_side *s = p;

	if (s->count) {
		const struct hitm_event *e = xcore_hitm_event();
		struct pmu_evtsel sel = { .event = e->event, .umask = e->umask, .os = true,
					  .en = true };
		struct ctr_cfg cfg = { .idx = 0, .evtsel = pmu_evtsel_encode(&sel) };
		struct pmu_result res;

		s->err = pmu_run(&cfg, 1, s->k, s->n, s->arg, NULL, &res, s->errmsg,
				 sizeof(s->errmsg));
		s->hitm = res.delta[0];
	} else {
		measure_kernel(s->k, s->n, s->arg);
	}
}

struct xcore_arg xcore_args[2];
/* The shared data: a page of its own for the ping-pong line and the two counters, the
 * producer's lines after it. */
uint8_t xcore_page[4096] __attribute__((aligned(4096)));
uint8_t xcore_produce_buf[PRODUCE_N * 64] __attribute__((aligned(4096)));

/*
 * The partner runs its side in a slot of its own, never in the check's stack frame: a
 * check the watchdog stops leaves its partner running until the kernel's spin limit, and
 * what that side then writes (its count, its error) must land here, not in the stack the
 * next check runs on (seen: a later check's return address overwritten, a #GP at a
 * garbage RIP). One slot per CPU, so a late side cannot write into the next partner's.
 */
static struct xcore_side partner_side[MAX_CPUS];

enum check_status xcore_run_pair(struct check_ctx *c, int cpu, struct xcore_side *a,
				 struct xcore_side *b)
{
	int r;

	if (cpu < 0 || cpu >= MAX_CPUS)
		return check_result(c, CHECK_FAIL, "CPU %d", "a partner CPU 0..%d", cpu, MAX_CPUS - 1);
	partner_side[cpu] = *b;
	measure_concurrent = true;
	r = run_start((unsigned)cpu, run_side, &partner_side[cpu]);
	if (r) {
		measure_concurrent = false;
		return check_result(c, CHECK_FAIL, "CPU %d not started: %s", "a partner", cpu,
				    smp_error_name(r));
	}
	run_side(a);
	r = run_wait((unsigned)cpu, PARTNER_WAIT_US);
	measure_concurrent = false;
	if (r)
		return check_result(c, CHECK_FAIL, "CPU %d (APIC ID %u): %s", "its side done", cpu,
				    smp.cpu[cpu].apic_id, smp_error_name(r));
	*b = partner_side[cpu];
	if (a->err || b->err)
		return check_error(c, a->err ? a->errmsg : b->errmsg, "both sides counted");
	return CHECK_PASS;
}

void xcore_setup(struct xcore_side *a, struct xcore_side *b, const struct kernel_desc *ka,
		 const struct kernel_desc *kb, uint64_t n, volatile uint64_t *sa,
		 volatile uint64_t *sb)
{
	bool count = !xcore_no_hitm_count();

	memset(xcore_args, 0, sizeof(xcore_args));
	xcore_args[0] = (struct xcore_arg){ .shared = sa, .role = 0,
					    .spin_limit = XCORE_SPIN_LIMIT };
	xcore_args[1] = (struct xcore_arg){ .shared = sb, .role = 1,
					    .spin_limit = XCORE_SPIN_LIMIT };
	*a = (struct xcore_side){ .k = ka, .n = n, .arg = &xcore_args[0], .count = count };
	*b = (struct xcore_side){ .k = kb, .n = n, .arg = &xcore_args[1], .count = count };
}

int xcore_pingpong(unsigned cpu, uint64_t n, unsigned l, char *err, size_t errlen)
{
	volatile uint64_t *line = (volatile uint64_t *)(xcore_page + 64 * (l % XCORE_LINES));
	struct check_ctx ctx;
	struct xcore_side a, b;

	memset(&ctx, 0, sizeof(ctx));
	memset(xcore_page, 0, sizeof(xcore_page));
	xcore_setup(&a, &b, &kernel_pingpong_desc, &kernel_pingpong_desc, n, line, line);
	a.count = b.count = false;
	if (xcore_run_pair(&ctx, (int)cpu, &a, &b) != CHECK_PASS) {
		str_lcpy(err, ctx.detail, errlen);
		return -1;
	}
	if (*line != 2 * n) {
		fmt_snprintf(err, errlen, "the ping-pong line holds %llu, not %llu (waits %llu/%llu)",
			     (unsigned long long)*line, (unsigned long long)(2 * n),
			     (unsigned long long)xcore_args[0].spins, (unsigned long long)xcore_args[1].spins);
		return -1;
	}
	return 0;
}
