/* SPDX-License-Identifier: MIT */
/*
 * Last branch records: the model-specific LBR stack (TOS, FROM/TO, LBR_INFO, LBR_SELECT) and
 * architectural LBR (CPUID leaf 1CH, IA32_LBR_CTL/DEPTH), decoded into one entry type.
 *
 * Sources: SDM Vol. 3B 17.4.8 (LBR stack), 17.9-17.15 (per family: depth, MSR addresses,
 * record formats), the architectural-LBR chapter, Vol. 4 MSR tables; seed
 * 000_666bff9af8f20138.txt Table 7 (LBR_SELECT filter bits). Record formats are
 * IA32_PERF_CAPABILITIES[5:0]: 0 32-bit, 1 LIP, 2 EIP, 3 EIP with flags (FROM[63] mispredicted),
 * 4 EIP with flags and TSX (FROM[63:61]), 5 LBR_INFO MSRs, 6 cycle count in TO[63:48] with
 * FROM[63] mispredicted, 7 LBR_INFO (second form).
 */
#ifndef PMU_LBR_H
#define PMU_LBR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "pmu/pmu.h"

#define LBR_FORMAT_32		0
#define LBR_FORMAT_LIP		1
#define LBR_FORMAT_EIP		2
#define LBR_FORMAT_EIP_FLAGS	3
#define LBR_FORMAT_EIP_FLAGS2	4
#define LBR_FORMAT_INFO		5
#define LBR_FORMAT_TIME		6
#define LBR_FORMAT_INFO2	7
#define LBR_FORMAT_ARCH		0x3f	/* PERF_CAPABILITIES[5:0] with architectural LBR */

/*
 * Pure: the LBR stack of microarchitecture u whose PERF_CAPABILITIES says `format`
 * (have_format false: PERF_CAPABILITIES absent, so the record layout is unknown and the
 * stack is left alone). arch_leaf is CPUID leaf 1CH when CPUID.07H.0:EDX[19] is set (NULL
 * otherwise): architectural LBR then wins over the model table.
 */
void lbr_caps_decode(struct lbr_caps *l, enum pmu_uarch u, bool have_format, unsigned format,
		     const struct cpuid_regs *arch_leaf);

/* Kinds of taken branch, as LBR_SELECT and IA32_LBR_CTL sort them. */
enum lbr_kind {
	LBR_KIND_JCC = 0,	/* taken conditional branch */
	LBR_KIND_REL_JMP,	/* near relative JMP */
	LBR_KIND_IND_JMP,	/* near indirect JMP */
	LBR_KIND_REL_CALL,	/* near relative CALL */
	LBR_KIND_IND_CALL,	/* near indirect CALL */
	LBR_KIND_RET,		/* near RET */
	LBR_KIND_FAR,		/* far transfer: far CALL/JMP/RET, IRET, interrupt, exception,
				 * SYSCALL/SYSRET, ... */
	NR_LBR_KINDS,
};
const char *lbr_kind_name(enum lbr_kind k);

/* A filter: kinds and privilege levels to drop (bit LBR_KIND_x; cpl0 / cpl3 drop branches
 * that end at CPL 0 / above it). 0: record everything. */
struct lbr_filter {
	uint32_t drop_kinds;
	bool drop_cpl0, drop_user;
};
/* Pure: MSR_LBR_SELECT for f (seed 000 Table 7: a set bit excludes). */
uint64_t lbr_select_value(const struct lbr_filter *f);
/* Pure: IA32_LBR_CTL for f, LBREn set (a set kind bit includes). */
uint64_t arch_lbr_ctl_value(const struct lbr_filter *f);

/* One record, decoded. */
struct lbr_entry {
	uint64_t from, to;	/* canonical addresses, flag bits removed */
	bool mispred;		/* valid where l->has_mispred */
	bool in_tx, abort;
	uint16_t cycles;	/* valid where l->has_cycles */
	uint64_t raw_from, raw_to, raw_info;
};
/* Pure: decode the raw FROM, TO and INFO (0 where none) values of one entry. */
void lbr_decode(const struct lbr_caps *l, uint64_t from, uint64_t to, uint64_t info,
		struct lbr_entry *e);

/* Why LBR checks cannot run here, or NULL (force: run anyway). */
const char *lbr_unavailable(const struct pmu_caps *p, bool force);

/*
 * Hardware, through arch/x86/hw.h (each returns 0, the vector of a faulting access, or
 * PMU_EARG for a request the stack cannot take).
 */
/* Entries the stack records into now (the DEPTH MSR for architectural LBR). */
unsigned lbr_depth(const struct lbr_caps *l);
/* Writes 0 into every FROM/TO/INFO (and TOS, where writable) so old records cannot pass for
 * new ones. */
int lbr_clear(const struct lbr_caps *l);
/* The filter (LBR_SELECT or IA32_LBR_CTL's kind bits). Legacy: recording itself is
 * DEBUGCTL.LBR (lbr_debugctl_on()); architectural: IA32_LBR_CTL.LBREn. */
int lbr_set_filter(const struct lbr_caps *l, const struct lbr_filter *f);
/* The MSR and value that start recording (DEBUGCTL | LBR, or IA32_LBR_CTL with f), and
 * whether a zero written to that MSR stops it (true for both: DEBUGCTL 0 drops the freeze
 * bits too, which the caller restores). */
void lbr_start_msr(const struct lbr_caps *l, const struct lbr_filter *f, uint64_t debugctl,
		   uint32_t *msr, uint64_t *value);
int lbr_tos(const struct lbr_caps *l, unsigned *tos);
/* Reads the whole stack, newest first, into out[0 .. *n - 1] (n <= max, depth). */
int lbr_read(const struct lbr_caps *l, struct lbr_entry *out, unsigned max, unsigned *n);
/* The firmware's LBR settings, to put back at exit. */
struct lbr_state {
	bool saved;
	uint64_t select, ctl, depth;
};
int lbr_save(const struct lbr_caps *l, struct lbr_state *s);
int lbr_restore(const struct lbr_caps *l, const struct lbr_state *s);

#endif /* PMU_LBR_H */
