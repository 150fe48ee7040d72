/* SPDX-License-Identifier: MIT */
/* Host report tool: a pmuboot serial log parsed into checks, values and data series; JSON. */
#ifndef TESTS_REPORT_REPORT_H
#define TESTS_REPORT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define REPORT_FORMAT	"pmuboot-report/1"

enum status { ST_PASS, ST_FAIL, ST_SKIP };

/* A measured= or expected= value: its text, and what could be read from it. */
enum value_kind {
	VK_TEXT,	/* free text */
	VK_NUMBER,	/* num */
	VK_RANGE,	/* lo..hi */
	VK_BOUND,	/* op num: >=, >, <=, < */
	VK_TOL,		/* num ± tol */
};

struct value {
	char *text;		/* NULL: the detail has no such value */
	enum value_kind kind;
	double num, lo, hi, tol;
	char op[3];
	char *unit;		/* unit word after the number, when one pmuboot uses; or NULL */
};

struct kv {
	char *key;
	char *text;
	bool is_num;
	double num;
};

/* One "# data: SERIES key=value ..." line. */
struct datum {
	char *series;
	struct kv *kv;
	size_t nkv;
	const char *check;	/* the check it came with (points into struct check) */
};

struct check {
	unsigned number;
	char *name;		/* as printed, "group.name[@apicN]" */
	char *base;		/* without "@apicN" */
	char *group;		/* up to the first dot */
	long cpu;		/* APIC ID from @apicN, else the BSP's; -1 unknown */
	bool cpu_tagged;
	enum status status;
	char *detail;		/* after " # " (the skip reason without "SKIP ") */
	struct value measured, expected;
	char *unit;		/* unit= token, else the measured, else the expected value's */
	char **diag;		/* diagnostic lines without "# " */
	size_t ndiag;
	struct datum *data;
	size_t ndata;
};

struct header_line {
	char *key;		/* "cpu", "cpu 0", "pmuboot" */
	char *value;
};

struct report {
	struct header_line *hdr;
	size_t nhdr;
	struct check *checks;
	size_t nchecks;
	long plan;		/* -1: no plan line */
	bool tap;		/* a "TAP version" line */
	bool complete;		/* the closing "N passed, N failed, N skipped" line */
	long sum_pass, sum_fail, sum_skip;
	char *bail;		/* Bail out! reason, or NULL */
	char **errors;		/* "# error: ..." lines */
	size_t nerrors;
	long bsp_apic;		/* -1 unknown */
};

/* Parses a log held in buf (len bytes, need not be NUL-terminated). Returns 0, or -1 with
 * err naming what is wrong (not a pmuboot log, a malformed result line, ...). */
int report_parse(const char *buf, size_t len, struct report *r, char *err, size_t errlen);
void report_free(struct report *r);

/* Parses the text of a measured=/expected= value into v (v->text a copy of text). */
void value_parse(const char *text, struct value *v);
void value_free(struct value *v);

const char *status_name(enum status s);
/* The header line's value for key, or NULL (the first, if repeated). */
const char *report_header(const struct report *r, const char *key);

/* results.json / JUnit XML / gnuplot pictures (tests/report/output.c). Return 0 or -1 with
 * err set. */
int write_json(const struct report *r, const char *log_name, FILE *f);
int write_junit(const struct report *r, FILE *f);
/* Writes the data files and plots.gp into dir and runs gnuplot there; returns 0, -1 when
 * gnuplot could not run or failed (err says why), and fills what[] with the charts drawn. */
int write_plots(const struct report *r, const char *dir, char *err, size_t errlen,
		char *what, size_t whatlen);

/* JSON text escaping (quotes included). */
void json_str(FILE *f, const char *s);

#endif /* TESTS_REPORT_REPORT_H */
