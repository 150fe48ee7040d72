/* SPDX-License-Identifier: MIT */
/* Host unit tests for tests/harness/options.c: every option, every error message, cfg text parsing. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "tests/harness/options.h"

#define ERRLEN 256

static struct options fresh(void)
{
	struct options o;

	memset(&o, 0xa5, sizeof(o));	/* defaults must set everything that matters */
	options_defaults(&o);
	return o;
}

static void tok_ok_at(int line, struct options *o, const char *tok)
{
	char err[ERRLEN] = "junk";
	int r = options_parse_token(o, tok, err, sizeof(err));

	if (r != 0)
		fail_msg("line %d: \"%s\" failed: %s", line, tok, err);
	assert_string_equal(err, "");
}

static void tok_err_at(int line, const char *tok, const char *want)
{
	struct options o = fresh(), before;
	char err[ERRLEN];
	int r;

	before = o;
	r = options_parse_token(&o, tok, err, sizeof(err));
	if (r != -1)
		fail_msg("line %d: \"%s\" should fail", line, tok);
	if (strcmp(err, want) != 0)
		fail_msg("line %d: \"%s\"\n  got:  \"%s\"\n  want: \"%s\"", line, tok, err, want);
	/* a rejected token changes nothing */
	assert_memory_equal(&o, &before, sizeof(o));
}

#define TOK_OK(o, tok) tok_ok_at(__LINE__, (o), (tok))
#define TOK_ERR(tok, msg) tok_err_at(__LINE__, (tok), (msg))

static void test_defaults(void **state)
{
	struct options o = fresh();
	(void)state;

	assert_int_equal(o.ntests, 0);
	assert_int_equal(o.reps, OPT_REPS_DEFAULT);
	assert_false(o.reps_set);
	assert_false(o.size_set);
	assert_int_equal(o.serial_port, 0x3F8);
	assert_int_equal(o.serial_baud, 115200);
	assert_int_equal(o.on_exit, ON_EXIT_DEFAULT);
	assert_int_equal(o.boot_services, BOOT_SERVICES_EXIT);
	assert_false(o.force_pmu);
	assert_false(o.list);
	assert_false(o.icount);
	assert_int_equal(o.watchdog_ms, OPT_WATCHDOG_MS_DEFAULT);
	assert_int_equal(options_on_exit(&o), ON_EXIT_SHUTDOWN);
}

static void test_unknown_and_flags(void **state)
{
	struct options o = fresh();
	(void)state;

	TOK_ERR("frob=1", "frob=1: unknown option");
	TOK_ERR("frob", "frob: unknown option");
	TOK_ERR("=5", "=5: unknown option");
	TOK_ERR("Reps=5", "Reps=5: unknown option");
	TOK_ERR("LIST", "LIST: unknown option");
	TOK_ERR("", ": unknown option");

	TOK_OK(&o, "list");
	assert_true(o.list);
	assert_false(o.force_pmu);
	TOK_OK(&o, "force-pmu");
	assert_true(o.force_pmu);
	TOK_OK(&o, "icount");
	assert_true(o.icount);
	TOK_OK(&o, "list");	/* repeating a flag is harmless */
	assert_true(o.list);

	TOK_ERR("list=1", "list=1: expected checks, events, coverage or all");
	TOK_ERR("force-pmu=yes", "force-pmu=yes: flag takes no value");
	TOK_ERR("icount=", "icount=: flag takes no value");
	TOK_ERR("bts=on", "bts=on: flag takes no value");
	assert_false(o.bts);
	TOK_OK(&o, "bts");
	assert_true(o.bts);

	assert_false(o.oracle);
	TOK_OK(&o, "oracle");
	assert_true(o.oracle);
	TOK_ERR("oracle=1", "oracle=1: flag takes no value");
	assert_int_equal(o.oracle_fault, ORACLE_FAULT_NONE);
	TOK_OK(&o, "oracle-fault=loads");
	assert_int_equal(o.oracle_fault, ORACLE_FAULT_LOADS);
	TOK_OK(&o, "oracle-fault=lbr");
	assert_int_equal(o.oracle_fault, ORACLE_FAULT_LBR);
	TOK_OK(&o, "oracle-fault=insns");
	assert_int_equal(o.oracle_fault, ORACLE_FAULT_INSNS);
	TOK_OK(&o, "oracle-fault=none");
	assert_int_equal(o.oracle_fault, ORACLE_FAULT_NONE);
	TOK_ERR("oracle-fault=stores", "oracle-fault=stores: expected none, loads, lbr or insns");
	TOK_ERR("oracle-fault=", "oracle-fault=: missing value");
	assert_false(o.pmi_nmi);
	TOK_OK(&o, "pmi=nmi");
	assert_true(o.pmi_nmi);
	TOK_OK(&o, "pmi=interrupt");
	assert_false(o.pmi_nmi);
	TOK_ERR("pmi=smi", "pmi=smi: expected interrupt or nmi");
}

static void test_missing_values(void **state)
{
	(void)state;
	TOK_ERR("reps", "reps: missing value");
	TOK_ERR("reps=", "reps=: missing value");
	TOK_ERR("tests", "tests: missing value");
	TOK_ERR("tests=", "tests=: missing value");
	TOK_ERR("size=", "size=: missing value");
	TOK_ERR("serial", "serial: missing value");
	TOK_ERR("on-exit=", "on-exit=: missing value");
	TOK_ERR("boot-services", "boot-services: missing value");
	TOK_ERR("watchdog=", "watchdog=: missing value");
}

static void test_reps(void **state)
{
	struct options o = fresh();
	(void)state;

	TOK_OK(&o, "reps=1");
	assert_int_equal(o.reps, 1);
	assert_true(o.reps_set);
	TOK_OK(&o, "reps=1000000");
	assert_int_equal(o.reps, 1000000);
	TOK_OK(&o, "reps=0x10");
	assert_int_equal(o.reps, 16);
	TOK_OK(&o, "reps=007");
	assert_int_equal(o.reps, 7);

	TOK_ERR("reps=abc", "reps=abc: not a number");
	TOK_ERR("reps=12abc", "reps=12abc: not a number");
	TOK_ERR("reps=-1", "reps=-1: not a number");
	TOK_ERR("reps=+1", "reps=+1: not a number");
	TOK_ERR("reps=0x", "reps=0x: not a number");
	TOK_ERR("reps=1.5", "reps=1.5: not a number");
	TOK_ERR("reps=0", "reps=0: out of range (1..1000000)");
	TOK_ERR("reps=1000001", "reps=1000001: out of range (1..1000000)");
	TOK_ERR("reps=99999999999999999999999", "reps=99999999999999999999999: out of range (1..1000000)");
	TOK_ERR("reps=0xFFFFFFFFFFFFFFFFF", "reps=0xFFFFFFFFFFFFFFFFF: out of range (1..1000000)");
	TOK_ERR("reps=4294967297", "reps=4294967297: out of range (1..1000000)");
}

static void test_watchdog(void **state)
{
	struct options o = fresh();
	(void)state;

	TOK_OK(&o, "watchdog=1");
	assert_int_equal(o.watchdog_ms, 1);
	TOK_OK(&o, "watchdog=3600000");
	assert_int_equal(o.watchdog_ms, 3600000);
	TOK_OK(&o, "watchdog=0x3E8");
	assert_int_equal(o.watchdog_ms, 1000);

	TOK_ERR("watchdog=0", "watchdog=0: out of range (1..3600000)");
	TOK_ERR("watchdog=3600001", "watchdog=3600001: out of range (1..3600000)");
	TOK_ERR("watchdog=1s", "watchdog=1s: not a number");
	TOK_ERR("watchdog=off", "watchdog=off: not a number");
}

static void test_cpus(void **state)
{
	struct options o = fresh();
	(void)state;

	assert_int_equal(o.cpus, ~0ULL);
	assert_false(o.cpus_set);
	TOK_OK(&o, "cpus=0");
	assert_int_equal(o.cpus, 1);
	assert_true(o.cpus_set);
	TOK_OK(&o, "cpus=1-3");
	assert_int_equal(o.cpus, 0xe);
	TOK_OK(&o, "cpus=0,2,4-5");
	assert_int_equal(o.cpus, 0x35);
	TOK_OK(&o, "cpus=3-3,0x3F");
	assert_int_equal(o.cpus, 0x8000000000000008ULL);
	TOK_OK(&o, "cpus=all");
	assert_int_equal(o.cpus, ~0ULL);
	assert_false(o.cpus_set);

	TOK_ERR("cpus=", "cpus=: missing value");
	TOK_ERR("cpus=64", "cpus=64: CPU 64 out of range (0..63)");
	TOK_ERR("cpus=1-99", "cpus=1-99: CPU 99 out of range (0..63)");
	TOK_ERR("cpus=3-1", "cpus=3-1: range 3-1 runs backwards");
	TOK_ERR("cpus=1,", "cpus=1,: expected all or CPU numbers and ranges, e.g. 0,2-3");
	TOK_ERR("cpus=1-", "cpus=1-: a range needs an end, e.g. 2-3");
	TOK_ERR("cpus=none", "cpus=none: expected all or CPU numbers and ranges, e.g. 0,2-3");
	TOK_ERR("cpus=1;2", "cpus=1;2: expected all or CPU numbers and ranges, e.g. 0,2-3");
}

static void test_size(void **state)
{
	struct options o = fresh();
	(void)state;

	TOK_OK(&o, "size=4K");
	assert_true(o.size_set);
	assert_int_equal(o.size, 4096);
	TOK_OK(&o, "size=4096");
	assert_int_equal(o.size, 4096);
	TOK_OK(&o, "size=0x1000");
	assert_int_equal(o.size, 4096);
	TOK_OK(&o, "size=0x10K");
	assert_int_equal(o.size, 16 << 10);
	TOK_OK(&o, "size=64M");
	assert_int_equal(o.size, 64ull << 20);
	TOK_OK(&o, "size=64m");
	assert_int_equal(o.size, 64ull << 20);
	TOK_OK(&o, "size=8k");
	assert_int_equal(o.size, 8192);
	TOK_OK(&o, "size=1G");
	assert_int_equal(o.size, 1ull << 30);
	TOK_OK(&o, "size=2g");
	assert_int_equal(o.size, 2ull << 30);
	TOK_OK(&o, "size=1024G");
	assert_int_equal(o.size, 1ull << 40);
	TOK_OK(&o, "size=1099511627776");
	assert_int_equal(o.size, 1ull << 40);
	/* The range message says 4K..1T: its upper end must be writable as it is shown. */
	TOK_OK(&o, "size=1T");
	assert_int_equal(o.size, 1ull << 40);
	TOK_OK(&o, "size=1t");
	assert_int_equal(o.size, 1ull << 40);

	TOK_ERR("size=2T", "size=2T: out of range (4K..1T)");
	TOK_ERR("size=5X", "size=5X: unknown suffix 'X' (use K, M, G or T)");
	TOK_ERR("size=4KB", "size=4KB: unknown suffix 'KB' (use K, M, G or T)");
	TOK_ERR("size=1TB", "size=1TB: unknown suffix 'TB' (use K, M, G or T)");
	TOK_ERR("size=4 K", "size=4 K: unknown suffix ' K' (use K, M, G or T)");
	TOK_ERR("size=abc", "size=abc: not a number");
	TOK_ERR("size=K", "size=K: not a number");
	TOK_ERR("size=-4K", "size=-4K: not a number");
	TOK_ERR("size=0", "size=0: out of range (4K..1T)");
	TOK_ERR("size=2K", "size=2K: out of range (4K..1T)");
	TOK_ERR("size=4095", "size=4095: out of range (4K..1T)");
	TOK_ERR("size=1025G", "size=1025G: out of range (4K..1T)");
	TOK_ERR("size=1099511631872", "size=1099511631872: out of range (4K..1T)");
	TOK_ERR("size=18446744073709551616", "size=18446744073709551616: out of range (4K..1T)");
	TOK_ERR("size=17179869184G", "size=17179869184G: out of range (4K..1T)");
	TOK_ERR("size=5000", "size=5000: not a multiple of 4096");
	TOK_ERR("size=6K", "size=6K: not a multiple of 4096");
	TOK_ERR("size=0x1001", "size=0x1001: not a multiple of 4096");
}

static void test_serial(void **state)
{
	struct options o = fresh();
	(void)state;

	TOK_OK(&o, "serial=0x2F8,9600");
	assert_int_equal(o.serial_port, 0x2F8);
	assert_int_equal(o.serial_baud, 9600);
	/* a later serial= without baud replaces the whole option: baud back to 115200 */
	TOK_OK(&o, "serial=0x3E8");
	assert_int_equal(o.serial_port, 0x3E8);
	assert_int_equal(o.serial_baud, 115200);
	TOK_OK(&o, "serial=1,1");
	assert_int_equal(o.serial_port, 1);
	assert_int_equal(o.serial_baud, 1);
	TOK_OK(&o, "serial=0xFFFF,115200");
	assert_int_equal(o.serial_port, 0xFFFF);
	assert_int_equal(o.serial_baud, 115200);
	TOK_OK(&o, "serial=1016,57600");
	assert_int_equal(o.serial_port, 1016);
	assert_int_equal(o.serial_baud, 57600);
	TOK_OK(&o, "serial=0x3F8,0x9600");	/* hex baud 38400 divides 115200 */
	assert_int_equal(o.serial_baud, 38400);

	TOK_ERR("serial=0x3F8,1234", "serial=0x3F8,1234: baud 1234 does not divide 115200");
	TOK_ERR("serial=0x3F8,0", "serial=0x3F8,0: baud 0 does not divide 115200");
	TOK_ERR("serial=0x3F8,230400", "serial=0x3F8,230400: baud 230400 does not divide 115200");
	TOK_ERR("serial=0x3F8,99999999999999999999", "serial=0x3F8,99999999999999999999: baud 99999999999999999999 does not divide 115200");
	TOK_ERR("serial=0x3F8,fast", "serial=0x3F8,fast: baud 'fast' is not a number");
	TOK_ERR("serial=0x3F8,", "serial=0x3F8,: baud '' is not a number");
	TOK_ERR("serial=1,2,3", "serial=1,2,3: baud '2,3' is not a number");
	TOK_ERR("serial=0", "serial=0: port 0 out of range (1..0xFFFF)");
	TOK_ERR("serial=0x10000,9600", "serial=0x10000,9600: port 0x10000 out of range (1..0xFFFF)");
	TOK_ERR("serial=99999999999999999999", "serial=99999999999999999999: port 99999999999999999999 out of range (1..0xFFFF)");
	TOK_ERR("serial=com1", "serial=com1: port 'com1' is not a number");
	TOK_ERR("serial=,9600", "serial=,9600: port '' is not a number");
}

static void test_on_exit_boot_services(void **state)
{
	struct options o = fresh();
	(void)state;

	TOK_OK(&o, "on-exit=reboot");
	assert_int_equal(o.on_exit, ON_EXIT_REBOOT);
	TOK_OK(&o, "on-exit=halt");
	assert_int_equal(o.on_exit, ON_EXIT_HALT);
	TOK_OK(&o, "on-exit=return");
	assert_int_equal(o.on_exit, ON_EXIT_RETURN);
	TOK_OK(&o, "on-exit=shutdown");
	assert_int_equal(o.on_exit, ON_EXIT_SHUTDOWN);
	TOK_OK(&o, "boot-services=keep");
	assert_int_equal(o.boot_services, BOOT_SERVICES_KEEP);
	TOK_OK(&o, "boot-services=exit");
	assert_int_equal(o.boot_services, BOOT_SERVICES_EXIT);

	TOK_ERR("on-exit=poweroff", "on-exit=poweroff: expected shutdown, reboot, halt or return");
	TOK_ERR("on-exit=Reboot", "on-exit=Reboot: expected shutdown, reboot, halt or return");
	TOK_ERR("on-exit=rebooting", "on-exit=rebooting: expected shutdown, reboot, halt or return");
	TOK_ERR("boot-services=drop", "boot-services=drop: expected exit or keep");
	TOK_ERR("boot-services=keep=1", "boot-services=keep=1: expected exit or keep");
}

static void test_tests_globs(void **state)
{
	struct options o = fresh();
	char tok[2048], want[2300], glob63[64], glob64[65];
	(void)state;

	TOK_OK(&o, "tests=icount.*");
	assert_int_equal(o.ntests, 1);
	assert_string_equal(o.tests[0], "icount.*");
	TOK_OK(&o, "tests=a,b?,*.ud");
	assert_int_equal(o.ntests, 3);
	assert_string_equal(o.tests[0], "a");
	assert_string_equal(o.tests[1], "b?");
	assert_string_equal(o.tests[2], "*.ud");
	/* replaced, not appended */
	TOK_OK(&o, "tests=x");
	assert_int_equal(o.ntests, 1);
	assert_string_equal(o.tests[0], "x");
	assert_string_equal(o.tests[1], "");
	TOK_OK(&o, "tests=*");
	assert_int_equal(o.ntests, 1);
	assert_string_equal(o.tests[0], "*");

	/* exactly 16 globs, then 17 */
	strcpy(tok, "tests=g0");
	for (int i = 1; i < 16; i++)
		sprintf(tok + strlen(tok), ",g%d", i);
	TOK_OK(&o, tok);
	assert_int_equal(o.ntests, 16);
	assert_string_equal(o.tests[15], "g15");
	strcat(tok, ",g16");
	snprintf(want, sizeof(want), "%s: too many globs (max 16)", tok);
	TOK_ERR(tok, want);

	/* 63 characters fit, 64 do not */
	memset(glob63, 'a', 63);
	glob63[63] = '\0';
	memset(glob64, 'b', 64);
	glob64[64] = '\0';
	snprintf(tok, sizeof(tok), "tests=x,%s", glob63);
	TOK_OK(&o, tok);
	assert_int_equal(o.ntests, 2);
	assert_string_equal(o.tests[1], glob63);
	snprintf(tok, sizeof(tok), "tests=x,%s,y", glob64);
	snprintf(want, sizeof(want), "%s: glob '%s' too long (max 63 characters)", tok, glob64);
	TOK_ERR(tok, want);

	TOK_ERR("tests=a,,b", "tests=a,,b: empty glob");
	TOK_ERR("tests=a,", "tests=a,: empty glob");
	TOK_ERR("tests=,a", "tests=,a: empty glob");
	TOK_ERR("tests=,", "tests=,: empty glob");

	/* a failed tests= leaves the previous list alone */
	TOK_OK(&o, "tests=keep.me");
	{
		char err[ERRLEN];

		assert_int_equal(options_parse_token(&o, "tests=a,,b", err, sizeof(err)), -1);
	}
	assert_int_equal(o.ntests, 1);
	assert_string_equal(o.tests[0], "keep.me");
}

/* !GLOB leaves out what it matches (issue 21 item 18: run.sh --vpmu leaves out the seed
 * events with tests=!events.*); alone, the default set is what it leaves out of. */
static void test_tests_exclude(void **state)
{
	struct options o = fresh();
	(void)state;

	assert_int_equal(options_select(&o, "pmu.fixed"), OPT_SEL_DEFAULT);
	TOK_OK(&o, "tests=!events.*");
	assert_int_equal(o.ntests, 1);
	assert_string_equal(o.tests[0], "!events.*");
	assert_int_equal(options_select(&o, "events.nhm.BR_INST_EXEC.ANY"), OPT_SEL_OUT);
	assert_int_equal(options_select(&o, "pmu.fixed"), OPT_SEL_DEFAULT);
	TOK_OK(&o, "tests=pmu.*,!pmu.pmi_*");
	assert_int_equal(options_select(&o, "pmu.fixed"), OPT_SEL_GROUP);
	assert_int_equal(options_select(&o, "pmu.fixed@apic1"), OPT_SEL_GROUP);
	assert_int_equal(options_select(&o, "pmu.pmi_storm"), OPT_SEL_OUT);
	assert_int_equal(options_select(&o, "lbr.basic"), OPT_SEL_NONE);
	TOK_OK(&o, "tests=*.fixed,!lbr.*");	/* matches without naming the group */
	assert_int_equal(options_select(&o, "pmu.fixed"), OPT_SEL_MATCH);
	TOK_OK(&o, "tests=!pmu.*,pmu.fixed");	/* leaving out wins, wherever it stands */
	assert_int_equal(options_select(&o, "pmu.fixed"), OPT_SEL_OUT);
	TOK_ERR("tests=a,!", "tests=a,!: empty glob");
	TOK_ERR("tests=!", "tests=!: empty glob");
}

static void test_err_buffer_limits(void **state)
{
	struct options o = fresh();
	char err[12];
	(void)state;

	memset(err, 'Z', sizeof(err));
	assert_int_equal(options_parse_token(&o, "reps=abc", err, 8), -1);
	assert_string_equal(err, "reps=ab");
	assert_int_equal(err[8], 'Z');
	memset(err, 'Z', sizeof(err));
	assert_int_equal(options_parse_token(&o, "reps=0", err, 1), -1);
	assert_int_equal(err[0], '\0');
	assert_int_equal(err[1], 'Z');
	assert_int_equal(options_parse_token(&o, "reps=0", NULL, 0), -1);
	assert_int_equal(options_parse_token(&o, "reps=3", NULL, 0), 0);
	assert_int_equal(o.reps, 3);
	assert_int_equal(options_parse_text(&o, "a\nreps=0", 8, "cfg", NULL, 0), -1);
	memset(err, 'Z', sizeof(err));
	assert_int_equal(options_parse_text(&o, "a\nreps=0", 8, "pmuboot.cfg", err, 6), -1);
	assert_string_equal(err, "pmubo");
}

static int text_at(int line, struct options *o, const char *text, const char *src, char *err)
{
	int r = options_parse_text(o, text, strlen(text), src, err, ERRLEN);

	if (r == 0 && err[0])
		fail_msg("line %d: success but err=\"%s\"", line, err);
	return r;
}

#define TEXT(o, t, src, err) text_at(__LINE__, (o), (t), (src), (err))

static void test_text_cfg(void **state)
{
	static const char cfg[] =
		"# pmuboot.cfg: run options\r\n"
		"\r\n"
		"reps=5   # five repetitions\r\n"
		"\ttests=icount.*,fault.ud\r\n"
		"   \r\n"
		"size=64M serial=0x2F8,9600\r\n"
		"list#comment right after a flag\r\n"
		"on-exit=reboot\tboot-services=keep\r"	/* lone CR is just a separator */
		"watchdog=250\r\n"
		"# trailing comment without newline";
	struct options o = fresh();
	char err[ERRLEN];
	(void)state;

	assert_int_equal(TEXT(&o, cfg, "pmuboot.cfg", err), 0);
	assert_int_equal(o.reps, 5);
	assert_int_equal(o.ntests, 2);
	assert_string_equal(o.tests[0], "icount.*");
	assert_string_equal(o.tests[1], "fault.ud");
	assert_int_equal(o.size, 64ull << 20);
	assert_int_equal(o.serial_port, 0x2F8);
	assert_int_equal(o.serial_baud, 9600);
	assert_true(o.list);
	assert_int_equal(o.on_exit, ON_EXIT_REBOOT);
	assert_int_equal(o.boot_services, BOOT_SERVICES_KEEP);
	assert_int_equal(o.watchdog_ms, 250);
	assert_false(o.force_pmu);
	assert_false(o.icount);

	/* Empty and comment-only texts are fine. */
	o = fresh();
	assert_int_equal(TEXT(&o, "", "pmuboot.cfg", err), 0);
	assert_int_equal(TEXT(&o, "  \t\r\n\n# only a comment\n#\n", "pmuboot.cfg", err), 0);
	assert_int_equal(o.reps, OPT_REPS_DEFAULT);
}

static void test_text_line_numbers(void **state)
{
	struct options o;
	char err[ERRLEN];
	(void)state;

	o = fresh();
	assert_int_equal(TEXT(&o, "reps=5\n\n# c\nsize=5X\nreps=7\n", "pmuboot.cfg", err), -1);
	assert_string_equal(err, "pmuboot.cfg line 4: size=5X: unknown suffix 'X' (use K, M, G or T)");
	assert_int_equal(o.reps, 5);	/* stopped at the error: reps=7 never applied */

	o = fresh();
	assert_int_equal(TEXT(&o, "# x\r\n\r\nlist reps=0\r\n", "pmuboot.cfg", err), -1);
	assert_string_equal(err, "pmuboot.cfg line 3: reps=0: out of range (1..1000000)");
	assert_true(o.list);	/* tokens before the bad one on the same line were applied */

	o = fresh();
	assert_int_equal(TEXT(&o, "a\rb\rc\nfrob", "pmuboot.cfg", err), -1);
	assert_string_equal(err, "pmuboot.cfg line 1: a: unknown option");

	/* The line number of a line following a comment line. */
	o = fresh();
	assert_int_equal(TEXT(&o, "#reps=0\n# watchdog=0\nwatchdog=0", "pmuboot.cfg", err), -1);
	assert_string_equal(err, "pmuboot.cfg line 3: watchdog=0: out of range (1..3600000)");

	/* Single-line texts name no line, with or without a trailing line break. */
	o = fresh();
	assert_int_equal(TEXT(&o, "list reps=0", "command line", err), -1);
	assert_string_equal(err, "command line: reps=0: out of range (1..1000000)");
	o = fresh();
	assert_int_equal(TEXT(&o, "reps=0\r\n", "command line", err), -1);
	assert_string_equal(err, "command line: reps=0: out of range (1..1000000)");
	o = fresh();
	assert_int_equal(TEXT(&o, "reps=0\n", "pmuboot.cfg", err), -1);
	assert_string_equal(err, "pmuboot.cfg: reps=0: out of range (1..1000000)");

	/* A multi-line command line does get line numbers. */
	o = fresh();
	assert_int_equal(TEXT(&o, "list\nreps=0", "command line", err), -1);
	assert_string_equal(err, "command line line 2: reps=0: out of range (1..1000000)");

	/* Without a source. */
	o = fresh();
	assert_int_equal(TEXT(&o, "list\nfrob", NULL, err), -1);
	assert_string_equal(err, "line 2: frob: unknown option");
	o = fresh();
	assert_int_equal(TEXT(&o, "frob", "", err), -1);
	assert_string_equal(err, "frob: unknown option");
}

static void test_text_length_and_nul(void **state)
{
	static const char with_nul[] = "reps=5\0reps=0";
	struct options o = fresh();
	char err[ERRLEN];
	(void)state;

	/* only len bytes are read: "reps=5 reps=0" cut to "reps=5" */
	assert_int_equal(options_parse_text(&o, "reps=5 reps=0", 6, "cmd", err, sizeof(err)), 0);
	assert_int_equal(o.reps, 5);
	/* cut in the middle of a token: "reps=12" read as "reps=1" */
	assert_int_equal(options_parse_text(&o, "reps=12", 6, "cmd", err, sizeof(err)), 0);
	assert_int_equal(o.reps, 1);
	/* a NUL ends the text early */
	assert_int_equal(options_parse_text(&o, with_nul, sizeof(with_nul) - 1, "cmd", err,
					    sizeof(err)), 0);
	assert_int_equal(o.reps, 5);
	/* len 0 reads nothing */
	assert_int_equal(options_parse_text(&o, "reps=0", 0, "cmd", err, sizeof(err)), 0);
	assert_int_equal(o.reps, 5);

	/* a non-terminated buffer is not read past len */
	char raw[6];
	memcpy(raw, "reps=9", 6);
	assert_int_equal(options_parse_text(&o, raw, sizeof(raw), "cmd", err, sizeof(err)), 0);
	assert_int_equal(o.reps, 9);
}

static void test_precedence(void **state)
{
	struct options o = fresh();
	char err[ERRLEN];
	(void)state;

	assert_int_equal(TEXT(&o, "reps=5 reps=9 watchdog=5 tests=a,b", "cmd", err), 0);
	assert_int_equal(o.reps, 9);

	/* cfg first, then the command line overrides key by key */
	o = fresh();
	assert_int_equal(TEXT(&o, "reps=5\ntests=a,b\nserial=0x2F8,9600\non-exit=halt\nlist\n",
			      "pmuboot.cfg", err), 0);
	assert_int_equal(TEXT(&o, "tests=c serial=0x3F8 reps=7", "command line", err), 0);
	assert_int_equal(o.reps, 7);
	assert_int_equal(o.ntests, 1);
	assert_string_equal(o.tests[0], "c");
	assert_int_equal(o.serial_port, 0x3F8);
	assert_int_equal(o.serial_baud, 115200);
	assert_int_equal(o.on_exit, ON_EXIT_HALT);	/* untouched keys keep the cfg value */
	assert_true(o.list);

	/* Validation looks at the combined result. */
	o = fresh();
	assert_int_equal(TEXT(&o, "on-exit=return", "pmuboot.cfg", err), 0);
	assert_int_equal(options_validate(&o, err, sizeof(err)), -1);
	assert_int_equal(TEXT(&o, "boot-services=keep", "command line", err), 0);
	assert_int_equal(options_validate(&o, err, sizeof(err)), 0);
	assert_string_equal(err, "");
}

static void test_validate_and_on_exit(void **state)
{
	struct options o = fresh();
	char err[ERRLEN];
	(void)state;

	assert_int_equal(options_validate(&o, err, sizeof(err)), 0);
	assert_string_equal(err, "");

	TOK_OK(&o, "on-exit=return");
	assert_int_equal(options_validate(&o, err, sizeof(err)), -1);
	assert_string_equal(err, "on-exit=return needs boot-services=keep: after ExitBootServices "
				 "there is nothing to return to");
	assert_int_equal(options_validate(&o, NULL, 0), -1);
	TOK_OK(&o, "boot-services=keep");
	assert_int_equal(options_validate(&o, err, sizeof(err)), 0);
	assert_int_equal(options_on_exit(&o), ON_EXIT_RETURN);

	/* default on-exit resolves by boot-services */
	o = fresh();
	assert_int_equal(options_on_exit(&o), ON_EXIT_SHUTDOWN);
	TOK_OK(&o, "boot-services=keep");
	assert_int_equal(options_on_exit(&o), ON_EXIT_RETURN);
	assert_int_equal(options_validate(&o, err, sizeof(err)), 0);
	TOK_OK(&o, "on-exit=reboot");
	assert_int_equal(options_on_exit(&o), ON_EXIT_REBOOT);
	TOK_OK(&o, "on-exit=halt");
	assert_int_equal(options_on_exit(&o), ON_EXIT_HALT);
	TOK_OK(&o, "on-exit=shutdown");
	assert_int_equal(options_on_exit(&o), ON_EXIT_SHUTDOWN);
}

static void test_format(void **state)
{
	static const char def[] = "tests=* reps=11 size=auto serial=0x3F8,115200 on-exit=shutdown "
				  "boot-services=exit watchdog=10000 cpus=all";
	struct options o = fresh(), o2;
	char buf[512], buf2[512], err[ERRLEN];
	(void)state;

	assert_int_equal(options_format(&o, buf, sizeof(buf)), (int)strlen(def));
	assert_string_equal(buf, def);

	assert_int_equal(TEXT(&o, "tests=icount.*,fault.ud reps=5 size=64M serial=0x2f8,9600 "
				  "on-exit=halt boot-services=keep watchdog=500 icount list force-pmu",
			      "cmd", err), 0);
	options_format(&o, buf, sizeof(buf));
	assert_string_equal(buf, "tests=icount.*,fault.ud reps=5 size=64M serial=0x2F8,9600 "
				 "on-exit=halt boot-services=keep watchdog=500 cpus=all force-pmu list icount");
	TOK_OK(&o, "oracle");
	TOK_OK(&o, "oracle-fault=lbr");
	options_format(&o, buf, sizeof(buf));
	assert_non_null(strstr(buf, " icount oracle oracle-fault=lbr"));

	/* on-exit shows the effective value */
	o = fresh();
	TOK_OK(&o, "boot-services=keep");
	options_format(&o, buf, sizeof(buf));
	assert_string_equal(buf, "tests=* reps=11 size=auto serial=0x3F8,115200 on-exit=return "
				 "boot-services=keep watchdog=10000 cpus=all");

	/* size in the largest exact unit */
	static const struct {
		const char *in, *out;
	} sz[] = {
		{ "size=4096", "size=4K" }, { "size=12K", "size=12K" }, { "size=1024K", "size=1M" },
		{ "size=3072M", "size=3G" }, { "size=1024G", "size=1T" },
		{ "size=0x101000", "size=1028K" },
	};
	for (size_t i = 0; i < sizeof(sz) / sizeof(sz[0]); i++) {
		o = fresh();
		TOK_OK(&o, sz[i].in);
		options_format(&o, buf, sizeof(buf));
		assert_non_null(strstr(buf, sz[i].out));
	}

	/* the output parses back to the same options */
	o = fresh();
	assert_int_equal(TEXT(&o, "tests=a*,b? reps=3 size=12K serial=0x2E8,38400 on-exit=reboot "
				  "watchdog=77 cpus=0,2-5,63 list", "cmd", err), 0);
	options_format(&o, buf, sizeof(buf));
	o2 = fresh();
	assert_int_equal(TEXT(&o2, buf, "cmd", err), 0);
	options_format(&o2, buf2, sizeof(buf2));
	assert_string_equal(buf, buf2);
	assert_int_equal(o2.reps, 3);
	assert_int_equal(o2.size, 12288);
	assert_int_equal(o2.serial_port, 0x2E8);
	assert_int_equal(o2.serial_baud, 38400);
	assert_non_null(strstr(buf, " cpus=0,2-5,63 "));
	assert_int_equal(o2.cpus, 0x800000000000003DULL);

	/* truncation: snprintf semantics */
	o = fresh();
	memset(buf, 'Z', sizeof(buf));
	assert_int_equal(options_format(&o, buf, 10), (int)strlen(def));
	assert_string_equal(buf, "tests=* r");
	assert_int_equal(buf[10], 'Z');
	assert_int_equal(options_format(&o, NULL, 0), (int)strlen(def));
	assert_int_equal(options_format(&o, buf, 1), (int)strlen(def));
	assert_string_equal(buf, "");
}

static void test_parse_numbers(void **state)
{
	uint64_t v;
	(void)state;

	assert_int_equal(options_parse_u64("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(options_parse_u64("18446744073709551615", &v), 0);
	assert_int_equal(v, UINT64_MAX);
	assert_int_equal(options_parse_u64("0xFFFFFFFFFFFFFFFF", &v), 0);
	assert_int_equal(v, UINT64_MAX);
	assert_int_equal(options_parse_u64("0XaBc", &v), 0);
	assert_int_equal(v, 0xabc);
	v = 77;
	assert_int_equal(options_parse_u64("18446744073709551616", &v), -1);
	assert_int_equal(options_parse_u64("0x10000000000000000", &v), -1);
	assert_int_equal(options_parse_u64("", &v), -1);
	assert_int_equal(options_parse_u64("0x", &v), -1);
	assert_int_equal(options_parse_u64("12 ", &v), -1);
	assert_int_equal(options_parse_u64(" 12", &v), -1);
	assert_int_equal(options_parse_u64("1K", &v), -1);
	assert_int_equal(options_parse_u64("0x1g", &v), -1);
	assert_int_equal(v, 77);	/* untouched on failure */

	assert_int_equal(options_parse_size("1", &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(options_parse_size("3K", &v), 0);
	assert_int_equal(v, 3072);
	assert_int_equal(options_parse_size("0x2M", &v), 0);
	assert_int_equal(v, 2ull << 20);
	assert_int_equal(options_parse_size("17179869183G", &v), 0);
	assert_int_equal(v, 17179869183ull << 30);
	v = 77;
	assert_int_equal(options_parse_size("17179869184G", &v), -1);
	assert_int_equal(options_parse_size("18014398509481984K", &v), -1);
	assert_int_equal(options_parse_size("1KK", &v), -1);
	assert_int_equal(options_parse_size("1B", &v), -1);
	assert_int_equal(options_parse_size("G", &v), -1);
	assert_int_equal(options_parse_size("", &v), -1);
	assert_int_equal(v, 77);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_unknown_and_flags),
		cmocka_unit_test(test_missing_values),
		cmocka_unit_test(test_reps),
		cmocka_unit_test(test_watchdog),
		cmocka_unit_test(test_cpus),
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_serial),
		cmocka_unit_test(test_on_exit_boot_services),
		cmocka_unit_test(test_tests_globs),
		cmocka_unit_test(test_tests_exclude),
		cmocka_unit_test(test_err_buffer_limits),
		cmocka_unit_test(test_text_cfg),
		cmocka_unit_test(test_text_line_numbers),
		cmocka_unit_test(test_text_length_and_nul),
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_validate_and_on_exit),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_parse_numbers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
