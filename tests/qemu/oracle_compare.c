/* SPDX-License-Identifier: MIT */
/*
 * oracle_compare SERIAL_LOG ORACLE_OUT: compares every region the firmware predicted
 * ("# oracle: region ..." lines on serial) with what the QEMU plugin observed ("region ..."
 * lines), field by field and exactly; checks that the TSC under -icount exceeds the
 * observed instruction count by the frame overhead the firmware states (TSC frames; PMU
 * frames read no TSC inside); and, for regions whose PMU counts the firmware printed
 * ("# oracle: pmu id=.. seq=.. insns=.. branches=.."), that the PMU's branches equal the
 * observed branches and its instructions the observed instructions less the frame's two
 * WRMSRs plus the ones the CPU counts (the same 0, 1 or 2 for every region): a three-way
 * agreement of model, plugin and PMU. Fails on any plugin error, on regions only one side
 * has, and on no region at all. Each difference is a line naming the kernel, the quantity,
 * predicted and observed. Exit 0 when all agree.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REGIONS	20000
#define MAX_LINE	8192

static const char *const fields[] = {
	"insns", "cond_taken", "cond_not_taken", "jumps", "calls", "rets", "far",
	"loads", "stores", "lines", "pages",
};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

struct region {
	unsigned id, seq, vcpu;
	char kernel[64];
	bool pmu_frame;		/* frame=pmu: no TSC inside the frame */
	bool concurrent;	/* concurrent=1: another CPU ran at the same time (under -icount
				 * its instructions advance this CPU's TSC too) */
	uint64_t n, tsc;
	uint64_t v[NFIELDS];
	char *lbr;
	bool matched;
	bool has_pmu;		/* the firmware printed what the PMU counted in it */
	uint64_t pmu_insns, pmu_branches;
};

/* The frame's WRMSRs inside a PMU frame's region (PMU_FRAME_REGION_INSNS - PMU_FRAME_INSNS
 * in pmu/frame.h): whether the CPU counts them is its own rule, found from the first. */
#define FRAME_WRMSRS	2

static struct region pred[MAX_REGIONS], obs[MAX_REGIONS];
static size_t npred, nobs;
static unsigned long mismatches;

/* Value of key in a line of space-separated key=value tokens, or NULL. */
static const char *value_of(const char *line, const char *key, size_t *len)
{
	size_t kl = strlen(key);

	for (const char *p = line; (p = strstr(p, key)); p += kl) {
		if ((p == line || p[-1] == ' ') && p[kl] == '=') {
			const char *v = p + kl + 1;

			*len = strcspn(v, " \r\n");
			return v;
		}
	}
	return NULL;
}

static bool get_u64(const char *line, const char *key, uint64_t *out)
{
	size_t len;
	const char *v = value_of(line, key, &len);
	char *end;

	if (!v || !len)
		return false;
	*out = strtoull(v, &end, 10);
	return end == v + len;
}

static bool parse_region(const char *line, struct region *r, bool prediction)
{
	uint64_t id, seq, vcpu = 0;
	size_t len;
	const char *v;

	memset(r, 0, sizeof(*r));
	/* The firmware names the CPU by APIC ID, which is QEMU's vCPU index under -smp N
	 * (older logs without it ran on vCPU 0). */
	if (!get_u64(line, "id", &id) || !get_u64(line, "seq", &seq) ||
	    (!get_u64(line, "vcpu", &vcpu) && !prediction))
		return false;
	r->id = (unsigned)id;
	r->seq = (unsigned)seq;
	r->vcpu = (unsigned)vcpu;
	if (prediction) {
		if (!get_u64(line, "n", &r->n) || !get_u64(line, "tsc", &r->tsc))
			return false;
		v = value_of(line, "kernel", &len);
		if (!v || len >= sizeof(r->kernel))
			return false;
		memcpy(r->kernel, v, len);
		v = value_of(line, "frame", &len);
		r->pmu_frame = v && len == 3 && !memcmp(v, "pmu", 3);
		v = value_of(line, "concurrent", &len);
		r->concurrent = v && len == 1 && *v == '1';
	}
	for (size_t f = 0; f < NFIELDS; f++)
		if (!get_u64(line, fields[f], &r->v[f]))
			return false;
	v = value_of(line, "lbr", &len);
	if (!v)
		return false;
	r->lbr = strndup(v, len);
	return r->lbr != NULL;
}

/* The i-th "from:to" of an lbr list into buf; false past the end. */
static bool lbr_entry(const char *list, unsigned i, char *buf, size_t size)
{
	const char *p = list;

	for (unsigned k = 0; k < i; k++) {
		p = strchr(p, ',');
		if (!p)
			return false;
		p++;
	}
	if (!*p)
		return false;
	size_t len = strcspn(p, ",");
	if (len >= size)
		len = size - 1;
	memcpy(buf, p, len);
	buf[len] = '\0';
	return true;
}

static void compare(const struct region *p, const struct region *o)
{
	for (size_t f = 0; f < NFIELDS; f++) {
		if (p->v[f] != o->v[f]) {
			printf("MISMATCH kernel=%s n=%" PRIu64 " region=%u seq=%u: %s predicted=%" PRIu64
			       " observed=%" PRIu64 "\n", p->kernel, p->n, p->id, p->seq, fields[f],
			       p->v[f], o->v[f]);
			mismatches++;
		}
	}
	if (strcmp(p->lbr, o->lbr)) {
		char a[64], b[64];
		unsigned i = 0;
		bool ha, hb;

		do {
			ha = lbr_entry(p->lbr, i, a, sizeof(a));
			hb = lbr_entry(o->lbr, i, b, sizeof(b));
			i++;
		} while (ha && hb && !strcmp(a, b));
		printf("MISMATCH kernel=%s n=%" PRIu64 " region=%u seq=%u: lbr[%u] predicted=%s "
		       "observed=%s\n", p->kernel, p->n, p->id, p->seq, i - 1, ha ? a : "(none)",
		       hb ? b : "(none)");
		mismatches++;
	}
}

int main(int argc, char **argv)
{
	static char line[MAX_LINE];
	FILE *f;
	long overhead = -1;
	int icount = 0;
	bool armed = false, done = false;
	unsigned long plugin_errors = 0;
	size_t npmu = 0;
	long wrmsrs = -1;

	if (argc != 3) {
		fprintf(stderr, "usage: oracle_compare SERIAL_LOG ORACLE_OUT\n");
		return 2;
	}
	f = fopen(argv[1], "r");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "# oracle: ");

		if (!p)
			continue;
		p += 10;
		if (!strncmp(p, "frame ", 6)) {
			uint64_t o, ic;

			if (get_u64(p, "overhead", &o) && get_u64(p, "icount", &ic)) {
				overhead = (long)o;
				icount = (int)ic;
			}
		} else if (!strncmp(p, "region ", 7)) {
			if (npred == MAX_REGIONS || !parse_region(p, &pred[npred], true)) {
				printf("BAD prediction line: %s", line);
				mismatches++;
				continue;
			}
			npred++;
		} else if (!strncmp(p, "pmu ", 4)) {
			uint64_t id, seq, in, br, vcpu = 0;
			struct region *r = NULL;

			get_u64(p, "vcpu", &vcpu);
			if (!get_u64(p, "id", &id) || !get_u64(p, "seq", &seq) ||
			    !get_u64(p, "insns", &in) || !get_u64(p, "branches", &br)) {
				printf("BAD pmu line: %s", line);
				mismatches++;
				continue;
			}
			for (size_t i = npred; i-- > 0 && !r;)
				if (pred[i].id == id && pred[i].seq == seq && pred[i].vcpu == vcpu)
					r = &pred[i];
			if (!r) {
				printf("BAD pmu line for a region never predicted: %s", line);
				mismatches++;
				continue;
			}
			r->has_pmu = true;
			r->pmu_insns = in;
			r->pmu_branches = br;
		}
	}
	fclose(f);

	f = fopen(argv[2], "r");
	if (!f) {
		perror(argv[2]);
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "armed ", 6)) {
			armed = true;
		} else if (!strncmp(line, "done ", 5)) {
			done = true;
		} else if (!strncmp(line, "error ", 6)) {
			printf("PLUGIN %s", line);
			plugin_errors++;
		} else if (!strncmp(line, "region ", 7)) {
			if (nobs == MAX_REGIONS || !parse_region(line, &obs[nobs], false)) {
				printf("BAD plugin line: %s", line);
				mismatches++;
				continue;
			}
			nobs++;
		}
	}
	fclose(f);

	if (!armed) {
		printf("FAIL the plugin never saw the firmware's ARM marker\n");
		mismatches++;
	}
	if (overhead < 0) {
		printf("FAIL no '# oracle: frame overhead=' line: was the firmware run with option oracle?\n");
		mismatches++;
	}
	if (npred == 0) {
		printf("FAIL no region was predicted\n");
		mismatches++;
	}
	for (size_t i = 0; i < npred; i++) {
		struct region *p = &pred[i];
		struct region *o = NULL;

		for (size_t k = 0; k < nobs && !o; k++)
			if (!obs[k].matched && obs[k].id == p->id && obs[k].seq == p->seq &&
			    obs[k].vcpu == p->vcpu)
				o = &obs[k];
		if (!o) {
			printf("MISSING kernel=%s n=%" PRIu64 " region=%u seq=%u: predicted, never "
			       "observed\n", p->kernel, p->n, p->id, p->seq);
			mismatches++;
			continue;
		}
		o->matched = true;
		compare(p, o);
		if (p->has_pmu) {
			/* fields 1..6: cond_taken .. far, every kind of branch */
			uint64_t ob = o->v[1] + o->v[2] + o->v[3] + o->v[4] + o->v[5] + o->v[6];
			long w = (long)((int64_t)p->pmu_insns - (int64_t)(o->v[0] - FRAME_WRMSRS));

			npmu++;
			if (wrmsrs < 0 && w >= 0 && w <= FRAME_WRMSRS)
				wrmsrs = w;
			if (w != wrmsrs) {
				printf("MISMATCH kernel=%s n=%" PRIu64 " region=%u seq=%u: pmu_insns "
				       "observed=%" PRIu64 " pmu=%" PRIu64 " (region less its %d WRMSRs "
				       "plus %ld counted)\n", p->kernel, p->n, p->id, p->seq,
				       o->v[0] - FRAME_WRMSRS + (wrmsrs < 0 ? 0 : (uint64_t)wrmsrs),
				       p->pmu_insns, FRAME_WRMSRS, wrmsrs < 0 ? 0 : wrmsrs);
				mismatches++;
			}
			if (p->pmu_branches != ob) {
				printf("MISMATCH kernel=%s n=%" PRIu64 " region=%u seq=%u: pmu_branches "
				       "observed=%" PRIu64 " pmu=%" PRIu64 "\n", p->kernel, p->n, p->id,
				       p->seq, ob, p->pmu_branches);
				mismatches++;
			}
		}
		if (icount && overhead >= 0 && !p->pmu_frame && !p->concurrent && p->tsc != o->v[0] + (uint64_t)overhead) {
			printf("MISMATCH kernel=%s n=%" PRIu64 " region=%u seq=%u: frame overhead "
			       "predicted=%ld observed=%" PRId64 " (tsc %" PRIu64 " - insns %" PRIu64 ")\n",
			       p->kernel, p->n, p->id, p->seq, overhead,
			       (int64_t)(p->tsc - o->v[0]), p->tsc, o->v[0]);
			mismatches++;
		}
	}
	for (size_t k = 0; k < nobs; k++) {
		if (!obs[k].matched) {
			printf("UNPREDICTED region=%u seq=%u vcpu=%u: observed, never predicted\n",
			       obs[k].id, obs[k].seq, obs[k].vcpu);
			mismatches++;
		}
	}
	printf("oracle: %zu regions predicted, %zu observed, %lu differences, %lu plugin errors%s\n",
	       npred, nobs, mismatches, plugin_errors, done ? "" : " (plugin summary missing)");
	if (npmu)
		printf("oracle: %zu regions counted by the PMU, instructions and branches as observed "
		       "(the frame's WRMSRs counted: %ld of %d)\n", npmu, wrmsrs, FRAME_WRMSRS);
	return mismatches || plugin_errors ? 1 : 0;
}
