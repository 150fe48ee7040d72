/* SPDX-License-Identifier: MIT */
/*
 * Branch trace store checks (option bts): every taken branch of a kernel written to the DS
 * area's BTS buffer, in order, equal to the model (which the reference oracle proves) and to
 * the LBR; the interrupt at the threshold with BTINT, no record past the absolute maximum;
 * the circular buffer without BTINT.
 *
 * Sources: SDM Vol. 3B 17.4.5 / 17.4.9 (TR, BTS, BTINT, BTS_OFF_OS/USR; the 24-byte record;
 * the buffer's threshold and wrap), 17.4.9.1.
 */
#include "arch/x86/apic.h"
#include "tests/harness/check.h"
#include "tests/harness/env.h"
#include "tests/measure/pmi.h"
#include "arch/x86/io.h"
#include "arch/x86/msr.h"
#include "arch/x86/trap.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "pmu/counter.h"
#include "pmu/ds.h"
#include "pmu/lbr.h"
#include "pmu/pmi.h"
#include "tests/measure/region.h"

static struct ds_area bts_ds __attribute__((aligned(64)));
#define BTS_MAX_RECORDS	256
static struct bts_record bts_buf[BTS_MAX_RECORDS + 1] __attribute__((aligned(4096)));
#define BTS_CANARY	0x5a

static uint64_t addr(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static const char *no_bts(void)
{
	if (!env.bts && !env.force_pmu)
		return "option bts not set: branch trace store checks are opt-in (BTS writes every "
		       "taken branch to memory)";
	return bts_unavailable(&pmu, env.force_pmu);
}

/* The legacy LBR records alongside BTS (both from DEBUGCTL) where pmuboot reads one. */
static bool with_lbr(void)
{
	return !lbr_unavailable(&pmu, false) && !pmu.lbr.arch;
}

/* bts_go()'s threshold equal to the absolute maximum (with BTINT). */
#define BTS_THR_AT_MAX	(~0u)

/* Arms a BTS buffer of `records` (threshold records with BTINT; 0: no interrupt, circular;
 * BTS_THR_AT_MAX: at the maximum, with BTINT),
 * runs k in the frame with DEBUGCTL = TR | BTS (| BTINT) around the call. */
static int bts_go(const struct kernel_desc *k, uint64_t n, void *arg, unsigned records,
		  unsigned threshold, struct region *r, char *err, size_t errlen)
{
	uint64_t dbg = 0, on;
	int v;

	memset(bts_buf, BTS_CANARY, sizeof(bts_buf));
	memset(&bts_ds, 0, sizeof(bts_ds));
	if (ds_setup_bts(&bts_ds, addr(bts_buf), (uint64_t)records * sizeof(struct bts_record),
			 threshold == BTS_THR_AT_MAX ? records - 1 : threshold, err, errlen))
		return PMU_EARG;
	/* bts.threshold_at_max: the case ds_setup_bts() refuses, set by hand. */
	if (threshold == BTS_THR_AT_MAX)
		bts_ds.bts_interrupt_threshold = bts_ds.bts_absolute_maximum;
	if ((v = ds_area_write(addr(&bts_ds)))) {
		fmt_snprintf(err, errlen, "WRMSR IA32_DS_AREA faulted (vector %d)", v);
		return v;
	}
	rdmsr_safe(MSR_IA32_DEBUGCTLMSR, &dbg);
	on = dbg | DEBUGCTLMSR_TR | DEBUGCTLMSR_BTS | (threshold ? DEBUGCTLMSR_BTINT : 0) |
	     (with_lbr() ? DEBUGCTLMSR_LBR : 0);
	if (with_lbr()) {
		static const struct lbr_filter every;

		lbr_clear(&pmu.lbr);
		lbr_set_filter(&pmu.lbr, &every);	/* whatever an earlier check left */
	}
	if ((v = wrmsr_safe(MSR_IA32_DEBUGCTLMSR, dbg))) {
		fmt_snprintf(err, errlen, "WRMSR IA32_DEBUGCTL faulted (vector %d)", v);
		return v;
	}
	/* With the interrupt armed its NMI may come inside the run: then no oracle region (the
	 * oracle predicts the kernel's code, not the handler's). */
	*r = threshold ? measure_kernel_msr_unframed(k, n, arg, MSR_IA32_DEBUGCTLMSR, on) :
			 measure_kernel_msr(k, n, arg, MSR_IA32_DEBUGCTLMSR, on);
	wrmsr_safe(MSR_IA32_DEBUGCTLMSR, dbg);
	return 0;
}

static bool canary_intact(unsigned at)
{
	const uint8_t *b = (const uint8_t *)&bts_buf[at];

	for (unsigned i = 0; i < sizeof(struct bts_record); i++)
		if (b[i] != BTS_CANARY)
			return false;
	return true;
}

/* --- bts.records ---------------------------------------------------------------------- */

static enum check_status check_bts_records(struct check_ctx *c)
{
	static struct branch_mix mix;
	static struct bts_record got[BTS_MAX_RECORDS];
	struct branch_rec want[LBR_DEPTH];
	struct exec_counts e;
	struct region r;
	char err[PMU_ERR_LEN];
	unsigned n, nwant;
	const uint64_t iters = 3;	/* 22 taken branches: all of them in the model's ring */

	if (no_bts())
		return check_skip(c, "%s", no_bts());
	if (bts_go(&kernel_branch_mix_desc, iters, &mix, BTS_MAX_RECORDS, 0, &r, err, sizeof(err)))
		return check_error(c, err, "a traced run");
	if (bts_records(&bts_ds, bts_buf, addr(bts_buf), BTS_MAX_RECORDS * sizeof(struct bts_record),
			got, BTS_MAX_RECORDS, &n, err, sizeof(err)))
		return check_error(c, err, "a well-formed BTS buffer");
	region_predict_frame(FRAME_PMU, &kernel_branch_mix_desc, iters, &mix, r.id, &e);
	nwant = exec_lbr(&e, want);
	if (n != nwant)
		return check_result(c, CHECK_FAIL, "%u records", "%u: the frame's CALL, every taken "
				    "branch of branch_mix(%llu), its RET", n, nwant,
				    (unsigned long long)iters);
	for (unsigned i = 0; i < n; i++)
		if (got[i].from != want[i].from || got[i].to != want[i].to)
			return check_result(c, CHECK_FAIL, "record %u 0x%llx -> 0x%llx", "the model's %s "
					    "0x%llx -> 0x%llx", i, (unsigned long long)got[i].from,
					    (unsigned long long)got[i].to, lbr_kind_name(want[i].kind),
					    (unsigned long long)want[i].from,
					    (unsigned long long)want[i].to);
	/* The LBR recorded the same run (DEBUGCTL.LBR with TR and BTS): its newest entries are
	 * the trace's last records. */
	if (with_lbr()) {
		struct lbr_entry l[LBR_MAX_DEPTH];
		unsigned nl = 0;

		if (lbr_read(&pmu.lbr, l, LBR_MAX_DEPTH, &nl))
			return check_result(c, CHECK_FAIL, "the LBR could not be read", "the stack");
		for (unsigned i = 0; i < nl && i < n; i++)
			if (l[i].from != got[n - 1 - i].from || l[i].to != got[n - 1 - i].to)
				return check_result(c, CHECK_FAIL, "LBR entry %u 0x%llx -> 0x%llx, BTS record "
						    "%u 0x%llx -> 0x%llx", "the same branch", i,
						    (unsigned long long)l[i].from,
						    (unsigned long long)l[i].to, n - 1 - i,
						    (unsigned long long)got[n - 1 - i].from,
						    (unsigned long long)got[n - 1 - i].to);
	}
	if (!canary_intact(n))
		return check_result(c, CHECK_FAIL, "the record slot after the index was written",
				    "untouched");
	return check_result(c, CHECK_PASS, "%u records equal the model's taken branches in order%s",
			    "same (branch_mix n=%llu)", n,
			    with_lbr() ? ", the LBR's newest too" : "", (unsigned long long)iters);
}
CHECK_DEFINE(600, "bts.records", check_bts_records,
	     "option bts: the BTS buffer holds every taken branch in order, as the model and the LBR",
	     .flags = CHECK_PER_CPU);

/* --- bts.threshold: BTINT's interrupt at the threshold --------------------------------- */

#define BTS_THR		8
#define BTS_SMALL	16
#define BTS_FULL_THR	(BTS_SMALL - 2)	/* bts.full: two records short of the maximum */
#define BTS_GUARD	8		/* bts.full: slots past the maximum kept at the canary */

static uint64_t bts_index_at_pmi, bts_dbg;
static unsigned bts_pmis;

/* As Linux's PMI handler does first: tracing off (so the handler's own branches and its
 * IRET are not stored and the index cannot keep the interrupt coming), then the LVT entry
 * unmasked. No counter overflowed; bit 62 is cleared where the part sets it. */
static void bts_nmi(struct trap_frame *f)
{
	(void)f;
	wrmsr_safe(MSR_IA32_DEBUGCTLMSR, bts_dbg);
	if (!bts_pmis++)
		bts_index_at_pmi = bts_ds.bts_index;
	pmu_global_ovf_clear(&pmu, GLOBAL_STATUS_BUFFER_OVF);
	apic_write(APIC_LVTPC, apic_read(APIC_LVTPC) & ~APIC_LVT_MASKED);
}

static enum check_status check_bts_threshold(struct check_ctx *c)
{
	struct region r;
	char err[PMU_ERR_LEN];
	uint64_t at;
	enum check_status st;

	if (no_bts())
		return check_skip(c, "%s", no_bts());
	if (check_skip_unless_forced(c, !apic.present,
				     "no local APIC for the BTS interrupt"))
		return CHECK_SKIP;
	bts_pmis = 0;
	bts_index_at_pmi = 0;
	rdmsr_safe(MSR_IA32_DEBUGCTLMSR, &bts_dbg);
	pmi_route_nmi(bts_nmi);
	/* loop4(100): 101 taken branches, a buffer of 16 records, the interrupt at 8. */
	if (bts_go(&kernel_loop4_desc, 100, NULL, BTS_SMALL, BTS_THR, &r, err, sizeof(err))) {
		st = check_error(c, err, "a traced run");
		goto out;
	}
	at = (bts_index_at_pmi - addr(bts_buf)) / sizeof(struct bts_record);
	if (!bts_pmis)
		st = check_result(c, CHECK_FAIL, "no interrupt", "one when the BTS index reached the "
				  "threshold (%u records) with BTINT", BTS_THR);
	else if (bts_index_at_pmi < addr(bts_buf) || at < BTS_THR || at > BTS_SMALL)
		st = check_result(c, CHECK_FAIL, "BTS index at %lld records when the interrupt came",
				  "%u..%u: at or after the threshold (an interrupt has skid), "
				  "within the buffer", (long long)at, BTS_THR, BTS_SMALL);
	else if (bts_pmis != 1)
		st = check_result(c, CHECK_FAIL, "%u interrupts", "1 (tracing off in the handler)",
				  bts_pmis);
	else
		st = check_result(c, CHECK_PASS, "one interrupt at %llu records", "%u..%u: at or after "
				  "the threshold, within the buffer", (unsigned long long)at, BTS_THR,
				  BTS_SMALL);
out:
	wrmsr_safe(MSR_IA32_DEBUGCTLMSR, bts_dbg);
	pmi_unroute_nmi();
	return st;
}
CHECK_DEFINE(610, "bts.threshold", check_bts_threshold,
	     "option bts: with BTINT one interrupt when the BTS index reaches the threshold",
	     .flags = CHECK_PER_CPU);

/* --- bts.full: with BTINT the buffer is not circular: nothing past the maximum ---------- */

static enum check_status check_bts_full(struct check_ctx *c)
{
	struct region r;
	char err[PMU_ERR_LEN];
	uint64_t max = addr(bts_buf) + BTS_SMALL * sizeof(struct bts_record);
	uint64_t thr = addr(bts_buf) + BTS_FULL_THR * sizeof(struct bts_record);

	if (no_bts())
		return check_skip(c, "%s", no_bts());
	/* The threshold two records short of the maximum (the SDM, Vol. 3B 17.4.9, wants it
	 * short and leaves the equal case undefined) and the LVT entry masked: the interrupt is
	 * dropped; 101 taken branches for 16 records. */
	pmu_pmi_lvt_mask();
	if (bts_go(&kernel_loop4_desc, 100, NULL, BTS_SMALL, BTS_FULL_THR, &r, err, sizeof(err)))
		return check_error(c, err, "a traced run");
	/* 101 branches into 16 slots: a live BTS reaches the threshold at least and never goes
	 * past the maximum; a dead or wrapping one (101 mod 16 = 5) stays short of it. */
	if (bts_ds.bts_index < thr || bts_ds.bts_index > max)
		return check_result(c, CHECK_FAIL, "BTS index 0x%llx (%lld records)", "0x%llx..0x%llx: "
				    "at least the threshold (%u records), never past the maximum (%u) "
				    "after 101 branches", (unsigned long long)bts_ds.bts_index,
				    (long long)((int64_t)(bts_ds.bts_index - addr(bts_buf)) /
				    (int64_t)sizeof(struct bts_record)), (unsigned long long)thr,
				    (unsigned long long)max, BTS_FULL_THR, BTS_SMALL);
	for (unsigned i = 0; i < BTS_GUARD; i++)
		if (!canary_intact(BTS_SMALL + i))
			return check_result(c, CHECK_FAIL, "record slot %u past the absolute maximum was "
					    "written", "the %u slots after it untouched (with BTINT the "
					    "buffer is not circular, SDM Vol. 3B 17.4.9)", i, BTS_GUARD);
	return check_result(c, CHECK_PASS, "index at %lld of %u records, nothing past the maximum",
			    "%u..%u records (threshold..maximum), the %u slots after untouched",
			    (long long)((int64_t)(bts_ds.bts_index - addr(bts_buf)) /
			    (int64_t)sizeof(struct bts_record)), BTS_SMALL, BTS_FULL_THR, BTS_SMALL,
			    BTS_GUARD);
}
CHECK_DEFINE(620, "bts.full", check_bts_full,
	     "option bts: with BTINT the buffer fills to its absolute maximum and no further",
	     .flags = CHECK_PER_CPU);

/* --- bts.threshold_at_max: what the part does in the case the SDM leaves open ----------- */

/*
 * With BTINT and the interrupt threshold equal to the absolute maximum, the SDM (Vol. 3B
 * 17.4.9) says neither that the buffer stops at the maximum nor that it wraps; pmuboot never
 * sets them so (pmu/ds.c refuses it). This probe does, on a 16-record buffer with some 100
 * taken branches and the LVT entry masked, and reports what the part did: "stop" (full at
 * the maximum), "wrap" (to the base, as without BTINT: the index short of the maximum and
 * past the base), or "past" (one record beyond the maximum, then full). Any of the three
 * passes; anything else (no record, more than one past the buffer, or a slot of the 16
 * never written: with some 100 branches each is, unless the part stopped short, whose
 * index would otherwise pass for a wrap) fails.
 */
static enum check_status check_bts_threshold_at_max(struct check_ctx *c)
{
	struct region r;
	char err[PMU_ERR_LEN];
	const uint64_t rec = sizeof(struct bts_record);
	uint64_t base = addr(bts_buf), max = base + BTS_SMALL * rec, idx;
	const char *what = NULL;
	bool past_written, beyond_written = false;
	unsigned written = 0;

	if (no_bts())
		return check_skip(c, "%s", no_bts());
	pmu_pmi_lvt_mask();
	if (bts_go(&kernel_loop4_desc, 100, NULL, BTS_SMALL, BTS_THR_AT_MAX, &r, err, sizeof(err)))
		return check_error(c, err, "a traced run");
	idx = bts_ds.bts_index;
	for (unsigned i = 0; i < BTS_SMALL; i++)
		written += !canary_intact(i);
	past_written = !canary_intact(BTS_SMALL);
	for (unsigned i = 1; i < BTS_GUARD; i++)
		beyond_written |= !canary_intact(BTS_SMALL + i);
	if (!beyond_written && written == BTS_SMALL) {
		if (idx == max && !past_written)
			what = "stop";
		else if (idx > base && idx < max && !((idx - base) % rec) && !past_written)
			what = "wrap";	/* as many records in as the unframed run's branches
					 * exceed a multiple of 16 */
		else if (idx == max + rec && past_written)
			what = "past";
	}
	if (!what)
		return check_result(c, CHECK_FAIL, "index at %lld records, %u of %u slots written, "
				    "the slot past the maximum %s, later slots %s", "all %u written; "
				    "stop (index at %u), wrap (1..%u) or past (at %u, one slot past "
				    "written), nothing further",
				    (long long)((int64_t)(idx - base) / (int64_t)rec), written,
				    BTS_SMALL, past_written ? "written" : "untouched",
				    beyond_written ? "written" : "untouched", BTS_SMALL, BTS_SMALL,
				    BTS_SMALL - 1, BTS_SMALL + 1);
	return check_result(c, CHECK_PASS, "%s (index at %lld of %u records, loop4 n=100)",
			    "stop, wrap or past: the SDM leaves it open (Vol. 3B 17.4.9)", what,
			    (long long)((int64_t)(idx - base) / (int64_t)rec), BTS_SMALL);
}
CHECK_DEFINE(625, "bts.threshold_at_max", check_bts_threshold_at_max,
	     "option bts: with BTINT and the threshold at the absolute maximum, what the part does "
	     "(stop, wrap or one record past; the SDM leaves it open)",
	     .flags = CHECK_PER_CPU);

/* --- bts.circular: without BTINT the index wraps at the maximum ------------------------ */

static enum check_status check_bts_circular(struct check_ctx *c)
{
	struct region r;
	char err[PMU_ERR_LEN];
	const uint64_t taken = 101;	/* loop4(100): the CALL, 99 back edges, the RET */
	uint64_t want = addr(bts_buf) + (taken % BTS_SMALL) * sizeof(struct bts_record);

	pmu_pmi_lvt_mask();	/* circular: the threshold past the maximum, no interrupt */

	if (no_bts())
		return check_skip(c, "%s", no_bts());
	if (bts_go(&kernel_loop4_desc, 100, NULL, BTS_SMALL, 0, &r, err, sizeof(err)))
		return check_error(c, err, "a traced run");
	if (bts_ds.bts_index != want)
		return check_result(c, CHECK_FAIL, "BTS index 0x%llx (%lld records)", "0x%llx: %llu "
				    "records in a circular buffer of %u", (unsigned long long)bts_ds.bts_index,
				    (long long)((int64_t)(bts_ds.bts_index - addr(bts_buf)) /
				    (int64_t)sizeof(struct bts_record)),
				    (unsigned long long)want, (unsigned long long)taken, BTS_SMALL);
	if (!canary_intact(BTS_SMALL))
		return check_result(c, CHECK_FAIL, "the slot past the absolute maximum was written",
				    "untouched: the buffer wraps to its base");
	return check_result(c, CHECK_PASS, "index at %llu of %u after %llu records, nothing past the "
			    "maximum", "same (circular without BTINT)",
			    (unsigned long long)(taken % BTS_SMALL), BTS_SMALL,
			    (unsigned long long)taken);
}
CHECK_DEFINE(630, "bts.circular", check_bts_circular,
	     "option bts: without BTINT the BTS index wraps at the absolute maximum",
	     .flags = CHECK_PER_CPU);
