/* SPDX-License-Identifier: MIT */
/* Check runner: selection, plan, watchdog-guarded execution, TAP lines, fatal-fault report. */
#include "tests/harness/runner.h"
#include "arch/x86/apic.h"
#include "arch/x86/percpu.h"
#include "arch/x86/smp.h"
#include "arch/x86/trap.h"
#include "arch/x86/watchdog.h"
#include "arch/x86/console.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "arch/x86/msr.h"
#include "pmu/counter.h"
#include "pmu/pmi.h"
#include "tests/harness/cleanup.h"
#include "tests/expect/seed.h"
#include "tests/harness/tap.h"
#include "tests/kernels/kernels.h"	/* FRAME_TSC_OVERHEAD */

#define DIAG_BUF_LEN	8192	/* bench.*: up to ~40 '# data:' lines */

static struct tap tap;
static runner_exit_fn exit_run;
struct check_env env;
static struct check_ctx *current;
static unsigned progress_k, progress_n;	/* "# progress: k/n name" before each check */
static char diag_buf[DIAG_BUF_LEN];
static size_t diag_len;

static void diag_add(const char *fmt, va_list ap)
{
	char line[256];
	int n = fmt_vsnprintf(line, sizeof(line), fmt, ap);

	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	if (diag_len + (size_t)n + 2 < sizeof(diag_buf)) {
		memcpy(diag_buf + diag_len, line, (size_t)n);
		diag_len += (size_t)n;
		diag_buf[diag_len++] = '\n';
		diag_buf[diag_len] = '\0';
	}
}

void check_diag(struct check_ctx *c, const char *fmt, ...)
{
	va_list ap;

	(void)c;
	va_start(ap, fmt);
	diag_add(fmt, ap);
	va_end(ap);
}

void check_diag_now(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_add(fmt, ap);
	va_end(ap);
}

static void flush_diags(void)
{
	if (diag_len) {
		if (diag_buf[diag_len - 1] == '\n')
			diag_buf[diag_len - 1] = '\0';
		tap_diag(&tap, diag_buf);
	}
	diag_len = 0;
	diag_buf[0] = '\0';
}

/* Whether check `name` is in group `group` ("pmu" for "pmu.fixed"). */
static bool group_named_prefix(const char *group, const char *name)
{
	size_t n = str_len(group);

	return !str_ncmp(group, name, n) && name[n] == '.';
}

/* Full name of instance i of ck: "group.name" or "group.name.instance". */
static void instance_full_name(const struct check *ck, unsigned i, char *buf, size_t len)
{
	str_lcpy(buf, ck->name, len);
	if (ck->instance_name) {
		char suffix[72];	/* measure.<set>.<EVENT>, events.nhm.<EVENT> */

		ck->instance_name(i, suffix, sizeof(suffix));
		str_lcat(buf, ".", len);
		str_lcat(buf, suffix, len);
	}
}

static unsigned instances_of(const struct check *ck)
{
	return ck->instances ? ck->instances() : 1;
}

/* A CHECK_GATED check's gate: true (and ctx filled, named as the check) when it SKIPs. */
static bool gated_skip(const struct check *ck, struct check_ctx *ctx)
{
	if (!(ck->flags & CHECK_GATED))
		return false;
	memset(ctx, 0, sizeof(*ctx));
	ctx->check = ck;
	ctx->instance = CHECK_GATE;
	str_lcpy(ctx->name, ck->name, sizeof(ctx->name));
	ctx->status = CHECK_FAIL;
	return ck->run(ctx) == CHECK_SKIP;
}

bool runner_selected(const struct options *o, const struct check *ck, const char *full_name)
{
	bool manual = ck->flags & CHECK_MANUAL;

	switch (options_select(o, full_name)) {
	case OPT_SEL_DEFAULT:	/* measure= without tests=: the user's events only */
		return !manual && (!o->nmeasure || group_named_prefix("measure", full_name));
	case OPT_SEL_GROUP:
		return true;
	case OPT_SEL_MATCH:
		return !manual;
	default:
		return false;
	}
}

int runner_validate_globs(const struct options *o, char *err, size_t errlen)
{
	for (unsigned g = 0; g < o->ntests; g++) {
		bool hit = false;

		for (const struct check *ck = __start_checks; ck < __stop_checks && !hit; ck++) {
			for (unsigned i = 0; i < instances_of(ck) && !hit; i++) {
				char name[80];

				instance_full_name(ck, i, name, sizeof(name));
				hit = glob_match(o->tests[g] + (o->tests[g][0] == '!'), name);
			}
		}
		if (!hit) {
			fmt_snprintf(err, errlen, "tests=%s: matches no check (option `list` shows them)",
				     o->tests[g]);
			return -1;
		}
	}
	return 0;
}

void runner_list(void)
{
	con_printf("# checks (manual ones run only when tests= names their group; a [limit] "
		   "replaces watchdog= for its check):\n");
	for (const struct check *ck = __start_checks; ck < __stop_checks; ck++) {
		for (unsigned i = 0; i < instances_of(ck); i++) {
			char name[80];

			char limit[32] = "";

			instance_full_name(ck, i, name, sizeof(name));
			if (ck->timeout_ms)
				fmt_snprintf(limit, sizeof(limit), "[limit %u ms] ", ck->timeout_ms);
			con_printf("%-32s %s%s%s\n", name, ck->flags & CHECK_MANUAL ? "[manual] " : "",
				   limit, ck->desc);
		}
	}
}

static void tap_out(void *ctx, const char *line)
{
	(void)ctx;
	con_write(line);
}

static void run_one(void *arg)
{
	struct check_ctx *c = arg;

	c->status = c->check->run(c);
}

/* MSR_SMI_COUNT where the model has it, else 0 (SMIs then go unseen). */
static uint64_t smis_now(void)
{
	uint64_t v = 0;

	return pmu_smi_count(&pmu, &v) == 0 ? v : 0;
}

/* Runs one check under the watchdog, then the cleanup every check gets. A check that
 * fails while MSR_SMI_COUNT moved is run again (at most SMI_RETRIES more times): an SMI
 * perturbs a single measurement (with FREEZE_WHILE_SMM the SDM has RSM set GLOBAL_CTRL's
 * enables to 1), and the differential runs already discard such repetitions. */
#define SMI_RETRIES	2
static enum guard_result run_guarded(struct check_ctx *ctx, uint32_t limit_ms,
				     uint64_t *elapsed_us)
{
	enum guard_result g;

	for (unsigned attempt = 0;; attempt++) {
		uint64_t smi0 = smis_now(), smis;

		current = ctx;
		diag_len = 0;
		g = guard_call(run_one, ctx, (uint64_t)limit_ms * 1000, elapsed_us);
		current = NULL;
		check_cleanup(ctx);
		smis = (smis_now() - smi0) & MSR_SMI_COUNT_MASK;
		if (g == GUARD_DONE && ctx->status == CHECK_FAIL && smis && attempt < SMI_RETRIES) {
			con_printf("# %s failed while %llu SMI(s) arrived (MSR_SMI_COUNT): %s; running "
				   "it again\n", ctx->name, (unsigned long long)smis, ctx->detail);
			ctx->status = CHECK_FAIL;
			str_lcpy(ctx->detail, "check returned no result", sizeof(ctx->detail));
			continue;
		}
		if (attempt)
			check_diag(ctx, "run %u times: SMIs arrived during the earlier runs", attempt + 1);
		if (smis && g == GUARD_DONE && ctx->status != CHECK_FAIL)
			check_diag(ctx, "%llu SMI(s) arrived while it ran (MSR_SMI_COUNT)",
				   (unsigned long long)smis);
		return g;
	}
}

bool runner_per_cpu(const struct check *ck)
{
	return ck->flags & CHECK_PER_CPU;
}

static bool package_wide(const struct check *ck)
{
	return ck->flags & CHECK_PACKAGE;
}

/* The CPUs the per-CPU checks run on: the chosen ones that run pmuboot, BSP first. */
static unsigned run_cpus[MAX_CPUS], nrun;
static bool tagged;		/* several, or not the BSP: names carry "@apicN" */

static void choose_cpus(const struct options *o)
{
	nrun = 0;
	for (unsigned i = 0; i < smp.ncpus || (i == 0 && !smp.ncpus); i++) {
		bool running = i == 0 || smp.cpu[i].state == SMP_IDLE;

		if (running && (o->cpus & (1ULL << i)))
			run_cpus[nrun++] = i;
	}
	tagged = nrun > 1 || (nrun == 1 && run_cpus[0] != 0);
}

static uint32_t apic_id_of(unsigned cpu)
{
	return smp.ncpus ? smp.cpu[cpu].apic_id : percpu_table[0].apic_id;
}

static void instance_name_on(const struct check *ck, unsigned i, unsigned cpu, char *buf,
			     size_t len)
{
	instance_full_name(ck, i, buf, len);
	if (tagged && runner_per_cpu(ck)) {
		char tag[24];

		fmt_snprintf(tag, sizeof(tag), "@apic%u", apic_id_of(cpu));
		str_lcat(buf, tag, len);
	}
}

/* Instances of ck selected on cpu (pmu_select()ed by the caller). */
static unsigned planned_on(const struct options *o, const struct check *ck)
{
	unsigned n = 0;
	char name[80];
	struct check_ctx gate;

	for (unsigned i = 0; i < instances_of(ck); i++) {
		instance_full_name(ck, i, name, sizeof(name));
		n += runner_selected(o, ck, name);
	}
	return n && gated_skip(ck, &gate) ? 1 : n;
}

/* What a CPU being given up (a call that did not end, arch/x86/smp.c) still had armed, for
 * its result, before its counters, PEBS, BTS and LBR are stopped: INIT would keep them. */
static char given_up[MAX_CPUS][140];

struct ap_job {
	struct check_ctx *ctx;
	uint32_t limit_ms;
	uint64_t elapsed_us;
	enum guard_result g;
};

static void ap_run_check(void *arg)
{
	struct ap_job *j = arg;

	/* Through the firmware's MP services an AP may be re-initialised between calls (a
	 * wake-up by INIT-SIPI-SIPI puts GLOBAL_CTRL back to its reset value, every counter
	 * enabled): each call starts from a stopped PMU, as checks on the BSP do. */
	if (smp.kept)
		pmu_reset(&pmu);

	j->g = run_guarded(j->ctx, j->limit_ms, &j->elapsed_us);
}

static void ap_cleanup(void *arg)
{
	check_cleanup(arg);
}

static void report(struct check_ctx *ctx)
{
	if (ctx->status == CHECK_SKIP)
		tap_skip(&tap, ctx->name, ctx->detail);
	else
		tap_result(&tap, ctx->status == CHECK_PASS, ctx->name, ctx->detail);
	flush_diags();
}

/* A gated check whose gate SKIPs: one SKIP for all its selected instances (if any).
 * Returns whether it was reported so. */
static bool report_gated(const struct options *o, const struct check *ck)
{
	struct check_ctx ctx;

	if (!planned_on(o, ck) || !gated_skip(ck, &ctx))
		return false;
	report(&ctx);
	return true;
}

/* Runs instance i of ck on cpu (0: here) and prints its result. Returns false when the
 * CPU was lost (it ran past every limit and was stopped). */
static bool run_instance(const struct options *o, const struct check *ck, unsigned i,
			 unsigned cpu, const char *lost_at)
{
	struct check_ctx ctx;
	struct ap_job job;
	uint32_t limit_ms = ck->timeout_ms ? ck->timeout_ms : o->watchdog_ms;
	int r;

	memset(&ctx, 0, sizeof(ctx));
	instance_full_name(ck, i, ctx.name, sizeof(ctx.name));
	if (!runner_selected(o, ck, ctx.name))
		return true;
	instance_name_on(ck, i, cpu, ctx.name, sizeof(ctx.name));
	con_printf("# progress: %u/%u %s\n", ++progress_k, progress_n, ctx.name);
	ctx.check = ck;
	ctx.instance = i;
	ctx.status = CHECK_FAIL;
	str_lcpy(ctx.detail, "check returned no result", sizeof(ctx.detail));
	if (lost_at) {
		check_skip(&ctx, "CPU %u (APIC ID %u) was lost at %s (%s)", cpu, apic_id_of(cpu),
			   lost_at, smp.cpu[cpu].why);
		report(&ctx);
		return false;
	}
	job = (struct ap_job){ .ctx = &ctx, .limit_ms = limit_ms };
	/* On an AP its own watchdog ends a stuck check; the wait here is the backstop for a
	 * CPU that stops taking interrupts: every SMI retry's limit and 5 s more. */
	r = run_on(cpu, ap_run_check, &job,
		   ((uint64_t)limit_ms * (SMI_RETRIES + 1) + 5000) * 1000);
	if (r == SMP_EFAULT) {
		const struct smp_cpu *sc = &smp.cpu[cpu];

		fmt_snprintf(ctx.detail, sizeof(ctx.detail), "fatal: unexpected exception %s "
			     "(vector %u, error code 0x%llx) at RIP 0x%llx on CPU %u (APIC ID %u); "
			     "the CPU goes on", trap_name(sc->fault_vector), sc->fault_vector,
			     (unsigned long long)sc->fault_error, (unsigned long long)sc->fault_rip,
			     cpu, sc->apic_id);
		ctx.status = CHECK_FAIL;
		current = NULL;
		run_on(cpu, ap_cleanup, &ctx, 1000000);
	} else if (r == SMP_ETIMEOUT || r == SMP_ENOCPU) {
		fmt_snprintf(ctx.detail, sizeof(ctx.detail), "timeout: CPU %u (APIC ID %u): %s%s%s%s%s",
			     cpu, apic_id_of(cpu), smp_error_name(r),
			     r == SMP_ETIMEOUT ? "; " : "", r == SMP_ETIMEOUT ? smp.cpu[cpu].why : "",
			     r == SMP_ETIMEOUT && given_up[cpu][0] ? "; " : "",
			     r == SMP_ETIMEOUT ? given_up[cpu] : "");
		ctx.status = CHECK_FAIL;
		current = NULL;
		report(&ctx);
		return false;
	} else if (job.g == GUARD_TIMEOUT) {
		fmt_snprintf(ctx.detail, sizeof(ctx.detail),
			     "timeout: the watchdog stopped the check after %llu ms (limit %u ms)",
			     (unsigned long long)(job.elapsed_us / 1000), limit_ms);
		ctx.status = CHECK_FAIL;
	}
	report(&ctx);
	return true;
}

/* The reference oracle's first line (option oracle): the measurement frame's fixed TSC
 * overhead and whether the TSC counts retired instructions. */
static void oracle_announce(void)
{
	if (env.oracle)
		con_printf("# oracle: frame overhead=%u icount=%d\n", FRAME_TSC_OVERHEAD,
			   env.icount);
}

static void quiesce_given_up(void)
{
	unsigned cpu = smp_this_cpu();
	struct pmu_state s;
	uint64_t en = 0;
	int r = pmu_save(&pmu, &s);	/* what it could read, whatever faulted */

	for (unsigned i = 0; i < pmu.num_gp; i++)
		if (s.evtsel[i] & ARCH_PERFMON_EVENTSEL_ENABLE)
			en |= 1ULL << i;
	if (cpu < MAX_CPUS)
		fmt_snprintf(given_up[cpu], sizeof(given_up[cpu]), "its PMU as found%s: GLOBAL_CTRL "
			     "0x%llx, selects enabled 0x%llx, FIXED_CTR_CTRL 0x%llx, PEBS_ENABLE 0x%llx, "
			     "DEBUGCTL 0x%llx", r ? " (a read faulted)" : "",
			     (unsigned long long)s.global_ctrl, (unsigned long long)en,
			     (unsigned long long)s.fixed_ctrl, (unsigned long long)s.ds.pebs_enable,
			     (unsigned long long)s.debugctl);
	pmu_reset(&pmu);
	if (apic.present)
		pmu_pmi_lvt_mask();
}

void runner_init(runner_exit_fn exit_fn)
{
	exit_run = exit_fn;
	smp_set_quiesce(quiesce_given_up);
}

enum run_status runner_run(const struct options *o, const struct check_env *e)
{
	unsigned planned = 0;
	bool bsp_runs;

	env = *e;
	oracle_announce();	/* the reference oracle's first line, before the TAP stream */
	choose_cpus(o);
	bsp_runs = nrun && run_cpus[0] == 0;
	for (const struct check *ck = __start_checks; ck < __stop_checks; ck++) {
		if (!runner_per_cpu(ck)) {
			planned += planned_on(o, ck);
			continue;
		}
		for (unsigned c = 0; c < nrun; c++) {
			pmu_select(run_cpus[c]);
			planned += planned_on(o, ck);
		}
		pmu_select(0);
	}

	tap_init(&tap, tap_out, NULL);
	tap_version(&tap);
	tap_plan(&tap, planned);
	progress_k = 0;
	progress_n = planned;

	/* The bootstrap processor: every check in suite order (the per-CPU ones only if it
	 * was chosen) but the package-wide ones, which run last. */
	for (const struct check *ck = __start_checks; ck < __stop_checks; ck++) {
		if ((runner_per_cpu(ck) && !bsp_runs) || package_wide(ck))
			continue;
		if (report_gated(o, ck))
			continue;
		for (unsigned i = 0; i < instances_of(ck); i++)
			run_instance(o, ck, i, 0, NULL);
	}
	/* Then each other chosen CPU: the per-CPU checks, on its own PMU. */
	for (unsigned c = bsp_runs ? 1 : 0; c < nrun; c++) {
		unsigned cpu = run_cpus[c];
		char lost_at[80] = "";

		pmu_select(cpu);
		for (const struct check *ck = __start_checks; ck < __stop_checks; ck++) {
			if (!runner_per_cpu(ck))
				continue;
			for (unsigned i = 0; i < instances_of(ck); i++) {
				if (!run_instance(o, ck, i, cpu, lost_at[0] ? lost_at : NULL) &&
				    !lost_at[0])
					instance_full_name(ck, i, lost_at, sizeof(lost_at));
			}
		}
		if (!lost_at[0])
			run_on(cpu, pmu_cpu_restore, &pmu_cpus[cpu], 1000000);
		pmu_select(0);
	}
	/* Last, on the bootstrap processor: the checks of the whole package (uncore) and of
	 * two CPUs at once, after every CPU's own, which they would otherwise disturb (lines
	 * left modified in another core; an uncore left counting; under the emulated PMU, a
	 * cache model running on every CPU once the free-running IMC counters were read). */
	for (const struct check *ck = __start_checks; ck < __stop_checks; ck++) {
		if (!package_wide(ck))
			continue;
		for (unsigned i = 0; i < instances_of(ck); i++)
			run_instance(o, ck, i, 0, NULL);
	}
	return tap_summary(&tap) ? RUN_FAIL : RUN_PASS;
}

static void diag_line(const char *line)
{
	con_printf("# %s\n", line);
}

void runner_fatal(const struct trap_frame *f)
{
	char why[160];

	if (smp_this_cpu() != 0) {
		/* On an AP: say what happened there; its call ends as failed and the run goes on
		 * (run_instance reports the check). */
		con_printf("# CPU %u (APIC ID %u): unexpected exception %s (vector %lu) at RIP "
			   "0x%lx\n", smp_this_cpu(), this_cpu()->apic_id,
			   trap_name((unsigned)f->vector), (unsigned long)f->vector,
			   (unsigned long)f->rip);
		trap_dump(f, diag_line);
		smp_ap_fatal(f->vector, f->rip, f->error_code);
	}

	if (!tap.out)		/* a fault before the first check: start the TAP stream here */
		tap_init(&tap, tap_out, NULL);
	fmt_snprintf(why, sizeof(why), "fatal: unexpected exception %s (vector %lu) at RIP 0x%lx",
		     trap_name((unsigned)f->vector), (unsigned long)f->vector, (unsigned long)f->rip);
	if (current) {
		tap_result(&tap, 0, current->name, why);
		current = NULL;
	} else {
		con_printf("# %s\n", why);
	}
	trap_dump(f, diag_line);
	tap_bail(&tap, "unexpected exception; the run cannot continue");
	tap_summary(&tap);
	if (exit_run)
		exit_run(RUN_FATAL);
	for (;;)	/* no exit given: nothing else is safe */
		__asm__ volatile("cli; hlt");
}
