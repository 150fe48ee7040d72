/* SPDX-License-Identifier: MIT */
/* Host report tool: a small strict JSON reader (RFC 8259), bounded depth, clear errors. */
#include "tests/report/json.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH	64

struct jp {
	const char *s, *p, *end;
	char *err;
	size_t errlen;
	bool failed;
};

static void jerr(struct jp *j, const char *fmt, ...)
{
	unsigned line = 1, col = 1;
	char msg[160];
	va_list ap;

	if (j->failed)
		return;
	j->failed = true;
	for (const char *q = j->s; q < j->p && q < j->end; q++) {
		if (*q == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(j->err, j->errlen, "malformed JSON at line %u column %u: %s", line, col, msg);
}

static void *jalloc(struct jp *j, void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q) {
		jerr(j, "out of memory");
		free(p);
	}
	return q;
}

static void ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static bool lit(struct jp *j, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(j->end - j->p) >= n && !memcmp(j->p, w, n)) {
		j->p += n;
		return true;
	}
	return false;
}

static int hex4(struct jp *j, unsigned *out)
{
	*out = 0;
	for (int i = 0; i < 4; i++) {
		char c = j->p < j->end ? *j->p : 0;
		unsigned d;

		if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f') d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F') d = (unsigned)(c - 'A' + 10);
		else {
			jerr(j, "bad \\u escape");
			return -1;
		}
		*out = *out * 16 + d;
		j->p++;
	}
	return 0;
}

static char *jstring(struct jp *j)
{
	size_t cap = 16, n = 0;
	char *out = jalloc(j, NULL, cap);

	if (!out)
		return NULL;
	j->p++;		/* the opening quote */
	for (;;) {
		unsigned cp;
		char c;

		if (j->p >= j->end) {
			jerr(j, "unterminated string");
			free(out);
			return NULL;
		}
		c = *j->p++;
		if (n + 5 >= cap) {
			cap *= 2;
			if (!(out = jalloc(j, out, cap)))
				return NULL;
		}
		if (c == '"')
			break;
		if ((unsigned char)c < 0x20) {
			j->p--;
			jerr(j, "control character in a string");
			free(out);
			return NULL;
		}
		if (c != '\\') {
			out[n++] = c;
			continue;
		}
		c = j->p < j->end ? *j->p++ : 0;
		switch (c) {
		case '"': case '\\': case '/': out[n++] = c; continue;
		case 'b': out[n++] = '\b'; continue;
		case 'f': out[n++] = '\f'; continue;
		case 'n': out[n++] = '\n'; continue;
		case 'r': out[n++] = '\r'; continue;
		case 't': out[n++] = '\t'; continue;
		case 'u':
			if (hex4(j, &cp)) {
				free(out);
				return NULL;
			}
			if (cp >= 0xd800 && cp < 0xdc00 && lit(j, "\\u")) {
				unsigned lo;

				if (hex4(j, &lo)) {
					free(out);
					return NULL;
				}
				cp = lo >= 0xdc00 && lo < 0xe000 ?
				     0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00) : 0xfffd;
			} else if (cp >= 0xd800 && cp < 0xe000) {
				cp = 0xfffd;
			}
			if (cp < 0x80) {
				out[n++] = (char)cp;
			} else if (cp < 0x800) {
				out[n++] = (char)(0xc0 | (cp >> 6));
				out[n++] = (char)(0x80 | (cp & 0x3f));
			} else if (cp < 0x10000) {
				out[n++] = (char)(0xe0 | (cp >> 12));
				out[n++] = (char)(0x80 | ((cp >> 6) & 0x3f));
				out[n++] = (char)(0x80 | (cp & 0x3f));
			} else {
				out[n++] = (char)(0xf0 | (cp >> 18));
				out[n++] = (char)(0x80 | ((cp >> 12) & 0x3f));
				out[n++] = (char)(0x80 | ((cp >> 6) & 0x3f));
				out[n++] = (char)(0x80 | (cp & 0x3f));
			}
			continue;
		default:
			j->p--;
			jerr(j, "bad escape in a string");
			free(out);
			return NULL;
		}
	}
	out[n] = '\0';
	return out;
}

static void jvalue(struct jp *j, struct jval *v, unsigned depth);

static void jnumber(struct jp *j, struct jval *v)
{
	const char *q = j->p;
	char buf[64];
	size_t n;

	if (q < j->end && *q == '-')
		q++;
	if (q < j->end && *q == '0') {
		q++;
	} else if (q < j->end && *q >= '1' && *q <= '9') {
		while (q < j->end && *q >= '0' && *q <= '9')
			q++;
	} else {
		jerr(j, "unexpected character '%c'", q < j->end ? *q : '?');
		return;
	}
	if (q < j->end && *q == '.') {
		q++;
		if (q >= j->end || *q < '0' || *q > '9') {
			jerr(j, "digits must follow the decimal point");
			return;
		}
		while (q < j->end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q < j->end && (*q == 'e' || *q == 'E')) {
		q++;
		if (q < j->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= j->end || *q < '0' || *q > '9') {
			jerr(j, "digits must follow the exponent");
			return;
		}
		while (q < j->end && *q >= '0' && *q <= '9')
			q++;
	}
	n = (size_t)(q - j->p);
	if (n >= sizeof(buf)) {
		jerr(j, "number too long");
		return;
	}
	memcpy(buf, j->p, n);
	buf[n] = '\0';
	v->type = J_NUM;
	v->num = strtod(buf, NULL);
	if (!isfinite(v->num))
		jerr(j, "number out of range");
	j->p = q;
}

static void jcontainer(struct jp *j, struct jval *v, unsigned depth, bool obj)
{
	char close = obj ? '}' : ']';

	v->type = obj ? J_OBJ : J_ARR;
	j->p++;
	ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		return;
	}
	for (;;) {
		char *key = NULL;

		ws(j);
		if (obj) {
			if (j->p >= j->end || *j->p != '"') {
				jerr(j, "expected a member name in quotes");
				return;
			}
			if (!(key = jstring(j)))
				return;
			ws(j);
			if (j->p >= j->end || *j->p != ':') {
				free(key);
				jerr(j, "expected ':' after a member name");
				return;
			}
			j->p++;
		}
		if (!(v->items = jalloc(j, v->items, (v->n + 1) * sizeof(*v->items)))) {
			free(key);
			v->n = 0;
			return;
		}
		if (obj) {
			if (!(v->keys = jalloc(j, v->keys, (v->n + 1) * sizeof(*v->keys)))) {
				free(key);
				return;
			}
			v->keys[v->n] = key;
		}
		memset(&v->items[v->n], 0, sizeof(v->items[0]));
		v->n++;
		jvalue(j, &v->items[v->n - 1], depth + 1);
		if (j->failed)
			return;
		ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == close) {
			j->p++;
			return;
		}
		jerr(j, "expected ',' or '%c'", close);
		return;
	}
}

static void jvalue(struct jp *j, struct jval *v, unsigned depth)
{
	memset(v, 0, sizeof(*v));
	if (depth > JSON_MAX_DEPTH) {
		jerr(j, "nested deeper than %d", JSON_MAX_DEPTH);
		return;
	}
	ws(j);
	if (j->p >= j->end) {
		jerr(j, "unexpected end of input");
		return;
	}
	switch (*j->p) {
	case '{': jcontainer(j, v, depth, true); return;
	case '[': jcontainer(j, v, depth, false); return;
	case '"':
		v->str = jstring(j);
		if (v->str)
			v->type = J_STR;
		return;
	case 't': case 'f': case 'n':
		if (lit(j, "true")) { v->type = J_BOOL; v->b = true; }
		else if (lit(j, "false")) { v->type = J_BOOL; }
		else if (lit(j, "null")) { v->type = J_NULL; }
		else jerr(j, "unknown word");
		return;
	default:
		jnumber(j, v);
	}
}

int json_parse(const char *text, size_t len, struct jval *out, char *err, size_t errlen)
{
	struct jp j = { text, text, text + len, err, errlen, false };

	jvalue(&j, out, 0);
	if (!j.failed) {
		ws(&j);
		if (j.p < j.end)
			jerr(&j, "trailing characters after the value");
	}
	if (j.failed) {
		json_free(out);
		return -1;
	}
	return 0;
}

void json_free(struct jval *v)
{
	for (size_t i = 0; i < v->n; i++) {
		json_free(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	memset(v, 0, sizeof(*v));
}

const struct jval *json_get(const struct jval *v, const char *key)
{
	if (!v || v->type != J_OBJ)
		return NULL;
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->keys[i], key))
			return &v->items[i];
	return NULL;
}

const char *json_string(const struct jval *v)
{
	return v && v->type == J_STR ? v->str : NULL;
}
