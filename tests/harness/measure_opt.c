/* SPDX-License-Identifier: MIT */
/* measure= option: parser and formatter of user event lists (EVENT[,EVENT...]@KERNEL[:SIZE]). */
#include "tests/harness/measure_opt.h"

#include <limits.h>
#include <stdarg.h>

#include "lib/fmt.h"
#include "lib/string.h"

const struct measure_kernel_info measure_kernels[MK_COUNT] = {
	[MK_LOOP4] = { "loop4", K_loop4, MP_NONE, 0, 100000, 1, MEASURE_ITERS_MAX, 1,
		       "iterations of the calibrated loop: ADD, ADD, DEC, JNZ (4 instructions, 1 branch)" },
	[MK_ADD_CHAIN] = { "add_chain", K_add_chain, MP_NONE, 0, 100000, 1, MEASURE_ITERS_MAX, 1,
			   "iterations of 8 dependent ADDs, DEC, JNZ (10 instructions)" },
	[MK_IMUL_CHAIN] = { "imul_chain", K_imul_chain, MP_NONE, 0, 100000, 1, MEASURE_ITERS_MAX, 1,
			    "iterations of 4 dependent IMULs, DEC, JNZ (6 instructions)" },
	[MK_DIV_LOOP] = { "div_loop", K_div_loop, MP_NONE, 0, 10000, 1, MEASURE_ITERS_MAX, 1,
			  "iterations of XOR, 64-bit DIV, 8 dependent ADDs, DEC, JNZ (12 instructions)" },
	[MK_BRANCH_LFSR] = { "branch_lfsr", K_branch_lfsr, MP_LFSR, 0, 20000, 1, MEASURE_ITERS_MAX, 1,
			     "iterations of a branch on a pseudo-random LFSR bit (10 instructions, 11 "
			     "when it falls through; 2 branches; about half mispredicted)" },
	[MK_BRANCH_ALT] = { "branch_alt", K_branch_pattern, MP_ALT, 0, 20000, 1, MEASURE_ITERS_MAX, 1,
			    "iterations of a branch taken every other time (7 instructions, 8 when it "
			    "falls through; 2 branches; learnt)" },
	[MK_BIGCODE] = { "bigcode", K_bigcode, MP_NONE, 0, 100, 1, 1ULL << 20, 1,
			 "iterations over 64 KiB of straight-line code (16386 instructions)" },
	[MK_SMALLCODE] = { "smallcode", K_smallcode, MP_NONE, 0, 1000, 1, 1ULL << 24, 1,
			   "iterations over 2 KiB of straight-line code (514 instructions)" },
	[MK_CHASE] = { "chase", K_chase, MP_CHASE, 64, 256ULL << 10, 128, 1ULL << 40, 64,
		       "bytes of a warm pointer chase, one node per 64-byte line in random order "
		       "(n = SIZE/64 loads: one more pass)" },
	[MK_CHASE_COLD] = { "chase_cold", K_chase, MP_CHASE_COLD, 128, 16ULL << 20, 128, 1ULL << 40, 128,
			    "bytes of a pointer chase whose lines are CLFLUSHed before each run "
			    "(n = SIZE/128 steps, each a cold line)" },
	[MK_STORE_PLAIN] = { "store_plain", K_store_plain, MP_NONE, 128, 1ULL << 20, 128, 1ULL << 40, 128,
			     "bytes written with 8 MOVs per 64-byte line (n = SIZE/128 lines)" },
	[MK_STORE_NT] = { "store_nt", K_store_nt, MP_NONE, 128, 1ULL << 20, 128, 1ULL << 40, 128,
			  "bytes written with 8 MOVNTIs per line (n = SIZE/128 lines)" },
	[MK_STORE_NTDQ] = { "store_ntdq", K_store_ntdq, MP_NONE, 128, 1ULL << 20, 128, 1ULL << 40, 128,
			    "bytes written with 4 MOVNTDQs per line (n = SIZE/128 lines)" },
};

struct sl {
	const char *p;
	size_t n;
};

static int clampi(size_t n)
{
	return n > 200 ? 200 : (int)n;
}

__attribute__((format(printf, 3, 4)))
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		fmt_vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static bool sl_eq(struct sl s, const char *lit)
{
	size_t n = str_len(lit);

	return s.n == n && str_ncmp(s.p, lit, n) == 0;
}

static bool sl_starts(struct sl s, const char *lit)
{
	size_t n = str_len(lit);

	return s.n >= n && str_ncmp(s.p, lit, n) == 0;
}

/* A whole slice as a decimal or 0x-hex number; -1 if not one or above max. */
static int sl_number(struct sl s, uint64_t max, uint64_t *out)
{
	size_t i = 0;
	unsigned base = 10;
	uint64_t v = 0;

	if (s.n >= 2 && s.p[0] == '0' && (s.p[1] == 'x' || s.p[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == s.n)
		return -1;
	for (; i < s.n; i++) {
		int d = hex_digit(s.p[i]);

		if (d < 0 || (unsigned)d >= base)
			return -1;
		if (v > (UINT64_MAX - (unsigned)d) / base)
			return -2;
		v = v * base + (unsigned)d;
	}
	if (v > max)
		return -2;
	*out = v;
	return 0;
}

/* A field value 0..255: "not a number" and "out of range" name the field. */
static int byte_field(struct sl key, struct sl val, struct sl ev, uint8_t *out, char *err,
		      size_t errlen)
{
	uint64_t v = 0;
	int r = sl_number(val, 255, &v);

	if (r == -1)
		return fail(err, errlen, "%.*s='%.*s' is not a number in '%.*s'", clampi(key.n),
			    key.p, clampi(val.n), val.p, clampi(ev.n), ev.p);
	if (r)
		return fail(err, errlen, "%.*s=%.*s out of range (0..255) in '%.*s'", clampi(key.n),
			    key.p, clampi(val.n), val.p, clampi(ev.n), ev.p);
	*out = (uint8_t)v;
	return 0;
}

static bool name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == ':';
}

static bool label_char(char c)
{
	return name_char(c) && c != ':';
}

/* A character for an error message: itself when printable, else "\xHH". */
static const char *show_char(char c, char buf[8])
{
	if (c > ' ' && c < 0x7f) {
		buf[0] = c;
		buf[1] = '\0';
	} else {
		fmt_snprintf(buf, 8, "\\x%02x", (unsigned)(unsigned char)c);
	}
	return buf;
}

/* Named-event modifiers (libpfm4's letters, perf's long names; lower case only, so no
 * unit mask is taken for one). Returns 1 if part is one (applied to e), 0 if not, -1 on a
 * bad value. */
static int apply_modifier(struct measure_event *e, struct sl part, bool *priv, struct sl ev,
			  char *err, size_t errlen)
{
	if (sl_eq(part, "u") || sl_eq(part, "usr")) {
		*priv = true;
		e->usr = true;
		return 1;
	}
	if (sl_eq(part, "k") || sl_eq(part, "os")) {
		*priv = true;
		e->os = true;
		return 1;
	}
	if (sl_eq(part, "i") || sl_eq(part, "inv")) {
		e->inv = true;
		return 1;
	}
	if (sl_eq(part, "e") || sl_eq(part, "edge")) {
		e->edge = true;
		return 1;
	}
	if (sl_eq(part, "t")) {
		e->any = true;
		return 1;
	}
	if (sl_starts(part, "c=") || sl_starts(part, "cmask=")) {
		size_t k = part.p[1] == '=' ? 2 : 6;
		struct sl key = { part.p, k - 1 }, val = { part.p + k, part.n - k };

		if (byte_field(key, val, ev, &e->cmask, err, errlen))
			return -1;
		e->cmask_set = true;
		return 1;
	}
	return 0;
}

static bool has_eq(struct sl s)
{
	for (size_t i = 0; i < s.n; i++)
		if (s.p[i] == '=')
			return true;
	return false;
}

/* perf's raw form rNNNN: the PERFEVTSEL layout (event 7:0, umask 15:8, usr 16, os 17, edge
 * 18, any 21, inv 23, cmask 31:24). */
static int parse_rhex(struct measure_event *e, struct sl hex, struct sl ev, bool *priv, char *err,
		      size_t errlen)
{
	static const struct { unsigned bit; const char *name; } refused[] = {
		{ 19, "PC (pin control)" }, { 20, "INT (a PMI)" }, { 22, "EN (pmuboot sets it)" },
	};
	uint64_t v = 0;

	if (hex.n > 8)
		return fail(err, errlen, "raw event '%.*s' is not 'r' and at most 8 hex digits",
			    clampi(ev.n), ev.p);
	for (size_t i = 0; i < hex.n; i++)
		v = v << 4 | (unsigned)hex_digit(hex.p[i]);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (v & (1ULL << refused[i].bit))
			return fail(err, errlen, "raw event '%.*s' sets bit %u, %s: not allowed",
				    clampi(ev.n), ev.p, refused[i].bit, refused[i].name);
	e->raw = true;
	e->event = (uint8_t)v;
	e->umask = (uint8_t)(v >> 8);
	e->cmask = (uint8_t)(v >> 24);
	e->edge = v & (1ULL << 18);
	e->any = v & (1ULL << 21);
	e->inv = v & (1ULL << 23);
	if (v & (3ULL << 16)) {
		*priv = true;
		e->usr = v & (1ULL << 16);
		e->os = v & (1ULL << 17);
	}
	return 0;
}

static bool all_hex(struct sl s)
{
	if (!s.n)
		return false;
	for (size_t i = 0; i < s.n; i++)
		if (hex_digit(s.p[i]) < 0)
			return false;
	return true;
}

/* A named event ("MEM_LOAD_RETIRED.L3_MISS", "skl::MEM_LOAD_RETIRED:L3_MISS:u:c=1") or rHEX. */
static int parse_named(struct measure_event *e, struct sl ev, char *err, size_t errlen)
{
	size_t i = 0, name_end;
	bool priv = false, in_mods = false;
	char cb[8];

	for (size_t k = 0; k < ev.n; k++)
		if (!name_char(ev.p[k]) && ev.p[k] != '=')
			return fail(err, errlen, "bad character '%s' in event '%.*s' (names are "
				    "letters, digits, '_', '.', ':')", show_char(ev.p[k], cb),
				    clampi(ev.n), ev.p);
	/* model:: prefix */
	for (size_t k = 0; k + 1 < ev.n; k++) {
		if (ev.p[k] == ':' && ev.p[k + 1] == ':') {
			if (k == 0)
				return fail(err, errlen, "empty model before '::' in '%.*s'",
					    clampi(ev.n), ev.p);
			i = k + 2;
			break;
		}
		if (ev.p[k] == ':' || ev.p[k] == '=')
			break;
	}
	name_end = ev.n;
	/* rHEX (perf's raw syntax), with no model prefix */
	{
		size_t c = 0;

		while (c < ev.n && ev.p[c] != ':')
			c++;
		if (i == 0 && ev.p[0] == 'r' && all_hex((struct sl){ ev.p + 1, c - 1 })) {
			if (parse_rhex(e, (struct sl){ ev.p + 1, c - 1 }, ev, &priv, err, errlen))
				return -1;
			in_mods = true;
			name_end = 0;
			i = c;
			if (i < ev.n && ++i == ev.n)
				return fail(err, errlen, "empty part between ':' in '%.*s'",
					    clampi(ev.n), ev.p);
		}
	}
	/* Parts separated by ':' after the prefix: the name's, then modifiers. */
	while (i <= ev.n) {
		size_t s = i;
		struct sl part;
		int m;

		if (in_mods && i == ev.n)
			break;
		while (i < ev.n && ev.p[i] != ':')
			i++;
		part = (struct sl){ ev.p + s, i - s };
		if (!part.n)
			return fail(err, errlen, "empty part between ':' in '%.*s'", clampi(ev.n),
				    ev.p);
		m = apply_modifier(e, part, &priv, ev, err, errlen);
		if (m < 0)
			return -1;
		if (m == 0) {
			if (in_mods || has_eq(part))
				return fail(err, errlen, "unknown modifier '%.*s' in '%.*s' (u, k, i, "
					    "e, t, c=N)", clampi(part.n), part.p, clampi(ev.n),
					    ev.p);
		} else if (!in_mods) {
			if (s == 0 || ev.p[s - 1] != ':' || (s >= 2 && ev.p[s - 2] == ':'))
				return fail(err, errlen, "no event name before modifier '%.*s' in "
					    "'%.*s'", clampi(part.n), part.p, clampi(ev.n), ev.p);
			in_mods = true;
			name_end = s - 1;
		}
		if (i == ev.n)
			break;
		i++;	/* ':' */
		if (i == ev.n)
			return fail(err, errlen, "empty part between ':' in '%.*s'", clampi(ev.n),
				    ev.p);
	}
	if (!e->raw) {
		if (name_end >= MEASURE_NAME_LEN)
			return fail(err, errlen, "event name '%.*s' too long (max %d characters)",
				    clampi(name_end), ev.p, MEASURE_NAME_LEN - 1);
		memcpy(e->name, ev.p, name_end);
		e->name[name_end] = '\0';
	}
	if (!priv)
		e->usr = e->os = true;
	if (e->raw)
		e->cmask_set = false;	/* a raw event's cmask is its field, c=N or not */
	return 0;
}

/* perf's cpu/FIELD,.../[uk]: event= (required), umask=, cmask=, inv, edge, any, usr, os (each
 * flag also =0 or =1), name=LABEL. */
static int parse_raw(struct measure_event *e, struct sl ev, struct sl body, struct sl mods,
		     char *err, size_t errlen)
{
	enum { F_EVENT, F_UMASK, F_CMASK, F_INV, F_EDGE, F_ANY, F_USR, F_OS, F_NAME, F_N };
	static const char *const fields[F_N] = { "event", "umask", "cmask", "inv", "edge", "any",
						 "usr", "os", "name" };
	bool seen[F_N] = { false };
	size_t i = 0;

	e->raw = true;
	while (i < body.n || (i == body.n && body.n == 0)) {
		size_t s = i, eq;
		struct sl key, val;
		unsigned f;
		bool has_val;

		while (i < body.n && body.p[i] != ',')
			i++;
		if (i == s)
			return fail(err, errlen, "empty field in '%.*s'", clampi(ev.n), ev.p);
		for (eq = s; eq < i && body.p[eq] != '='; eq++)
			;
		key = (struct sl){ body.p + s, eq - s };
		has_val = eq < i;
		val = has_val ? (struct sl){ body.p + eq + 1, i - eq - 1 } : (struct sl){ "", 0 };
		for (f = 0; f < F_N && !sl_eq(key, fields[f]); f++)
			;
		if (f == F_N)
			return fail(err, errlen, "unknown field '%.*s' in '%.*s' (event, umask, cmask, "
				    "inv, edge, any, usr, os, name)", clampi(key.n), key.p,
				    clampi(ev.n), ev.p);
		if (seen[f])
			return fail(err, errlen, "field '%s' given twice in '%.*s'", fields[f],
				    clampi(ev.n), ev.p);
		seen[f] = true;
		if (f <= F_CMASK) {
			uint8_t *dst = f == F_EVENT ? &e->event : f == F_UMASK ? &e->umask : &e->cmask;

			if (!has_val)
				return fail(err, errlen, "field '%s' needs a value in '%.*s'", fields[f],
					    clampi(ev.n), ev.p);
			if (byte_field(key, val, ev, dst, err, errlen))
				return -1;
		} else if (f == F_NAME) {
			if (!val.n || val.n >= MEASURE_LABEL_LEN)
				return fail(err, errlen, "name= needs 1..%d characters in '%.*s'",
					    MEASURE_LABEL_LEN - 1, clampi(ev.n), ev.p);
			for (size_t k = 0; k < val.n; k++)
				if (!label_char(val.p[k])) {
					char cb[8];

					return fail(err, errlen, "bad character '%s' in name= of '%.*s' "
						    "(letters, digits, '_', '.')",
						    show_char(val.p[k], cb), clampi(ev.n), ev.p);
				}
			memcpy(e->label, val.p, val.n);
			e->label[val.n] = '\0';
		} else {
			bool on = true;

			if (has_val && !sl_eq(val, "0") && !sl_eq(val, "1"))
				return fail(err, errlen, "flag '%s' takes no value, =0 or =1 in '%.*s'",
					    fields[f], clampi(ev.n), ev.p);
			if (has_val)
				on = val.p[0] == '1';
			switch (f) {
			case F_INV: e->inv = on; break;
			case F_EDGE: e->edge = on; break;
			case F_ANY: e->any = on; break;
			case F_USR: e->usr = on; break;
			default: e->os = on; break;
			}
		}
		if (i == body.n)
			break;
		i++;
		if (i == body.n)
			return fail(err, errlen, "empty field in '%.*s'", clampi(ev.n), ev.p);
	}
	if (!seen[F_EVENT])
		return fail(err, errlen, "'%.*s' has no event= field", clampi(ev.n), ev.p);
	for (size_t k = 0; k < mods.n; k++) {
		char cb[8];

		if (mods.p[k] == 'u')
			e->usr = true;
		else if (mods.p[k] == 'k')
			e->os = true;
		else
			return fail(err, errlen, "unknown modifier '%s' after '%.*s' (u, k)",
				    show_char(mods.p[k], cb), clampi(ev.n - mods.n), ev.p);
	}
	if (mods.n && (seen[F_USR] || seen[F_OS]))
		return fail(err, errlen, "both usr/os fields and a u/k modifier in '%.*s'",
			    clampi(ev.n), ev.p);
	if (!seen[F_USR] && !seen[F_OS] && !mods.n)
		e->usr = e->os = true;
	if (!e->usr && !e->os)
		return fail(err, errlen, "'%.*s' counts at no privilege level (usr=0 and os=0)",
			    clampi(ev.n), ev.p);
	return 0;
}

static int parse_size(const struct measure_kernel_info *k, struct sl s, uint64_t *out, char *err,
		      size_t errlen)
{
	size_t end = s.n;
	unsigned shift = 0;
	uint64_t v = 0;
	int r;

	if (end && (s.p[end - 1] == 'K' || s.p[end - 1] == 'k'))
		shift = 10;
	else if (end && (s.p[end - 1] == 'M' || s.p[end - 1] == 'm'))
		shift = 20;
	else if (end && (s.p[end - 1] == 'G' || s.p[end - 1] == 'g'))
		shift = 30;
	if (shift)
		end--;
	r = sl_number((struct sl){ s.p, end }, UINT64_MAX >> shift, &v);
	if (r == -1)
		return fail(err, errlen, "size '%.*s' is not N[K|M|G]", clampi(s.n), s.p);
	v <<= shift;
	if (r || v < k->min || v > k->max)
		return fail(err, errlen, "size %.*s out of range for %s (%llu..%llu %s)", clampi(s.n),
			    s.p, k->name, (unsigned long long)k->min, (unsigned long long)k->max,
			    kernel_memory(k->kernel) ? "bytes" : "iterations");
	if (v % k->align)
		return fail(err, errlen, "size %.*s of %s is not a multiple of %llu bytes",
			    clampi(s.n), s.p, k->name, (unsigned long long)k->align);
	*out = v;
	return 0;
}

static const char *kernel_names(void)
{
	static char buf[200];

	if (!buf[0])
		for (unsigned k = 0; k < MK_COUNT; k++) {
			if (k)
				str_lcat(buf, ", ", sizeof(buf));
			str_lcat(buf, measure_kernels[k].name, sizeof(buf));
		}
	return buf;
}

int measure_parse(struct measure_set *set, const char *p, size_t n, char *err, size_t errlen)
{
	struct measure_set tmp;
	struct sl s = { p, n }, events, kern, size = { "", 0 };
	size_t at, i;
	bool has_size = false;
	unsigned k;

	if (err && errlen)
		err[0] = '\0';
	memset(&tmp, 0, sizeof(tmp));
	for (at = 0; at < s.n && s.p[at] != '@'; at++)
		;
	if (at == s.n)
		return fail(err, errlen, "missing @KERNEL (e.g. measure=INST_RETIRED.ANY_P@loop4:100000)");
	events = (struct sl){ s.p, at };
	kern = (struct sl){ s.p + at + 1, s.n - at - 1 };
	for (i = 0; i < kern.n; i++) {
		if (kern.p[i] == ':') {
			size = (struct sl){ kern.p + i + 1, kern.n - i - 1 };
			kern.n = i;
			has_size = true;
			break;
		}
	}
	for (k = 0; k < MK_COUNT && !sl_eq(kern, measure_kernels[k].name); k++)
		;
	if (k == MK_COUNT)
		return fail(err, errlen, "unknown kernel '%.*s' (%s)", clampi(kern.n), kern.p,
			    kernel_names());
	tmp.kernel = (enum measure_kernel)k;
	tmp.size = measure_kernels[k].def_size;
	if (has_size) {
		if (!size.n)
			return fail(err, errlen, "empty size after '%s:'", measure_kernels[k].name);
		if (parse_size(&measure_kernels[k], size, &tmp.size, err, errlen))
			return -1;
		tmp.size_set = true;
	}
	if (!events.n)
		return fail(err, errlen, "no event before '@'");
	i = 0;
	for (;;) {
		size_t st = i;
		struct measure_event *e;
		struct sl ev;

		if (tmp.nev == MEASURE_MAX_EVENTS)
			return fail(err, errlen, "too many events (max %d in one set; use several "
				    "measure= options)", MEASURE_MAX_EVENTS);
		e = &tmp.ev[tmp.nev];
		if (sl_starts((struct sl){ events.p + i, events.n - i }, "cpu/")) {
			size_t b = i + 4, close = b, me;

			while (close < events.n && events.p[close] != '/')
				close++;
			if (close == events.n)
				return fail(err, errlen, "'%.*s' has no closing '/'",
					    clampi(events.n - st), events.p + st);
			me = close + 1;
			while (me < events.n && events.p[me] != ',')
				me++;
			ev = (struct sl){ events.p + st, me - st };
			if (parse_raw(e, ev, (struct sl){ events.p + b, close - b },
				      (struct sl){ events.p + close + 1, me - close - 1 }, err, errlen))
				return -1;
			i = me;
		} else {
			while (i < events.n && events.p[i] != ',')
				i++;
			ev = (struct sl){ events.p + st, i - st };
			if (!ev.n)
				return fail(err, errlen, "empty event in the list (two commas, or one at "
					    "an end)");
			if (parse_named(e, ev, err, errlen))
				return -1;
		}
		tmp.nev++;
		if (i == events.n)
			break;
		i++;	/* ',' */
		if (i == events.n)
			return fail(err, errlen, "empty event in the list (two commas, or one at an end)");
	}
	*set = tmp;
	return 0;
}

/* Appending formatter with snprintf semantics. */
struct acc {
	char *buf;
	size_t len, pos;
};

__attribute__((format(printf, 2, 3)))
static void put(struct acc *a, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = a->pos < a->len ? fmt_vsnprintf(a->buf + a->pos, a->len - a->pos, fmt, ap) :
			      fmt_vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		a->pos += (size_t)n;
}

static void format_event(const struct measure_event *e, struct acc *a)
{
	bool both = e->usr && e->os;

	if (e->raw) {
		put(a, "cpu/event=0x%02x,umask=0x%02x", e->event, e->umask);
		if (e->cmask)
			put(a, ",cmask=%u", e->cmask);
		if (e->inv)
			put(a, ",inv");
		if (e->edge)
			put(a, ",edge");
		if (e->any)
			put(a, ",any");
		if (e->label[0])
			put(a, ",name=%s", e->label);
		put(a, "/%s", both ? "" : e->usr ? "u" : "k");
		return;
	}
	put(a, "%s", e->name);
	if (!both)
		put(a, e->usr ? ":u" : ":k");
	if (e->inv)
		put(a, ":i");
	if (e->edge)
		put(a, ":e");
	if (e->any)
		put(a, ":t");
	if (e->cmask_set)
		put(a, ":c=%u", e->cmask);
}

int measure_event_format(const struct measure_event *e, char *buf, size_t len)
{
	struct acc a = { buf, buf ? len : 0, 0 };

	if (buf && len)
		buf[0] = '\0';
	format_event(e, &a);
	return a.pos > (size_t)INT_MAX ? -1 : (int)a.pos;
}

int measure_set_format(const struct measure_set *s, char *buf, size_t len)
{
	struct acc a = { buf, buf ? len : 0, 0 };

	if (buf && len)
		buf[0] = '\0';
	for (unsigned i = 0; i < s->nev && i < MEASURE_MAX_EVENTS; i++) {
		if (i)
			put(&a, ",");
		format_event(&s->ev[i], &a);
	}
	put(&a, "@%s", s->kernel < MK_COUNT ? measure_kernels[s->kernel].name : "?");
	if (s->size_set)
		put(&a, ":%llu", (unsigned long long)s->size);
	return a.pos > (size_t)INT_MAX ? -1 : (int)a.pos;
}

uint64_t measure_iterations(const struct measure_set *s)
{
	unsigned per = s->kernel < MK_COUNT ? measure_kernels[s->kernel].iter_bytes : 0;

	return per ? s->size / per : s->size;
}

uint64_t measure_buffer_bytes(const struct measure_set *s)
{
	return s->kernel < MK_COUNT && kernel_memory(measure_kernels[s->kernel].kernel) ? s->size : 0;
}
