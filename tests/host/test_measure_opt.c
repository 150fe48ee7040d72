/* SPDX-License-Identifier: MIT */
/* Host unit tests for measure= and list= (tests/harness/measure_opt.c through tests/harness/options.c): the
 * grammar, every error message, the round trip through options_format. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "tests/harness/options.h"

#define ERRLEN 512

static struct options fresh(void)
{
	struct options o;

	memset(&o, 0xa5, sizeof(o));
	options_defaults(&o);
	return o;
}

static void ok_at(int line, struct options *o, const char *tok)
{
	char err[ERRLEN] = "junk";

	if (options_parse_token(o, tok, err, sizeof(err)) != 0)
		fail_msg("line %d: \"%s\" failed: %s", line, tok, err);
	assert_string_equal(err, "");
}

static void err_at(int line, const char *tok, const char *want)
{
	struct options o = fresh(), before;
	char err[ERRLEN];

	before = o;
	if (options_parse_token(&o, tok, err, sizeof(err)) != -1)
		fail_msg("line %d: \"%s\" should fail", line, tok);
	if (strcmp(err, want) != 0)
		fail_msg("line %d: \"%s\"\n  got:  \"%s\"\n  want: \"%s\"", line, tok, err, want);
	assert_memory_equal(&o, &before, sizeof(o));	/* nothing applied */
	assert_int_equal(o.nmeasure, 0);		/* nothing to run */
}

#define OK(o, tok) ok_at(__LINE__, (o), (tok))
#define ERR(tok, msg) err_at(__LINE__, (tok), (msg))

static void test_named(void **state)
{
	struct options o = fresh();
	const struct measure_set *s = &o.measure[0];
	(void)state;

	assert_int_equal(o.nmeasure, 0);
	OK(&o, "measure=INST_RETIRED.ANY_P,BR_INST_RETIRED.ALL_BRANCHES@loop4:100000");
	assert_int_equal(o.nmeasure, 1);
	assert_int_equal(s->nev, 2);
	assert_int_equal(s->kernel, MK_LOOP4);
	assert_int_equal(s->size, 100000);
	assert_true(s->size_set);
	assert_string_equal(s->ev[0].name, "INST_RETIRED.ANY_P");
	assert_false(s->ev[0].raw);
	assert_true(s->ev[0].usr && s->ev[0].os);
	assert_string_equal(s->ev[1].name, "BR_INST_RETIRED.ALL_BRANCHES");

	/* libpfm4 spelling, model prefix, modifiers */
	OK(&o, "measure=skl::MEM_LOAD_RETIRED:L3_MISS:u:c=2:i:e:t,MEM_LOAD_RETIRED.L3_MISS:k@chase:1M");
	assert_int_equal(o.nmeasure, 2);
	s = &o.measure[1];
	assert_string_equal(s->ev[0].name, "skl::MEM_LOAD_RETIRED:L3_MISS");
	assert_true(s->ev[0].usr);
	assert_false(s->ev[0].os);
	assert_true(s->ev[0].cmask_set);
	assert_int_equal(s->ev[0].cmask, 2);
	assert_true(s->ev[0].inv && s->ev[0].edge && s->ev[0].any);
	assert_false(s->ev[1].usr);
	assert_true(s->ev[1].os);
	assert_int_equal(s->kernel, MK_CHASE);
	assert_int_equal(s->size, 1 << 20);
	assert_int_equal(measure_iterations(s), (1 << 20) / 64);
	assert_int_equal(measure_buffer_bytes(s), 1 << 20);

	/* long modifier names; lower-case letters only are modifiers */
	OK(&o, "measure=CYCLE_ACTIVITY.STALLS_TOTAL:usr:os:cmask=4:inv:edge@div_loop");
	s = &o.measure[2];
	assert_true(s->ev[0].usr && s->ev[0].os && s->ev[0].inv && s->ev[0].edge);
	assert_int_equal(s->ev[0].cmask, 4);
	assert_false(s->size_set);
	assert_int_equal(s->size, measure_kernels[MK_DIV_LOOP].def_size);
	OK(&o, "measure=INST_RETIRED:ANY@loop4");	/* ANY is a unit mask, not AnyThread */
	assert_string_equal(o.measure[3].ev[0].name, "INST_RETIRED:ANY");
	assert_false(o.measure[3].ev[0].any);
	OK(&o, "measure=X:U@loop4");
	assert_string_equal(o.measure[4].ev[0].name, "X:U");
}

static void test_raw(void **state)
{
	struct options o = fresh();
	const struct measure_event *e;
	(void)state;

	OK(&o, "measure=cpu/event=0xd1,umask=0x20,cmask=1,inv,edge,any,usr,os/@chase_cold:2M");
	e = &o.measure[0].ev[0];
	assert_true(e->raw);
	assert_int_equal(e->event, 0xd1);
	assert_int_equal(e->umask, 0x20);
	assert_int_equal(e->cmask, 1);
	assert_true(e->inv && e->edge && e->any && e->usr && e->os);
	assert_int_equal(measure_iterations(&o.measure[0]), (2 << 20) / 128);

	/* several raw and named events in one list: commas inside cpu/.../ are the fields' */
	OK(&o, "measure=cpu/event=0xc0/,INST_RETIRED.ANY_P,cpu/event=0x3c,umask=0,name=cyc/u,r301c4@loop4");
	assert_int_equal(o.measure[1].nev, 4);
	e = o.measure[1].ev;
	assert_true(e[0].usr && e[0].os);
	assert_int_equal(e[0].umask, 0);
	assert_string_equal(e[2].label, "cyc");
	assert_true(e[2].usr);
	assert_false(e[2].os);
	/* perf's rNNNN: PERFEVTSEL bits */
	assert_true(e[3].raw);
	assert_int_equal(e[3].event, 0xc4);
	assert_int_equal(e[3].umask, 0x01);
	assert_true(e[3].usr && e[3].os);
	OK(&o, "measure=r1d0201a3:k,cpu/event=1,inv=0,edge=1/k@loop4");
	e = o.measure[2].ev;
	assert_int_equal(e[0].cmask, 0x1d);
	assert_int_equal(e[0].umask, 0x01);
	assert_int_equal(e[0].event, 0xa3);
	assert_true(e[0].os);
	assert_false(e[0].usr);
	assert_false(e[1].inv);
	assert_true(e[1].edge);
	assert_true(e[1].os);
	assert_false(e[1].usr);
	/* flags of rNNNN */
	OK(&o, "measure=r81860000@loop4");
	e = o.measure[3].ev;
	assert_true(e[0].inv && e[0].edge && !e[0].any);
	assert_int_equal(e[0].cmask, 0x81);
	assert_true(e[0].os && !e[0].usr);
	/* a name that only looks like r + hex is a name when it has other letters */
	OK(&o, "measure=RESOURCE_STALLS.ANY@loop4");
	assert_false(o.measure[4].ev[0].raw);
}

static void test_errors(void **state)
{
	(void)state;

	ERR("measure", "measure: missing value");
	ERR("measure=", "measure=: missing value");
	ERR("measure=INST_RETIRED.ANY", "measure=INST_RETIRED.ANY: missing @KERNEL (e.g. "
	    "measure=INST_RETIRED.ANY_P@loop4:100000)");
	ERR("measure=@loop4", "measure=@loop4: no event before '@'");
	ERR("measure=A@frob", "measure=A@frob: unknown kernel 'frob' (loop4, add_chain, "
	    "imul_chain, div_loop, branch_lfsr, branch_alt, bigcode, smallcode, chase, chase_cold, "
	    "store_plain, store_nt, store_ntdq)");
	ERR("measure=A@", "measure=A@: unknown kernel '' (loop4, add_chain, imul_chain, div_loop, "
	    "branch_lfsr, branch_alt, bigcode, smallcode, chase, chase_cold, store_plain, store_nt, "
	    "store_ntdq)");
	ERR("measure=A@loop4:", "measure=A@loop4:: empty size after 'loop4:'");
	ERR("measure=A@loop4:x", "measure=A@loop4:x: size 'x' is not N[K|M|G]");
	ERR("measure=A@loop4:5T", "measure=A@loop4:5T: size '5T' is not N[K|M|G]");
	ERR("measure=A@loop4:0", "measure=A@loop4:0: size 0 out of range for loop4 "
	    "(1..1073741824 iterations)");
	ERR("measure=A@loop4:2G", "measure=A@loop4:2G: size 2G out of range for loop4 "
	    "(1..1073741824 iterations)");
	ERR("measure=A@loop4:99999999999999999999", "measure=A@loop4:99999999999999999999: size "
	    "99999999999999999999 out of range for loop4 (1..1073741824 iterations)");
	ERR("measure=A@chase:100", "measure=A@chase:100: size 100 out of range for chase "
	    "(128..1099511627776 bytes)");
	ERR("measure=A@chase:200", "measure=A@chase:200: size 200 of chase is not a multiple of 64 bytes");
	ERR("measure=A@store_nt:192", "measure=A@store_nt:192: size 192 of store_nt is not a "
	    "multiple of 128 bytes");
	ERR("measure=A,,B@loop4", "measure=A,,B@loop4: empty event in the list (two commas, or one "
	    "at an end)");
	ERR("measure=A,@loop4", "measure=A,@loop4: empty event in the list (two commas, or one at "
	    "an end)");
	ERR("measure=,A@loop4", "measure=,A@loop4: empty event in the list (two commas, or one at "
	    "an end)");
	ERR("measure=A-B@loop4", "measure=A-B@loop4: bad character '-' in event 'A-B' (names are "
	    "letters, digits, '_', '.', ':')");
	ERR("measure=A\x01@loop4", "measure=A\x01@loop4: bad character '\\x01' in event 'A\x01' "
	    "(names are letters, digits, '_', '.', ':')");
	ERR("measure=A::@loop4", "measure=A::@loop4: empty part between ':' in 'A::'");
	ERR("measure=::A@loop4", "measure=::A@loop4: empty model before '::' in '::A'");
	ERR("measure=A:@loop4", "measure=A:@loop4: empty part between ':' in 'A:'");
	ERR("measure=A::B:u:@loop4", "measure=A::B:u:@loop4: empty part between ':' in 'A::B:u:'");
	ERR("measure=u@loop4", "measure=u@loop4: no event name before modifier 'u' in 'u'");
	ERR("measure=skl::k@loop4", "measure=skl::k@loop4: no event name before modifier 'k' in "
	    "'skl::k'");
	ERR("measure=A:u:B@loop4", "measure=A:u:B@loop4: unknown modifier 'B' in 'A:u:B' (u, k, i, "
	    "e, t, c=N)");
	ERR("measure=A:ldlat=3@loop4", "measure=A:ldlat=3@loop4: unknown modifier 'ldlat=3' in "
	    "'A:ldlat=3' (u, k, i, e, t, c=N)");
	ERR("measure=A:c=256@loop4", "measure=A:c=256@loop4: c=256 out of range (0..255) in "
	    "'A:c=256'");
	ERR("measure=A:cmask=x@loop4", "measure=A:cmask=x@loop4: cmask='x' is not a number in "
	    "'A:cmask=x'");
	ERR("measure=A:c=@loop4", "measure=A:c=@loop4: c='' is not a number in 'A:c='");
	/* raw */
	ERR("measure=cpu/event=0x1d1/@loop4", "measure=cpu/event=0x1d1/@loop4: event=0x1d1 out of "
	    "range (0..255) in 'cpu/event=0x1d1/'");
	ERR("measure=cpu/event=1,umask=256/@loop4", "measure=cpu/event=1,umask=256/@loop4: "
	    "umask=256 out of range (0..255) in 'cpu/event=1,umask=256/'");
	ERR("measure=cpu/event=1,cmask=0x100/@loop4", "measure=cpu/event=1,cmask=0x100/@loop4: "
	    "cmask=0x100 out of range (0..255) in 'cpu/event=1,cmask=0x100/'");
	ERR("measure=cpu/event=zz/@loop4", "measure=cpu/event=zz/@loop4: event='zz' is not a number "
	    "in 'cpu/event=zz/'");
	ERR("measure=cpu/evnt=1/@loop4", "measure=cpu/evnt=1/@loop4: unknown field 'evnt' in "
	    "'cpu/evnt=1/' (event, umask, cmask, inv, edge, any, usr, os, name)");
	ERR("measure=cpu/umask=1/@loop4", "measure=cpu/umask=1/@loop4: 'cpu/umask=1/' has no "
	    "event= field");
	ERR("measure=cpu/event=1,event=2/@loop4", "measure=cpu/event=1,event=2/@loop4: field "
	    "'event' given twice in 'cpu/event=1,event=2/'");
	ERR("measure=cpu/event/@loop4", "measure=cpu/event/@loop4: field 'event' needs a value in "
	    "'cpu/event/'");
	ERR("measure=cpu/event=1,inv=2/@loop4", "measure=cpu/event=1,inv=2/@loop4: flag 'inv' takes "
	    "no value, =0 or =1 in 'cpu/event=1,inv=2/'");
	ERR("measure=cpu/event=1,,inv/@loop4", "measure=cpu/event=1,,inv/@loop4: empty field in "
	    "'cpu/event=1,,inv/'");
	ERR("measure=cpu//@loop4", "measure=cpu//@loop4: empty field in 'cpu//'");
	ERR("measure=cpu/event=1,/@loop4", "measure=cpu/event=1,/@loop4: empty field in "
	    "'cpu/event=1,/'");
	ERR("measure=cpu/event=1@loop4", "measure=cpu/event=1@loop4: 'cpu/event=1' has no closing "
	    "'/'");
	ERR("measure=cpu/event=1/x@loop4", "measure=cpu/event=1/x@loop4: unknown modifier 'x' after "
	    "'cpu/event=1/' (u, k)");
	ERR("measure=cpu/event=1,usr/k@loop4", "measure=cpu/event=1,usr/k@loop4: both usr/os fields "
	    "and a u/k modifier in 'cpu/event=1,usr/k'");
	ERR("measure=cpu/event=1,usr=0,os=0/@loop4", "measure=cpu/event=1,usr=0,os=0/@loop4: "
	    "'cpu/event=1,usr=0,os=0/' counts at no privilege level (usr=0 and os=0)");
	ERR("measure=cpu/event=1,name=/@loop4", "measure=cpu/event=1,name=/@loop4: name= needs "
	    "1..23 characters in 'cpu/event=1,name=/'");
	ERR("measure=cpu/event=1,name=a:b/@loop4", "measure=cpu/event=1,name=a:b/@loop4: bad "
	    "character ':' in name= of 'cpu/event=1,name=a:b/' (letters, digits, '_', '.')");
	ERR("measure=r123456789@loop4", "measure=r123456789@loop4: raw event 'r123456789' is not "
	    "'r' and at most 8 hex digits");
	ERR("measure=r4000c0@loop4", "measure=r4000c0@loop4: raw event 'r4000c0' sets bit 22, EN "
	    "(pmuboot sets it): not allowed");
	ERR("measure=r1000c0@loop4", "measure=r1000c0@loop4: raw event 'r1000c0' sets bit 20, INT "
	    "(a PMI): not allowed");
	ERR("measure=r80000@loop4", "measure=r80000@loop4: raw event 'r80000' sets bit 19, PC (pin "
	    "control): not allowed");
	ERR("measure=rc0:x@loop4", "measure=rc0:x@loop4: unknown modifier 'x' in 'rc0:x' (u, k, i, "
	    "e, t, c=N)");
	ERR("measure=rc0:@loop4", "measure=rc0:@loop4: empty part between ':' in 'rc0:'");
	ERR("measure=A,B,C,D,E,F,G,H,I,J,K,L,M,N,O,P,Q@loop4", "measure=A,B,C,D,E,F,G,H,I,J,K,L,M,N,"
	    "O,P,Q@loop4: too many events (max 16 in one set; use several measure= options)");
	{
		char tok[200], want[480];

		snprintf(tok, sizeof(tok), "measure=%080d@loop4", 1);
		snprintf(want, sizeof(want), "%s: event name '%080d' too long (max 79 characters)",
			 tok, 1);
		ERR(tok, want);
	}
}

static void test_sets_and_list(void **state)
{
	struct options o = fresh();
	char err[ERRLEN];
	(void)state;

	for (unsigned i = 0; i < MEASURE_MAX_SETS; i++)
		OK(&o, "measure=A@loop4");
	assert_int_equal(o.nmeasure, MEASURE_MAX_SETS);
	assert_int_equal(options_parse_token(&o, "measure=A@loop4", err, sizeof(err)), -1);
	assert_string_equal(err, "measure=A@loop4: too many measure= sets (max 8)");
	OK(&o, "measure=none");
	assert_int_equal(o.nmeasure, 0);

	/* Within one text sets add up; a later text's first measure= replaces them. */
	o = fresh();
	assert_int_equal(options_parse_text(&o, "measure=A@loop4\nmeasure=B@chase\n", 32,
					    "pmuboot.cfg", err, sizeof(err)), 0);
	assert_int_equal(o.nmeasure, 2);
	assert_string_equal(o.measure[1].where, "pmuboot.cfg line 2");
	assert_int_equal(options_parse_text(&o, "reps=3", 6, "command line", err, sizeof(err)), 0);
	assert_int_equal(o.nmeasure, 2);
	assert_int_equal(options_parse_text(&o, "measure=C@div_loop measure=D@loop4", 34,
					    "command line", err, sizeof(err)), 0);
	assert_int_equal(o.nmeasure, 2);
	assert_string_equal(o.measure[0].ev[0].name, "C");
	assert_string_equal(o.measure[1].ev[0].name, "D");
	assert_string_equal(o.measure[1].where, "command line");
	assert_int_equal(options_parse_text(&o, "measure=bad", 11, "command line", err,
					    sizeof(err)), -1);
	assert_string_equal(err, "command line: measure=bad: missing @KERNEL (e.g. "
			    "measure=INST_RETIRED.ANY_P@loop4:100000)");

	/* list */
	o = fresh();
	assert_false(o.list);
	OK(&o, "list");
	assert_int_equal(o.list_what, LIST_CHECKS | LIST_EVENTS);
	OK(&o, "list=coverage");
	assert_int_equal(o.list_what, LIST_COVERAGE);
	OK(&o, "list=events,checks");
	assert_int_equal(o.list_what, LIST_CHECKS | LIST_EVENTS);
	OK(&o, "list=all");
	assert_int_equal(o.list_what, LIST_CHECKS | LIST_EVENTS | LIST_COVERAGE);
	ERR("list=", "list=: expected checks, events, coverage or all");
	ERR("list=events,", "list=events,: expected checks, events, coverage or all");
	ERR("list=event", "list=event: expected checks, events, coverage or all");
	/* the command line's two-token form */
	o = fresh();
	assert_int_equal(options_parse_text(&o, "list coverage", 13, "command line", err,
					    sizeof(err)), 0);
	assert_true(o.list);
	assert_int_equal(o.list_what, LIST_COVERAGE);
	o = fresh();
	assert_int_equal(options_parse_text(&o, "list events reps=2", 18, "command line", err,
					    sizeof(err)), 0);
	assert_int_equal(o.list_what, LIST_EVENTS);
	o = fresh();
	assert_int_equal(options_parse_text(&o, "coverage", 8, "command line", err, sizeof(err)), -1);
	assert_string_equal(err, "command line: coverage: unknown option");
}

/* A set's format reads back to the same set; options_format shows list= and every set. */
static void test_round_trip(void **state)
{
	static const char *const texts[] = {
		"measure=INST_RETIRED.ANY_P,BR_INST_RETIRED.ALL_BRANCHES@loop4:100000",
		"measure=skl::MEM_LOAD_RETIRED:L3_MISS:u:c=0:i,X:k:e:t@chase:1M list=coverage",
		"measure=cpu/event=0xd1,umask=0x20,cmask=1,inv,edge,any,usr,os/@chase_cold "
		"measure=r301c4,cpu/event=1,name=x.y/u,rc4:k@store_nt:4096 list=checks,coverage",
		"measure=r220d:c=1:k,r23:i:e:t:u@loop4",	/* found by fuzz_options_cmdline */
		"list=events",
		"list",
	};
	(void)state;

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct options a = fresh(), b = fresh();
		char err[ERRLEN], f[4096], tok[4200];

		assert_int_equal(options_parse_text(&a, texts[i], strlen(texts[i]), "", err,
						    sizeof(err)), 0);
		for (unsigned k = 0; k < a.nmeasure; k++) {
			measure_set_format(&a.measure[k], f, sizeof(f));
			snprintf(tok, sizeof(tok), "measure=%s", f);
			OK(&b, tok);
			assert_int_equal(a.measure[k].nev, b.measure[k].nev);
			assert_int_equal(a.measure[k].kernel, b.measure[k].kernel);
			assert_int_equal(a.measure[k].size, b.measure[k].size);
			assert_memory_equal(a.measure[k].ev, b.measure[k].ev,
					    sizeof(a.measure[k].ev));
		}
		assert_int_equal(a.nmeasure, b.nmeasure);
	}
	{
		struct options a = fresh();
		char err[ERRLEN], f[4096];

		assert_int_equal(options_parse_text(&a, texts[2], strlen(texts[2]), "", err,
						    sizeof(err)), 0);
		options_format(&a, f, sizeof(f));
		assert_non_null(strstr(f, " list=checks,coverage measure=cpu/event=0xd1,umask=0x20,"
				       "cmask=1,inv,edge,any/@chase_cold measure=cpu/event=0xc4,"
				       "umask=0x01/,cpu/event=0x01,umask=0x00,name=x.y/u,"
				       "cpu/event=0xc4,umask=0x00/k@store_nt:4096"));
	}
}

/* measure='s workloads on the kernel table: each runs a kernel of it; a row named after a
 * kernel runs that kernel; SIZE is bytes exactly for the memory kernels, whose iterations are
 * SIZE / iter_bytes; the iterations of every row at its default size. */
static void test_workloads_on_kernel_table(void **state)
{
	static const uint64_t n_default[MK_COUNT] = {
		[MK_LOOP4] = 100000, [MK_ADD_CHAIN] = 100000, [MK_IMUL_CHAIN] = 100000,
		[MK_DIV_LOOP] = 10000, [MK_BRANCH_LFSR] = 20000, [MK_BRANCH_ALT] = 20000,
		[MK_BIGCODE] = 100, [MK_SMALLCODE] = 1000, [MK_CHASE] = 4096,
		[MK_CHASE_COLD] = 131072, [MK_STORE_PLAIN] = 8192, [MK_STORE_NT] = 8192,
		[MK_STORE_NTDQ] = 8192,
	};
	(void)state;

	for (unsigned i = 0; i < MK_COUNT; i++) {
		const struct measure_kernel_info *w = &measure_kernels[i];
		struct measure_set set = { .kernel = (enum measure_kernel)i, .size = w->def_size };

		assert_true(w->kernel < K_COUNT);
		for (unsigned k = 0; k < K_COUNT; k++)
			if (!strcmp(w->name, kernel_name(k)))
				assert_int_equal(w->kernel, k);
		assert_int_equal(w->iter_bytes != 0, kernel_memory(w->kernel));
		assert_int_equal(measure_iterations(&set), n_default[i]);
		assert_int_equal(measure_buffer_bytes(&set), kernel_memory(w->kernel) ? w->def_size : 0);
	}
	assert_string_equal(kernel_name(K_loop4), "loop4");
	assert_string_equal(kernel_name(K_COUNT), "?");
	assert_false(kernel_memory(K_COUNT));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_named),
		cmocka_unit_test(test_raw),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_sets_and_list),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_workloads_on_kernel_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
