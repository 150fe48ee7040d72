/* SPDX-License-Identifier: MIT */
/* Host report tool: a small strict JSON reader (results.json for `compare`). */
#ifndef TESTS_REPORT_JSON_H
#define TESTS_REPORT_JSON_H

#include <stdbool.h>
#include <stddef.h>

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jval {
	enum jtype type;
	bool b;
	double num;
	char *str;		/* J_STR */
	struct jval *items;	/* J_ARR, J_OBJ (values) */
	char **keys;		/* J_OBJ */
	size_t n;
};

/* Parses text (len bytes) into *out; returns 0, or -1 with err naming line and column. */
int json_parse(const char *text, size_t len, struct jval *out, char *err, size_t errlen);
void json_free(struct jval *v);
/* Member of an object, or NULL (also when v is not an object). */
const struct jval *json_get(const struct jval *v, const char *key);
/* The string, or NULL when v is not a string. */
const char *json_string(const struct jval *v);

#endif /* TESTS_REPORT_JSON_H */
