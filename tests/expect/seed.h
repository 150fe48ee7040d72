/* SPDX-License-Identifier: MIT */
/*
 * Expectations for the seeds' events: per seed model, ONE file (tests/expect/seed_<model>.c,
 * listed in tests/expect/seed_models.h) declaring the model (its seed, the CPUs it runs on,
 * the catalogs its names resolve in) and its table, binding every event the seed's tables
 * name to one or two cases (a kernel at a size, the reference events counted beside it, a
 * relation), its kind and its source in the seed; the relation language (parsed and
 * evaluated here, host-tested); `list coverage`.
 *
 * THE TABLE FORMAT: one struct events_row per event of a seed, in its model's file:
 *
 *   ROW(model, EVENT, kind, case0, case1, source, why)
 *	case  CASE(kernel, size, rel) or CASER(kernel, size, rel, "REF_A", "REF_B", ...);
 *	      UCASE(kernel, rel) / UCASER(...) for the uncore kernels (EVK_U_*), whose size is
 *	      their own (ev_kernel_size_text); NOCASE: no second case;
 *   NONE(model, EVENT, why, source)
 *	no relation can be bound here (two sockets, I/O, a busy second thread ...): the reason
 *	is printed by `list coverage`.
 *
 * A relation is a list of linear constraints separated by ';', each `expr >= expr` or
 * `expr <= expr`; an expr is a sum of terms `[+|-] [P[/Q]] [VAR]` over the variables
 *   v      the row's event (the differential count: count(2N) - count(N), signed)
 *   a..h   the case's reference events, in order, counted on the same kernel and size
 *   N      the extra iterations the difference covers (events_iters; the uncore kernels:
 *          their extra steps)
 *   U      the uncore clock over the same extra work (uncore kernels only)
 *   T      the extra work's duration in microseconds (uncore kernels only)
 * Terms P/Q x are rounded toward zero. Every constraint of every case must hold. E.g. an
 * exact count "v >= 4 N; v <= 4 N"; a range "v >= 9/10 N; v <= 11/10 N + 64"; an identity
 * within 2% (of the larger side) + 64 "49 v <= 50 a + 50 b + 3200; 50 v >= 49 a + 49 b -
 * 3200" (the same as |v - (a+b)| <= max(v, a+b) / 50 + 64 for v, a + b >= 0); a contrast: a
 * lower bound on case 0, an upper one on case 1 ("stays near zero on kernel Y").
 *
 * kind (enum ev_rel) says what the relation is: EXACT, RANGE, IDENTITY, CONTRAST, or QUIET
 * (an upper bound is all there is: the event has no driver on this system - a peer socket,
 * I/O, isochronous traffic - counted apart by `list coverage`). Every other kind bounds v
 * from below above zero in some case, so a dead counter fails it.
 *
 * The engine follows the kernel: the core kernels (EVK_LOOP .. EVK_LDMXCSR) run in
 * tests/checks/events.c (core counters, extra MSRs, load-latency PEBS, line-state
 * preparation; uncore events counted beside them), the uncore kernels (EVK_U_*) in
 * tests/measure/events_uncore.c (uncore boxes, the UCLK counter, U and T).
 *
 * model: the name of the model whose file holds the row: "nhm" (tests/expect/seed_nhm.c:
 * seed 000_666bff9af8f20138.txt, Nehalem core and uncore; checked on Nehalem/Westmere) or
 * "skl" (tests/expect/seed_skl.c: seed 001_dad58ad4a296bcf3.txt, Skylake client uncore).
 * EVENT: the seed's spelling (EVENT.UMASK); the encoding comes from the model's event
 * catalogs (pmu/catalog.h) by that name, never from this table. source: where the seed
 * says it.
 *
 * The canonical event list is the table itself. Rule (seed 000): every EVENT.UMASK the
 * seed names in a table or its text, with (1) names wrapped over lines joined (after the
 * dot, before or after an underscore, or inside a word: "RT_TO_LLC_R" + "ESP"); (2) a
 * wrap-truncated prefix ("UOPS_RETIRED.ACTIVE_", "MEM_LOAD_RETIRED.LLC") not separate;
 * (3) placeholders not events (OFFCORE_RESPONSE_0.REQUEST.RESPONSE, UNC_GQ_ALLOC.X,
 * UNC_GQ_TRACKER_OCCUP.X); (4) the text's misspellings and other names of a table event
 * under the table's name (UOPC_EXECUTED, CORE_STALLS_*, MACHINE_CLEAR.CYCLES,
 * MEM_LOAD_RETIRED.DTLB_MISSES, the LLC_HIT_* / OTHER_CORE_HIT_HITM names of Table 3's
 * sources, MEM_UNCORE_RETIRED.NON_LOCAL_DRAM, UNC_IMC_WRITES.FULL, the family name
 * L1D_CACHE.STORE); (5) an event only the text defines (CPU_CLK_UNHALTED.TOTAL_CYCLES,
 * UOPS_ISSUED.CORE_CYCLES_ACTIVE) is one. That gives 430 events for seed 000 (258 core,
 * 172 uncore); seed 001 names 20 in Tables 3-1 and 3-2 (Table 3-3's five IMC counters are
 * free-running counters, not events: not in the table).
 */
#ifndef TESTS_EXPECT_SEED_H
#define TESTS_EXPECT_SEED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "pmu/catalog.h"
#include "pmu/pmu.h"
#include "tests/kernels/kernels.h"

/* What a row runs: a workload, a kernel of tests/kernels/kernels.h's table and what is done
 * before it (ev_workload()). Memory kernels take a working set in bytes, the others
 * iterations. */
enum ev_kernel {
	EVK_NONE = 0,
	EVK_LOOP,	/* loop4: add, add, dec, jnz (4 instructions, 1 branch, no memory) */
	EVK_ADD,	/* add_chain: 8 dependent adds, dec, jnz */
	EVK_IMUL,	/* imul_chain: 4 dependent imuls, dec, jnz */
	EVK_DIV,	/* div_loop: xor, div, 8 dependent adds, dec, jnz */
	EVK_CHASE,	/* pointer chase, one node per 64-byte line, warm: n = nodes (a lap) */
	EVK_CHASE_COLD,	/* ... every line of the run CLFLUSHed before it: n = min(nodes, 20000) */
	EVK_CHASE_PAGE,	/* ... one node per 4 KiB page (a new page each step), warm */
	EVK_LFSR,	/* branch_lfsr: one random conditional branch per iteration */
	EVK_MIX,	/* branch_mix: every branch kind */
	EVK_IND_MISP,	/* ind_misp: random indirect jump and call targets, a misdirected return */
	EVK_STORE,	/* store_plain: 64-byte lines written with plain stores, size bytes */
	EVK_STORE_NT,	/* store_nt: streaming stores (MOVNTI), size bytes */
	EVK_BIGCODE,	/* bigcode: 64 KiB of straight-line code, cold (lines flushed) */
	EVK_SMALLCODE,	/* smallcode: 2 KiB of code, warm */
	EVK_X87,	/* x87_loop: x87 adds and multiplies */
	EVK_MMX,	/* mmx_loop: MMX packed adds */
	EVK_SSE_PS,	/* sse_loop variants: packed single */
	EVK_SSE_PD,	/* packed double */
	EVK_SSE_SS,	/* scalar single */
	EVK_SSE_SD,	/* scalar double */
	EVK_SSE_INT,	/* packed integer (PADDD on XMM) */
	EVK_LOCK,	/* lock add, one per 64-byte line, size bytes, warm (lines modified) */
	EVK_LOCK_E,	/* ... every line made clean (flushed, read) before each run */
	EVK_STORE_E,	/* store_plain, every line made clean before each run */
	EVK_CHASE_CLEAN, /* the warm chase over lines flushed once after they were built: clean */
	EVK_LOAD_COLD,	/* load_stream: 8 loads per line, every line flushed before each run */
	/* With a second CPU (the first chosen AP), before each run, over the working set: */
	EVK_CHASE_OTHER, /* flushed, then read by the other CPU: it alone holds them, clean */
	EVK_CHASE_SHARED, /* flushed, read by the other CPU and here: both hold them shared */
	EVK_CHASE_HITM,	/* flushed, then written by the other CPU: modified there */
	EVK_STORE_SHARED, /* store_plain over lines both CPUs read first (shared) */
	EVK_LOCK_SHARED, /* lock over lines both CPUs read first (shared) */
	EVK_LCP,	/* instructions with a length-changing prefix (66H + imm16) */
	EVK_DENORM,	/* x87 on denormal inputs: a microcode assist each */
	EVK_FLDCW,	/* fnstcw + fldcw twice per iteration */
	EVK_LDMXCSR,	/* stmxcsr + ldmxcsr twice per iteration */
	/* The uncore kernels (tests/measure/events_uncore.c): each its own size, no `size`. */
	EVK_U_LOOP,		/* loop4, 100000 iterations: nothing leaves the core */
	EVK_U_L2,		/* warm chase over half the L2: every step hits the L2 */
	EVK_U_LLC,		/* warm chase over min(4 x L2, LLC/2), its lines written back
				 * once after it is built (clean: E in the LLC): a step misses the
				 * L2 with p >= 3/4 and hits the LLC */
	EVK_U_DRAM,		/* chase over 2N flushed lines (<= 64 MiB): every step misses
				 * every cache */
	EVK_U_EVICT_CLEAN,	/* before: an LLC-sized region read; then the DRAM chase: each
				 * fill evicts one clean line this core read */
	EVK_U_EVICT_DIRTY,	/* before: an LLC-sized region written; then the DRAM chase:
				 * each fill evicts one modified line */
	EVK_U_STORE_NT,		/* MOVNTI, one full line a step (write-combined, uncached) */
	EVK_U_STORE_LLC,	/* before: an L2 of other lines read (the L2's modified lines
				 * written back); then plain stores over 2N lines, N >= the L2's
				 * lines, within the LLC: each line an RFO hit in the LLC and,
				 * beyond the L2, one writeback */
	EVK_U_PINGPONG,		/* two CPUs hand one modified line back and forth: N = 2n - 1
				 * cross-core transfers (tests/kernels/xcore.S) */
	EVK_U_XCLEAN,		/* before: another CPU reads the 2N lines (clean, E there); then
				 * this CPU chases them */
	EVK_U_XDROP,		/* before: another CPU reads the 2N lines, then reads twice its L2
				 * of other lines (dropping them silently); then this CPU chases */
	EVK_COUNT
};
#define EVK_U_FIRST	EVK_U_LOOP
/* Whether kernel k is an uncore kernel (run by tests/measure/events_uncore.c). */
static inline bool ev_kernel_uncore(unsigned k)
{
	return k >= EVK_U_FIRST && k < EVK_COUNT;
}

enum ev_rel {
	EVR_NONE = 0,		/* no expectation: `why` says why */
	EVR_EXACT,		/* an exact count from the kernel's model or the seed */
	EVR_RANGE,		/* a lower bound where the kernel drives the event, an upper bound */
	EVR_IDENTITY,		/* the seed's identities and a queue's own: parts sum to the whole,
				 * stall + active = cycles, occupancy >= allocations, ... */
	EVR_CONTRAST,		/* counts on one kernel, stays near zero on another */
	EVR_QUIET,		/* an upper bound is all there is (no driver on this system) */
	EVR_COUNT
};

#define EV_MAX_REFS	8	/* reference events of a case: variables a..h */
#define EV_MAX_CASES	2

struct ev_case {
	uint8_t kernel;			/* enum ev_kernel; EVK_NONE: no such case */
	uint32_t size;			/* core kernels: iterations or bytes; uncore: 0 */
	const char *refs[EV_MAX_REFS];	/* seed names of the model, NULL-terminated (or all set) */
	const char *rel;		/* the relation over v, a.., N, U, T */
};

struct events_row {
	const char *model;		/* its model's name (the check is events.<model>.<EVENT>) */
	const char *event;		/* the seed's spelling */
	uint8_t kind;			/* enum ev_rel */
	struct ev_case c[EV_MAX_CASES];
	const char *source;		/* seed table / section */
	const char *why;		/* NONE: the reason; else why a real part meets it (or NULL) */
};

#define CASE(k, s, rel)			{ (k), (s), { 0 }, (rel) }
#define CASER(k, s, rel, ...)		{ (k), (s), { __VA_ARGS__ }, (rel) }
#define UCASE(k, rel)			{ (k), 0, { 0 }, (rel) }
#define UCASER(k, rel, ...)		{ (k), 0, { __VA_ARGS__ }, (rel) }
#define NOCASE				{ EVK_NONE, 0, { 0 }, NULL }
#define ROW(m, ev, kind, c0, c1, src, why)	{ (m), (ev), (kind), { c0, c1 }, (src), (why) }
#define NONE(m, ev, why, src)		ROW(m, ev, EVR_NONE, NOCASE, NOCASE, src, why)

#define EV_MAX_UARCHS	4
#define EV_MAX_CATALOGS	4

/* A seed model: tests/expect/seed_<model>.c defines seed_model_<model>. */
struct events_model {
	const char *model;	/* "nhm" (the check is events.<model>) */
	const char *seed;	/* "000_666bff9af8f20138.txt" */
	const char *cpu;	/* "Nehalem/Westmere", for SKIP reasons and `list coverage` */
	enum pmu_uarch uarchs[EV_MAX_UARCHS];	/* the CPUs it runs on (UARCH_UNKNOWN ends) */
	const char *catalogs[EV_MAX_CATALOGS];	/* where its names resolve, in lookup order
						 * (pmu_catalog_by_model; NULL ends) */
	const struct events_row *rows;	/* its table, one row per event */
	unsigned count;
};

/* The models, in tests/expect/seed_models.h's order; how many. */
extern const struct events_model *const events_models[];
extern const unsigned events_nmodels;
/* The model named `model`, or NULL. */
const struct events_model *events_model_by_name(const char *model);
/* Whether m's events are those of microarchitecture u. */
bool events_model_runs_on(const struct events_model *m, enum pmu_uarch u);
/* m's catalogs that this build has, in lookup order, into cats[0..max); how many. */
unsigned events_model_catalogs(const struct events_model *m, const struct pmu_catalog **cats,
			       unsigned max);

/* The iterations n a (kernel, size) is measured over (count(2n) - count(n)): the size for
 * compute kernels; nodes for a warm chase (a lap), half the lines up to EV_COLD_STEPS for a
 * cold one (the run at 2n visits 2n distinct flushed lines), half the lines for a chase over
 * lines another core prepared (the run at 2n visits each once: a line's first arrival is
 * what those rows count, and a second lap would find it here already), lines for the store
 * kernels. */
#define EV_COLD_STEPS	20000
uint64_t events_iters(unsigned kernel, uint32_t size);

/* A chase's size with EV_PAST_L2 set must miss the L2 and fit in the L3: the bytes chased
 * are the larger of the rest of the size and twice the L2 that CPUID leaf 4 reports (QEMU's
 * Nehalem: 4 MiB L2, so 8 MiB in its 16 MiB L3), and the check SKIPs, naming the sizes,
 * when that is more than half the L3 or there is no L3. The table's size is the minimum;
 * events_ws_bytes() gives the bytes (the size itself where leaf 4 reports no L2), or 0 with
 * the reason in err. */
#define EV_PAST_L2	0x80000000u
uint64_t events_ws_bytes(uint32_t size, uint64_t l2, uint64_t l3, char *err, size_t len);

/* A workload (enum ev_kernel): its name, the kernel it runs, and how a size becomes its
 * iterations; the engines (tests/checks/events.c, tests/measure/events_uncore.c) do what
 * its comment above says before it. */
struct ev_workload {
	const char *name;	/* in results and `list coverage` ("chase_cold") */
	uint8_t kernel;		/* enum kernel_id; K_COUNT for EVK_NONE */
	uint16_t iter_bytes;	/* core memory workloads: n = size / iter_bytes; 0: n = size */
	uint32_t max_iters;	/* and at most this many, 0: no cap (the cold chase's) */
	const char *size_text;	/* uncore workloads: their own size, in words */
};
/* Workload k, or NULL past the end. */
const struct ev_workload *ev_workload(unsigned k);
/* Its name for results and `list coverage`; an uncore workload's size in words ("?"). */
const char *ev_kernel_name(unsigned k);
const char *ev_kernel_size_text(unsigned k);
const char *ev_kind_name(unsigned kind);

/* How many cases row r has (0 for NONE); how many references case c names. */
unsigned events_ncases(const struct events_row *r);
unsigned events_nrefs(const struct ev_case *c);
/* The row of `event` in model m, or NULL. */
const struct events_row *events_find(const struct events_model *m, const char *event);

/* The values a relation is evaluated over. */
struct ev_vals {
	int64_t v, ref[EV_MAX_REFS];
	int64_t n, uclk, us;
};

/* Variables, for ev_rel_parse(). */
#define EVV_V		(1U << 0)
#define EVV_REF(i)	(1U << (1 + (i)))
#define EVV_N		(1U << 9)
#define EVV_U		(1U << 10)
#define EVV_T		(1U << 11)

/*
 * Parses rel; returns 0 and fills *uses (EVV_* bits of the variables it names), *v_lower
 * (some constraint bounds v from below) and *v_upper, or -1 with err naming the position.
 */
int ev_rel_parse(const char *rel, unsigned *uses, bool *v_lower, bool *v_upper, char *err,
		 size_t errlen);
/*
 * Evaluates rel over x: true when every constraint holds; otherwise false with failed set
 * to the first broken constraint as written and its two sides' values ("v >= 3/4 N: 12 <
 * 37500").
 */
bool ev_rel_eval(const char *rel, const struct ev_vals *x, char *failed, size_t len);

/*
 * The bounds rel puts on v given the other values of x (every constraint solved for v; v's
 * coefficients are whole numbers in the table), for results: false if rel is malformed.
 * ev_bounds_fmt writes them as "N", "LO..HI", ">=LO" or "<=HI".
 */
struct ev_bounds {
	bool has_lo, has_hi;
	int64_t lo, hi;
};
bool ev_rel_v_bounds(const char *rel, const struct ev_vals *x, struct ev_bounds *b);
void ev_bounds_fmt(const struct ev_bounds *b, char *buf, size_t len);

/* Whether a row is well-formed and, unless QUIET or NONE, bounds v from below in some case
 * (a dead counter fails it); why (if not NULL) names the defect. */
bool events_row_ok(const struct events_row *r, const char **why);

/* `list coverage`: per model, how many events have an expectation and which do not, why. */
void events_coverage_print(void);

#endif /* TESTS_EXPECT_SEED_H */
