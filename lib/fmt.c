/* SPDX-License-Identifier: MIT */
/* Freestanding printf-style formatting: vsnprintf, fixed-point and size helpers (see lib/fmt.h). */
#include "lib/fmt.h"

#include <limits.h>
#include <stdbool.h>

#include "lib/string.h"

_Static_assert(sizeof(uintmax_t) <= sizeof(uint64_t), "uintmax_t wider than 64 bits");
_Static_assert(sizeof(uintptr_t) <= sizeof(uint64_t), "pointers wider than 64 bits");

/* Output sink: counts every byte, stores only what fits (leaving room for the NUL). */
struct sink {
	char *buf;
	size_t size;
	size_t pos;
};

static void put(struct sink *o, char c)
{
	if (o->pos + 1 < o->size)
		o->buf[o->pos] = c;
	o->pos++;
}

static void put_n(struct sink *o, char c, size_t n)
{
	while (n--)
		put(o, c);
}

static void put_mem(struct sink *o, const char *s, size_t n)
{
	while (n--)
		put(o, *s++);
}

static int finish(struct sink *o)
{
	if (o->size)
		o->buf[o->pos < o->size ? o->pos : o->size - 1] = '\0';
	return o->pos > (size_t)INT_MAX ? -1 : (int)o->pos;
}

#define F_LEFT	0x01
#define F_ZERO	0x02
#define F_PLUS	0x04
#define F_SPACE	0x08
#define F_ALT	0x10
#define F_PTR	0x20	/* %p: "0x" prefix even for zero */

enum len { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_Z, LEN_J, LEN_T };

/* Width and precision are clamped well below INT_MAX; anything larger is nonsense anyway. */
#define FIELD_MAX	(INT_MAX / 2)

static void pad_field(struct sink *o, unsigned flags, size_t width, size_t len, bool before)
{
	if (width > len && (before != !!(flags & F_LEFT)))
		put_n(o, ' ', width - len);
}

static void emit_int(struct sink *o, uint64_t mag, bool neg, unsigned base, bool upper,
		     bool is_signed, unsigned flags, size_t width, int prec)
{
	const char *digs = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];	/* 22 octal digits cover 64 bits */
	size_t nd = 0, zeros = 0, total;
	char prefix[2];
	size_t npre = 0;

	if (!(mag == 0 && prec == 0)) {
		do {
			tmp[nd++] = digs[mag % base];
			mag /= base;
		} while (mag);
	}

	if (is_signed) {
		if (neg)
			prefix[npre++] = '-';
		else if (flags & F_PLUS)
			prefix[npre++] = '+';
		else if (flags & F_SPACE)
			prefix[npre++] = ' ';
	}
	if (base == 16 && (flags & F_ALT) && (nd && !(nd == 1 && tmp[0] == '0'))) {
		prefix[npre++] = '0';
		prefix[npre++] = upper ? 'X' : 'x';
	} else if (flags & F_PTR) {
		prefix[npre++] = '0';
		prefix[npre++] = 'x';
	}

	if (prec >= 0 && (size_t)prec > nd)
		zeros = (size_t)prec - nd;
	/* '#' with 'o': the first digit printed must be a zero. */
	if (base == 8 && (flags & F_ALT) && zeros == 0 && (nd == 0 || tmp[nd - 1] != '0'))
		zeros = 1;
	total = npre + zeros + nd;
	/* '0' flag: pad with zeros after the sign/prefix, unless '-' or a precision is given. */
	if ((flags & F_ZERO) && !(flags & F_LEFT) && prec < 0 && width > total) {
		zeros += width - total;
		total = width;
	}

	pad_field(o, flags, width, total, true);
	put_mem(o, prefix, npre);
	put_n(o, '0', zeros);
	while (nd)
		put(o, tmp[--nd]);
	pad_field(o, flags, width, total, false);
}

static int64_t arg_signed(va_list *ap, enum len len)
{
	switch (len) {
	case LEN_HH: return (signed char)va_arg(*ap, int);
	case LEN_H: return (short)va_arg(*ap, int);
	case LEN_L: return va_arg(*ap, long);
	case LEN_LL: return va_arg(*ap, long long);
	case LEN_Z: return va_arg(*ap, ptrdiff_t);	/* signed type of size_t's width */
	case LEN_J: return va_arg(*ap, intmax_t);
	case LEN_T: return va_arg(*ap, ptrdiff_t);
	default: return va_arg(*ap, int);
	}
}

static uint64_t arg_unsigned(va_list *ap, enum len len)
{
	switch (len) {
	case LEN_HH: return (unsigned char)va_arg(*ap, unsigned int);
	case LEN_H: return (unsigned short)va_arg(*ap, unsigned int);
	case LEN_L: return va_arg(*ap, unsigned long);
	case LEN_LL: return va_arg(*ap, unsigned long long);
	case LEN_Z: return va_arg(*ap, size_t);
	case LEN_J: return va_arg(*ap, uintmax_t);
	case LEN_T: return (size_t)va_arg(*ap, ptrdiff_t);
	default: return va_arg(*ap, unsigned int);
	}
}

static size_t parse_num(const char **pf)
{
	const char *f = *pf;
	size_t v = 0;

	while (*f >= '0' && *f <= '9') {
		if (v < FIELD_MAX)
			v = v * 10 + (size_t)(*f - '0');
		f++;
	}
	*pf = f;
	return v > FIELD_MAX ? FIELD_MAX : v;
}

int fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap_in)
{
	struct sink o = { buf, size, 0 };
	const char *f = fmt;
	va_list ap;

	/* Work on a copy so helpers can take a pointer to it portably. */
	va_copy(ap, ap_in);

	while (*f) {
		const char *spec;
		unsigned flags = 0;
		size_t width = 0;
		int prec = -1;
		enum len len = LEN_NONE;
		char conv;

		if (*f != '%') {
			put(&o, *f++);
			continue;
		}
		spec = f++;

		for (;; f++) {
			if (*f == '-')
				flags |= F_LEFT;
			else if (*f == '0')
				flags |= F_ZERO;
			else if (*f == '+')
				flags |= F_PLUS;
			else if (*f == ' ')
				flags |= F_SPACE;
			else if (*f == '#')
				flags |= F_ALT;
			else
				break;
		}

		if (*f == '*') {
			int w = va_arg(ap, int);

			f++;
			if (w < 0) {
				flags |= F_LEFT;
				width = (size_t)0 - (size_t)(long long)w;	/* safe for INT_MIN */
			} else {
				width = (size_t)w;
			}
			if (width > FIELD_MAX)
				width = FIELD_MAX;
		} else {
			width = parse_num(&f);
		}

		if (*f == '.') {
			f++;
			if (*f == '*') {
				int p = va_arg(ap, int);

				f++;
				prec = p < 0 ? -1 : (p > FIELD_MAX ? FIELD_MAX : p);
			} else {
				prec = (int)parse_num(&f);
			}
		}

		switch (*f) {
		case 'h':
			f++;
			len = LEN_H;
			if (*f == 'h') {
				f++;
				len = LEN_HH;
			}
			break;
		case 'l':
			f++;
			len = LEN_L;
			if (*f == 'l') {
				f++;
				len = LEN_LL;
			}
			break;
		case 'z': f++; len = LEN_Z; break;
		case 'j': f++; len = LEN_J; break;
		case 't': f++; len = LEN_T; break;
		default: break;
		}

		conv = *f;
		if (!conv) {
			/* Format ends inside a conversion: copy what is there. */
			put_mem(&o, spec, (size_t)(f - spec));
			break;
		}
		f++;

		switch (conv) {
		case 'd':
		case 'i': {
			int64_t v = arg_signed(&ap, len);
			bool neg = v < 0;
			uint64_t mag = neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

			emit_int(&o, mag, neg, 10, false, true, flags, width, prec);
			break;
		}
		case 'u':
			emit_int(&o, arg_unsigned(&ap, len), false, 10, false, false, flags, width, prec);
			break;
		case 'x':
		case 'X':
			emit_int(&o, arg_unsigned(&ap, len), false, 16, conv == 'X', false, flags, width,
				 prec);
			break;
		case 'o':
			emit_int(&o, arg_unsigned(&ap, len), false, 8, false, false, flags, width, prec);
			break;
		case 'p': {
			uintptr_t p = (uintptr_t)va_arg(ap, void *);

			emit_int(&o, (uint64_t)p, false, 16, false, false,
				 (flags & ~F_ALT) | F_PTR, width, prec);
			break;
		}
		case 'c': {
			char c = (char)(unsigned char)va_arg(ap, int);

			if (len != LEN_NONE) {
				put_mem(&o, spec, (size_t)(f - spec));	/* %lc unsupported */
				break;
			}
			pad_field(&o, flags, width, 1, true);
			put(&o, c);
			pad_field(&o, flags, width, 1, false);
			break;
		}
		case 's': {
			const char *s;
			size_t n;

			s = va_arg(ap, const char *);
			if (len != LEN_NONE) {
				put_mem(&o, spec, (size_t)(f - spec));	/* %ls unsupported */
				break;
			}
			if (!s)
				s = "(null)";
			n = prec >= 0 ? str_nlen(s, (size_t)prec) : str_len(s);
			pad_field(&o, flags, width, n, true);
			put_mem(&o, s, n);
			pad_field(&o, flags, width, n, false);
			break;
		}
		case '%':
			put(&o, '%');
			break;
		default:
			put_mem(&o, spec, (size_t)(f - spec));
			break;
		}
	}

	va_end(ap);
	return finish(&o);
}

int fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = fmt_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return r;
}

int fmt_fixed(char *buf, size_t size, int64_t value, unsigned decimals)
{
	struct sink o = { buf, size, 0 };
	uint64_t mag = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
	char tmp[24];
	size_t nd = 0, intd;

	do {
		tmp[nd++] = (char)('0' + mag % 10);
		mag /= 10;
	} while (mag);

	if (value < 0)
		put(&o, '-');
	if (nd > decimals) {
		intd = nd - decimals;
		while (intd--)
			put(&o, tmp[--nd]);
	} else {
		put(&o, '0');
	}
	if (decimals) {
		put(&o, '.');
		put_n(&o, '0', decimals - nd);	/* nd <= decimals here */
		while (nd)
			put(&o, tmp[--nd]);
	}
	return finish(&o);
}

int fmt_size(char *buf, size_t size, uint64_t bytes)
{
	static const struct {
		unsigned shift;
		const char *unit;
	} units[] = { { 40, "TiB" }, { 30, "GiB" }, { 20, "MiB" }, { 10, "KiB" } };

	if (bytes) {
		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
			uint64_t mask = (1ULL << units[i].shift) - 1;

			if (!(bytes & mask))
				return fmt_snprintf(buf, size, "%llu %s",
						    (unsigned long long)(bytes >> units[i].shift),
						    units[i].unit);
		}
	}
	return fmt_snprintf(buf, size, "%llu bytes", (unsigned long long)bytes);
}
