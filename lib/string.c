/* SPDX-License-Identifier: MIT */
/* Freestanding string and memory helpers and the glob matcher (see lib/string.h). */
#include "lib/string.h"

#include <stdint.h>

#ifndef PMUBOOT_HOST

/*
 * GCC may recognise the byte loops below as memcpy/memset idioms and replace them with
 * calls to the very functions being defined (infinite recursion). Keep it from doing so.
 */
#if defined(__GNUC__) && !defined(__clang__)
#define NO_LOOP_IDIOMS __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define NO_LOOP_IDIOMS
#endif

/* Weak: GNU-EFI's libefi (init.o) brings its own memcpy and memset; either serves. */
__attribute__((weak)) NO_LOOP_IDIOMS void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

NO_LOOP_IDIOMS void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d == s || n == 0)
		return dst;
	if ((uintptr_t)d < (uintptr_t)s || (uintptr_t)d >= (uintptr_t)s + n) {
		while (n--)
			*d++ = *s++;
	} else {
		d += n;
		s += n;
		while (n--)
			*--d = *--s;
	}
	return dst;
}

__attribute__((weak)) NO_LOOP_IDIOMS void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++) {
		if (*x != *y)
			return (int)*x - (int)*y;
	}
	return 0;
}

#endif /* !PMUBOOT_HOST */

size_t str_len(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

size_t str_nlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int str_cmp(const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;

	while (*x && *x == *y) {
		x++;
		y++;
	}
	return (int)*x - (int)*y;
}

int str_ncmp(const char *a, const char *b, size_t n)
{
	const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;

	for (; n; n--, x++, y++) {
		if (*x != *y)
			return (int)*x - (int)*y;
		if (!*x)
			return 0;
	}
	return 0;
}

bool str_starts_with(const char *s, const char *prefix)
{
	while (*prefix) {
		if (*s++ != *prefix++)
			return false;
	}
	return true;
}

bool str_contains(const char *s, const char *t)
{
	if (!s)
		return false;
	do {
		if (str_starts_with(s, t))
			return true;
	} while (*s++);
	return false;
}

size_t str_lcpy(char *dst, const char *src, size_t size)
{
	size_t len = str_len(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;

		for (size_t i = 0; i < n; i++)
			dst[i] = src[i];
		dst[n] = '\0';
	}
	return len;
}

size_t str_lcat(char *dst, const char *src, size_t size)
{
	size_t dlen = str_nlen(dst, size);

	/* No terminator within size: nothing can be appended (as strlcat). */
	if (dlen == size)
		return size + str_len(src);
	return dlen + str_lcpy(dst + dlen, src, size - dlen);
}

const char *str_chr(const char *s, int c)
{
	char ch = (char)c;

	for (;; s++) {
		if (*s == ch)
			return s;
		if (!*s)
			return NULL;
	}
}

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

int str_casecmp(const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
	int cx, cy;

	do {
		cx = lower(*x++);
		cy = lower(*y++);
	} while (cx && cx == cy);
	return cx - cy;
}

/*
 * Iterative matcher with single-point backtracking: on a mismatch, retry from the most
 * recent '*' with it swallowing one more character. Linear space, O(n*m) worst case.
 */
bool glob_match(const char *pattern, const char *s)
{
	const char *star_p = NULL, *star_s = NULL;

	while (*s) {
		if (*pattern == '*') {
			while (*pattern == '*')
				pattern++;
			if (!*pattern)
				return true;
			star_p = pattern;
			star_s = s;
		} else if (*pattern && (*pattern == '?' || *pattern == *s)) {
			pattern++;
			s++;
		} else if (star_p) {
			pattern = star_p;
			s = ++star_s;
		} else {
			return false;
		}
	}
	while (*pattern == '*')
		pattern++;
	return *pattern == '\0';
}

int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}
