/* SPDX-License-Identifier: MIT */
/*
 * PEBS checks: precise sampling over a loop whose registers say which instruction retired
 * last (the record's IP, eventing IP and general registers must agree with one state of the
 * loop); the interrupt threshold, the buffer-overflow status bit and the absolute maximum;
 * the counter reloaded from the DS reset value; load latency on the pointer chase; adaptive
 * PEBS records for every MSR_PEBS_DATA_CFG; PEBS on a fixed counter.
 *
 * Sources: SDM Vol. 3B 17.4.9 (DS save area), 18.6.2.4 and 18.8.1 (PEBS; trap-like assist:
 * the state after the instruction), 18.10.5.1 (eventing IP), 18.9.2 (adaptive PEBS), 18.8.1.2
 * and seed 000_666bff9af8f20138.txt "Latency Event" (MSR 3F6H, data source Table 5).
 */
#include "arch/x86/apic.h"
#include "tests/harness/check.h"
#include "tests/harness/env.h"
#include "arch/x86/io.h"
#include "arch/x86/msr.h"
#include "arch/x86/trap.h"
#include "arch/x86/tsc.h"
#include "arch/x86/paging.h"
#include "arch/x86/user.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "pmu/counter.h"
#include "pmu/ds.h"
#include "pmu/event.h"
#include "pmu/frame.h"
#include "pmu/lbr.h"
#include "pmu/pebs.h"
#include "pmu/pmi.h"
#include "tests/measure/region.h"
#include "tests/measure/pmi.h"
#include "tests/measure/pmu_run.h"

static struct ds_area pebs_ds __attribute__((aligned(64)));
#define PEBS_BUF_BYTES	(128u << 10)
static uint8_t pebs_buf[PEBS_BUF_BYTES] __attribute__((aligned(4096)));
#define PEBS_CANARY	0x5a
/* Records past the absolute maximum kept at the canary by every run: more than any
 * overshoot a part that ignores the maximum could write before the run ends (pebs.buffer_full
 * looks at all of them). */
#define PEBS_GUARD	4

static uint64_t addr(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static const char *no_pebs(void)
{
	if (pebs_unavailable(&pmu, env.force_pmu))
		return pebs_unavailable(&pmu, env.force_pmu);
	if (pmu.version < 2 && !env.force_pmu)
		return "PMU version 1: no IA32_PERF_GLOBAL_CTRL for the measurement frame";
	return NULL;
}

/* PEBS-capable GP counters (pebs_gp_mask(): PMC0 only on Core 2 and the Atom cores up to
 * Tremont, PMC0-3 before adaptive PEBS, all but PMC0 on Golden Cove); at least one instance
 * so the check can SKIP or FAIL without them. */
static unsigned pebs_gp_counters(void)
{
	uint64_t m = pebs_gp_mask(&pmu);
	unsigned n = 0;

	for (; m; m &= m - 1)	/* no libgcc in the firmware: no popcount builtin */
		n++;
	return n ? n : 1;
}

/* The i-th PEBS-capable GP counter. */
static unsigned pebs_gp_counter(unsigned i)
{
	uint64_t m = pebs_gp_mask(&pmu);

	for (unsigned b = 0; b < 64; b++)
		if ((m >> b) & 1 && i-- == 0)
			return b;
	return 0;
}

/* Events between records for the instruction checks: 997 (prime: records land on every
 * instruction of the loop), or 4003 with format 0, whose buffer must stay within a page
 * (Linux ds.c: larger ones hang Core 2 at the GLOBAL_CTRL WRMSR). */
static uint64_t precise_period(void)
{
	return pmu.pebs_format == 0 ? 4003 : 997;
}

/* Decoder flags for this CPU's reuse of record fields. */
static unsigned pebs_read_flags(void)
{
	return (pmu.dsc.pebs_timing ? PEBS_READ_TIMING : 0) |
	       (pebs_golden_cove(&pmu) ? PEBS_READ_SPLIT_LATENCY : 0);
}

/* Instructions retired as a PEBS event: INST_RETIRED.ANY_P, C0H/01H on Nehalem and Westmere
 * (seed 000 Table 1), C0H/00H elsewhere. */
static struct pmu_evtsel pebs_insn_evtsel(void)
{
	struct pmu_evtsel e = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);

	if (pmu.uarch == UARCH_NEHALEM || pmu.uarch == UARCH_WESTMERE)
		e.umask = 0x01;
	return e;
}

struct pebs_setup {
	bool fixed;
	unsigned idx;
	struct pmu_evtsel e;		/* GP counters */
	uint64_t period;		/* events between records */
	uint64_t enable_extra;		/* PEBS_ENABLE bits besides the counter's (load latency) */
	bool adaptive;			/* the counter's adaptive-record bit */
	uint64_t data_cfg;		/* MSR_PEBS_DATA_CFG, with adaptive PEBS */
	unsigned threshold, max;	/* records: interrupt threshold (0: at the maximum) */
	uint64_t ld_lat;		/* MSR_PEBS_LD_LAT_THRESHOLD, 0: not written */
	uint64_t frontend;		/* MSR_PEBS_FRONTEND, 0: not written */
	uint64_t aux_evtsel;		/* Golden Cove load latency: 8203H counted beside it on
					 * GP0 (Linux PMU_FL_MEM_LOADS_AUX); 0: none */
	void (*before)(uint64_t n, void *arg);
	bool unframed;			/* an NMI handler runs inside: no oracle region */
};

/* Whether s asks for adaptive records and the PEBS has them. */
static bool pebs_adaptive(const struct pebs_setup *s)
{
	return s->adaptive && pmu.dsc.pebs_baseline;
}

/* The size of one record as this PEBS writes it for s. */
static unsigned pebs_rec_size(const struct pebs_setup *s)
{
	if (pmu.pebs_format >= 4)
		return pebs_adaptive_size(pebs_adaptive(s) ? s->data_cfg : 0);
	return pebs_record_size(pmu.pebs_format);
}

/* Records the buffer holds: s->max, or what fits a page with format 0 (see precise_period). */
static unsigned pebs_max(const struct pebs_setup *s)
{
	unsigned page = 4096 / pebs_rec_size(s);

	return pmu.pebs_format == 0 && s->max > page ? page : s->max;
}

static uint64_t pebs_bytes(const struct pebs_setup *s)
{
	return (uint64_t)pebs_max(s) * pebs_rec_size(s);
}

/* Arms PEBS for s, runs k(n, arg) in the PMU frame, disarms. */
static int pebs_go_once(const struct pebs_setup *s, const struct kernel_desc *k, uint64_t n,
			void *arg, struct pmu_result *res, char *err, size_t errlen)
{
	unsigned rec = pebs_rec_size(s), width = s->fixed ? pmu.fixed_width : pmu.gp_width;
	uint64_t mask = width >= 64 ? ~0ULL : (1ULL << width) - 1;
	uint64_t start = (0 - s->period) & mask;
	uint64_t bit = s->fixed ? 1ULL << (PEBS_ENABLE_FIXED_SHIFT + s->idx) : 1ULL << s->idx;
	struct pmu_run_opts o = { .reps = 1, .before = s->before, .unframed = s->unframed };
	struct pmu_evtsel e = s->e;
	struct ctr_cfg cfg[2];
	unsigned ncfg = 1;
	int slot, r;

	if (pebs_bytes(s) + rec > PEBS_BUF_BYTES) {
		fmt_snprintf(err, errlen, "%u records of %u bytes do not fit the %u-byte buffer",
			     pebs_max(s), rec, PEBS_BUF_BYTES);
		return PMU_EARG;
	}
	memset(pebs_buf, PEBS_CANARY, pebs_bytes(s) + PEBS_GUARD * rec <= PEBS_BUF_BYTES ?
	       pebs_bytes(s) + PEBS_GUARD * rec : PEBS_BUF_BYTES);
	memset(&pebs_ds, 0, sizeof(pebs_ds));
	if (ds_setup_pebs(&pebs_ds, addr(pebs_buf), pebs_bytes(s), rec, s->threshold, err, errlen))
		return PMU_EARG;
	slot = ds_reset_slot(&pmu, s->fixed, s->idx);
	if (slot < 0) {
		fmt_snprintf(err, errlen, "PEBS record format %u has no reset value for %s counter %u",
			     pmu.pebs_format, s->fixed ? "fixed" : "GP", s->idx);
		return PMU_EARG;
	}
	pebs_ds.pebs_counter_reset[slot] = start;
	if ((r = ds_area_write(addr(&pebs_ds))) ||
	    (pmu.dsc.pebs_baseline && (r = pebs_data_cfg_write(s->data_cfg))) ||
	    (s->ld_lat && (r = pebs_ld_lat_write(s->ld_lat))) ||
	    (s->frontend && (r = pebs_frontend_write(s->frontend)))) {
		fmt_snprintf(err, errlen, "writing the DS area or a PEBS MSR faulted (vector %d)", r);
		return r;
	}
	e.adaptive = pebs_adaptive(s) && !s->fixed;
	cfg[0] = (struct ctr_cfg){ .fixed = s->fixed, .idx = s->idx, .evtsel = pmu_evtsel_encode(&e),
				   .fixed_ctrl = FIXED_CTR_CTRL_OS, .start = start };
	if (s->aux_evtsel)
		cfg[ncfg++] = (struct ctr_cfg){ .idx = 0, .evtsel = s->aux_evtsel };
	if (s->fixed && pebs_adaptive(s) && (r = pmu_fixed_set_adaptive(&pmu, s->idx, true))) {
		fmt_snprintf(err, errlen, "the fixed counter's adaptive bit could not be set (%d)", r);
		return r;
	}
	if ((r = pebs_enable_write(bit | s->enable_extra))) {
		fmt_snprintf(err, errlen, "WRMSR IA32_PEBS_ENABLE 0x%llx faulted (vector %d)",
			     (unsigned long long)(bit | s->enable_extra), r);
		return r;
	}
	r = pmu_run(cfg, ncfg, k, n, arg, &o, res, err, errlen);
	pebs_enable_write(0);
	if (s->fixed && pebs_adaptive(s))
		pmu_fixed_set_adaptive(&pmu, s->idx, false);
	return r;
}

/*
 * One PEBS run that no SMI touched. PEBS is armed (PEBS_ENABLE, the selects' EN) before the
 * window with GLOBAL_CTRL 0; an SMI there with FREEZE_WHILE_SMM has RSM set every GLOBAL_CTRL
 * enable (SDM Vol. 3B 18.18.1), so records are written before the window (through a
 * before() hook's flush, say), and on Westmere a pending PEBS event is not stopped in SMM
 * at all (Xeon 5600 spec update BD41). A run during which MSR_SMI_COUNT moved is set up
 * and run again, at most PEBS_SMI_TRIES times, each discard said under the result; if
 * every one took an SMI, the last one's records are judged and that is said too.
 * smi_free_run() does that for one try once(args) (pebs_go, and pebs.frontend's counted runs).
 */
#define PEBS_SMI_TRIES	4

static int smi_free_run(int (*once)(const void *args, struct pmu_result *res, char *err,
				   size_t errlen),
			const void *args, const char *what, struct pmu_result *res, char *err,
			size_t errlen)
{
	unsigned t, discarded;
	int r;

	for (t = 1;; t++) {
		r = once(args, res, err, errlen);
		if (r || !res->smis || t == PEBS_SMI_TRIES)
			break;
	}
	discarded = !r && res->smis ? t : t - 1;
	if (discarded)
		check_diag_now("%s: %u of %u run(s) discarded, MSR_SMI_COUNT moved (smi_discarded=%u)%s",
			       what, discarded, t, discarded, discarded == t ? "; the last one judged "
			       "anyway" : "");
	return r;
}

struct pebs_go_args {
	const struct pebs_setup *s;
	const struct kernel_desc *k;
	uint64_t n;
	void *arg;
};

static int pebs_go_try(const void *p, struct pmu_result *res, char *err, size_t errlen)
{
	const struct pebs_go_args *a = p;

	return pebs_go_once(a->s, a->k, a->n, a->arg, res, err, errlen);
}

static int pebs_go(const struct pebs_setup *s, const struct kernel_desc *k, uint64_t n, void *arg,
		   struct pmu_result *res, char *err, size_t errlen)
{
	const struct pebs_go_args a = { s, k, n, arg };

	return smi_free_run(pebs_go_try, &a, "pebs", res, err, errlen);
}

static int pebs_reader(struct pebs_reader *r, const struct pebs_setup *s, char *err, size_t errlen)
{
	return pebs_reader_init(r, pmu.pebs_format, pebs_read_flags(), &pebs_ds, pebs_buf,
				addr(pebs_buf), pebs_bytes(s), err, errlen);
}

static unsigned pebs_records(const struct pebs_setup *s)
{
	return (unsigned)((pebs_ds.pebs_index - pebs_ds.pebs_buffer_base) / pebs_rec_size(s));
}

/* --- Where a record puts kernel_regs_loop ----------------------------------------------- */

struct loop_pos {
	uint64_t next[3], last[3];	/* candidates (more than one where the registers cannot tell) */
	uint64_t done[3];		/* ... and the kernel's instructions retired in that state */
	unsigned ncand;
};

static void loop_cand(struct loop_pos *p, uint64_t next, uint64_t last, uint64_t done)
{
	p->next[p->ncand] = next, p->last[p->ncand] = last, p->done[p->ncand] = done;
	p->ncand++;
}

/*
 * After k whole iterations and j more instructions (kernels.h): rax = k + (j >= 1), rdx =
 * k + (j >= 2), r8 = k + (j >= 3), rcx = n - k - (j >= 4). j = 0 and j = 4 leave the same
 * registers (the JNZ changes none): the record is then right before the JNZ or right after
 * it. The kernel has then retired its 4 set-up instructions and 5k + j more.
 *
 * After the last iteration (rcx = 0) the JNZ falls through to the RET, which changes none
 * of them either, and the frame's tail (pmu/frame.h) follows in frame slot `slot`, inside
 * the window: MOV ecx = the MSR (IA32_PERF_GLOBAL_CTRL), XOR eax, XOR edx. A record can
 * describe one of those: the overflow came within a shadow of the window's end (issue 20
 * A2's silicon shadow). The RET counts as the kernel's 5n + 5th instruction, the tail's
 * as 5n + 6.. in `done`. False when no state of the loop or the tail has these registers.
 */
static bool regs_loop_position(const struct pebs_regs *g, uint64_t n, unsigned slot,
			       bool wrmsr_counted, struct loop_pos *p)
{
	uint64_t a = g->ax, d = g->dx, e = g->r8, cx = g->cx, end = 4 + 5 * n;
	uint64_t top = addr(kernel_regs_loop_top), i1 = addr(kernel_regs_loop_i1);
	uint64_t i2 = addr(kernel_regs_loop_i2), i3 = addr(kernel_regs_loop_i3);
	uint64_t jnz = addr(kernel_regs_loop_jnz), ret = addr(kernel_regs_loop_ret);
	uint64_t t[PMU_FRAME_TAIL_INSNS];

	for (unsigned i = 0; i < PMU_FRAME_TAIL_INSNS; i++)
		t[i] = pmu_frame_tail_site(slot, i);
	p->ncand = 0;
	if (a == d + 1 && d == e && cx == n - d) {
		loop_cand(p, i1, top, 4 + 5 * d + 1);
	} else if (a == d && d == e + 1 && cx == n - e) {
		loop_cand(p, i2, i1, 4 + 5 * e + 2);
	} else if (a == d && d == e && a >= 1 && cx == n - a + 1) {
		loop_cand(p, i3, i2, 4 + 5 * (a - 1) + 3);
	} else if (a == d && d == e && a >= 1 && cx == n - a) {
		loop_cand(p, jnz, i3, 4 + 5 * (a - 1) + 4);
		if (cx) {
			loop_cand(p, top, jnz, 4 + 5 * a);
		} else {
			loop_cand(p, ret, jnz, end);
			loop_cand(p, t[0], ret, end + 1);
		}
	} else if (cx == MSR_CORE_PERF_GLOBAL_CTRL && e == n && d == n && a == n) {
		loop_cand(p, t[1], t[0], end + 2);
	} else if (cx == MSR_CORE_PERF_GLOBAL_CTRL && e == n && d == n && a == 0) {
		loop_cand(p, t[2], t[1], end + 3);
	} else if (cx == MSR_CORE_PERF_GLOBAL_CTRL && e == n && d == 0 && a == 0 && pmu.pebs_trap) {
		/* Trap-like only: the last XOR retired, the closing WRMSR next. Fault-like, this
		 * state would name that WRMSR as the eventing one before it ran. Or the WRMSR
		 * itself retired and was the event: a part that counts the instruction that
		 * stops counting (wrmsr_counted: pmu_frame_wrmsrs() found the frame's WRMSRs
		 * counted) can take an assist armed in the loop's last instructions there
		 * (seen with the emulated silicon profile's PEBS shadow on an Alder Lake
		 * E-core); its record names the instruction after it, and nothing after it is
		 * counted. Where the WRMSR does not count, an assist there came after counting
		 * stopped: a defect. */
		loop_cand(p, t[3], t[2], end + 4);
		if (wrmsr_counted)
			loop_cand(p, pmu_frame_end_site(slot), t[3], end + 5);
	} else {
		return false;
	}
	return true;
}

/* Whether addr is one of the loop body's instructions. */
static bool in_loop_body(uint64_t a)
{
	return a == addr(kernel_regs_loop_top) || a == addr(kernel_regs_loop_i1) ||
	       a == addr(kernel_regs_loop_i2) || a == addr(kernel_regs_loop_i3) ||
	       a == addr(kernel_regs_loop_jnz);
}

/* Where a record leaves kernel_regs_loop: inside it, after its last JNZ with the RET still
 * to retire, or after the RET (in the frame's tail). */
enum loop_where { LOOP_BODY, LOOP_END, LOOP_RETURNED };

/* Where a record whose eventing IP is a (not in the loop body) is: past the loop's end at
 * its RET or the frame's tail in the window (MOV, XOR, XOR: a trap-like assist names the
 * instruction that retired, a fault-like one the next; the closing WRMSR only trap-like,
 * where it counted), or LOOP_BODY for neither. */
static enum loop_where past_loop(uint64_t a, unsigned slot, bool wrmsr_counted)
{
	if (a == addr(kernel_regs_loop_ret))
		return pmu.pebs_trap ? LOOP_RETURNED : LOOP_END;
	for (unsigned i = 0; i < PMU_FRAME_TAIL_INSNS - 1; i++)
		if (a == pmu_frame_tail_site(slot, i))
			return LOOP_RETURNED;
	/* Trap-like, the closing WRMSR where the part counts it (regs_loop_position). */
	if (pmu.pebs_trap && wrmsr_counted &&
	    a == pmu_frame_tail_site(slot, PMU_FRAME_TAIL_INSNS - 1))
		return LOOP_RETURNED;
	return LOOP_BODY;
}

/*
 * One record of kernel_regs_loop(n) run in frame slot `slot`: the general registers (where
 * the record has them) must be a state of the loop or of the frame's tail after it, rdi =
 * n; the IP the instruction that state executes next; the eventing IP the one that retired
 * last (a trap-like assist, PERF_CAPABILITIES[6]) or the IP itself (fault-like). 0 with *ord
 * the eventing instruction's number among the window's instructions (1 = the frame's CALL;
 * 0 without registers) and *where whether the record is from after the loop's last JNZ
 * (it must then be the run's last) and its RET, or -1 with why.
 */
static int check_loop_record(const struct pebs_sample *s, uint64_t n, unsigned slot,
			     bool wrmsr_counted, uint64_t *ord, enum loop_where *where, char *why,
			     size_t whylen)
{
	struct loop_pos p;

	*ord = 0;
	*where = LOOP_BODY;
	if (!s->has_regs) {
		if (s->has_eventing_ip && !in_loop_body(s->eventing_ip)) {
			*where = past_loop(s->eventing_ip, slot, wrmsr_counted);
			if (*where != LOOP_BODY)
				return 0;
			fmt_snprintf(why, whylen, "eventing IP 0x%llx is no instruction of the loop "
				     "nor of the frame's tail after it",
				     (unsigned long long)s->eventing_ip);
			return -1;
		}
		return 0;
	}
	if (s->regs.di != n) {
		fmt_snprintf(why, whylen, "RDI 0x%llx, the loop's n is 0x%llx (the kernel never "
			     "writes RDI)", (unsigned long long)s->regs.di, (unsigned long long)n);
		return -1;
	}
	if (!regs_loop_position(&s->regs, n, slot, wrmsr_counted, &p)) {
		fmt_snprintf(why, whylen, "RAX %llu RDX %llu R8 %llu RCX %llu are no state of the loop",
			     (unsigned long long)s->regs.ax, (unsigned long long)s->regs.dx,
			     (unsigned long long)s->regs.r8, (unsigned long long)s->regs.cx);
		return -1;
	}
	for (unsigned i = 0; i < p.ncand; i++) {
		uint64_t ev = pmu.pebs_trap ? p.last[i] : p.next[i];

		if (s->regs.ip != p.next[i])
			continue;
		if (s->has_eventing_ip && s->eventing_ip != ev) {
			fmt_snprintf(why, whylen, "IP 0x%llx but eventing IP 0x%llx: the state (RAX %llu "
				     "RCX %llu) says 0x%llx", (unsigned long long)s->regs.ip,
				     (unsigned long long)s->eventing_ip, (unsigned long long)s->regs.ax,
				     (unsigned long long)s->regs.cx, (unsigned long long)ev);
			return -1;
		}
		*ord = PMU_FRAME_HEAD_INSNS + p.done[i] + (pmu.pebs_trap ? 0 : 1);
		*where = p.done[i] > 4 + 5 * n ? LOOP_RETURNED :
			 p.done[i] == 4 + 5 * n ? LOOP_END : LOOP_BODY;
		return 0;
	}
	fmt_snprintf(why, whylen, "IP 0x%llx, but the registers (RAX %llu RDX %llu R8 %llu RCX %llu) "
		     "say the next instruction is 0x%llx%s", (unsigned long long)s->regs.ip,
		     (unsigned long long)s->regs.ax, (unsigned long long)s->regs.dx,
		     (unsigned long long)s->regs.r8, (unsigned long long)s->regs.cx,
		     (unsigned long long)p.next[0], p.ncand > 1 ? " or the one after it" : "");
	return -1;
}

/*
 * Checks every record of a regs-loop run; counts them and, where they have registers, where
 * each one fell: the counter starts P = s->period events short of overflowing, so the first
 * record's eventing instruction is at least the P-th of the window (less the frame's
 * WRMSRs the CPU counts, `wrmsrs`: the opening one may be among them), and after each
 * record the assist reloads it (SDM Vol. 3B 18.6.2.4.1: after each record is written the
 * reset value is loaded), so every later one is at least P instructions after the one
 * before. The distance past P between records is the "shadow" between the overflow and the
 * assist (SDM 18.9.4.4, PDIR: "a finite delay ... variable 'skids' in instruction address
 * space"); precise distribution (PDIR, PDist) has none.
 */
struct loop_verdict {
	unsigned records, bad;
	char why[200];
	/* Placement (records with registers, all of them; placed false otherwise). */
	bool placed;
	uint64_t first_ord, last_ord;	/* the first and last records' eventing instructions */
	uint64_t shadow_min, shadow_max, shadow_sum;	/* events past P, between records */
	unsigned gaps;			/* ... over this many */
	unsigned early;			/* records fewer than P events after the last */
	char early_why[160];
	bool past;			/* the last record from past the loop's last JNZ */
};

static int check_loop_records(const struct pebs_setup *s, uint64_t n, unsigned slot,
			      uint64_t counter_bit, unsigned wrmsrs, uint64_t t0, uint64_t t1,
			      struct loop_verdict *v, char *err, size_t errlen)
{
	static struct pebs_sample smp;
	struct pebs_reader r;
	uint64_t last_tsc = 0, ord;
	enum loop_where where;
	bool was_past = false;
	int got;

	memset(v, 0, sizeof(*v));
	v->placed = true;
	v->shadow_min = ~0ULL;
	if (pebs_reader(&r, s, err, errlen))
		return -1;
	while ((got = pebs_reader_next(&r, &smp, err, errlen)) == 1) {
		char why[200] = "";

		v->records++;
		if (was_past) {
			fmt_snprintf(why, sizeof(why), "a record after one from past the loop's end");
		} else if (check_loop_record(&smp, n, slot, wrmsrs > 0, &ord, &where, why,
					     sizeof(why)) == 0) {
			was_past = v->past = where != LOOP_BODY;
			if (smp.has_status && !(smp.status & counter_bit))
				fmt_snprintf(why, sizeof(why), "status 0x%llx lacks the counter's bit 0x%llx",
					     (unsigned long long)smp.status,
					     (unsigned long long)counter_bit);
			else if (smp.has_status && pmu.pebs_format >= 3 &&
				 (smp.status & ~counter_bit & (pmu_gp_mask(&pmu) | pmu_fixed_mask(&pmu))))
				fmt_snprintf(why, sizeof(why), "status 0x%llx names counters that were "
					     "not PEBS counters (format 3 and later: exact)",
					     (unsigned long long)smp.status);
			else if (smp.has_tsc && (smp.tsc < t0 || smp.tsc > t1 || smp.tsc < last_tsc))
				fmt_snprintf(why, sizeof(why), "TSC %llu outside the run [%llu, %llu] or "
					     "before the previous record's %llu",
					     (unsigned long long)smp.tsc, (unsigned long long)t0,
					     (unsigned long long)t1, (unsigned long long)last_tsc);
		}
		if (smp.has_tsc)
			last_tsc = smp.tsc;
		if (why[0]) {
			if (!v->bad++)
				fmt_snprintf(v->why, sizeof(v->why), "record %u: %s", v->records - 1, why);
			v->placed = false;
		} else if (!ord) {
			v->placed = false;
		} else if (v->placed) {
			uint64_t from = v->records > 1 ? v->last_ord : 0;
			uint64_t slack = v->records > 1 ? 0 : wrmsrs;

			if (ord + slack < from + s->period) {
				if (!v->early++)
					fmt_snprintf(v->early_why, sizeof(v->early_why), "record %u at "
						     "instruction %llu, %lld after %s", v->records - 1,
						     (unsigned long long)ord,
						     (long long)(ord - from),
						     v->records > 1 ? "the previous record" :
						     "the window opened");
			} else if (v->records == 1) {
				v->first_ord = ord;
			} else {
				uint64_t sh = ord - v->last_ord - s->period;

				v->shadow_min = sh < v->shadow_min ? sh : v->shadow_min;
				v->shadow_max = sh > v->shadow_max ? sh : v->shadow_max;
				v->shadow_sum += sh;
				v->gaps++;
			}
			v->last_ord = ord;
		}
	}
	if (!v->records)
		v->placed = false;
	if (!v->gaps)
		v->shadow_min = 0;
	return got < 0 ? -1 : 0;
}

/*
 * Where the records of a regs-loop run fell (v), and the counter after it (value, width
 * bits), for `events` instructions in the window at reset value P, the CPU counting
 * `wrmsrs` of the frame's own WRMSRs besides (pmu_frame_wrmsrs):
 *  - none fewer than P events after the one before it or the window's start (the counter
 *    cannot overflow sooner);
 *  - none a whole period or more past that: a shadow as long as the period is a record
 *    lost, not a delay (the SDM's delay is the few cycles until the microcode runs);
 *  - with precise distribution (pdir), every one exactly P after the one before;
 *  - the counter accounts for every instruction after the last record, A of them and the
 *    closing WRMSR where counted (A' = A + 0..wrmsrs): reloaded to -P there, it stands
 *    P - A' short of overflowing, or, where it overflowed again and that assist was still
 *    in its shadow when counting stopped, A' - P past it.
 * Without registers in the records (no placement) the count alone is judged: events / P
 * +- 1. CHECK_PASS with *note describing the shadow seen, else the failure.
 */
static enum check_status judge_loop_run(struct check_ctx *c, const struct pebs_setup *s,
					const struct loop_verdict *v, uint64_t events,
					unsigned wrmsrs, uint64_t value, unsigned width, bool pdir,
					char *note, size_t notelen)
{
	uint64_t mask = width >= 64 ? ~0ULL : (1ULL << width) - 1;
	uint64_t p = s->period, want = events / p, after, left;
	bool pending = false, accounted = false;

	note[0] = 0;
	if (!v->placed) {
		if (v->records + 1 < want || v->records > want + 1)
			return check_result(c, CHECK_FAIL, "%u records", "%llu +- 1 (%llu instructions / "
					    "reset value %llu)", v->records, (unsigned long long)want,
					    (unsigned long long)events, (unsigned long long)p);
		left = (0 - value) & mask;
		if (left == 0 || left > p)
			return check_result(c, CHECK_FAIL, "counter 0x%llx after the run", "in its last "
					    "period (reloaded with 2^%u - %llu after every record)",
					    (unsigned long long)value, width, (unsigned long long)p);
		fmt_snprintf(note, notelen, "records without registers: counted, not placed");
		return CHECK_PASS;
	}
	if (v->early)
		return check_result(c, CHECK_FAIL, "%u record(s) early, first: %s", "each record at "
				    "least %llu instructions (the reset value) after the one before",
				    v->early, v->early_why, (unsigned long long)p);
	if (v->shadow_max >= p || v->first_ord >= 2 * p)
		return check_result(c, CHECK_FAIL, "a record %llu instructions late", "at most one "
				    "period (%llu) past the overflow: a record missing", (unsigned long long)
				    (v->first_ord >= 2 * p ? v->first_ord - p : v->shadow_max),
				    (unsigned long long)p);
	if (pdir && v->shadow_max)
		return check_result(c, CHECK_FAIL, "shadow %llu..%llu instructions over %u gaps",
				    "0: precise distribution puts every record on the overflowing "
				    "instruction, %llu apart", (unsigned long long)v->shadow_min,
				    (unsigned long long)v->shadow_max, v->gaps, (unsigned long long)p);
	/* One past the window: the closing WRMSR, where the part counts it. */
	if (v->last_ord > events + (wrmsrs ? 1 : 0))
		return check_result(c, CHECK_FAIL, "the last record at instruction %llu",
				    "within the window's %llu%s", (unsigned long long)v->last_ord,
				    (unsigned long long)events,
				    wrmsrs ? " or at the closing WRMSR" : "");
	after = events - v->last_ord;	/* modulo 2^64: -1 for a record at the closing WRMSR */
	value &= mask;
	for (unsigned x = 0; x <= wrmsrs && !accounted; x++) {
		uint64_t a = after + x;

		if (v->last_ord > events + x)
			continue;	/* that WRMSR did not count here */

		if (a < p && value == ((0 - (p - a)) & mask))
			accounted = true;
		else if (a >= p && a - p < p && value == a - p)
			accounted = pending = true;
	}
	if (!accounted)
		return check_result(c, CHECK_FAIL, "counter 0x%llx after the run", "2^%u - %llu + %llu "
				    "(+ up to %u WRMSRs): reloaded at the last record (instruction "
				    "%llu of the window's %llu), then counting the rest",
				    (unsigned long long)value, width, (unsigned long long)p,
				    (unsigned long long)after, wrmsrs, (unsigned long long)v->last_ord,
				    (unsigned long long)events);
	fmt_snprintf(note, notelen, "shadow %llu..%llu (mean %llu.%02llu) instructions over %u gaps"
		     "%s%s%s", (unsigned long long)v->shadow_min, (unsigned long long)v->shadow_max,
		     (unsigned long long)(v->gaps ? v->shadow_sum / v->gaps : 0),
		     (unsigned long long)(v->gaps ? v->shadow_sum * 100 / v->gaps % 100 : 0),
		     v->gaps, pdir ? ", precise distribution" : "",
		     pending ? ", the last overflow's assist still pending at the end" : "",
		     v->past ? ", the last record past the loop's end (its RET or the frame's tail)" :
		     "");
	return CHECK_PASS;
}

/* --- pebs.precise.gpN, pebs.precise.pdir --------------------------------------------- */

#define PRECISE_N	20000ULL	/* iterations: 100009 instructions in the window */

/* Whether this CPU has PDIR on a GP counter: IA32_PMC1 with INST_RETIRED.PREC_DIST. */
static bool precise_has_pdir(void)
{
	return pebs_pdir(&pmu, false, 1, 0xc0, 0x01) && (pebs_gp_mask(&pmu) & 2);
}

static unsigned pebs_counter_instances(void)
{
	return pebs_gp_counters() + (precise_has_pdir() ? 1 : 0);
}

static void pebs_counter_instance_name(unsigned i, char *buf, size_t len)
{
	if (i == pebs_gp_counters())
		fmt_snprintf(buf, len, "pdir");
	else
		fmt_snprintf(buf, len, "gp%u", pebs_gp_counter(i));
}

static enum check_status check_pebs_precise(struct check_ctx *c)
{
	bool pdir_case = c->instance == pebs_gp_counters();
	struct pebs_setup s = { .idx = pdir_case ? 1 : pebs_gp_counter(c->instance),
				.e = pebs_insn_evtsel(), .period = precise_period(), .max = 200,
				.data_cfg = PEBS_DATACFG_GPRS, .adaptive = true };
	struct exec_counts e;
	struct pmu_result res;
	struct loop_verdict v;
	char err[PMU_ERR_LEN], note[240];
	uint64_t events, t0, t1;
	enum check_status st;
	int wrmsrs;
	bool pdir;

	if (no_pebs())
		return check_skip(c, "%s", no_pebs());
	if (pdir_case)
		s.e.umask = 0x01;	/* INST_RETIRED.PREC_DIST (ALL on Sandy Bridge) */
	pdir = pebs_pdir(&pmu, false, s.idx, s.e.event, s.e.umask);
	if (pmu_frame_wrmsrs(&wrmsrs, err, sizeof(err)))
		return check_error(c, err, "the frame's own count");
	t0 = rdtsc();
	if (pebs_go(&s, &kernel_regs_loop_desc, PRECISE_N, NULL, &res, err, sizeof(err)))
		return check_error(c, err, "a PEBS run");
	t1 = rdtsc();
	/* Events in the window: the frame's CALL, the kernel, MOV/XOR/XOR. */
	region_predict_frame(FRAME_PMU, &kernel_regs_loop_desc, PRECISE_N, NULL, res.region_id, &e);
	events = e.insns - (PMU_FRAME_REGION_INSNS - PMU_FRAME_INSNS);
	if (check_loop_records(&s, PRECISE_N, res.region_id, 1ULL << s.idx, (unsigned)wrmsrs, t0, t1,
			       &v, err, sizeof(err)))
		return check_error(c, err, "well-formed records");
	if (v.bad)
		return check_result(c, CHECK_FAIL, "%u of %u records wrong, first: %s", "each record's "
				    "registers a state of the loop, its IP the next instruction of that "
				    "state, its eventing IP the last", v.bad, v.records, v.why);
	st = judge_loop_run(c, &s, &v, events, (unsigned)wrmsrs, res.value[0], pmu.gp_width, pdir,
			    note, sizeof(note));
	if (st != CHECK_PASS)
		return st;
	return check_result(c, CHECK_PASS, "%u records, every IP/eventing IP/registers a state of the "
			    "loop; %s; the counter accounts for the rest", "each record at least "
			    "%llu instructions after the last%s (%llu in the window, format %u)",
			    v.records, note, (unsigned long long)s.period, pdir ? ", exactly" : "",
			    (unsigned long long)events, pmu.pebs_format);
}
CHECK_DEFINE(470, "pebs.precise", check_pebs_precise,
	     "instructions sampled by PEBS on the register-coded loop: each record's IP, eventing IP and registers one state of the loop, at least the reset value after the last (exactly, with PDIR on PMC1), the counter reloaded",
	     .flags = CHECK_PER_CPU, .instances = pebs_counter_instances, .instance_name = pebs_counter_instance_name);

/* --- pebs.threshold: the interrupt at the threshold, bit 62, nothing past it ----------- */

#define THR_N		6000ULL		/* 30009 instructions: seven records at THR_PERIOD */
#define THR_RECORDS	3
/* Longer than any PMI skid pmuboot allows: the records written between the threshold and
 * a late PMI are none, so the index at the PMI is exactly the threshold on a part with skid
 * too, and a PMI one record late (AJ68) is still told from skid. Prime, as 997. */
#define THR_PERIOD	4003ULL
_Static_assert(THR_PERIOD > PMI_SKID_MAX, "a record within the skid would blur AJ68");

static struct pmi_stats thr_stats;
static uint64_t thr_index, thr_status;
static bool thr_seen, thr_drain;

/* The PMI, as NMI so it is taken inside the run: where the buffer stood and the status when
 * it came; then the usual handling (status acknowledged, LVT unmasked). With thr_drain the
 * buffer is emptied as a driver would (index back to the base). */
static void thr_nmi(struct trap_frame *f)
{
	(void)f;
	if (!thr_seen) {
		thr_seen = true;
		thr_index = pebs_ds.pebs_index;
		rdmsr_safe(MSR_CORE_PERF_GLOBAL_STATUS, &thr_status);
	}
	if (thr_drain)
		pebs_ds.pebs_index = pebs_ds.pebs_buffer_base;
	pmu_pmi_handle(&pmu, &thr_stats, true);
}

/*
 * SDM 18.6.2.4 / 17.4.9: when a record brings the PEBS index to the interrupt threshold, the
 * processor raises a PMI and sets GLOBAL_STATUS bit 62 (OvfBuffer). Twice: with
 * FREEZE_PERFMON_ON_PMI (the counters stop at the request, so exactly THR_RECORDS records
 * are written) and without it (the PMI still comes, bit 62 still set: AJ69 set it only with
 * DEBUGCTL[12]). The PMI has skid, up to PMI_SKID_MAX instructions: a period longer than
 * that (THR_PERIOD) keeps the index at the PMI exactly at the threshold. The freeze pass runs only where the freeze is at the
 * PMI (versions 2 and 3): from version 4 FREEZE_PERFMON_ON_PMI freezes every counter at
 * any counter's overflow (IA32_PERF_GLOBAL_STATUS.CTR_Frz, SDM Vol. 4 Table 2-2), so the
 * first PEBS record would stop counting and no threshold PMI could come.
 */
static enum check_status check_pebs_threshold(struct check_ctx *c)
{
	struct pebs_setup s = { .idx = pebs_gp_counter(0), .e = pebs_insn_evtsel(),
				.period = THR_PERIOD, .max = 40, .threshold = THR_RECORDS,
				.unframed = true };
	struct pmu_result res;
	char err[PMU_ERR_LEN];
	uint64_t dbg = 0, status_after = 0, want_index;
	unsigned rec, recs_frozen = 0;
	bool freeze_pass = pmu.version < 4;
	enum check_status st = CHECK_PASS;

	if (no_pebs())
		return check_skip(c, "%s", no_pebs());
	if (check_skip_unless_forced(c, !apic.present,
				     "no local APIC for the PMI"))
		return CHECK_SKIP;
	if (check_skip_unless_forced(c, (pmu.errata & PMU_ERRATUM_PEBS_CORE2),
				     "%s", pmu_erratum_note(PMU_ERRATUM_PEBS_CORE2)))
		return CHECK_SKIP;
	rec = pebs_rec_size(&s);
	want_index = addr(pebs_buf) + (uint64_t)THR_RECORDS * rec;
	rdmsr_safe(MSR_IA32_DEBUGCTLMSR, &dbg);
	trap_set_handler(X86_TRAP_NMI, thr_nmi);
	for (unsigned pass = 0; pass < 2 && st == CHECK_PASS; pass++) {
		bool freeze = pass == 0;

		if (freeze && !freeze_pass)
			continue;
		memset(&thr_stats, 0, sizeof(thr_stats));
		thr_stats.keep = freeze ? GLOBAL_STATUS_COUNTERS_FROZEN : 0;
		thr_seen = false;
		thr_drain = !freeze;
		thr_status = 0;
		pmu_pmi_lvt_setup(0, true);
		wrmsr_safe(MSR_IA32_DEBUGCTLMSR, freeze ? dbg | DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI : dbg);
		if (pebs_go(&s, &kernel_regs_loop_desc, THR_N, NULL, &res, err, sizeof(err))) {
			st = check_error(c, err, "a PEBS run");
			break;
		}
		wrmsr_safe(MSR_IA32_DEBUGCTLMSR, dbg);
		pmu_global_status(&pmu, &status_after);
		if (!thr_seen || thr_stats.pmis < 1) {
			st = check_result(c, CHECK_FAIL, "no PMI (%s FREEZE_PERFMON_ON_PMI)", "a PMI when "
					  "the index reached the threshold (%u records)",
					  freeze ? "with" : "without", THR_RECORDS);
		} else if (thr_index != want_index) {
			st = check_result(c, CHECK_FAIL, "PEBS index 0x%llx at the PMI (%lld records)",
					  "0x%llx, the threshold (%u records, period %llu longer than "
					  "the skid) (%s freeze)", (unsigned long long)thr_index,
					  (long long)((int64_t)(thr_index - addr(pebs_buf)) / (int64_t)rec),
					  (unsigned long long)want_index, THR_RECORDS, THR_PERIOD,
					  freeze ? "with" : "without");
		} else if (!(thr_status & GLOBAL_STATUS_BUFFER_OVF)) {
			st = check_result(c, CHECK_FAIL, "GLOBAL_STATUS 0x%llx at the PMI", "bit 62 "
					  "(OvfBuffer) set (%s FREEZE_PERFMON_ON_PMI)",
					  (unsigned long long)thr_status, freeze ? "with" : "without");
		} else if (status_after & GLOBAL_STATUS_BUFFER_OVF) {
			st = check_result(c, CHECK_FAIL, "GLOBAL_STATUS 0x%llx after the handler", "bit 62 "
					  "cleared through OVF_CTRL", (unsigned long long)status_after);
		} else if (freeze && (recs_frozen = pebs_records(&s)) != THR_RECORDS) {
			st = check_result(c, CHECK_FAIL, "%u records", "%u: the counters froze at the PMI "
					  "request", recs_frozen, THR_RECORDS);
		}
		if (thr_stats.not_pmi && st == CHECK_PASS)
			st = check_result(c, CHECK_FAIL, "%llu NMIs without a status bit", "none",
					  (unsigned long long)thr_stats.not_pmi);
	}
	wrmsr_safe(MSR_IA32_DEBUGCTLMSR, dbg);
	pmi_unroute_nmi();
	if (st != CHECK_PASS)
		return st;
	if (!freeze_pass)
		return check_result(c, CHECK_PASS, "PMI at %u records, GLOBAL_STATUS 0x%llx, bit 62 "
				    "cleared by OVF_CTRL", "same; no freeze pass on PMU version %u (it "
				    "freezes at the first overflow)", THR_RECORDS,
				    (unsigned long long)thr_status, pmu.version);
	return check_result(c, CHECK_PASS, "PMI at %u records, GLOBAL_STATUS 0x%llx, bit 62 cleared by "
			    "OVF_CTRL, %u records when frozen; PMI and bit 62 without the freeze too",
			    "same", THR_RECORDS, (unsigned long long)thr_status, recs_frozen);
}
CHECK_DEFINE(480, "pebs.threshold", check_pebs_threshold,
	     "the PEBS interrupt threshold raises a PMI with GLOBAL_STATUS bit 62, with freeze where it is at the PMI (v2/v3) and without",
	     .flags = CHECK_PER_CPU);

/* --- pebs.buffer_full: no record past the absolute maximum ----------------------------- */

#define FULL_RECORDS	4
/* The interrupt threshold two records short of the maximum: the SDM (Vol. 3B 17.4.9) wants
 * it short of the maximum and leaves undefined what a part does when they are equal. */
#define FULL_THRESHOLD	(FULL_RECORDS - 2)

static enum check_status check_pebs_buffer_full(struct check_ctx *c)
{
	struct pebs_setup s = { .idx = pebs_gp_counter(0), .e = pebs_insn_evtsel(),
				.period = precise_period(), .max = FULL_RECORDS,
				.threshold = FULL_THRESHOLD };
	struct pmu_result res;
	char err[PMU_ERR_LEN];
	unsigned rec, guard;
	uint64_t max, thr;

	if (no_pebs())
		return check_skip(c, "%s", no_pebs());
	rec = pebs_rec_size(&s);
	/* Ten records' worth of events for room for four; the threshold's PMI goes to the
	 * masked LVT entry, which drops it (its status is cleared with the rest). */
	if (pebs_go(&s, &kernel_regs_loop_desc, THR_N, NULL, &res, err, sizeof(err)))
		return check_error(c, err, "a PEBS run");
	max = addr(pebs_buf) + (uint64_t)FULL_RECORDS * rec;
	thr = addr(pebs_buf) + (uint64_t)FULL_THRESHOLD * rec;
	/* A live PEBS reaches the threshold at least (ten records' worth of events); none may
	 * go past the maximum. */
	if (pebs_ds.pebs_index < thr || pebs_ds.pebs_index > max)
		return check_result(c, CHECK_FAIL, "PEBS index 0x%llx (%lld records)", "0x%llx..0x%llx: "
				    "at least the threshold (%u records), never past the absolute "
				    "maximum (%u records of %u bytes, ten records' worth of events)",
				    (unsigned long long)pebs_ds.pebs_index,
				    (long long)((int64_t)(pebs_ds.pebs_index - addr(pebs_buf)) /
						(int64_t)rec), (unsigned long long)thr,
				    (unsigned long long)max, FULL_THRESHOLD, FULL_RECORDS, rec);
	guard = (FULL_RECORDS + PEBS_GUARD) * rec <= PEBS_BUF_BYTES ? PEBS_GUARD * rec :
		PEBS_BUF_BYTES - FULL_RECORDS * rec;
	for (unsigned i = 0; i < guard; i++)
		if (pebs_buf[FULL_RECORDS * rec + i] != PEBS_CANARY)
			return check_result(c, CHECK_FAIL, "byte %u past the absolute maximum is 0x%02x",
					    "0x%02x, untouched: nothing written past the maximum",
					    i, pebs_buf[FULL_RECORDS * rec + i], PEBS_CANARY);
	return check_result(c, CHECK_PASS, "index at %lld records, the %u bytes past the maximum "
			    "untouched", "%u..%u records (threshold..maximum) and not one more",
			    (long long)((int64_t)(pebs_ds.pebs_index - addr(pebs_buf)) / (int64_t)rec),
			    guard, FULL_THRESHOLD, FULL_RECORDS);
}
CHECK_DEFINE(490, "pebs.buffer_full", check_pebs_buffer_full,
	     "no PEBS record is written past the DS absolute maximum",
	     .flags = CHECK_PER_CPU);

/* --- pebs.load_latency: the chase's loads, their address, latency and source ----------- */

#define LL_STEPS	20000ULL
#define LL_PERIOD	101ULL

static const struct {
	const char *name;
	uint64_t nodes;		/* one per line */
	uint16_t threshold;	/* MSR_PEBS_LD_LAT_THRESHOLD */
	bool cold;		/* flushed before the run, else run once to warm it */
	unsigned level;		/* the data source most records must name (0: none asked) */
} ll_cases[] = {
	{ "l1", 64, 3, false, 1 },		/* 4 KiB, warm: L1 hits (3: the minimum) */
	{ "dram", 256ULL << 10, 32, true, 4 },	/* 16 MiB, every line flushed: beyond the L3 */
	{ "above_threshold", 64, 32, false, 0 },	/* L1 hits never reach 32 cycles */
};
#define NLL (sizeof(ll_cases) / sizeof(ll_cases[0]))

CHECK_TABLE_INSTANCES(pebs_ll, ll_cases)

static void ll_cold(uint64_t n, void *first)
{
	chase_flush(first, n);
}

static void ll_warm(uint64_t n, void *first)
{
	kernel_chase_desc.fn(n, first);
}

/* The load-latency event: MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD (0BH/10H, seed 000 Table
 * 4) on Nehalem and Westmere; MEM_TRANS_RETIRED.LOAD_LATENCY (CDH/01H) from Sandy Bridge on,
 * only on PMC3 on Sandy and Ivy Bridge, not on PMC0 on Golden Cove. Before version 5 the
 * counter's LL_EN bit (PEBS_ENABLE 32 + x) goes with it. */
static void ll_event(struct pebs_setup *s)
{
	bool nhm = pmu.uarch == UARCH_NEHALEM || pmu.uarch == UARCH_WESTMERE;

	s->e = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	s->e.event = nhm ? 0x0b : 0xcd;
	s->e.umask = nhm ? 0x10 : 0x01;
	s->idx = pmu.uarch == UARCH_SANDY_BRIDGE || pmu.uarch == UARCH_IVY_BRIDGE ? 3 :
		 pebs_gp_counter(0);
	if (pmu.version < 5)
		s->enable_extra = 1ULL << (PEBS_ENABLE_LL_SHIFT + s->idx);
	/* Golden Cove: MEM_TRANS_RETIRED.LOAD_LATENCY wants the auxiliary event 03H/82H
	 * counted beside it (Linux PMU_FL_MEM_LOADS_AUX; pmu-errata.md "SPR load-latency"). */
	if (pebs_golden_cove(&pmu)) {
		struct pmu_evtsel aux = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);

		aux.event = 0x03;
		aux.umask = 0x82;
		s->aux_evtsel = pmu_evtsel_encode(&aux);
	}
	s->adaptive = true;
	s->data_cfg = PEBS_DATACFG_MEMINFO;
}

static enum check_status check_pebs_load_latency(struct check_ctx *c)
{
	const __typeof__(ll_cases[0]) *lc = &ll_cases[c->instance % NLL];
	struct pebs_setup s = { .period = LL_PERIOD, .max = 400, .ld_lat = lc->threshold };
	static struct pebs_sample smp;
	struct pebs_reader r;
	struct pmu_result res;
	char err[PMU_ERR_LEN], why[200] = "", first_why[200] = "";
	unsigned n = 0, at_level = 0, bad = 0;
	uint64_t lo = UINT64_MAX, hi = 0, base = env.buf, end;
	void *first;
	int got;

	if (no_pebs())
		return check_skip(c, "%s", no_pebs());
	if (check_skip_unless_forced(c, !pebs_has_ld_lat(&pmu),
				     "no load-latency PEBS on %s%s%s (Nehalem and later big cores; "
				     "the Atom cores' event, Gracemont's 05D0H, is not used here)",
				     pmu_uarch_name(pmu.uarch), pmu.hybrid ? ", " : "",
				     pmu.hybrid ? pmu_core_type_name(pmu.core_type) : ""))
		return CHECK_SKIP;
	if (env.buf_size < lc->nodes * 64)
		return check_skip(c, "the %llu-byte test buffer holds fewer than %llu lines",
				  (unsigned long long)env.buf_size, (unsigned long long)lc->nodes);
	ll_event(&s);
	s.before = lc->cold ? ll_cold : ll_warm;
	first = chase_build(base, lc->nodes, 64, 0x9e3779b97f4a7c15ULL);
	end = base + lc->nodes * 64;
	if (pebs_go(&s, &kernel_chase_desc, LL_STEPS, first, &res, err, sizeof(err)))
		return check_error(c, err, "a PEBS run");
	if (pebs_reader(&r, &s, err, sizeof(err)))
		return check_error(c, err, "well-formed records");
	while ((got = pebs_reader_next(&r, &smp, err, sizeof(err))) == 1) {
		unsigned src = PEBS_DSE_SOURCE(smp.dse);

		n++;
		lo = smp.latency < lo ? smp.latency : lo;
		hi = smp.latency > hi ? smp.latency : hi;
		at_level += pebs_dse_level(src) == lc->level;
		if (!smp.has_mem)
			fmt_snprintf(why, sizeof(why), "record %u has no data address, source or latency",
				     n - 1);
		else if (smp.dla < base || smp.dla >= end || smp.dla % 64)
			fmt_snprintf(why, sizeof(why), "record %u: data address 0x%llx is no node of the "
				     "chase [0x%llx, 0x%llx) (one per 64-byte line)", n - 1,
				     (unsigned long long)smp.dla, (unsigned long long)base,
				     (unsigned long long)end);
		else if (smp.latency <= lc->threshold)
			fmt_snprintf(why, sizeof(why), "record %u: latency %llu not above the threshold %u "
				     "(MSR_PEBS_LD_LAT_THRESHOLD: loads slower than it count)", n - 1,
				     (unsigned long long)smp.latency, lc->threshold);
		else
			continue;
		if (bad++ == 0)
			str_lcpy(first_why, why, sizeof(first_why));
	}
	if (got < 0)
		return check_error(c, err, "well-formed records");
	if (bad)
		return check_result(c, CHECK_FAIL, "%u of %u records wrong, first: %s", "each a node's "
				    "address, latency > %u", bad, n, first_why, lc->threshold);
	if (!lc->level) {
		/* Quiet: few loads of a warm 4 KiB chase take 32 cycles. */
		if ((uint64_t)n * LL_PERIOD > LL_STEPS / 10)
			return check_result(c, CHECK_FAIL, "%u records (%llu loads over %u cycles)",
					    "at most %llu: an L1-resident chase's loads stay "
					    "below %u cycles", n, (unsigned long long)n * LL_PERIOD,
					    lc->threshold, LL_STEPS / 10 / LL_PERIOD, lc->threshold);
		return check_result(c, CHECK_PASS, "%u records", "at most %llu (L1 hits below %u "
				    "cycles)", n, LL_STEPS / 10 / LL_PERIOD, lc->threshold);
	}
	if (n < 10)
		return check_result(c, CHECK_FAIL, "%u records", "at least 10 over %llu loads at "
				    "period %llu", n, LL_STEPS, LL_PERIOD);
	if (at_level * 10 < n * 9 && lc->level == 1)
		return check_result(c, CHECK_FAIL, "%u of %u records from the L1", ">= 90%% (a warm "
				    "4 KiB chase)", at_level, n);
	if (at_level * 4 < n * 3 && lc->level == 4)
		return check_result(c, CHECK_FAIL, "%u of %u records from beyond the L3", ">= 75%% "
				    "(every line flushed)", at_level, n);
	return check_result(c, CHECK_PASS, "%u records, latency %llu..%llu, %u at level %u", "nodes "
			    "of the chase, latency > %u, the source following the working set", n,
			    (unsigned long long)lo, (unsigned long long)hi, at_level, lc->level,
			    lc->threshold);
}
CHECK_DEFINE(500, "pebs.load_latency", check_pebs_load_latency,
	     "load-latency PEBS on the chase: node addresses, latency >= MSR_PEBS_LD_LAT, source per working set",
	     .flags = CHECK_PER_CPU, .instances = pebs_ll_instances, .instance_name = pebs_ll_instance_name);

/* --- pebs.adaptive: every MSR_PEBS_DATA_CFG ------------------------------------------- */

#define ADAPT_N		4000ULL		/* 20009 instructions: 20 records at 997 */

static uint64_t xmm_pattern[32];

static const char *no_adaptive(void)
{
	if (no_pebs())
		return no_pebs();
	if (!pmu.dsc.pebs_baseline && !env.force_pmu)
		return "no adaptive PEBS: IA32_PERF_CAPABILITIES.PEBS_BASELINE[14]=0";
	return NULL;
}

/* One adaptive run of regs_loop with cfg, LBR recording on or off; checks each record.
 * *past counts the runs whose last record fell past the loop (in its shadow). */
static int adaptive_once(uint64_t cfg, bool adaptive, bool lbr_on, unsigned *records,
			 unsigned *pasts, char *why, size_t whylen)
{
	struct pebs_setup s = { .idx = pebs_gp_counter(0), .e = pebs_insn_evtsel(),
				.period = precise_period(), .max = 40, .adaptive = adaptive,
				.data_cfg = cfg };
	static struct pebs_sample smp;
	struct pebs_reader r;
	struct pmu_result res;
	uint64_t dbg = 0, ord, want_groups = adaptive ? cfg : 0;
	unsigned want_size = pebs_adaptive_size(want_groups);
	enum loop_where where = LOOP_BODY;
	int got, wrmsrs = 0;

	/* Whether the closing WRMSR counts (a record may then name it): measured once. */
	if (pmu_frame_wrmsrs(&wrmsrs, why, whylen))
		return -1;
	for (unsigned i = 0; i < 32; i++)
		xmm_pattern[i] = 0x1111111111111111ULL * (i % 15 + 1) ^ cfg;
	rdmsr_safe(MSR_IA32_DEBUGCTLMSR, &dbg);
	lbr_clear(&pmu.lbr);
	if (pmu.lbr.present) {
		static const struct lbr_filter every;

		lbr_set_filter(&pmu.lbr, &every);	/* whatever an earlier check left */
	}
	if (lbr_on && !pmu.lbr.arch)
		wrmsr_safe(MSR_IA32_DEBUGCTLMSR, dbg | DEBUGCTLMSR_LBR);
	if (lbr_on && pmu.lbr.arch) {
		static const struct lbr_filter none;

		wrmsr_safe(MSR_ARCH_LBR_CTL, arch_lbr_ctl_value(&none));
	}
	xmm_load(xmm_pattern);
	got = pebs_go(&s, &kernel_regs_loop_desc, ADAPT_N, NULL, &res, why, whylen);
	xmm_zero();
	wrmsr_safe(MSR_IA32_DEBUGCTLMSR, dbg);
	if (pmu.lbr.arch)
		wrmsr_safe(MSR_ARCH_LBR_CTL, 0);
	if (got)
		return -1;
	if (pebs_reader(&r, &s, why, whylen))
		return -1;
	*records = 0;
	while ((got = pebs_reader_next(&r, &smp, why, whylen)) == 1) {
		unsigned i = (*records)++;

		if (smp.size != want_size || smp.groups != want_groups) {
			fmt_snprintf(why, whylen, "record %u: %u bytes, groups 0x%llx expected %u bytes, "
				     "groups 0x%llx (DATA_CFG 0x%llx, adaptive bit %d)", i, smp.size,
				     (unsigned long long)smp.groups, want_size,
				     (unsigned long long)want_groups, (unsigned long long)cfg, adaptive);
			return -1;
		}
		if (!(smp.status & (1ULL << s.idx))) {
			fmt_snprintf(why, whylen, "record %u: applicable counters 0x%llx lack GP%u", i,
				     (unsigned long long)smp.status, s.idx);
			return -1;
		}
		if (where != LOOP_BODY) {
			fmt_snprintf(why, whylen, "record %u after one from past the loop's end", i);
			return -1;
		}
		if (check_loop_record(&smp, ADAPT_N, res.region_id, wrmsrs > 0, &ord, &where, why,
				      whylen)) {
			char tmp[200];

			fmt_snprintf(tmp, sizeof(tmp), "record %u: %s", i, why);
			str_lcpy(why, tmp, whylen);
			return -1;
		}
		if (smp.has_xmm)
			for (unsigned x = 0; x < 32; x++)
				if (smp.xmm[x] != xmm_pattern[x]) {
					fmt_snprintf(why, whylen, "record %u: XMM%u %s quadword 0x%llx, "
						     "the register held 0x%llx", i, x / 2,
						     x % 2 ? "high" : "low",
						     (unsigned long long)smp.xmm[x],
						     (unsigned long long)xmm_pattern[x]);
					return -1;
				}
		for (unsigned e = 0; e < smp.nr_lbr; e++) {
			const struct pebs_lbr_entry *l = &smp.lbr[e];
			uint64_t from = l->from & ~LBR_FROM_FLAG_MISPRED;
			bool zero = !l->from && !l->to;
			bool ret = e == 0 && where == LOOP_RETURNED;
			bool want = ret ? from == addr(kernel_regs_loop_ret) &&
					  l->to == pmu_frame_return_site(res.region_id) :
					  from == addr(kernel_regs_loop_jnz) &&
					  l->to == addr(kernel_regs_loop_top);

			/* Recording: the newest entries are the loop's back edge (the first record
			 * comes after 199 iterations, more than any stack holds), after the RET
			 * for a record from past it (the last JNZ is not taken). Not recording,
			 * and the stack cleared: nothing. */
			if (lbr_on ? !want : !zero) {
				fmt_snprintf(why, whylen, "record %u: LBR entry %u 0x%llx -> 0x%llx (info "
					     "0x%llx) expected %s", i, e, (unsigned long long)l->from,
					     (unsigned long long)l->to, (unsigned long long)l->info,
					     !lbr_on ? "zero: the LBR was cleared and not recording" :
					     ret ? "the loop's RET to the frame" : "the loop's back edge");
				return -1;
			}
		}
	}
	*pasts += where != LOOP_BODY;
	return got < 0 ? -1 : 0;
}

static enum check_status check_pebs_adaptive(struct check_ctx *c)
{
	char why[240];
	unsigned records = 0, total = 0, lbrs, pasts = 0;
	uint64_t want = (5 * ADAPT_N + 9) / precise_period();

	if (no_adaptive())
		return check_skip(c, "%s", no_adaptive());
	lbrs = pmu.lbr.present ? lbr_depth(&pmu.lbr) : 1;
	if (lbrs > PEBS_MAX_LBR)
		lbrs = PEBS_MAX_LBR;
	for (uint64_t g = 0; g <= 0xf; g++) {
		uint64_t cfg = g | (g & PEBS_DATACFG_LBRS ? (uint64_t)(lbrs - 1) << PEBS_DATACFG_LBR_SHIFT : 0);
		bool lbr_on = (g & PEBS_DATACFG_LBRS) && pmu.lbr.present && !lbr_unavailable(&pmu, false);

		if (adaptive_once(cfg, true, lbr_on, &records, &pasts, why, sizeof(why)))
			return check_error(c, why, "records of the configured groups "
					   "(DATA_CFG 0x%llx)", (unsigned long long)cfg);
		if (records + 1 < want || records > want + 1)
			return check_result(c, CHECK_FAIL, "%u records", "%llu +- 1 (DATA_CFG 0x%llx)",
					    records, (unsigned long long)want, (unsigned long long)cfg);
		total += records;
	}
	/* The LBR group while the LBR does not record (and was cleared): zero entries (KVM once
	 * filled it with the host's, pmu-errata.md 9e985cbf2942). */
	if (adaptive_once(PEBS_DATACFG_LBRS | (uint64_t)(lbrs - 1) << PEBS_DATACFG_LBR_SHIFT, true,
			  false, &records, &pasts, why, sizeof(why)))
		return check_error(c, why, "an empty LBR group");
	/* A counter without its adaptive bit ignores DATA_CFG: basic records only. */
	if (adaptive_once(0xf | (uint64_t)(lbrs - 1) << PEBS_DATACFG_LBR_SHIFT, false, false,
			  &records, &pasts, why, sizeof(why)))
		return check_error(c, why, "basic records (no adaptive bit)");
	return check_result(c, CHECK_PASS, "%u records over DATA_CFG 0..0xf (LBR entries %u), each of the "
			    "configured size and groups, GPRs/XMMs/LBRs as the loop left them; basic "
			    "records without the adaptive bit; an empty LBR group when not recording"
			    "%s", "same", total, lbrs, pasts ? "; a run's last record past the loop's "
			    "end (its RET or the frame's tail)" : "");
}
CHECK_DEFINE(510, "pebs.adaptive", check_pebs_adaptive,
	     "adaptive PEBS: every MSR_PEBS_DATA_CFG gives records of its size and groups, with the loop's GPRs, XMMs and LBRs",
	     .flags = CHECK_PER_CPU);

/* --- pebs.fixed: PEBS on fixed counter 0 (adaptive PEBS) -------------------------------- */

static enum check_status check_pebs_fixed(struct check_ctx *c)
{
	struct pebs_setup s = { .fixed = true, .idx = 0, .period = precise_period(), .max = 200,
				.adaptive = true, .data_cfg = PEBS_DATACFG_GPRS };
	struct exec_counts e;
	struct pmu_result res;
	struct loop_verdict v;
	char err[PMU_ERR_LEN], note[240];
	uint64_t t0, t1, events;
	enum check_status st;
	int wrmsrs;
	bool pdir = pebs_pdir(&pmu, true, 0, 0, 0);

	if (no_adaptive())
		return check_skip(c, "%s", no_adaptive());
	if (check_skip_unless_forced(c, !(pmu.fixed_mask & 1),
				     "no fixed counter 0"))
		return CHECK_SKIP;
	if (pmu_frame_wrmsrs(&wrmsrs, err, sizeof(err)))
		return check_error(c, err, "the frame's own count");
	t0 = rdtsc();
	if (pebs_go(&s, &kernel_regs_loop_desc, PRECISE_N, NULL, &res, err, sizeof(err)))
		return check_error(c, err, "a PEBS run");
	t1 = rdtsc();
	region_predict_frame(FRAME_PMU, &kernel_regs_loop_desc, PRECISE_N, NULL, res.region_id, &e);
	events = e.insns - (PMU_FRAME_REGION_INSNS - PMU_FRAME_INSNS);
	if (check_loop_records(&s, PRECISE_N, res.region_id, 1ULL << GLOBAL_FIXED_SHIFT,
			       (unsigned)wrmsrs, t0, t1, &v, err, sizeof(err)))
		return check_error(c, err, "well-formed records");
	if (v.bad)
		return check_result(c, CHECK_FAIL, "%u of %u records wrong, first: %s", "states of the "
				    "loop, applicable counters bit 32", v.bad, v.records, v.why);
	st = judge_loop_run(c, &s, &v, events, (unsigned)wrmsrs, res.value[0], pmu.fixed_width,
			    pdir, note, sizeof(note));
	if (st != CHECK_PASS)
		return st;
	return check_result(c, CHECK_PASS, "%u records, every one a state of the loop, for bit 32; %s",
			    "each at least %llu instructions after the last%s (reset value in DS "
			    "slot %d)", v.records, note, (unsigned long long)s.period,
			    pdir ? ", exactly (PDist on fixed counter 0)" : "",
			    ds_reset_slot(&pmu, true, 0));
}
CHECK_DEFINE(520, "pebs.fixed", check_pebs_fixed,
	     "adaptive PEBS on fixed counter 0: records for bit 32, reloaded from its DS slot, placed as pebs.precise's (exactly where fixed counter 0 has precise distribution)",
	     .flags = CHECK_PER_CPU);

/* --- pebs.frontend: FRONTEND_RETIRED on the large-code kernel (seed 003) --------------- */

enum fe_prep { FE_NONE, FE_FLUSH_LINES, FE_FLUSH_PAGES };

static const struct {
	const char *name;
	uint8_t sub;		/* MSR_PEBS_FRONTEND.EVTSEL, seed 003 Table 18-58 */
	uint16_t latency;	/* IDQ_READ_BUBBLES: cycles ... */
	uint8_t width;		/* ... with at least this many empty slots */
	enum fe_prep prep;	/* what each run starts from */
	unsigned lo_div;	/* the big run must count at least footprint / lo_div */
} fe_cases[] = {
	{ "dsb_miss", 0x11, 0, 0, FE_NONE, 8 },
	{ "l1i_miss", 0x12, 0, 0, FE_FLUSH_LINES, 4 },
	{ "l2_miss", 0x13, 0, 0, FE_FLUSH_LINES, 4 },
	{ "itlb_miss", 0x14, 0, 0, FE_FLUSH_PAGES, 2 },
	{ "stlb_miss", 0x15, 0, 0, FE_FLUSH_PAGES, 2 },
	{ "idq_read_bubbles", 0x06, 1, 1, FE_FLUSH_LINES, 16 },
};
#define NFE (sizeof(fe_cases) / sizeof(fe_cases[0]))
#define FE_BIG_N	3ULL
#define FE_SMALL_N	100ULL

CHECK_TABLE_INSTANCES(pebs_fe, fe_cases)

static uint64_t fe_code_start(void)
{
	return addr((const void *)kernel_bigcode_desc.fn);
}

/* Before each big run: its code lines out of every cache, or its pages out of both TLBs. */
static void fe_flush_lines(uint64_t n, void *arg)
{
	(void)n;
	(void)arg;
	for (uint64_t a = fe_code_start(); a < addr(kernel_bigcode_end); a += 64)
		clflush((const void *)(uintptr_t)a);
	mfence();
}

static void fe_flush_pages(uint64_t n, void *arg)
{
	(void)n;
	(void)arg;
	for (uint64_t a = fe_code_start() & ~4095ULL; a < addr(kernel_bigcode_end); a += 4096)
		invlpg((const void *)(uintptr_t)a);
}

static void fe_warm_small(uint64_t n, void *arg)
{
	kernel_smallcode_desc.fn(n, arg);
}

/* A counted run of fe_measure's: one no SMI touched (an SMI handler's code evicts the lines
 * and pages the front-end events count). */
struct fe_count_args {
	const struct ctr_cfg *cfg;
	const struct kernel_desc *k;
	uint64_t n;
	const struct pmu_run_opts *o;
};

static int fe_count_once(const void *p, struct pmu_result *res, char *err, size_t errlen)
{
	const struct fe_count_args *a = p;

	return pmu_run(a->cfg, 1, a->k, a->n, NULL, a->o, res, err, errlen);
}

static int fe_count(const struct ctr_cfg *cfg, const struct kernel_desc *k, uint64_t n,
		    const struct pmu_run_opts *o, struct pmu_result *res, char *err, size_t errlen)
{
	const struct fe_count_args a = { cfg, k, n, o };

	return smi_free_run(fe_count_once, &a, "pebs.frontend: counted", res, err, errlen);
}

static enum check_status fe_measure(struct check_ctx *c, bool own)
{
	const __typeof__(fe_cases[0]) *fc = &fe_cases[c->instance % NFE];
	uint64_t fe = fc->sub | (uint64_t)fc->latency << PEBS_FRONTEND_IDQ_BUBBLE_LEN_SHIFT |
		      (uint64_t)fc->width << PEBS_FRONTEND_IDQ_BUBBLE_WIDTH_SHIFT;
	uint64_t lines = (addr(kernel_bigcode_end) - fe_code_start() + 63) / 64;
	uint64_t pages = (addr(kernel_bigcode_end) - (fe_code_start() & ~4095ULL) + 4095) / 4096;
	uint64_t footprint = fc->prep == FE_FLUSH_PAGES ? pages : lines, big, small, lo, hi;
	struct pmu_evtsel e = pmu_arch_evtsel(ARCH_EVENT_INSTRUCTIONS, false, true);
	struct pebs_setup s = { .idx = 0, .period = 4, .max = 400, .frontend = fe };
	struct pmu_run_opts o = { .reps = 1 };
	static struct pebs_sample smp;
	struct pebs_reader r;
	struct pmu_result res;
	struct ctr_cfg cfg;
	char err[PMU_ERR_LEN];
	unsigned records = 0;
	int got;

	e.event = 0xc6;
	e.umask = 0x01;
	s.e = e;
	o.before = fc->prep == FE_FLUSH_LINES ? fe_flush_lines :
		   fc->prep == FE_FLUSH_PAGES ? fe_flush_pages : NULL;
	/* Counting: the big code from its cold state, the small one warm. */
	if (pebs_frontend_write(fe))
		return check_result(c, CHECK_FAIL, "WRMSR MSR_PEBS_FRONTEND 0x%llx faulted", "written",
				    (unsigned long long)fe);
	cfg = (struct ctr_cfg){ .idx = 0, .evtsel = pmu_evtsel_encode(&e) };
	if (fe_count(&cfg, &kernel_bigcode_desc, FE_BIG_N, &o, &res, err, sizeof(err)))
		return check_error(c, err, "a counted run");
	big = res.delta[0];
	o.before = fe_warm_small;
	if (fe_count(&cfg, &kernel_smallcode_desc, FE_SMALL_N, &o, &res, err, sizeof(err)))
		return check_error(c, err, "a counted run");
	small = res.delta[0];
	lo = footprint / fc->lo_div;
	hi = 4 * footprint * FE_BIG_N + 16 * 1024 * FE_BIG_N;
	if (big < lo || big > hi)
		return check_result(c, CHECK_FAIL, "%llu on the 64 KiB kernel (%llu lines, %llu pages, %llu "
				    "passes)", "%llu..%llu", (unsigned long long)big,
				    (unsigned long long)lines, (unsigned long long)pages, FE_BIG_N,
				    (unsigned long long)lo, (unsigned long long)hi);
	if (small > 8 && small * 16 > big)
		return check_result(c, CHECK_FAIL, "%llu on the warm 2 KiB kernel, %llu on the 64 KiB one",
				    "at most 8 or a sixteenth: the count follows the footprint",
				    (unsigned long long)small, (unsigned long long)big);
	/* Sampling: every record's eventing IP (or IP) is the big kernel's code. */
	s.before = fc->prep == FE_FLUSH_LINES ? fe_flush_lines :
		   fc->prep == FE_FLUSH_PAGES ? fe_flush_pages : NULL;
	s.period = big / 16 ? big / 16 : 1;
	if (pebs_go(&s, &kernel_bigcode_desc, FE_BIG_N, NULL, &res, err, sizeof(err)))
		return check_error(c, err, "a PEBS run");
	if (pebs_reader(&r, &s, err, sizeof(err)))
		return check_error(c, err, "well-formed records");
	while ((got = pebs_reader_next(&r, &smp, err, sizeof(err))) == 1) {
		uint64_t ip = smp.has_eventing_ip ? smp.eventing_ip : smp.regs.ip;

		records++;
		if (ip < fe_code_start() || ip > addr(kernel_bigcode_end))
			return check_result(c, CHECK_FAIL, "record %u IP 0x%llx", "in the 64 KiB kernel "
					    "[0x%llx, 0x%llx)", records - 1, (unsigned long long)ip,
					  (unsigned long long)fe_code_start(),
					  (unsigned long long)addr(kernel_bigcode_end));
	}
	if (got < 0)
		return check_error(c, err, "well-formed records");
	/* Each record takes its period of events and the shadow after the overflow: PEBS is
	 * armed by the overflow and the record is for "the subsequent event" (SDM Vol. 3B, the
	 * Sandy Bridge PEBS text), one occurrence of a sparse event like these, after a delay
	 * constant in cycles (18.9.4.4). A shadow of a whole period is a lost record (as in
	 * pebs.precise), so at least big / (2 * period) records, less one for the end. */
	if (records + 1 < big / (2 * s.period))
		return check_result(c, CHECK_FAIL, "%u records", "at least %llu (%llu events counted at "
				    "period %llu, each record one period and a shadow of less than "
				    "one)", records, (unsigned long long)(big / (2 * s.period) - 1),
				    (unsigned long long)big, (unsigned long long)s.period);
	return check_result(c, CHECK_PASS, "%llu on 64 KiB (cold: %llu lines, %llu pages), %llu on 2 KiB "
			    "warm, %u records all in the kernel%s", ">= %llu, a sixteenth at most, "
			    "IPs in the kernel (MSR_PEBS_FRONTEND 0x%llx)", (unsigned long long)big,
			    (unsigned long long)lines, (unsigned long long)pages,
			    (unsigned long long)small, records,
			    own ? "; on pmuboot's page tables, the kernel in 4 KiB pages" : "",
			    (unsigned long long)lo, (unsigned long long)fe);
}
struct fe_call {
	struct check_ctx *c;
	enum check_status st;
};

static void fe_on_own_tables(void *p)
{
	struct fe_call *f = p;

	f->st = fe_measure(f->c, true);
}

static enum check_status check_pebs_frontend(struct check_ctx *c)
{
	const __typeof__(fe_cases[0]) *fc = &fe_cases[c->instance % NFE];
	uint64_t size;

	if (no_pebs())
		return check_skip(c, "%s", no_pebs());
	if (!pebs_has_frontend(&pmu) && !env.force_pmu)
		return check_skip(c, "FRONTEND_RETIRED as C6H/01H with MSR_PEBS_FRONTEND (seed 003 "
				  "18.13.1.4) is known here for Skylake to Rocket Lake only (Golden "
				  "Cove and later big cores and the Atom cores: not used here); this "
				  "is %s%s%s", pmu_uarch_name(pmu.uarch),
				  pmu.hybrid ? ", " : "",
				  pmu.hybrid ? pmu_core_type_name(pmu.core_type) : "");
	if (fc->prep != FE_FLUSH_PAGES)
		return fe_measure(c, false);
	/* The ITLB and STLB cases count one miss per 4 KiB page of the 64 KiB kernel (its
	 * pages invalidated one by one): the code must sit in 4 KiB pages, which on the
	 * firmware's page tables it need not (OVMF maps it with 2 MiB pages). Then they run
	 * on pmuboot's own tables, that region split into 4 KiB pages (issue 21 item 10). */
	size = paging_page_size(read_cr3(), read_cr4() & X86_CR4_LA57, fe_code_start());
	if (size == 4096)
		return fe_measure(c, false);
	if (own_tables_unavailable() || own_tables_split_4k(fe_code_start() & ~4095ULL,
							    addr(kernel_bigcode_end))) {
		if (env.force_pmu)
			return fe_measure(c, false);
		return check_skip(c, "counts one miss per 4 KiB page of the 64 KiB kernel; its code at "
				  "0x%llx is on %llu-byte pages in the firmware's page tables, and "
				  "pmuboot's own cannot be used: %s", (unsigned long long)fe_code_start(),
				  (unsigned long long)size, own_tables_unavailable() ?
				  own_tables_unavailable() : "no spare page to split them");
	}
	{
		struct fe_call f = { .c = c, .st = CHECK_FAIL };

		own_tables_call(fe_on_own_tables, &f);
		return f.st;
	}
}
CHECK_DEFINE(530, "pebs.frontend", check_pebs_frontend,
	     "Skylake+: FRONTEND_RETIRED sub-events count on cold 64 KiB of code, not on warm 2 KiB; records' IPs in that code",
	     .flags = CHECK_PER_CPU, .instances = pebs_fe_instances, .instance_name = pebs_fe_instance_name);
