/* SPDX-License-Identifier: MIT */
/* Host unit tests for lib/fmt.c: fmt_vsnprintf against the C library's vsnprintf, and helpers. */
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "lib/fmt.h"

#define BUFSZ 600

static const size_t sizes[] = { 0, 1, 5, 17, BUFSZ };
static unsigned long compared;

/*
 * Formats with both implementations for every buffer size and checks return value, the
 * bytes written (including the terminator) and that nothing past size was touched.
 */
__attribute__((format(printf, 3, 4)))
static void check_at(const char *file, int line, const char *fmt, ...)
{
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		char want[BUFSZ + 8], got[BUFSZ + 8];
		size_t size = sizes[k];
		va_list ap;
		int rw, rg;

		memset(want, 0x7f, sizeof(want));
		memset(got, 0x7f, sizeof(got));
		va_start(ap, fmt);
		rw = vsnprintf(want, size, fmt, ap);
		va_end(ap);
		va_start(ap, fmt);
		rg = fmt_vsnprintf(got, size, fmt, ap);
		va_end(ap);
		compared++;
		if (rw != rg || memcmp(want, got, sizeof(want)) != 0) {
			want[BUFSZ] = got[BUFSZ] = '\0';
			fail_msg("%s:%d: format \"%s\" size %zu: libc %d \"%s\", fmt %d \"%s\"", file,
				 line, fmt, size, rw, size ? want : "", rg, size ? got : "");
		}
	}
}

#define CHECK(...) check_at(__FILE__, __LINE__, __VA_ARGS__)

/* Every combination of flags, width and precision for every integer conversion and length. */
static void test_integers_vs_libc(void **state)
{
	static const char *const flagsets[] = {
		"", "-", "0", "+", " ", "#", "-0", "-+", "- ", "-#", "0+", "0 ", "0#", "+ ",
		"+#", " #", "-0+", "-+#", "0+#", "0 #", "-0+ #", "+0", " 0", "#0-",
	};
	static const char *const widths[] = { "", "1", "2", "8", "25" };
	static const char *const precs[] = { "", ".", ".0", ".1", ".2", ".5", ".30" };
	static const char convs[] = "diuxXo";
	static const char *const lens[] = { "", "hh", "h", "l", "ll", "z", "j", "t" };
	static const long long ivals[] = {
		0, 1, -1, 7, 8, 9, 10, -10, 42, 127, -128, 128, 255, 256, 300, -300, 32767, -32768,
		65535, 65536, 100000, INT_MAX, INT_MIN, (long long)UINT_MAX, 0x123456789abcLL,
		LLONG_MAX, LLONG_MIN, -1234567890123LL,
	};
	char f[64];
	(void)state;

	for (size_t fi = 0; fi < sizeof(flagsets) / sizeof(flagsets[0]); fi++)
	for (size_t wi = 0; wi < sizeof(widths) / sizeof(widths[0]); wi++)
	for (size_t pi = 0; pi < sizeof(precs) / sizeof(precs[0]); pi++)
	for (size_t ci = 0; ci < sizeof(convs) - 1; ci++)
	for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
		char c = convs[ci];
		bool sgn = c == 'd' || c == 'i';

		snprintf(f, sizeof(f), "<%%%s%s%s%s%c>", flagsets[fi], widths[wi], precs[pi],
			 lens[li], c);
		for (size_t vi = 0; vi < sizeof(ivals) / sizeof(ivals[0]); vi++) {
			long long v = ivals[vi];

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#define BOTH(T, UT) do { if (sgn) CHECK(f, (T)v); else CHECK(f, (UT)v); } while (0)
			switch (li) {
			case 0: BOTH(int, unsigned int); break;
			case 1: BOTH(int, unsigned int); break;	/* promoted; hh converts */
			case 2: BOTH(int, unsigned int); break;
			case 3: BOTH(long, unsigned long); break;
			case 4: BOTH(long long, unsigned long long); break;
			case 5: BOTH(ptrdiff_t, size_t); break;
			case 6: BOTH(intmax_t, uintmax_t); break;
			case 7: BOTH(ptrdiff_t, ptrdiff_t); break;
			}
#undef BOTH
#pragma GCC diagnostic pop
		}
	}
	assert_true(compared > 100000);
}

static void test_strings_chars_vs_libc(void **state)
{
	static const char *const strs[] = { "", "a", "hello", "hello, world", "tab\there",
					    "0123456789012345678901234567890123456789" };
	static const char *const specs[] = {
		"%s", "%10s", "%-10s", "%.0s", "%.3s", "%.50s", "%8.3s", "%-8.3s", "%1s", "%-1.1s",
		"[%s]", "%s%s", "%3s|%-3s|",
	};
	(void)state;

	for (size_t si = 0; si < sizeof(strs) / sizeof(strs[0]); si++) {
		for (size_t k = 0; k < sizeof(specs) / sizeof(specs[0]); k++) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
			CHECK(specs[k], strs[si], strs[si]);
#pragma GCC diagnostic pop
		}
		/* '*' width and precision, negative width meaning '-', negative precision none */
		for (int w = -12; w <= 12; w += 3)
			for (int p = -3; p <= 7; p += 2)
				CHECK("%*.*s|", w, p, strs[si]);
	}

	for (int c = 1; c < 256; c += 7) {
		CHECK("%c", c);
		CHECK("[%5c]", c);
		CHECK("[%-5c]", c);
	}
	CHECK("%c%c%c", 'a', 'b', 'c');
	for (int w = -6; w <= 6; w++)
		CHECK("[%*c]", w, 'x');

	/* %c of NUL writes a NUL and counts it */
	CHECK("a%cb", 0);

	const char *volatile nul = NULL;
	CHECK("%s", nul);
	CHECK("[%10s]", nul);
	CHECK("[%-10s]", nul);
}

/* Flag combinations C defines (e.g. '0' ignored with a precision) but GCC warns about. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
static void test_star_vs_libc(void **state)
{
	static const int ws[] = { -30, -8, -1, 0, 1, 3, 8, 30 };
	static const int ps[] = { -5, -1, 0, 1, 3, 10 };
	(void)state;

	for (size_t i = 0; i < sizeof(ws) / sizeof(ws[0]); i++) {
		for (size_t j = 0; j < sizeof(ps) / sizeof(ps[0]); j++) {
			CHECK("%*d|%.*d|%*.*d", ws[i], -42, ps[j], 42, ws[i], ps[j], 0);
			CHECK("%0*d|%0*.*x", ws[i], -7, ws[i], ps[j], 0xbeefu);
			CHECK("%-*u|%#*o|%+*lld", ws[i], 12u, ws[i], 8u, ws[i], LLONG_MIN);
		}
	}
}

static void test_misc_vs_libc(void **state)
{
	int x;
	(void)state;

	CHECK("%s", "");
	CHECK("plain text, no conversions");
	CHECK("%%");
	CHECK("100%% sure %d%%", 5);
	CHECK("%d %i %u %x %X %o", -1, -2, 3u, 0xabcu, 0xabcu, 8u);
	CHECK("%lld", LLONG_MIN);
	CHECK("%jd", INTMAX_MIN);
	CHECK("%ld", LONG_MIN);
	CHECK("%d", INT_MIN);
	CHECK("%hhd %hhu %hd %hu", 0x1ff, 0x1ff, 0x1ffff, 0x1ffff);
	CHECK("%#x %#X %#o %#x %#o", 0x1fu, 0x1fu, 8u, 0u, 0u);
	CHECK("%#.0x %#.0o %.0d %.0u %5.0d|", 0u, 0u, 0, 0u, 0);
	CHECK("%zu %zd %zx %td %tu", (size_t)-1, (ptrdiff_t)-5, (size_t)0x1234, (ptrdiff_t)-9,
	      (ptrdiff_t)9);
	CHECK("%p", (void *)&x);
	CHECK("[%20p]", (void *)&x);
	CHECK("[%-20p]", (void *)&x);
	CHECK("%p", (void *)(uintptr_t)0x1000);
	CHECK("%p|%p", (void *)(uintptr_t)0xffffffffffffffffull, (void *)(uintptr_t)1);
	CHECK("measured=%llu expected=%llu delta=%+lld", 4000ull, 4000ull, 0ll);
	CHECK("%08.3d|%-08d|%+08d|% 08d|%-+8d|", 5, 5, 5, 5, 5);
}

#pragma GCC diagnostic pop

/* Things libc does differently or that are our own contract. */
static void test_own_contract(void **state)
{
	char buf[64];
	(void)state;

	/* Unknown conversions are copied verbatim, and consume no argument. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
	assert_int_equal(fmt_snprintf(buf, sizeof(buf), "a%yb"), 4);
	assert_string_equal(buf, "a%yb");
	assert_int_equal(fmt_snprintf(buf, sizeof(buf), "[%-5y]%d", 7), 7);
	assert_string_equal(buf, "[%-5y]7");
	assert_int_equal(fmt_snprintf(buf, sizeof(buf), "%n%d", 3), 3);
	assert_string_equal(buf, "%n3");
	/* A format ending inside a conversion. */
	assert_int_equal(fmt_snprintf(buf, sizeof(buf), "abc%"), 4);
	assert_string_equal(buf, "abc%");
	assert_int_equal(fmt_snprintf(buf, sizeof(buf), "abc%-08l"), 8);
	assert_string_equal(buf, "abc%-08l");
#pragma GCC diagnostic pop

	/* NULL buffer with size 0 just measures. */
	assert_int_equal(fmt_snprintf(NULL, 0, "%d-%s", 12345, "xyz"), 9);

	/* %p of NULL prints 0x0 (glibc prints "(nil)"). */
	assert_int_equal(fmt_snprintf(buf, sizeof(buf), "%p", (void *)0), 3);
	assert_string_equal(buf, "0x0");
	assert_int_equal(fmt_snprintf(buf, sizeof(buf), "[%6p]", (void *)0x10), 8);
	assert_string_equal(buf, "[  0x10]");

	/* %s of NULL is "(null)" and precision cuts it like any string. */
	const char *volatile nul = NULL;
	fmt_snprintf(buf, sizeof(buf), "%s|%.3s|%8s", nul, nul, nul);
	assert_string_equal(buf, "(null)|(nu|  (null)");

	/* Negative '*' width means left-justify. */
	assert_int_equal(fmt_snprintf(buf, sizeof(buf), "[%*d]", -5, 1), 7);
	assert_string_equal(buf, "[1    ]");

	/* Exact truncation bookkeeping. */
	memset(buf, 'Z', sizeof(buf));
	assert_int_equal(fmt_snprintf(buf, 4, "%s", "abcdef"), 6);
	assert_string_equal(buf, "abc");
	assert_int_equal(buf[4], 'Z');
	memset(buf, 'Z', sizeof(buf));
	assert_int_equal(fmt_snprintf(buf, 1, "%d", 123), 3);
	assert_int_equal(buf[0], '\0');
	assert_int_equal(buf[1], 'Z');
	memset(buf, 'Z', sizeof(buf));
	assert_int_equal(fmt_snprintf(buf, 0, "%d", 123), 3);
	assert_int_equal(buf[0], 'Z');
}

struct fixed_case {
	int64_t v;
	unsigned d;
	const char *want;
};

static void test_fixed(void **state)
{
	static const struct fixed_case c[] = {
		{ 299912, 3, "299.912" },
		{ 0, 0, "0" },
		{ 0, 3, "0.000" },
		{ 5, 3, "0.005" },
		{ -5, 3, "-0.005" },
		{ 1000, 3, "1.000" },
		{ -1500, 3, "-1.500" },
		{ 123, 0, "123" },
		{ -123, 0, "-123" },
		{ 123, 3, "0.123" },
		{ 1234, 1, "123.4" },
		{ 7, 1, "0.7" },
		{ 42, 25, "0.0000000000000000000000042" },
		{ INT64_MAX, 0, "9223372036854775807" },
		{ INT64_MIN, 0, "-9223372036854775808" },
		{ INT64_MIN, 3, "-9223372036854775.808" },
		{ INT64_MIN, 19, "-0.9223372036854775808" },
		{ INT64_MAX, 20, "0.09223372036854775807" },
	};
	char buf[64];
	(void)state;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		int r = fmt_fixed(buf, sizeof(buf), c[i].v, c[i].d);

		assert_string_equal(buf, c[i].want);
		assert_int_equal(r, (int)strlen(c[i].want));
	}
	/* truncation */
	memset(buf, 'Z', sizeof(buf));
	assert_int_equal(fmt_fixed(buf, 5, 299912, 3), 7);
	assert_string_equal(buf, "299.");
	assert_int_equal(fmt_fixed(buf, 1, -1, 2), 5);
	assert_string_equal(buf, "");
	assert_int_equal(fmt_fixed(NULL, 0, -1, 2), 5);
}

static void test_size(void **state)
{
	static const struct {
		uint64_t b;
		const char *want;
	} c[] = {
		{ 0, "0 bytes" },
		{ 1, "1 bytes" },
		{ 1023, "1023 bytes" },
		{ 1024, "1 KiB" },
		{ 1536, "1536 bytes" },
		{ 4096, "4 KiB" },
		{ 1024 * 1024, "1 MiB" },
		{ 3 * 1024 * 1024 + 1024, "3073 KiB" },
		{ 1ull << 30, "1 GiB" },
		{ 1ull << 40, "1 TiB" },
		{ 3ull << 39, "1536 GiB" },
		{ (1ull << 30) + 1, "1073741825 bytes" },
		{ UINT64_MAX, "18446744073709551615 bytes" },
		{ 0xFFFFFFFFC0000000ull, "17179869183 GiB" },
		{ 0xFFFFFF0000000000ull, "16777215 TiB" },
	};
	char buf[64];
	(void)state;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		int r = fmt_size(buf, sizeof(buf), c[i].b);

		assert_string_equal(buf, c[i].want);
		assert_int_equal(r, (int)strlen(c[i].want));
	}
	assert_int_equal(fmt_size(buf, 3, 4096), 5);
	assert_string_equal(buf, "4 ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_integers_vs_libc),
		cmocka_unit_test(test_strings_chars_vs_libc),
		cmocka_unit_test(test_star_vs_libc),
		cmocka_unit_test(test_misc_vs_libc),
		cmocka_unit_test(test_own_contract),
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_size),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
