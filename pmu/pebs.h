/* SPDX-License-Identifier: MIT */
/*
 * PEBS records: one struct per record format, each with what it adds to the one before, and a
 * decoder that walks a PEBS buffer into one normalized sample type, choosing the layout by the
 * format IA32_PERF_CAPABILITIES[11:8] advertises and never reading past the DS index or the
 * buffer.
 *
 * Sources: SDM Vol. 3B 18.6.2.4 (format 0, Core), 18.8.1.1 / Table "PEBS Record Format for
 * Intel Core i7 Processor Family" (format 1: + IA32_PERF_GLOBAL_STATUS, data linear address,
 * data source, latency), 18.10.5.1 (format 2, Haswell: + eventing IP, TX abort information),
 * 18.13.1 (format 3, Skylake: + TSC; seed 003_96ceb334bbe99654.txt Table 18-57: data linear
 * address at 98H, store status at A0H), 18.9.2 "Adaptive PEBS" (formats 4 and 5: basic group
 * and the MSR_PEBS_DATA_CFG groups); seed 000_666bff9af8f20138.txt "Latency Event" and Table 5
 * (the data source encoding). Field names follow Linux's arch/x86/events/intel/ds.c.
 */
#ifndef PMU_PEBS_H
#define PMU_PEBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "pmu/ds.h"

/* Format 0 (Core 2, 64-bit): the architectural state after the instruction. */
struct pebs_record_core {
	uint64_t flags, ip;				/* 00H RFLAGS, 08H RIP */
	uint64_t ax, bx, cx, dx;			/* 10H.. */
	uint64_t si, di, bp, sp;			/* 30H.. */
	uint64_t r8, r9, r10, r11;			/* 50H.. */
	uint64_t r12, r13, r14, r15;			/* 70H.. */
};
_Static_assert(sizeof(struct pebs_record_core) == 0x90, "PEBS format 0");

/* Format 1 (Nehalem): + GLOBAL_STATUS, data linear address, data source, load latency. */
struct pebs_record_nhm {
	struct pebs_record_core core;
	uint64_t status;				/* 90H IA32_PERF_GLOBAL_STATUS */
	uint64_t dla;					/* 98H data linear address */
	uint64_t dse;					/* A0H data source (seed 000 Table 5) */
	uint64_t lat;					/* A8H load latency, core cycles */
};
_Static_assert(offsetof(struct pebs_record_nhm, status) == 0x90, "PEBS format 1");
_Static_assert(offsetof(struct pebs_record_nhm, dla) == 0x98, "PEBS format 1");
_Static_assert(sizeof(struct pebs_record_nhm) == 0xb0, "PEBS format 1");

/* Format 2 (Haswell): + the eventing IP (the instruction that caused the event) and TSX
 * abort information. */
struct pebs_record_hsw {
	struct pebs_record_nhm nhm;
	uint64_t real_ip;				/* B0H eventing IP */
	uint64_t tsx_tuning;				/* B8H */
};
_Static_assert(offsetof(struct pebs_record_hsw, real_ip) == 0xb0, "PEBS format 2");
_Static_assert(sizeof(struct pebs_record_hsw) == 0xc0, "PEBS format 2");

/* Format 3 (Skylake): + TSC. */
struct pebs_record_skl {
	struct pebs_record_hsw hsw;
	uint64_t tsc;					/* C0H */
};
_Static_assert(offsetof(struct pebs_record_skl, tsc) == 0xc0, "PEBS format 3");
_Static_assert(sizeof(struct pebs_record_skl) == 0xc8, "PEBS format 3");
/* Seed 003 Table 18-57: in the Skylake record 98H is the data linear address, A0H the
 * store status (bit 0: the store hit the L1D). */
_Static_assert(offsetof(struct pebs_record_skl, hsw.nhm.dla) == 0x98, "seed 003 Table 18-57");
_Static_assert(offsetof(struct pebs_record_skl, hsw.nhm.dse) == 0xa0, "seed 003 Table 18-57");

/* Formats 4 and 5 (adaptive PEBS): the basic group, then the groups MSR_PEBS_DATA_CFG (or,
 * for a counter without its adaptive bit, none) selects, in this order. */
struct pebs_basic {
	uint64_t format_size;				/* 00H: 63:48 record size, 47:32 retire
							 * latency (PERF_CAP[17]), 31:0 groups */
	uint64_t ip;					/* 08H: eventing IP */
	uint64_t applicable_counters;			/* 10H: the counters this record is for */
	uint64_t tsc;					/* 18H */
};
_Static_assert(sizeof(struct pebs_basic) == 0x20, "adaptive basic group");
#define PEBS_BASIC_SIZE_SHIFT	48
#define PEBS_BASIC_GROUPS	0x00000000ffffffffULL
#define PEBS_BASIC_RETIRE_LAT	0x0000ffff00000000ULL
#define PEBS_BASIC_RETIRE_LAT_SHIFT 32

struct pebs_meminfo {					/* DATA_CFG bit 0 */
	uint64_t address;				/* data linear address */
	uint64_t aux;					/* data source */
	uint64_t latency;				/* load latency: bits 31:0 up to Ice
							 * Lake; Golden Cove: 15:0 instruction
							 * latency, 47:32 cache latency */
	uint64_t tsx_tuning;
};
_Static_assert(sizeof(struct pebs_meminfo) == 0x20, "adaptive memory group");

struct pebs_gprs {					/* DATA_CFG bit 1 */
	uint64_t flags, ip;				/* ip: the next instruction (off by one) */
	uint64_t ax, cx, dx, bx, sp, bp, si, di;	/* note the order: not format 0's */
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
};
_Static_assert(sizeof(struct pebs_gprs) == 0x90, "adaptive GPR group");
_Static_assert(offsetof(struct pebs_gprs, bx) == 0x28, "adaptive GPR group");

struct pebs_xmm {					/* DATA_CFG bit 2 */
	uint64_t xmm[16 * 2];				/* XMM0..15, low quadword first */
};
_Static_assert(sizeof(struct pebs_xmm) == 0x100, "adaptive XMM group");

struct pebs_lbr_entry {					/* DATA_CFG bit 3: N of them */
	uint64_t from, to, info;
};
_Static_assert(sizeof(struct pebs_lbr_entry) == 0x18, "adaptive LBR entry");

#define PEBS_MAX_LBR	32	/* DATA_CFG[31:24] + 1, at most */

/* Pure: the size of an adaptive record with these groups (DATA_CFG bits 3:0, LBR entries from
 * bits 31:24). */
unsigned pebs_adaptive_size(uint64_t groups);
/* Pure: the size of a record of a fixed format (0-3), or 0 for the adaptive formats. */
unsigned pebs_record_size(unsigned format);

/* General registers, in one order whatever the format. */
struct pebs_regs {
	uint64_t flags, ip;
	uint64_t ax, bx, cx, dx, si, di, bp, sp;
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
};

/* One record, normalized. has_* say which fields the record carried. */
struct pebs_sample {
	unsigned format;
	uint64_t addr;			/* where it starts */
	unsigned size;
	uint64_t groups;		/* adaptive: format_size[47:0] */
	bool has_regs;
	struct pebs_regs regs;		/* regs.ip: the record's IP (formats 0-3, the adaptive GPR
					 * group): with a trap-like assist, the next instruction */
	bool has_eventing_ip;
	uint64_t eventing_ip;		/* format 2-3 real IP; adaptive basic IP */
	bool has_status;
	uint64_t status;		/* formats 1-3: GLOBAL_STATUS; adaptive: applicable
					 * counters */
	bool has_mem;
	uint64_t dla, dse, latency;	/* latency: the load's, in core cycles */
	uint64_t instr_latency;		/* Golden Cove's split field: the instruction's */
	bool has_retire_latency;
	uint64_t retire_latency;	/* PERF_CAPABILITIES[17]: basic group bits 47:32 */
	bool has_tsc;
	uint64_t tsc;
	bool has_xmm;
	uint64_t xmm[32];
	unsigned nr_lbr;
	struct pebs_lbr_entry lbr[PEBS_MAX_LBR];
};

/* How the CPU fills fields whose meaning changed within a format. */
#define PEBS_READ_TIMING	(1U << 0)	/* PERF_CAPABILITIES[17]: retire latency in the
						 * basic group's bits 47:32 */
#define PEBS_READ_SPLIT_LATENCY	(1U << 1)	/* Golden Cove: the memory group's latency is
						 * instruction (15:0) and cache (47:32) */

/* Walks the records between the DS area's base and index. */
struct pebs_reader {
	const uint8_t *mem;		/* the buffer's memory */
	uint64_t base, index, pos;	/* linear addresses */
	unsigned format, flags;
	unsigned count;			/* records returned */
};

/*
 * Checks ds against the buffer (ds_check_pebs(); fixed formats need the index on a record
 * boundary) and a known format, then readies r at the base. mem is the buffer's memory
 * (bytes long), buf its linear address. 0, or -1 with err naming what is wrong.
 */
int pebs_reader_init(struct pebs_reader *r, unsigned format, unsigned flags,
		     const struct ds_area *ds, const void *mem, uint64_t buf, uint64_t bytes,
		     char *err, size_t errlen);
/* The next record into s: 1, 0 past the last, or -1 with err for a record that cannot be
 * one (an adaptive size that disagrees with its groups or runs past the index). */
int pebs_reader_next(struct pebs_reader *r, struct pebs_sample *s, char *err, size_t errlen);

/* Data source encoding, seed 000 Table 5 (Nehalem). Later parts keep the low 4 bits and the
 * levels, but some values' snoop details differ (0x5-0x7 from Sandy Bridge, 0x8, 0x9, 0xB-0xD
 * from Skylake: Linux ds.c pebs_data_source); the names below are Nehalem's. */
#define PEBS_DSE_SOURCE(dse)	((unsigned)((dse) & 0xf))
#define PEBS_DSE_UNKNOWN_MISS	0x0
#define PEBS_DSE_L1		0x1
#define PEBS_DSE_LFB		0x2
#define PEBS_DSE_L2		0x3
#define PEBS_DSE_L3		0x4
#define PEBS_DSE_L3_SNOOP	0x5
#define PEBS_DSE_L3_HITM	0x6
#define PEBS_DSE_L3_NODETAIL	0x7
#define PEBS_DSE_REMOTE_FWD	0x8
#define PEBS_DSE_REMOTE_HITM	0x9
#define PEBS_DSE_LOCAL_DRAM_S	0xa
#define PEBS_DSE_REMOTE_DRAM_S	0xb
#define PEBS_DSE_LOCAL_DRAM_E	0xc
#define PEBS_DSE_REMOTE_DRAM_E	0xd
#define PEBS_DSE_IO		0xe
#define PEBS_DSE_UNCACHED	0xf
const char *pebs_dse_name(unsigned source);
/* The cache level a source means: 1 L1 or fill buffer, 2 L2, 3 L3 (any snoop result), 4
 * beyond the L3 (DRAM, a remote cache; 0 unknown miss), 0 I/O and uncached. */
unsigned pebs_dse_level(unsigned source);

#endif /* PMU_PEBS_H */
