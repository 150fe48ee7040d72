/* SPDX-License-Identifier: MIT */
/*
 * Host tests of the debug store and PEBS decoding (pmu/ds.c, pmu/pebs.c): the DS area as the
 * code builds it, field by field against the SDM layout; crafted records of every format;
 * broken buffers that must give a clear error and never a read outside the buffer (the
 * buffers are heap blocks of exactly the size handed to the decoder, so AddressSanitizer
 * catches any stray read); availability reasons naming the bit.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "arch/x86/msr.h"
#include "pmu/ds.h"
#include "pmu/pebs.h"

#define ERRLEN 200

static uint64_t addr_of(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

/* A heap buffer of exactly `bytes` (ASan's redzone right behind it). */
static uint8_t *buffer(size_t bytes)
{
	uint8_t *b = malloc(bytes);	/* 16-byte aligned */

	assert_non_null(b);
	memset(b, 0xa5, bytes);
	return b;
}

/* The SDM's 64-bit DS save area, by raw byte offset: what ds_setup_*() writes lands there. */
static void test_ds_area_layout(void **state)
{
	struct ds_area ds;
	const uint8_t *raw = (const uint8_t *)&ds;
	uint64_t v;
	char err[ERRLEN];
	(void)state;

	memset(&ds, 0, sizeof(ds));
	assert_int_equal(ds_setup_bts(&ds, 0x100000, 24 * 100, 90, err, sizeof(err)), 0);
	assert_int_equal(ds_setup_pebs(&ds, 0x200000, 0xc8 * 10 + 7, 0xc8, 2, err, sizeof(err)), 0);
	ds.pebs_counter_reset[0] = 0x1111;
	ds.pebs_counter_reset[3] = 0x4444;
	ds.pebs_counter_reset[DS_FMT4_FIXED_SLOT] = 0x8888;
	memcpy(&v, raw + 0x00, 8); assert_int_equal(v, 0x100000);		/* BTS base */
	memcpy(&v, raw + 0x08, 8); assert_int_equal(v, 0x100000);		/* BTS index */
	memcpy(&v, raw + 0x10, 8); assert_int_equal(v, 0x100000 + 24 * 100);	/* BTS max */
	memcpy(&v, raw + 0x18, 8); assert_int_equal(v, 0x100000 + 24 * 90);	/* BTS threshold */
	memcpy(&v, raw + 0x20, 8); assert_int_equal(v, 0x200000);		/* PEBS base */
	memcpy(&v, raw + 0x28, 8); assert_int_equal(v, 0x200000);		/* PEBS index */
	memcpy(&v, raw + 0x30, 8); assert_int_equal(v, 0x200000 + 0xc8 * 10);	/* whole records */
	memcpy(&v, raw + 0x38, 8); assert_int_equal(v, 0x200000 + 0xc8 * 2);	/* threshold */
	memcpy(&v, raw + 0x40, 8); assert_int_equal(v, 0x1111);			/* PMC0 reset */
	memcpy(&v, raw + 0x58, 8); assert_int_equal(v, 0x4444);			/* PMC3 reset */
	memcpy(&v, raw + 0x80, 8); assert_int_equal(v, 0x8888);			/* fixed 0, format 4 */
	/* Threshold 0: one record short of the maximum, never at it (undefined there). */
	assert_int_equal(ds_setup_pebs(&ds, 0x200000, 4096, 0xb0, 0, err, sizeof(err)), 0);
	assert_int_equal(ds.pebs_interrupt_threshold, ds.pebs_absolute_maximum - 0xb0);
	assert_int_equal(ds.pebs_absolute_maximum, 0x200000 + 0xb0 * 23);
}

static void test_ds_setup_refuses(void **state)
{
	struct ds_area ds;
	char err[ERRLEN];
	(void)state;

	assert_int_equal(ds_setup_pebs(&ds, 0x200004, 4096, 0xb0, 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "0x200004 is not 8-byte aligned"));
	assert_int_equal(ds_setup_pebs(&ds, 0x200000, 4096, 0xb4, 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "record size 180"));
	assert_int_equal(ds_setup_pebs(&ds, 0x200000, 100, 0xb0, 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "holds no 176-byte record"));
	assert_int_equal(ds_setup_pebs(&ds, 0x200000, 0xb0 * 4, 0xb0, 5, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "threshold of 5 records is beyond the maximum of 4"));
	/* At the maximum: undefined on silicon, refused. */
	assert_int_equal(ds_setup_pebs(&ds, 0x200000, 0xb0 * 4, 0xb0, 4, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "threshold of 4 records equals the maximum"));
	assert_int_equal(ds_setup_bts(&ds, 0x100000, 24 * 4, 4, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "BTS interrupt threshold of 4 records equals the maximum"));
	assert_int_equal(ds_setup_pebs(&ds, 0x200000, 0xb0, 0xb0, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "one 176-byte record has no interrupt threshold"));
	assert_int_equal(ds_setup_bts(&ds, 0x100000, 24, 0, err, sizeof(err)), 0);	/* circular */
	assert_int_equal(ds_setup_bts(&ds, 0x100000, 20, 0, err, sizeof(err)), -1);
}

static void test_reset_slots(void **state)
{
	struct pmu_caps p;
	(void)state;

	memset(&p, 0, sizeof(p));
	p.pebs_format = 1;
	assert_int_equal(ds_reset_slot(&p, false, 3), 3);
	assert_int_equal(ds_reset_slot(&p, true, 0), -1);	/* no fixed-counter PEBS */
	p.pebs_format = 4;
	assert_int_equal(ds_reset_slot(&p, true, 0), 8);
	assert_int_equal(ds_reset_slot(&p, true, 3), 11);
	assert_int_equal(ds_reset_slot(&p, false, 8), -1);	/* slot 8 is fixed 0's */
	p.pebs_format = 5;
	assert_int_equal(ds_reset_slot(&p, true, 0), 32);
	assert_int_equal(ds_reset_slot(&p, false, 12), 12);
}

static void fill_core(struct pebs_record_core *c, uint64_t seed)
{
	uint64_t *q = (uint64_t *)c;

	for (size_t i = 0; i < sizeof(*c) / 8; i++)
		q[i] = seed + i;
}

/* A DS area for `n` records of `size` bytes in buf. */
static void ds_for(struct ds_area *ds, const uint8_t *buf, size_t bytes, uint64_t used)
{
	memset(ds, 0, sizeof(*ds));
	ds->pebs_buffer_base = addr_of(buf);
	ds->pebs_index = addr_of(buf) + used;
	ds->pebs_absolute_maximum = addr_of(buf) + bytes;
	ds->pebs_interrupt_threshold = addr_of(buf) + bytes;
}

static void test_fixed_formats(void **state)
{
	char err[ERRLEN];
	(void)state;

	for (unsigned fmt = 0; fmt <= 3; fmt++) {
		unsigned size = pebs_record_size(fmt);
		size_t bytes = 3 * (size_t)size;
		uint8_t *buf = buffer(bytes);
		struct pebs_record_skl rec;
		struct pebs_reader r;
		struct pebs_sample s;
		struct ds_area ds;

		static const unsigned sizes[] = { 0x90, 0xb0, 0xc0, 0xc8 };

		assert_int_equal(size, sizes[fmt]);
		for (unsigned i = 0; i < 3; i++) {
			memset(&rec, 0, sizeof(rec));
			fill_core(&rec.hsw.nhm.core, 1000 * (i + 1));
			rec.hsw.nhm.status = 0x1ULL << i;
			rec.hsw.nhm.dla = 0xd1a0 + i;
			rec.hsw.nhm.dse = PEBS_DSE_L2;
			rec.hsw.nhm.lat = 12 + i;
			rec.hsw.real_ip = 0xe1e1 + i;
			rec.tsc = 777 + i;
			memcpy(buf + i * size, &rec, size);
		}
		ds_for(&ds, buf, bytes, 2 * (uint64_t)size);	/* two written, one slot free */
		assert_int_equal(pebs_reader_init(&r, fmt, 0, &ds, buf, addr_of(buf), bytes, err,
						  sizeof(err)), 0);
		for (unsigned i = 0; i < 2; i++) {
			assert_int_equal(pebs_reader_next(&r, &s, err, sizeof(err)), 1);
			assert_int_equal(s.size, size);
			assert_true(s.has_regs);
			assert_int_equal(s.regs.flags, 1000 * (i + 1));
			assert_int_equal(s.regs.ip, 1000 * (i + 1) + 1);
			assert_int_equal(s.regs.ax, 1000 * (i + 1) + 2);
			assert_int_equal(s.regs.bx, 1000 * (i + 1) + 3);	/* format 0's order */
			assert_int_equal(s.regs.sp, 1000 * (i + 1) + 9);
			assert_int_equal(s.regs.r15, 1000 * (i + 1) + 17);
			assert_int_equal(s.has_status, fmt >= 1);
			assert_int_equal(s.has_mem, fmt >= 1);
			assert_int_equal(s.has_eventing_ip, fmt >= 2);
			assert_int_equal(s.has_tsc, fmt >= 3);
			if (fmt >= 1) {
				assert_int_equal(s.status, 1ULL << i);
				assert_int_equal(s.dla, 0xd1a0 + i);
				assert_int_equal(PEBS_DSE_SOURCE(s.dse), PEBS_DSE_L2);
				assert_int_equal(s.latency, 12 + i);
			}
			if (fmt >= 2)
				assert_int_equal(s.eventing_ip, 0xe1e1 + i);
			if (fmt >= 3)
				assert_int_equal(s.tsc, 777 + i);
		}
		assert_int_equal(pebs_reader_next(&r, &s, err, sizeof(err)), 0);	/* the index */
		free(buf);
	}
}

/* Writes one adaptive record with `groups` at p, values derived from tag; returns its size. */
static unsigned put_adaptive(uint8_t *p, uint64_t groups, uint64_t tag)
{
	unsigned size = pebs_adaptive_size(groups), at = sizeof(struct pebs_basic);
	struct pebs_basic b = { (uint64_t)size << PEBS_BASIC_SIZE_SHIFT | groups, 0x1000 + tag,
				1ULL << 32, 5000 + tag };

	memcpy(p, &b, sizeof(b));
	if (groups & PEBS_DATACFG_MEMINFO) {
		struct pebs_meminfo m = { 0xdada + tag, PEBS_DSE_LOCAL_DRAM_E, 200 + tag, 0 };

		memcpy(p + at, &m, sizeof(m));
		at += sizeof(m);
	}
	if (groups & PEBS_DATACFG_GPRS) {
		struct pebs_gprs g;
		uint64_t *q = (uint64_t *)&g;

		for (size_t i = 0; i < sizeof(g) / 8; i++)
			q[i] = tag * 100 + i;
		memcpy(p + at, &g, sizeof(g));
		at += sizeof(g);
	}
	if (groups & PEBS_DATACFG_XMMS) {
		struct pebs_xmm x;

		for (unsigned i = 0; i < 32; i++)
			x.xmm[i] = tag << 8 | i;
		memcpy(p + at, &x, sizeof(x));
		at += sizeof(x);
	}
	if (groups & PEBS_DATACFG_LBRS) {
		unsigned n = (unsigned)((groups & PEBS_DATACFG_LBR_ENTRIES) >> PEBS_DATACFG_LBR_SHIFT) + 1;

		for (unsigned i = 0; i < n; i++) {
			struct pebs_lbr_entry e = { 0xf000 + i, 0xa000 + i, i };

			memcpy(p + at, &e, sizeof(e));
			at += sizeof(e);
		}
	}
	assert_int_equal(at, size);
	return size;
}

/* Every group combination, and the LBR count field. */
static void test_adaptive_every_group(void **state)
{
	char err[ERRLEN];
	(void)state;

	for (uint64_t cfg = 0; cfg <= 0xf; cfg++) {
		for (unsigned lbrs = 1; lbrs <= (cfg & PEBS_DATACFG_LBRS ? 32 : 1); lbrs += 15) {
			uint64_t groups = cfg | (cfg & PEBS_DATACFG_LBRS ?
				(uint64_t)(lbrs - 1) << PEBS_DATACFG_LBR_SHIFT : 0);
			unsigned size = pebs_adaptive_size(groups);
			size_t bytes = 2 * (size_t)size;
			uint8_t *buf = buffer(bytes);
			struct pebs_reader r;
			struct pebs_sample s;
			struct ds_area ds;

			put_adaptive(buf, groups, 1);
			put_adaptive(buf + size, groups, 2);
			ds_for(&ds, buf, bytes, bytes);
			assert_int_equal(pebs_reader_init(&r, 4, 0, &ds, buf, addr_of(buf), bytes, err,
							  sizeof(err)), 0);
			for (uint64_t tag = 1; tag <= 2; tag++) {
				assert_int_equal(pebs_reader_next(&r, &s, err, sizeof(err)), 1);
				assert_int_equal(s.size, size);
				assert_int_equal(s.groups, groups);
				assert_int_equal(s.eventing_ip, 0x1000 + tag);
				assert_int_equal(s.status, 1ULL << 32);
				assert_int_equal(s.tsc, 5000 + tag);
				assert_int_equal(s.has_mem, !!(cfg & PEBS_DATACFG_MEMINFO));
				assert_int_equal(s.has_regs, !!(cfg & PEBS_DATACFG_GPRS));
				assert_int_equal(s.has_xmm, !!(cfg & PEBS_DATACFG_XMMS));
				assert_int_equal(s.nr_lbr, cfg & PEBS_DATACFG_LBRS ? lbrs : 0);
				if (s.has_mem) {
					assert_int_equal(s.dla, 0xdada + tag);
					assert_int_equal(pebs_dse_level(PEBS_DSE_SOURCE(s.dse)), 4);
					assert_int_equal(s.latency, 200 + tag);
				}
				if (s.has_regs) {	/* the adaptive order: ax cx dx bx sp bp si di */
					assert_int_equal(s.regs.flags, tag * 100 + 0);
					assert_int_equal(s.regs.ip, tag * 100 + 1);
					assert_int_equal(s.regs.ax, tag * 100 + 2);
					assert_int_equal(s.regs.cx, tag * 100 + 3);
					assert_int_equal(s.regs.dx, tag * 100 + 4);
					assert_int_equal(s.regs.bx, tag * 100 + 5);
					assert_int_equal(s.regs.sp, tag * 100 + 6);
					assert_int_equal(s.regs.di, tag * 100 + 9);
					assert_int_equal(s.regs.r15, tag * 100 + 17);
				}
				if (s.has_xmm)
					assert_int_equal(s.xmm[31], tag << 8 | 31);
				if (s.nr_lbr)
					assert_int_equal(s.lbr[s.nr_lbr - 1].from, 0xf000 + s.nr_lbr - 1);
			}
			assert_int_equal(pebs_reader_next(&r, &s, err, sizeof(err)), 0);
			free(buf);
		}
	}
}

/* Broken DS areas and records: an error naming the fault, no read outside the buffer. */
static void test_broken_buffers(void **state)
{
	const size_t bytes = 0xb0 * 4;
	uint8_t *buf = buffer(bytes);
	struct pebs_reader r;
	struct ds_area ds;
	char err[ERRLEN];
	(void)state;

	/* The index past the absolute maximum. */
	ds_for(&ds, buf, bytes, bytes);
	ds.pebs_index = ds.pebs_absolute_maximum + 0xb0;
	assert_int_equal(pebs_reader_init(&r, 1, 0, &ds, buf, addr_of(buf), bytes, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "PEBS index"));
	assert_non_null(strstr(err, "outside"));
	/* The maximum past the buffer given. */
	ds_for(&ds, buf, bytes, 0);
	ds.pebs_absolute_maximum += 0xb0;
	assert_int_equal(pebs_reader_init(&r, 1, 0, &ds, buf, addr_of(buf), bytes, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "absolute maximum"));
	/* A misaligned base. */
	ds_for(&ds, buf + 4, bytes - 4, 0);
	assert_int_equal(pebs_reader_init(&r, 1, 0, &ds, buf + 4, addr_of(buf) + 4, bytes - 4, err,
					  sizeof(err)), -1);
	assert_non_null(strstr(err, "not 8-byte aligned"));
	/* The threshold past the maximum. */
	ds_for(&ds, buf, bytes, 0);
	ds.pebs_interrupt_threshold = ds.pebs_absolute_maximum + 8;
	assert_int_equal(pebs_reader_init(&r, 1, 0, &ds, buf, addr_of(buf), bytes, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "threshold"));
	assert_non_null(strstr(err, "past the absolute maximum"));
	/* An index that is not on a record boundary (records of the wrong size). */
	ds_for(&ds, buf, bytes, 0x90);
	assert_int_equal(pebs_reader_init(&r, 1, 0, &ds, buf, addr_of(buf), bytes, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "176-byte record boundary"));
	/* A base other than the buffer's. */
	ds_for(&ds, buf, bytes, 0);
	ds.pebs_buffer_base += 0xb0;
	assert_int_equal(pebs_reader_init(&r, 1, 0, &ds, buf, addr_of(buf), bytes, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not the buffer given"));
	/* A format no one defined. */
	ds_for(&ds, buf, bytes, 0);
	assert_int_equal(pebs_reader_init(&r, 9, 0, &ds, buf, addr_of(buf), bytes, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "format 9"));
	free(buf);
}

static void test_broken_adaptive(void **state)
{
	const uint64_t groups = PEBS_DATACFG_GPRS;
	const unsigned size = pebs_adaptive_size(groups);	/* 0x20 + 0x90 */
	const size_t bytes = 2 * (size_t)size;
	uint8_t *buf = buffer(bytes);
	struct pebs_reader r;
	struct pebs_sample s;
	struct ds_area ds;
	uint64_t word;
	char err[ERRLEN];
	(void)state;

	/* A size word that disagrees with the groups. */
	put_adaptive(buf, groups, 1);
	word = (uint64_t)(size + 8) << PEBS_BASIC_SIZE_SHIFT | groups;
	memcpy(buf, &word, 8);
	ds_for(&ds, buf, bytes, size);
	assert_int_equal(pebs_reader_init(&r, 4, 0, &ds, buf, addr_of(buf), bytes, err, sizeof(err)), 0);
	assert_int_equal(pebs_reader_next(&r, &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "its groups make 176 bytes"));
	/* A record that runs past the index: the index stops inside it. */
	word = (uint64_t)pebs_adaptive_size(groups | PEBS_DATACFG_XMMS) << PEBS_BASIC_SIZE_SHIFT |
	       groups | PEBS_DATACFG_XMMS;		/* 0x1b0 bytes: past this 0x160 buffer */
	memcpy(buf, &word, 8);
	ds_for(&ds, buf, bytes, bytes);
	assert_int_equal(pebs_reader_init(&r, 4, 0, &ds, buf, addr_of(buf), bytes, err, sizeof(err)), 0);
	assert_int_equal(pebs_reader_next(&r, &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "run past the index"));
	/* Less than a basic group left before the index. */
	put_adaptive(buf, groups, 1);
	ds_for(&ds, buf, bytes, size + 16);
	assert_int_equal(pebs_reader_init(&r, 4, 0, &ds, buf, addr_of(buf), bytes, err, sizeof(err)), 0);
	assert_int_equal(pebs_reader_next(&r, &s, err, sizeof(err)), 1);
	assert_int_equal(pebs_reader_next(&r, &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "less than the 32-byte basic group"));
	/* Bits 47:32 without PEBS timing information. */
	word = (uint64_t)size << PEBS_BASIC_SIZE_SHIFT | groups | 5ULL << 32;
	memcpy(buf, &word, 8);
	ds_for(&ds, buf, bytes, size);
	assert_int_equal(pebs_reader_init(&r, 4, 0, &ds, buf, addr_of(buf), bytes, err, sizeof(err)), 0);
	assert_int_equal(pebs_reader_next(&r, &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "bits 47:32"));
	/* ... and with it, a retire latency. */
	assert_int_equal(pebs_reader_init(&r, 4, PEBS_READ_TIMING, &ds, buf, addr_of(buf), bytes, err,
					  sizeof(err)), 0);
	assert_int_equal(pebs_reader_next(&r, &s, err, sizeof(err)), 1);
	assert_true(s.has_retire_latency);
	assert_int_equal(s.retire_latency, 5);
	/* Groups no format defines. */
	word = (uint64_t)size << PEBS_BASIC_SIZE_SHIFT | groups | 1ULL << 20;
	memcpy(buf, &word, 8);
	ds_for(&ds, buf, bytes, size);
	assert_int_equal(pebs_reader_init(&r, 4, 0, &ds, buf, addr_of(buf), bytes, err, sizeof(err)), 0);
	assert_int_equal(pebs_reader_next(&r, &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "groups pmuboot does not know"));
	free(buf);
}

/* Golden Cove splits the memory group's latency: instruction latency 15:0, cache 47:32. */
static void test_split_latency(void **state)
{
	const uint64_t groups = PEBS_DATACFG_MEMINFO;
	const unsigned size = pebs_adaptive_size(groups);
	uint8_t *buf = buffer(size);
	struct pebs_meminfo m = { 0x1000, PEBS_DSE_L2, 0x0000012300000045ULL, 0 };
	struct pebs_reader r;
	struct pebs_sample s;
	struct ds_area ds;
	char err[ERRLEN];
	(void)state;

	put_adaptive(buf, groups, 1);
	memcpy(buf + sizeof(struct pebs_basic), &m, sizeof(m));
	ds_for(&ds, buf, size, size);
	assert_int_equal(pebs_reader_init(&r, 4, PEBS_READ_SPLIT_LATENCY, &ds, buf, addr_of(buf), size,
					  err, sizeof(err)), 0);
	assert_int_equal(pebs_reader_next(&r, &s, err, sizeof(err)), 1);
	assert_int_equal(s.latency, 0x123);
	assert_int_equal(s.instr_latency, 0x45);
	assert_int_equal(pebs_reader_init(&r, 4, 0, &ds, buf, addr_of(buf), size, err, sizeof(err)), 0);
	assert_int_equal(pebs_reader_next(&r, &s, err, sizeof(err)), 1);
	assert_int_equal(s.latency, 0x45);	/* bits 31:0 up to Ice Lake */
	free(buf);
}

static void test_bts_records(void **state)
{
	const size_t bytes = 24 * 8;
	uint8_t *buf = buffer(bytes);
	struct bts_record out[8], rec = { 0x1000, 0x2000, BTS_FLAG_PREDICTED };
	struct ds_area ds;
	unsigned n;
	char err[ERRLEN];
	(void)state;

	memset(&ds, 0, sizeof(ds));
	assert_int_equal(ds_setup_bts(&ds, addr_of(buf), bytes, 0, err, sizeof(err)), 0);
	/* Circular: the threshold one record past the maximum, which BTS accepts. */
	assert_int_equal(ds.bts_interrupt_threshold, ds.bts_absolute_maximum + 24);
	memcpy(buf, &rec, sizeof(rec));
	rec.from = 0x3000;
	memcpy(buf + 24, &rec, sizeof(rec));
	ds.bts_index += 2 * 24;
	assert_int_equal(bts_records(&ds, buf, addr_of(buf), bytes, out, 8, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(out[1].from, 0x3000);
	assert_int_equal(out[1].to, 0x2000);
	assert_true(out[0].flags & BTS_FLAG_PREDICTED);
	/* A BTS index between records, and one past the maximum. */
	ds.bts_index = addr_of(buf) + 30;
	assert_int_equal(bts_records(&ds, buf, addr_of(buf), bytes, out, 8, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "24-byte record boundary"));
	ds.bts_index = ds.bts_absolute_maximum + 24;
	assert_int_equal(bts_records(&ds, buf, addr_of(buf), bytes, out, 8, &n, err, sizeof(err)), -1);
	assert_int_equal(n, 0);
	free(buf);
}

static void test_availability(void **state)
{
	struct pmu_caps p;
	(void)state;

	memset(&p, 0, sizeof(p));
	p.vendor = VENDOR_INTEL;
	p.version = 4;
	p.num_gp = 4;
	assert_string_equal(pebs_unavailable(&p, false), "no debug store: CPUID.01H:EDX.DS[21]=0");
	assert_null(pebs_unavailable(&p, true));
	p.dsc.ds = true;
	assert_non_null(strstr(pebs_unavailable(&p, false), "DTES64[2]=0"));
	p.dsc.dtes64 = true;
	assert_non_null(strstr(bts_unavailable(&p, false), "IA32_MISC_ENABLE (1A0H) could not be read"));
	p.dsc.has_misc_enable = true;
	p.dsc.pebs_unavailable = true;
	assert_non_null(strstr(pebs_unavailable(&p, false), "PEBS_UNAVAILABLE[12]=1"));
	assert_null(bts_unavailable(&p, false));
	p.dsc.bts_unavailable = true;
	assert_non_null(strstr(bts_unavailable(&p, false), "BTS_UNAVAILABLE[11]=1"));
	p.dsc.pebs_unavailable = false;
	assert_non_null(strstr(pebs_unavailable(&p, false), "PDCM[15]=0"));
	p.pdcm = true;
	assert_non_null(strstr(pebs_unavailable(&p, false), "could not be read"));
	p.has_perf_caps = true;
	p.pebs_format = 6;
	assert_non_null(strstr(pebs_unavailable(&p, false), "format 6"));
	p.pebs_format = 3;
	assert_null(pebs_unavailable(&p, false));
	p.vendor = VENDOR_AMD;
	assert_non_null(strstr(pebs_unavailable(&p, false), "AMD PMU"));
}

/* Precise distribution: PMC1 with C0H/01H from Sandy Bridge to Kaby Lake, fixed counter 0
 * (with adaptive PEBS) from Ice Lake and on Golden Cove, nothing on Nehalem or Cannon Lake. */
static void test_pdir(void **state)
{
	struct pmu_caps p;
	(void)state;

	memset(&p, 0, sizeof(p));
	p.pebs_format = 3;
	p.uarch = UARCH_SKYLAKE;
	assert_true(pebs_pdir(&p, false, 1, 0xc0, 0x01));
	assert_false(pebs_pdir(&p, false, 1, 0xc0, 0x00));	/* ANY_P: the shadow */
	assert_false(pebs_pdir(&p, false, 0, 0xc0, 0x01));
	assert_false(pebs_pdir(&p, true, 0, 0, 0));
	p.uarch = UARCH_SANDY_BRIDGE;
	p.pebs_format = 1;
	assert_true(pebs_pdir(&p, false, 1, 0xc0, 0x01));
	p.uarch = UARCH_NEHALEM;
	assert_false(pebs_pdir(&p, false, 1, 0xc0, 0x01));
	p.uarch = UARCH_CANNON_LAKE;
	assert_false(pebs_pdir(&p, false, 1, 0xc0, 0x01));
	p.uarch = UARCH_ICE_LAKE_X;
	p.pebs_format = 4;
	assert_false(pebs_pdir(&p, true, 0, 0, 0));		/* no adaptive PEBS, no fixed PEBS */
	p.dsc.pebs_baseline = true;
	assert_true(pebs_pdir(&p, true, 0, 0, 0));
	assert_false(pebs_pdir(&p, true, 1, 0, 0));
	assert_false(pebs_pdir(&p, false, 1, 0xc0, 0x01));
	p.uarch = UARCH_SAPPHIRE_RAPIDS;
	assert_true(pebs_pdir(&p, true, 0, 0, 0));
	p.uarch = UARCH_GOLDMONT;
	assert_false(pebs_pdir(&p, true, 0, 0, 0));
}

/* Load-latency PEBS: Nehalem and later big cores, and a hybrid part's P-cores only. */
static void test_ld_lat(void **state)
{
	struct pmu_caps p;
	(void)state;

	memset(&p, 0, sizeof(p));
	p.pebs_format = 1;
	p.uarch = UARCH_NEHALEM;
	assert_true(pebs_has_ld_lat(&p));
	p.uarch = UARCH_GOLDMONT;
	assert_false(pebs_has_ld_lat(&p));
	p.pebs_format = 4;
	p.uarch = UARCH_ALDER_LAKE;
	p.hybrid = true;
	p.core_type = HYBRID_CORE_CORE;
	assert_true(pebs_has_ld_lat(&p));
	p.core_type = HYBRID_CORE_ATOM;
	assert_false(pebs_has_ld_lat(&p));
	p.uarch = UARCH_LUNAR_LAKE;		/* Lion Cove: GP2 and up, not chosen here */
	p.core_type = HYBRID_CORE_CORE;
	assert_false(pebs_has_ld_lat(&p));
	p.uarch = UARCH_SAPPHIRE_RAPIDS;
	p.hybrid = false;
	p.core_type = 0;
	assert_true(pebs_has_ld_lat(&p));
	p.pebs_format = 0;
	assert_false(pebs_has_ld_lat(&p));
}

static void test_dse(void **state)
{
	(void)state;
	assert_int_equal(pebs_dse_level(PEBS_DSE_L1), 1);
	assert_int_equal(pebs_dse_level(PEBS_DSE_LFB), 1);
	assert_int_equal(pebs_dse_level(PEBS_DSE_L2), 2);
	assert_int_equal(pebs_dse_level(PEBS_DSE_L3_HITM), 3);
	assert_int_equal(pebs_dse_level(PEBS_DSE_LOCAL_DRAM_S), 4);
	assert_int_equal(pebs_dse_level(PEBS_DSE_UNKNOWN_MISS), 4);
	assert_int_equal(pebs_dse_level(PEBS_DSE_UNCACHED), 0);
	assert_string_equal(pebs_dse_name(0x13), "L2 hit");	/* low 4 bits */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ds_area_layout),
		cmocka_unit_test(test_ds_setup_refuses),
		cmocka_unit_test(test_reset_slots),
		cmocka_unit_test(test_fixed_formats),
		cmocka_unit_test(test_adaptive_every_group),
		cmocka_unit_test(test_broken_buffers),
		cmocka_unit_test(test_broken_adaptive),
		cmocka_unit_test(test_split_latency),
		cmocka_unit_test(test_bts_records),
		cmocka_unit_test(test_availability),
		cmocka_unit_test(test_pdir),
		cmocka_unit_test(test_ld_lat),
		cmocka_unit_test(test_dse),
	};

	return cmocka_run_group_tests_name("pebs", tests, NULL, NULL);
}
