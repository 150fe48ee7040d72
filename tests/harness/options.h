/* SPDX-License-Identifier: MIT */
/* Run options: parsed from pmuboot.cfg on the ESP and from UEFI load options (pure logic). */
#ifndef TESTS_HARNESS_OPTIONS_H
#define TESTS_HARNESS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tests/harness/measure_opt.h"

#define OPT_MAX_GLOBS	16
#define OPT_GLOB_LEN	64

#define OPT_REPS_DEFAULT	11
#define OPT_REPS_MIN		1
#define OPT_REPS_MAX		1000000
#define OPT_SIZE_MIN		(4ULL << 10)	/* 4 KiB */
#define OPT_SIZE_MAX		(1ULL << 40)	/* 1 TiB */
#define OPT_SERIAL_PORT_DEFAULT	0x3F8
#define OPT_SERIAL_BAUD_DEFAULT	115200
#define OPT_WATCHDOG_MS_DEFAULT	10000
#define OPT_WATCHDOG_MS_MIN	1
#define OPT_WATCHDOG_MS_MAX	3600000
#define OPT_CPUS_MAX		64	/* CPU numbers 0..63 (0: the bootstrap processor) */

enum opt_on_exit {
	ON_EXIT_DEFAULT = 0,	/* shutdown, or return when boot-services=keep */
	ON_EXIT_SHUTDOWN,
	ON_EXIT_REBOOT,
	ON_EXIT_HALT,
	ON_EXIT_RETURN,
};

enum opt_boot_services {
	BOOT_SERVICES_EXIT = 0,
	BOOT_SERVICES_KEEP,
};

/* oracle-fault=: a deliberately wrong model, to prove the oracle harness fails on one. */
enum opt_oracle_fault {
	ORACLE_FAULT_NONE = 0,
	ORACLE_FAULT_LOADS,	/* one load too few in every prediction */
	ORACLE_FAULT_LBR,	/* the last predicted branch target off by one byte */
	ORACLE_FAULT_INSNS,	/* one instruction too many */
};

struct options {
	/* tests=GLOB[,GLOB...]; ntests == 0 means the default set. A glob written !GLOB
	 * leaves out what it matches (options_select). */
	char tests[OPT_MAX_GLOBS][OPT_GLOB_LEN];
	unsigned ntests;
	uint32_t reps;			/* reps=N */
	bool reps_set;
	uint64_t size;			/* size=N[K|M|G|T] in bytes, multiple of 4 KiB */
	bool size_set;
	uint16_t serial_port;		/* serial=PORT[,BAUD] */
	uint32_t serial_baud;
	enum opt_on_exit on_exit;	/* on-exit=shutdown|reboot|halt|return */
	enum opt_boot_services boot_services;	/* boot-services=exit|keep */
	bool force_pmu;			/* force-pmu */
	bool list;			/* list, list=WHAT[,WHAT] */
	unsigned list_what;		/* LIST_CHECKS | LIST_EVENTS | LIST_COVERAGE */
	bool icount;			/* icount: TSC counts retired instructions (QEMU -icount shift=0) */
	bool oracle;			/* oracle: print every region's model prediction */
	enum opt_oracle_fault oracle_fault;	/* oracle-fault=none|loads|lbr|insns */
	bool pmi_nmi;			/* pmi=nmi: PMIs through the LVT as NMIs (pmi=interrupt) */
	bool bts;			/* bts: run the branch trace store checks */
	uint32_t watchdog_ms;		/* watchdog=MS: default per-check time limit */
	/* cpus=all|LIST: bit i = CPU i (0 the BSP, then the MADT's others in order); LIST is
	 * numbers and ranges, "0,2-3". Default all. */
	uint64_t cpus;
	bool cpus_set;
	/* measure=EVENT[,EVENT...]@KERNEL[:SIZE], repeatable within one source (pmuboot.cfg, the
	 * command line); the first in a later source replaces the earlier source's sets;
	 * measure=none clears them. */
	struct measure_set measure[MEASURE_MAX_SETS];
	unsigned nmeasure;
};

/* list=: what `list` prints (bare `list`: the checks and the events). */
#define LIST_CHECKS	(1U << 0)
#define LIST_EVENTS	(1U << 1)
#define LIST_COVERAGE	(1U << 2)

void options_defaults(struct options *o);

/*
 * Applies one token: "key=value" or a bare flag ("list", "force-pmu", "icount").
 * A later token replaces what an earlier one set for the same key.
 * On error returns -1 and writes a one-line message naming the option and the offending
 * value into err, e.g. "reps=abc: not a number", "frob=1: unknown option",
 * "size=5X: unknown suffix 'X' (use K, M, G or T)", "reps=0: out of range (1..1000000)".
 */
int options_parse_token(struct options *o, const char *tok, char *err, size_t errlen);

/*
 * Applies a whole text: a pmuboot.cfg file or a command line. Tokens are separated by
 * spaces, tabs, CR or LF; '#' starts a comment running to the end of the line. The text
 * need not be NUL-terminated (len bytes are read; a NUL ends it early). `source` names the
 * origin in error messages: "pmuboot.cfg line 3: reps=0: out of range (1..1000000)";
 * for a command line pass e.g. "command line" and the line number is omitted when the text
 * has a single line. Stops at the first error and returns -1.
 */
int options_parse_text(struct options *o, const char *text, size_t len, const char *source,
		       char *err, size_t errlen);

/* Cross-option checks, e.g. "on-exit=return needs boot-services=keep". 0 or -1 + err. */
int options_validate(const struct options *o, char *err, size_t errlen);

/*
 * How tests= selects the check full_name ("group.name" or "group.name@apicN"): a !GLOB that
 * matches it leaves it out (OPT_SEL_OUT) whatever else matches; without a glob that is not
 * a !GLOB, the default set applies (OPT_SEL_DEFAULT); else a matching glob that names the
 * group itself ("group." and more) selects even a manual check (OPT_SEL_GROUP), one that
 * matches otherwise selects the others (OPT_SEL_MATCH); OPT_SEL_NONE when none matches.
 */
enum opt_select { OPT_SEL_NONE, OPT_SEL_OUT, OPT_SEL_DEFAULT, OPT_SEL_MATCH, OPT_SEL_GROUP };
enum opt_select options_select(const struct options *o, const char *full_name);

/* The effective on-exit action (resolves ON_EXIT_DEFAULT). */
enum opt_on_exit options_on_exit(const struct options *o);

/*
 * One line listing every effective option in the same key=value syntax the parser takes,
 * e.g. "tests=* reps=11 size=auto serial=0x3F8,115200 on-exit=shutdown boot-services=exit
 * watchdog=10000". Flags appear only when set. Returns like snprintf.
 */
int options_format(const struct options *o, char *buf, size_t len);

/* Parses "N[K|M|G]" (decimal or 0x hex N); 0 on success, -1 on error (bad digit, suffix,
 * overflow). Exposed for tests. */
int options_parse_size(const char *s, uint64_t *out);
/* Parses a decimal or 0x-prefixed hex unsigned number; 0 or -1 (empty, bad digit, overflow). */
int options_parse_u64(const char *s, uint64_t *out);

#endif /* TESTS_HARNESS_OPTIONS_H */
