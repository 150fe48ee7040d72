/* SPDX-License-Identifier: MIT */
/* Sorting and order statistics (min/max/median/mean) over repeated measurements. */
#include "lib/stats.h"

#define INSERTION_MAX	32

static void insertion_sort(uint64_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		uint64_t x = v[i];
		size_t j = i;

		while (j > 0 && v[j - 1] > x) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

/* Restores the max-heap property below `root` in v[0..n). */
static void sift_down(uint64_t *v, size_t root, size_t n)
{
	uint64_t x = v[root];

	for (;;) {
		size_t child = 2 * root + 1;

		if (child >= n)
			break;
		if (child + 1 < n && v[child + 1] > v[child])
			child++;
		if (v[child] <= x)
			break;
		v[root] = v[child];
		root = child;
	}
	v[root] = x;
}

static void heap_sort(uint64_t *v, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift_down(v, i, n);
	for (size_t end = n - 1; end > 0; end--) {
		uint64_t t = v[0];

		v[0] = v[end];
		v[end] = t;
		sift_down(v, 0, end);
	}
}

void u64_sort(uint64_t *v, size_t n)
{
	if (n < 2)
		return;
	if (n <= INSERTION_MAX)
		insertion_sort(v, n);
	else
		heap_sort(v, n);
}

void u64_stats(uint64_t *v, size_t n, struct u64_stats *st)
{
	uint64_t sum = 0, q = 0, r = 0;
	int overflow = 0;

	st->n = n;
	st->min = st->max = st->median = st->mean = 0;
	st->ok = 0;
	if (n == 0)
		return;

	u64_sort(v, n);
	st->min = v[0];
	st->max = v[n - 1];
	st->median = v[(n - 1) / 2];

	/*
	 * The mean is computed exactly as quotient + remainder so it is right even when the
	 * plain sum overflows; ok still reports the overflow as the header promises.
	 */
	for (size_t i = 0; i < n; i++) {
		if (sum + v[i] < sum)
			overflow = 1;
		sum += v[i];
		q += v[i] / n;
		r += v[i] % n;		/* r < n before, so r < 2n here */
		if (r >= n) {
			q++;
			r -= n;
		}
	}
	st->mean = q;
	st->ok = !overflow;
}

int64_t i64_median(int64_t *v, size_t n)
{
	/* Flipping the sign bit maps int64 order onto uint64 order, so the unsigned sort
	 * serves; the values are mapped back in place. */
	uint64_t *u = (uint64_t *)v;

	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		u[i] ^= 1ULL << 63;
	u64_sort(u, n);
	for (size_t i = 0; i < n; i++)
		u[i] ^= 1ULL << 63;
	return v[(n - 1) / 2];
}
