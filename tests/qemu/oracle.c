/* SPDX-License-Identifier: MIT */
/*
 * The reference oracle: a QEMU TCG plugin that counts what the firmware's kernels really
 * execute, per measured region and per vCPU. A region lies between two marker NOPs
 * (lib/oracle_tag.h) carrying its id. For each region the plugin writes one
 * line to the file named by its `out=` argument:
 *
 *   region id=I seq=K vcpu=V insns=… cond_taken=… cond_not_taken=… jumps=… calls=…
 *          rets=… far=… loads=… stores=… lines=… pages=… lbr=from:to,…
 *
 * insns: instructions retired (a REP string instruction once, however many iterations).
 * Branches by kind from the instruction bytes (oracle_decode.c); a conditional branch is
 * taken when the next block does not start at its fall-through address. loads/stores:
 * instructions with at least one load (store) access, as MEM_INST_RETIRED counts them.
 * lines/pages: distinct 64-byte lines and 4 KiB pages of those accesses. lbr: the last 32
 * taken branches, oldest first.
 *
 * Cost: until the firmware executes its ARM marker (at the start of its run) only marker
 * instructions are instrumented, so OVMF boots at nearly full speed. Blocks translated
 * after it get one callback per executed block and one per memory access; outside a region
 * those return at once.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "lib/oracle_tag.h"
#include "tests/qemu/oracle_decode.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define LBR_DEPTH	32
#define LINE_SHIFT	6
#define PAGE_SHIFT	12
#define REP_SLOT	0x3ff	/* execution-id slot of a REP string instruction */

struct tb_info {
	uint64_t vaddr;
	unsigned n;			/* instructions in the block */
	uint64_t last_vaddr;		/* its last instruction ... */
	uint64_t fallthrough;		/* ... and the address after it */
	enum insn_kind last_kind;
	bool last_rep;
	bool instrumented;		/* translated after ARM: counts are complete */
};

struct insn_info {
	struct tb_info *tb;
	unsigned idx;
	bool rep;
	unsigned marker_kind, marker_id;
};

/* Open-addressing set of 64-bit keys (stored + 1, so 0 marks an empty slot). */
struct set {
	uint64_t *slot;
	size_t cap, n;
};

struct counts {
	uint64_t insns, cond_taken, cond_not_taken, jumps, calls, rets, far, loads, stores;
	uint64_t lbr_from[LBR_DEPTH], lbr_to[LBR_DEPTH];
	unsigned lbr_count, lbr_head;
};

struct vcpu {
	bool in_region;
	bool broken;			/* a region ran through code translated before ARM */
	unsigned id;
	unsigned seq[ORACLE_MAX_REGIONS];
	const struct tb_info *prev;	/* the block executed before this one */
	uint64_t tb_serial, base_serial;
	uint64_t last_load, last_store;	/* execution ids of the last counted instructions */
	struct counts c;
	struct set lines, pages;
};

static struct vcpu *vcpus;
static int max_vcpus;
static bool armed;
static FILE *out;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long regions_written, errors;

static void set_clear(struct set *s)
{
	if (s->slot)
		memset(s->slot, 0, s->cap * sizeof(*s->slot));
	s->n = 0;
}

static void set_insert(struct set *s, uint64_t key);

static void set_grow(struct set *s)
{
	struct set bigger = { calloc(s->cap ? s->cap * 2 : 1024, sizeof(uint64_t)), 0, 0 };

	if (!bigger.slot) {
		fprintf(stderr, "oracle: out of memory\n");
		abort();
	}
	bigger.cap = s->cap ? s->cap * 2 : 1024;
	for (size_t i = 0; i < s->cap; i++)
		if (s->slot[i])
			set_insert(&bigger, s->slot[i] - 1);
	free(s->slot);
	*s = bigger;
}

static void set_insert(struct set *s, uint64_t key)
{
	uint64_t h;

	if ((s->n + 1) * 2 > s->cap)
		set_grow(s);
	h = (key + 1) * 0x9e3779b97f4a7c15ULL;
	for (size_t i = (size_t)(h >> 20) & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
		if (s->slot[i] == key + 1)
			return;
		if (!s->slot[i]) {
			s->slot[i] = key + 1;
			s->n++;
			return;
		}
	}
}

static void taken(struct counts *c, uint64_t from, uint64_t to)
{
	c->lbr_from[c->lbr_head] = from;
	c->lbr_to[c->lbr_head] = to;
	c->lbr_head = (c->lbr_head + 1) % LBR_DEPTH;
	if (c->lbr_count < LBR_DEPTH)
		c->lbr_count++;
}

static void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void emit(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&out_lock);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fflush(out);
	pthread_mutex_unlock(&out_lock);
}

static void write_region(unsigned vcpu_index, struct vcpu *v)
{
	const struct counts *c = &v->c;
	char lbr[LBR_DEPTH * 36 + 1];
	size_t len = 0;
	unsigned first = (c->lbr_head + LBR_DEPTH - c->lbr_count) % LBR_DEPTH;

	lbr[0] = '\0';
	for (unsigned i = 0; i < c->lbr_count; i++) {
		unsigned k = (first + i) % LBR_DEPTH;

		len += (size_t)snprintf(lbr + len, sizeof(lbr) - len, "%s%" PRIx64 ":%" PRIx64,
					i ? "," : "", c->lbr_from[k], c->lbr_to[k]);
	}
	emit("region id=%u seq=%u vcpu=%u insns=%" PRIu64 " cond_taken=%" PRIu64
	     " cond_not_taken=%" PRIu64 " jumps=%" PRIu64 " calls=%" PRIu64 " rets=%" PRIu64
	     " far=%" PRIu64 " loads=%" PRIu64 " stores=%" PRIu64 " lines=%zu pages=%zu lbr=%s\n",
	     v->id, v->seq[v->id]++, vcpu_index, c->insns, c->cond_taken, c->cond_not_taken,
	     c->jumps, c->calls, c->rets, c->far, c->loads, c->stores, v->lines.n, v->pages.n, lbr);
	__atomic_add_fetch(&regions_written, 1, __ATOMIC_RELAXED);
}

static void report_error(unsigned vcpu_index, const char *what, unsigned id)
{
	emit("error vcpu=%u id=%u %s\n", vcpu_index, id, what);
	__atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED);
}

/*
 * At the start of every executed (instrumented) block.
 *
 * A block that starts at the previous block's last instruction re-enters it: either a REP
 * string instruction's next iteration, or an instruction QEMU 7.2 abandoned at a page
 * boundary (the i386 translator drops a non-first instruction that crosses into the next
 * page, but the plugin's instruction list keeps it). Either way that instruction retires
 * once, and no branch ended the previous block.
 */
static void tb_exec(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = &vcpus[vcpu_index];
	const struct tb_info *tb = udata;
	const struct tb_info *prev = v->prev;
	bool reentered = false;

	v->tb_serial++;
	v->prev = tb;
	if (!v->in_region)
		return;
	if (prev) {
		uint64_t pc = tb->vaddr;

		if (pc == prev->last_vaddr) {
			reentered = true;
		} else {
			switch (prev->last_kind) {
			case INSN_COND:
				if (pc == prev->fallthrough) {
					v->c.cond_not_taken++;
				} else {
					v->c.cond_taken++;
					taken(&v->c, prev->last_vaddr, pc);
				}
				break;
			case INSN_JMP: v->c.jumps++; taken(&v->c, prev->last_vaddr, pc); break;
			case INSN_CALL: v->c.calls++; taken(&v->c, prev->last_vaddr, pc); break;
			case INSN_RET: v->c.rets++; taken(&v->c, prev->last_vaddr, pc); break;
			case INSN_FAR: v->c.far++; taken(&v->c, prev->last_vaddr, pc); break;
			default: break;
			}
		}
	}
	if (!(reentered && prev->last_rep))
		v->base_serial = v->tb_serial;
	v->c.insns += tb->n - (reentered ? 1 : 0);
}

static void mem_access(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr,
		       void *udata)
{
	struct vcpu *v = &vcpus[vcpu_index];
	const struct insn_info *ii = udata;
	uint64_t eid, size, line, page;

	if (!v->in_region)
		return;
	/* One execution of one instruction; a REP instruction keeps its id across the
	 * blocks QEMU re-enters it through. */
	eid = ii->rep ? (v->base_serial << 10) | REP_SLOT : (v->tb_serial << 10) | ii->idx;
	if (qemu_plugin_mem_is_store(info)) {
		if (v->last_store != eid) {
			v->c.stores++;
			v->last_store = eid;
		}
	} else if (v->last_load != eid) {
		v->c.loads++;
		v->last_load = eid;
	}
	size = 1ULL << qemu_plugin_mem_size_shift(info);
	for (line = vaddr >> LINE_SHIFT; line <= (vaddr + size - 1) >> LINE_SHIFT; line++)
		set_insert(&v->lines, line);
	for (page = vaddr >> PAGE_SHIFT; page <= (vaddr + size - 1) >> PAGE_SHIFT; page++)
		set_insert(&v->pages, page);
}

static void marker_exec(unsigned int vcpu_index, void *udata)
{
	struct vcpu *v = &vcpus[vcpu_index];
	const struct insn_info *ii = udata;

	switch (ii->marker_kind) {
	case ORACLE_KIND_ARM:
		if (!__atomic_exchange_n(&armed, true, __ATOMIC_SEQ_CST))
			emit("armed vcpu=%u\n", vcpu_index);
		break;
	case ORACLE_KIND_START:
		if (v->in_region)
			report_error(vcpu_index, "START inside an open region", ii->marker_id);
		if (ii->marker_id >= ORACLE_MAX_REGIONS) {
			report_error(vcpu_index, "region id out of range", ii->marker_id);
			break;
		}
		memset(&v->c, 0, sizeof(v->c));
		set_clear(&v->lines);
		set_clear(&v->pages);
		v->last_load = v->last_store = 0;
		v->in_region = true;
		v->broken = !ii->tb->instrumented;
		v->id = ii->marker_id;
		/* tb_exec counted the block before the region opened: count what follows the
		 * marker in it. */
		v->c.insns = ii->tb->n - (ii->idx + 1);
		break;
	case ORACLE_KIND_END:
		if (!v->in_region || v->id != ii->marker_id) {
			report_error(vcpu_index, "END without a matching START", ii->marker_id);
			v->in_region = false;
			break;
		}
		/* tb_exec added the whole block; the END marker and what follows are outside. */
		v->c.insns -= ii->tb->n - ii->idx;
		v->in_region = false;
		if (v->broken || !ii->tb->instrumented)
			report_error(vcpu_index, "region code was translated before the ARM marker",
			      ii->marker_id);
		else
			write_region(vcpu_index, v);
		break;
	default:
		report_error(vcpu_index, "unknown marker kind", ii->marker_kind);
		break;
	}
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	struct tb_info *ti = calloc(1, sizeof(*ti));
	bool full = __atomic_load_n(&armed, __ATOMIC_SEQ_CST);

	(void)id;
	if (!ti || !n) {
		free(ti);
		return;
	}
	ti->vaddr = qemu_plugin_tb_vaddr(tb);
	ti->n = (unsigned)n;
	ti->instrumented = full;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const uint8_t *bytes = qemu_plugin_insn_data(insn);
		size_t size = qemu_plugin_insn_size(insn);
		struct insn_class cls;
		struct insn_info *ii;

		if (oracle_classify(bytes, size, &cls))
			cls = (struct insn_class){ .kind = INSN_OTHER };
		if (i == n - 1) {
			ti->last_vaddr = qemu_plugin_insn_vaddr(insn);
			ti->fallthrough = ti->last_vaddr + size;
			ti->last_kind = cls.kind;
			ti->last_rep = cls.rep_string;
		}
		if (!full && !cls.marker)
			continue;
		ii = calloc(1, sizeof(*ii));
		if (!ii)
			continue;
		ii->tb = ti;
		ii->idx = (unsigned)i;
		ii->rep = cls.rep_string;
		ii->marker_kind = cls.marker_kind;
		ii->marker_id = cls.marker_id;
		if (cls.marker)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, marker_exec,
							       QEMU_PLUGIN_CB_NO_REGS, ii);
		if (full)
			qemu_plugin_register_vcpu_mem_cb(insn, mem_access, QEMU_PLUGIN_CB_NO_REGS,
							 QEMU_PLUGIN_MEM_RW, ii);
	}
	if (full)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS, ti);
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	(void)id;
	(void)p;
	for (int i = 0; i < max_vcpus; i++)
		if (vcpus[i].in_region)
			report_error((unsigned)i, "region still open at exit", vcpus[i].id);
	emit("done regions=%lu errors=%lu\n", regions_written, errors);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *path = NULL;

	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			path = argv[i] + 4;
		} else {
			fprintf(stderr, "oracle: unknown argument '%s' (takes out=FILE)\n", argv[i]);
			return -1;
		}
	}
	if (!path) {
		fprintf(stderr, "oracle: out=FILE is required\n");
		return -1;
	}
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		return -1;
	}
	max_vcpus = info->system_emulation ? info->system.max_vcpus : 1;
	vcpus = calloc((size_t)max_vcpus, sizeof(*vcpus));
	if (!vcpus)
		return -1;
	emit("oracle qemu-plugin-api=%d vcpus=%d\n", QEMU_PLUGIN_VERSION, max_vcpus);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
