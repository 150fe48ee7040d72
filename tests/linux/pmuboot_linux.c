/* SPDX-License-Identifier: MIT */
/*
 * pmuboot-linux: pmuboot's calibrated kernels (tests/kernels/, the same assembly) and its
 * expectations (tests/expect/arch.c, the kernels' exact models), counted from Linux user
 * space through perf_event_open with the encodings pmuboot writes to the event selects.
 * It needs no MSR access and no root beyond what kernel.perf_event_paranoid asks.
 *
 * Every count is user-only (exclude_kernel): the kernels run at CPL 3 and every relation
 * checked here is one that holds for them there. The window is opened and closed by the
 * PERF_EVENT_IOC_ENABLE/DISABLE ioctls; what the window adds besides the kernel is the
 * same at every size, so each check takes the difference of two sizes (the differential
 * method the firmware uses), each size's minimum over several runs: an interrupt adds
 * user-mode counts to the run it lands in (one instruction per interrupt on x86, Weaver,
 * Terpstra and Moore, "Non-Determinism and Overcount on Modern Hardware Performance
 * Counter Implementations", ISPASS 2013), never removes them.
 *
 * Without a PMU (no driver, a VM without a virtual PMU) every counter check SKIPs naming
 * why, and the kernels still run and time themselves (# time: lines).
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#include "pmu/event.h"
#include "tests/expect/arch.h"
#include "tests/kernels/kernels.h"
#include "tests/linux/perf_config.h"

#ifndef PMUBOOT_VERSION
#define PMUBOOT_VERSION	"?"
#endif
#ifndef PMUBOOT_GIT
#define PMUBOOT_GIT	"unknown"
#endif

#define TRIES		15		/* runs of each size; each size's minimum is kept */
#define BUF_SIZE	(64ULL << 20)	/* the test buffer: the firmware's default size */
/* The calibrated loop's N: a tenth of the firmware's, whose windows run with interrupts
 * off. Here a timer tick in a run adds a count to it, so runs are kept short enough that
 * most take none (on the emulated PMU under a loaded host, N = 100000 left no clean run in
 * 9 at 2N once: instructions 400001). */
#define PMU_N		10000ULL
#define CHASE_SEED	0x9e3779b97f4a7c15ULL

/* --- TAP -------------------------------------------------------------------------- */

static unsigned tap_n, n_pass, n_fail, n_skip;

static void tap(const char *status, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void tap(const char *status, const char *name, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	if (!strcmp(status, "ok"))
		n_pass++;
	else if (!strcmp(status, "skip"))
		n_skip++;
	else
		n_fail++;
	printf("%s %u %s # %s", !strcmp(status, "not ok") ? "not ok" : "ok", tap_n, name,
	       !strcmp(status, "skip") ? "SKIP " : "");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" linux\n");
	fflush(stdout);
}

/* --- The machine ---------------------------------------------------------------- */

struct machine {
	char vendor[13];
	unsigned family, model, stepping;
	bool intel, amd, hypervisor;
	char hv[13];
	unsigned arch_version, num_gp, gp_width, num_fixed, ebx_len;
	uint32_t ebx;			/* CPUID.0AH:EBX: 1 = event not available */
	uint32_t perf_type;		/* the core PMU's perf type (PERF_TYPE_RAW for "cpu") */
	char perf_pmu[32];		/* its name under /sys/bus/event_source/devices */
	int cpu;			/* the CPU this process is bound to */
	const char *no_pmu;		/* why nothing can be counted, or NULL */
};

static struct machine m;
static char no_pmu_why[512];

static void cpuid4(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	__cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static void machine_cpuid(void)
{
	uint32_t r[4];

	cpuid4(0, 0, r);
	memcpy(m.vendor, &r[1], 4);
	memcpy(m.vendor + 4, &r[3], 4);
	memcpy(m.vendor + 8, &r[2], 4);
	m.intel = !strcmp(m.vendor, "GenuineIntel");
	m.amd = !strcmp(m.vendor, "AuthenticAMD") || !strcmp(m.vendor, "HygonGenuine");
	unsigned max = r[0];

	cpuid4(1, 0, r);
	m.family = (r[0] >> 8) & 0xf;
	m.model = (r[0] >> 4) & 0xf;
	m.stepping = r[0] & 0xf;
	if (m.family == 0xf)
		m.family += (r[0] >> 20) & 0xff;
	if (m.family == 6 || m.family >= 0xf)
		m.model |= ((r[0] >> 16) & 0xf) << 4;
	m.hypervisor = r[2] & (1U << 31);
	if (m.hypervisor) {
		cpuid4(0x40000000, 0, r);
		memcpy(m.hv, &r[1], 4);
		memcpy(m.hv + 4, &r[2], 4);
		memcpy(m.hv + 8, &r[3], 4);
	}
	if (m.intel && max >= 0xa) {
		cpuid4(0xa, 0, r);
		m.arch_version = r[0] & 0xff;
		m.num_gp = (r[0] >> 8) & 0xff;
		m.gp_width = (r[0] >> 16) & 0xff;
		m.ebx_len = (r[0] >> 24) & 0xff;
		m.ebx = r[1];
		m.num_fixed = m.arch_version >= 2 ? (r[3] & 0x1f) : 0;
	}
}

static void header(void)
{
	struct utsname u;
	uint32_t r[12];
	char brand[49] = "", line[256];

	if (__get_cpuid_max(0x80000000, NULL) >= 0x80000004) {
		for (unsigned i = 0; i < 3; i++)
			cpuid4(0x80000002 + i, 0, r + 4 * i);
		memcpy(brand, r, 48);
	}
	uname(&u);
	char *b = brand;

	while (*b == ' ')
		b++;
	/* The firmware's first line and cpu line, so ./run.sh report reads the same facts. */
	printf("# pmuboot %s (git %s) linux: the calibrated kernels and expectations counted "
	       "through perf_event_open\n", PMUBOOT_VERSION, PMUBOOT_GIT);
	printf("# kernel: %s %s %s\n", u.sysname, u.release, u.machine);
	printf("# cpu: %s family 0x%x model 0x%x stepping %u \"%s\"\n", m.vendor, m.family,
	       m.model, m.stepping, b);
	printf("# hypervisor: %s\n", m.hypervisor ? m.hv : "none (CPUID.1:ECX[31]=0)");
	if (m.intel)
		printf("# cpuid.0ah: version %u, %u GP counters of %u bits, %u fixed, EBX %08X "
		       "(length %u)\n", m.arch_version, m.num_gp, m.gp_width, m.num_fixed, m.ebx,
		       m.ebx_len);
	if (read_line("/proc/sys/kernel/perf_event_paranoid", line, sizeof(line)) == 0)
		printf("# perf_event_paranoid: %s\n", line);
	printf("# cannot check from user space: overflow and the PMI, PEBS, LBR, BTS, freeze, "
	       "the GLOBAL_* MSRs and the uncore MSRs: the kernel's driver owns them; counts "
	       "are user-only\n");
}

/* The core PMU under /sys/bus/event_source/devices: "cpu", or on a hybrid part
 * "cpu_core" (P-cores; "cpu_atom" is said too). Binds the process to one of its CPUs. */
static void machine_perf(void)
{
	static const char *const names[] = { "cpu_core", "cpu", "cpu_atom" };
	char path[256], line[4096];

	m.perf_type = PERF_TYPE_RAW;
	m.cpu = sched_getcpu();
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", names[i]);
		if (read_line(path, line, sizeof(line)))
			continue;
		printf("# perf pmu: %s type %s", names[i], line);
		if (!m.perf_pmu[0]) {
			snprintf(m.perf_pmu, sizeof(m.perf_pmu), "%s", names[i]);
			m.perf_type = (uint32_t)strtoul(line, NULL, 0);
		}
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/cpus", names[i]);
		if (!read_line(path, line, sizeof(line)))
			printf(" cpus %s", line);
		static const char *const caps[] = { "pmu_name", "max_precise", "branches",
			"branch_counter_nr", "slots" };
		for (unsigned c = 0; c < sizeof(caps) / sizeof(caps[0]); c++) {
			snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/caps/%s",
				 names[i], caps[c]);
			if (!read_line(path, line, sizeof(line)))
				printf(" %s=%s", caps[c], line);
		}
		printf("\n");
	}
	if (!m.perf_pmu[0])
		printf("# perf pmu: none under /sys/bus/event_source/devices (no hardware PMU "
		       "driver: the kernel counts software events only)\n");
	/* Bind to a CPU of the core PMU (hybrid: a P-core) so one core type counts. */
	if (!strcmp(m.perf_pmu, "cpu_core")) {
		unsigned lo;

		if (!read_line("/sys/bus/event_source/devices/cpu_core/cpus", line, sizeof(line)) &&
		    sscanf(line, "%u", &lo) == 1)
			m.cpu = (int)lo;
	}
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(m.cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		printf("# warning: could not bind to cpu %d: %s\n", m.cpu, strerror(errno));
	printf("# bound to: cpu %d\n", m.cpu);
}

/* --- Counting ------------------------------------------------------------------- */

#define MAX_EVENTS	2

struct group {
	int fd[MAX_EVENTS];
	unsigned n;
};

static long perf_open(struct perf_event_attr *a, int group_fd)
{
	return syscall(SYS_perf_event_open, a, 0, -1, group_fd, 0);
}

/* Why opening failed, naming the errno and what it means here. */
static void open_error(int err, uint64_t config, char *why, size_t len)
{
	char par[32] = "?";

	read_line("/proc/sys/kernel/perf_event_paranoid", par, sizeof(par));
	switch (err) {
	case EACCES:
	case EPERM:
		snprintf(why, len, "perf_event_open(config=%#" PRIx64 ") = %s: "
			 "kernel.perf_event_paranoid=%s refuses it (user-only counting of one's "
			 "own process needs 2 or less: sysctl kernel.perf_event_paranoid=2)",
			 config, strerror(err), par);
		break;
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		snprintf(why, len, "perf_event_open(config=%#" PRIx64 ") = %s: the kernel has no "
			 "hardware PMU driver for this CPU (no PMU, or a VM without a virtual PMU)",
			 config, strerror(err));
		break;
	default:
		snprintf(why, len, "perf_event_open(config=%#" PRIx64 ") = %s", config,
			 strerror(err));
	}
}

/* The perf attribute of each event select; -1 with why for one perf cannot express. */
static int to_raw(const uint64_t *evtsel, unsigned n, struct perf_raw *raw, char *why, size_t len)
{
	for (unsigned i = 0; i < n; i++)
		if (perf_raw_from_evtsel(evtsel[i], m.amd, &raw[i], why, len))
			return -1;
	return 0;
}

/* Opens a pinned group of the events these event selects encode. 0, or -errno (-EINVAL
 * for an event select perf cannot express) with why. */
static int group_open(struct group *g, const uint64_t *evtsel, unsigned n, char *why, size_t len)
{
	struct perf_raw raw[MAX_EVENTS];

	g->n = 0;
	if (n > MAX_EVENTS || to_raw(evtsel, n, raw, why, len))
		return -EINVAL;
	for (unsigned i = 0; i < n; i++) {
		struct perf_event_attr a = {
			.type = m.perf_type, .size = sizeof(a), .config = raw[i].config,
			.disabled = i == 0, .pinned = i == 0,
			.exclude_kernel = raw[i].exclude_kernel, .exclude_user = raw[i].exclude_user,
			.exclude_hv = 1,
			.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
				       PERF_FORMAT_TOTAL_TIME_RUNNING,
		};
		long fd = perf_open(&a, i ? g->fd[0] : -1);

		if (fd < 0) {
			int e = errno;

			open_error(e, raw[i].config, why, len);
			for (unsigned j = 0; j < g->n; j++)
				close(g->fd[j]);
			return -e;
		}
		g->fd[g->n++] = (int)fd;
	}
	return 0;
}

static void group_close(struct group *g)
{
	for (unsigned j = 0; j < g->n; j++)
		close(g->fd[j]);
	g->n = 0;
}

/* Counts one run of k(n, arg): out[i] per event, *tsc across it. -1 with why when the
 * group did not count the whole run (a pinned group the kernel could not schedule). */
static int group_run(struct group *g, const struct kernel_desc *k, uint64_t n, void *arg,
		     uint64_t *out, uint64_t *tsc, char *why, size_t len)
{
	uint64_t buf[3 + MAX_EVENTS], t0, t1;

	ioctl(g->fd[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
	ioctl(g->fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	t0 = __rdtsc();
	k->fn(n, arg);
	t1 = __rdtsc();
	ioctl(g->fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	ssize_t r = read(g->fd[0], buf, sizeof(buf));

	if (r < (ssize_t)((3 + g->n) * sizeof(uint64_t)) || buf[0] != g->n) {
		snprintf(why, len, "read of the group returned %zd bytes: a pinned group the "
			 "kernel could not schedule (another user of the counters?)", r);
		return -1;
	}
	if (buf[1] != buf[2]) {
		snprintf(why, len, "the group ran %" PRIu64 " of %" PRIu64 " ns enabled: "
			 "multiplexed, a count of part of the run", buf[2], buf[1]);
		return -1;
	}
	for (unsigned i = 0; i < g->n; i++)
		out[i] = buf[3 + i];
	*tsc = t1 - t0;
	return 0;
}

/* What runs before each run of a kernel (rebuilds its argument, flushes its lines). */
typedef void *(*setup_fn)(uint64_t n, void *ctx);

struct diff {
	int64_t d[MAX_EVENTS];		/* min over runs at n2 - min over runs at n1 */
	unsigned above;			/* runs (of 2 * TRIES) whose first count exceeded its
					 * size's minimum: an interrupt, or a noisy event */
	uint64_t min1[MAX_EVENTS], min2[MAX_EVENTS];
	uint64_t tsc1, tsc2;		/* minimum TSC ticks across a run, each size */
};

static int differential(struct group *g, const struct kernel_desc *k, uint64_t n1, uint64_t n2,
			setup_fn setup, void *ctx, struct diff *d, char *why, size_t len)
{
	uint64_t c[MAX_EVENTS], t, first[2][TRIES];

	memset(d, 0xff, sizeof(*d));
	for (unsigned r = 0; r < TRIES; r++) {
		for (unsigned s = 0; s < 2; s++) {
			uint64_t n = s ? n2 : n1;
			void *arg = setup ? setup(n, ctx) : ctx;
			uint64_t *mn = s ? d->min2 : d->min1, *mt = s ? &d->tsc2 : &d->tsc1;

			if (group_run(g, k, n, arg, c, &t, why, len))
				return -1;
			first[s][r] = c[0];
			for (unsigned i = 0; i < g->n; i++)
				if (c[i] < mn[i])
					mn[i] = c[i];
			if (t < *mt)
				*mt = t;
		}
	}
	d->above = 0;
	for (unsigned r = 0; r < TRIES; r++)
		d->above += (first[0][r] > d->min1[0]) + (first[1][r] > d->min2[0]);
	for (unsigned i = 0; i < g->n; i++)
		d->d[i] = (int64_t)(d->min2[i] - d->min1[i]);
	return 0;
}

/* --- The test buffer and the kernels' arguments ------------------------------------ */

static uint8_t *buf;

struct kcase {
	const char *name;
	const struct kernel_desc *k;
	setup_fn setup;
	uint64_t ws, p0, p1;	/* working set (0: the buffer), kernel-specific parameters */
	uint64_t n1, n2;	/* sizes; for chases a multiple of the nodes when cycles */
	bool cycles;
};

static const struct kcase *cur;

static void *setup_chase(uint64_t n, void *ctx)
{
	(void)n;
	(void)ctx;
	return chase_build((uint64_t)(uintptr_t)buf, (cur->ws ? cur->ws : BUF_SIZE) / cur->p0,
			   cur->p0, CHASE_SEED);
}

static void *setup_pattern(uint64_t n, void *ctx)
{
	struct branch_pattern *p = (struct branch_pattern *)buf;

	(void)n;
	(void)ctx;
	p->bits = cur->p0;
	p->period = cur->p1;
	return p;
}

static void *setup_lfsr(uint64_t n, void *ctx)
{
	struct branch_lfsr *p = (struct branch_lfsr *)buf;

	(void)n;
	(void)ctx;
	p->state = cur->p0;
	p->taps = LFSR64_TAPS;
	return p;
}

static void *setup_lines(uint64_t n, void *ctx)
{
	(void)n;
	(void)ctx;
	return buf;
}

static void *setup_ind_misp(uint64_t n, void *ctx)
{
	struct ind_misp *p = (struct ind_misp *)buf;

	(void)n;
	(void)ctx;
	p->state = cur->p0;
	p->taps = LFSR64_TAPS;
	return p;
}

static void *setup_denormal(uint64_t n, void *ctx)
{
	(void)n;
	(void)ctx;
	*(uint64_t *)buf = 1;
	return buf;
}

#define KB(x)	((x) << 10)

/* The firmware's model.<case> cases that run at CPL 3 (all but the cross-core ones). */
static const struct kcase cases[] = {
	{ "loop4", &kernel_loop4_desc, NULL, 0, 0, 0, 1, 10000, false },
	{ "add_chain", &kernel_add_chain_desc, NULL, 0, 0, 0, 1, 1000, false },
	{ "imul_chain", &kernel_imul_chain_desc, NULL, 0, 0, 0, 1, 1000, false },
	{ "div_loop", &kernel_div_loop_desc, NULL, 0, 0, 0, 1, 1000, false },
	{ "chase_line_4k", &kernel_chase_desc, setup_chase, KB(4), 64, 0, 1, 2, true },
	{ "chase_line_256k", &kernel_chase_desc, setup_chase, KB(256), 64, 0, 1, 2, true },
	{ "chase_page_256k", &kernel_chase_desc, setup_chase, KB(256), 4096, 0, 1, 2, true },
	{ "branch_always", &kernel_branch_pattern_desc, setup_pattern, 0, 1, 1, 1, 1000, false },
	{ "branch_never", &kernel_branch_pattern_desc, setup_pattern, 0, 0, 1, 1, 1000, false },
	{ "branch_alternating", &kernel_branch_pattern_desc, setup_pattern, 0, 2, 2, 2, 1000, false },
	{ "branch_period17", &kernel_branch_pattern_desc, setup_pattern, 0, 0x1b3c5, 17, 17, 1000,
	  false },
	{ "branch_lfsr", &kernel_branch_lfsr_desc, setup_lfsr, 0, 0xace1ace1ace1ace1ULL, 0, 1, 10000,
	  false },
	{ "store_nt", &kernel_store_nt_desc, setup_lines, 0, 0, 0, 1, 4096, false },
	{ "store_ntdq", &kernel_store_ntdq_desc, setup_lines, 0, 0, 0, 1, 4096, false },
	{ "store_plain", &kernel_store_plain_desc, setup_lines, 0, 0, 0, 1, 4096, false },
	{ "bigcode", &kernel_bigcode_desc, NULL, 0, 0, 0, 1, 3, false },
	{ "smallcode", &kernel_smallcode_desc, NULL, 0, 0, 0, 1, 100, false },
	{ "iret_loop", &kernel_iret_loop_desc, NULL, 0, 0, 0, 1, 1000, false },
	{ "cpuid_loop", &kernel_cpuid_loop_desc, NULL, 0, 0, 0, 1, 1000, false },
	{ "regs_loop", &kernel_regs_loop_desc, NULL, 0, 0, 0, 1, 1000, false },
	{ "branch_mix", &kernel_branch_mix_desc, setup_lines, 0, 0, 0, 1, 1000, false },
	{ "ind_misp", &kernel_ind_misp_desc, setup_ind_misp, 0, 0xace1ace1ace1ace1ULL, 0, 1, 1000,
	  false },
	{ "x87_loop", &kernel_x87_loop_desc, NULL, 0, 0, 0, 1, 1000, false },
	{ "mmx_loop", &kernel_mmx_loop_desc, NULL, 0, 0, 0, 1, 1000, false },
	{ "sse_ps_loop", &kernel_sse_ps_loop_desc, NULL, 0, 0, 0, 1, 1000, false },
	{ "sse_pd_loop", &kernel_sse_pd_loop_desc, NULL, 0, 0, 0, 1, 1000, false },
	{ "sse_ss_loop", &kernel_sse_ss_loop_desc, NULL, 0, 0, 0, 1, 1000, false },
	{ "sse_sd_loop", &kernel_sse_sd_loop_desc, NULL, 0, 0, 0, 1, 1000, false },
	{ "sse_int_loop", &kernel_sse_int_loop_desc, NULL, 0, 0, 0, 1, 1000, false },
	{ "lcp_loop", &kernel_lcp_loop_desc, NULL, 0, 0, 0, 1, 1000, false },
	{ "load_stream", &kernel_load_stream_desc, setup_lines, 0, 0, 0, 1, 4096, false },
	{ "lock_loop", &kernel_lock_loop_desc, setup_lines, 0, 0, 0, 1, 4096, false },
	{ "x87_denormal", &kernel_x87_denormal_desc, setup_denormal, 0, 0, 0, 1, 1000, false },
	{ "fldcw_loop", &kernel_fldcw_loop_desc, setup_lines, 0, 0, 0, 1, 1000, false },
	{ "ldmxcsr_loop", &kernel_ldmxcsr_loop_desc, setup_lines, 0, 0, 0, 1, 1000, false },
};

static uint64_t case_n(const struct kcase *kc, uint64_t n)
{
	return kc->cycles ? n * ((kc->ws ? kc->ws : BUF_SIZE) / kc->p0) : n;
}

/* Branches a prediction holds: every kind the branches-retired events count. */
static uint64_t pred_branches(const struct exec_counts *e)
{
	return e->cond_taken + e->cond_not_taken + e->jumps + e->calls + e->rets + e->far;
}

static void predict(const struct kcase *kc, uint64_t n, struct exec_counts *e)
{
	void *arg = kc->setup ? kc->setup(n, NULL) : NULL;

	memset(e, 0, sizeof(*e));
	kc->k->predict(n, arg, 0, e);
}

#define EVTSEL_USR	(1ULL << 16)

/* Instructions and branches retired at CPL 3, as this vendor's event selects encode them. */
static void insn_branch_config(uint64_t sel[2], const char **names)
{
	if (m.amd) {	/* AMD PPR: PMCx0C0 Retired Instructions, PMCx0C2 Retired Branch Instructions */
		sel[0] = 0xc0 | EVTSEL_USR;
		sel[1] = 0xc2 | EVTSEL_USR;
		*names = "C0H, C2H (AMD)";
	} else {	/* Intel SDM Table 18-1: Instruction Retired C0H/00H, Branch C4H/00H */
		sel[0] = 0xc0 | EVTSEL_USR;
		sel[1] = 0xc4 | EVTSEL_USR;
		*names = "C0H/00H, C4H/00H";
	}
}

static void check_model(const struct kcase *kc)
{
	char name[64], why[512];
	struct group g;
	struct diff d;
	struct exec_counts e1, e2;
	uint64_t cfg[2], n1 = case_n(kc, kc->n1), n2 = case_n(kc, kc->n2);
	const char *evnames;

	cur = kc;
	snprintf(name, sizeof(name), "model.%s", kc->name);
	if (m.no_pmu) {
		/* No counter: the kernel still runs and times itself. */
		uint64_t best = UINT64_MAX;

		for (unsigned r = 0; r < TRIES; r++) {
			void *arg = kc->setup ? kc->setup(n2, NULL) : NULL;
			uint64_t t0 = __rdtsc();

			kc->k->fn(n2, arg);
			t0 = __rdtsc() - t0;
			if (t0 < best)
				best = t0;
		}
		printf("# time: %s n=%" PRIu64 " tsc=%" PRIu64 " tsc_per_iter=%.2f\n", name, n2, best,
		       (double)best / (double)n2);
		tap("skip", name, "%s", m.no_pmu);
		return;
	}
	insn_branch_config(cfg, &evnames);
	if (group_open(&g, cfg, 2, why, sizeof(why))) {
		tap("not ok", name, "measured=error expected=counts %s", why);
		return;
	}
	int r = differential(&g, kc->k, n1, n2, kc->setup, NULL, &d, why, sizeof(why));

	group_close(&g);
	if (r) {
		tap("not ok", name, "measured=error expected=counts %s", why);
		return;
	}
	predict(kc, n1, &e1);
	predict(kc, n2, &e2);
	int64_t wi = (int64_t)(e2.insns - e1.insns);
	int64_t wb = (int64_t)(pred_branches(&e2) - pred_branches(&e1));
	bool ok = d.d[0] == wi && d.d[1] == wb;

	tap(ok ? "ok" : "not ok", name, "measured=%" PRId64 " instructions, %" PRId64 " branches "
	    "expected=%" PRId64 ", %" PRId64 " (user-only %s, min over %u runs of n=%" PRIu64
	    " and n=%" PRIu64 "; tsc %" PRIu64 " and %" PRIu64 ") above_min=%u/%u", d.d[0], d.d[1],
	    wi, wb, evnames, TRIES, n1, n2, d.tsc1, d.tsc2, d.above, 2 * TRIES);
}

/* --- Architectural events (Intel) ------------------------------------------------- */

static struct branch_lfsr lfsr_arg;
static uint64_t cold_nodes;

static void *setup_cold_chase(uint64_t n, void *ctx)
{
	(void)ctx;
	void *first = chase_build((uint64_t)(uintptr_t)buf, cold_nodes, 64, CHASE_SEED);

	chase_flush(first, n);
	return first;
}

static void *setup_lfsr_driver(uint64_t n, void *ctx)
{
	(void)n;
	(void)ctx;
	lfsr_arg = (struct branch_lfsr){ 0xace1ace1ace1ace1ULL, LFSR64_TAPS };
	return &lfsr_arg;
}

/* The event select pmuboot writes for ev, counting at CPL 3 only. */
static uint64_t arch_config(enum arch_event ev)
{
	struct pmu_evtsel s = pmu_arch_evtsel(ev, true, false);

	return pmu_evtsel_encode(&s);
}

static void check_arch(enum arch_event ev)
{
	char name[64], why[512];
	struct group g;
	struct diff d, dd;
	uint64_t cfg = arch_config(ev);

	snprintf(name, sizeof(name), "pmu.arch.%s", arch_events[ev].name);
	if (!m.intel) {
		tap("skip", name, "%s has no architectural events (CPUID leaf 0AH is Intel's)",
		    m.vendor);
		return;
	}
	if (m.no_pmu) {
		tap("skip", name, "%s", m.no_pmu);
		return;
	}
	if ((unsigned)ev >= m.ebx_len || (m.ebx & (1U << ev))) {
		tap("skip", name, "CPUID.0AH:EBX[%d]=1 or beyond EBX length %u: %s not available",
		    ev, m.ebx_len, arch_events[ev].name);
		return;
	}
	if (group_open(&g, &cfg, 1, why, sizeof(why))) {
		tap("not ok", name, "measured=error expected=counts %s", why);
		return;
	}
	if (differential(&g, &kernel_loop4_desc, PMU_N, 2 * PMU_N, NULL, NULL, &d, why, sizeof(why))) {
		group_close(&g);
		tap("not ok", name, "measured=error expected=counts %s", why);
		return;
	}
	int64_t tsc = (int64_t)(d.tsc2 - d.tsc1);
	struct expect_range e = expect_arch_loop(ev, PMU_N, tsc, false);

	if (!expect_in(&e, d.d[0])) {
		group_close(&g);
		tap("not ok", name, "measured=%" PRId64 " expected=%" PRId64 "..%" PRId64 " (%s) "
		    "N=%llu evtsel=%#" PRIx64 " tsc=%" PRId64 " above_min=%u/%u", d.d[0], e.lo, e.hi,
		    e.why, PMU_N, cfg, tsc, d.above, 2 * TRIES);
		return;
	}
	/* An event the loop leaves quiet must also count where a kernel drives it. */
	enum expect_driver drv = expect_arch_driver(ev);
	char drove[160] = "";

	if (drv != DRIVE_NONE) {
		const struct kernel_desc *k = drv == DRIVE_LFSR ? &kernel_branch_lfsr_desc :
				&kernel_chase_desc;
		setup_fn s = drv == DRIVE_LFSR ? setup_lfsr_driver : setup_cold_chase;
		uint64_t n = 20000;

		cold_nodes = BUF_SIZE / 64 < (256ULL << 10) ? BUF_SIZE / 64 : (256ULL << 10);
		if (differential(&g, k, n, 2 * n, s, NULL, &dd, why, sizeof(why))) {
			group_close(&g);
			tap("not ok", name, "measured=error expected=counts %s", why);
			return;
		}
		struct expect_range ed = expect_arch_driven(ev, n);

		if (!expect_in(&ed, dd.d[0])) {
			group_close(&g);
			tap("not ok", name, "measured=loop %" PRId64 ", %s %" PRId64 " expected=%"
			    PRId64 "..%" PRId64 " (%s) n=%" PRIu64 " evtsel=%#" PRIx64, d.d[0],
			    drv == DRIVE_LFSR ? "lfsr" : "cold chase", dd.d[0], ed.lo, ed.hi, ed.why,
			    n, cfg);
			return;
		}
		snprintf(drove, sizeof(drove), ", %s %" PRId64 " in %" PRId64 "..%" PRId64,
			 drv == DRIVE_LFSR ? "lfsr" : "cold chase", dd.d[0], ed.lo, ed.hi);
	}
	group_close(&g);
	tap("ok", name, "measured=%" PRId64 "%s expected=%" PRId64 "..%" PRId64 " (%s) N=%llu "
	    "evtsel=%#" PRIx64 " user-only above_min=%u/%u", d.d[0], drove, e.lo, e.hi, e.why,
	    PMU_N, cfg, d.above, 2 * TRIES);
}

/* --- Kernels as benchmarks (no PMU needed) ---------------------------------------------- */

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* The chase's latency per load at each working set, and the store kernels' bandwidth:
 * ordinary timings (best of 5 runs), printed as the firmware's bench.* checks print them
 * ("# data: chase_latency ...", "# data: store_bandwidth ..."), so ./run.sh report draws
 * them; issue 23's bench-host compares them with multichase and likwid-bench. */
/* The fastest of 5 runs of k(n, arg) after one to warm: ns and TSC ticks of that run. */
static void time_best(const struct kernel_desc *k, uint64_t n, void *arg, double *ns,
		      uint64_t *tsc)
{
	*ns = 1e300;
	*tsc = UINT64_MAX;
	k->fn(n, arg);
	for (unsigned r = 0; r < 5; r++) {
		double t0 = now_ns();
		uint64_t c0 = __rdtsc();

		k->fn(n, arg);
		c0 = __rdtsc() - c0;
		double t = now_ns() - t0;

		if (t < *ns) {
			*ns = t;
			*tsc = c0;
		}
	}
}

static void bench(void)
{
	static const uint64_t ws[] = { KB(16), KB(256), KB(1024), KB(8192), KB(65536) };
	static const struct kernel_desc *const st[] = {
		&kernel_store_plain_desc, &kernel_store_nt_desc, &kernel_store_ntdq_desc,
	};
	uint64_t tsc;
	double ns;

	for (unsigned i = 0; i < sizeof(ws) / sizeof(ws[0]) && ws[i] <= BUF_SIZE; i++) {
		uint64_t nodes = ws[i] / 64, steps = nodes * 4 < 2000000 ? 2000000 : nodes * 4;

		time_best(&kernel_chase_desc, steps,
			  chase_build((uint64_t)(uintptr_t)buf, nodes, 64, CHASE_SEED), &ns, &tsc);
		printf("# data: chase_latency ws_bytes=%" PRIu64 " loads=%" PRIu64 " tsc=%" PRIu64
		       " tsc_per_load=%.2f ns_per_load=%.2f\n", ws[i], steps, tsc,
		       (double)tsc / (double)steps, ns / (double)steps);
	}
	for (unsigned i = 0; i < sizeof(st) / sizeof(st[0]); i++) {
		time_best(st[i], BUF_SIZE / 64, buf, &ns, &tsc);
		printf("# data: store_bandwidth kernel=%s bytes=%llu tsc=%" PRIu64 " bytes_per_tsc=%.2f "
		       "mb_per_s=%.0f\n", st[i]->name, BUF_SIZE, tsc, (double)BUF_SIZE / (double)tsc,
		       (double)BUF_SIZE / ns * 1e3);
	}
}

/* --- main ----------------------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f, "usage: pmuboot-linux [--no-bench] [--bench-only]\n"
		"  Runs pmuboot's calibrated kernels, counts them through perf_event_open\n"
		"  (user-only) against their exact models and the architectural expectations,\n"
		"  and times them; TAP on stdout, ends with 'N passed, N failed'.\n");
}

int main(int argc, char **argv)
{
	bool do_bench = true, only_bench = false;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--no-bench")) {
			do_bench = false;
		} else if (!strcmp(argv[i], "--bench-only")) {
			only_bench = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "pmuboot-linux: unknown argument '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	machine_cpuid();
	header();
	machine_perf();
	buf = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
		   -1, 0);
	if (buf == MAP_FAILED) {
		fprintf(stderr, "pmuboot-linux: cannot map the %llu-byte test buffer: %s\n", BUF_SIZE,
			strerror(errno));
		return 1;
	}
	if (!only_bench) {
		/* Can anything be counted? One user-only instruction counter says. */
		uint64_t cfg = 0xc0 | EVTSEL_USR;
		struct group g;

		if (group_open(&g, &cfg, 1, no_pmu_why, sizeof(no_pmu_why))) {
			m.no_pmu = no_pmu_why;
			if (m.intel && !m.arch_version) {
				size_t l = strlen(no_pmu_why);

				snprintf(no_pmu_why + l, sizeof(no_pmu_why) - l, "; CPUID.0AH:EAX[7:0]=0: "
					 "the CPU reports no architectural PMU%s", m.hypervisor ?
					 " (its hypervisor exposes none)" : "");
			}
		} else
			group_close(&g);
		printf("# counting: %s\n", m.no_pmu ? m.no_pmu : "user-only raw events on the core PMU");
		printf("TAP version 13\n");
		for (unsigned ev = 0; ev < NR_ARCH_EVENTS; ev++)
			check_arch((enum arch_event)ev);
		for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
			check_model(&cases[i]);
	}
	if (do_bench)
		bench();
	if (!only_bench) {
		printf("1..%u\n", tap_n);
		printf("%u passed, %u failed, %u skipped\n", n_pass, n_fail, n_skip);
	}
	return n_fail ? 1 : 0;
}
