/* SPDX-License-Identifier: MIT */
/*
 * The debug store (DS) save area: the BTS and PEBS buffers' base, index, absolute maximum
 * and interrupt threshold, and the PEBS counter reset values; BTS records; availability;
 * programming IA32_DS_AREA and IA32_PEBS_ENABLE; the firmware's settings saved and put back.
 *
 * Sources: SDM Vol. 3B 17.4.9 "BTS and DS Save Area" (the 64-bit layout, used in IA-32e mode
 * where CPUID.1:ECX.DTES64 is set; Figure "64-bit DS Save Area"), 17.4.9.1 (BTS record:
 * from, to, predicted flag), 18.6.2.4 / 18.8.1 (PEBS buffer use, reset values), Vol. 4
 * IA32_MISC_ENABLE bits 11/12, IA32_DS_AREA (600H), IA32_PEBS_ENABLE (3F1H). Where the
 * fixed counters' reset values sit (slot 8 + x with record format 4, 32 + x from format 5) is
 * as Linux's arch/x86/events/intel/ds.c programs them (MAX_PEBS_EVENTS_FMT4, MAX_PEBS_EVENTS).
 */
#ifndef PMU_DS_H
#define PMU_DS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "pmu/pmu.h"

#define DS_FMT4_FIXED_SLOT	8	/* format 4: fixed counter x's reset value at slot 8 + x */
#define DS_FMT5_FIXED_SLOT	32	/* format 5 and later: at slot 32 + x */
#define DS_RESET_SLOTS		(DS_FMT5_FIXED_SLOT + 16)

struct ds_area {
	uint64_t bts_buffer_base;		/* 00H */
	uint64_t bts_index;			/* 08H */
	uint64_t bts_absolute_maximum;		/* 10H */
	uint64_t bts_interrupt_threshold;	/* 18H */
	uint64_t pebs_buffer_base;		/* 20H */
	uint64_t pebs_index;			/* 28H */
	uint64_t pebs_absolute_maximum;		/* 30H */
	uint64_t pebs_interrupt_threshold;	/* 38H */
	uint64_t pebs_counter_reset[DS_RESET_SLOTS];	/* 40H: GP counter x at 40H + 8x */
};
_Static_assert(offsetof(struct ds_area, bts_interrupt_threshold) == 0x18, "DS layout");
_Static_assert(offsetof(struct ds_area, pebs_buffer_base) == 0x20, "DS layout");
_Static_assert(offsetof(struct ds_area, pebs_interrupt_threshold) == 0x38, "DS layout");
_Static_assert(offsetof(struct ds_area, pebs_counter_reset) == 0x40, "DS layout");
_Static_assert(sizeof(struct ds_area) == 0x40 + 8 * DS_RESET_SLOTS, "DS layout");

/* A branch trace store record (64-bit format, 24 bytes). */
struct bts_record {
	uint64_t from;				/* 00H: the branch's linear address */
	uint64_t to;				/* 08H: its target */
	uint64_t flags;				/* 10H: bit 4 predicted */
};
#define BTS_FLAG_PREDICTED	(1ULL << 4)
_Static_assert(sizeof(struct bts_record) == 24, "BTS record");
_Static_assert(offsetof(struct bts_record, flags) == 0x10, "BTS record");

/* Why the DS save area, BTS or PEBS cannot be used, naming the CPUID or MSR bit; NULL when
 * they can (force: run anyway, so the checks fail where the feature is missing). */
const char *ds_unavailable(const struct pmu_caps *p, bool force);
const char *bts_unavailable(const struct pmu_caps *p, bool force);
const char *pebs_unavailable(const struct pmu_caps *p, bool force);

/* The reset-value slot of a PEBS counter, or -1 where the record format gives that counter
 * none (fixed counters before format 4). */
int ds_reset_slot(const struct pmu_caps *p, bool fixed, unsigned idx);

/*
 * Fills the PEBS (or BTS) part of ds for a buffer of `bytes` at linear address `base`:
 * index = base, absolute maximum = base + records * record_size (the most whole records that
 * fit), interrupt threshold = base + threshold_records * record_size (0: one record short of
 * the maximum, so the interrupt comes when the buffer is all but full). 0, or -1 with err
 * naming the value: base not 8-byte aligned, a record size of 0 or not a multiple of 8, room
 * for no record, a threshold at or beyond the maximum (the SDM leaves undefined what a part
 * does when the index reaches both at once), a one-record PEBS buffer with threshold 0.
 */
int ds_setup_pebs(struct ds_area *ds, uint64_t base, uint64_t bytes, unsigned record_size,
		  unsigned threshold_records, char *err, size_t errlen);
/* BTS with threshold_records 0 is a circular buffer (BTINT clear): its threshold goes one
 * record past the maximum, as the SDM asks, so the wrap raises no interrupt. */
int ds_setup_bts(struct ds_area *ds, uint64_t base, uint64_t bytes, unsigned threshold_records,
		 char *err, size_t errlen);

/*
 * Checks the PEBS pointers as the CPU left them against the buffer pmuboot gave it
 * ([buf, buf + bytes)): base = buf, base <= index <= absolute maximum <= buf + bytes,
 * threshold within (base, maximum] (past the maximum the buffer fills before the interrupt
 * can come; for BTS, past the maximum is the circular buffer's setting), and, for fixed-size records (record_size != 0), index
 * and maximum on a record boundary. 0, or -1 with err naming the field and its value.
 */
int ds_check_pebs(const struct ds_area *ds, uint64_t buf, uint64_t bytes, unsigned record_size,
		  char *err, size_t errlen);
int ds_check_bts(const struct ds_area *ds, uint64_t buf, uint64_t bytes, char *err,
		 size_t errlen);

/* Records from base up to the index, decoded from the buffer memory `mem` (host tests pass
 * a copy; on the target mem is the buffer itself): at most max into out; -1 with err when
 * ds_check_bts() fails. */
int bts_records(const struct ds_area *ds, const void *mem, uint64_t buf, uint64_t bytes,
		struct bts_record *out, unsigned max, unsigned *n, char *err, size_t errlen);

/* Hardware (arch/x86/hw.h): 0, or the vector of a faulting access. */
int ds_area_write(uint64_t linear);
int pebs_enable_write(uint64_t mask);
int pebs_enable_read(uint64_t *mask);
int pebs_data_cfg_write(uint64_t cfg);
int pebs_ld_lat_write(uint64_t threshold);
int pebs_frontend_write(uint64_t v);

/* The firmware's DS settings, saved before the first check and put back at exit. pmuboot
 * never writes the firmware's save area or buffers: it points IA32_DS_AREA at its own. */
struct ds_state {
	bool saved;
	bool has_ds_area, has_pebs_enable, has_data_cfg, has_ld_lat, has_frontend;
	uint64_t ds_area, pebs_enable, data_cfg, ld_lat, frontend;
};
int ds_save(const struct pmu_caps *p, struct ds_state *s);
/* PEBS off first, then the MSRs as saved. */
int ds_restore(const struct pmu_caps *p, const struct ds_state *s);
/* PEBS_ENABLE 0 (and DATA_CFG 0) where PEBS exists: part of the reset baseline. */
int ds_quiesce(const struct pmu_caps *p);

/* Whether the model has load-latency PEBS through MSR_PEBS_LD_LAT_THRESHOLD (Nehalem and
 * later big cores, the P-cores of Alder, Raptor and Meteor Lake) and FRONTEND_RETIRED
 * C6H/01H with MSR_PEBS_FRONTEND (Skylake to Rocket Lake). */
bool pebs_has_ld_lat(const struct pmu_caps *p);
bool pebs_has_frontend(const struct pmu_caps *p);
/* Golden Cove and later big cores (Sapphire/Emerald/Granite Rapids, the P-cores of Alder
 * Lake and later): their PEBS constraints differ (no GP0 for instructions and load latency;
 * load latency wants the auxiliary event 8203H; the memory group's latency field split). */
bool pebs_golden_cove(const struct pmu_caps *p);
/*
 * Whether PEBS on this counter and event has precise distribution (PDIR, PDist): records on
 * the instruction whose event overflowed the counter, without the "shadow" other PEBS
 * counters show (SDM Vol. 3B 18.9.4.4: "a finite delay ... variable 'skids' in instruction
 * address space"; PDIR "eliminat[es] skid"). Sandy Bridge to Kaby Lake: INST_RETIRED.ALL /
 * PREC_DIST, C0H/01H, on IA32_PMC1 only. Ice Lake to Rocket Lake and Golden Cove: fixed
 * counter 0 (Linux maps INST_RETIRED.PREC_DIST there). Nothing before Sandy Bridge; Cannon
 * Lake and the Atom cores: not known here, so false.
 */
bool pebs_pdir(const struct pmu_caps *p, bool fixed, unsigned idx, uint8_t event, uint8_t umask);
/* GP counters that take PEBS for instructions retired, as a GLOBAL_CTRL-style mask. */
uint64_t pebs_gp_mask(const struct pmu_caps *p);

#endif /* PMU_DS_H */
