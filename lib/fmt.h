/* SPDX-License-Identifier: MIT */
/* Freestanding printf-style formatting (no floating point). */
#ifndef LIB_FMT_H
#define LIB_FMT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Supported conversions: %d %i %u %x %X %o %c %s %p %%, with flags '-', '0', '+', ' ', '#',
 * a field width and precision (numbers or '*'), and length modifiers hh h l ll z j t.
 * Behaves like C99 vsnprintf for these: writes at most size bytes including the
 * terminating NUL (when size > 0) and returns the length the full output would have had.
 * %s of NULL prints "(null)". Unknown conversions are copied verbatim.
 */
int fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
int fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Fixed-point decimal: value / 10^decimals printed with exactly `decimals` digits after the
 * point (e.g. fmt_fixed(buf, n, 299912, 3) -> "299.912"). Returns like fmt_snprintf.
 */
int fmt_fixed(char *buf, size_t size, int64_t value, unsigned decimals);

/*
 * Human size: bytes as "N KiB", "N MiB", "N GiB" when exactly divisible, else "N bytes".
 */
int fmt_size(char *buf, size_t size, uint64_t bytes);

#endif /* LIB_FMT_H */
