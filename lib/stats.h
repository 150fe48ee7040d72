/* SPDX-License-Identifier: MIT */
/* Order statistics over repeated measurements. */
#ifndef LIB_STATS_H
#define LIB_STATS_H

#include <stddef.h>
#include <stdint.h>

struct u64_stats {
	size_t n;
	uint64_t min;
	uint64_t max;
	uint64_t median;	/* lower median for even n */
	uint64_t mean;		/* rounded down; sum must not overflow 64 bits (reported by ok) */
	int ok;			/* 1 when n > 0 and the sum did not overflow */
};

/* Sorts v ascending in place (insertion sort for small n, heap sort above 32). */
void u64_sort(uint64_t *v, size_t n);

/* Sorts v in place and fills *st. n == 0 gives st->ok = 0 and all zeros. */
void u64_stats(uint64_t *v, size_t n, struct u64_stats *st);

/* Signed values (differences of counts, which noise can make negative): sorts v ascending
 * in place and returns the lower median; 0 for n == 0. */
int64_t i64_median(int64_t *v, size_t n);

#endif /* LIB_STATS_H */
