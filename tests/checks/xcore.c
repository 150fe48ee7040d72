/* SPDX-License-Identifier: MIT */
/*
 * Cross-core kernels (tests/kernels/xcore.S) on the bootstrap processor and a second CPU at
 * once: a cache-line ping-pong, a producer and a consumer, and false sharing. Each side runs
 * in its own measurement frame (an oracle region on its own vCPU, whose model the oracle
 * checks), and where the model has an event for it each side counts the loads that took a
 * line modified in another core's cache:
 *   Nehalem/Westmere: MEM_UNCORE_RETIRED.OTHER_CORE_L2_HITM, 0FH/02H (seed
 *     000_666bff9af8f20138.txt, MEM_UNCORE_RETIRED table);
 *   Skylake and later big cores: MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM, D2H/04H (SDM Vol. 3B
 *     Skylake events; Linux's skl_hw_cache_extra_regs / mem_load_l3_hit_retired).
 */
#include "arch/x86/smp.h"
#include "tests/harness/check.h"
#include "tests/harness/env.h"
#include "lib/string.h"
#include "pmu/event.h"
#include "tests/measure/region.h"
#include "tests/measure/pmu_run.h"
#include "tests/checks/xcore.h"
#include "lib/fmt.h"

#define PINGPONG_N	4096	/* hand-offs per side */
#define PRODUCE_N	1024	/* lines: 64 KiB, within every L2 */
#define FALSE_N		200000	/* increments per side */
/* A wait gives up after this many turns (about a second on hardware, where PAUSE takes up
 * to ~140 cycles; less under QEMU): the frame runs with interrupts off. */
#define SPIN_LIMIT	(1ULL << 26)
#define PARTNER_WAIT_US	(20ULL * 1000 * 1000)

struct hitm_event {
	uint8_t event, umask;
	const char *name;
};

static const struct hitm_event *hitm_event(void)
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

/* Why the transfers are not counted here (NULL: they are). */
static const char *no_hitm_count(void)
{
	const char *why = pmu_unavailable_reason(false);

	if (why)
		return why;
	if (pmu.version < 2)
		return "PMU version 1: no IA32_PERF_GLOBAL_CTRL for the measurement frame";
	if (!hitm_event())
		return "pmuboot knows no cross-core HITM load event for this microarchitecture";
	return NULL;
}

/* The other CPU: the first chosen AP that runs pmuboot. */
int xcore_partner(const char **why)
{
	if (smp.kept) {
		*why = "boot services kept: the firmware's MP services run one blocking call at a "
		       "time, not two sides at once";
		return -1;
	}
	for (unsigned i = 1; i < smp.ncpus; i++)
		if (smp.cpu[i].state == SMP_IDLE && (env.cpus & (1ULL << i)))
			return (int)i;
	if (smp.ncpus <= 1)
		*why = "needs a second CPU: the MADT lists one";
	else if (smp.why[0])
		*why = smp.why;
	else
		*why = "needs a second CPU: none of the chosen ones (cpus=) is running";
	return -1;
}

/* One side: its kernel in a measurement frame, counting HITM loads where it can. */
struct side {
	const struct kernel_desc *k;
	uint64_t n;
	struct xcore_arg *arg;
	bool count;
	uint64_t hitm;
	int err;
	char errmsg[PMU_ERR_LEN];
};

static void run_side(void *p)
{
	struct side *s = p;

	if (s->count) {
		const struct hitm_event *e = hitm_event();
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

static struct xcore_arg args[2];
/* The shared data: a page of its own for the ping-pong line and the two counters, the
 * producer's lines after it. */
static uint8_t shared_page[4096] __attribute__((aligned(4096)));
static uint8_t produce_buf[PRODUCE_N * 64] __attribute__((aligned(4096)));

/* Runs side a here and side b on the partner, at once. 0, or a failed check. */
static enum check_status run_pair(struct check_ctx *c, int cpu, struct side *a, struct side *b)
{
	int r;

	measure_concurrent = true;
	r = run_start((unsigned)cpu, run_side, b);
	if (r) {
		measure_concurrent = false;
		return check_fail(c, "measured=CPU %d not started: %s expected=a partner", cpu,
				  smp_error_name(r));
	}
	run_side(a);
	r = run_wait((unsigned)cpu, PARTNER_WAIT_US);
	measure_concurrent = false;
	if (r)
		return check_fail(c, "measured=CPU %d (APIC ID %u): %s expected=its side done", cpu,
				  smp.cpu[cpu].apic_id, smp_error_name(r));
	if (a->err || b->err)
		return check_fail(c, "measured=%s expected=both sides counted",
				  a->err ? a->errmsg : b->errmsg);
	return CHECK_PASS;
}

static void setup(struct side *a, struct side *b, const struct kernel_desc *ka,
		  const struct kernel_desc *kb, uint64_t n, volatile uint64_t *sa,
		  volatile uint64_t *sb)
{
	bool count = !no_hitm_count();

	memset(args, 0, sizeof(args));
	args[0] = (struct xcore_arg){ .shared = sa, .role = 0, .spin_limit = SPIN_LIMIT };
	args[1] = (struct xcore_arg){ .shared = sb, .role = 1, .spin_limit = SPIN_LIMIT };
	*a = (struct side){ .k = ka, .n = n, .arg = &args[0], .count = count };
	*b = (struct side){ .k = kb, .n = n, .arg = &args[1], .count = count };
}

/* --- xcore.pingpong ------------------------------------------------------------------- */

static enum check_status check_xcore_pingpong(struct check_ctx *c)
{
	const char *why = NULL;
	int cpu = xcore_partner(&why);
	volatile uint64_t *line = (volatile uint64_t *)shared_page;
	struct side a, b;
	uint64_t transfers = 2 * PINGPONG_N - 1, total, lo, hi;
	enum check_status st;

	if (cpu < 0)
		return check_skip(c, "%s", why);
	memset(shared_page, 0, sizeof(shared_page));
	setup(&a, &b, &kernel_pingpong_desc, &kernel_pingpong_desc, PINGPONG_N, line, line);
	st = run_pair(c, cpu, &a, &b);
	if (st != CHECK_PASS)
		return st;
	if (args[0].spins >= SPIN_LIMIT || args[1].spins >= SPIN_LIMIT || *line != 2 * PINGPONG_N)
		return check_fail(c, "measured=line holds %llu, waits %llu/%llu turns expected=%u after "
				  "%u hand-offs each way, both waits below %llu",
				  (unsigned long long)*line, (unsigned long long)args[0].spins,
				  (unsigned long long)args[1].spins, 2 * PINGPONG_N, PINGPONG_N,
				  (unsigned long long)SPIN_LIMIT);
	if (!a.count)
		return check_pass(c, "measured=line holds %u after %u hand-offs each way with CPU %d "
				  "(APIC ID %u) expected=same; %llu transfers not counted: %s",
				  2 * PINGPONG_N, PINGPONG_N, cpu, smp.cpu[cpu].apic_id,
				  (unsigned long long)transfers, no_hitm_count());
	/* Every read that ends a wait takes the line the other side has just modified: one
	 * such load per hand-off, 2n - 1 for the pair (the first wait reads the line as this
	 * CPU zeroed it). 10% either way for what a real core's spin loads and prefetches add
	 * or take (measured: the emulated PMU counts it exactly). */
	total = a.hitm + b.hitm;
	lo = transfers - transfers / 10;
	hi = transfers + transfers / 10;
	if (total < lo || total > hi)
		return check_fail(c, "measured=%llu (%llu here + %llu on APIC ID %u) %s expected=%llu.."
				  "%llu: %llu hand-offs", (unsigned long long)total,
				  (unsigned long long)a.hitm, (unsigned long long)b.hitm,
				  smp.cpu[cpu].apic_id, hitm_event()->name, (unsigned long long)lo,
				  (unsigned long long)hi, (unsigned long long)transfers);
	return check_pass(c, "measured=%llu (%llu + %llu) %s expected=%llu..%llu: %llu hand-offs "
			  "with APIC ID %u", (unsigned long long)total, (unsigned long long)a.hitm,
			  (unsigned long long)b.hitm, hitm_event()->name, (unsigned long long)lo,
			  (unsigned long long)hi, (unsigned long long)transfers,
			  smp.cpu[cpu].apic_id);
}
CHECK_DEFINE(290, "xcore.pingpong", check_xcore_pingpong,
	     "a line handed between two CPUs 2x4096 times: each hand-off one load of a line modified in the other core",
	     .flags = CHECK_PACKAGE);

/* --- xcore.producer_consumer -------------------------------------------------------- */

static enum check_status check_xcore_producer_consumer(struct check_ctx *c)
{
	const char *why = NULL;
	int cpu = xcore_partner(&why);
	volatile uint64_t *buf = (volatile uint64_t *)produce_buf;
	struct side a, b;
	uint64_t want = (uint64_t)PRODUCE_N * (PRODUCE_N + 1) / 2, hi;
	enum check_status st;

	if (cpu < 0)
		return check_skip(c, "%s", why);
	memset(produce_buf, 0, sizeof(produce_buf));
	/* This CPU consumes, the partner produces. */
	setup(&a, &b, &kernel_consume_desc, &kernel_produce_desc, PRODUCE_N, buf, buf);
	st = run_pair(c, cpu, &a, &b);
	if (st != CHECK_PASS)
		return st;
	if (args[0].spins >= SPIN_LIMIT || args[0].sum != want)
		return check_fail(c, "measured=sum %llu, waits %llu turns expected=%llu (1..%u), waits "
				  "below %llu", (unsigned long long)args[0].sum,
				  (unsigned long long)args[0].spins, (unsigned long long)want,
				  PRODUCE_N, (unsigned long long)SPIN_LIMIT);
	if (!a.count)
		return check_pass(c, "measured=sum %llu expected=%llu; %u transfers not counted: %s",
				  (unsigned long long)want, (unsigned long long)want, PRODUCE_N,
				  no_hitm_count());
	/* Each line is written once, on the producer's core, and read by the consumer: at most
	 * one load per line takes it modified from there (none if a prefetcher got the line
	 * first, which is why the lower bound is only 1), plus 10%. */
	hi = PRODUCE_N + PRODUCE_N / 10;
	if (a.hitm < 1 || a.hitm > hi)
		return check_fail(c, "measured=%llu %s on the consumer expected=1..%llu: %u lines "
				  "produced on APIC ID %u", (unsigned long long)a.hitm,
				  hitm_event()->name, (unsigned long long)hi, PRODUCE_N,
				  smp.cpu[cpu].apic_id);
	return check_pass(c, "measured=%llu %s on the consumer, sum %llu expected=1..%llu: %u lines "
			  "produced on APIC ID %u", (unsigned long long)a.hitm, hitm_event()->name,
			  (unsigned long long)want, (unsigned long long)hi, PRODUCE_N,
			  smp.cpu[cpu].apic_id);
}
CHECK_DEFINE(300, "xcore.producer_consumer", check_xcore_producer_consumer,
	     "1024 lines written on one CPU and read on another: at most one modified-line transfer each",
	     .flags = CHECK_PACKAGE);

/* --- xcore.false_sharing ------------------------------------------------------------- */

/* Both sides increment their own counter; `apart` puts the counters in different lines. */
static enum check_status false_share(struct check_ctx *c, int cpu, bool apart, uint64_t *hitm)
{
	volatile uint64_t *a0 = (volatile uint64_t *)(shared_page + 64);
	volatile uint64_t *b0 = (volatile uint64_t *)(shared_page + (apart ? 128 : 72));
	struct side a, b;
	enum check_status st;

	memset(shared_page, 0, sizeof(shared_page));
	setup(&a, &b, &kernel_false_share_desc, &kernel_false_share_desc, FALSE_N, a0, b0);
	st = run_pair(c, cpu, &a, &b);
	if (st != CHECK_PASS)
		return st;
	if (*a0 != FALSE_N || *b0 != FALSE_N)
		return check_fail(c, "measured=counters %llu and %llu expected=%u each",
				  (unsigned long long)*a0, (unsigned long long)*b0, FALSE_N);
	*hitm = a.hitm + b.hitm;
	return CHECK_PASS;
}

static enum check_status check_xcore_false_sharing(struct check_ctx *c)
{
	const char *why = NULL;
	int cpu = xcore_partner(&why);
	uint64_t same = 0, apart = 0;
	enum check_status st;

	if (cpu < 0)
		return check_skip(c, "%s", why);
	st = false_share(c, cpu, false, &same);
	if (st == CHECK_PASS)
		st = false_share(c, cpu, true, &apart);
	if (st != CHECK_PASS)
		return st;
	if (no_hitm_count())
		return check_pass(c, "measured=both counters at %u, in one line and apart "
				  "expected=same; transfers not counted: %s", FALSE_N, no_hitm_count());
	/* Apart, no line is shared: nothing may move (16 for stray kernel-frame traffic). In
	 * one line the two loops overlap for most of their run (the partner starts within
	 * microseconds of this CPU): the line must move at least once; how often depends on
	 * how the cores interleave, which nothing here fixes. */
	if (apart > 16 || same < 1)
		return check_fail(c, "measured=%llu in one line, %llu apart (%s) expected=>= 1 in one "
				  "line, <= 16 apart", (unsigned long long)same,
				  (unsigned long long)apart, hitm_event()->name);
	return check_pass(c, "measured=%llu in one line, %llu apart (%s) expected=>= 1 in one line, "
			  "<= 16 apart", (unsigned long long)same, (unsigned long long)apart,
			  hitm_event()->name);
}
CHECK_DEFINE(310, "xcore.false_sharing", check_xcore_false_sharing,
	     "two CPUs' counters in one line move it between them; in separate lines nothing moves",
	     .flags = CHECK_PACKAGE);

/* --- for other groups' checks ------------------------------------------------------------ */

int xcore_pingpong(unsigned cpu, uint64_t n, char *err, size_t errlen)
{
	volatile uint64_t *line = (volatile uint64_t *)shared_page;
	struct check_ctx ctx;
	struct side a, b;

	memset(&ctx, 0, sizeof(ctx));
	memset(shared_page, 0, sizeof(shared_page));
	setup(&a, &b, &kernel_pingpong_desc, &kernel_pingpong_desc, n, line, line);
	a.count = b.count = false;
	if (run_pair(&ctx, (int)cpu, &a, &b) != CHECK_PASS) {
		str_lcpy(err, ctx.detail, errlen);
		return -1;
	}
	if (*line != 2 * n) {
		fmt_snprintf(err, errlen, "the ping-pong line holds %llu, not %llu (waits %llu/%llu)",
			     (unsigned long long)*line, (unsigned long long)(2 * n),
			     (unsigned long long)args[0].spins, (unsigned long long)args[1].spins);
		return -1;
	}
	return 0;
}
