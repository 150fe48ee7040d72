/* SPDX-License-Identifier: MIT */
/* Host unit tests for lib/stats.c (sorting and order statistics). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "lib/stats.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1Dull;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Sorts random, sorted, reversed and few-distinct arrays of every size across both
 * algorithms (insertion <= 32 < heap) and compares with qsort. */
static void test_sort_matches_qsort(void **state)
{
	enum { MAXN = 300 };
	uint64_t a[MAXN], ref[MAXN];
	(void)state;

	for (size_t n = 0; n <= MAXN; n += (n < 70 ? 1 : 23)) {
		for (int kind = 0; kind < 5; kind++) {
			for (size_t i = 0; i < n; i++) {
				switch (kind) {
				case 0: a[i] = rng(); break;
				case 1: a[i] = i; break;
				case 2: a[i] = n - i; break;
				case 3: a[i] = rng() % 3; break;
				default: a[i] = (i & 1) ? UINT64_MAX : 0; break;
				}
			}
			memcpy(ref, a, n * sizeof(a[0]));
			qsort(ref, n, sizeof(ref[0]), cmp_u64);
			u64_sort(a, n);
			if (n)
				assert_memory_equal(a, ref, n * sizeof(a[0]));
		}
	}
}

static void test_sort_edges(void **state)
{
	uint64_t one[1] = { 42 };
	uint64_t two[2] = { 9, 3 };
	(void)state;

	u64_sort(NULL, 0);
	u64_sort(one, 1);
	assert_int_equal(one[0], 42);
	u64_sort(two, 2);
	assert_int_equal(two[0], 3);
	assert_int_equal(two[1], 9);
}

static void test_stats_empty(void **state)
{
	struct u64_stats st;
	(void)state;

	memset(&st, 0xa5, sizeof(st));
	u64_stats(NULL, 0, &st);
	assert_int_equal(st.n, 0);
	assert_int_equal(st.ok, 0);
	assert_int_equal(st.min, 0);
	assert_int_equal(st.max, 0);
	assert_int_equal(st.median, 0);
	assert_int_equal(st.mean, 0);
}

static void test_stats_basic(void **state)
{
	uint64_t v1[] = { 7 };
	uint64_t v_odd[] = { 50, 10, 40, 20, 30 };
	uint64_t v_even[] = { 4, 1, 3, 2 };
	uint64_t v_round[] = { 1, 2 };
	struct u64_stats st;
	(void)state;

	u64_stats(v1, 1, &st);
	assert_int_equal(st.n, 1);
	assert_int_equal(st.ok, 1);
	assert_int_equal(st.min, 7);
	assert_int_equal(st.max, 7);
	assert_int_equal(st.median, 7);
	assert_int_equal(st.mean, 7);

	u64_stats(v_odd, 5, &st);
	assert_int_equal(st.n, 5);
	assert_int_equal(st.ok, 1);
	assert_int_equal(st.min, 10);
	assert_int_equal(st.max, 50);
	assert_int_equal(st.median, 30);
	assert_int_equal(st.mean, 30);
	/* sorted in place */
	assert_int_equal(v_odd[0], 10);
	assert_int_equal(v_odd[4], 50);

	/* lower median for even n */
	u64_stats(v_even, 4, &st);
	assert_int_equal(st.median, 2);
	assert_int_equal(st.mean, 2);	/* 10/4 rounded down */

	u64_stats(v_round, 2, &st);
	assert_int_equal(st.median, 1);
	assert_int_equal(st.mean, 1);	/* 1.5 rounded down */
}

static void test_stats_large_n(void **state)
{
	enum { N = 1001 };
	static uint64_t v[N];
	struct u64_stats st;
	(void)state;

	/* 0..1000 shuffled */
	for (size_t i = 0; i < N; i++)
		v[i] = i;
	for (size_t i = N - 1; i > 0; i--) {
		size_t j = rng() % (i + 1);
		uint64_t t = v[i];

		v[i] = v[j];
		v[j] = t;
	}
	u64_stats(v, N, &st);
	assert_int_equal(st.ok, 1);
	assert_int_equal(st.min, 0);
	assert_int_equal(st.max, 1000);
	assert_int_equal(st.median, 500);
	assert_int_equal(st.mean, 500);
	for (size_t i = 0; i < N; i++)
		assert_int_equal(v[i], i);
}

static void test_stats_overflow(void **state)
{
	uint64_t v[] = { UINT64_MAX, UINT64_MAX - 2, 4 };
	uint64_t edge[] = { UINT64_MAX - 1, 1 };	/* sum is exactly UINT64_MAX: no overflow */
	struct u64_stats st;
	(void)state;

	u64_stats(v, 3, &st);
	assert_int_equal(st.ok, 0);
	assert_int_equal(st.n, 3);
	assert_int_equal(st.min, 4);
	assert_int_equal(st.max, UINT64_MAX);
	assert_int_equal(st.median, UINT64_MAX - 2);
	/* (2^64-1 + 2^64-3 + 4) / 3 = 2^65 / 3, computed exactly despite the overflow */
	assert_int_equal(st.mean, 12297829382473034410ull);

	u64_stats(edge, 2, &st);
	assert_int_equal(st.ok, 1);
	assert_int_equal(st.mean, UINT64_MAX / 2);
}

static void test_i64_median(void **state)
{
	int64_t v[] = { 5, -3, 0, -20, 7 }, w[] = { INT64_MIN, INT64_MAX, -1, 1 };
	(void)state;

	assert_int_equal(i64_median(v, 5), 0);
	assert_int_equal(v[0], -20);		/* sorted as signed numbers */
	assert_int_equal(v[4], 7);
	assert_int_equal(i64_median(w, 4), -1);	/* lower median */
	assert_true(w[0] == INT64_MIN && w[3] == INT64_MAX);
	assert_int_equal(i64_median(v, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort_matches_qsort),
		cmocka_unit_test(test_sort_edges),
		cmocka_unit_test(test_stats_empty),
		cmocka_unit_test(test_stats_basic),
		cmocka_unit_test(test_stats_large_n),
		cmocka_unit_test(test_stats_overflow),
		cmocka_unit_test(test_i64_median),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
