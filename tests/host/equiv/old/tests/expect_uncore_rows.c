/* SPDX-License-Identifier: MIT */
/*
 * The expectation rows of the seeds' uncore events (tests/expect_uncore.h says how to read
 * them): Nehalem, seed 000_666bff9af8f20138.txt "Uncore Performance Events" Tables 22-38 (172
 * events); Skylake client, seed 001_dad58ad4a296bcf3.txt Tables 3-1 to 3-3 (20 events and the
 * IMC's five counters).
 *
 * Tolerances, once for every row that uses them:
 * - "v >= 3/4 N" on the flushed DRAM chase: every step is a random line CLFLUSHed before the
 *   run, so it misses every cache; a quarter is left for steps a prefetcher served.
 * - "v <= 4 N + 4096" (8192 at the IMC): page walks, adjacent-line and stream prefetches add
 *   up to a few requests a step; the constant covers the frame and other agents.
 * - "v >= 1/2 N" on the warm LLC chase (4 x L2): a step misses the L2 with p = 3/4.
 * - quiet: "v <= 1/16 N + 1024" where the kernel's lines never leave the level; peer, remote,
 *   IOH and isochronous events "v <= 1/8 N + 4096" (one socket: no QPI peer snoops; no DMA
 *   runs once boot services are gone, a USB controller left polling reads a few lines per
 *   microframe), their cycle events "v <= 1/100 U + 4096".
 * - identities: "49/50 .. 51/50 of the whole, +- 256": parts and whole are counted in one
 *   window on different counters; 2% and 256 cover events that straddle the window's edges.
 * - a stage of a queue's period <= the whole period: "v <= 11/10 b + 4096", as each count's
 *   differential takes its own minimum over the repetitions.
 * - queues: occupancy >= allocations (an allocated entry is valid at least one cycle);
 *   cycles busy <= occupancy <= depth x cycles busy (the seed's depths: GQ read tracker 32,
 *   write tracker 16, peer probe 12; QHL trackers at most 32); a cycle count <= U + 1024.
 */
#include "tests/expect_uncore.h"

#define NOREF		{ 0 }
#define CASE(k, rel)			{ (k), NOREF, (rel) }
#define CASER(k, rel, ...)		{ (k), { __VA_ARGS__ }, (rel) }
#define NOCASE				{ UXK_LOOP, NOREF, 0 }
#define ROW(m, ev, kind, c0, c1, src, why)	{ (m), (ev), (kind), { c0, c1 }, (src), (why) }

/* Repeated relations. */
#define DRIVE_DRAM	"v >= 3/4 N; v <= 4 N + 4096"
#define DRIVE_IMC	"v >= 3/4 N; v <= 4 N + 8192"
#define DRIVE_LLC	"v >= 1/2 N; v <= 3 N + 1024"
#define QUIET_CACHE	"v <= 1/16 N + 1024"
#define QUIET_EV	"v <= 1/8 N + 4096"
#define QUIET_CYC	"v <= 1/100 U + 4096"
#define IDENT3(lo, hi)	"v >= 49/50 a - b - c - 256; v <= 51/50 a - b - c + 256; a >= " lo \
			"; a <= " hi

#define S22	"seed 000 Table 22"
#define S23	"seed 000 Table 23"
#define S24	"seed 000 Table 24"
#define S25	"seed 000 Table 25"
#define S26	"seed 000 Table 26"
#define S27	"seed 000 Table 27"
#define S28	"seed 000 Table 28"
#define S29	"seed 000 Table 29"
#define S30	"seed 000 Table 30"
#define S31	"seed 000 Table 31"
#define S32	"seed 000 Table 32"
#define S33	"seed 000 Table 33"
#define S34	"seed 000 Table 34"
#define S35	"seed 000 Table 35"
#define S36	"seed 000 Table 36"
#define S38	"seed 000 Table 38"
#define S31_1	"seed 001 Table 3-1"
#define S32_1	"seed 001 Table 3-2"
#define S33_1	"seed 001 Table 3-3"

#define WHY_PEER	"one socket: no QPI peer sends snoops or requests to this package, and no " \
			"device does DMA once boot services are gone"
#define WHY_ISOC	"isochronous, high- and critical-priority reads come from devices " \
			"(display, audio) through the IOH; pmuboot runs none"

#define WHY_WT_RTID	"which writes wait in the write tracker for an RTID after missing the L3 " \
			"the seed does not say (uncached full-line writes, or the L3's modified " \
			"victims): a guessed driver could fail a correct part, and a bound alone " \
			"passes on a dead counter"

/* A quiet Nehalem event on the DRAM chase: counts, or cycles. */
#define NHM_QUIET(ev, src, why)		ROW("nhm", ev, UX_QUIET, CASE(UXK_DRAM, QUIET_EV), NOCASE, src, why)
#define NHM_QUIET_CYC(ev, src, why)	ROW("nhm", ev, UX_QUIET, CASE(UXK_DRAM, QUIET_CYC), NOCASE, src, why)

const struct ux_row ux_rows[] = {
	/* ---- Nehalem: the global queue (Table 22) ---- */
	ROW("nhm", "UNC_GQ_TRACKER_OCCUP.RT", UX_IDENTITY,
	    CASER(UXK_DRAM, "v >= a; v >= b; v <= 32 b + 1024; a >= 3/4 N",
		  "UNC_GQ_ALLOC.RT", "UNC_GQ_CYCLES_BUSY.READ_TRACKER"), NOCASE, S22,
	    "each read-tracker entry is valid >= 1 cycle; busy <= occupancy <= 32 entries x busy"),
	ROW("nhm", "UNC_GQ_TRACKER_OCCUP.RT_LLC_MISS", UX_IDENTITY,
	    CASER(UXK_DRAM, "v >= a; a >= 3/4 N; v <= 11/10 b + 4096; v >= c; v <= 32 c + 1024",
		  "UNC_GQ_ALLOC.RT_LLC_MISS", "UNC_GQ_TRACKER_OCCUP.RT",
		  "UNC_GQ_TRACKER_OCCUP.RT_LLC_MISS_BUSY"), NOCASE, S22,
	    "the miss-to-fill stage is part of the read tracker's period (seed: RT period is longer); "
	    ">= 1 cycle per miss; busy <= occupancy <= 32 x busy"),
	ROW("nhm", "UNC_GQ_TRACKER_OCCUP.RT_TO_LLC_RESP", UX_IDENTITY,
	    CASER(UXK_LLC, "v >= a; a >= 1/2 N; v <= 11/10 b + 4096",
		  "UNC_GQ_ALLOC.RT_TO_LLC_RESP", "UNC_GQ_TRACKER_OCCUP.RT"), NOCASE, S22,
	    "every L3 lookup of the read tracker lasts >= 1 cycle and is part of the entry's period"),
	ROW("nhm", "UNC_GQ_TRACKER_OCCUP.RT_TO_RTID_ACQUIRED", UX_IDENTITY,
	    CASER(UXK_DRAM, "v >= a; a >= 3/4 N; v <= 11/10 b + 4096",
		  "UNC_GQ_ALLOC.RT_TO_RTID_ACQUIRED", "UNC_GQ_TRACKER_OCCUP.RT_LLC_MISS"), NOCASE, S22,
	    "an L3 miss waits >= 1 cycle for its RTID, within its miss-to-fill period"),
	ROW("nhm", "UNC_GQ_TRACKER_OCCUP.WT_TO_RTID_ACQUIRED", UX_NONE, NOCASE, NOCASE, S22,
	    WHY_WT_RTID),
	ROW("nhm", "UNC_GQ_TRACKER_OCCUP.WT", UX_IDENTITY,
	    CASER(UXK_STORE_LLC, "v >= a; a >= 3/4 N; v >= b; v <= 16 b + 1024",
		  "UNC_GQ_ALLOC.WT", "UNC_GQ_CYCLES_BUSY.WRITE_TRACKER"), NOCASE, S22,
	    "one L2 writeback a line; busy <= occupancy <= 16 entries x busy"),
	NHM_QUIET_CYC("UNC_GQ_TRACKER_OCCUP.PPT", S22, WHY_PEER),
	ROW("nhm", "UNC_GQ_ALLOC.RT", UX_CONTRAST, CASE(UXK_DRAM, DRIVE_DRAM),
	    CASE(UXK_L2, QUIET_CACHE), S22,
	    "every L2 miss allocates a read-tracker entry; L2 hits allocate none"),
	ROW("nhm", "UNC_GQ_ALLOC.RT_LLC_MISS", UX_CONTRAST, CASE(UXK_DRAM, DRIVE_DRAM),
	    CASE(UXK_LLC, QUIET_CACHE), S22, "every flushed step misses the L3; a warm LLC chase hits it"),
	ROW("nhm", "UNC_GQ_ALLOC.RT_TO_LLC_RESP", UX_CONTRAST, CASE(UXK_LLC, DRIVE_LLC),
	    CASE(UXK_L2, QUIET_CACHE), S22, "every read-tracker entry looks up the L3"),
	ROW("nhm", "UNC_GQ_ALLOC.RT_TO_RTID_ACQUIRED", UX_CONTRAST, CASE(UXK_DRAM, DRIVE_DRAM),
	    CASE(UXK_LLC, QUIET_CACHE), S22, "every L3 miss acquires an RTID for the QHL; hits need none"),
	ROW("nhm", "UNC_GQ_ALLOC.WT_TO_RTID_ACQUIRED", UX_NONE, NOCASE, NOCASE, S22, WHY_WT_RTID),
	ROW("nhm", "UNC_GQ_ALLOC.WT", UX_CONTRAST, CASE(UXK_STORE_LLC, "v >= 3/4 N; v <= 3 N + 4096"),
	    CASE(UXK_L2, QUIET_CACHE), S22,
	    "each line stored beyond the L2 evicts one modified line: one writeback request"),
	NHM_QUIET("UNC_GQ_ALLOC.PPT", S22, WHY_PEER),

	/* ---- Table 23 ---- */
	ROW("nhm", "UNC_GQ_CYCLES_FULL.READ_TRACKER", UX_QUIET,
	    CASER(UXK_DRAM, "v <= a + 64; " QUIET_CYC, "UNC_GQ_CYCLES_BUSY.READ_TRACKER"), NOCASE, S23,
	    "a dependent chase has one demand miss outstanding: 32 entries never fill; full <= busy"),
	ROW("nhm", "UNC_GQ_CYCLES_FULL.WRITE_TRACKER", UX_QUIET,
	    CASER(UXK_STORE_LLC, "v <= a + 64", "UNC_GQ_CYCLES_BUSY.WRITE_TRACKER"),
	    CASE(UXK_DRAM, QUIET_CYC), S23, "full <= busy; a read-only chase writes nothing back"),
	NHM_QUIET_CYC("UNC_GQ_CYCLES_FULL.PEER_PROBE_TRACKER", S23, WHY_PEER),
	ROW("nhm", "UNC_GQ_CYCLES_BUSY.READ_TRACKER", UX_CONTRAST,
	    CASE(UXK_DRAM, "v >= 1/2 N; v <= U + 1024"), CASE(UXK_L2, "v <= 1/100 U + 1024"), S23,
	    "the chase's misses are dependent, so their tracker periods are disjoint: >= 1 busy "
	    "cycle each"),
	ROW("nhm", "UNC_GQ_CYCLES_BUSY.WRITE_TRACKER", UX_IDENTITY,
	    CASER(UXK_STORE_LLC, "16 v >= a; a >= 3/4 N; v <= U + 1024", "UNC_GQ_ALLOC.WT"), NOCASE, S23,
	    "16 entries: busy cycles x 16 >= the writebacks allocated"),
	NHM_QUIET_CYC("UNC_GQ_CYCLES_BUSY.PEER_PROBE_TRACKER", S23, WHY_PEER),

	/* ---- Table 24: the read-tracker stages with CMASK 32 (full) and 1 (busy) ---- */
	ROW("nhm", "UNC_GQ_TRACKER_OCCUP.RT_LLC_MISS_FULL", UX_QUIET,
	    CASER(UXK_DRAM, "v <= a + 64; " QUIET_CYC, "UNC_GQ_TRACKER_OCCUP.RT_LLC_MISS_BUSY"),
	    NOCASE, S24, "one dependent miss at a time never makes 32; CMASK 32 <= CMASK 1"),
	ROW("nhm", "UNC_GQ_TRACKER_OCCUP.RT_TO_LLC_RESP_FULL", UX_QUIET,
	    CASER(UXK_LLC, "v <= a + 64; " QUIET_CYC, "UNC_GQ_TRACKER_OCCUP.RT_TO_LLC_RESP_BUSY"),
	    NOCASE, S24, "one dependent lookup at a time never makes 32; CMASK 32 <= CMASK 1"),
	ROW("nhm", "UNC_GQ_TRACKER_OCCUP.RT_TO_RTID_ACQUIRED_FULL", UX_QUIET,
	    CASER(UXK_DRAM, "v <= a + 64; " QUIET_CYC, "UNC_GQ_TRACKER_OCCUP.RT_TO_RTID_ACQUIRED_BUSY"),
	    NOCASE, S24, "one dependent miss at a time never makes 32; CMASK 32 <= CMASK 1"),
	ROW("nhm", "UNC_GQ_TRACKER_OCCUP.RT_LLC_MISS_BUSY", UX_IDENTITY,
	    CASER(UXK_DRAM, "v >= 1/2 N; v <= a + 64; 32 v >= a - 64; v <= U + 1024",
		  "UNC_GQ_TRACKER_OCCUP.RT_LLC_MISS"), NOCASE, S24,
	    "CMASK 1 counts cycles with >= 1 entry: occupancy / 32 <= it <= occupancy; dependent "
	    "misses are disjoint"),
	ROW("nhm", "UNC_GQ_TRACKER_OCCUP.RT_TO_LLC_RESP_BUSY", UX_IDENTITY,
	    CASER(UXK_LLC, "v >= 1/2 N; v <= a + 64; 32 v >= a - 64", "UNC_GQ_TRACKER_OCCUP.RT_TO_LLC_RESP"),
	    NOCASE, S24, "CMASK 1: occupancy / 32 <= it <= occupancy; one lookup a missing step"),
	ROW("nhm", "UNC_GQ_TRACKER_OCCUP.RT_TO_RTID_ACQUIRED_BUSY", UX_IDENTITY,
	    CASER(UXK_DRAM, "v <= a + 64; 32 v >= a - 64; a >= 3/4 N",
		  "UNC_GQ_TRACKER_OCCUP.RT_TO_RTID_ACQUIRED"), NOCASE, S24,
	    "CMASK 1: occupancy / 32 <= it <= occupancy, the occupancy driven by every miss"),

	/* ---- Table 25: data port cycles ---- */
	NHM_QUIET("UNC_GQ_DATA.FROM_QPI", S25,
		  "the buffer is this socket's memory: no line comes over QPI (on a two-socket part "
		  "a buffer homed on the other socket fails this, and says so through FROM_IMC)"),
	ROW("nhm", "UNC_GQ_DATA.FROM_IMC", UX_CONTRAST, CASE(UXK_DRAM, "v >= 3/4 N; v <= U + 1024"),
	    CASE(UXK_LLC, QUIET_EV), S25, "every flushed line comes from the IMC, >= 1 port cycle each"),
	ROW("nhm", "UNC_GQ_DATA.FROM_LLC", UX_CONTRAST, CASE(UXK_LLC, "v >= 1/2 N; v <= U + 1024"),
	    CASE(UXK_L2, QUIET_CACHE), S25, "L3 hits move their line out of the L3"),
	ROW("nhm", "UNC_GQ_DATA.FROM_CORES_02", UX_IDENTITY,
	    CASER(UXK_STORE_LLC, "v + a >= 1/2 N; v <= U + 1024", "UNC_GQ_DATA.FROM_CORES_13"), NOCASE,
	    S25, "every L2 writeback brings a line from this core, through one of the two ports"),
	ROW("nhm", "UNC_GQ_DATA.FROM_CORES_13", UX_IDENTITY,
	    CASER(UXK_STORE_LLC, "v + a >= 1/2 N; v <= U + 1024", "UNC_GQ_DATA.FROM_CORES_02"), NOCASE,
	    S25, "every L2 writeback brings a line from this core, through one of the two ports"),
	ROW("nhm", "UNC_GQ_DATA.TO_QPI_IMC", UX_CONTRAST,
	    CASE(UXK_STORE_NT, "v >= 1/2 N; v <= U + 1024"), CASE(UXK_L2, QUIET_CACHE), S25,
	    "every uncached line goes to the IMC, >= 1 port cycle each"),
	ROW("nhm", "UNC_GQ_DATA.TO_LLC", UX_CONTRAST, CASE(UXK_STORE_LLC, "v >= 1/2 N; v <= U + 1024"),
	    CASE(UXK_L2, QUIET_CACHE), S25, "every L2 writeback is written into the L3"),
	ROW("nhm", "UNC_GQ_DATA.TO_CORES", UX_CONTRAST, CASE(UXK_LLC, "v >= 1/2 N; v <= U + 1024"),
	    CASE(UXK_L2, QUIET_CACHE), S25, "every L3 hit is sent to the core"),

	/* ---- Tables 26, 27: snoop responses to QPI requests ---- */
	NHM_QUIET("UNC_SNP_RESP_TO_LOCAL_HOME.I_STATE", S26, WHY_PEER),
	NHM_QUIET("UNC_SNP_RESP_TO_LOCAL_HOME.S_STATE", S26, WHY_PEER),
	NHM_QUIET("UNC_SNP_RESP_TO_LOCAL_HOME.FWD_S_STATE", S26, WHY_PEER),
	NHM_QUIET("UNC_SNP_RESP_TO_LOCAL_HOME.FWD_I_STATE", S26, WHY_PEER),
	NHM_QUIET("UNC_SNP_RESP_TO_LOCAL_HOME.CONFLICT", S26, WHY_PEER),
	NHM_QUIET("UNC_SNP_RESP_TO_LOCAL_HOME.WB", S26, WHY_PEER),
	ROW("nhm", "UNC_SNP_RESP_TO_LOCAL_HOME.HITM", UX_QUIET,
	    CASER(UXK_DRAM, QUIET_EV "; v >= a + b - 64; v <= a + b + 64",
		  "UNC_SNP_RESP_TO_LOCAL_HOME.WB", "UNC_SNP_RESP_TO_LOCAL_HOME.FWD_S_STATE"), NOCASE, S26,
	    WHY_PEER "; HITM = WB + FWD_S_STATE (umask 24H = 20H | 04H)"),
	ROW("nhm", "UNC_SNP_RESP_TO_LOCAL_HOME.HIT", UX_QUIET,
	    CASER(UXK_DRAM, QUIET_EV "; v >= a + b + c - 64; v <= a + b + c + 64",
		  "UNC_SNP_RESP_TO_LOCAL_HOME.S_STATE", "UNC_SNP_RESP_TO_LOCAL_HOME.FWD_I_STATE",
		  "UNC_SNP_RESP_TO_LOCAL_HOME.CONFLICT"), NOCASE, S26,
	    WHY_PEER "; HIT = S + FWD_I + CONFLICT (umask 1AH)"),
	NHM_QUIET("UNC_SNP_RESP_TO_REMOTE_HOME.I_STATE", S27, WHY_PEER),
	NHM_QUIET("UNC_SNP_RESP_TO_REMOTE_HOME.S_STATE", S27, WHY_PEER),
	NHM_QUIET("UNC_SNP_RESP_TO_REMOTE_HOME.FWD_S_STATE", S27, WHY_PEER),
	NHM_QUIET("UNC_SNP_RESP_TO_REMOTE_HOME.FWD_I_STATE", S27, WHY_PEER),
	NHM_QUIET("UNC_SNP_RESP_TO_REMOTE_HOME.CONFLICT", S27, WHY_PEER),
	NHM_QUIET("UNC_SNP_RESP_TO_REMOTE_HOME.WB", S27, WHY_PEER),
	ROW("nhm", "UNC_SNP_RESP_TO_REMOTE_HOME.HITM", UX_QUIET,
	    CASER(UXK_DRAM, QUIET_EV "; v >= a + b - 64; v <= a + b + 64",
		  "UNC_SNP_RESP_TO_REMOTE_HOME.WB", "UNC_SNP_RESP_TO_REMOTE_HOME.FWD_S_STATE"), NOCASE, S27,
	    WHY_PEER "; HITM = WB + FWD_S_STATE (umask 24H = 20H | 04H)"),
	ROW("nhm", "UNC_SNP_RESP_TO_REMOTE_HOME.HIT", UX_QUIET,
	    CASER(UXK_DRAM, QUIET_EV "; v >= a + b + c - 64; v <= a + b + c + 64",
		  "UNC_SNP_RESP_TO_REMOTE_HOME.S_STATE", "UNC_SNP_RESP_TO_REMOTE_HOME.FWD_I_STATE",
		  "UNC_SNP_RESP_TO_REMOTE_HOME.CONFLICT"), NOCASE, S27,
	    WHY_PEER "; HIT = S + FWD_I + CONFLICT (umask 1AH)"),

	/* ---- Table 28: L3 state changes for snoops from other caching agents ---- */
	NHM_QUIET("UNC_GQ_SNOOP.GOTO_S", S28, WHY_PEER),
	NHM_QUIET("UNC_GQ_SNOOP.GOTO_I", S28, WHY_PEER),
	NHM_QUIET("UNC_GQ_SNOOP.GOTO_S_HIT_M", S28, WHY_PEER),
	NHM_QUIET("UNC_GQ_SNOOP.GOTO_S_HIT_E", S28, WHY_PEER),
	NHM_QUIET("UNC_GQ_SNOOP.GOTO_S_HIT_S", S28, WHY_PEER),
	NHM_QUIET("UNC_GQ_SNOOP.GOTO_S_HIT_F", S28, WHY_PEER),
	NHM_QUIET("UNC_GQ_SNOOP.GOTO_I_HIT_M", S28, WHY_PEER),
	NHM_QUIET("UNC_GQ_SNOOP.GOTO_I_HIT_E", S28, WHY_PEER),
	NHM_QUIET("UNC_GQ_SNOOP.GOTO_I_HIT_S", S28, WHY_PEER),
	NHM_QUIET("UNC_GQ_SNOOP.GOTO_I_HIT_F", S28, WHY_PEER),

	/* ---- Table 29: L3 hits and misses ---- */
	ROW("nhm", "UNC_LLC_HITS.READ", UX_CONTRAST, CASE(UXK_LLC, DRIVE_LLC), CASE(UXK_L2, QUIET_CACHE),
	    S29, "a warm chase of 4 x L2 within half the L3 hits the L3 on every L2 miss"),
	ROW("nhm", "UNC_LLC_HITS.WRITE", UX_IDENTITY,
	    CASER(UXK_STORE_LLC, "v >= 1/2 N; v <= 3 N + 1024; v >= 49/50 a - b - 256; "
		  "v <= 51/50 a - b + 256", "UNC_LLC_HITS.ANY", "UNC_LLC_HITS.READ"), NOCASE, S29,
	    "each line's L2 writeback writes an L3 line the inclusive L3 holds; ANY = READ + WRITE "
	    "(umask 03H)"),
	ROW("nhm", "UNC_LLC_HITS.ANY", UX_IDENTITY,
	    CASER(UXK_LLC, "v >= 1/2 N; v >= 49/50 a + 49/50 b - 256; v <= 51/50 a + 51/50 b + 256",
		  "UNC_LLC_HITS.READ", "UNC_LLC_HITS.WRITE"), NOCASE, S29,
	    "ANY = READ + WRITE (umask 03H; PROBE is not part of it: seed)"),
	NHM_QUIET("UNC_LLC_HITS.PROBE", S29, WHY_PEER),
	ROW("nhm", "UNC_LLC_MISS.READ", UX_CONTRAST, CASE(UXK_DRAM, DRIVE_DRAM),
	    CASE(UXK_LLC, QUIET_CACHE), S29, "every flushed step misses the L3; the LLC chase hits"),
	ROW("nhm", "UNC_LLC_MISS.WRITE", UX_IDENTITY,
	    CASER(UXK_DRAM, "v >= 49/50 a - b - 256; v <= 51/50 a - b + 256; a >= 3/4 N; "
		  "a <= 4 N + 4096", "UNC_LLC_MISS.ANY", "UNC_LLC_MISS.READ"),
	    NOCASE, S29, "ANY = READ + WRITE (umask 03H), on a chase whose misses drive ANY"),
	ROW("nhm", "UNC_LLC_MISS.ANY", UX_IDENTITY,
	    CASER(UXK_DRAM, "v >= 3/4 N; v <= 4 N + 4096; v >= 49/50 a + 49/50 b - 256; "
		  "v <= 51/50 a + 51/50 b + 256", "UNC_LLC_MISS.READ", "UNC_LLC_MISS.WRITE"), NOCASE,
	    S29, "ANY = READ + WRITE (umask 03H); every flushed step misses"),
	NHM_QUIET("UNC_LLC_MISS.PROBE", S29, WHY_PEER),

	/* ---- Table 30: lines in and out of the L3 ---- */
	ROW("nhm", "UNC_LLC_LINES_IN.M_STATE", UX_IDENTITY,
	    CASER(UXK_DRAM, "v >= 49/50 a - b - c - d - 256; v <= 51/50 a - b - c - d + 256; "
		  "a >= 3/4 N", "UNC_LLC_LINES_IN.ANY", "UNC_LLC_LINES_IN.E_STATE",
		  "UNC_LLC_LINES_IN.S_STATE", "UNC_LLC_LINES_IN.F_STATE"), NOCASE, S30,
	    "ANY = M + E + S + F (umask 0FH)"),
	ROW("nhm", "UNC_LLC_LINES_IN.E_STATE", UX_CONTRAST, CASE(UXK_DRAM, "v >= 1/2 N; v <= 4 N + 4096"),
	    CASE(UXK_LLC, QUIET_CACHE), S30,
	    "a line read from memory that no other cache holds is filled exclusive"),
	NHM_QUIET("UNC_LLC_LINES_IN.S_STATE", S30, "lines are shared with another socket's caches "
		  "only; " WHY_PEER),
	NHM_QUIET("UNC_LLC_LINES_IN.F_STATE", S30, "the F state forwards between sockets; " WHY_PEER),
	ROW("nhm", "UNC_LLC_LINES_IN.ANY", UX_CONTRAST, CASE(UXK_DRAM, DRIVE_DRAM),
	    CASE(UXK_LLC, QUIET_CACHE), S30, "every L3 miss fills a line; hits fill none"),
	ROW("nhm", "UNC_LLC_LINES_OUT.M_STATE", UX_CONTRAST,
	    CASE(UXK_EVICT_DIRTY, "v >= 1/2 N; v <= 2 N + 4096"), CASE(UXK_EVICT_CLEAN, QUIET_EV), S30,
	    "with the L3 full of written lines each fill evicts a modified one; after reads, a clean one"),
	ROW("nhm", "UNC_LLC_LINES_OUT.E_STATE", UX_IDENTITY,
	    CASER(UXK_EVICT_CLEAN, "v + b >= 1/2 N; v <= a + 64; a <= 2 N + 4096",
		  "UNC_LLC_LINES_OUT.ANY", "UNC_LLC_LINES_OUT.I_STATE"), NOCASE, S30,
	    "with the L3 full of clean lines this core read each fill evicts one; the seed does not "
	    "say whether a line a core still owns leaves the L3 as E or as I: E + I >= N/2, E <= ANY"),
	NHM_QUIET("UNC_LLC_LINES_OUT.S_STATE", S30, "lines are shared with another socket's caches "
		  "only; " WHY_PEER),
	ROW("nhm", "UNC_LLC_LINES_OUT.I_STATE", UX_IDENTITY,
	    CASER(UXK_EVICT_CLEAN, "v >= 49/50 a - b - c - d - e - 256; "
		  "v <= 51/50 a - b - c - d - e + 256; a >= 1/2 N", "UNC_LLC_LINES_OUT.ANY",
		  "UNC_LLC_LINES_OUT.M_STATE", "UNC_LLC_LINES_OUT.E_STATE", "UNC_LLC_LINES_OUT.S_STATE",
		  "UNC_LLC_LINES_OUT.F_STATE"), NOCASE, S30, "ANY = M + E + S + I + F (umask 1FH)"),
	NHM_QUIET("UNC_LLC_LINES_OUT.F_STATE", S30, "the F state forwards between sockets; " WHY_PEER),
	ROW("nhm", "UNC_LLC_LINES_OUT.ANY", UX_CONTRAST,
	    CASE(UXK_EVICT_CLEAN, "v >= 1/2 N; v <= 2 N + 4096"), CASE(UXK_LLC, QUIET_CACHE), S30,
	    "with the L3 full each fill evicts a line; a chase within half the L3 evicts none"),

	/* ---- Table 31: QPI home logic ---- */
	NHM_QUIET_CYC("UNC_QHL_OCCUPANCY.IOH", S31, WHY_PEER),
	NHM_QUIET_CYC("UNC_QHL_OCCUPANCY.REMOTE", S31, WHY_PEER),
	ROW("nhm", "UNC_QHL_OCCUPANCY.LOCAL", UX_IDENTITY,
	    CASER(UXK_DRAM, "v >= a; a >= 3/4 N; v >= b; v <= 32 b + 1024",
		  "UNC_QHL_REQUESTS.LOCAL_READS", "UNC_QHL_CYCLES_NOT_EMPTY.LOCAL"), NOCASE, S31,
	    "each local read holds a tracker entry >= 1 cycle; not-empty <= occupancy <= 32 x it"),
	NHM_QUIET("UNC_QHL_REQUESTS.IOH_READS", S31, WHY_PEER),
	NHM_QUIET("UNC_QHL_REQUESTS.IOH_WRITES", S31, WHY_PEER),
	NHM_QUIET("UNC_QHL_REQUESTS.REMOTE_READS", S31, WHY_PEER),
	NHM_QUIET("UNC_QHL_REQUESTS.REMOTE_WRITES", S31, WHY_PEER),
	ROW("nhm", "UNC_QHL_REQUESTS.LOCAL_READS", UX_IDENTITY,
	    CASER(UXK_DRAM, DRIVE_IMC "; v >= 9/10 a - 1024; v <= 11/10 a + 4096",
		  "UNC_IMC_NORMAL_READS.ANY"),
	    CASER(UXK_STORE_NT, "v - a >= 1/2 N; v - a <= 2 N + 4096", "UNC_IMC_NORMAL_READS.ANY"),
	    "seed 000 Tables 31, 39",
	    "every L3 miss is a local read; the seed: LOCAL_READS also counts the InvItoE of "
	    "uncached writes, so LOCAL_READS - IMC normal reads = the uncached lines written"),
	ROW("nhm", "UNC_QHL_REQUESTS.LOCAL_WRITES", UX_CONTRAST,
	    CASE(UXK_EVICT_DIRTY, "v >= 1/2 N; v <= 2 N + 4096"), CASE(UXK_STORE_NT, QUIET_EV),
	    "seed 000 Tables 31, 39",
	    "each evicted modified line is written back through the QHL; the seed: uncached writes "
	    "from local cores are not counted here"),
	NHM_QUIET_CYC("UNC_QHL_CYCLES_FULL.IOH", S31, WHY_PEER),
	NHM_QUIET_CYC("UNC_QHL_CYCLES_FULL.REMOTE", S31, WHY_PEER),
	ROW("nhm", "UNC_QHL_CYCLES_FULL.LOCAL", UX_QUIET,
	    CASER(UXK_DRAM, "v <= a + 64; " QUIET_CYC, "UNC_QHL_CYCLES_NOT_EMPTY.LOCAL"), NOCASE, S31,
	    "one dependent miss at a time never fills the local tracker (24 or 32 entries); full <= "
	    "not empty"),
	NHM_QUIET_CYC("UNC_QHL_CYCLES_NOT_EMPTY.IOH", S31, WHY_PEER),
	NHM_QUIET_CYC("UNC_QHL_CYCLES_NOT_EMPTY.REMOTE", S31, WHY_PEER),
	ROW("nhm", "UNC_QHL_CYCLES_NOT_EMPTY.LOCAL", UX_IDENTITY,
	    CASER(UXK_DRAM, "v >= 1/2 N; v <= a + 64; v <= U + 1024", "UNC_QHL_OCCUPANCY.LOCAL"),
	    NOCASE, S31, "dependent misses: disjoint tracker periods, >= 1 cycle each; <= occupancy"),

	/* ---- Table 32: IMC reads and writes per channel ---- */
	ROW("nhm", "UNC_IMC_NORMAL_OCCUPANCY.CH0", UX_IDENTITY,
	    CASER(UXK_DRAM, "v >= a - 64; v <= 4096 a + 4096; v + b + c >= 3/4 N",
		  "UNC_IMC_NORMAL_READS.CH0", "UNC_IMC_NORMAL_OCCUPANCY.CH1",
		  "UNC_IMC_NORMAL_OCCUPANCY.CH2"), NOCASE, S32,
	    "each read is queued >= 1 cycle and < 4096 (2 us); the channels share every read"),
	ROW("nhm", "UNC_IMC_NORMAL_OCCUPANCY.CH1", UX_IDENTITY,
	    CASER(UXK_DRAM, "v >= a - 64; v <= 4096 a + 4096; v + b + c >= 3/4 N",
		  "UNC_IMC_NORMAL_READS.CH1", "UNC_IMC_NORMAL_OCCUPANCY.CH0",
		  "UNC_IMC_NORMAL_OCCUPANCY.CH2"), NOCASE, S32,
	    "each read is queued >= 1 cycle and < 4096 (2 us); the channels share every read"),
	ROW("nhm", "UNC_IMC_NORMAL_OCCUPANCY.CH2", UX_IDENTITY,
	    CASER(UXK_DRAM, "v >= a - 64; v <= 4096 a + 4096; v + b + c >= 3/4 N",
		  "UNC_IMC_NORMAL_READS.CH2", "UNC_IMC_NORMAL_OCCUPANCY.CH0",
		  "UNC_IMC_NORMAL_OCCUPANCY.CH1"), NOCASE, S32,
	    "each read is queued >= 1 cycle and < 4096 (2 us); the channels share every read"),
	ROW("nhm", "UNC_IMC_NORMAL_READS.CH0", UX_IDENTITY,
	    CASER(UXK_DRAM, IDENT3("3/4 N", "4 N + 8192"), "UNC_IMC_NORMAL_READS.ANY",
		  "UNC_IMC_NORMAL_READS.CH1", "UNC_IMC_NORMAL_READS.CH2"), NOCASE, S32,
	    "ANY = CH0 + CH1 + CH2 (umask 07H)"),
	ROW("nhm", "UNC_IMC_NORMAL_READS.CH1", UX_IDENTITY,
	    CASER(UXK_DRAM, IDENT3("3/4 N", "4 N + 8192"), "UNC_IMC_NORMAL_READS.ANY",
		  "UNC_IMC_NORMAL_READS.CH0", "UNC_IMC_NORMAL_READS.CH2"), NOCASE, S32,
	    "ANY = CH0 + CH1 + CH2 (umask 07H)"),
	ROW("nhm", "UNC_IMC_NORMAL_READS.CH2", UX_IDENTITY,
	    CASER(UXK_DRAM, IDENT3("3/4 N", "4 N + 8192"), "UNC_IMC_NORMAL_READS.ANY",
		  "UNC_IMC_NORMAL_READS.CH0", "UNC_IMC_NORMAL_READS.CH1"), NOCASE, S32,
	    "ANY = CH0 + CH1 + CH2 (umask 07H)"),
	ROW("nhm", "UNC_IMC_NORMAL_READS.ANY", UX_CONTRAST, CASE(UXK_DRAM, DRIVE_IMC),
	    CASE(UXK_L2, "v <= 1/8 N + 8192"), S32,
	    "one DRAM read a flushed step, this socket's IMC (the buffer is local on one socket)"),
	ROW("nhm", "UNC_IMC_WRITES.FULL.CH0", UX_IDENTITY,
	    CASER(UXK_STORE_NT, IDENT3("9/10 N", "2 N + 8192"), "UNC_IMC_WRITES.FULL.ANY",
		  "UNC_IMC_WRITES.FULL.CH1", "UNC_IMC_WRITES.FULL.CH2"), NOCASE, S32,
	    "ANY = CH0 + CH1 + CH2 (umask 07H)"),
	ROW("nhm", "UNC_IMC_WRITES.FULL.CH1", UX_IDENTITY,
	    CASER(UXK_STORE_NT, IDENT3("9/10 N", "2 N + 8192"), "UNC_IMC_WRITES.FULL.ANY",
		  "UNC_IMC_WRITES.FULL.CH0", "UNC_IMC_WRITES.FULL.CH2"), NOCASE, S32,
	    "ANY = CH0 + CH1 + CH2 (umask 07H)"),
	ROW("nhm", "UNC_IMC_WRITES.FULL.CH2", UX_IDENTITY,
	    CASER(UXK_STORE_NT, IDENT3("9/10 N", "2 N + 8192"), "UNC_IMC_WRITES.FULL.ANY",
		  "UNC_IMC_WRITES.FULL.CH0", "UNC_IMC_WRITES.FULL.CH1"), NOCASE, S32,
	    "ANY = CH0 + CH1 + CH2 (umask 07H)"),
	ROW("nhm", "UNC_IMC_WRITES.FULL.ANY", UX_CONTRAST,
	    CASE(UXK_STORE_NT, "v >= 9/10 N; v <= 2 N + 8192"), CASE(UXK_L2, "v <= 1/16 N + 8192"),
	    "seed 000 Tables 32, 39",
	    "8 MOVNTI a line combine into one full-line write (seed: full lines, cached and uncached)"),
	ROW("nhm", "UNC_IMC_WRITES.PARTIAL.CH0", UX_QUIET,
	    CASER(UXK_STORE_NT, "v <= a + 64; a <= 1/16 N + 4096", "UNC_IMC_WRITES.PARTIAL.ANY"),
	    NOCASE, S32, "complete write-combined lines are full writes; a channel <= ANY"),
	ROW("nhm", "UNC_IMC_WRITES.PARTIAL.CH1", UX_QUIET,
	    CASER(UXK_STORE_NT, "v <= a + 64; a <= 1/16 N + 4096", "UNC_IMC_WRITES.PARTIAL.ANY"),
	    NOCASE, S32, "complete write-combined lines are full writes; a channel <= ANY"),
	ROW("nhm", "UNC_IMC_WRITES.PARTIAL.CH2", UX_QUIET,
	    CASER(UXK_STORE_NT, "v <= a + 64; a <= 1/16 N + 4096", "UNC_IMC_WRITES.PARTIAL.ANY"),
	    NOCASE, S32, "complete write-combined lines are full writes; a channel <= ANY"),
	ROW("nhm", "UNC_IMC_WRITES.PARTIAL.ANY", UX_QUIET,
	    CASER(UXK_STORE_NT, "v <= 1/16 N + 4096; a >= 9/10 N", "UNC_IMC_WRITES.FULL.ANY"), NOCASE,
	    S32, "the same stores make full writes (>= 9/10 N of them), not partial ones"),

	/* ---- Table 33: channel busy cycles ---- */
	ROW("nhm", "UNC_IMC_BUSY.READ.CH0", UX_IDENTITY,
	    CASER(UXK_DRAM, "v <= a + 64; v <= U + 1024; v + b + c >= 1/2 N",
		  "UNC_IMC_NORMAL_OCCUPANCY.CH0", "UNC_IMC_BUSY.READ.CH1", "UNC_IMC_BUSY.READ.CH2"),
	    NOCASE, S33, "busy cycles <= the read queue's occupancy; dependent reads are disjoint"),
	ROW("nhm", "UNC_IMC_BUSY.READ.CH1", UX_IDENTITY,
	    CASER(UXK_DRAM, "v <= a + 64; v <= U + 1024; v + b + c >= 1/2 N",
		  "UNC_IMC_NORMAL_OCCUPANCY.CH1", "UNC_IMC_BUSY.READ.CH0", "UNC_IMC_BUSY.READ.CH2"),
	    NOCASE, S33, "busy cycles <= the read queue's occupancy; dependent reads are disjoint"),
	ROW("nhm", "UNC_IMC_BUSY.READ.CH2", UX_IDENTITY,
	    CASER(UXK_DRAM, "v <= a + 64; v <= U + 1024; v + b + c >= 1/2 N",
		  "UNC_IMC_NORMAL_OCCUPANCY.CH2", "UNC_IMC_BUSY.READ.CH0", "UNC_IMC_BUSY.READ.CH1"),
	    NOCASE, S33, "busy cycles <= the read queue's occupancy; dependent reads are disjoint"),
	ROW("nhm", "UNC_IMC_BUSY.WRITE.CH0", UX_IDENTITY,
	    CASER(UXK_STORE_NT, "v <= U + 1024; 64 v + 64 a + 64 b >= c; c >= 9/10 N",
		  "UNC_IMC_BUSY.WRITE.CH1", "UNC_IMC_BUSY.WRITE.CH2", "UNC_IMC_WRITES.FULL.ANY"),
	    NOCASE, S33, "a write keeps its channel busy >= 1 cycle, at most 64 in flight a channel"),
	ROW("nhm", "UNC_IMC_BUSY.WRITE.CH1", UX_IDENTITY,
	    CASER(UXK_STORE_NT, "v <= U + 1024; 64 v + 64 a + 64 b >= c; c >= 9/10 N",
		  "UNC_IMC_BUSY.WRITE.CH0", "UNC_IMC_BUSY.WRITE.CH2", "UNC_IMC_WRITES.FULL.ANY"),
	    NOCASE, S33, "a write keeps its channel busy >= 1 cycle, at most 64 in flight a channel"),
	ROW("nhm", "UNC_IMC_BUSY.WRITE.CH2", UX_IDENTITY,
	    CASER(UXK_STORE_NT, "v <= U + 1024; 64 v + 64 a + 64 b >= c; c >= 9/10 N",
		  "UNC_IMC_BUSY.WRITE.CH0", "UNC_IMC_BUSY.WRITE.CH1", "UNC_IMC_WRITES.FULL.ANY"),
	    NOCASE, S33, "a write keeps its channel busy >= 1 cycle, at most 64 in flight a channel"),

	/* ---- Table 34: DRAM paging ---- */
	ROW("nhm", "UNC_DRAM_OPEN.CH0", UX_IDENTITY,
	    CASER(UXK_DRAM, "v <= a + b + 64; v + c + d >= 1/2 N", "UNC_DRAM_READ_CAS.CH0",
		  "UNC_DRAM_WRITE_CAS.CH0", "UNC_DRAM_OPEN.CH1", "UNC_DRAM_OPEN.CH2"), NOCASE, S34,
	    "random lines over 64 MiB almost never find their row open: one activate a read, each "
	    "followed by >= 1 CAS"),
	ROW("nhm", "UNC_DRAM_OPEN.CH1", UX_IDENTITY,
	    CASER(UXK_DRAM, "v <= a + b + 64; v + c + d >= 1/2 N", "UNC_DRAM_READ_CAS.CH1",
		  "UNC_DRAM_WRITE_CAS.CH1", "UNC_DRAM_OPEN.CH0", "UNC_DRAM_OPEN.CH2"), NOCASE, S34,
	    "random lines over 64 MiB almost never find their row open: one activate a read, each "
	    "followed by >= 1 CAS"),
	ROW("nhm", "UNC_DRAM_OPEN.CH2", UX_IDENTITY,
	    CASER(UXK_DRAM, "v <= a + b + 64; v + c + d >= 1/2 N", "UNC_DRAM_READ_CAS.CH2",
		  "UNC_DRAM_WRITE_CAS.CH2", "UNC_DRAM_OPEN.CH0", "UNC_DRAM_OPEN.CH1"), NOCASE, S34,
	    "random lines over 64 MiB almost never find their row open: one activate a read, each "
	    "followed by >= 1 CAS"),
	ROW("nhm", "UNC_DRAM_PAGE_CLOSE.CH0", UX_IDENTITY,
	    CASER(UXK_DRAM, "v <= a + 64; v + b + c + 64 d >= 9/10 a - 256; e >= 3/4 N",
		  "UNC_DRAM_OPEN.CH0", "UNC_DRAM_READ_CAS.AUTOPRE_CH0", "UNC_DRAM_WRITE_CAS.AUTOPRE_CH0",
		  "UNC_DRAM_PRE_ALL.CH0", "UNC_IMC_NORMAL_READS.ANY"),
	    NOCASE, "seed 000 Tables 34, 36",
	    "every page opened is closed: by a page close, an auto-precharge CAS or a precharge-all "
	    "(<= 64 banks); closes <= opens"),
	ROW("nhm", "UNC_DRAM_PAGE_CLOSE.CH1", UX_IDENTITY,
	    CASER(UXK_DRAM, "v <= a + 64; v + b + c + 64 d >= 9/10 a - 256; e >= 3/4 N",
		  "UNC_DRAM_OPEN.CH1", "UNC_DRAM_READ_CAS.AUTOPRE_CH1", "UNC_DRAM_WRITE_CAS.AUTOPRE_CH1",
		  "UNC_DRAM_PRE_ALL.CH1", "UNC_IMC_NORMAL_READS.ANY"),
	    NOCASE, "seed 000 Tables 34, 36",
	    "every page opened is closed: by a page close, an auto-precharge CAS or a precharge-all "
	    "(<= 64 banks); closes <= opens"),
	ROW("nhm", "UNC_DRAM_PAGE_CLOSE.CH2", UX_IDENTITY,
	    CASER(UXK_DRAM, "v <= a + 64; v + b + c + 64 d >= 9/10 a - 256; e >= 3/4 N",
		  "UNC_DRAM_OPEN.CH2", "UNC_DRAM_READ_CAS.AUTOPRE_CH2", "UNC_DRAM_WRITE_CAS.AUTOPRE_CH2",
		  "UNC_DRAM_PRE_ALL.CH2", "UNC_IMC_NORMAL_READS.ANY"),
	    NOCASE, "seed 000 Tables 34, 36",
	    "every page opened is closed: by a page close, an auto-precharge CAS or a precharge-all "
	    "(<= 64 banks); closes <= opens"),
	ROW("nhm", "UNC_DRAM_PAGE_MISS.CH0", UX_NONE, NOCASE, NOCASE, S34,
	    "whether a random access finds another row open (a miss) or a precharged bank depends "
	    "on the controller's page policy, set by the firmware; the one bound (<= opens) passes "
	    "on a dead counter"),
	ROW("nhm", "UNC_DRAM_PAGE_MISS.CH1", UX_NONE, NOCASE, NOCASE, S34,
	    "whether a random access finds another row open (a miss) or a precharged bank depends "
	    "on the controller's page policy, set by the firmware; the one bound (<= opens) passes "
	    "on a dead counter"),
	ROW("nhm", "UNC_DRAM_PAGE_MISS.CH2", UX_NONE, NOCASE, NOCASE, S34,
	    "whether a random access finds another row open (a miss) or a precharged bank depends "
	    "on the controller's page policy, set by the firmware; the one bound (<= opens) passes "
	    "on a dead counter"),

	/* ---- Table 35: isochronous and priority traffic ---- */
	NHM_QUIET_CYC("UNC_IMC_ISOC_OCCUPANCY.CH0", S35, WHY_ISOC),
	NHM_QUIET_CYC("UNC_IMC_ISOC_OCCUPANCY.CH1", S35, WHY_ISOC),
	NHM_QUIET_CYC("UNC_IMC_ISOC_OCCUPANCY.CH2", S35, WHY_ISOC),
	NHM_QUIET_CYC("UNC_IMC_ISOC_OCCUPANCY.ANY", S35, WHY_ISOC),
	NHM_QUIET("UNC_IMC_HIGH_PRIORITY_READS.CH0", S35, WHY_ISOC),
	NHM_QUIET("UNC_IMC_HIGH_PRIORITY_READS.CH1", S35, WHY_ISOC),
	NHM_QUIET("UNC_IMC_HIGH_PRIORITY_READS.CH2", S35, WHY_ISOC),
	NHM_QUIET("UNC_IMC_HIGH_PRIORITY_READS.ANY", S35, WHY_ISOC),
	NHM_QUIET("UNC_IMC_CRITICAL_PRIORITY_READS.CH0", S35, WHY_ISOC),
	NHM_QUIET("UNC_IMC_CRITICAL_PRIORITY_READS.CH1", S35, WHY_ISOC),
	NHM_QUIET("UNC_IMC_CRITICAL_PRIORITY_READS.CH2", S35, WHY_ISOC),
	NHM_QUIET("UNC_IMC_CRITICAL_PRIORITY_READS.ANY", S35, WHY_ISOC),
	NHM_QUIET_CYC("UNC_IMC_ISOC_FULL.READ.CH0", S35, WHY_ISOC),
	NHM_QUIET_CYC("UNC_IMC_ISOC_FULL.READ.CH1", S35, WHY_ISOC),
	NHM_QUIET_CYC("UNC_IMC_ISOC_FULL.READ.CH2", S35, WHY_ISOC),
	NHM_QUIET_CYC("UNC_IMC_ISOC_FULL.WRITE.CH0", S35, WHY_ISOC),
	NHM_QUIET_CYC("UNC_IMC_ISOC_FULL.WRITE.CH1", S35, WHY_ISOC),
	NHM_QUIET_CYC("UNC_IMC_ISOC_FULL.WRITE.CH2", S35, WHY_ISOC),

	/* ---- Table 36: DRAM commands ---- */
	ROW("nhm", "UNC_DRAM_READ_CAS.CH0", UX_IDENTITY,
	    CASER(UXK_DRAM, "v >= 49/50 a - 256; v <= 2 a + 2 d + 2 e + 4096; v + b + c >= 3/4 N",
		  "UNC_IMC_NORMAL_READS.CH0", "UNC_DRAM_READ_CAS.CH1", "UNC_DRAM_READ_CAS.CH2",
		  "UNC_IMC_HIGH_PRIORITY_READS.CH0", "UNC_IMC_CRITICAL_PRIORITY_READS.CH0"), NOCASE,
	    "seed 000 Tables 32, 35, 36",
	    "every read request is one read CAS; patrol scrubs and ECC read-modify-writes add few"),
	ROW("nhm", "UNC_DRAM_READ_CAS.CH1", UX_IDENTITY,
	    CASER(UXK_DRAM, "v >= 49/50 a - 256; v <= 2 a + 2 d + 2 e + 4096; v + b + c >= 3/4 N",
		  "UNC_IMC_NORMAL_READS.CH1", "UNC_DRAM_READ_CAS.CH0", "UNC_DRAM_READ_CAS.CH2",
		  "UNC_IMC_HIGH_PRIORITY_READS.CH1", "UNC_IMC_CRITICAL_PRIORITY_READS.CH1"), NOCASE,
	    "seed 000 Tables 32, 35, 36",
	    "every read request is one read CAS; patrol scrubs and ECC read-modify-writes add few"),
	ROW("nhm", "UNC_DRAM_READ_CAS.CH2", UX_IDENTITY,
	    CASER(UXK_DRAM, "v >= 49/50 a - 256; v <= 2 a + 2 d + 2 e + 4096; v + b + c >= 3/4 N",
		  "UNC_IMC_NORMAL_READS.CH2", "UNC_DRAM_READ_CAS.CH0", "UNC_DRAM_READ_CAS.CH1",
		  "UNC_IMC_HIGH_PRIORITY_READS.CH2", "UNC_IMC_CRITICAL_PRIORITY_READS.CH2"), NOCASE,
	    "seed 000 Tables 32, 35, 36",
	    "every read request is one read CAS; patrol scrubs and ECC read-modify-writes add few"),
	ROW("nhm", "UNC_DRAM_READ_CAS.AUTOPRE_CH0", UX_IDENTITY,
	    CASER(UXK_DRAM, "v <= a + 64; v + b + c + 64 d >= 9/10 a - 256; e >= 3/4 N",
		  "UNC_DRAM_OPEN.CH0", "UNC_DRAM_PAGE_CLOSE.CH0", "UNC_DRAM_WRITE_CAS.AUTOPRE_CH0",
		  "UNC_DRAM_PRE_ALL.CH0", "UNC_IMC_NORMAL_READS.ANY"), NOCASE, "seed 000 Tables 34, 36",
	    "with closes and precharge-alls it closes every page opened; each closes one opened"),
	ROW("nhm", "UNC_DRAM_READ_CAS.AUTOPRE_CH1", UX_IDENTITY,
	    CASER(UXK_DRAM, "v <= a + 64; v + b + c + 64 d >= 9/10 a - 256; e >= 3/4 N",
		  "UNC_DRAM_OPEN.CH1", "UNC_DRAM_PAGE_CLOSE.CH1", "UNC_DRAM_WRITE_CAS.AUTOPRE_CH1",
		  "UNC_DRAM_PRE_ALL.CH1", "UNC_IMC_NORMAL_READS.ANY"), NOCASE, "seed 000 Tables 34, 36",
	    "with closes and precharge-alls it closes every page opened; each closes one opened"),
	ROW("nhm", "UNC_DRAM_READ_CAS.AUTOPRE_CH2", UX_IDENTITY,
	    CASER(UXK_DRAM, "v <= a + 64; v + b + c + 64 d >= 9/10 a - 256; e >= 3/4 N",
		  "UNC_DRAM_OPEN.CH2", "UNC_DRAM_PAGE_CLOSE.CH2", "UNC_DRAM_WRITE_CAS.AUTOPRE_CH2",
		  "UNC_DRAM_PRE_ALL.CH2", "UNC_IMC_NORMAL_READS.ANY"), NOCASE, "seed 000 Tables 34, 36",
	    "with closes and precharge-alls it closes every page opened; each closes one opened"),
	ROW("nhm", "UNC_DRAM_WRITE_CAS.CH0", UX_IDENTITY,
	    CASER(UXK_STORE_NT, "v >= 49/50 a - 256; v <= 2 a + 2 b + 4096; v + c + d >= 9/10 N",
		  "UNC_IMC_WRITES.FULL.CH0", "UNC_IMC_WRITES.PARTIAL.CH0", "UNC_DRAM_WRITE_CAS.CH1",
		  "UNC_DRAM_WRITE_CAS.CH2"), NOCASE, "seed 000 Tables 32, 36",
	    "every full-line write is one write CAS"),
	ROW("nhm", "UNC_DRAM_WRITE_CAS.CH1", UX_IDENTITY,
	    CASER(UXK_STORE_NT, "v >= 49/50 a - 256; v <= 2 a + 2 b + 4096; v + c + d >= 9/10 N",
		  "UNC_IMC_WRITES.FULL.CH1", "UNC_IMC_WRITES.PARTIAL.CH1", "UNC_DRAM_WRITE_CAS.CH0",
		  "UNC_DRAM_WRITE_CAS.CH2"), NOCASE, "seed 000 Tables 32, 36",
	    "every full-line write is one write CAS"),
	ROW("nhm", "UNC_DRAM_WRITE_CAS.CH2", UX_IDENTITY,
	    CASER(UXK_STORE_NT, "v >= 49/50 a - 256; v <= 2 a + 2 b + 4096; v + c + d >= 9/10 N",
		  "UNC_IMC_WRITES.FULL.CH2", "UNC_IMC_WRITES.PARTIAL.CH2", "UNC_DRAM_WRITE_CAS.CH0",
		  "UNC_DRAM_WRITE_CAS.CH1"), NOCASE, "seed 000 Tables 32, 36",
	    "every full-line write is one write CAS"),
	ROW("nhm", "UNC_DRAM_WRITE_CAS.AUTOPRE_CH0", UX_IDENTITY,
	    CASER(UXK_STORE_NT, "v <= a + 64; v + b + c + 64 d >= 9/10 a - 256; e >= 9/10 N",
		  "UNC_DRAM_OPEN.CH0", "UNC_DRAM_PAGE_CLOSE.CH0", "UNC_DRAM_READ_CAS.AUTOPRE_CH0",
		  "UNC_DRAM_PRE_ALL.CH0", "UNC_IMC_WRITES.FULL.ANY"), NOCASE, "seed 000 Tables 34, 36",
	    "with closes and precharge-alls it closes every page opened; each closes one opened"),
	ROW("nhm", "UNC_DRAM_WRITE_CAS.AUTOPRE_CH1", UX_IDENTITY,
	    CASER(UXK_STORE_NT, "v <= a + 64; v + b + c + 64 d >= 9/10 a - 256; e >= 9/10 N",
		  "UNC_DRAM_OPEN.CH1", "UNC_DRAM_PAGE_CLOSE.CH1", "UNC_DRAM_READ_CAS.AUTOPRE_CH1",
		  "UNC_DRAM_PRE_ALL.CH1", "UNC_IMC_WRITES.FULL.ANY"), NOCASE, "seed 000 Tables 34, 36",
	    "with closes and precharge-alls it closes every page opened; each closes one opened"),
	ROW("nhm", "UNC_DRAM_WRITE_CAS.AUTOPRE_CH2", UX_IDENTITY,
	    CASER(UXK_STORE_NT, "v <= a + 64; v + b + c + 64 d >= 9/10 a - 256; e >= 9/10 N",
		  "UNC_DRAM_OPEN.CH2", "UNC_DRAM_PAGE_CLOSE.CH2", "UNC_DRAM_READ_CAS.AUTOPRE_CH2",
		  "UNC_DRAM_PRE_ALL.CH2", "UNC_IMC_WRITES.FULL.ANY"), NOCASE, "seed 000 Tables 34, 36",
	    "with closes and precharge-alls it closes every page opened; each closes one opened"),
	ROW("nhm", "UNC_DRAM_REFRESH.CH0", UX_RANGE,
	    CASER(UXK_DRAM, "v <= 11/10 T + 64; v + a + b >= 1/10 T - 16", "UNC_DRAM_REFRESH.CH1",
		  "UNC_DRAM_REFRESH.CH2"), NOCASE, S36,
	    "DDR3 refreshes each rank every 7.8 us (3.9 us hot): the populated channels >= T/10 "
	    "with 8 postponed; a channel <= 4 ranks hot"),
	ROW("nhm", "UNC_DRAM_REFRESH.CH1", UX_RANGE,
	    CASER(UXK_DRAM, "v <= 11/10 T + 64; v + a + b >= 1/10 T - 16", "UNC_DRAM_REFRESH.CH0",
		  "UNC_DRAM_REFRESH.CH2"), NOCASE, S36,
	    "DDR3 refreshes each rank every 7.8 us (3.9 us hot): the populated channels >= T/10 "
	    "with 8 postponed; a channel <= 4 ranks hot"),
	ROW("nhm", "UNC_DRAM_REFRESH.CH2", UX_RANGE,
	    CASER(UXK_DRAM, "v <= 11/10 T + 64; v + a + b >= 1/10 T - 16", "UNC_DRAM_REFRESH.CH0",
		  "UNC_DRAM_REFRESH.CH1"), NOCASE, S36,
	    "DDR3 refreshes each rank every 7.8 us (3.9 us hot): the populated channels >= T/10 "
	    "with 8 postponed; a channel <= 4 ranks hot"),
	ROW("nhm", "UNC_DRAM_PRE_ALL.CH0", UX_NONE, NOCASE, NOCASE, S36,
	    "precharge-all is issued before refreshes and power-down entries as the controller's "
	    "policy decides (all pages may already be closed); no kernel must drive it"),
	ROW("nhm", "UNC_DRAM_PRE_ALL.CH1", UX_NONE, NOCASE, NOCASE, S36,
	    "precharge-all is issued before refreshes and power-down entries as the controller's "
	    "policy decides (all pages may already be closed); no kernel must drive it"),
	ROW("nhm", "UNC_DRAM_PRE_ALL.CH2", UX_NONE, NOCASE, NOCASE, S36,
	    "precharge-all is issued before refreshes and power-down entries as the controller's "
	    "policy decides (all pages may already be closed); no kernel must drive it"),

	/* ---- Table 38: QHL opcode matching (MSR 396H) ---- */
	ROW("nhm", "UNC_ADDR_OPCODE_MATCH.IOH.NONE", UX_EXACT, CASE(UXK_DRAM, "v >= 0; v <= 0"), NOCASE,
	    "seed 000 Tables 37, 38", "Match_Select 000 (MSR 396H = 0) powers the match logic down: 0"),
	NHM_QUIET("UNC_ADDR_OPCODE_MATCH.IOH.RSPFWDI", S38, WHY_PEER),
	NHM_QUIET("UNC_ADDR_OPCODE_MATCH.IOH.RSPFWDS", S38, WHY_PEER),
	NHM_QUIET("UNC_ADDR_OPCODE_MATCH.IOH.RSPIWB", S38, WHY_PEER),
	ROW("nhm", "UNC_ADDR_OPCODE_MATCH.LOCAL.NONE", UX_EXACT, CASE(UXK_DRAM, "v >= 0; v <= 0"), NOCASE,
	    "seed 000 Tables 37, 38", "Match_Select 000 (MSR 396H = 0) powers the match logic down: 0"),
	NHM_QUIET("UNC_ADDR_OPCODE_MATCH.LOCAL.RSPFWDI", S38, WHY_PEER),
	NHM_QUIET("UNC_ADDR_OPCODE_MATCH.LOCAL.RSPFWDS", S38, WHY_PEER),
	NHM_QUIET("UNC_ADDR_OPCODE_MATCH.LOCAL.RSPIWB", S38, WHY_PEER),
	ROW("nhm", "UNC_ADDR_OPCODE_MATCH.REMOTE.NONE", UX_EXACT, CASE(UXK_DRAM, "v >= 0; v <= 0"), NOCASE,
	    "seed 000 Tables 37, 38", "Match_Select 000 (MSR 396H = 0) powers the match logic down: 0"),
	NHM_QUIET("UNC_ADDR_OPCODE_MATCH.REMOTE.RSPFWDI", S38, WHY_PEER),
	NHM_QUIET("UNC_ADDR_OPCODE_MATCH.REMOTE.RSPFWDS", S38, WHY_PEER),
	NHM_QUIET("UNC_ADDR_OPCODE_MATCH.REMOTE.RSPIWB", S38, WHY_PEER),

	/* ---- Skylake client: CBo (Table 3-1), every count summed over the CBos (seed 3.1) ---- */
	ROW("skl", "UNC_CBO_XSNP_RESPONSE.MISS_XCORE", UX_CONTRAST,
	    CASE(UXK_XDROP, "v >= 1/4 N; v <= 2 N + 1024"), CASE(UXK_LLC, QUIET_CACHE), S31_1,
	    "lines another core read and dropped silently still name it in the L3: a snoop that "
	    "misses; lines no other core read need no snoop"),
	ROW("skl", "UNC_CBO_XSNP_RESPONSE.MISS_EVICTION", UX_CONTRAST,
	    CASE(UXK_EVICT_CLEAN, "v >= 1/2 N; v <= 2 N + 4096"), CASE(UXK_LLC, QUIET_CACHE), S31_1,
	    "each fill evicts a line this core read long ago and dropped from its L2: the "
	    "back-invalidation snoop misses; a chase within half the LLC evicts nothing"),
	ROW("skl", "UNC_CBO_XSNP_RESPONSE.HIT_XCORE", UX_CONTRAST,
	    CASE(UXK_XCLEAN, "v >= 1/2 N; v <= 2 N + 1024"), CASE(UXK_LLC, QUIET_CACHE), S31_1,
	    "each line another core holds clean (E) is snooped and hit"),
	ROW("skl", "UNC_CBO_XSNP_RESPONSE.HITM_XCORE", UX_CONTRAST,
	    CASE(UXK_PINGPONG, "v >= 9/10 N; v <= 11/10 N + 64"), CASE(UXK_LLC, QUIET_CACHE), S31_1,
	    "every hand-off reads the line the other core just modified"),
	ROW("skl", "UNC_CBO_CACHE_LOOKUP.WRITE_M", UX_IDENTITY,
	    CASER(UXK_STORE_LLC, "v + a >= 1/2 N; v + a <= 21/20 b + 256; b <= 3 N + 1024",
		  "UNC_CBO_CACHE_LOOKUP.WRITE_ES", "UNC_CBO_CACHE_LOOKUP.WRITE_MESI"),
	    NOCASE, S31_1, "each line's writeback looks up a line the inclusive LLC holds (M, E or "
	    "S, never I): WRITE_M + WRITE_ES >= writebacks"),
	ROW("skl", "UNC_CBO_CACHE_LOOKUP.ANY_M", UX_IDENTITY,
	    CASER(UXK_STORE_LLC, "v >= 1/2 N; v <= 21/20 b + 256; v >= 19/20 a - 256",
		  "UNC_CBO_CACHE_LOOKUP.WRITE_M", "UNC_CBO_CACHE_LOOKUP.ANY_MESI"),
	    NOCASE, S31_1, "each line was written back by an earlier run and is M in the LLC when "
	    "this run asks for it; WRITE_M <= ANY_M <= ANY_MESI (5% + 256: counted in separate "
	    "runs of the kernel, two CBo counters each)"),
	ROW("skl", "UNC_CBO_CACHE_LOOKUP.READ_I", UX_CONTRAST,
	    CASER(UXK_DRAM, DRIVE_DRAM "; v <= a + 64", "UNC_CBO_CACHE_LOOKUP.READ_MESI"),
	    CASE(UXK_LLC, QUIET_CACHE), S31_1, "flushed lines are not in the LLC (I); LLC hits are not I"),
	ROW("skl", "UNC_CBO_CACHE_LOOKUP.ANY_I", UX_IDENTITY,
	    CASER(UXK_DRAM, "v >= 19/20 a - 256; a >= 3/4 N; v <= 21/20 b + 256; b <= 5 N + 4096",
		  "UNC_CBO_CACHE_LOOKUP.READ_I", "UNC_CBO_CACHE_LOOKUP.ANY_MESI"),
	    CASE(UXK_LLC, "v <= 1/8 N + 1024"), S31_1,
	    "READ_I <= ANY_I <= ANY_MESI, each flushed step one (5% + 256: separate runs)"),
	ROW("skl", "UNC_CBO_CACHE_LOOKUP.READ_MESI", UX_CONTRAST, CASE(UXK_LLC, DRIVE_LLC),
	    CASE(UXK_L2, QUIET_CACHE), S31_1, "every L2 miss is a read lookup; L2 hits never reach a CBo"),
	ROW("skl", "UNC_CBO_CACHE_LOOKUP.WRITE_MESI", UX_CONTRAST, CASE(UXK_STORE_LLC, DRIVE_LLC),
	    CASE(UXK_LLC, QUIET_CACHE), S31_1,
	    "every line stored beyond the L2 is written back to the LLC; a read-only chase writes none"),
	ROW("skl", "UNC_CBO_CACHE_LOOKUP.ANY_MESI", UX_IDENTITY,
	    CASER(UXK_LLC, "v >= a - 64; a >= 1/2 N; v <= 4 N + 1024", "UNC_CBO_CACHE_LOOKUP.READ_MESI"),
	    NOCASE, S31_1, "ANY_MESI >= READ_MESI, every L2 miss one"),
	ROW("skl", "UNC_CBO_CACHE_LOOKUP.ANY_ES", UX_IDENTITY,
	    CASER(UXK_LLC, "v >= 19/20 a - 256; a >= 1/2 N; v <= 21/20 b + 256; b <= 4 N + 1024",
		  "UNC_CBO_CACHE_LOOKUP.READ_ES", "UNC_CBO_CACHE_LOOKUP.ANY_MESI"), NOCASE, S31_1,
	    "READ_ES <= ANY_ES <= ANY_MESI; clean lines only this core reads are E in the LLC"),
	ROW("skl", "UNC_CBO_CACHE_LOOKUP.READ_ES", UX_CONTRAST,
	    CASER(UXK_LLC, "v >= 1/2 N; v <= a + 64", "UNC_CBO_CACHE_LOOKUP.READ_MESI"),
	    CASE(UXK_DRAM, "v <= 1/4 N + 4096"), S31_1,
	    "clean lines only this core read are E in the LLC, each counted once (<= READ_MESI); "
	    "flushed lines are I"),
	ROW("skl", "UNC_CBO_CACHE_LOOKUP.WRITE_ES", UX_IDENTITY,
	    CASER(UXK_STORE_LLC, "v + a >= 1/2 N; v + a <= 21/20 b + 256; b <= 3 N + 1024",
		  "UNC_CBO_CACHE_LOOKUP.WRITE_M", "UNC_CBO_CACHE_LOOKUP.WRITE_MESI"),
	    NOCASE, S31_1, "each line's writeback looks up a line the inclusive LLC holds (M, E or "
	    "S, never I): WRITE_M + WRITE_ES >= writebacks"),

	/* ---- Skylake client: ARB (Table 3-2) and the fixed counter ---- */
	ROW("skl", "UNC_ARB_TRK_OCCUPANCY.ALL", UX_IDENTITY,
	    CASER(UXK_DRAM, "v >= a; a >= 3/4 N; v <= 128 U + 1024", "UNC_ARB_TRK_REQUESTS.ALL"), NOCASE,
	    S32_1, "each request is valid >= 1 cycle"),
	ROW("skl", "UNC_ARB_TRK_REQUESTS.ALL", UX_CONTRAST, CASE(UXK_DRAM, DRIVE_DRAM),
	    CASE(UXK_L2, QUIET_CACHE), S32_1, "every LLC miss is an outgoing request; L2 hits send none"),
	ROW("skl", "UNC_ARB_TRK_REQUESTS.WRITES", UX_CONTRAST,
	    CASE(UXK_STORE_NT, "v >= 9/10 N; v <= 2 N + 4096"), CASE(UXK_LLC, QUIET_CACHE), S32_1,
	    "one full-line write a step of MOVNTI; a read-only chase writes nothing"),
	ROW("skl", "UNC_ARB_COH_TRK_REQUESTS.ALL", UX_CONTRAST,
	    CASE(UXK_DRAM, "v >= 1/2 N; v <= 4 N + 4096"), CASE(UXK_L2, QUIET_CACHE), S32_1,
	    "every cacheable LLC miss allocates a coherent-tracker entry"),
	ROW("skl", "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", UX_RANGE,
	    CASE(UXK_DRAM, "v >= 1/2 N; v <= U + 1024"), NOCASE, S32_1,
	    "dependent misses: disjoint request periods, >= 1 cycle each; a cycle count <= UCLK"),
	ROW("skl", "UNC_CLOCK.SOCKET", UX_RANGE, CASE(UXK_LOOP, "v >= 200 T; v <= 6000 T"), NOCASE,
	    S32_1, "a client ring clock: 0.8-4.8 GHz, with margin (a 24 MHz or 100 MHz clock fails)"),

	/* ---- Skylake client: the IMC's free-running counters (Table 3-3) ---- */
	ROW("skl", "DRAM_GT_REQUESTS", UX_QUIET, CASE(UXK_DRAM, "v <= 1/8 N + 8192"), NOCASE, S33_1,
	    "no graphics driver runs: the render engine is idle"),
	ROW("skl", "DRAM_IA_REQUESTS", UX_CONTRAST, CASE(UXK_DRAM, DRIVE_IMC),
	    CASE(UXK_L2, "v <= 1/8 N + 8192"), S33_1, "the core's own reads, one a flushed step"),
	ROW("skl", "DRAM_IO_REQUESTS", UX_QUIET, CASE(UXK_DRAM, "v <= 64 T + 8192"), NOCASE, S33_1,
	    "display scan-out is the only IO left running: at most 64 lines a microsecond (two 4K "
	    "displays at 60 Hz)"),
	ROW("skl", "DRAM_DATA_READS", UX_CONTRAST,
	    CASER(UXK_DRAM, DRIVE_IMC "; 10 v <= 11 a + 11 b + 11 c + 10240", "DRAM_GT_REQUESTS",
		  "DRAM_IA_REQUESTS", "DRAM_IO_REQUESTS"),
	    CASE(UXK_L2, "v <= 1/8 N + 8192"), S33_1,
	    "one 64-byte RdCAS a flushed step, never more than the requests of every agent"),
	ROW("skl", "DRAM_DATA_WRITES", UX_CONTRAST, CASE(UXK_STORE_NT, "v >= 9/10 N; v <= 2 N + 8192"),
	    CASE(UXK_LLC, "v <= 1/16 N + 8192"), S33_1, "one WrCAS a full line of MOVNTI"),
};

const unsigned ux_nrows = sizeof(ux_rows) / sizeof(ux_rows[0]);
