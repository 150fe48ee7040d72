/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness: any bytes as the UEFI command line, and the first token alone through
 * options_parse_token, which must leave the options untouched when it refuses the token.
 */
#include "tests/host/fuzz_options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct options o, before;
	static char tok[4096];
	char err[FUZZ_ERRLEN];
	size_t n = 0;

	fuzz_options_text(data, size, "command line");

	/* The first token, NUL-terminated. */
	while (n < size && n + 1 < sizeof(tok) && data[n] && data[n] != ' ' && data[n] != '\n') {
		tok[n] = (char)data[n];
		n++;
	}
	tok[n] = '\0';
	options_defaults(&o);
	if (!options_parse_token(&o, "measure=INST_RETIRED.ANY_P@loop4", err, sizeof(err)))
		; /* a set before the token: a rejected token must not drop or change it */
	before = o;
	if (options_parse_token(&o, tok, err, sizeof(err))) {
		fuzz_check_err(err, sizeof(err));
		FUZZ_ASSERT(!memcmp(&o, &before, sizeof(o)), "a rejected token changed the options: %s",
			    tok);
	} else {
		fuzz_check_sets(&o);
	}
	return 0;
}
