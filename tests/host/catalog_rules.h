/* SPDX-License-Identifier: MIT */
/*
 * What the catalog generator (tests/host/gen_catalog.c) adds to libpfm4's tables, by hand and
 * each row with its source: counter restrictions libpfm4 does not export, fixed counters,
 * the extra MSR an encoding needs, fixed-counter events libpfm4 does not list, and the seeds'
 * spellings of events libpfm4 names differently. The host test test_catalog_pfm checks these
 * rows against libpfm4.
 */
#ifndef TESTS_HOST_CATALOG_RULES_H
#define TESTS_HOST_CATALOG_RULES_H

#include <stdbool.h>
#include <stdint.h>

/* models: comma-separated catalog names ("nhm,wsm"), "*" for every catalog. */

/* Events first..last (umask, or -1 for any) count only on the GP counters in `counters`.
 * The first matching row applies (as Linux's constraint tables). */
struct cat_constraint {
	const char *models;
	uint8_t first, last;
	int16_t umask;
	uint32_t counters;
	const char *source;
};

/* The encoding event/umask (no cmask, inv, edge or any) is counted by fixed counter `fixed`
 * too; with event 0 it is a pseudo-encoding only that fixed counter counts. */
struct cat_fixed {
	const char *models;
	uint8_t event, umask;
	int8_t fixed;
	const char *source;
};

/* The encoding event/umask needs an extra MSR (libpfm4 gives its value as codes[1]). */
struct cat_extra {
	const char *models;
	uint8_t event, umask;
	uint16_t msr;
	uint16_t flag;		/* PMU_EVF_OFFCORE, _LDLAT or _FRONTEND */
	const char *source;
};

/* A fixed-counter event libpfm4 does not list under this name (added unless it does). */
struct cat_hand {
	const char *models;
	const char *name;
	uint8_t event, umask;
	int8_t fixed;
	const char *desc;
	const char *source;
};

/* A seed's spelling of an event and libpfm4's string for the same encoding
 * ("EVENT:UMASK[:c=N:i=1:e=1]"); msr_value, when not 0, is the extra MSR's value the seed
 * gives, which libpfm4's encoding must match. */
struct cat_alias {
	const char *models;
	const char *name;
	const char *pfm;
	uint64_t msr_value;
	const char *source;
};

/* An event of a seed's tables libpfm4 does not have for this PMU, encoded by hand from the
 * seed. check: a libpfm4 string (of another PMU, e.g. Westmere's) that must encode the same,
 * or NULL where libpfm4 has it nowhere. */
struct cat_seed_event {
	const char *models;
	const char *name;
	uint8_t event, umask, cmask;
	uint16_t flags;		/* PMU_EVF_INV, _EDGE, _ANY, _LDLAT, _MATCH */
	uint16_t msr;
	uint64_t msr_value;
	const char *check;
	const char *desc;
	const char *source;
};

extern const struct cat_constraint cat_constraints[];
extern const struct cat_fixed cat_fixed_encodings[];
extern const struct cat_extra cat_extras[];
extern const struct cat_hand cat_hand_events[];
extern const struct cat_alias cat_aliases[];
extern const struct cat_seed_event cat_seed_events[];
extern const unsigned cat_nconstraints, cat_nfixed, cat_nextras, cat_nhand, cat_naliases,
	cat_nseed_events;

/* Whether `model` is in the comma-separated list (or the list is "*"). */
bool cat_model_in(const char *list, const char *model);

#endif /* TESTS_HOST_CATALOG_RULES_H */
