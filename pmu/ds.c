/* SPDX-License-Identifier: MIT */
/* The debug store: availability, the save area's layout and checks, BTS records, MSRs. */
#include "pmu/ds.h"
#include "arch/x86/hw.h"
#include "arch/x86/msr.h"
#include "arch/x86/trap.h"
#include "lib/fmt.h"
#include "lib/string.h"

const char *ds_unavailable(const struct pmu_caps *p, bool force)
{
	if (force)
		return NULL;
	if (pmu_caps_unavailable_reason(p, false))
		return pmu_caps_unavailable_reason(p, false);
	if (!p->dsc.ds)
		return "no debug store: CPUID.01H:EDX.DS[21]=0";
	if (!p->dsc.dtes64)
		return "no 64-bit DS save area: CPUID.01H:ECX.DTES64[2]=0";
	return NULL;
}

const char *bts_unavailable(const struct pmu_caps *p, bool force)
{
	if (force)
		return NULL;
	if (ds_unavailable(p, false))
		return ds_unavailable(p, false);
	if (!p->dsc.has_misc_enable)
		return "IA32_MISC_ENABLE (1A0H) could not be read: BTS availability unknown";
	if (p->dsc.bts_unavailable)
		return "no branch trace store: IA32_MISC_ENABLE.BTS_UNAVAILABLE[11]=1";
	return NULL;
}

const char *pebs_unavailable(const struct pmu_caps *p, bool force)
{
	static char why[160];
	uint32_t min_ucode;

	if (force)
		return NULL;
	if (ds_unavailable(p, false))
		return ds_unavailable(p, false);
	if (!p->dsc.has_misc_enable)
		return "IA32_MISC_ENABLE (1A0H) could not be read: PEBS availability unknown";
	if (p->dsc.pebs_unavailable)
		return "no PEBS: IA32_MISC_ENABLE.PEBS_UNAVAILABLE[12]=1";
	min_ucode = pmu_pebs_min_microcode(p->family, p->model, p->stepping);
	if (min_ucode && (!p->has_ucode_rev || p->ucode_rev < min_ucode)) {
		if (min_ucode == UINT32_MAX)
			fmt_snprintf(why, sizeof(why), "PEBS broken on family %u model 0x%x stepping "
				     "%u with any microcode (Linux intel_snb_pebs_broken)",
				     p->family, p->model, p->stepping);
		else if (!p->has_ucode_rev)
			fmt_snprintf(why, sizeof(why), "PEBS needs microcode >= 0x%x on model 0x%x and "
				     "the revision could not be read (IA32_BIOS_SIGN_ID)", min_ucode,
				     p->model);
		else
			fmt_snprintf(why, sizeof(why), "PEBS needs microcode >= 0x%x on model 0x%x "
				     "stepping %u, this one has 0x%x (Linux intel_snb_pebs_broken)",
				     min_ucode, p->model, p->stepping, p->ucode_rev);
		return why;
	}
	if (!p->pdcm)
		return "no IA32_PERF_CAPABILITIES (CPUID.01H:ECX.PDCM[15]=0): the PEBS record format "
		       "is unknown";
	if (!p->has_perf_caps)
		return "IA32_PERF_CAPABILITIES could not be read: the PEBS record format is unknown";
	if (p->pebs_format > 5) {
		fmt_snprintf(why, sizeof(why), "PEBS record format %u (IA32_PERF_CAPABILITIES[11:8]) "
			     "is not one pmuboot decodes (0-5)", p->pebs_format);
		return why;
	}
	return NULL;
}

int ds_reset_slot(const struct pmu_caps *p, bool fixed, unsigned idx)
{
	if (!fixed)
		return idx < (p->pebs_format >= 5 ? DS_FMT5_FIXED_SLOT : DS_FMT4_FIXED_SLOT) ?
		       (int)idx : -1;
	if (p->pebs_format == 4 && idx < DS_FMT5_FIXED_SLOT - DS_FMT4_FIXED_SLOT)
		return DS_FMT4_FIXED_SLOT + (int)idx;
	if (p->pebs_format >= 5 && idx < DS_RESET_SLOTS - DS_FMT5_FIXED_SLOT)
		return DS_FMT5_FIXED_SLOT + (int)idx;
	return -1;
}

/* Common to both buffers: base, size, records, threshold. */
static int setup(uint64_t *fields, uint64_t base, uint64_t bytes, unsigned rec,
		 unsigned threshold_records, const char *what, char *err, size_t errlen)
{
	uint64_t records;

	if (base & 7) {
		fmt_snprintf(err, errlen, "%s buffer base 0x%llx is not 8-byte aligned", what,
			     (unsigned long long)base);
		return -1;
	}
	if (rec == 0 || rec % 8) {
		fmt_snprintf(err, errlen, "%s record size %u is not a positive multiple of 8", what,
			     rec);
		return -1;
	}
	records = bytes / rec;
	if (records == 0) {
		fmt_snprintf(err, errlen, "%s buffer of %llu bytes holds no %u-byte record", what,
			     (unsigned long long)bytes, rec);
		return -1;
	}
	if (threshold_records > records) {
		fmt_snprintf(err, errlen, "%s interrupt threshold of %u records is beyond the "
			     "maximum of %llu", what, threshold_records, (unsigned long long)records);
		return -1;
	}
	/* The SDM (Vol. 3B 17.4.9) wants the threshold short of the maximum and leaves
	 * undefined what a part does when the index reaches both at once: stop, wrap to the
	 * base, or write one record past (the emulation's pmu-ds-thresh-at-max). */
	if (threshold_records == records) {
		fmt_snprintf(err, errlen, "%s interrupt threshold of %u records equals the "
			     "maximum: what a part does there is undefined (SDM Vol. 3B 17.4.9)",
			     what, threshold_records);
		return -1;
	}
	fields[0] = base;
	fields[1] = base;
	fields[2] = base + records * rec;
	fields[3] = threshold_records ? base + (uint64_t)threshold_records * rec : 0;
	return 0;
}

int ds_setup_pebs(struct ds_area *ds, uint64_t base, uint64_t bytes, unsigned record_size,
		  unsigned threshold_records, char *err, size_t errlen)
{
	uint64_t f[4];

	if (setup(f, base, bytes, record_size, threshold_records, "PEBS", err, errlen))
		return -1;
	/* 0: the interrupt one record short of the maximum, so that the last record is the
	 * only one written once the interrupt was asked for (Linux ds.c keeps its threshold
	 * short of the maximum the same way). */
	if (!threshold_records) {
		if (f[2] - f[0] < 2ULL * record_size) {
			fmt_snprintf(err, errlen, "a PEBS buffer of one %u-byte record has no "
				     "interrupt threshold short of its maximum", record_size);
			return -1;
		}
		f[3] = f[2] - record_size;
	}
	ds->pebs_buffer_base = f[0];
	ds->pebs_index = f[1];
	ds->pebs_absolute_maximum = f[2];
	ds->pebs_interrupt_threshold = f[3];
	return 0;
}

int ds_setup_bts(struct ds_area *ds, uint64_t base, uint64_t bytes, unsigned threshold_records,
		 char *err, size_t errlen)
{
	uint64_t f[4];

	if (setup(f, base, bytes, sizeof(struct bts_record), threshold_records, "BTS", err,
		  errlen))
		return -1;
	/* A circular buffer (BTINT clear) needs the threshold past the maximum, or the wrap
	 * still interrupts (SDM Vol. 3B 18.4.9 / 17.4.9 note on circular BTS buffers). */
	if (!threshold_records)
		f[3] = f[2] + sizeof(struct bts_record);
	ds->bts_buffer_base = f[0];
	ds->bts_index = f[1];
	ds->bts_absolute_maximum = f[2];
	ds->bts_interrupt_threshold = f[3];
	return 0;
}

static int check(const uint64_t *fields, uint64_t buf, uint64_t bytes, unsigned rec,
		 bool threshold_past_max_ok, const char *what, char *err, size_t errlen)
{
	uint64_t base = fields[0], index = fields[1], max = fields[2], thr = fields[3];

	if (base != buf) {
		fmt_snprintf(err, errlen, "%s buffer base 0x%llx is not the buffer given (0x%llx)",
			     what, (unsigned long long)base, (unsigned long long)buf);
		return -1;
	}
	if (base & 7) {
		fmt_snprintf(err, errlen, "%s buffer base 0x%llx is not 8-byte aligned", what,
			     (unsigned long long)base);
		return -1;
	}
	if (max < base || max - base > bytes) {
		fmt_snprintf(err, errlen, "%s absolute maximum 0x%llx is outside the %llu-byte "
			     "buffer at 0x%llx", what, (unsigned long long)max,
			     (unsigned long long)bytes, (unsigned long long)base);
		return -1;
	}
	if (index < base || index > max) {
		fmt_snprintf(err, errlen, "%s index 0x%llx is outside [base 0x%llx, absolute maximum "
			     "0x%llx]", what, (unsigned long long)index, (unsigned long long)base,
			     (unsigned long long)max);
		return -1;
	}
	if (rec && ((index - base) % rec || (max - base) % rec)) {
		fmt_snprintf(err, errlen, "%s index 0x%llx or maximum 0x%llx is not on a %u-byte "
			     "record boundary from base 0x%llx", what, (unsigned long long)index,
			     (unsigned long long)max, rec, (unsigned long long)base);
		return -1;
	}
	if (thr <= base) {
		fmt_snprintf(err, errlen, "%s interrupt threshold 0x%llx is not above the base 0x%llx",
			     what, (unsigned long long)thr, (unsigned long long)base);
		return -1;
	}
	if (thr > max && !threshold_past_max_ok) {
		fmt_snprintf(err, errlen, "%s interrupt threshold 0x%llx is past the absolute maximum "
			     "0x%llx", what, (unsigned long long)thr, (unsigned long long)max);
		return -1;
	}
	return 0;
}

int ds_check_pebs(const struct ds_area *ds, uint64_t buf, uint64_t bytes, unsigned record_size,
		  char *err, size_t errlen)
{
	const uint64_t f[4] = { ds->pebs_buffer_base, ds->pebs_index, ds->pebs_absolute_maximum,
				ds->pebs_interrupt_threshold };

	return check(f, buf, bytes, record_size, false, "PEBS", err, errlen);
}

int ds_check_bts(const struct ds_area *ds, uint64_t buf, uint64_t bytes, char *err,
		 size_t errlen)
{
	const uint64_t f[4] = { ds->bts_buffer_base, ds->bts_index, ds->bts_absolute_maximum,
				ds->bts_interrupt_threshold };

	return check(f, buf, bytes, sizeof(struct bts_record), true, "BTS", err, errlen);
}

int bts_records(const struct ds_area *ds, const void *mem, uint64_t buf, uint64_t bytes,
		struct bts_record *out, unsigned max, unsigned *n, char *err, size_t errlen)
{
	uint64_t count;

	*n = 0;
	if (ds_check_bts(ds, buf, bytes, err, errlen))
		return -1;
	count = (ds->bts_index - ds->bts_buffer_base) / sizeof(struct bts_record);
	for (uint64_t i = 0; i < count && i < max; i++) {
		memcpy(&out[i], (const uint8_t *)mem + i * sizeof(struct bts_record),
		       sizeof(struct bts_record));
		*n = (unsigned)(i + 1);
	}
	return 0;
}

int ds_area_write(uint64_t linear)
{
	return hw_wrmsr(MSR_IA32_DS_AREA, linear);
}

int pebs_enable_write(uint64_t mask)
{
	return hw_wrmsr(MSR_IA32_PEBS_ENABLE, mask);
}

int pebs_enable_read(uint64_t *mask)
{
	return hw_rdmsr(MSR_IA32_PEBS_ENABLE, mask);
}

int pebs_data_cfg_write(uint64_t cfg)
{
	return hw_wrmsr(MSR_PEBS_DATA_CFG, cfg);
}

int pebs_ld_lat_write(uint64_t threshold)
{
	return hw_wrmsr(MSR_PEBS_LD_LAT_THRESHOLD, threshold);
}

int pebs_frontend_write(uint64_t v)
{
	return hw_wrmsr(MSR_PEBS_FRONTEND, v);
}

bool pebs_has_ld_lat(const struct pmu_caps *p)
{
	/* Big cores only: the Atom cores have no MSR_PEBS_LD_LAT_THRESHOLD event of this kind
	 * (Goldmont to Tremont none; Gracemont and later another event, 05D0H; Linux core.c). */
	switch (p->uarch) {
	case UARCH_NEHALEM: case UARCH_WESTMERE: case UARCH_SANDY_BRIDGE: case UARCH_IVY_BRIDGE:
	case UARCH_HASWELL: case UARCH_BROADWELL: case UARCH_SKYLAKE: case UARCH_SKYLAKE_X:
	case UARCH_KABY_LAKE: case UARCH_CANNON_LAKE: case UARCH_ICE_LAKE: case UARCH_ICE_LAKE_X:
	case UARCH_TIGER_LAKE: case UARCH_ROCKET_LAKE: case UARCH_SAPPHIRE_RAPIDS:
	case UARCH_EMERALD_RAPIDS: case UARCH_GRANITE_RAPIDS:
		return p->pebs_format >= 1;
	case UARCH_ALDER_LAKE: case UARCH_RAPTOR_LAKE: case UARCH_METEOR_LAKE:
		/* A hybrid part's P-core, Golden Cove or Redwood Cove: Linux's cpu_core PMU
		 * takes the Golden Cove load-latency constraints (GP1 and up, the auxiliary
		 * event). Not the Lion Cove P-cores (Lunar, Arrow Lake): load latency on GP2
		 * and up there (intel_lnc_pebs_event_constraints), which the check does not
		 * choose. */
		return pebs_golden_cove(p) && p->pebs_format >= 1;
	default:
		return false;
	}
}

bool pebs_golden_cove(const struct pmu_caps *p)
{
	switch (p->uarch) {
	case UARCH_SAPPHIRE_RAPIDS: case UARCH_EMERALD_RAPIDS: case UARCH_GRANITE_RAPIDS:
		return true;
	case UARCH_ALDER_LAKE: case UARCH_RAPTOR_LAKE: case UARCH_METEOR_LAKE:
	case UARCH_ARROW_LAKE: case UARCH_LUNAR_LAKE: case UARCH_PANTHER_LAKE:
		return p->core_type == HYBRID_CORE_CORE;
	default:
		return false;
	}
}

uint64_t pebs_gp_mask(const struct pmu_caps *p)
{
	unsigned n = p->num_gp;

	if (p->pebs_format == 0)
		return n ? 1 : 0;		/* Core 2: PMC0 (SDM 18.6.2.4) */
	switch (p->uarch) {
	case UARCH_BONNELL: case UARCH_SALTWELL: case UARCH_SILVERMONT: case UARCH_AIRMONT:
	case UARCH_GOLDMONT: case UARCH_GOLDMONT_PLUS: case UARCH_TREMONT:
	case UARCH_KNIGHTS_LANDING: case UARCH_KNIGHTS_MILL:
		return n ? 1 : 0;		/* Linux intel_slm/glm_pebs_event_constraints */
	default:
		break;
	}
	if (p->pebs_format < 4 && n > 4)
		n = 4;				/* PEBS_EN_PMC0-3 */
	if (n > 8)
		n = 8;
	/* Golden Cove: instructions retired and load latency take PEBS on PMC1.. only
	 * (Linux intel_spr_pebs_event_constraints: 0xfe). */
	return ((1ULL << n) - 1) & (pebs_golden_cove(p) ? ~1ULL : ~0ULL);
}

bool pebs_pdir(const struct pmu_caps *p, bool fixed, unsigned idx, uint8_t event, uint8_t umask)
{
	switch (p->uarch) {
	case UARCH_SANDY_BRIDGE: case UARCH_IVY_BRIDGE: case UARCH_HASWELL: case UARCH_BROADWELL:
	case UARCH_SKYLAKE: case UARCH_SKYLAKE_X: case UARCH_KABY_LAKE:
		/* SDM Vol. 3B 18.9.4.4; Linux's snb..skl PEBS constraints: 01C0H on mask 0x2. */
		return p->pebs_format >= 1 && !fixed && idx == 1 && event == 0xc0 && umask == 0x01;
	case UARCH_ICE_LAKE: case UARCH_ICE_LAKE_X: case UARCH_TIGER_LAKE: case UARCH_ROCKET_LAKE:
		/* Linux intel_icl_event_constraints: INST_RETIRED.PREC_DIST on fixed counter 0. */
		return p->dsc.pebs_baseline && fixed && idx == 0;
	default:
		return pebs_golden_cove(p) && p->dsc.pebs_baseline && fixed && idx == 0;
	}
}

bool pebs_has_frontend(const struct pmu_caps *p)
{
	/* FRONTEND_RETIRED as C6H/01H (seed 003): Skylake through Rocket Lake. Golden Cove
	 * and later encode it with another unit mask; not yet. */
	switch (p->uarch) {
	case UARCH_SKYLAKE: case UARCH_SKYLAKE_X: case UARCH_KABY_LAKE: case UARCH_CANNON_LAKE:
	case UARCH_ICE_LAKE: case UARCH_ICE_LAKE_X: case UARCH_TIGER_LAKE: case UARCH_ROCKET_LAKE:
		return p->pebs_format >= 3;
	default:
		return false;
	}
}

int ds_save(const struct pmu_caps *p, struct ds_state *s)
{
	memset(s, 0, sizeof(*s));
	if (ds_unavailable(p, false))
		return 0;
	s->has_ds_area = hw_rdmsr(MSR_IA32_DS_AREA, &s->ds_area) == 0;
	if (!pebs_unavailable(p, false)) {
		s->has_pebs_enable = hw_rdmsr(MSR_IA32_PEBS_ENABLE, &s->pebs_enable) == 0;
		if (p->dsc.pebs_baseline)
			s->has_data_cfg = hw_rdmsr(MSR_PEBS_DATA_CFG, &s->data_cfg) == 0;
		if (pebs_has_ld_lat(p))
			s->has_ld_lat = hw_rdmsr(MSR_PEBS_LD_LAT_THRESHOLD, &s->ld_lat) == 0;
		if (pebs_has_frontend(p))
			s->has_frontend = hw_rdmsr(MSR_PEBS_FRONTEND, &s->frontend) == 0;
	}
	s->saved = true;
	return 0;
}

int ds_restore(const struct pmu_caps *p, const struct ds_state *s)
{
	int r = 0;

	(void)p;
	if (!s->saved)
		return 0;
	if (s->has_pebs_enable)
		r |= hw_wrmsr(MSR_IA32_PEBS_ENABLE, 0);
	if (s->has_data_cfg)
		r |= hw_wrmsr(MSR_PEBS_DATA_CFG, s->data_cfg);
	if (s->has_ld_lat)
		r |= hw_wrmsr(MSR_PEBS_LD_LAT_THRESHOLD, s->ld_lat);
	if (s->has_frontend)
		r |= hw_wrmsr(MSR_PEBS_FRONTEND, s->frontend);
	if (s->has_ds_area)
		r |= hw_wrmsr(MSR_IA32_DS_AREA, s->ds_area);
	if (s->has_pebs_enable)
		r |= hw_wrmsr(MSR_IA32_PEBS_ENABLE, s->pebs_enable);
	return r ? X86_TRAP_GP : 0;
}

int ds_quiesce(const struct pmu_caps *p)
{
	int r = 0;

	if (pebs_unavailable(p, false))
		return 0;
	r |= hw_wrmsr(MSR_IA32_PEBS_ENABLE, 0);
	if (p->dsc.pebs_baseline)
		r |= hw_wrmsr(MSR_PEBS_DATA_CFG, 0);
	return r ? X86_TRAP_GP : 0;
}
