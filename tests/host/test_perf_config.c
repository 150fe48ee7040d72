/* SPDX-License-Identifier: MIT */
/*
 * Host unit tests of the event-select -> perf_event_attr bridge (tests/linux/perf_config.c):
 * every field Linux takes from attr.config passes through unchanged (event, umask, edge,
 * inv, cmask, AnyThread on Intel, event bits 35:32 on AMD), USR and OS become the exclude
 * flags, EN is dropped, and each bit perf cannot express is refused by name.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "tests/linux/perf_config.h"

#define USR	(1ULL << 16)
#define OS	(1ULL << 17)
#define EN	(1ULL << 22)

static struct perf_raw bridge_ok(uint64_t sel, bool amd)
{
	struct perf_raw r;
	char err[160] = "";

	if (perf_raw_from_evtsel(sel, amd, &r, err, sizeof(err)))
		fail_msg("%#llx refused: %s", (unsigned long long)sel, err);
	return r;
}

static const char *bridge_err(uint64_t sel, bool amd)
{
	static char err[160];
	struct perf_raw r = { 0x1234, false, false };

	err[0] = 0;
	assert_int_equal(perf_raw_from_evtsel(sel, amd, &r, err, sizeof(err)), -1);
	assert_int_equal(r.config, 0x1234);		/* untouched on refusal */
	return err;
}

/* Instructions retired at CPL 3, as pmuboot writes it enabled: C0H, USR, EN. */
static void test_user_only(void **state)
{
	(void)state;
	struct perf_raw r = bridge_ok(0xc0 | USR | EN, false);

	assert_int_equal(r.config, 0xc0);
	assert_true(r.exclude_kernel);
	assert_false(r.exclude_user);
	r = bridge_ok(0x3c | OS, false);
	assert_int_equal(r.config, 0x3c);
	assert_true(r.exclude_user);
	assert_false(r.exclude_kernel);
	r = bridge_ok(0x01a4 | USR | OS, false);
	assert_int_equal(r.config, 0x01a4);
	assert_false(r.exclude_user || r.exclude_kernel);
}

/* CMASK, INV, EDGE (the divider loop's relations) and AnyThread pass through on Intel. */
static void test_cmask_inv_edge_any(void **state)
{
	(void)state;
	uint64_t sel = 0xc0 | (1ULL << 24) | (1ULL << 23) | USR;	/* cmask 1, inv */

	assert_int_equal(bridge_ok(sel, false).config, 0xc0 | (1ULL << 24) | (1ULL << 23));
	sel = 0xc0 | (1ULL << 24) | (1ULL << 18) | USR;			/* cmask 1, edge */
	assert_int_equal(bridge_ok(sel, false).config, 0xc0 | (1ULL << 24) | (1ULL << 18));
	sel = 0x3c | (0xffULL << 24) | USR;				/* cmask 255 */
	assert_int_equal(bridge_ok(sel, false).config, 0x3c | (0xffULL << 24));
	sel = 0x3c | (1ULL << 21) | USR;				/* AnyThread */
	assert_int_equal(bridge_ok(sel, false).config, 0x3c | (1ULL << 21));
	assert_non_null(strstr(bridge_err(sel, true), "AnyThread is Intel's"));
}

/* AMD's 12-bit event select: bits 35:32 are its high nibble (PMCx1C0 -> 1_0000_00C0H). */
static void test_amd_event_high_bits(void **state)
{
	(void)state;
	uint64_t sel = (1ULL << 32) | 0xc0 | USR;

	assert_int_equal(bridge_ok(sel, true).config, (1ULL << 32) | 0xc0);
	assert_non_null(strstr(bridge_err(sel, false), "reserved"));
	assert_non_null(strstr(bridge_err((1ULL << 40) | 0x76 | USR, true), "HostOnly"));
}

/* What perf cannot express is refused, naming the bit and the value. */
static void test_refusals_name_the_bit(void **state)
{
	(void)state;
	const char *e = bridge_err(0xc0 | USR | (1ULL << 20), false);

	assert_non_null(strstr(e, "INT (bit 20)"));
	assert_non_null(strstr(e, "0x1100c0"));
	assert_non_null(strstr(bridge_err(0xc0 | USR | (1ULL << 19), false), "PC (bit 19)"));
	assert_non_null(strstr(bridge_err(0xc0 | USR | (1ULL << 34), false), "adaptive PEBS"));
	assert_non_null(strstr(bridge_err(0xc0 | USR | (1ULL << 40), false), "reserved"));
	assert_non_null(strstr(bridge_err(0xc0 | EN, false), "neither USR"));
	assert_non_null(strstr(bridge_err(0xc0, true), "neither USR"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_user_only),
		cmocka_unit_test(test_cmask_inv_edge_any),
		cmocka_unit_test(test_amd_event_high_bits),
		cmocka_unit_test(test_refusals_name_the_bit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
