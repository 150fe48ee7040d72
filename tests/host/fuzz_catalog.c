/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness: any bytes as an event name looked up in every catalog and in those of
 * Skylake, Nehalem and an unknown CPU (pmu_catalog_find; pmu_catalog_suggest on Skylake's): a
 * hit is an entry of the catalog it names, every suggestion is a name that is found.
 */
#include "tests/host/fuzz_options.h"
#include "pmu/catalog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void lookup(const struct pmu_catalog *const *cats, unsigned n, const char *name,
		   bool suggest)
{
	const struct pmu_catalog *which = NULL;
	const struct pmu_event_def *d = pmu_catalog_find(cats, n, name, &which);
	const char *near[8];
	unsigned k;

	if (d) {
		FUZZ_ASSERT(which && d >= which->events && d < which->events + which->count,
			    "'%s' found outside the catalog named", name);
	} else {
		FUZZ_ASSERT(!which, "no event but a catalog for '%s'", name);
	}
	if (!suggest)
		return;
	k = pmu_catalog_suggest(cats, n, name, near, 8);
	FUZZ_ASSERT(k <= 8, "%u suggestions", k);
	for (unsigned i = 0; i < k; i++)
		FUZZ_ASSERT(near[i] && pmu_catalog_find(cats, n, near[i], NULL),
			    "suggestion %u for '%s' is not found", i, name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum pmu_uarch uarchs[] = { UARCH_SKYLAKE, UARCH_NEHALEM, UARCH_UNKNOWN };
	static char name[MEASURE_NAME_LEN];	/* as long as measure= takes */
	const struct pmu_catalog *cats[64];
	unsigned n = 0;

	if (size >= sizeof(name))
		size = sizeof(name) - 1;
	memcpy(name, data, size);
	name[size] = '\0';
	while (n < 64 && pmu_catalogs[n]) {
		cats[n] = pmu_catalogs[n];
		n++;
	}
	/* Suggestions (an edit distance to every name) are slow: Skylake's catalogs only. */
	lookup(cats, n, name, false);
	/* the catalogs of a core and uncore pair, and of a CPU with the architectural ones only */
	for (size_t u = 0; u < sizeof(uarchs) / sizeof(uarchs[0]); u++) {
		const struct pmu_catalog *c[4];

		lookup(c, pmu_catalogs_for(uarchs[u], c, 4), name, u == 0);
	}
	return 0;
}
