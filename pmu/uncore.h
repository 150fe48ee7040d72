/* SPDX-License-Identifier: MIT */
/*
 * The uncore PMU of Skylake-client parts (seed 001_dad58ad4a296bcf3.txt: CBo, ARB and the
 * fixed UCLK counter through MSRs, the IMC's DRAM counters through MCHBAR) and of Nehalem
 * (seed 000_666bff9af8f20138.txt "Uncore Performance Events": eight counters and a fixed
 * one), reached only through arch/x86/hw.h. Found by model number and touched only then:
 * discovery reads (RDMSR, PCI configuration, MMIO) and writes nothing; where a read faults or
 * returns what no such uncore would, the uncore is reported absent with the register and
 * the value, and no write ever reaches it.
 *
 * Functions return 0, PMU_EARG (-1) for a request the uncore cannot take (err says why;
 * nothing was written), or the exception vector an access raised.
 */
#ifndef PMU_UNCORE_H
#define PMU_UNCORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "arch/x86/cpuid.h"
#include "pmu/pmu.h"

enum uncore_kind {
	UNCORE_NONE = 0,
	UNCORE_SKL,		/* 6th generation Core client and its successors (seed 001) */
	UNCORE_NHM,		/* Nehalem client/EP (seed 000) */
};

/* Widths: seed 001 Table 1-2 (CBo, ARB 44; fixed 48; IMC 32); SDM 18.8.2 (Nehalem: 48). */
#define UNC_SKL_CTR_WIDTH	44
#define UNC_SKL_FIXED_WIDTH	48
#define UNC_IMC_WIDTH		32
#define UNC_NHM_WIDTH		48
/* CBos pmuboot can address: seed 001 Table 1-2 gives 6th-generation parts 1 to 4; Coffee
 * Lake and Comet Lake parts with 6 or 8 cores have one per core, the 8th at 0F70H (Linux
 * uncore_snb.c, CFL_UNC_CBO_7_PERFEVTSEL0). Linux addresses no more than 8 either. */
#define UNC_SKL_MAX_CBO		8
#define UNC_SKL_BOX_CTRS	2	/* counters per CBo and in the ARB */
#define UNC_NHM_CTRS		8

/* Which counter: the fixed UCLK counter, a CBo's (unit = CBo), the ARB's, or Nehalem's. */
enum uncore_box { UNC_BOX_FIXED, UNC_BOX_CBO, UNC_BOX_ARB, UNC_BOX_NHM };
struct uncore_ctr {
	enum uncore_box box;
	unsigned unit;		/* CBo number */
	unsigned idx;		/* counter within the box */
};

/* Event encodings. Seed 001 Table 3-1 (CBo; counters 0 and 1) and Table 3-2 (ARB). */
#define UNC_CBO_XSNP_RESPONSE		0x22
#define  UNC_CBO_XSNP_MISS_XCORE	0x41
#define  UNC_CBO_XSNP_MISS_EVICTION	0x81
#define  UNC_CBO_XSNP_HIT_XCORE		0x44
#define  UNC_CBO_XSNP_HITM_XCORE	0x48
#define UNC_CBO_CACHE_LOOKUP		0x34
#define  UNC_CBO_LOOKUP_WRITE_M		0x21
#define  UNC_CBO_LOOKUP_ANY_M		0x81
#define  UNC_CBO_LOOKUP_READ_I		0x18
#define  UNC_CBO_LOOKUP_ANY_I		0x88
#define  UNC_CBO_LOOKUP_READ_MESI	0x1f
#define  UNC_CBO_LOOKUP_WRITE_MESI	0x2f
#define  UNC_CBO_LOOKUP_ANY_MESI	0x8f
#define  UNC_CBO_LOOKUP_ANY_ES		0x86
#define  UNC_CBO_LOOKUP_READ_ES		0x16
#define  UNC_CBO_LOOKUP_WRITE_ES	0x26
#define UNC_ARB_TRK_OCCUPANCY		0x80	/* umask 01H: ALL; counter 0 only */
#define  UNC_ARB_TRK_OCCUPANCY_ALL	0x01
#define UNC_ARB_TRK_REQUESTS		0x81
#define  UNC_ARB_TRK_REQUESTS_ALL	0x01
#define  UNC_ARB_TRK_REQUESTS_WRITES	0x20
#define UNC_ARB_COH_TRK_REQUESTS	0x84
#define  UNC_ARB_COH_TRK_REQUESTS_ALL	0x01
/* Seed 000 Table 22 (GQ trackers), Table 32 (IMC, called QMC in Linux and libpfm). */
#define UNC_GQ_TRACKER_OCCUP		0x02
#define UNC_GQ_ALLOC			0x03
#define  UNC_GQ_RT			0x01	/* read tracker */
#define  UNC_GQ_RT_LLC_MISS		0x02
#define  UNC_GQ_WT			0x20	/* write tracker */
#define UNC_IMC_NORMAL_OCCUPANCY	0x2a
#define UNC_IMC_NORMAL_READS		0x2c
#define  UNC_IMC_NORMAL_READS_ANY	0x07
#define UNC_IMC_WRITES			0x2f
#define  UNC_IMC_WRITES_FULL_ANY	0x07

/* Seed 001 Table 3-3: the IMC's free-running DRAM counters at MCHBAR + offset. */
enum uncore_imc_ctr {
	UNC_IMC_GT_REQUESTS,		/* 5040H */
	UNC_IMC_IA_REQUESTS,		/* 5044H */
	UNC_IMC_IO_REQUESTS,		/* 5048H */
	UNC_IMC_DATA_READS,		/* 5050H: RdCAS, 64 bytes each */
	UNC_IMC_DATA_WRITES,		/* 5054H: WrCAS, 64 bytes each */
	UNC_IMC_NUM,
};
uint32_t uncore_imc_offset(enum uncore_imc_ctr c);
const char *uncore_imc_name(enum uncore_imc_ctr c);

/* A CBo/ARB or Nehalem event select, field by field. */
struct uncore_evtsel {
	uint8_t event, umask;
	uint8_t thr;		/* Skylake THR (bits 28:24, 0..31); Nehalem CMASK (31:24) */
	bool inv, edge;
	bool ovf_en;		/* Skylake OVF_EN (20); Nehalem PMI (20) */
	bool en;
	bool occ_rst;		/* Nehalem OCC_CTR_RST (17) only */
};

/* What discovery found; every check reads it. */
struct uncore_caps {
	enum uncore_kind kind;		/* by model number alone */
	bool probed;			/* discovery ran */
	bool present;			/* the MSR probe passed: counters may be programmed */
	char why[200];			/* when not present: what is missing, register and value */
	/* Skylake */
	uint64_t cbo_config;		/* MSR_UNC_CBO_CONFIG as read */
	unsigned num_cbo;		/* NO_CBO_BANKS - 1 (seed 001 2.4.1), at most UNC_SKL_MAX_CBO */
	unsigned cbo_found;		/* NO_CBO_BANKS - 1 as read (above 8 on a 10-core part) */
	uint64_t global_ctrl_found;	/* the uncore's global control as the firmware left it */
	/* The IMC (Skylake): MCHBAR from 0:0.0 48H */
	bool imc;			/* MCHBAR usable: IMC counters may be read */
	char imc_why[200];
	uint16_t host_vendor, host_device;
	uint64_t mchbar_reg;		/* 48H/4CH as read */
	uint64_t mchbar;		/* base, bits 38:15 (datasheet) */
	uint64_t mchbar_seed;		/* base as seed 001 masks it (bits 34:15) */
	bool masks_differ;		/* the two bases differ: the datasheet's is used */
};

extern struct uncore_caps uncore;

/* Pure: the uncore an Intel family 6 model has (Linux arch/x86/events/intel/uncore.c match
 * table, SDM Vol. 4 Table 2-1): Skylake 4EH, 5EH; Kaby/Coffee Lake 8EH, 9EH; Comet Lake
 * A5H, A6H -> UNCORE_SKL; Nehalem 1AH, 1EH -> UNCORE_NHM. */
enum uncore_kind uncore_kind_from_model(enum cpu_vendor v, uint32_t family, uint32_t model);
const char *uncore_kind_name(enum uncore_kind k);
/* Pure: CBos from MSR_UNC_CBO_CONFIG (NO_CBO_BANKS - 1), at most UNC_SKL_MAX_CBO (the ones
 * with known MSRs); 0 when implausible (reserved bits set, or no CBo), with why saying so. */
unsigned uncore_skl_cbo_count(uint64_t cbo_config, char *why, size_t len);
/* Pure: MCHBAR bases from the 64-bit register value. */
uint64_t uncore_mchbar_base(uint64_t reg);
uint64_t uncore_mchbar_base_seed(uint64_t reg);
/* Pure: end - start modulo 2^width (the IMC counters wrap at 32 bits). */
uint64_t uncore_delta(uint64_t start, uint64_t end, unsigned width);

/*
 * Discovery on the running CPU (after pmuboot owns GS base and the IDT): the kind by model;
 * then reads only. Skylake: MSR_UNC_CBO_CONFIG (a plausible CBo count) and
 * MSR_UNC_PERF_GLOBAL_CTRL (no reserved bit set); Nehalem: MSR_UNCORE_PERF_GLOBAL_CTRL,
 * _STATUS and MSR_UNCORE_FIXED_CTR_CTRL (no reserved bit set). An uncore comes with a core
 * PMU (its PMIs arrive through it): without an architectural one (CPUID.0AH) it is absent.
 * Under a hypervisor a register that no such uncore has (CBo 4's select, Nehalem's ninth
 * select) must fault too, or the reads prove nothing (QEMU's TCG reads every MSR it does
 * not know as 0). The IMC (Skylake): Intel vendor at 0:0.0, MCHBAREN set, a nonzero base.
 */
void uncore_discover(struct uncore_caps *u, const struct pmu_caps *p);
void uncore_probe(void);	/* into the global uncore, from the global pmu */
/* `# uncore:` header lines through print(). */
void uncore_caps_describe(const struct uncore_caps *u, void (*print)(const char *line));
/* Why kind `want`'s counters cannot be used here, or NULL; the IMC's alike. */
const char *uncore_unavailable_reason(const struct uncore_caps *u, enum uncore_kind want);
const char *uncore_imc_unavailable_reason(const struct uncore_caps *u);

/* Pure: which counters (bit x: counter x of its box) an event may use (seed 001 Tables 3-1,
 * 3-2: UNC_ARB_TRK_OCCUPANCY only counter 0); events outside the tables: every counter. */
unsigned uncore_event_counters(enum uncore_kind k, enum uncore_box box, uint8_t event,
			       uint8_t umask);
/* Pure: the select's encoding, or PMU_EARG-style refusal through *err when a field does not
 * fit the kind (THR > 31 on Skylake, OCC_CTR_RST on Skylake). */
int uncore_evtsel_encode(enum uncore_kind k, const struct uncore_evtsel *e, uint64_t *sel,
			 char *err, size_t errlen);
/* Counter widths, and the MSRs of a counter (select 0 for the fixed counter: its control). */
unsigned uncore_width(enum uncore_kind k, enum uncore_box box);
int uncore_ctr_msrs(const struct uncore_caps *u, struct uncore_ctr c, uint32_t *sel,
		    uint32_t *ctr, char *err, size_t errlen);

/*
 * Programs counter c: checks that it exists, that the event may use it and that the value
 * fits its width, then writes the select with EN clear, the counter, and the select.
 * Writes nothing unless u->present.
 */
int uncore_program(const struct uncore_caps *u, struct uncore_ctr c, const struct uncore_evtsel *e,
		   uint64_t value, char *err, size_t errlen);
/* The fixed UCLK counter: Skylake CNT_EN/OVF_EN, Nehalem EN/PMI; control cleared first. */
int uncore_fixed_program(const struct uncore_caps *u, bool en, bool ovf_en, uint64_t value,
			 char *err, size_t errlen);
int uncore_read(const struct uncore_caps *u, struct uncore_ctr c, uint64_t *v);
/* Writes counter c's value as it is (select untouched): for width probes. */
int uncore_write(const struct uncore_caps *u, struct uncore_ctr c, uint64_t v);
/* Sum of counter idx of every CBo (seed 001 3.1: work with the sum over all CBos), e.g. the
 * cross-core XSNP_RESPONSE.HITM_XCORE count once SMP lands. */
int uncore_cbo_sum(const struct uncore_caps *u, unsigned idx, uint64_t *sum);

/*
 * The global control value enabling counters ctrs (Nehalem: their EN_PCx / EN_FC0; Skylake:
 * EN, which gates every box), forwarding PMIs to the cores in pmi_cores (bit x: core x;
 * Skylake PMI_SEL_CORE, Nehalem EN_PMI_CORE), freezing on PMI with frz. Pure.
 */
uint64_t uncore_global_value(enum uncore_kind k, const struct uncore_ctr *ctrs, unsigned n,
			     uint32_t pmi_cores, bool frz);
/* The MSR the measurement frame writes that value to. */
uint32_t uncore_global_ctrl_msr(enum uncore_kind k);
int uncore_global_ctrl_write(const struct uncore_caps *u, uint64_t v, char *err, size_t errlen);
int uncore_global_ctrl_read(const struct uncore_caps *u, uint64_t *v);
int uncore_global_status(const struct uncore_caps *u, uint64_t *v);
/* Clears status bits: Skylake writes 1s to the RW1C status itself (seed 001 Table 2-3),
 * Nehalem to MSR_UNCORE_PERF_GLOBAL_OVF_CTRL. */
int uncore_global_status_clear(const struct uncore_caps *u, uint64_t bits);
/* Writes v to the status register as it is (Skylake: RW1C semantics under test). */
int uncore_global_status_write(const struct uncore_caps *u, uint64_t v);
/* The status bit of counter c (Skylake: one per box kind, Table 2-3). */
uint64_t uncore_status_bit(enum uncore_kind k, struct uncore_ctr c);
/* Every overflow bit of the kind's status register. */
uint64_t uncore_status_bits(enum uncore_kind k);

/*
 * Nehalem: writes the match register an event needs (PMU_EVF_MATCH in the catalog):
 * MSR_GQ_SNOOP_MESF (seed 000 Table 28) or MSR_UNCORE_ADDR_OPCODE_MATCH (Tables 37, 38). Any
 * other MSR, or another uncore, is refused (PMU_EARG, err says why) and nothing is written.
 * Both reset to 0 (the match logic powered down); write 0 back when done.
 */
int uncore_nhm_match_write(const struct uncore_caps *u, uint32_t msr, uint64_t v, char *err,
			   size_t errlen);

/* Skylake IMC counter read (32 bits, free-running). */
int uncore_imc_read(const struct uncore_caps *u, enum uncore_imc_ctr c, uint32_t *v);

/*
 * The uncore as found, saved before the first write and put back when the run ends; the
 * counters stopped and cleared after every check that wrote them.
 */
struct uncore_state {
	bool saved;
	uint64_t global_ctrl, fixed_ctrl, fixed;
	uint64_t sel[UNC_NHM_CTRS + 2 * (UNC_SKL_MAX_CBO + 1)];
	uint64_t ctr[UNC_NHM_CTRS + 2 * (UNC_SKL_MAX_CBO + 1)];
};
int uncore_save(const struct uncore_caps *u, struct uncore_state *s);
int uncore_restore(const struct uncore_caps *u, const struct uncore_state *s);
/* Stops and clears every counter and the overflow status. */
int uncore_reset(const struct uncore_caps *u);
/* For the firmware: the first call saves the found state (uncore_claim), uncore_quiesce
 * resets after a check that claimed it, uncore_boot_restore puts the found state back at
 * exit. All three do nothing unless the uncore is present and (for the last two) claimed. */
int uncore_claim(void);
void uncore_quiesce(void);
void uncore_boot_restore(void);

#endif /* PMU_UNCORE_H */
