/* SPDX-License-Identifier: MIT */
/* Freestanding string and memory helpers, and the glob matcher used to select checks. */
#ifndef LIB_STRING_H
#define LIB_STRING_H

#include <stddef.h>
#include <stdbool.h>

/* The compiler may emit calls to these four; the firmware provides them (lib/string.c).
 * Host builds take them from the C library instead. */
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

size_t str_len(const char *s);
size_t str_nlen(const char *s, size_t max);
int str_cmp(const char *a, const char *b);
int str_ncmp(const char *a, const char *b, size_t n);
bool str_starts_with(const char *s, const char *prefix);
/* Whether t occurs in s (an empty t everywhere; a NULL s holds nothing). */
bool str_contains(const char *s, const char *t);
/* Copies at most size-1 bytes and always terminates (when size > 0); returns str_len(src). */
size_t str_lcpy(char *dst, const char *src, size_t size);
/* Appends like strlcat; returns the length it tried to create. */
size_t str_lcat(char *dst, const char *src, size_t size);
const char *str_chr(const char *s, int c);
/* ASCII case-insensitive comparison. */
int str_casecmp(const char *a, const char *b);
/* The value of hexadecimal digit c (either case), or -1. */
int hex_digit(char c);

/* Shell-style glob: '*' matches any run (including empty), '?' one character,
 * everything else itself. Case-sensitive. */
bool glob_match(const char *pattern, const char *s);

#endif /* LIB_STRING_H */
