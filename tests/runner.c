/* SPDX-License-Identifier: MIT */
/* Check runner: selection, plan, watchdog-guarded execution, TAP lines, fatal-fault report. */
#include "tests/runner.h"
#include "arch/x86/percpu.h"
#include "arch/x86/trap.h"
#include "arch/x86/watchdog.h"
#include "boot/console.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "arch/x86/msr.h"
#include "pmu/counter.h"
#include "tests/checks.h"
#include "tests/tap.h"

#define DIAG_BUF_LEN	2048

static struct tap tap;
static struct check_ctx *current;
static char diag_buf[DIAG_BUF_LEN];
static size_t diag_len;

enum check_status check_report(struct check_ctx *c, enum check_status st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
	c->status = st;
	return st;
}

enum check_status check_expect_eq(struct check_ctx *c, uint64_t measured, uint64_t expected,
				  const char *note)
{
	enum check_status st = measured == expected ? CHECK_PASS : CHECK_FAIL;

	fmt_snprintf(c->detail, sizeof(c->detail), "measured=%llu expected=%llu%s%s",
		     (unsigned long long)measured, (unsigned long long)expected,
		     note && *note ? " " : "", note ? note : "");
	c->status = st;
	return st;
}

void check_diag(struct check_ctx *c, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	(void)c;
	va_start(ap, fmt);
	n = fmt_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
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

static bool group_named(const char *glob, const char *name)
{
	const char *dot = str_chr(name, '.');
	size_t glen = dot ? (size_t)(dot - name) : str_len(name);

	return !str_ncmp(glob, name, glen) && glob[glen] == '.';
}

/* Full name of instance i of ck: "group.name" or "group.name.instance". */
static void instance_full_name(const struct check *ck, unsigned i, char *buf, size_t len)
{
	str_lcpy(buf, ck->name, len);
	if (ck->instance_name) {
		char suffix[40];

		ck->instance_name(i, suffix, sizeof(suffix));
		str_lcat(buf, ".", len);
		str_lcat(buf, suffix, len);
	}
}

static unsigned instances_of(const struct check *ck)
{
	return ck->instances ? ck->instances() : 1;
}

bool runner_selected(const struct options *o, const struct check *ck, const char *full_name)
{
	bool manual = ck->flags & CHECK_MANUAL;

	if (o->ntests == 0)
		return !manual;
	for (unsigned i = 0; i < o->ntests; i++) {
		if (!glob_match(o->tests[i], full_name))
			continue;
		if (!manual || group_named(o->tests[i], ck->name))
			return true;
	}
	return false;
}

int runner_validate_globs(const struct options *o, char *err, size_t errlen)
{
	for (unsigned g = 0; g < o->ntests; g++) {
		bool hit = false;

		for (size_t k = 0; k < suite_count && !hit; k++) {
			const struct check *ck = &suite_checks[k];

			for (unsigned i = 0; i < instances_of(ck) && !hit; i++) {
				char name[80];

				instance_full_name(ck, i, name, sizeof(name));
				hit = glob_match(o->tests[g], name);
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
	for (size_t k = 0; k < suite_count; k++) {
		const struct check *ck = &suite_checks[k];

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
		return g;
	}
}

enum run_status runner_run(const struct options *o)
{
	unsigned planned = 0;
	char name[80];

	for (size_t k = 0; k < suite_count; k++)
		for (unsigned i = 0; i < instances_of(&suite_checks[k]); i++) {
			instance_full_name(&suite_checks[k], i, name, sizeof(name));
			planned += runner_selected(o, &suite_checks[k], name);
		}

	tap_init(&tap, tap_out, NULL);
	tap_version(&tap);
	tap_plan(&tap, planned);

	for (size_t k = 0; k < suite_count; k++) {
		const struct check *ck = &suite_checks[k];
		unsigned n = instances_of(ck);

		for (unsigned i = 0; i < n; i++) {
			struct check_ctx ctx;
			uint32_t limit_ms = ck->timeout_ms ? ck->timeout_ms : o->watchdog_ms;
			uint64_t elapsed_us = 0;
			enum guard_result g;

			memset(&ctx, 0, sizeof(ctx));
			instance_full_name(ck, i, ctx.name, sizeof(ctx.name));
			if (!runner_selected(o, ck, ctx.name))
				continue;
			ctx.check = ck;
			ctx.instance = i;
			ctx.status = CHECK_FAIL;
			str_lcpy(ctx.detail, "check returned no result", sizeof(ctx.detail));
			g = run_guarded(&ctx, limit_ms, &elapsed_us);
			if (g == GUARD_TIMEOUT) {
				fmt_snprintf(ctx.detail, sizeof(ctx.detail),
					     "timeout: the watchdog stopped the check after %llu ms (limit %u ms)",
					     (unsigned long long)(elapsed_us / 1000), limit_ms);
				ctx.status = CHECK_FAIL;
			}
			if (ctx.status == CHECK_SKIP)
				tap_skip(&tap, ctx.name, ctx.detail);
			else
				tap_result(&tap, ctx.status == CHECK_PASS, ctx.name, ctx.detail);
			flush_diags();
		}
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
	platform_exit(RUN_FATAL);
}
