/* SPDX-License-Identifier: MIT */
/*
 * pmuboot-report: turns a pmuboot serial log into results.json, JUnit XML and gnuplot
 * pictures, and compares two results.json.
 *
 *   pmuboot-report report LOG [--out DIR]     (default DIR: build/report)
 *   pmuboot-report compare A.json B.json [--threshold PCT] [--min-abs X] [--moved-is-worse]
 *
 * report exits 0 (all written), 1 (results.json and junit.xml written, the pictures not:
 * gnuplot missing or failing), 2 (bad input or arguments, named). compare exits 0 (no
 * check got worse), 1 (some did), 2 (bad input, named).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/report/compare.h"
#include "tests/report/json.h"
#include "tests/report/report.h"

#define MAX_INPUT	(512UL << 20)

static const char *who = "report";	/* the command, in messages */

static int usage(void)
{
	fprintf(stderr, "usage: pmuboot-report report LOG [--out DIR]\n"
		"       pmuboot-report compare A.json B.json [--threshold PCT] [--min-abs X] "
		"[--moved-is-worse]\n");
	return 2;
}

/* Reads a whole file; NULL with a message on stderr. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", who, path, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t got;

		if (n + 65536 + 1 > cap) {
			char *nb;

			cap = cap ? cap * 2 : 131072;
			if (cap > MAX_INPUT + 65536 + 1 || !(nb = realloc(buf, cap))) {
				fprintf(stderr, "%s: %s: larger than %lu MiB\n", who, path, MAX_INPUT >> 20);
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, 65536, f);
		n += got;
		if (got < 65536) {
			if (ferror(f)) {
				fprintf(stderr, "%s: %s: read error\n", who, path);
				free(buf);
				fclose(f);
				return NULL;
			}
			break;
		}
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static int mkdir_p(const char *dir)
{
	char tmp[4096];
	size_t n = strlen(dir);

	if (!n || n >= sizeof(tmp))
		return -1;
	memcpy(tmp, dir, n + 1);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0777) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(tmp, 0777) && errno != EEXIST)
		return -1;
	return 0;
}

static int write_file(const char *dir, const char *name, const struct report *r,
		      const char *log)
{
	char path[4096];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "report: %s: %s\n", path, strerror(errno));
		return -1;
	}
	rc = log ? write_json(r, log, f) : write_junit(r, f);
	if (fclose(f) || rc) {
		fprintf(stderr, "report: %s: write failed\n", path);
		return -1;
	}
	return 0;
}

static int cmd_report(int argc, char **argv)
{
	const char *log = NULL, *out = "build/report";
	char err[512], what[128];
	struct report r;
	size_t len, pass = 0, fail = 0, skip = 0;
	char *buf;
	int rc = 0;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--out") && i + 1 < argc)
			out = argv[++i];
		else if (argv[i][0] == '-' && argv[i][1])
			return fprintf(stderr, "report: unknown option '%s'\n", argv[i]), usage();
		else if (!log)
			log = argv[i];
		else
			return fprintf(stderr, "report: more than one log ('%s')\n", argv[i]), usage();
	}
	if (!log)
		return usage();
	if (!(buf = slurp(log, &len)))
		return 2;
	if (report_parse(buf, len, &r, err, sizeof(err))) {
		fprintf(stderr, "report: %s: %s\n", log, err);
		report_free(&r);
		free(buf);
		return 2;
	}
	free(buf);
	if (mkdir_p(out)) {
		fprintf(stderr, "report: cannot create %s: %s\n", out, strerror(errno));
		report_free(&r);
		return 2;
	}
	if (write_file(out, "results.json", &r, log) || write_file(out, "junit.xml", &r, NULL)) {
		report_free(&r);
		return 2;
	}
	for (size_t i = 0; i < r.nchecks; i++) {
		pass += r.checks[i].status == ST_PASS;
		fail += r.checks[i].status == ST_FAIL;
		skip += r.checks[i].status == ST_SKIP;
	}
	if (write_plots(&r, out, err, sizeof(err), what, sizeof(what))) {
		fprintf(stderr, "report: no pictures: %s\n", err);
		rc = 1;
	}
	printf("report: %s: %zu checks (%zu pass, %zu fail, %zu skip)%s%s -> %s/results.json, "
	       "%s/junit.xml%s%s\n", log, r.nchecks, pass, fail, skip,
	       r.complete ? "" : "; the run did not finish", r.bail ? " (Bail out!)" : "", out, out,
	       rc ? "" : *what ? "; pictures:" : "; no data for pictures", rc ? "" : what);
	report_free(&r);
	return rc;
}

static int load_json(const char *path, struct jval *v)
{
	char err[256];
	size_t len;
	char *buf = slurp(path, &len);

	if (!buf)
		return -1;
	if (json_parse(buf, len, v, err, sizeof(err))) {
		fprintf(stderr, "compare: %s: %s\n", path, err);
		free(buf);
		return -1;
	}
	free(buf);
	return 0;
}

static int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = { .threshold_pct = 10, .min_abs = 0 };
	const char *files[2] = { NULL, NULL };
	struct jval a, b;
	char err[512];
	unsigned nf = 0;
	int rc;

	for (int i = 0; i < argc; i++) {
		char *end;

		if (!strcmp(argv[i], "--threshold") && i + 1 < argc) {
			o.threshold_pct = strtod(argv[++i], &end);
			if (*end || end == argv[i] || o.threshold_pct < 0)
				return fprintf(stderr, "compare: --threshold %s: not a percentage >= 0\n",
					       argv[i]), 2;
		} else if (!strcmp(argv[i], "--min-abs") && i + 1 < argc) {
			o.min_abs = strtod(argv[++i], &end);
			if (*end || end == argv[i] || o.min_abs < 0)
				return fprintf(stderr, "compare: --min-abs %s: not a number >= 0\n",
					       argv[i]), 2;
		} else if (!strcmp(argv[i], "--moved-is-worse")) {
			o.moved_is_worse = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return fprintf(stderr, "compare: unknown option '%s'\n", argv[i]), usage();
		} else if (nf < 2) {
			files[nf++] = argv[i];
		} else {
			return fprintf(stderr, "compare: more than two files ('%s')\n", argv[i]), usage();
		}
	}
	if (nf != 2)
		return usage();
	o.label_a = files[0];
	o.label_b = files[1];
	if (load_json(files[0], &a))
		return 2;
	if (load_json(files[1], &b)) {
		json_free(&a);
		return 2;
	}
	rc = compare_reports(&a, &b, &o, stdout, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "compare: %s\n", err);
	json_free(&a);
	json_free(&b);
	return rc < 0 ? 2 : rc;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "report"))
		return cmd_report(argc - 2, argv + 2);
	if (!strcmp(argv[1], "compare")) {
		who = "compare";
		return cmd_compare(argc - 2, argv + 2);
	}
	fprintf(stderr, "pmuboot-report: unknown command '%s'\n", argv[1]);
	return usage();
}
