/* SPDX-License-Identifier: MIT */
/* Counting a kernel with a set of core counters: program, run in the PMU frame, read. */
#ifndef TESTS_MEASURE_PMU_RUN_H
#define TESTS_MEASURE_PMU_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "pmu/counter.h"
#include "pmu/event.h"
#include "tests/kernels/kernels.h"

#define PMU_RUN_MAX	(PMU_MAX_GP + PMU_MAX_FIXED)

/* One counter of a run: a GP counter with a selector, or a fixed counter with its field. */
struct ctr_cfg {
	bool fixed;
	unsigned idx;
	uint64_t evtsel;	/* GP: full selector, EN set */
	unsigned fixed_ctrl;	/* fixed: FIXED_CTR_CTRL_* bits */
	uint64_t start;		/* initial counter value */
};

struct pmu_result {
	uint64_t value[PMU_RUN_MAX];	/* counter values after the run */
	uint64_t delta[PMU_RUN_MAX];	/* value - start, modulo the width */
	uint64_t tsc;			/* TSC across the frame call */
	uint64_t smis;			/* SMIs during the run (MSR_SMI_COUNT; 0 where the model
					 * has no such register) */
	unsigned region_id, region_seq, region_vcpu;	/* the frame slot (oracle region) it ran in */
};

/* How runs are made; NULL means the defaults (one repetition, nothing before a run). */
struct pmu_run_opts {
	unsigned reps;		/* pairs count(n), count(2n) to keep (0: 1) */
	/* Called before each run, outside the counted window, with the run's n and arg: e.g.
	 * chase_flush() so every data access of the run starts cold. */
	void (*before)(uint64_t n, void *arg);
	/* Run the kernel outside the measurement frame (measure_kernel_pmu_unframed): for runs
	 * an NMI handler enters, which no oracle region may contain. */
	bool unframed;
};

/* Nehalem/Westmere (AAK100): the erratum's sequence before counters are added, where the
 * caller left the four selectors and PEBS clear; 0, or the vector with err saying so. */
int pmu_run_nhm_reset(char *err, size_t errlen);

/*
 * What pmu_run() does before its window: GLOBAL_CTRL 0, the AAK100 reset, overflow status
 * cleared, then each counter programmed (and counting nothing until GLOBAL_CTRL enables
 * it); *enable gets the GLOBAL_CTRL bits of cfg. ncfg may be 0 (only the first three). 0,
 * or non-zero with err saying which access failed (counters already programmed are
 * stopped again).
 */
int pmu_run_arm(const struct ctr_cfg *cfg, unsigned ncfg, uint64_t *enable, char *err,
		size_t errlen);

/*
 * Programs the counters (GLOBAL_CTRL off, overflow status cleared), runs k(n, arg) once in
 * the PMU frame with exactly these counters enabled, reads them with RDPMC, and stops them
 * again; overflow status the run caused is left for the caller. MSR_SMI_COUNT is read
 * before the counters are programmed and after they are read (an SMI with
 * FREEZE_WHILE_SMM sets the GLOBAL_CTRL enables again at RSM, SDM 18.18.1, so one anywhere
 * in that span can change the counts). 0, or non-zero with err saying which access failed.
 */
int pmu_run(const struct ctr_cfg *cfg, unsigned ncfg, const struct kernel_desc *k,
	    uint64_t n, void *arg, const struct pmu_run_opts *o, struct pmu_result *res,
	    char *err, size_t errlen);

/*
 * The differential method: pairs of runs at n and 2n; for each counter the smallest count
 * at 2n minus the smallest at n over the kept pairs, which cancels every fixed cost of the
 * frame and kernel. Differences are signed: noise larger at n than at 2n makes a
 * near-zero event's difference negative, and it is reported so, never as 2^64 - x. A pair
 * during which MSR_SMI_COUNT advanced, or a stretched one (struct pairs), is discarded and
 * counted; pairs are run until o->reps are kept (struct pairs) or twice as many were tried.
 */
#define PMU_DIFF_MAX_REPS	64
struct pmu_diff {
	int64_t diff[PMU_RUN_MAX];	/* min count(2n) - min count(n) over the kept pairs */
	int64_t median[PMU_RUN_MAX];	/* median of the kept pairs' own differences (at most
					 * PMU_DIFF_MAX_REPS of them) */
	int64_t tsc;			/* the same minimum difference of the TSC */
	/* For counters of a clock: of the kept runs at 2n, the one in which counter i came
	 * closest to the TSC across the frame call (count / TSC largest), as the pair
	 * (clock_count[i], clock_tsc[i]). A clock counts only inside that span, so jitter
	 * outside its window (a guest TSC that follows host time) can only lower the ratio;
	 * differences of minima from different runs do not have that property. */
	uint64_t clock_count[PMU_RUN_MAX], clock_tsc[PMU_RUN_MAX];
	unsigned kept;			/* pairs kept */
	unsigned discarded;		/* pairs discarded because an SMI arrived */
	uint64_t smis;			/* SMIs those pairs took */
	unsigned stretched;		/* pairs discarded as stretched (struct pairs) */
	bool smi_checked;		/* MSR_SMI_COUNT was read (the model has it) */
};

/* The repeated pairs (run at n, run at 2n) of a differential, core or uncore: per value the
 * minimum of each half and each kept pair's own difference, and the TSC's minima. A pair
 * that took an SMI is discarded and counted. So is a stretched pair, one whose run at n or
 * at 2n took over half as long again as the lower quartile of its half's runs (and
 * PAIRS_STRETCH_SLACK ticks): something the SMI count does not see took the CPU inside it
 * (a host that preempted its guest, whose TSC follows host time; on a bare machine, a
 * window far longer than its work). Not the fastest run: one run faster than all the others
 * (a guest that had the host to itself for a moment, 4 vCPUs on 2 host CPUs) made every
 * other pair "stretched" in CI, 26 of 26. But where most runs of a half were stretched, so
 * is its lower quartile: a pair whose run at 2n took less time than its run at n (by more
 * than PAIRS_STRETCH_SLACK) is stretched too (CI: three such pairs judged clean, and the
 * uncore clock's median difference was U = -12444474). So differences of time and of
 * clocks over clean pairs stay positive wherever the kernel's time outweighs the slack.
 * Pairs are run until want are free of SMIs and most of them (half of want, rounded up,
 * and at least three where three or more are wanted) clean of stretch, or 2 * want were
 * tried; while not one SMI-free pair is clean, up to PAIRS_NONE_CLEAN_MORE more. Where
 * none is clean even then, there is no result, but an error that says so: minima of
 * different stretched runs are no measurement (at n and 2n they can differ by less than
 * nothing, as a clock's did, U = -19815784, with the guest stopped 30 ms in every 100). */
#define PAIRS_MAX	32	/* values a run gives: PMU_RUN_MAX; uncore UNC_RUN_MAX + IMC */
#define PAIRS_STRETCH_SLACK	2000ULL	/* TSC ticks: a microsecond or so */
/* Pairs past 2 * want while none is clean. 16 were too few under load: with four CPU hogs
 * and a build beside 4 vCPUs, pmu.cmask_inv_edge found all 26 of its pairs stretched (one
 * half preempted, the other not, by turns). Only a measurement that has no clean pair yet
 * pays for them. */
#define PAIRS_NONE_CLEAN_MORE	48
struct pairs {
	unsigned nv, want, tries, kept, discarded, stretched;
	uint64_t smis;
	/* The SMI-free pairs, judged against the lower quartiles at the end: the first
	 * PMU_DIFF_MAX_REPS stored, any later one judged when it came and folded into xlo/xhi. */
	unsigned stored, extra;
	uint64_t a[PAIRS_MAX][PMU_DIFF_MAX_REPS], b[PAIRS_MAX][PMU_DIFF_MAX_REPS];
	uint64_t ta[PMU_DIFF_MAX_REPS], tb[PMU_DIFF_MAX_REPS];
	uint64_t xlo[PAIRS_MAX], xhi[PAIRS_MAX], xtlo, xthi;
	uint64_t ref_a, ref_b;		/* the reference runs (the lower quartiles) */
	int64_t tsc_median;		/* pairs_finish: the median of the clean pairs' own TSC
					 * differences (the span beside the median counts) */
};
void pairs_init(struct pairs *p, unsigned nv, unsigned want);
/* Whether to run another pair (too few free of SMIs or clean, fewer than 2 * want tried). */
bool pairs_more(struct pairs *p);
/* The pair's values a (at n) and b (at 2n), TSC spans and SMIs: false when discarded for
 * an SMI (a stretched pair is found when more pairs have set the lower quartiles). */
bool pairs_add(struct pairs *p, const uint64_t *a, const uint64_t *b, uint64_t tsc_a,
	       uint64_t tsc_b, uint64_t smis);
/* Over the clean pairs: diff[i] = min b - min a, median[i] of the pairs' own differences,
 * *tsc = min tb - min ta and p->tsc_median as median[i]; sets p->kept (the pairs used) and
 * p->stretched. An error naming the SMIs when every pair took one, and naming the stretch
 * when none SMI-free was clean. */
int pairs_finish(struct pairs *p, int64_t *diff, int64_t *median, int64_t *tsc,
		 char *err, size_t errlen);

int pmu_run_differential(const struct ctr_cfg *cfg, unsigned ncfg, const struct kernel_desc *k,
			 uint64_t n, void *arg, const struct pmu_run_opts *o, struct pmu_diff *d,
			 char *err, size_t errlen);
/* " reps=K" and, when pairs were discarded, " smi_discarded=D (S SMIs)" and
 * " stretched=T": the tail of every differential's result line, core or uncore
 * (pmu_diff_note, unc_diff_note). One buffer: use one note per formatted line. */
const char *pairs_note(unsigned kept, unsigned discarded, uint64_t smis, unsigned stretched);
static inline const char *pmu_diff_note(const struct pmu_diff *d)
{
	return pairs_note(d->kept, d->discarded, d->smis, d->stretched);
}

/* A GP selector counting architectural event ev in ring 0. */
uint64_t pmu_os_evtsel(enum arch_event ev);

/*
 * Counts instructions and branches retired at CPL 0 over one run of k(n, arg): the fixed
 * instruction counter where there is one (else a GP counter) and a GP counter. With the
 * oracle option the counts are printed for the region (measure_note_pmu). Needs GLOBAL_CTRL
 * and two GP counters, or one and fixed counter 0.
 */
int pmu_count_insns_branches(const struct kernel_desc *k, uint64_t n, void *arg,
			     uint64_t *insns, uint64_t *branches, char *err, size_t errlen);
/* Why pmu_count_insns_branches() cannot run here, or NULL. */
const char *pmu_count_unavailable(void);

/* Whether GP counters cannot start at `start`: a legacy (32-bit, sign-extended) write gives
 * another value and the part has no full-width writes (PERF_CAPABILITIES.FW_WRITE). */
static inline bool gp_start_unwritable(uint64_t start)
{
	return !pmu.full_width_write && pmu_legacy_write_result(start, pmu.gp_width) != start;
}

#endif /* TESTS_MEASURE_PMU_RUN_H */
