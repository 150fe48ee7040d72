/* SPDX-License-Identifier: MIT */
/*
 * Host tests of the report tool (tests/report): the log parser on real serial logs captured
 * here (tests/report/samples: a qemu64 run with the bench checks and progress lines, the
 * emulated Skylake's PMU checks from before progress lines existed, -smp 4 cpus=2 selftests
 * with @apic tags, a fatal fault) and on broken input (truncated, malformed result lines,
 * misnumbered, not a pmuboot log, binary); value parsing; results.json read back by the
 * JSON reader; JUnit counts; compare of a log with one check regressed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/report/compare.h"
#include "tests/report/json.h"
#include "tests/report/report.h"

#define SAMPLES "tests/report/samples/"
#define TXT(s)	s, strlen(s)

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		fail_msg("cannot open %s (run from the repository root)", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static int parse_file(const char *name, struct report *r, char *err, size_t errlen)
{
	size_t len;
	char *buf = slurp(name, &len);
	int rc = report_parse(buf, len, r, err, errlen);

	free(buf);
	return rc;
}

static const struct check *find_check(const struct report *r, const char *name)
{
	for (size_t i = 0; i < r->nchecks; i++)
		if (!strcmp(r->checks[i].name, name))
			return &r->checks[i];
	fail_msg("no check %s", name);
	return NULL;
}

static void test_values(void **state)
{
	struct value v;

	(void)state;
	value_parse("400000", &v);
	assert_int_equal(v.kind, VK_NUMBER);
	assert_true(v.num == 400000);
	value_free(&v);
	value_parse("50000..1600000 (0.5..16 cycles per iteration)", &v);
	assert_int_equal(v.kind, VK_RANGE);
	assert_true(v.lo == 50000 && v.hi == 1600000);
	value_free(&v);
	value_parse("-64..64 (the loop touches no data)", &v);
	assert_int_equal(v.kind, VK_RANGE);
	assert_true(v.lo == -64 && v.hi == 64);
	value_free(&v);
	value_parse("50000..2050000 us", &v);
	assert_int_equal(v.kind, VK_RANGE);
	assert_string_equal(v.unit, "us");
	value_free(&v);
	value_parse("stopped after 53334 us", &v);
	assert_int_equal(v.kind, VK_TEXT);
	assert_string_equal(v.text, "stopped after 53334 us");
	value_free(&v);
	value_parse(">=5", &v);
	assert_int_equal(v.kind, VK_BOUND);
	assert_string_equal(v.op, ">=");
	assert_true(v.num == 5);
	value_free(&v);
	value_parse("< 2.5 ms", &v);
	assert_int_equal(v.kind, VK_BOUND);
	assert_string_equal(v.op, "<");
	assert_string_equal(v.unit, "ms");
	value_free(&v);
	value_parse("1000\xc2\xb1" "10", &v);
	assert_int_equal(v.kind, VK_TOL);
	assert_true(v.num == 1000 && v.tol == 10);
	value_free(&v);
	value_parse("1000 +- 2.5 cycles", &v);
	assert_int_equal(v.kind, VK_TOL);
	assert_true(v.tol == 2.5);
	assert_string_equal(v.unit, "cycles");
	value_free(&v);
	value_parse("0xffff80000000", &v);
	assert_int_equal(v.kind, VK_NUMBER);
	assert_true(v.num == (double)0xffff80000000ULL);
	value_free(&v);
	value_parse("0, cold chase 20000 in 10000..80064 n=20000", &v);
	assert_int_equal(v.kind, VK_NUMBER);
	assert_true(v.num == 0);
	value_free(&v);
	value_parse("#GP(13) or #UD(6)", &v);
	assert_int_equal(v.kind, VK_TEXT);
	value_free(&v);
	value_parse("1e999", &v);		/* not finite: text, never inf in JSON */
	assert_int_equal(v.kind, VK_TEXT);
	value_free(&v);
	value_parse("", &v);
	assert_int_equal(v.kind, VK_TEXT);
	value_free(&v);
}

/* Units: a unit= token wins; else the measured, else the expected value's unit word. */
static void test_units(void **state)
{
	static const char log[] =
		"# pmuboot 0.1.0 (git x)\n# cpu 0: APIC ID 4, bootstrap processor\nTAP version 13\n1..3\n"
		"ok 1 watchdog.stuck_loop # measured=stopped after 53334 us expected=50000..2050000 us spins=1\n"
		"ok 2 bench.x # measured=3 expected=1..9 cycles unit=tsc_per_load reps=5\n"
		"not ok 3 a.b # measured=7 ms expected=<=5 ms\n"
		"3 passed, 0 failed, 0 skipped\n";
	struct report r;
	char err[128];

	(void)state;
	assert_int_equal(report_parse(TXT(log), &r, err, sizeof(err)), 0);
	assert_string_equal(r.checks[0].unit, "us");
	assert_int_equal(r.checks[0].expected.kind, VK_RANGE);
	assert_int_equal(r.checks[0].cpu, 4);
	assert_string_equal(r.checks[1].unit, "tsc_per_load");
	assert_string_equal(r.checks[2].unit, "ms");
	assert_int_equal(r.checks[2].status, ST_FAIL);
	assert_int_equal(r.checks[2].expected.kind, VK_BOUND);
	report_free(&r);
}

static void test_qemu_sample(void **state)
{
	struct report r;
	char err[256];
	const struct check *c;
	size_t points = 0;

	(void)state;
	assert_int_equal(parse_file(SAMPLES "qemu64-bench.log", &r, err, sizeof(err)), 0);
	assert_true(r.tap && r.complete);
	assert_int_equal(r.plan, 13);
	assert_int_equal(r.nchecks, 13);
	assert_int_equal(r.sum_pass + r.sum_fail + r.sum_skip, 13);
	assert_int_equal(r.bsp_apic, 0);
	assert_non_null(report_header(&r, "cpu"));
	assert_non_null(strstr(report_header(&r, "pmuboot"), "(git "));
	c = find_check(&r, "fault.ud");
	assert_int_equal(c->status, ST_PASS);
	assert_int_equal(c->cpu, 0);
	assert_false(c->cpu_tagged);
	assert_string_equal(c->group, "fault");
	assert_string_equal(c->measured.text, "#UD(6)");
	assert_string_equal(c->expected.text, "#UD(6)");
	c = find_check(&r, "icount.loop_delta");
	assert_int_equal(c->status, ST_SKIP);
	assert_non_null(strstr(c->detail, "option icount not set"));
	assert_null(c->measured.text);
	c = find_check(&r, "bench.chase_latency");
	assert_int_equal(c->status, ST_PASS);
	assert_string_equal(c->unit, "tsc_per_load");
	assert_int_equal(c->measured.kind, VK_RANGE);
	for (size_t i = 0; i < c->ndata; i++) {
		const struct datum *d = &c->data[i];

		assert_string_equal(d->series, "chase_latency");
		assert_string_equal(d->kv[0].key, "ws_bytes");
		assert_true(d->kv[0].is_num && d->kv[0].num >= 4096);
		points++;
	}
	assert_true(points >= 10);
	c = find_check(&r, "bench.store_bandwidth");
	assert_string_equal(c->unit, "MB/s");
	assert_true(c->ndata >= 9);
	assert_string_equal(c->data[0].kv[0].key, "kernel");
	assert_false(c->data[0].kv[0].is_num);
	/* progress lines belong to no check */
	for (size_t i = 0; i < r.nchecks; i++)
		for (size_t k = 0; k < r.checks[i].ndiag; k++)
			assert_null(strstr(r.checks[i].diag[k], "progress:"));
	report_free(&r);
}

static void test_vpmu_sample_without_progress(void **state)
{
	struct report r;
	char err[256];
	const struct check *c;

	(void)state;
	assert_int_equal(parse_file(SAMPLES "vpmu-skylake-pmu.log", &r, err, sizeof(err)), 0);
	assert_int_equal(r.nchecks, 75);
	assert_int_equal(r.sum_skip, 6);
	c = find_check(&r, "pmu.arch.instructions.gp0");
	assert_int_equal(c->measured.kind, VK_NUMBER);
	assert_true(c->measured.num == 400000);
	assert_int_equal(c->expected.kind, VK_RANGE);
	assert_true(c->expected.lo == 400000 && c->expected.hi == 400000);
	c = find_check(&r, "pmu.arch.topdown_slots.gp0");
	assert_int_equal(c->status, ST_SKIP);
	/* measured up to " expected=", expected up to the next key= token */
	c = find_check(&r, "pmu.running_write");
	assert_string_equal(c->measured.text, "105606 and 105606 (+0)");
	assert_string_equal(c->expected.text,
			    "0x10000 + 40000 + the code after the write, whatever ran before it");
	report_free(&r);
}

/* Issue 23 item 2: a pmuboot-linux log (Debian's kernel on the emulated Skylake, kernel
 * messages around it) reads as a firmware log does: the header's version and CPU, the same
 * check names and measured/expected values, and the benchmarks' data series. */
static void test_linux_sample(void **state)
{
	struct report r;
	char err[256];
	const struct check *c;
	size_t chase = 0, store = 0;

	(void)state;
	assert_int_equal(parse_file(SAMPLES "linux-vpmu-skylake.log", &r, err, sizeof(err)), 0);
	assert_true(r.tap && r.complete);
	assert_int_equal(r.plan, 43);
	assert_int_equal(r.nchecks, 43);
	assert_int_equal(r.sum_fail, 0);
	assert_int_equal(r.sum_skip, 1);
	assert_non_null(strstr(report_header(&r, "pmuboot"), " linux: "));
	assert_non_null(strstr(report_header(&r, "cpu"), "family 0x6 model 0x5e"));
	assert_non_null(report_header(&r, "kernel"));
	c = find_check(&r, "pmu.arch.instructions");
	assert_int_equal(c->status, ST_PASS);
	assert_true(c->measured.kind == VK_NUMBER && c->measured.num == 40000);
	assert_true(c->expected.kind == VK_RANGE && c->expected.lo == 40000 &&
		    c->expected.hi == 40000);
	c = find_check(&r, "model.loop4");
	assert_int_equal(c->status, ST_PASS);
	assert_true(c->measured.num == 39996);
	assert_int_equal(find_check(&r, "pmu.arch.topdown_slots")->status, ST_SKIP);
	for (size_t i = 0; i < r.nchecks; i++)
		for (size_t k = 0; k < r.checks[i].ndata; k++) {
			chase += !strcmp(r.checks[i].data[k].series, "chase_latency");
			store += !strcmp(r.checks[i].data[k].series, "store_bandwidth");
		}
	assert_int_equal(chase, 5);
	assert_int_equal(store, 3);
	report_free(&r);
}

static void test_smp_tags_and_diagnostics(void **state)
{
	struct report r;
	char err[256];
	const struct check *c;
	bool dump = false;

	(void)state;
	assert_int_equal(parse_file(SAMPLES "smp4-cpus2-selftests.log", &r, err, sizeof(err)), 0);
	c = find_check(&r, "selftest.fail@apic2");
	assert_int_equal(c->status, ST_FAIL);
	assert_int_equal(c->cpu, 2);
	assert_true(c->cpu_tagged);
	assert_string_equal(c->base, "selftest.fail");
	assert_string_equal(c->group, "selftest");
	c = find_check(&r, "selftest.fault@apic2");
	/* the AP's register dump is printed while the check runs, after its progress line */
	for (size_t k = 0; k < c->ndiag; k++)
		dump |= strstr(c->diag[k], "unexpected exception") != NULL;
	assert_true(dump);
	report_free(&r);
}

static void test_fatal(void **state)
{
	struct report r;
	char err[256];

	(void)state;
	assert_int_equal(parse_file(SAMPLES "fatal-fault.log", &r, err, sizeof(err)), 0);
	assert_non_null(r.bail);
	assert_int_equal(r.nchecks, 1);
	assert_int_equal(r.checks[0].status, ST_FAIL);
	assert_true(r.checks[0].ndiag >= 8);
	assert_non_null(strstr(r.checks[0].diag[0], "vector 6"));
	report_free(&r);
}

static void test_truncated(void **state)
{
	struct report r;
	char err[256];

	(void)state;
	assert_int_equal(parse_file(SAMPLES "truncated.log", &r, err, sizeof(err)), 0);
	assert_false(r.complete);
	assert_int_equal(r.plan, 13);
	assert_true(r.nchecks < 13 && r.nchecks > 0);
	report_free(&r);
}

/* Issue 21 item 21: the closing line after the summary ends the log; it is no diagnostic
 * of the last check. */
static void test_closing_line(void **state)
{
	static const char log[] =
		"# pmuboot 0.1.0 (git x)\n"
		"TAP version 13\n"
		"1..1\n"
		"# progress: 1/1 pmu.a\n"
		"ok 1 pmu.a # measured=1 expected=1\n"
		"1 passed, 0 failed, 0 skipped\n"
		"# end: status=pass on-exit=return\n";
	struct report r;
	char err[256];

	(void)state;
	assert_int_equal(report_parse(log, sizeof(log) - 1, &r, err, sizeof(err)), 0);
	assert_true(r.complete);
	assert_int_equal(r.nchecks, 1);
	assert_int_equal(r.checks[0].ndiag, 0);
	assert_int_equal(r.sum_pass, 1);
	report_free(&r);
}

static void expect_error(const char *name, const char *words)
{
	struct report r;
	char err[256] = "";

	assert_int_equal(parse_file(name, &r, err, sizeof(err)), -1);
	if (!strstr(err, words))
		fail_msg("%s: error '%s' does not say '%s'", name, err, words);
	report_free(&r);
}

static void test_broken(void **state)
{
	struct report r;
	char err[256];
	static const char nul[] = "# pmuboot 0.1.0\nTAP version 13\n1..1\n\0ok 1 a.b\n";

	(void)state;
	expect_error(SAMPLES "bad-result.log", "without a test number");
	expect_error(SAMPLES "misnumbered.log", "numbered 4");
	expect_error(SAMPLES "not-pmuboot.log", "not a pmuboot log");
	assert_int_equal(report_parse(nul, sizeof(nul) - 1, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "binary"));
	report_free(&r);
	assert_int_equal(report_parse("", 0, &r, err, sizeof(err)), -1);
	report_free(&r);
	assert_int_equal(report_parse(TXT("# pmuboot 1\nTAP version 13\nok 1 a.b\n"), &r, err,
				      sizeof(err)), -1);
	assert_non_null(strstr(err, "plan"));
	report_free(&r);
	assert_int_equal(report_parse(TXT("# pmuboot 1\nTAP version 13\n1..1\nok 1 nodot\n"), &r,
				      err, sizeof(err)), -1);
	assert_non_null(strstr(err, "group.name"));
	report_free(&r);
}

/* results.json of a sample, through the JSON reader. */
static void json_of(const char *sample, struct jval *out)
{
	struct report r;
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(parse_file(sample, &r, err, sizeof(err)), 0);
	assert_int_equal(write_json(&r, sample, f), 0);
	fclose(f);
	if (json_parse(buf, len, out, err, sizeof(err)))
		fail_msg("results.json of %s does not parse: %s", sample, err);
	report_free(&r);
	free(buf);
}

static void test_json_roundtrip(void **state)
{
	struct jval v;
	const struct jval *checks, *c, *data;

	(void)state;
	json_of(SAMPLES "qemu64-bench.log", &v);
	assert_string_equal(json_string(json_get(&v, "format")), REPORT_FORMAT);
	checks = json_get(&v, "checks");
	assert_int_equal(checks->type, J_ARR);
	assert_int_equal(checks->n, 13);
	c = &checks->items[1];
	assert_string_equal(json_string(json_get(c, "name")), "fault.ud");
	assert_string_equal(json_string(json_get(c, "status")), "pass");
	assert_int_equal(json_get(c, "cpu")->type, J_NUM);
	data = json_get(json_get(&v, "data"), "chase_latency");
	assert_non_null(data);
	assert_true(data->n >= 10);
	assert_int_equal(json_get(json_get(&data->items[0], "values"), "tsc_per_load")->type, J_NUM);
	json_free(&v);
	json_of(SAMPLES "fatal-fault.log", &v);
	assert_string_equal(json_string(json_get(&v, "bail_out")),
			    "unexpected exception; the run cannot continue");
	json_free(&v);
}

static void test_junit_counts(void **state)
{
	struct report r;
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(parse_file(SAMPLES "smp4-cpus2-selftests.log", &r, err, sizeof(err)), 0);
	f = open_memstream(&buf, &len);
	assert_int_equal(write_junit(&r, f), 0);
	fclose(f);
	{
		char want[128];
		size_t fail = 0, skip = 0, cases = 0;

		for (size_t i = 0; i < r.nchecks; i++) {
			fail += r.checks[i].status == ST_FAIL;
			skip += r.checks[i].status == ST_SKIP;
		}
		snprintf(want, sizeof(want), "tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\"",
			 r.nchecks, fail, skip);
		assert_non_null(strstr(buf, want));
		for (const char *p = buf; (p = strstr(p, "<testcase ")); p++)
			cases++;
		assert_int_equal(cases, r.nchecks);
		assert_null(strstr(buf, "run.complete"));
	}
	report_free(&r);
	free(buf);
	/* an unfinished run gets a failing run.complete case */
	buf = NULL;
	assert_int_equal(parse_file(SAMPLES "truncated.log", &r, err, sizeof(err)), 0);
	f = open_memstream(&buf, &len);
	assert_int_equal(write_junit(&r, f), 0);
	fclose(f);
	assert_non_null(strstr(buf, "name=\"run.complete\""));
	report_free(&r);
	free(buf);
}

static void test_json_broken(void **state)
{
	static const char *const bad[] = {
		"", "{", "{\"a\": }", "[1, 2", "{\"a\" 1}", "\"abc", "tru", "01", "1.", "-",
		"{\"a\": 1} x", "[\"\\x\"]", "[\"\\u12\"]", "{\"a\": [1,]}", "nan",
		"\"ctl\x01\"",
	};
	struct jval v;
	char err[160];
	char deep[300];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (json_parse(bad[i], strlen(bad[i]), &v, err, sizeof(err)) != -1)
			fail_msg("accepted malformed JSON: %s", bad[i]);
		assert_non_null(strstr(err, "malformed JSON at line"));
	}
	memset(deep, '[', sizeof(deep));
	assert_int_equal(json_parse(deep, sizeof(deep), &v, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "nested deeper"));
	assert_int_equal(json_parse(TXT("{\"k\": [true, null, -1.5e3, \"\\u00e9\\ud83d\\ude00\"]}"),
				    &v, err, sizeof(err)), 0);
	assert_true(json_get(&v, "k")->items[2].num == -1500);
	assert_string_equal(json_get(&v, "k")->items[3].str, "\xc3\xa9\xf0\x9f\x98\x80");
	json_free(&v);
}

static void test_compare(void **state)
{
	struct jval a, b, bad;
	struct compare_opts o = { "A", "B", 10, 0, false };
	char err[256], *out = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	json_of(SAMPLES "vpmu-skylake-pmu.log", &a);
	json_of(SAMPLES "vpmu-skylake-pmu-regressed.log", &b);
	f = open_memstream(&out, &len);
	assert_int_equal(compare_reports(&a, &b, &o, f, err, sizeof(err)), 1);
	fclose(f);
	assert_non_null(strstr(out, "worse: pmu.arch.instructions.gp0: pass -> fail"));
	assert_non_null(strstr(out, "moved: pmu.arch.branches.gp0: 100000 -> 150000"));
	assert_non_null(strstr(out, "summary: 1 worse, 0 better"));
	free(out);
	/* the other way round: one better, nothing worse */
	out = NULL;
	f = open_memstream(&out, &len);
	assert_int_equal(compare_reports(&b, &a, &o, f, err, sizeof(err)), 0);
	fclose(f);
	assert_non_null(strstr(out, "better: pmu.arch.instructions.gp0: fail -> pass"));
	free(out);
	/* a report against itself */
	out = NULL;
	f = open_memstream(&out, &len);
	assert_int_equal(compare_reports(&a, &a, &o, f, err, sizeof(err)), 0);
	fclose(f);
	assert_non_null(strstr(out, "summary: 0 worse, 0 better, 0 other status changes, 0 moved"));
	free(out);
	/* not a report */
	assert_int_equal(json_parse(TXT("{\"format\": \"other\", \"checks\": []}"), &bad, err,
				    sizeof(err)), 0);
	f = open_memstream(&out, &len);
	assert_int_equal(compare_reports(&bad, &a, &o, f, err, sizeof(err)), -1);
	fclose(f);
	free(out);
	assert_non_null(strstr(err, "not a pmuboot report"));
	json_free(&bad);
	assert_int_equal(json_parse(TXT("{\"format\": \"pmuboot-report/1\", \"checks\": [{\"name\": 1}]}"),
				    &bad, err, sizeof(err)), 0);
	out = NULL;
	f = open_memstream(&out, &len);
	assert_int_equal(compare_reports(&a, &bad, &o, f, err, sizeof(err)), -1);
	fclose(f);
	free(out);
	assert_non_null(strstr(err, "check 1 has no name"));
	json_free(&bad);
	json_free(&a);
	json_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_qemu_sample),
		cmocka_unit_test(test_vpmu_sample_without_progress),
		cmocka_unit_test(test_linux_sample),
		cmocka_unit_test(test_smp_tags_and_diagnostics),
		cmocka_unit_test(test_fatal),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_closing_line),
		cmocka_unit_test(test_broken),
		cmocka_unit_test(test_json_roundtrip),
		cmocka_unit_test(test_junit_counts),
		cmocka_unit_test(test_json_broken),
		cmocka_unit_test(test_compare),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
