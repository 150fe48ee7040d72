/* SPDX-License-Identifier: MIT */
/* Host unit tests for lib/string.c (string helpers and glob matcher). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

/*
 * Build the firmware's memcpy/memmove/memset/memcmp too (the host build normally leaves
 * them to the C library) under fw_ names, so they can be tested against libc here.
 * This program therefore includes lib/string.c instead of linking it.
 */
#undef PMUBOOT_HOST
#define memcpy fw_memcpy
#define memmove fw_memmove
#define memset fw_memset
#define memcmp fw_memcmp
#include "lib/string.c"
#undef memcpy
#undef memmove
#undef memset
#undef memcmp
#define PMUBOOT_HOST 1

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

static void test_len(void **state)
{
	(void)state;
	assert_int_equal(str_len(""), 0);
	assert_int_equal(str_len("a"), 1);
	assert_int_equal(str_len("hello world"), 11);
	assert_int_equal(str_nlen("hello", 3), 3);
	assert_int_equal(str_nlen("hello", 5), 5);
	assert_int_equal(str_nlen("hello", 100), 5);
	assert_int_equal(str_nlen("hello", 0), 0);
	/* Must not read past max: buffer without terminator. */
	char raw[4] = { 'a', 'b', 'c', 'd' };
	assert_int_equal(str_nlen(raw, sizeof(raw)), 4);
}

static void test_cmp(void **state)
{
	static const char *const s[] = { "", "a", "b", "ab", "abc", "abd", "ABC", "\xff", "a\x80" };
	(void)state;
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		for (size_t j = 0; j < sizeof(s) / sizeof(s[0]); j++) {
			assert_int_equal(sign(str_cmp(s[i], s[j])), sign(strcmp(s[i], s[j])));
			for (size_t n = 0; n < 5; n++)
				assert_int_equal(sign(str_ncmp(s[i], s[j], n)),
						 sign(strncmp(s[i], s[j], n)));
		}
	}
	assert_int_equal(str_ncmp("abcX", "abcY", 3), 0);
	assert_true(str_ncmp("abcX", "abcY", 4) < 0);
	/* Bytes compare as unsigned char. */
	assert_true(str_cmp("\x80", "a") > 0);
}

static void test_casecmp(void **state)
{
	(void)state;
	assert_int_equal(str_casecmp("Hello", "hELLO"), 0);
	assert_int_equal(str_casecmp("", ""), 0);
	assert_true(str_casecmp("abc", "ABD") < 0);
	assert_true(str_casecmp("abd", "ABC") > 0);
	assert_true(str_casecmp("ab", "ABC") < 0);
	assert_true(str_casecmp("ABC", "ab") > 0);
	/* Only ASCII letters fold: '[' (0x5B) and '{' (0x7B) differ. */
	assert_true(str_casecmp("[", "{") != 0);
}

static void test_starts_with(void **state)
{
	(void)state;
	assert_true(str_starts_with("icount.loop", "icount."));
	assert_true(str_starts_with("abc", ""));
	assert_true(str_starts_with("abc", "abc"));
	assert_false(str_starts_with("ab", "abc"));
	assert_false(str_starts_with("abc", "abd"));
	assert_true(str_contains("the 2 MiB page", "2 MiB page"));
	assert_true(str_contains("abc", "c"));
	assert_true(str_contains("abc", ""));
	assert_true(str_contains("", ""));
	assert_false(str_contains("abc", "cd"));
	assert_false(str_contains("", "a"));
	assert_false(str_contains(NULL, "a"));
	assert_false(str_starts_with("", "a"));
}

static void test_lcpy(void **state)
{
	char buf[8];
	(void)state;

	memset(buf, 'X', sizeof(buf));
	assert_int_equal(str_lcpy(buf, "hello", sizeof(buf)), 5);
	assert_string_equal(buf, "hello");

	memset(buf, 'X', sizeof(buf));
	assert_int_equal(str_lcpy(buf, "hello world", sizeof(buf)), 11);
	assert_string_equal(buf, "hello w");

	memset(buf, 'X', sizeof(buf));
	assert_int_equal(str_lcpy(buf, "abc", 1), 3);
	assert_int_equal(buf[0], '\0');
	assert_int_equal(buf[1], 'X');

	memset(buf, 'X', sizeof(buf));
	assert_int_equal(str_lcpy(buf, "abc", 0), 3);
	assert_int_equal(buf[0], 'X');

	assert_int_equal(str_lcpy(buf, "1234567", sizeof(buf)), 7);
	assert_string_equal(buf, "1234567");
	assert_int_equal(str_lcpy(buf, "", sizeof(buf)), 0);
	assert_string_equal(buf, "");
}

static void test_lcat(void **state)
{
	char buf[8];
	(void)state;

	str_lcpy(buf, "ab", sizeof(buf));
	assert_int_equal(str_lcat(buf, "cd", sizeof(buf)), 4);
	assert_string_equal(buf, "abcd");
	assert_int_equal(str_lcat(buf, "efghij", sizeof(buf)), 10);
	assert_string_equal(buf, "abcdefg");
	assert_int_equal(str_lcat(buf, "z", sizeof(buf)), 8);
	assert_string_equal(buf, "abcdefg");

	/* Size smaller than the existing string: no terminator within size. */
	str_lcpy(buf, "abcdef", sizeof(buf));
	assert_int_equal(str_lcat(buf, "xyz", 3), 3 + 3);
	assert_string_equal(buf, "abcdef");
	assert_int_equal(str_lcat(buf, "xyz", 0), 3);
	assert_string_equal(buf, "abcdef");

	str_lcpy(buf, "", sizeof(buf));
	assert_int_equal(str_lcat(buf, "", sizeof(buf)), 0);
	assert_string_equal(buf, "");
}

static void test_chr(void **state)
{
	const char *s = "a=b=c";
	(void)state;
	assert_ptr_equal(str_chr(s, '='), s + 1);
	assert_ptr_equal(str_chr(s, 'c'), s + 4);
	assert_null(str_chr(s, 'x'));
	assert_ptr_equal(str_chr(s, '\0'), s + 5);
	const char *hi = "x\xe9";
	assert_ptr_equal(str_chr(hi, 0xe9), hi + 1);
}

static void test_mem(void **state)
{
	unsigned char a[64], b[64], ref[64];
	(void)state;

	for (size_t i = 0; i < sizeof(a); i++)
		a[i] = (unsigned char)(i * 7 + 3);

	/* memset: value is converted to unsigned char; returns dst. */
	assert_ptr_equal(fw_memset(b, 0x1ab, 10), b);
	for (size_t i = 0; i < 10; i++)
		assert_int_equal(b[i], 0xab);
	assert_ptr_equal(fw_memset(b, 0, 0), b);

	/* memcpy */
	memset(b, 0, sizeof(b));
	assert_ptr_equal(fw_memcpy(b + 3, a, 40), b + 3);
	assert_memory_equal(b + 3, a, 40);
	assert_int_equal(b[2], 0);
	assert_int_equal(b[43], 0);

	/* memmove, both overlap directions and every offset, against libc */
	for (size_t src = 0; src < 16; src++) {
		for (size_t dst = 0; dst < 16; dst++) {
			memcpy(b, a, sizeof(a));
			memcpy(ref, a, sizeof(a));
			assert_ptr_equal(fw_memmove(b + dst, b + src, 40), b + dst);
			memmove(ref + dst, ref + src, 40);
			assert_memory_equal(b, ref, sizeof(b));
		}
	}

	/* memcmp: sign, unsigned bytes, length bound */
	memcpy(b, a, sizeof(a));
	assert_int_equal(fw_memcmp(a, b, sizeof(a)), 0);
	assert_int_equal(fw_memcmp(a, b, 0), 0);
	b[20] = (unsigned char)(a[20] + 1);
	assert_true(fw_memcmp(a, b, sizeof(a)) < 0);
	assert_true(fw_memcmp(b, a, sizeof(a)) > 0);
	assert_int_equal(fw_memcmp(a, b, 20), 0);
	assert_true(fw_memcmp("\x80", "\x01", 1) > 0);
}

struct glob_case {
	const char *pat, *s;
	bool match;
};

static void test_glob(void **state)
{
	static const struct glob_case c[] = {
		{ "", "", true },
		{ "", "a", false },
		{ "*", "", true },
		{ "*", "anything.at.all", true },
		{ "**", "x", true },
		{ "?", "", false },
		{ "?", "a", true },
		{ "?", "ab", false },
		{ "??", "ab", true },
		{ "abc", "abc", true },
		{ "abc", "abd", false },
		{ "abc", "ab", false },
		{ "ab", "abc", false },
		{ "ABC", "abc", false },
		{ "icount.*", "icount.loop_delta", true },
		{ "icount.*", "icount.", true },
		{ "icount.*", "icount", false },
		{ "*.ud", "fault.ud", true },
		{ "*.ud", "fault.udx", false },
		{ "fault.*", "faults.ud", false },
		{ "*loop*", "icount.loop_delta", true },
		{ "*loop*", "icount.lop", false },
		{ "a*b*c", "abc", true },
		{ "a*b*c", "aXbYc", true },
		{ "a*b*c", "aXbYcZ", false },
		{ "a*b*c", "abcbc", true },
		{ "a*bc", "abcbcbd", false },
		{ "a*bc", "abcbcbc", true },
		{ "*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false },
		{ "*a*a*a*b", "aaaaaaaaaaaaaaaaab", true },
		{ "?*?", "a", false },
		{ "?*?", "ab", true },
		{ "*?", "", false },
		{ "a?c*", "abcdef", true },
		{ "a?c*", "acdef", false },
		{ "*x", "xxxx", true },
		{ "pmu.*.fixed?", "pmu.intel.fixed0", true },
		{ "pmu.*.fixed?", "pmu.intel.fixed10", false },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		if (glob_match(c[i].pat, c[i].s) != c[i].match)
			fail_msg("glob_match(\"%s\", \"%s\") should be %s", c[i].pat, c[i].s,
				 c[i].match ? "true" : "false");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_len),
		cmocka_unit_test(test_cmp),
		cmocka_unit_test(test_casecmp),
		cmocka_unit_test(test_starts_with),
		cmocka_unit_test(test_lcpy),
		cmocka_unit_test(test_lcat),
		cmocka_unit_test(test_chr),
		cmocka_unit_test(test_mem),
		cmocka_unit_test(test_glob),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
