/* SPDX-License-Identifier: MIT */
/*
 * Seed model "skl": seed 001_dad58ad4a296bcf3.txt, Skylake client uncore (Tables 3-1 and
 * 3-2), checked on Skylake/Kaby Lake as events.skl.<EVENT>. The model and its rows, one per
 * event the seed names (format: tests/expect/seed.h; sizes and tolerances:
 * tests/expect/seed_rows.h). Encodings come from the event catalog it names, by name.
 */
#include "tests/expect/seed_rows.h"

#define S31_1	"seed 001 Table 3-1"
#define S32_1	"seed 001 Table 3-2"
#define S33_1	"seed 001 Table 3-3"

static const struct events_row rows[] = {
	/* --- seed 001: Skylake client uncore events ----------------------------------- */
	ROW("skl", "UNC_CBO_XSNP_RESPONSE.MISS_XCORE", EVR_CONTRAST,
	    UCASE(EVK_U_XDROP, "v >= 1/4 N; v <= 2 N + 1024"), UCASE(EVK_U_LLC, UNC_QUIET_CACHE), S31_1,
	    "lines another core read and dropped silently still name it in the L3: a snoop that "
	    "misses; lines no other core read need no snoop"),
	ROW("skl", "UNC_CBO_XSNP_RESPONSE.MISS_EVICTION", EVR_CONTRAST,
	    UCASE(EVK_U_EVICT_CLEAN, "v >= 1/2 N; v <= 2 N + 4096"), UCASE(EVK_U_LLC, UNC_QUIET_CACHE), S31_1,
	    "each fill evicts a line this core read long ago and dropped from its L2: the "
	    "back-invalidation snoop misses; a chase within half the LLC evicts nothing"),
	ROW("skl", "UNC_CBO_XSNP_RESPONSE.HIT_XCORE", EVR_CONTRAST,
	    UCASE(EVK_U_XCLEAN, "v >= 1/2 N; v <= 2 N + 1024"), UCASE(EVK_U_LLC, UNC_QUIET_CACHE), S31_1,
	    "each line another core holds clean (E) is snooped and hit"),
	ROW("skl", "UNC_CBO_XSNP_RESPONSE.HITM_XCORE", EVR_CONTRAST,
	    UCASE(EVK_U_PINGPONG, "v >= 9/10 N; v <= 11/10 N + 64"), UCASE(EVK_U_LLC, UNC_QUIET_CACHE), S31_1,
	    "every hand-off reads the line the other core just modified"),
	ROW("skl", "UNC_CBO_CACHE_LOOKUP.READ_MESI", EVR_CONTRAST, UCASE(EVK_U_LLC, UNC_DRIVE_LLC),
	    UCASE(EVK_U_L2, UNC_QUIET_CACHE), S31_1, "every L2 miss is a read lookup; L2 hits never reach a CBo"),
	ROW("skl", "UNC_CBO_CACHE_LOOKUP.WRITE_MESI", EVR_CONTRAST, UCASE(EVK_U_STORE_LLC, UNC_DRIVE_LLC),
	    UCASE(EVK_U_LLC, UNC_QUIET_CACHE), S31_1,
	    "every line stored beyond the L2 is written back to the LLC; a read-only chase writes none"),
	ROW("skl", "UNC_CBO_CACHE_LOOKUP.ANY_MESI", EVR_IDENTITY,
	    UCASER(EVK_U_LLC, "v >= a - 64; a >= 1/2 N; v <= 4 N + 1024", "UNC_CBO_CACHE_LOOKUP.READ_MESI"),
	    NOCASE, S31_1, "ANY_MESI >= READ_MESI, every L2 miss one"),
	ROW("skl", "UNC_CBO_CACHE_LOOKUP.READ_ES", EVR_CONTRAST,
	    UCASER(EVK_U_LLC, "v >= 1/2 N; v <= a + 64", "UNC_CBO_CACHE_LOOKUP.READ_MESI"),
	    UCASE(EVK_U_DRAM, "v <= 1/4 N + 4096"), S31_1,
	    "clean lines only this core read are E in the LLC, each counted once (<= READ_MESI); "
	    "flushed lines are I"),
	ROW("skl", "UNC_CBO_CACHE_LOOKUP.WRITE_ES", EVR_IDENTITY,
	    UCASER(EVK_U_STORE_LLC, "v + a >= 1/2 N; v + a <= 21/20 b + 256; b <= 3 N + 1024",
		  "UNC_CBO_CACHE_LOOKUP.WRITE_M", "UNC_CBO_CACHE_LOOKUP.WRITE_MESI"),
	    NOCASE, S31_1, "each line's writeback looks up a line the inclusive LLC holds (M, E or "
	    "S, never I): WRITE_M + WRITE_ES >= writebacks"),
	ROW("skl", "UNC_CBO_CACHE_LOOKUP.ANY_ES", EVR_IDENTITY,
	    UCASER(EVK_U_LLC, "v >= 19/20 a - 256; a >= 1/2 N; v <= 21/20 b + 256; b <= 4 N + 1024",
		  "UNC_CBO_CACHE_LOOKUP.READ_ES", "UNC_CBO_CACHE_LOOKUP.ANY_MESI"), NOCASE, S31_1,
	    "READ_ES <= ANY_ES <= ANY_MESI; clean lines only this core reads are E in the LLC"),
	ROW("skl", "UNC_CBO_CACHE_LOOKUP.READ_I", EVR_CONTRAST,
	    UCASER(EVK_U_DRAM, UNC_DRIVE_DRAM "; v <= a + 64", "UNC_CBO_CACHE_LOOKUP.READ_MESI"),
	    UCASE(EVK_U_LLC, UNC_QUIET_CACHE), S31_1, "flushed lines are not in the LLC (I); LLC hits are not I"),
	ROW("skl", "UNC_CBO_CACHE_LOOKUP.ANY_I", EVR_IDENTITY,
	    UCASER(EVK_U_DRAM, "v >= 19/20 a - 256; a >= 3/4 N; v <= 21/20 b + 256; b <= 5 N + 4096",
		  "UNC_CBO_CACHE_LOOKUP.READ_I", "UNC_CBO_CACHE_LOOKUP.ANY_MESI"),
	    UCASE(EVK_U_LLC, "v <= 1/8 N + 1024"), S31_1,
	    "READ_I <= ANY_I <= ANY_MESI, each flushed step one (5% + 256: separate runs)"),
	ROW("skl", "UNC_CBO_CACHE_LOOKUP.WRITE_M", EVR_IDENTITY,
	    UCASER(EVK_U_STORE_LLC, "v + a >= 1/2 N; v + a <= 21/20 b + 256; b <= 3 N + 1024",
		  "UNC_CBO_CACHE_LOOKUP.WRITE_ES", "UNC_CBO_CACHE_LOOKUP.WRITE_MESI"),
	    NOCASE, S31_1, "each line's writeback looks up a line the inclusive LLC holds (M, E or "
	    "S, never I): WRITE_M + WRITE_ES >= writebacks"),
	ROW("skl", "UNC_CBO_CACHE_LOOKUP.ANY_M", EVR_IDENTITY,
	    UCASER(EVK_U_STORE_LLC, "v >= 1/2 N; v <= 21/20 b + 256; v >= 19/20 a - 256",
		  "UNC_CBO_CACHE_LOOKUP.WRITE_M", "UNC_CBO_CACHE_LOOKUP.ANY_MESI"),
	    NOCASE, S31_1, "each line was written back by an earlier run and is M in the LLC when "
	    "this run asks for it; WRITE_M <= ANY_M <= ANY_MESI (5% + 256: counted in separate "
	    "runs of the kernel, two CBo counters each)"),
	ROW("skl", "UNC_ARB_TRK_OCCUPANCY.ALL", EVR_IDENTITY,
	    UCASER(EVK_U_DRAM, "v >= a; a >= 3/4 N; v <= 128 U + 1024", "UNC_ARB_TRK_REQUESTS.ALL"), NOCASE,
	    S32_1, "each request is valid >= 1 cycle"),
	ROW("skl", "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", EVR_RANGE,
	    UCASE(EVK_U_DRAM, "v >= 1/2 N; v <= U + 1024"), NOCASE, S32_1,
	    "dependent misses: disjoint request periods, >= 1 cycle each; a cycle count <= UCLK"),
	ROW("skl", "UNC_ARB_TRK_REQUESTS.ALL", EVR_CONTRAST,
	    CASE(EVK_CHASE_COLD, WS_COLD, "v >= 3/4 N"),
	    CASE(EVK_CHASE, WS_L1, "v <= 1/10 N + 64"), "Table 3-2 (a flushed step is an LLC miss the ARB tracks; an L1 chase sends nothing)", NULL),
	ROW("skl", "UNC_ARB_TRK_REQUESTS.WRITES", EVR_CONTRAST,
	    UCASE(EVK_U_STORE_NT, "v >= 9/10 N; v <= 2 N + 4096"), UCASE(EVK_U_LLC, UNC_QUIET_CACHE), S32_1,
	    "one full-line write a step of MOVNTI; a read-only chase writes nothing"),
	ROW("skl", "UNC_ARB_COH_TRK_REQUESTS.ALL", EVR_CONTRAST,
	    UCASE(EVK_U_DRAM, "v >= 1/2 N; v <= 4 N + 4096"), UCASE(EVK_U_L2, UNC_QUIET_CACHE), S32_1,
	    "every cacheable LLC miss allocates a coherent-tracker entry"),
	ROW("skl", "UNC_CLOCK.SOCKET", EVR_RANGE, UCASE(EVK_U_LOOP, "v >= 200 T; v <= 6000 T"), NOCASE,
	    S32_1, "a client ring clock: 0.8-4.8 GHz, with margin (a 24 MHz or 100 MHz clock fails)"),
};

const struct events_model seed_model_skl = {
	.model = "skl", .seed = "001_dad58ad4a296bcf3.txt", .cpu = "Skylake client",
	.uarchs = { UARCH_SKYLAKE, UARCH_KABY_LAKE },
	.catalogs = { "skl_unc" },
	.rows = rows, .count = sizeof(rows) / sizeof(rows[0]),
};
