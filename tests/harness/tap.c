/* SPDX-License-Identifier: MIT */
/* TAP version 13 writer: formats result lines and hands them to a callback (see tests/harness/tap.h). */
#include "tests/harness/tap.h"

#include "lib/fmt.h"

#define TAP_LINE	512

enum clean_mode {
	CLEAN_NAME,	/* '\n', '\r', '#' -> '_' */
	CLEAN_TEXT,	/* '\n', '\r' -> ' ' */
};

/* Copies src into dst (size bytes, always terminated), replacing line-breaking characters. */
static void clean(char *dst, size_t size, const char *src, enum clean_mode mode)
{
	size_t i = 0;

	if (!src)
		src = "";
	for (; *src && i + 1 < size; src++) {
		char c = *src;

		if (c == '\n' || c == '\r' || (mode == CLEAN_NAME && c == '#'))
			c = mode == CLEAN_NAME ? '_' : ' ';
		dst[i++] = c;
	}
	dst[i] = '\0';
}

/* Sends a formatted line; a line too long for the buffer is cut but keeps its "\n". */
static void emit(struct tap *t, char *line, int n)
{
	if (n < 0)
		return;
	if ((size_t)n >= TAP_LINE) {
		line[TAP_LINE - 2] = '\n';
		line[TAP_LINE - 1] = '\0';
	}
	if (t->out)
		t->out(t->ctx, line);
}

void tap_init(struct tap *t, tap_out_fn out, void *ctx)
{
	t->out = out;
	t->ctx = ctx;
	t->planned = 0;
	t->next = 1;
	t->passed = 0;
	t->failed = 0;
	t->skipped = 0;
}

void tap_version(struct tap *t)
{
	char line[TAP_LINE];

	emit(t, line, fmt_snprintf(line, sizeof(line), "TAP version 13\n"));
}

void tap_plan(struct tap *t, unsigned n)
{
	char line[TAP_LINE];

	t->planned = n;
	emit(t, line, fmt_snprintf(line, sizeof(line), "1..%u\n", n));
}

unsigned tap_result(struct tap *t, int pass, const char *name, const char *detail)
{
	char line[TAP_LINE], nm[TAP_LINE], dt[TAP_LINE];
	unsigned num = t->next++;
	int n;

	clean(nm, sizeof(nm), name, CLEAN_NAME);
	clean(dt, sizeof(dt), detail, CLEAN_TEXT);
	n = fmt_snprintf(line, sizeof(line), "%s %u%s%s%s%s\n", pass ? "ok" : "not ok", num,
			 nm[0] ? " " : "", nm, dt[0] ? " # " : "", dt);
	if (pass)
		t->passed++;
	else
		t->failed++;
	emit(t, line, n);
	return num;
}

unsigned tap_skip(struct tap *t, const char *name, const char *reason)
{
	char line[TAP_LINE], nm[TAP_LINE], rs[TAP_LINE];
	unsigned num = t->next++;
	int n;

	clean(nm, sizeof(nm), name, CLEAN_NAME);
	clean(rs, sizeof(rs), reason, CLEAN_TEXT);
	n = fmt_snprintf(line, sizeof(line), "ok %u%s%s # SKIP%s%s\n", num, nm[0] ? " " : "", nm,
			 rs[0] ? " " : "", rs);
	t->skipped++;
	emit(t, line, n);
	return num;
}

void tap_diag(struct tap *t, const char *text)
{
	char line[TAP_LINE];
	const char *p = text ? text : "";

	/* One "# " line per text line; a single trailing newline adds no empty line. */
	for (;;) {
		size_t n = 0;

		while (p[n] && p[n] != '\n')
			n++;
		{
			size_t len = n;
			int r;

			if (len && p[len - 1] == '\r')
				len--;	/* CRLF */
			if (len)
				r = fmt_snprintf(line, sizeof(line), "# %.*s\n",
						 (int)(len > TAP_LINE ? TAP_LINE : len), p);
			else
				r = fmt_snprintf(line, sizeof(line), "#\n");
			/* A stray CR inside the line would break it: blank it. */
			for (char *c = line; *c; c++) {
				if (*c == '\r')
					*c = ' ';
			}
			emit(t, line, r);
		}
		p += n;
		if (!*p)
			break;
		p++;	/* skip '\n' */
		if (!*p)
			break;
	}
}

void tap_diagf(struct tap *t, const char *fmt, ...)
{
	char text[TAP_LINE];
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	tap_diag(t, text);
}

void tap_bail(struct tap *t, const char *reason)
{
	char line[TAP_LINE], rs[TAP_LINE];
	int n;

	clean(rs, sizeof(rs), reason, CLEAN_TEXT);
	if (rs[0])
		n = fmt_snprintf(line, sizeof(line), "Bail out! %s\n", rs);
	else
		n = fmt_snprintf(line, sizeof(line), "Bail out!\n");
	emit(t, line, n);
}

unsigned tap_summary(struct tap *t)
{
	char line[TAP_LINE];

	emit(t, line, fmt_snprintf(line, sizeof(line), "%u passed, %u failed, %u skipped\n",
				   t->passed, t->failed, t->skipped));
	return t->failed;
}
