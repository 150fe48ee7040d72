/* SPDX-License-Identifier: MIT */
/* Run options: parser for pmuboot.cfg and UEFI load options, validation and formatting. */
#include "tests/harness/options.h"

#include <limits.h>
#include <stdarg.h>

#include "lib/fmt.h"
#include "lib/string.h"

#define BAUD_BASE	115200u

enum num_err { NUM_OK = 0, NUM_EMPTY, NUM_BAD, NUM_OVERFLOW };

/* A slice of the input: tokens are not NUL-terminated inside a cfg text. */
struct slice {
	const char *p;
	size_t n;
};

static int clamp_int(size_t n)
{
	return n > (size_t)(INT_MAX / 2) ? INT_MAX / 2 : (int)n;
}

static bool slice_eq(struct slice s, const char *lit)
{
	size_t n = str_len(lit);

	return s.n == n && str_ncmp(s.p, lit, n) == 0;
}

static void err_clear(char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = '\0';
}

/* Writes "TOKEN: message" into err. Always returns -1. */
__attribute__((format(printf, 4, 5)))
static int fail(char *err, size_t errlen, struct slice tok, const char *fmt, ...)
{
	va_list ap;
	int off;

	if (!err || !errlen)
		return -1;
	off = fmt_snprintf(err, errlen, "%.*s: ", clamp_int(tok.n), tok.p);
	if (off >= 0 && (size_t)off < errlen) {
		va_start(ap, fmt);
		fmt_vsnprintf(err + off, errlen - (size_t)off, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/*
 * Parses the longest number at the start of s[0..n): decimal, or hex after "0x"/"0X".
 * *end receives the index after the digits. NUM_EMPTY when n == 0, NUM_BAD when no digit.
 */
static enum num_err parse_number(const char *s, size_t n, uint64_t *out, size_t *end)
{
	unsigned base = 10;
	size_t i = 0, start;
	uint64_t v = 0;
	bool overflow = false;

	*end = 0;
	if (n == 0)
		return NUM_EMPTY;
	if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	start = i;
	for (; i < n; i++) {
		int d = hex_digit(s[i]);

		if (d < 0 || (unsigned)d >= base)
			break;
		if (v > (UINT64_MAX - (unsigned)d) / base)
			overflow = true;
		else
			v = v * base + (unsigned)d;
	}
	*end = i;
	if (i == start)
		return NUM_BAD;
	if (overflow)
		return NUM_OVERFLOW;
	*out = v;
	return NUM_OK;
}

/* A whole slice as a number (no trailing characters). */
static enum num_err parse_u64_slice(struct slice s, uint64_t *out)
{
	size_t end;
	enum num_err e = parse_number(s.p, s.n, out, &end);

	if (e == NUM_OK && end != s.n)
		return NUM_BAD;
	if (e == NUM_OVERFLOW && end != s.n)
		return NUM_BAD;
	return e;
}

enum size_err { SIZE_OK = 0, SIZE_NOT_NUMBER, SIZE_SUFFIX, SIZE_OVERFLOW };

/* "N[K|M|G|T]"; on SIZE_SUFFIX *suffix is the unrecognised tail. */
static enum size_err parse_size_slice(struct slice s, uint64_t *out, struct slice *suffix)
{
	size_t end;
	uint64_t v = 0;
	enum num_err e = parse_number(s.p, s.n, &v, &end);
	unsigned shift = 0;

	if (e == NUM_EMPTY || e == NUM_BAD)
		return SIZE_NOT_NUMBER;
	if (end < s.n) {
		char c = s.p[end];

		if (end + 1 == s.n && (c == 'K' || c == 'k'))
			shift = 10;
		else if (end + 1 == s.n && (c == 'M' || c == 'm'))
			shift = 20;
		else if (end + 1 == s.n && (c == 'G' || c == 'g'))
			shift = 30;
		else if (end + 1 == s.n && (c == 'T' || c == 't'))
			shift = 40;
		else {
			if (suffix) {
				suffix->p = s.p + end;
				suffix->n = s.n - end;
			}
			return SIZE_SUFFIX;
		}
	}
	if (e == NUM_OVERFLOW)
		return SIZE_OVERFLOW;
	if (shift && v > (UINT64_MAX >> shift))
		return SIZE_OVERFLOW;
	*out = v << shift;
	return SIZE_OK;
}

int options_parse_u64(const char *s, uint64_t *out)
{
	struct slice sl = { s, str_len(s) };
	uint64_t v;

	if (parse_u64_slice(sl, &v) != NUM_OK)
		return -1;
	*out = v;
	return 0;
}

int options_parse_size(const char *s, uint64_t *out)
{
	struct slice sl = { s, str_len(s) };
	uint64_t v;

	if (parse_size_slice(sl, &v, NULL) != SIZE_OK)
		return -1;
	*out = v;
	return 0;
}

void options_defaults(struct options *o)
{
	*o = (struct options){ 0 };
	o->ntests = 0;
	o->reps = OPT_REPS_DEFAULT;
	o->reps_set = false;
	o->size = 0;
	o->size_set = false;
	o->serial_port = OPT_SERIAL_PORT_DEFAULT;
	o->serial_baud = OPT_SERIAL_BAUD_DEFAULT;
	o->on_exit = ON_EXIT_DEFAULT;
	o->boot_services = BOOT_SERVICES_EXIT;
	o->watchdog_ms = OPT_WATCHDOG_MS_DEFAULT;
	o->cpus = ~0ULL;
}

/* cpus=all or N[-M][,N[-M]...], each number below OPT_CPUS_MAX. */
static int parse_cpus(struct options *o, struct slice tok, struct slice val, char *err,
		      size_t errlen)
{
	uint64_t mask = 0;
	size_t i = 0;

	if (slice_eq(val, "all")) {
		o->cpus = ~0ULL;
		o->cpus_set = false;
		return 0;
	}
	while (i < val.n) {
		uint64_t a, b;
		size_t end;

		if (parse_number(val.p + i, val.n - i, &a, &end) != NUM_OK)
			return fail(err, errlen, tok, "expected all or CPU numbers and ranges, "
				    "e.g. 0,2-3");
		i += end;
		b = a;
		if (i < val.n && val.p[i] == '-') {
			i++;
			if (parse_number(val.p + i, val.n - i, &b, &end) != NUM_OK)
				return fail(err, errlen, tok, "a range needs an end, e.g. 2-3");
			i += end;
		}
		if (a >= OPT_CPUS_MAX || b >= OPT_CPUS_MAX)
			return fail(err, errlen, tok, "CPU %llu out of range (0..%u)",
				    (unsigned long long)(a >= OPT_CPUS_MAX ? a : b), OPT_CPUS_MAX - 1);
		if (b < a)
			return fail(err, errlen, tok, "range %llu-%llu runs backwards",
				    (unsigned long long)a, (unsigned long long)b);
		for (uint64_t c = a; c <= b; c++)
			mask |= 1ULL << c;
		if (i < val.n) {
			if (val.p[i] != ',' || i + 1 == val.n)
				return fail(err, errlen, tok, "expected all or CPU numbers and "
					    "ranges, e.g. 0,2-3");
			i++;
		}
	}
	o->cpus = mask;
	o->cpus_set = true;
	return 0;
}


/* reps=, watchdog=: a number in [min, max]. */
static int parse_ranged(struct slice tok, struct slice val, uint64_t min, uint64_t max,
			uint64_t *out, char *err, size_t errlen)
{
	uint64_t v = 0;
	enum num_err e = parse_u64_slice(val, &v);

	if (e == NUM_EMPTY || e == NUM_BAD)
		return fail(err, errlen, tok, "not a number");
	if (e == NUM_OVERFLOW || v < min || v > max)
		return fail(err, errlen, tok, "out of range (%llu..%llu)", (unsigned long long)min,
			    (unsigned long long)max);
	*out = v;
	return 0;
}

static int parse_tests(struct options *o, struct slice tok, struct slice val, char *err,
		       size_t errlen)
{
	char globs[OPT_MAX_GLOBS][OPT_GLOB_LEN];
	unsigned n = 0;
	size_t i = 0;

	for (;;) {
		size_t start = i, len;

		while (i < val.n && val.p[i] != ',')
			i++;
		len = i - start;
		if (len == 0 || (len == 1 && val.p[start] == '!'))
			return fail(err, errlen, tok, "empty glob");
		if (len >= OPT_GLOB_LEN)
			return fail(err, errlen, tok, "glob '%.*s' too long (max %d characters)",
				    clamp_int(len), val.p + start, OPT_GLOB_LEN - 1);
		if (n == OPT_MAX_GLOBS)
			return fail(err, errlen, tok, "too many globs (max %d)", OPT_MAX_GLOBS);
		for (size_t k = 0; k < len; k++)
			globs[n][k] = val.p[start + k];
		globs[n][len] = '\0';
		n++;
		if (i == val.n)
			break;
		i++;	/* skip ',' */
	}

	for (unsigned k = 0; k < OPT_MAX_GLOBS; k++) {
		if (k < n)
			str_lcpy(o->tests[k], globs[k], OPT_GLOB_LEN);
		else
			o->tests[k][0] = '\0';
	}
	o->ntests = n;
	return 0;
}

/* glob names name's group: it starts with "group." (the group as written, no wildcard). */
static bool names_group(const char *glob, const char *name)
{
	size_t g = 0;

	while (name[g] && name[g] != '.')
		g++;
	return !str_ncmp(glob, name, g) && glob[g] == '.';
}

enum opt_select options_select(const struct options *o, const char *full_name)
{
	enum opt_select sel = OPT_SEL_NONE;
	bool positive = false;

	for (unsigned i = 0; i < o->ntests && i < OPT_MAX_GLOBS; i++)
		if (o->tests[i][0] == '!' && glob_match(o->tests[i] + 1, full_name))
			return OPT_SEL_OUT;
	for (unsigned i = 0; i < o->ntests && i < OPT_MAX_GLOBS; i++) {
		if (o->tests[i][0] == '!')
			continue;
		positive = true;
		if (!glob_match(o->tests[i], full_name))
			continue;
		if (names_group(o->tests[i], full_name))
			return OPT_SEL_GROUP;
		sel = OPT_SEL_MATCH;
	}
	return positive ? sel : OPT_SEL_DEFAULT;
}

static int parse_size_opt(struct options *o, struct slice tok, struct slice val, char *err,
			  size_t errlen)
{
	uint64_t v = 0;
	struct slice suffix = { "", 0 };

	switch (parse_size_slice(val, &v, &suffix)) {
	case SIZE_NOT_NUMBER:
		return fail(err, errlen, tok, "not a number");
	case SIZE_SUFFIX:
		return fail(err, errlen, tok, "unknown suffix '%.*s' (use K, M, G or T)",
			    clamp_int(suffix.n), suffix.p);
	case SIZE_OVERFLOW:
		return fail(err, errlen, tok, "out of range (4K..1T)");
	case SIZE_OK:
		break;
	}
	if (v < OPT_SIZE_MIN || v > OPT_SIZE_MAX)
		return fail(err, errlen, tok, "out of range (4K..1T)");
	if (v % 4096)
		return fail(err, errlen, tok, "not a multiple of 4096");
	o->size = v;
	o->size_set = true;
	return 0;
}

static int parse_serial(struct options *o, struct slice tok, struct slice val, char *err,
			size_t errlen)
{
	struct slice port = val, baud = { "", 0 };
	bool has_baud = false;
	uint64_t p = 0, b = OPT_SERIAL_BAUD_DEFAULT;
	enum num_err e;

	for (size_t i = 0; i < val.n; i++) {
		if (val.p[i] == ',') {
			port.n = i;
			baud.p = val.p + i + 1;
			baud.n = val.n - i - 1;
			has_baud = true;
			break;
		}
	}

	e = parse_u64_slice(port, &p);
	if (e == NUM_EMPTY || e == NUM_BAD)
		return fail(err, errlen, tok, "port '%.*s' is not a number", clamp_int(port.n),
			    port.p);
	if (e == NUM_OVERFLOW || p < 1 || p > 0xFFFF)
		return fail(err, errlen, tok, "port %.*s out of range (1..0xFFFF)",
			    clamp_int(port.n), port.p);
	if (has_baud) {
		e = parse_u64_slice(baud, &b);
		if (e == NUM_EMPTY || e == NUM_BAD)
			return fail(err, errlen, tok, "baud '%.*s' is not a number",
				    clamp_int(baud.n), baud.p);
		if (e == NUM_OVERFLOW || b == 0 || b > BAUD_BASE || BAUD_BASE % b)
			return fail(err, errlen, tok, "baud %.*s does not divide %u",
				    clamp_int(baud.n), baud.p, BAUD_BASE);
	}
	o->serial_port = (uint16_t)p;
	o->serial_baud = (uint32_t)b;
	return 0;
}

/* list, list=checks|events|coverage|all[,...] */
static int parse_list(struct options *o, struct slice tok, bool has_val, struct slice val,
		      char *err, size_t errlen)
{
	unsigned what = 0;
	size_t i = 0;

	if (!has_val) {
		o->list = true;
		o->list_what = LIST_CHECKS | LIST_EVENTS;
		return 0;
	}
	for (;;) {
		struct slice w = { val.p + i, 0 };

		while (i < val.n && val.p[i] != ',')
			i++;
		w.n = (size_t)(val.p + i - w.p);
		if (slice_eq(w, "checks"))
			what |= LIST_CHECKS;
		else if (slice_eq(w, "events"))
			what |= LIST_EVENTS;
		else if (slice_eq(w, "coverage"))
			what |= LIST_COVERAGE;
		else if (slice_eq(w, "all"))
			what |= LIST_CHECKS | LIST_EVENTS | LIST_COVERAGE;
		else
			return fail(err, errlen, tok, "expected checks, events, coverage or all");
		if (i == val.n)
			break;
		i++;
	}
	o->list = true;
	o->list_what = what;
	return 0;
}

/* measure=EVENTS@KERNEL[:SIZE] (tests/harness/measure_opt.c) or measure=none. */
static int parse_measure(struct options *o, struct slice tok, bool has_val, struct slice val,
			 char *err, size_t errlen)
{
	char merr[200];

	if (!has_val || val.n == 0)
		return fail(err, errlen, tok, "missing value");
	if (slice_eq(val, "none")) {
		o->nmeasure = 0;
		return 0;
	}
	if (o->nmeasure >= MEASURE_MAX_SETS)
		return fail(err, errlen, tok, "too many measure= sets (max %d)", MEASURE_MAX_SETS);
	if (measure_parse(&o->measure[o->nmeasure], val.p, val.n, merr, sizeof(merr)))
		return fail(err, errlen, tok, "%s", merr);
	o->nmeasure++;
	return 0;
}

static int parse_slice(struct options *o, struct slice tok, char *err, size_t errlen)
{
	struct slice key = tok, val = { "", 0 };
	bool has_val = false;
	uint64_t v;

	for (size_t i = 0; i < tok.n; i++) {
		if (tok.p[i] == '=') {
			key.n = i;
			val.p = tok.p + i + 1;
			val.n = tok.n - i - 1;
			has_val = true;
			break;
		}
	}

	if (slice_eq(key, "list"))
		return parse_list(o, tok, has_val, val, err, errlen);
	if (slice_eq(key, "measure"))
		return parse_measure(o, tok, has_val, val, err, errlen);

	/* Flags. */
	if (slice_eq(key, "force-pmu") || slice_eq(key, "icount") ||
	    slice_eq(key, "oracle") || slice_eq(key, "bts")) {
		if (has_val)
			return fail(err, errlen, tok, "flag takes no value");
		if (slice_eq(key, "force-pmu"))
			o->force_pmu = true;
		else if (slice_eq(key, "bts"))
			o->bts = true;
		else if (slice_eq(key, "oracle"))
			o->oracle = true;
		else
			o->icount = true;
		return 0;
	}

	if (!slice_eq(key, "tests") && !slice_eq(key, "reps") && !slice_eq(key, "size") &&
	    !slice_eq(key, "serial") && !slice_eq(key, "on-exit") &&
	    !slice_eq(key, "boot-services") && !slice_eq(key, "watchdog") &&
	    !slice_eq(key, "oracle-fault") && !slice_eq(key, "pmi") && !slice_eq(key, "cpus"))
		return fail(err, errlen, tok, "unknown option");

	if (!has_val || val.n == 0)
		return fail(err, errlen, tok, "missing value");

	if (slice_eq(key, "tests"))
		return parse_tests(o, tok, val, err, errlen);
	if (slice_eq(key, "cpus"))
		return parse_cpus(o, tok, val, err, errlen);
	if (slice_eq(key, "reps")) {
		if (parse_ranged(tok, val, OPT_REPS_MIN, OPT_REPS_MAX, &v, err, errlen))
			return -1;
		o->reps = (uint32_t)v;
		o->reps_set = true;
		return 0;
	}
	if (slice_eq(key, "size"))
		return parse_size_opt(o, tok, val, err, errlen);
	if (slice_eq(key, "serial"))
		return parse_serial(o, tok, val, err, errlen);
	if (slice_eq(key, "watchdog")) {
		if (parse_ranged(tok, val, OPT_WATCHDOG_MS_MIN, OPT_WATCHDOG_MS_MAX, &v, err,
				 errlen))
			return -1;
		o->watchdog_ms = (uint32_t)v;
		return 0;
	}
	if (slice_eq(key, "pmi")) {
		if (slice_eq(val, "interrupt"))
			o->pmi_nmi = false;
		else if (slice_eq(val, "nmi"))
			o->pmi_nmi = true;
		else
			return fail(err, errlen, tok, "expected interrupt or nmi");
		return 0;
	}
	if (slice_eq(key, "oracle-fault")) {
		if (slice_eq(val, "none"))
			o->oracle_fault = ORACLE_FAULT_NONE;
		else if (slice_eq(val, "loads"))
			o->oracle_fault = ORACLE_FAULT_LOADS;
		else if (slice_eq(val, "lbr"))
			o->oracle_fault = ORACLE_FAULT_LBR;
		else if (slice_eq(val, "insns"))
			o->oracle_fault = ORACLE_FAULT_INSNS;
		else
			return fail(err, errlen, tok, "expected none, loads, lbr or insns");
		return 0;
	}
	if (slice_eq(key, "on-exit")) {
		if (slice_eq(val, "shutdown"))
			o->on_exit = ON_EXIT_SHUTDOWN;
		else if (slice_eq(val, "reboot"))
			o->on_exit = ON_EXIT_REBOOT;
		else if (slice_eq(val, "halt"))
			o->on_exit = ON_EXIT_HALT;
		else if (slice_eq(val, "return"))
			o->on_exit = ON_EXIT_RETURN;
		else
			return fail(err, errlen, tok, "expected shutdown, reboot, halt or return");
		return 0;
	}
	/* boot-services */
	if (slice_eq(val, "exit"))
		o->boot_services = BOOT_SERVICES_EXIT;
	else if (slice_eq(val, "keep"))
		o->boot_services = BOOT_SERVICES_KEEP;
	else
		return fail(err, errlen, tok, "expected exit or keep");
	return 0;
}

int options_parse_token(struct options *o, const char *tok, char *err, size_t errlen)
{
	struct slice s = { tok, str_len(tok) };

	err_clear(err, errlen);
	return parse_slice(o, s, err, errlen);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int options_parse_text(struct options *o, const char *text, size_t len, const char *source,
		       char *err, size_t errlen)
{
	size_t end = str_nlen(text, len), trimmed = end, i = 0;
	bool multiline = false;
	unsigned line = 1;

	err_clear(err, errlen);

	/* Single line = no LF before the trailing line break(s), if any. */
	while (trimmed && (text[trimmed - 1] == '\n' || text[trimmed - 1] == '\r'))
		trimmed--;
	for (size_t k = 0; k < trimmed; k++) {
		if (text[k] == '\n') {
			multiline = true;
			break;
		}
	}

	bool prev_list = false, measured = false;
	unsigned nmeasure0 = o->nmeasure;

	while (i < end) {
		char c = text[i];
		size_t start;

		if (c == '\n') {
			line++;
			i++;
			continue;
		}
		if (is_space(c)) {
			i++;
			continue;
		}
		if (c == '#') {
			while (i < end && text[i] != '\n')
				i++;
			continue;
		}
		start = i;
		while (i < end && !is_space(text[i]) && text[i] != '#')
			i++;

		{
			struct slice tok = { text + start, i - start };
			size_t off = 0;
			int n = 0;

			/* Location prefix first; the token's message follows it. */
			if (err && errlen) {
				bool has_src = source && source[0];

				if (has_src && multiline)
					n = fmt_snprintf(err, errlen, "%s line %u: ", source, line);
				else if (has_src)
					n = fmt_snprintf(err, errlen, "%s: ", source);
				else if (multiline)
					n = fmt_snprintf(err, errlen, "line %u: ", line);
				off = n < 0 ? 0 : (size_t)n;
				if (off >= errlen)
					off = errlen - 1;
			}
			bool is_measure = tok.n >= 8 && !str_ncmp(tok.p, "measure=", 8);

			/* The two-token form of the command line: "list coverage". */
			if (prev_list && (slice_eq(tok, "checks") || slice_eq(tok, "events") ||
					  slice_eq(tok, "coverage") || slice_eq(tok, "all"))) {
				prev_list = false;
				if (parse_list(o, tok, true, tok, err ? err + off : NULL,
					       err ? errlen - off : 0))
					return -1;
				continue;
			}
			prev_list = slice_eq(tok, "list");
			/* This source's first measure= replaces an earlier source's sets. */
			if (is_measure && !measured) {
				measured = true;
				o->nmeasure = 0;
			}
			if (parse_slice(o, tok, err ? err + off : NULL, err ? errlen - off : 0)) {
				if (is_measure && o->nmeasure == 0)
					o->nmeasure = nmeasure0;
				return -1;
			}
			if (is_measure && o->nmeasure) {
				struct measure_set *ms = &o->measure[o->nmeasure - 1];
				bool has_src = source && source[0];

				if (has_src && multiline)
					fmt_snprintf(ms->where, sizeof(ms->where), "%s line %u", source,
						     line);
				else if (has_src)
					str_lcpy(ms->where, source, sizeof(ms->where));
				else if (multiline)
					fmt_snprintf(ms->where, sizeof(ms->where), "line %u", line);
			}
		}
	}
	err_clear(err, errlen);
	return 0;
}

int options_validate(const struct options *o, char *err, size_t errlen)
{
	err_clear(err, errlen);
	if (o->on_exit == ON_EXIT_RETURN && o->boot_services == BOOT_SERVICES_EXIT) {
		if (err && errlen)
			fmt_snprintf(err, errlen,
				     "on-exit=return needs boot-services=keep: after "
				     "ExitBootServices there is nothing to return to");
		return -1;
	}
	return 0;
}

enum opt_on_exit options_on_exit(const struct options *o)
{
	if (o->on_exit != ON_EXIT_DEFAULT)
		return o->on_exit;
	return o->boot_services == BOOT_SERVICES_KEEP ? ON_EXIT_RETURN : ON_EXIT_SHUTDOWN;
}

/* Appending formatter with snprintf return semantics over the whole line. */
struct acc {
	char *buf;
	size_t len;
	size_t pos;	/* length the full output would have */
};

__attribute__((format(printf, 2, 3)))
static void acc_printf(struct acc *a, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	if (a->pos < a->len)
		n = fmt_vsnprintf(a->buf + a->pos, a->len - a->pos, fmt, ap);
	else
		n = fmt_vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		a->pos += (size_t)n;
}

static const char *on_exit_name(enum opt_on_exit e)
{
	switch (e) {
	case ON_EXIT_REBOOT: return "reboot";
	case ON_EXIT_HALT: return "halt";
	case ON_EXIT_RETURN: return "return";
	default: return "shutdown";
	}
}

/* "0,2-3" for a mask. */
static void format_cpus(uint64_t mask, struct acc *a)
{
	bool first = true;

	for (unsigned c = 0; c < OPT_CPUS_MAX; c++) {
		unsigned e = c;

		if (!(mask & (1ULL << c)))
			continue;
		while (e + 1 < OPT_CPUS_MAX && (mask & (1ULL << (e + 1))))
			e++;
		acc_printf(a, first ? "%u" : ",%u", c);
		if (e > c)
			acc_printf(a, "-%u", e);
		first = false;
		c = e;
	}
}

int options_format(const struct options *o, char *buf, size_t len)
{
	struct acc a = { buf, len, 0 };

	if (buf && len)
		buf[0] = '\0';
	if (!buf)
		a.len = 0;

	acc_printf(&a, "tests=");
	if (o->ntests == 0) {
		acc_printf(&a, "*");
	} else {
		for (unsigned i = 0; i < o->ntests && i < OPT_MAX_GLOBS; i++)
			acc_printf(&a, "%s%.*s", i ? "," : "", OPT_GLOB_LEN - 1, o->tests[i]);
	}
	acc_printf(&a, " reps=%u", (unsigned)o->reps);
	if (!o->size_set)
		acc_printf(&a, " size=auto");
	else if (o->size && !(o->size & ((1ULL << 40) - 1)))
		acc_printf(&a, " size=%lluT", (unsigned long long)(o->size >> 40));
	else if (o->size && !(o->size & ((1ULL << 30) - 1)))
		acc_printf(&a, " size=%lluG", (unsigned long long)(o->size >> 30));
	else if (o->size && !(o->size & ((1ULL << 20) - 1)))
		acc_printf(&a, " size=%lluM", (unsigned long long)(o->size >> 20));
	else if (o->size && !(o->size & ((1ULL << 10) - 1)))
		acc_printf(&a, " size=%lluK", (unsigned long long)(o->size >> 10));
	else
		acc_printf(&a, " size=%llu", (unsigned long long)o->size);
	acc_printf(&a, " serial=0x%X,%u", (unsigned)o->serial_port, (unsigned)o->serial_baud);
	acc_printf(&a, " on-exit=%s", on_exit_name(options_on_exit(o)));
	acc_printf(&a, " boot-services=%s",
		   o->boot_services == BOOT_SERVICES_KEEP ? "keep" : "exit");
	acc_printf(&a, " watchdog=%u", (unsigned)o->watchdog_ms);
	acc_printf(&a, " cpus=");
	if (o->cpus_set)
		format_cpus(o->cpus, &a);
	else
		acc_printf(&a, "all");
	if (o->force_pmu)
		acc_printf(&a, " force-pmu");
	if (o->list && o->list_what == (LIST_CHECKS | LIST_EVENTS))
		acc_printf(&a, " list");
	else if (o->list)
		acc_printf(&a, " list=%s%s%s%s%s", o->list_what & LIST_CHECKS ? "checks" : "",
			   (o->list_what & LIST_CHECKS) && (o->list_what & ~LIST_CHECKS) ? "," : "",
			   o->list_what & LIST_EVENTS ? "events" : "",
			   (o->list_what & LIST_EVENTS) && (o->list_what & LIST_COVERAGE) ? "," : "",
			   o->list_what & LIST_COVERAGE ? "coverage" : "");
	for (unsigned i = 0; i < o->nmeasure && i < MEASURE_MAX_SETS; i++) {
		char m[MEASURE_MAX_EVENTS * (MEASURE_NAME_LEN + 16) + 64];

		measure_set_format(&o->measure[i], m, sizeof(m));
		acc_printf(&a, " measure=%s", m);
	}
	if (o->icount)
		acc_printf(&a, " icount");
	if (o->oracle)
		acc_printf(&a, " oracle");
	if (o->pmi_nmi)
		acc_printf(&a, " pmi=nmi");
	if (o->bts)
		acc_printf(&a, " bts");
	if (o->oracle_fault != ORACLE_FAULT_NONE)
		acc_printf(&a, " oracle-fault=%s", o->oracle_fault == ORACLE_FAULT_LOADS ? "loads" :
			   o->oracle_fault == ORACLE_FAULT_LBR ? "lbr" : "insns");
	return a.pos > (size_t)INT_MAX ? -1 : (int)a.pos;
}
