/* SPDX-License-Identifier: MIT */
/* PEBS record decoding: every format, bounded by the DS index and the buffer. */
#include "pmu/pebs.h"
#include "arch/x86/msr.h"
#include "lib/fmt.h"
#include "lib/string.h"

unsigned pebs_adaptive_size(uint64_t groups)
{
	unsigned sz = sizeof(struct pebs_basic);

	if (groups & PEBS_DATACFG_MEMINFO)
		sz += sizeof(struct pebs_meminfo);
	if (groups & PEBS_DATACFG_GPRS)
		sz += sizeof(struct pebs_gprs);
	if (groups & PEBS_DATACFG_XMMS)
		sz += sizeof(struct pebs_xmm);
	if (groups & PEBS_DATACFG_LBRS)
		sz += (unsigned)(((groups & PEBS_DATACFG_LBR_ENTRIES) >> PEBS_DATACFG_LBR_SHIFT) + 1) *
		      sizeof(struct pebs_lbr_entry);
	return sz;
}

unsigned pebs_record_size(unsigned format)
{
	switch (format) {
	case 0: return sizeof(struct pebs_record_core);
	case 1: return sizeof(struct pebs_record_nhm);
	case 2: return sizeof(struct pebs_record_hsw);
	case 3: return sizeof(struct pebs_record_skl);
	default: return 0;
	}
}

int pebs_reader_init(struct pebs_reader *r, unsigned format, unsigned flags,
		     const struct ds_area *ds, const void *mem, uint64_t buf, uint64_t bytes,
		     char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	if (format > 5) {
		fmt_snprintf(err, errlen, "PEBS record format %u is not one pmuboot decodes (0-5)",
			     format);
		return -1;
	}
	if (ds_check_pebs(ds, buf, bytes, pebs_record_size(format), err, errlen))
		return -1;
	r->mem = mem;
	r->base = ds->pebs_buffer_base;
	r->index = ds->pebs_index;
	r->pos = r->base;
	r->format = format;
	r->flags = flags;
	return 0;
}

/* Copies n bytes at linear address a (checked by the caller to lie in [base, index)). */
static void get(const struct pebs_reader *r, uint64_t a, void *out, size_t n)
{
	memcpy(out, r->mem + (a - r->base), n);
}

static void regs_from_core(struct pebs_regs *g, const struct pebs_record_core *c)
{
	*g = (struct pebs_regs){ c->flags, c->ip, c->ax, c->bx, c->cx, c->dx, c->si, c->di, c->bp,
				 c->sp, c->r8, c->r9, c->r10, c->r11, c->r12, c->r13, c->r14,
				 c->r15 };
}

static void regs_from_adaptive(struct pebs_regs *g, const struct pebs_gprs *a)
{
	*g = (struct pebs_regs){ a->flags, a->ip, a->ax, a->bx, a->cx, a->dx, a->si, a->di, a->bp,
				 a->sp, a->r8, a->r9, a->r10, a->r11, a->r12, a->r13, a->r14,
				 a->r15 };
}

static int next_fixed(struct pebs_reader *r, struct pebs_sample *s)
{
	struct pebs_record_skl rec;
	unsigned size = pebs_record_size(r->format);

	memset(&rec, 0, sizeof(rec));
	get(r, r->pos, &rec, size);
	s->size = size;
	s->has_regs = true;
	regs_from_core(&s->regs, &rec.hsw.nhm.core);
	if (r->format >= 1) {
		s->has_status = true;
		s->status = rec.hsw.nhm.status;
		s->has_mem = true;
		s->dla = rec.hsw.nhm.dla;
		s->dse = rec.hsw.nhm.dse;
		s->latency = rec.hsw.nhm.lat;
	}
	if (r->format >= 2) {
		s->has_eventing_ip = true;
		s->eventing_ip = rec.hsw.real_ip;
	}
	if (r->format >= 3) {
		s->has_tsc = true;
		s->tsc = rec.tsc;
	}
	return 1;
}

static int next_adaptive(struct pebs_reader *r, struct pebs_sample *s, char *err, size_t errlen)
{
	struct pebs_basic b;
	uint64_t at, left = r->index - r->pos;
	unsigned size, want;

	if (left < sizeof(b)) {
		fmt_snprintf(err, errlen, "record %u at 0x%llx: %llu bytes left before the index 0x%llx, "
			     "less than the %u-byte basic group", r->count, (unsigned long long)r->pos,
			     (unsigned long long)left, (unsigned long long)r->index,
			     (unsigned)sizeof(b));
		return -1;
	}
	get(r, r->pos, &b, sizeof(b));
	size = (unsigned)(b.format_size >> PEBS_BASIC_SIZE_SHIFT);
	s->groups = b.format_size & PEBS_BASIC_GROUPS;
	want = pebs_adaptive_size(s->groups);
	if (r->flags & PEBS_READ_TIMING) {
		s->has_retire_latency = true;
		s->retire_latency = (b.format_size & PEBS_BASIC_RETIRE_LAT) >>
				    PEBS_BASIC_RETIRE_LAT_SHIFT;
	} else if (b.format_size & PEBS_BASIC_RETIRE_LAT) {
		fmt_snprintf(err, errlen, "record %u at 0x%llx: format word 0x%llx sets bits 47:32, "
			     "which only PEBS timing information (PERF_CAPABILITIES[17]) defines",
			     r->count, (unsigned long long)r->pos, (unsigned long long)b.format_size);
		return -1;
	}
	if (s->groups & ~(PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GPRS | PEBS_DATACFG_XMMS |
			  PEBS_DATACFG_LBRS | PEBS_DATACFG_LBR_ENTRIES)) {
		fmt_snprintf(err, errlen, "record %u at 0x%llx: format word 0x%llx names groups pmuboot "
			     "does not know (0x%llx)", r->count, (unsigned long long)r->pos,
			     (unsigned long long)b.format_size, (unsigned long long)s->groups);
		return -1;
	}
	if (size != want) {
		fmt_snprintf(err, errlen, "record %u at 0x%llx: size %u in its format word 0x%llx, but "
			     "its groups make %u bytes", r->count, (unsigned long long)r->pos, size,
			     (unsigned long long)b.format_size, want);
		return -1;
	}
	if (size > left) {
		fmt_snprintf(err, errlen, "record %u at 0x%llx: %u bytes run past the index 0x%llx",
			     r->count, (unsigned long long)r->pos, size,
			     (unsigned long long)r->index);
		return -1;
	}
	s->size = size;
	s->has_eventing_ip = true;
	s->eventing_ip = b.ip;
	s->has_status = true;
	s->status = b.applicable_counters;
	s->has_tsc = true;
	s->tsc = b.tsc;
	at = r->pos + sizeof(b);
	if (s->groups & PEBS_DATACFG_MEMINFO) {
		struct pebs_meminfo m;

		get(r, at, &m, sizeof(m));
		at += sizeof(m);
		s->has_mem = true;
		s->dla = m.address;
		s->dse = m.aux;
		if (r->flags & PEBS_READ_SPLIT_LATENCY) {
			s->instr_latency = m.latency & 0xffff;
			s->latency = (m.latency >> 32) & 0xffff;
		} else {
			s->latency = m.latency & 0xffffffffULL;
		}
	}
	if (s->groups & PEBS_DATACFG_GPRS) {
		struct pebs_gprs g;

		get(r, at, &g, sizeof(g));
		at += sizeof(g);
		s->has_regs = true;
		regs_from_adaptive(&s->regs, &g);
	}
	if (s->groups & PEBS_DATACFG_XMMS) {
		get(r, at, s->xmm, sizeof(s->xmm));
		at += sizeof(s->xmm);
		s->has_xmm = true;
	}
	if (s->groups & PEBS_DATACFG_LBRS) {
		s->nr_lbr = (unsigned)((s->groups & PEBS_DATACFG_LBR_ENTRIES) >> PEBS_DATACFG_LBR_SHIFT) + 1;
		get(r, at, s->lbr, s->nr_lbr * sizeof(s->lbr[0]));
	}
	return 1;
}

int pebs_reader_next(struct pebs_reader *r, struct pebs_sample *s, char *err, size_t errlen)
{
	int ret;

	if (r->pos >= r->index)
		return 0;
	memset(s, 0, sizeof(*s));
	s->format = r->format;
	s->addr = r->pos;
	ret = r->format >= 4 ? next_adaptive(r, s, err, errlen) : next_fixed(r, s);
	if (ret == 1) {
		r->pos += s->size;
		r->count++;
	}
	return ret;
}

const char *pebs_dse_name(unsigned source)
{
	static const char *const names[16] = {
		"unknown miss", "L1 hit", "fill buffer hit", "L2 hit", "L3 hit",
		"L3 hit, other core snoop hit", "L3 hit, other core HITM", "L3 hit, no details",
		"remote cache forward", "remote cache HITM", "local DRAM (S)", "remote DRAM (S)",
		"local DRAM (E)", "remote DRAM (E)", "I/O", "uncached",
	};

	return names[source & 0xf];
}

unsigned pebs_dse_level(unsigned source)
{
	switch (source & 0xf) {
	case PEBS_DSE_L1: case PEBS_DSE_LFB:
		return 1;
	case PEBS_DSE_L2:
		return 2;
	case PEBS_DSE_L3: case PEBS_DSE_L3_SNOOP: case PEBS_DSE_L3_HITM: case PEBS_DSE_L3_NODETAIL:
		return 3;
	case PEBS_DSE_IO: case PEBS_DSE_UNCACHED:
		return 0;
	default:
		return 4;
	}
}
