/* SPDX-License-Identifier: MIT */
/* Host unit tests for tests/harness/tap.c: exact TAP lines captured through the output callback. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "tests/harness/tap.h"

#define MAX_LINES 64

struct capture {
	char lines[MAX_LINES][600];
	unsigned n;
};

static void cap_out(void *ctx, const char *line)
{
	struct capture *c = ctx;

	assert_true(c->n < MAX_LINES);
	assert_true(strlen(line) < sizeof(c->lines[0]));
	strcpy(c->lines[c->n++], line);
}

static struct capture cap;

static int setup(void **state)
{
	(void)state;
	memset(&cap, 0, sizeof(cap));
	return 0;
}

#define LINE(i, s) assert_string_equal(cap.lines[(i)], (s))

static void test_init_and_header(void **state)
{
	struct tap t;
	(void)state;

	memset(&t, 0xa5, sizeof(t));
	tap_init(&t, cap_out, &cap);
	assert_ptr_equal(t.ctx, &cap);
	assert_int_equal(t.next, 1);
	assert_int_equal(t.planned, 0);
	assert_int_equal(t.passed + t.failed + t.skipped, 0);

	tap_version(&t);
	tap_plan(&t, 42);
	assert_int_equal(t.planned, 42);
	assert_int_equal(cap.n, 2);
	LINE(0, "TAP version 13\n");
	LINE(1, "1..42\n");
	tap_plan(&t, 0);
	LINE(2, "1..0\n");
}

static void test_results(void **state)
{
	struct tap t;
	(void)state;

	tap_init(&t, cap_out, &cap);
	assert_int_equal(tap_result(&t, 1, "pmu.present", NULL), 1);
	assert_int_equal(tap_result(&t, 1, "pmu.version", ""), 2);
	assert_int_equal(tap_result(&t, 1, "icount.loop_delta", "measured=4000 expected=4000"), 3);
	assert_int_equal(tap_result(&t, 0, "fault.ud", "measured=none expected=#UD(6)"), 4);
	assert_int_equal(tap_result(&t, 0, "fault.gp", NULL), 5);
	assert_int_equal(tap_skip(&t, "pmu.fixed2", "not enumerated by CPUID"), 6);
	assert_int_equal(tap_skip(&t, "pmu.fixed3", NULL), 7);
	assert_int_equal(tap_result(&t, 2, "nonzero.is.pass", NULL), 8);

	assert_int_equal(cap.n, 8);
	LINE(0, "ok 1 pmu.present\n");
	LINE(1, "ok 2 pmu.version\n");
	LINE(2, "ok 3 icount.loop_delta # measured=4000 expected=4000\n");
	LINE(3, "not ok 4 fault.ud # measured=none expected=#UD(6)\n");
	LINE(4, "not ok 5 fault.gp\n");
	LINE(5, "ok 6 pmu.fixed2 # SKIP not enumerated by CPUID\n");
	LINE(6, "ok 7 pmu.fixed3 # SKIP\n");
	LINE(7, "ok 8 nonzero.is.pass\n");

	assert_int_equal(t.passed, 4);
	assert_int_equal(t.failed, 2);
	assert_int_equal(t.skipped, 2);
	assert_int_equal(t.next, 9);
}

static void test_sanitising(void **state)
{
	struct tap t;
	(void)state;

	tap_init(&t, cap_out, &cap);
	tap_result(&t, 1, "bad#name\nwith\rbreaks", "two\nlines\r\nand # hash");
	tap_skip(&t, "x#y", "reason\nsplit");
	tap_bail(&t, "cannot\ncontinue");
	tap_result(&t, 1, NULL, NULL);
	tap_skip(&t, "", "");
	LINE(0, "ok 1 bad_name_with_breaks # two lines  and # hash\n");
	LINE(1, "ok 2 x_y # SKIP reason split\n");
	LINE(2, "Bail out! cannot continue\n");
	LINE(3, "ok 3\n");	/* no name: no trailing space */
	LINE(4, "ok 4 # SKIP\n");
}

static void test_diag(void **state)
{
	struct tap t;
	(void)state;

	tap_init(&t, cap_out, &cap);
	tap_diag(&t, "hello");
	tap_diag(&t, "one\ntwo\r\nthree\n");
	tap_diag(&t, "");
	tap_diag(&t, "a\n\nb");
	tap_diag(&t, "stray\rcr");
	tap_diagf(&t, "pmu v%u, %d counters, mask %#x", 4u, 8, 0xffu);

	assert_int_equal(cap.n, 10);
	LINE(0, "# hello\n");
	LINE(1, "# one\n");
	LINE(2, "# two\n");
	LINE(3, "# three\n");
	LINE(4, "#\n");
	LINE(5, "# a\n");
	LINE(6, "#\n");
	LINE(7, "# b\n");
	LINE(8, "# stray cr\n");
	LINE(9, "# pmu v4, 8 counters, mask 0xff\n");
	/* diagnostics do not move test numbers or counters */
	assert_int_equal(t.next, 1);
	assert_int_equal(t.passed + t.failed + t.skipped, 0);
}

static void test_diagf_second_line(void **state)
{
	struct tap t;
	(void)state;

	tap_init(&t, cap_out, &cap);
	tap_diagf(&t, "%s\n%s", "first", "second");
	assert_int_equal(cap.n, 2);
	LINE(0, "# first\n");
	LINE(1, "# second\n");
}

static void test_bail_and_summary(void **state)
{
	struct tap t;
	(void)state;

	tap_init(&t, cap_out, &cap);
	tap_bail(&t, "no PMU");
	tap_bail(&t, NULL);
	tap_bail(&t, "");
	LINE(0, "Bail out! no PMU\n");
	LINE(1, "Bail out!\n");
	LINE(2, "Bail out!\n");

	assert_int_equal(tap_summary(&t), 0);
	LINE(3, "0 passed, 0 failed, 0 skipped\n");

	tap_result(&t, 1, "a", NULL);
	tap_result(&t, 0, "b", NULL);
	tap_result(&t, 0, "c", NULL);
	tap_skip(&t, "d", "x");
	assert_int_equal(tap_summary(&t), 2);
	LINE(8, "1 passed, 2 failed, 1 skipped\n");
}

static void test_full_run(void **state)
{
	struct tap t;
	(void)state;

	tap_init(&t, cap_out, &cap);
	tap_version(&t);
	tap_plan(&t, 3);
	tap_diag(&t, "pmuboot");
	tap_result(&t, 1, "cpu.tsc", "measured=1 expected=1");
	tap_skip(&t, "pmu.gp", "no PMU");
	tap_result(&t, 0, "icount.exact", "measured=4001 expected=4000");
	tap_summary(&t);

	static const char *const want[] = {
		"TAP version 13\n",
		"1..3\n",
		"# pmuboot\n",
		"ok 1 cpu.tsc # measured=1 expected=1\n",
		"ok 2 pmu.gp # SKIP no PMU\n",
		"not ok 3 icount.exact # measured=4001 expected=4000\n",
		"1 passed, 1 failed, 1 skipped\n",
	};
	assert_int_equal(cap.n, sizeof(want) / sizeof(want[0]));
	for (unsigned i = 0; i < cap.n; i++)
		LINE(i, want[i]);
}

static void test_long_lines(void **state)
{
	struct tap t;
	char name[1000], detail[1000];
	(void)state;

	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	memset(detail, 'd', sizeof(detail) - 1);
	detail[sizeof(detail) - 1] = '\0';

	tap_init(&t, cap_out, &cap);
	tap_result(&t, 1, name, detail);
	tap_diag(&t, detail);
	tap_bail(&t, detail);
	tap_skip(&t, "s", detail);
	assert_int_equal(cap.n, 4);
	for (unsigned i = 0; i < cap.n; i++) {
		size_t len = strlen(cap.lines[i]);

		/* cut to the 512-byte buffer, still one complete line */
		assert_int_equal(len, 511);
		assert_int_equal(cap.lines[i][len - 1], '\n');
		assert_ptr_equal(strchr(cap.lines[i], '\n'), cap.lines[i] + len - 1);
	}
	assert_true(strncmp(cap.lines[0], "ok 1 nnnn", 9) == 0);
	assert_true(strncmp(cap.lines[1], "# dddd", 6) == 0);
	assert_true(strncmp(cap.lines[2], "Bail out! dddd", 14) == 0);
	assert_true(strncmp(cap.lines[3], "ok 2 s # SKIP dddd", 18) == 0);
	assert_int_equal(t.passed, 1);
	assert_int_equal(t.skipped, 1);
}

static void test_null_output(void **state)
{
	struct tap t;
	(void)state;

	/* no callback: counting still works, nothing crashes */
	tap_init(&t, NULL, NULL);
	tap_version(&t);
	tap_plan(&t, 2);
	assert_int_equal(tap_result(&t, 0, "a", "b"), 1);
	assert_int_equal(tap_skip(&t, "c", "d"), 2);
	tap_diag(&t, "x");
	tap_bail(&t, "y");
	assert_int_equal(tap_summary(&t), 1);
	assert_int_equal(t.skipped, 1);
	assert_int_equal(cap.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_init_and_header, setup),
		cmocka_unit_test_setup(test_results, setup),
		cmocka_unit_test_setup(test_sanitising, setup),
		cmocka_unit_test_setup(test_diag, setup),
		cmocka_unit_test_setup(test_diagf_second_line, setup),
		cmocka_unit_test_setup(test_bail_and_summary, setup),
		cmocka_unit_test_setup(test_full_run, setup),
		cmocka_unit_test_setup(test_long_lines, setup),
		cmocka_unit_test_setup(test_null_output, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
