/* SPDX-License-Identifier: MIT */
/*
 * Expectations for the seeds' events: one table (tests/events_table.c) binding every event
 * a seed's tables name to a kernel, a size and a relation a real PMU must satisfy, the pure
 * evaluation of those relations (host-tested), and `list coverage`.
 *
 * THE TABLE FORMAT (one struct events_row per event of a seed, written with the macros
 * below; rows of a model in any order, each event once):
 *
 *   EXACT(model, EVENT, kernel, size, per_iter, source)
 *	the differential count over the kernel's n extra iterations is per_iter * n exactly
 *	(per_iter in thousandths: 1000 = one per iteration), from the kernel's model;
 *   RANGE(model, EVENT, kernel, size, lo, hi, source)
 *	lo * n <= count <= hi * n (thousandths; hi = NOHI: no upper bound), with the slack
 *	EV_SLACK counts on either side;
 *   IDENT(model, EVENT, kernel, size, "A+B-C", tol, lo, hi, source)
 *	count(EVENT) = count(A) + count(B) - count(C) within tol thousandths of the larger
 *	side plus EV_SLACK, all counted on the same kernel and size; and EVENT itself in
 *	lo..hi per iteration (lo > 0, so a dead counter cannot pass as 0 = 0 + 0). A term is
 *	another event name of the same model, or "n" (the iteration count);
 *   CONTRAST(model, EVENT, kernel, size, lo, kernel2, size2, hi2, source)
 *	count >= lo * n on (kernel, size) and <= hi2 * n2 on (kernel2, size2): it counts where
 *	the kernel drives it and stays quiet where nothing does;
 *   NOEXP(model, EVENT, reason, source)
 *	no relation can be bound here (two sockets, I/O, a busy second thread ...): the reason
 *	is printed by `list coverage`. At most 10% of a model's events.
 *
 * model: "nhm" (seed 000_666bff9af8f20138.txt, Nehalem core and uncore; checked on
 * Nehalem/Westmere) or "skl" (seed 001_dad58ad4a296bcf3.txt, Skylake client uncore).
 * EVENT: the seed's spelling (EVENT.UMASK); the encoding comes from the event catalog
 * (pmu/catalog.h) by that name, never from this table. kernel: enum ev_kernel below, with
 * size its iterations (compute kernels) or working set in bytes (memory kernels).
 * source: where the seed says it ("Table 3", "Table 1 text: stall + active = cycles").
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
 * 172 uncore); seed 001 names 20 (Tables 3-1 to 3-3).
 */
#ifndef TESTS_EVENTS_H
#define TESTS_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a row runs. Memory kernels take a working set in bytes, the others iterations. */
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
	EVK_COUNT
};

enum ev_rel {
	EVR_NONE = 0,		/* no expectation: `why` says why */
	EVR_EXACT,
	EVR_RANGE,
	EVR_IDENTITY,
	EVR_CONTRAST,
};

#define NOHI		INT32_MAX	/* no upper bound */
#define EV_SLACK	64		/* counts of slack around every bound but EXACT's */
#define EV_MAX_TERMS	8		/* terms of an identity */

struct events_row {
	const char *model;	/* "nhm", "skl" */
	const char *event;	/* the seed's spelling */
	uint8_t rel;		/* enum ev_rel */
	uint8_t kernel;		/* enum ev_kernel */
	uint8_t kernel2;	/* CONTRAST: the quiet kernel */
	uint32_t size, size2;
	int32_t lo, hi;		/* thousandths per iteration (EXACT: lo == hi) */
	int32_t hi2;		/* CONTRAST: on kernel2 */
	int32_t tol;		/* IDENTITY: thousandths */
	const char *terms;	/* IDENTITY: "A+B-C" */
	const char *source;	/* seed table / section */
	const char *why;	/* NONE: the reason; else an optional note */
};

#define EXACT(m, e, k, s, per, src) \
	{ m, e, EVR_EXACT, k, 0, s, 0, per, per, 0, 0, NULL, src, NULL }
#define RANGE(m, e, k, s, l, h, src) \
	{ m, e, EVR_RANGE, k, 0, s, 0, l, h, 0, 0, NULL, src, NULL }
#define IDENT(m, e, k, s, t, tl, l, h, src) \
	{ m, e, EVR_IDENTITY, k, 0, s, 0, l, h, 0, tl, t, src, NULL }
#define CONTRAST(m, e, k, s, l, k2, s2, h2, src) \
	{ m, e, EVR_CONTRAST, k, k2, s, s2, l, NOHI, h2, 0, NULL, src, NULL }
#define NOEXP(m, e, reason, src) \
	{ m, e, EVR_NONE, EVK_NONE, 0, 0, 0, 0, 0, 0, 0, NULL, src, reason }

extern const struct events_row events_rows[];
extern const unsigned events_nrows;

/* The models of the table, with their seed and the CPU they run on. */
struct events_model {
	const char *model;	/* "nhm" */
	const char *seed;	/* "000_666bff9af8f20138.txt" */
	const char *cpu;	/* "Nehalem/Westmere" */
	unsigned first, count;	/* its rows: events_rows[first .. first + count) */
};
/* Sorted by model at first use; NULL-safe; the number of models. */
unsigned events_models(const struct events_model **out);
const struct events_model *events_model_by_name(const char *model);

/* The iterations n a (kernel, size) is measured over (count(2n) - count(n)): the size for
 * compute kernels; nodes for a warm chase (a lap), half the lines up to EV_COLD_STEPS for a
 * cold one (the run at 2n visits 2n distinct flushed lines), lines for the store kernels. */
#define EV_COLD_STEPS	20000
uint64_t events_iters(unsigned kernel, uint32_t size);

/* Kernel names for results and `list coverage`. */
const char *ev_kernel_name(unsigned k);

/*
 * Evaluating a row from measured counts (pure; host-tested). `get` returns the differential
 * count of event `name` of the row's model on (kernel, size), or false when it was not
 * measured; n and n2 are the iterations the differential covered on each kernel. True when
 * the relation holds; detail (len bytes) gets "measured=... expected=..." naming the
 * relation either way.
 */
typedef bool (*ev_get_fn)(void *ctx, const char *name, unsigned kernel, uint32_t size,
			  int64_t *count);
bool events_eval(const struct events_row *r, ev_get_fn get, void *ctx, uint64_t n, uint64_t n2,
		 char *detail, size_t len);

/* The terms of an identity: up to max names (pointers into buf) with their signs. */
unsigned events_terms(const char *terms, char *buf, size_t buflen, const char **names,
		      int *signs, unsigned max);

/* Whether a row can fail on a dead counter (every relation but NONE needs a lower bound
 * above zero somewhere) and is otherwise well-formed; why (if not NULL) names the defect. */
bool events_row_ok(const struct events_row *r, const char **why);

/* `list coverage`: per model, how many events have an expectation and which do not, why. */
void events_coverage_print(void);

#endif /* TESTS_EVENTS_H */
