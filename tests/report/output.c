/* SPDX-License-Identifier: MIT */
/* Host report tool: results.json, JUnit XML and the gnuplot pictures from a parsed log. */
#include "tests/report/report.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------------------------ JSON */

void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else if (*p >= 0x80)
			fputs("\\ufffd", f);	/* the log is ASCII; anything else is noise */
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void json_num(FILE *f, double x)
{
	if (!isfinite(x))
		fputs("null", f);
	else if (x == floor(x) && fabs(x) < 9007199254740992.0)
		fprintf(f, "%.0f", x);
	else
		fprintf(f, "%.10g", x);
}

static const char *kind_name(enum value_kind k)
{
	static const char *const n[] = { "text", "number", "range", "bound", "tolerance" };

	return n[k];
}

static void json_value(FILE *f, const struct value *v)
{
	if (!v->text) {
		fputs("null", f);
		return;
	}
	fputs("{\"text\": ", f);
	json_str(f, v->text);
	fprintf(f, ", \"kind\": \"%s\"", kind_name(v->kind));
	switch (v->kind) {
	case VK_NUMBER:
		fputs(", \"value\": ", f);
		json_num(f, v->num);
		break;
	case VK_RANGE:
		fputs(", \"lo\": ", f);
		json_num(f, v->lo);
		fputs(", \"hi\": ", f);
		json_num(f, v->hi);
		break;
	case VK_BOUND:
		fprintf(f, ", \"op\": \"%s\", \"value\": ", v->op);
		json_num(f, v->num);
		break;
	case VK_TOL:
		fputs(", \"value\": ", f);
		json_num(f, v->num);
		fputs(", \"tolerance\": ", f);
		json_num(f, v->tol);
		break;
	case VK_TEXT:
		break;
	}
	fputs(", \"unit\": ", f);
	if (v->unit)
		json_str(f, v->unit);
	else
		fputs("null", f);
	fputc('}', f);
}

static void json_kv_object(FILE *f, const struct datum *d)
{
	fputc('{', f);
	for (size_t k = 0; k < d->nkv; k++) {
		if (k)
			fputs(", ", f);
		json_str(f, d->kv[k].key);
		fputs(": ", f);
		if (d->kv[k].is_num)
			json_num(f, d->kv[k].num);
		else
			json_str(f, d->kv[k].text);
	}
	fputc('}', f);
}

static void json_long_or_null(FILE *f, long v)
{
	if (v < 0)
		fputs("null", f);
	else
		fprintf(f, "%ld", v);
}

/* The facts a comparison or a dashboard wants, read from the header lines. */
static void json_facts(FILE *f, const struct report *r)
{
	const char *v = report_header(r, "pmuboot"), *cpu = report_header(r, "cpu");
	const char *tscl = report_header(r, "tsc"), *smp = report_header(r, "smp"), *p;
	char ver[64] = "", git[64] = "", vendor[32] = "", name[160] = "";
	unsigned fam = 0, model = 0, step = 0;
	bool have_fms = false;
	double mhz = -1;
	long cpus = -1;

	if (v) {
		sscanf(v, "%63s", ver);
		if ((p = strstr(v, "(git ")))
			sscanf(p + 5, "%63[^)]", git);
	}
	if (cpu) {
		sscanf(cpu, "%31s", vendor);
		if ((p = strstr(cpu, "family ")))
			have_fms = sscanf(p, "family %x model %x stepping %u", &fam, &model, &step) == 3;
		if ((p = strchr(cpu, '"')))
			sscanf(p + 1, "%159[^\"]", name);
	}
	if (tscl && sscanf(tscl, "%lf MHz", &mhz) != 1)
		mhz = -1;
	if (smp && sscanf(smp, "%ld CPU", &cpus) != 1)
		cpus = -1;
	fputs("  \"facts\": {\"version\": ", f);
	if (*ver) json_str(f, ver); else fputs("null", f);
	fputs(", \"git\": ", f);
	if (*git) json_str(f, git); else fputs("null", f);
	fputs(", \"vendor\": ", f);
	if (*vendor) json_str(f, vendor); else fputs("null", f);
	if (have_fms)
		fprintf(f, ", \"family\": %u, \"model\": %u, \"stepping\": %u", fam, model, step);
	else
		fputs(", \"family\": null, \"model\": null, \"stepping\": null", f);
	fputs(", \"cpu_name\": ", f);
	if (*name) json_str(f, name); else fputs("null", f);
	fputs(", \"hypervisor\": ", f);
	if (report_header(r, "hypervisor")) json_str(f, report_header(r, "hypervisor"));
	else fputs("null", f);
	fputs(", \"tsc_mhz\": ", f);
	if (mhz > 0) json_num(f, mhz); else fputs("null", f);
	fputs(", \"cpus\": ", f);
	json_long_or_null(f, cpus);
	fputs(", \"bsp_apic_id\": ", f);
	json_long_or_null(f, r->bsp_apic);
	fputs("},\n", f);
}

/* Header keys in order of first appearance; repeated keys become arrays. */
static void json_header(FILE *f, const struct report *r)
{
	bool first = true;

	fputs("  \"header\": {", f);
	for (size_t i = 0; i < r->nhdr; i++) {
		size_t n = 0;
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(r->hdr[j].key, r->hdr[i].key);
		if (seen)
			continue;
		for (size_t j = i; j < r->nhdr; j++)
			n += !strcmp(r->hdr[j].key, r->hdr[i].key);
		fputs(first ? "\n    " : ",\n    ", f);
		first = false;
		json_str(f, r->hdr[i].key);
		fputs(": ", f);
		if (n == 1) {
			json_str(f, r->hdr[i].value);
			continue;
		}
		fputc('[', f);
		for (size_t j = i, k = 0; j < r->nhdr; j++) {
			if (strcmp(r->hdr[j].key, r->hdr[i].key))
				continue;
			if (k++)
				fputs(", ", f);
			json_str(f, r->hdr[j].value);
		}
		fputc(']', f);
	}
	fputs(first ? "},\n" : "\n  },\n", f);
}

int write_json(const struct report *r, const char *log_name, FILE *f)
{
	size_t pass = 0, fail = 0, skip = 0;

	for (size_t i = 0; i < r->nchecks; i++) {
		pass += r->checks[i].status == ST_PASS;
		fail += r->checks[i].status == ST_FAIL;
		skip += r->checks[i].status == ST_SKIP;
	}
	fprintf(f, "{\n  \"format\": \"%s\",\n  \"log\": ", REPORT_FORMAT);
	json_str(f, log_name);
	fprintf(f, ",\n  \"tap\": %s,\n  \"complete\": %s,\n  \"plan\": ", r->tap ? "true" : "false",
		r->complete ? "true" : "false");
	json_long_or_null(f, r->plan);
	fputs(",\n  \"bail_out\": ", f);
	if (r->bail) json_str(f, r->bail); else fputs("null", f);
	fputs(",\n  \"errors\": [", f);
	for (size_t i = 0; i < r->nerrors; i++) {
		if (i)
			fputs(", ", f);
		json_str(f, r->errors[i]);
	}
	fputs("],\n  \"summary\": ", f);
	if (r->complete)
		fprintf(f, "{\"passed\": %ld, \"failed\": %ld, \"skipped\": %ld}", r->sum_pass,
			r->sum_fail, r->sum_skip);
	else
		fputs("null", f);
	fprintf(f, ",\n  \"counts\": {\"total\": %zu, \"pass\": %zu, \"fail\": %zu, \"skip\": %zu, "
		"\"missing\": %ld},\n", r->nchecks, pass, fail, skip,
		r->plan > (long)r->nchecks ? r->plan - (long)r->nchecks : 0);
	json_facts(f, r);
	json_header(f, r);
	fputs("  \"checks\": [", f);
	for (size_t i = 0; i < r->nchecks; i++) {
		const struct check *c = &r->checks[i];

		fputs(i ? ",\n    {" : "\n    {", f);
		fprintf(f, "\"number\": %u, \"name\": ", c->number);
		json_str(f, c->name);
		fputs(", \"check\": ", f);
		json_str(f, c->base);
		fputs(", \"group\": ", f);
		json_str(f, c->group);
		fputs(", \"cpu\": ", f);
		json_long_or_null(f, c->cpu);
		fprintf(f, ", \"cpu_from\": \"%s\", \"status\": \"%s\",\n     \"detail\": ",
			c->cpu_tagged ? "tag" : "bsp", status_name(c->status));
		json_str(f, c->detail);
		fputs(",\n     \"skip_reason\": ", f);
		if (c->status == ST_SKIP) json_str(f, c->detail); else fputs("null", f);
		fputs(",\n     \"measured\": ", f);
		json_value(f, &c->measured);
		fputs(",\n     \"expected\": ", f);
		json_value(f, &c->expected);
		fputs(",\n     \"unit\": ", f);
		if (c->unit) json_str(f, c->unit); else fputs("null", f);
		fputs(", \"diagnostics\": [", f);
		for (size_t k = 0; k < c->ndiag; k++) {
			if (k)
				fputs(", ", f);
			json_str(f, c->diag[k]);
		}
		fputs("], \"data\": [", f);
		for (size_t k = 0; k < c->ndata; k++) {
			if (k)
				fputs(", ", f);
			fputs("{\"series\": ", f);
			json_str(f, c->data[k].series);
			fputs(", \"values\": ", f);
			json_kv_object(f, &c->data[k]);
			fputc('}', f);
		}
		fputs("]}", f);
	}
	fputs(r->nchecks ? "\n  ],\n" : "],\n", f);
	/* every data series, in log order, each point with the check it came from */
	fputs("  \"data\": {", f);
	{
		const char **series = NULL;
		size_t ns = 0;

		for (size_t i = 0; i < r->nchecks; i++)
			for (size_t k = 0; k < r->checks[i].ndata; k++) {
				const char *s = r->checks[i].data[k].series;
				bool have = false;

				for (size_t j = 0; j < ns && !have; j++)
					have = !strcmp(series[j], s);
				if (!have) {
					series = realloc(series, (ns + 1) * sizeof(*series));
					if (!series)
						return -1;
					series[ns++] = s;
				}
			}
		for (size_t j = 0; j < ns; j++) {
			bool first = true;

			fputs(j ? ",\n    " : "\n    ", f);
			json_str(f, series[j]);
			fputs(": [", f);
			for (size_t i = 0; i < r->nchecks; i++)
				for (size_t k = 0; k < r->checks[i].ndata; k++) {
					const struct datum *d = &r->checks[i].data[k];

					if (strcmp(d->series, series[j]))
						continue;
					fputs(first ? "\n      {\"check\": " : ",\n      {\"check\": ", f);
					first = false;
					json_str(f, r->checks[i].name);
					fputs(", \"values\": ", f);
					json_kv_object(f, d);
					fputc('}', f);
				}
			fputs("]", f);
		}
		fputs(ns ? "\n  }\n}\n" : "}\n}\n", f);
		free(series);
	}
	return ferror(f) ? -1 : 0;
}

/* ------------------------------------------------------------------ JUnit XML */

static void xml_str(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		case '\n': fputs("&#10;", f); break;
		default:
			/* XML 1.0 has no other control characters; the log is ASCII */
			fputc(*p < 0x20 || *p >= 0x7f ? '?' : *p, f);
		}
	}
}

/* Element text: newlines kept. */
static void xml_text(FILE *f, const char *s)
{
	for (const char *p = s; *p; p++) {
		if (*p == '\n')
			fputc('\n', f);
		else {
			char one[2] = { *p, 0 };

			xml_str(f, one);
		}
	}
}

static void xml_diag(FILE *f, const struct check *c)
{
	for (size_t k = 0; k < c->ndiag; k++) {
		fputs("\n# ", f);
		xml_text(f, c->diag[k]);
	}
}

int write_junit(const struct report *r, FILE *f)
{
	size_t tests = r->nchecks, failures = 0, skipped = 0;
	bool incomplete = !r->complete || r->bail || r->plan != (long)r->nchecks;

	for (size_t i = 0; i < r->nchecks; i++) {
		failures += r->checks[i].status == ST_FAIL;
		skipped += r->checks[i].status == ST_SKIP;
	}
	if (incomplete) {
		tests++;
		failures++;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites name=\"pmuboot\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		"skipped=\"%zu\">\n", tests, failures, skipped);
	fprintf(f, "  <testsuite name=\"pmuboot\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		"skipped=\"%zu\">\n    <properties>\n", tests, failures, skipped);
	for (size_t i = 0; i < r->nhdr; i++) {
		fputs("      <property name=\"", f);
		xml_str(f, r->hdr[i].key);
		fputs("\" value=\"", f);
		xml_str(f, r->hdr[i].value);
		fputs("\"/>\n", f);
	}
	fputs("    </properties>\n", f);
	for (size_t i = 0; i < r->nchecks; i++) {
		const struct check *c = &r->checks[i];

		fputs("    <testcase classname=\"", f);
		xml_str(f, c->group);
		fputs("\" name=\"", f);
		xml_str(f, c->name);
		fputs("\"", f);
		if (c->status == ST_PASS && !c->ndiag) {
			fputs("/>\n", f);
			continue;
		}
		fputs(">\n", f);
		if (c->status == ST_FAIL) {
			fputs("      <failure type=\"fail\" message=\"", f);
			xml_str(f, c->detail);
			fputs("\">", f);
			xml_text(f, c->detail);
			xml_diag(f, c);
			fputs("</failure>\n", f);
		} else if (c->status == ST_SKIP) {
			fputs("      <skipped message=\"", f);
			xml_str(f, c->detail);
			fputs("\"/>\n", f);
		}
		if (c->ndiag || c->status == ST_PASS) {
			fputs("      <system-out>", f);
			xml_text(f, c->detail);
			xml_diag(f, c);
			fputs("</system-out>\n", f);
		}
		fputs("    </testcase>\n", f);
	}
	if (incomplete) {
		char why[256];

		snprintf(why, sizeof(why), "the run did not finish: plan %ld, %zu results%s%s%s",
			 r->plan, r->nchecks, r->bail ? "; Bail out! " : "", r->bail ? r->bail : "",
			 r->complete ? "" : "; no closing summary line");
		fputs("    <testcase classname=\"pmuboot\" name=\"run.complete\">\n"
		      "      <failure type=\"incomplete\" message=\"", f);
		xml_str(f, why);
		fputs("\">", f);
		xml_text(f, why);
		for (size_t i = 0; i < r->nerrors; i++) {
			fputs("\n# error: ", f);
			xml_text(f, r->errors[i]);
		}
		fputs("</failure>\n    </testcase>\n", f);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
	return ferror(f) ? -1 : 0;
}

/* ------------------------------------------------------------------ pictures */

static const struct kv *kv_get(const struct datum *d, const char *key)
{
	for (size_t k = 0; k < d->nkv; k++)
		if (!strcmp(d->kv[k].key, key))
			return &d->kv[k];
	return NULL;
}

static FILE *open_in(const char *dir, const char *name, char *err, size_t errlen)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	return f;
}

/* Lower and upper end of a numeric value; false when it has none. */
static bool value_span(const struct value *v, double *lo, double *hi, double top)
{
	switch (v->text ? v->kind : VK_TEXT) {
	case VK_NUMBER: *lo = *hi = v->num; return true;
	case VK_RANGE: *lo = v->lo; *hi = v->hi; return true;
	case VK_TOL: *lo = v->num - v->tol; *hi = v->num + v->tol; return true;
	case VK_BOUND:
		if (v->op[0] == '>') {
			*lo = v->num;
			*hi = top;
		} else {
			*lo = 0;
			*hi = v->num;
		}
		return true;
	default:
		return false;
	}
}

#define PLOT_FLOOR	0.1	/* values <= 0 drawn here on the log axis */

static double floor_pos(double x)
{
	return x > PLOT_FLOOR ? x : PLOT_FLOOR;
}

static const char plot_common[] =
	"# pmuboot report pictures (written by the report tool; run: gnuplot plots.gp)\n"
	"set encoding utf8\n"
	"png = strstrt(GPVAL_TERMINALS, 'pngcairo') > 0 ? 'pngcairo' : "
	"(strstrt(GPVAL_TERMINALS, ' png ') > 0 ? 'png' : '')\n"
	"set grid\n";

int write_plots(const struct report *r, const char *dir, char *err, size_t errlen, char *what,
		size_t whatlen)
{
	FILE *gp, *d;
	size_t nchase = 0, nstore = 0, nmve = 0;
	double top = 1;
	int status;
	pid_t pid;

	what[0] = '\0';
	/* chase_latency.dat: ws_bytes tsc_per_load ns_per_load */
	if (!(d = open_in(dir, "chase_latency.dat", err, errlen)))
		return -1;
	fputs("# ws_bytes tsc_per_load ns_per_load\n", d);
	for (size_t i = 0; i < r->nchecks; i++)
		for (size_t k = 0; k < r->checks[i].ndata; k++) {
			const struct datum *x = &r->checks[i].data[k];
			const struct kv *ws = kv_get(x, "ws_bytes"), *t = kv_get(x, "tsc_per_load"),
					*ns = kv_get(x, "ns_per_load");

			if (strcmp(x->series, "chase_latency") || !ws || !t || !ws->is_num || !t->is_num)
				continue;
			fprintf(d, "%.0f %g %g\n", ws->num, t->num, ns && ns->is_num ? ns->num : NAN);
			nchase++;
		}
	fclose(d);
	/* store_bandwidth.dat: one block per kernel (gnuplot index), bytes mb_per_s bytes_per_tsc */
	if (!(d = open_in(dir, "store_bandwidth.dat", err, errlen)))
		return -1;
	{
		char kernels[8][48];
		size_t nk = 0;

		for (size_t i = 0; i < r->nchecks; i++)
			for (size_t k = 0; k < r->checks[i].ndata; k++) {
				const struct datum *x = &r->checks[i].data[k];
				const struct kv *kn = kv_get(x, "kernel");
				bool have = false;

				if (strcmp(x->series, "store_bandwidth") || !kn)
					continue;
				for (size_t j = 0; j < nk && !have; j++)
					have = !strcmp(kernels[j], kn->text);
				if (!have && nk < 8)
					snprintf(kernels[nk++], sizeof(kernels[0]), "%s", kn->text);
			}
		for (size_t j = 0; j < nk; j++) {
			fprintf(d, "%s# kernel %s: bytes mb_per_s bytes_per_tsc\n", j ? "\n\n" : "",
				kernels[j]);
			for (size_t i = 0; i < r->nchecks; i++)
				for (size_t k = 0; k < r->checks[i].ndata; k++) {
					const struct datum *x = &r->checks[i].data[k];
					const struct kv *kn = kv_get(x, "kernel"), *b = kv_get(x, "bytes"),
							*m = kv_get(x, "mb_per_s"),
							*t = kv_get(x, "bytes_per_tsc");

					if (strcmp(x->series, "store_bandwidth") || !kn || !b || !m ||
					    strcmp(kn->text, kernels[j]) || !b->is_num || !m->is_num)
						continue;
					fprintf(d, "%.0f %g %g\n", b->num, m->num,
						t && t->is_num ? t->num : NAN);
					nstore++;
				}
		}
		fclose(d);
		/* measured_expected.dat: x name status measured lo hi expected lo hi */
		if (!(d = open_in(dir, "measured_expected.dat", err, errlen)))
			return -1;
		for (size_t i = 0; i < r->nchecks; i++) {
			double a, b;

			if (value_span(&r->checks[i].measured, &a, &b, 0) && fabs(b) > top)
				top = fabs(b);
			if (value_span(&r->checks[i].expected, &a, &b, 0) && fabs(b) > top)
				top = fabs(b);
		}
		top *= 10;
		fputs("# x name status measured measured_lo measured_hi expected_mid expected_lo "
		      "expected_hi (values <= 0 at 0.1)\n", d);
		for (size_t i = 0; i < r->nchecks; i++) {
			const struct check *c = &r->checks[i];
			double mlo, mhi, elo, ehi;

			if (c->status == ST_SKIP || !value_span(&c->measured, &mlo, &mhi, top) ||
			    !value_span(&c->expected, &elo, &ehi, top))
				continue;
			fprintf(d, "%zu %s %s %g %g %g %g %g %g\n", nmve, c->name, status_name(c->status),
				floor_pos((mlo + mhi) / 2), floor_pos(mlo), floor_pos(mhi),
				floor_pos(sqrt(floor_pos(elo) * floor_pos(ehi))), floor_pos(elo),
				floor_pos(ehi));
			nmve++;
		}
		fclose(d);

		if (!(gp = open_in(dir, "plots.gp", err, errlen)))
			return -1;
		fputs(plot_common, gp);
		if (nchase) {
			fputs("set title 'Pointer-chase latency (bench.chase_latency)'\n"
			      "set xlabel 'working set (bytes)'\nset ylabel 'TSC ticks per load'\n"
			      "set logscale x 2\nset logscale y\nset format x '%.0b%B'\nset key top left\n"
			      "do for [t in 'svg '.png] {\n"
			      "  if (t eq 'svg') { set terminal svg size 900,560 dynamic noenhanced font 'sans,11'; "
			      "set output 'chase_latency.svg' } else { eval('set terminal '.t.' size 900,560 noenhanced'); "
			      "set output 'chase_latency.png' }\n"
			      "  plot 'chase_latency.dat' using 1:2 with linespoints lw 2 pt 7 "
			      "title 'TSC per load', '' using 1:2:(sprintf('%.1f ns', $3)) with labels "
			      "offset 0,1 font ',8' notitle\n"
			      "}\nunset logscale\nunset format\n", gp);
		}
		if (nstore) {
			fputs("set title 'Store bandwidth (bench.store_bandwidth)'\n"
			      "set xlabel 'bytes stored per run'\nset ylabel 'MB/s (10^6 bytes/s, TSC time)'\n"
			      "set logscale x 2\nset format x '%.0b%B'\nset yrange [0:*]\nset key bottom left\n"
			      "do for [t in 'svg '.png] {\n"
			      "  if (t eq 'svg') { set terminal svg size 900,560 dynamic noenhanced font 'sans,11'; "
			      "set output 'store_bandwidth.svg' } else { eval('set terminal '.t.' size 900,560 noenhanced'); "
			      "set output 'store_bandwidth.png' }\n  plot ", gp);
			for (size_t j = 0; j < nk; j++)
				fprintf(gp, "%s'store_bandwidth.dat' index %zu using 1:2 with linespoints "
					"lw 2 title '%s'", j ? ", " : "", j, kernels[j]);
			fputs("\n}\nunset logscale\nunset format\nset yrange [*:*]\n", gp);
		}
		if (nmve) {
			unsigned w = (unsigned)(nmve * 14 + 200 < 900 ? 900 : nmve * 14 + 200);

			fprintf(gp, "set title 'Measured against expected (%zu checks; log scale, values "
				"<= 0 drawn at 0.1)'\n"
				"set xlabel ''\nset ylabel 'value'\nset logscale y\n"
				"set xtics rotate by 90 right font ',8'\nset xrange [-1:%zu]\n"
				"set key top right opaque\nset bmargin 16\n"
				"do for [t in 'svg '.png] {\n"
				"  if (t eq 'svg') { set terminal svg size %u,700 dynamic noenhanced font 'sans,10'; "
				"set output 'measured_expected.svg' } else { eval(sprintf('set terminal %%s size %u,700 noenhanced', t)); "
				"set output 'measured_expected.png' }\n"
				"  plot 'measured_expected.dat' using 1:7:8:9:xticlabels(2) with yerrorbars "
				"lc rgb '#999999' pt 0 lw 2 title 'expected', "
				"'' using 1:(strcol(3) eq 'pass' ? $4 : NaN):5:6 with yerrorbars lc rgb "
				"'#1a9850' pt 7 title 'measured (pass)', "
				"'' using 1:(strcol(3) eq 'fail' ? $4 : NaN):5:6 with yerrorbars lc rgb "
				"'#d73027' pt 9 ps 1.5 title 'measured (fail)'\n}\n", nmve, nmve,
				w, w);
		}
		fclose(gp);
	}
	snprintf(what, whatlen, "%s%s%s", nchase ? " chase_latency" : "",
		 nstore ? " store_bandwidth" : "", nmve ? " measured_expected" : "");
	if (!nchase && !nstore && !nmve)
		return 0;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		if (chdir(dir) == 0)
			execlp("gnuplot", "gnuplot", "plots.gp", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0) {
		snprintf(err, errlen, "waitpid: %s", strerror(errno));
		return -1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		snprintf(err, errlen, "gnuplot not found (Debian: apt-get install gnuplot-nox); "
			 "the data files and plots.gp are in %s", dir);
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(err, errlen, "gnuplot failed on %s/plots.gp (status %d)", dir,
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return -1;
	}
	return 0;
}
