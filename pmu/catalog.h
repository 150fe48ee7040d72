/* SPDX-License-Identifier: MIT */
/*
 * The event catalog: events by name for every microarchitecture pmuboot knows, with their
 * encodings and counter restrictions. The large tables are generated at build time from
 * Debian's libpfm4 (build/gen/pmu/catalog_*.c, by tests/host/gen_catalog.c); hand-written are
 * only the architectural events (seed 002_28e325465e681290.txt Table 18-1) and the Skylake
 * client uncore (seed 001_dad58ad4a296bcf3.txt Tables 3-1 to 3-3), which no library has.
 */
#ifndef PMU_CATALOG_H
#define PMU_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "pmu/catalog_models.h"
#include "pmu/event.h"
#include "pmu/pmu.h"

/* Where an event is counted. */
enum pmu_event_unit {
	PMU_UNIT_CORE = 0,	/* IA32_PERFEVTSELx / fixed counters */
	PMU_UNIT_NHM_UNC,	/* Nehalem/Westmere uncore: MSR_UNCORE_PERFEVTSELx (seed 000) */
	PMU_UNIT_SKL_CBO,	/* Skylake client CBo (seed 001 Table 3-1) */
	PMU_UNIT_SKL_ARB,	/* Skylake client ARB (seed 001 Table 3-2) */
	PMU_UNIT_SKL_UCLK,	/* Skylake client fixed UNC_CLOCK counter (MSR 394H) */
	PMU_UNIT_SKL_IMC,	/* Skylake client IMC free-running counters (MCHBAR+5040H..) */
};

/* pmu_event_def.flags */
#define PMU_EVF_INV		(1U << 0)	/* the encoding sets INV */
#define PMU_EVF_EDGE		(1U << 1)	/* ... EDGE */
#define PMU_EVF_ANY		(1U << 2)	/* ... AnyThread */
#define PMU_EVF_PEBS		(1U << 3)	/* precise (PEBS) capable */
#define PMU_EVF_LDLAT		(1U << 4)	/* needs MSR_PEBS_LD_LAT_THRESHOLD (msr/msr_value) */
#define PMU_EVF_OFFCORE		(1U << 5)	/* needs MSR_OFFCORE_RSP_x (msr/msr_value) */
#define PMU_EVF_ALIAS		(1U << 6)	/* another spelling of the entry that follows the
						 * same encoding (a seed's name where libpfm4's
						 * differs); listed, counted once */
#define PMU_EVF_DEFAULT		(1U << 7)	/* the unit mask libpfm4 takes when the event is
						 * named alone ("INST_RETIRED" finds it) */
#define PMU_EVF_FRONTEND	(1U << 8)	/* needs MSR_PEBS_FRONTEND (msr/msr_value) */
#define PMU_EVF_MATCH		(1U << 9)	/* needs another MSR set (msr/msr_value): Nehalem
						 * uncore MSR_GQ_SNOOP_MESF or
						 * MSR_UNCORE_ADDR_OPCODE_MATCH */

struct pmu_event_def {
	/* The SDM's spelling, EVENT.UMASK in upper case ("MEM_LOAD_RETIRED.L3_MISS"; an event
	 * without unit masks is just EVENT). */
	const char *name;
	uint8_t event, umask, cmask;	/* event 0 (core): a pseudo-encoding only a fixed
					 * counter counts (Linux's 0x0300 for fixed counter
					 * 2); no GP counter may take it */
	uint16_t flags;			/* PMU_EVF_* */
	uint32_t counters;		/* bit i: GP counter i (or uncore counter i) may count it;
					 * 0: any */
	int8_t fixed;			/* the fixed counter that counts it, or -1 (the IMC:
					 * enum uncore_imc_ctr) */
	uint8_t unit;			/* enum pmu_event_unit: where it is counted */
	uint16_t msr;			/* extra MSR the event needs (offcore response, load
					 * latency), 0 if none */
	uint64_t msr_value;		/* ... and what to write there (the IMC: the counter's
					 * offset from MCHBAR) */
	const char *desc;		/* one line, or NULL */
};

struct pmu_catalog {
	const char *model;		/* short name: "arch", "nhm", "nhm_unc", "wsm", "skl",
					 * "skl_unc" ... (libpfm4's PMU names where it has them) */
	const char *title;		/* "Intel Nehalem core" */
	const char *source;		/* "generated from libpfm4 4.13.0 (nhm)" or
					 * "seed 001_dad58ad4a296bcf3.txt Tables 3-1 to 3-3" */
	enum pmu_event_unit unit;	/* for catalogs of several units: the first event's
					 * (each event's is pmu_event_def.unit) */
	const struct pmu_event_def *events;
	unsigned count;
};

/* Every catalog pmuboot has, NULL-terminated. */
extern const struct pmu_catalog *const pmu_catalogs[];

/* The hand-written catalogs (pmu/catalog_arch.c, pmu/catalog_skl_unc.c) and the generated
 * ones (pmu/catalog_models.h). */
extern const struct pmu_catalog pmu_catalog_arch, pmu_catalog_skl_unc;
#define PMU_CATALOG_EXTERN(m, title, unit) extern const struct pmu_catalog pmu_catalog_##m;
PMU_CATALOG_GENERATED(PMU_CATALOG_EXTERN)
#undef PMU_CATALOG_EXTERN

/* The catalogs that apply to microarchitecture u, in lookup order (its core events, its
 * uncore, then the architectural events). Returns how many were stored (at most max). */
unsigned pmu_catalogs_for(enum pmu_uarch u, const struct pmu_catalog **out, unsigned max);
/* A catalog by its model name, or NULL. */
const struct pmu_catalog *pmu_catalog_by_model(const char *model);

/*
 * Finds an event by name in the given catalogs (first match in order). Accepted spellings,
 * case-insensitive: "MEM_LOAD_RETIRED.L3_MISS", libpfm4's "MEM_LOAD_RETIRED:L3_MISS", and
 * either with a model prefix "skl::" naming the catalog to search (only among cats: another
 * model's encoding is never returned). Exact spellings win; then '.' and '_' compare equal
 * (the SDM's multi-level "L2_DATA_RQSTS.DEMAND.E_STATE" is libpfm4's
 * "L2_DATA_RQSTS:DEMAND_E_STATE"); then an event named alone ("INST_RETIRED") finds its
 * PMU_EVF_DEFAULT unit mask. *which (if not NULL) is set to the catalog it was found in.
 * NULL if none matches.
 */
const struct pmu_event_def *pmu_catalog_find(const struct pmu_catalog *const *cats, unsigned ncats,
					     const char *name, const struct pmu_catalog **which);
/*
 * The one parser of "MODEL::EVENT": returns the name after an optional "model::" prefix (name
 * itself when there is none), *model set to the prefix, NUL-terminated in buf[0..len), or to
 * NULL when there is none. A prefix too long for buf is cut there (and then names no
 * catalog). pmu_catalog_find and pmu_catalog_suggest take their prefix through it.
 */
const char *pmu_catalog_split_model(const char *name, char *buf, size_t len, const char **model);
/*
 * Up to max names of the given catalogs nearest to `name` (edit distance over the
 * normalised spelling, ties in catalog order), for "did you mean" messages. Returns how many.
 * Names farther than half the name's length (+1) are not offered; a "model::" prefix limits
 * the search to that catalog; max is clamped to 16; a name is offered once.
 */
unsigned pmu_catalog_suggest(const struct pmu_catalog *const *cats, unsigned ncats,
			     const char *name, const char **out, unsigned max);

/* A counting selector for a core event (USR and OS as asked, EN set, the rest from def). */
struct pmu_evtsel pmu_catalog_evtsel(const struct pmu_event_def *def, bool usr, bool os);
/* Whether GP counter idx may count def (its counters mask; never a fixed-only
 * pseudo-encoding). */
bool pmu_catalog_counter_ok(const struct pmu_event_def *def, unsigned idx);

#endif /* PMU_CATALOG_H */
