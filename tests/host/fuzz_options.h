/* SPDX-License-Identifier: MIT */
/* What every options fuzz harness asserts about one parsed text (tests/host/fuzz_*.c). */
#ifndef TESTS_HOST_FUZZ_OPTIONS_H
#define TESTS_HOST_FUZZ_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/harness/options.h"

#define FUZZ_ERRLEN	256

/* Stops the run with a message: libFuzzer saves the input as a crash. */
#define FUZZ_ASSERT(cond, ...)							\
	do {									\
		if (!(cond)) {							\
			fprintf(stderr, "fuzz assertion failed: %s: ", #cond);	\
			fprintf(stderr, __VA_ARGS__);				\
			fprintf(stderr, "\n");					\
			abort();						\
		}								\
	} while (0)

/* An error message: not empty, terminated inside its buffer, one line. */
static inline void fuzz_check_err(const char *err, size_t len)
{
	size_t n = strnlen(err, len);

	FUZZ_ASSERT(n < len, "error message not terminated");
	FUZZ_ASSERT(n > 0, "an error without a message");
}

/* Every measure= set reads back from its own format to the same set. */
static inline void fuzz_check_sets(const struct options *o)
{
	FUZZ_ASSERT(o->nmeasure <= MEASURE_MAX_SETS, "%u sets", o->nmeasure);
	for (unsigned i = 0; i < o->nmeasure; i++) {
		static char f[MEASURE_MAX_EVENTS * (MEASURE_NAME_LEN + 64) + 64];
		struct measure_set back;
		char err[FUZZ_ERRLEN];
		int n = measure_set_format(&o->measure[i], f, sizeof(f));

		FUZZ_ASSERT(n > 0 && (size_t)n < sizeof(f), "format length %d", n);
		memset(&back, 0, sizeof(back));
		FUZZ_ASSERT(measure_parse(&back, f, (size_t)n, err, sizeof(err)) == 0,
			    "'%s' does not parse back: %s", f, err);
		FUZZ_ASSERT(back.nev == o->measure[i].nev && back.kernel == o->measure[i].kernel &&
			    back.size == o->measure[i].size &&
			    !memcmp(back.ev, o->measure[i].ev, sizeof(back.ev)),
			    "'%s' parses back to another set", f);
		FUZZ_ASSERT(o->measure[i].nev >= 1 && o->measure[i].nev <= MEASURE_MAX_EVENTS,
			    "%u events", o->measure[i].nev);
		FUZZ_ASSERT(measure_iterations(&o->measure[i]) >= 1, "a set of no iterations");
	}
}

/*
 * Parses text as `source` ("pmuboot.cfg" or "command line"), validates and formats it as
 * main.c does. A text that fails leaves the firmware with an error and nothing to run; one
 * that passes has only well-formed sets.
 */
static inline void fuzz_options_text(const uint8_t *data, size_t size, const char *source)
{
	static struct options o;
	char err[FUZZ_ERRLEN];
	static char line[8192];
	int r;

	options_defaults(&o);
	r = options_parse_text(&o, (const char *)data, size, source, err, sizeof(err));
	if (r) {
		FUZZ_ASSERT(r == -1, "returned %d", r);
		fuzz_check_err(err, sizeof(err));
		FUZZ_ASSERT(!strncmp(err, source, strlen(source)), "error without its source: %s", err);
		return;
	}
	FUZZ_ASSERT(err[0] == '\0', "success with a message: %s", err);
	fuzz_check_sets(&o);
	if (options_validate(&o, err, sizeof(err)))
		fuzz_check_err(err, sizeof(err));
	r = options_format(&o, line, sizeof(line));
	FUZZ_ASSERT(r >= 0, "format failed");
	FUZZ_ASSERT(strnlen(line, sizeof(line)) < sizeof(line), "format not terminated");
}

#endif /* TESTS_HOST_FUZZ_OPTIONS_H */
