/* SPDX-License-Identifier: MIT */
/* libFuzzer harness: any bytes as pmuboot.cfg (options_parse_text, options_validate, format). */
#include "tests/host/fuzz_options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_options_text(data, size, "pmuboot.cfg");
	return 0;
}
