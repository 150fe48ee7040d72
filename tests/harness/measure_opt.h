/* SPDX-License-Identifier: MIT */
/* measure= option: the syntax of user event lists (events, kernel, size), pure and host-tested. */
#ifndef TESTS_HARNESS_MEASURE_OPT_H
#define TESTS_HARNESS_MEASURE_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tests/kernels/kernels.h"

#define MEASURE_MAX_SETS	8	/* measure= options kept */
#define MEASURE_MAX_EVENTS	16	/* events in one set */
#define MEASURE_NAME_LEN	80	/* an event's name as written (model prefix included) */
#define MEASURE_LABEL_LEN	24	/* a raw event's name= label */
#define MEASURE_ITERS_MAX	(1ULL << 30)

/* The workloads a set may run (KERNEL[:SIZE]): a kernel of tests/kernels/kernels.h's table, and
 * what is done before it (measure_kernels[]). */
enum measure_kernel {
	MK_LOOP4 = 0,
	MK_ADD_CHAIN,
	MK_IMUL_CHAIN,
	MK_DIV_LOOP,
	MK_BRANCH_LFSR,
	MK_BRANCH_ALT,
	MK_BIGCODE,
	MK_SMALLCODE,
	MK_CHASE,
	MK_CHASE_COLD,
	MK_STORE_PLAIN,
	MK_STORE_NT,
	MK_STORE_NTDQ,
	MK_COUNT
};

/* What runs before each run of the kernel, beside its argument. */
enum measure_prep {
	MP_NONE = 0,		/* nothing: an iteration kernel, or lines of the test buffer */
	MP_LFSR,		/* branch_lfsr: its LFSR set to the same state */
	MP_ALT,			/* branch_pattern taking its branch every other time */
	MP_CHASE,		/* a chase built over SIZE bytes of the test buffer */
	MP_CHASE_COLD,		/* ... whose lines are CLFLUSHed before each run */
};

struct measure_kernel_info {
	const char *name;	/* as measure= writes it: the kernel's own, or the workload's */
	uint8_t kernel;		/* enum kernel_id: what runs; its memory flag says whether SIZE
				 * is bytes of the test buffer or iterations */
	uint8_t prep;		/* enum measure_prep */
	uint8_t iter_bytes;	/* memory kernels: SIZE / iter_bytes iterations; 0: SIZE */
	uint64_t def_size;	/* SIZE when none is given */
	uint64_t min, max;	/* SIZE range */
	uint64_t align;		/* SIZE must be a multiple of this */
	const char *what;	/* one line for the README and `list` */
};
extern const struct measure_kernel_info measure_kernels[MK_COUNT];

/* One event of a set, as written. */
struct measure_event {
	bool raw;			/* cpu/.../ or rHEX */
	char name[MEASURE_NAME_LEN];	/* named: the name (no modifiers); raw: "" */
	char label[MEASURE_LABEL_LEN];	/* raw: name=LABEL, or "" */
	uint8_t event, umask, cmask;	/* raw: the fields; named: cmask if cmask_set */
	bool cmask_set;
	bool inv, edge, any;		/* raw: the flags; named: set by a modifier (added to
					 * the catalog's encoding) */
	bool usr, os;			/* privilege levels; both when none was asked */
};

struct measure_set {
	struct measure_event ev[MEASURE_MAX_EVENTS];
	unsigned nev;
	enum measure_kernel kernel;
	uint64_t size;			/* as given, or the kernel's default */
	bool size_set;
	char where[48];			/* "pmuboot.cfg line 3" / "command line", for errors */
};

/*
 * Parses the value of one measure= option (s[0..n), not NUL-terminated) into *set. On error
 * returns -1 with err naming the offending part, without the "measure=...: " prefix (the
 * options parser adds it), e.g. "unknown field 'evnt' in 'cpu/evnt=1/'". *set is written
 * only on success.
 */
int measure_parse(struct measure_set *set, const char *s, size_t n, char *err, size_t errlen);

/* The event as the parser reads it back ("MEM_LOAD_RETIRED.L3_MISS:u", "cpu/event=0xd1,
 * umask=0x20,cmask=1,inv/"). Returns like snprintf. */
int measure_event_format(const struct measure_event *e, char *buf, size_t len);
/* The whole set ("A,B@chase:1M"). Returns like snprintf. */
int measure_set_format(const struct measure_set *s, char *buf, size_t len);

/* Iterations a set's differential adds (count(2n) - count(n)) and what one is: n for the
 * iteration kernels; chase: its nodes (SIZE/64, one pass); chase_cold: SIZE/128 steps (each
 * a cold line); stores: SIZE/128 lines. */
uint64_t measure_iterations(const struct measure_set *s);
/* Bytes of the test buffer the set needs (0 for the iteration kernels). */
uint64_t measure_buffer_bytes(const struct measure_set *s);

#endif /* TESTS_HARNESS_MEASURE_OPT_H */
