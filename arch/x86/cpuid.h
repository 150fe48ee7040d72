/* SPDX-License-Identifier: MIT */
/* CPUID access and its decode into one cpu_info struct (decode is pure, host-tested). */
#ifndef ARCH_X86_CPUID_H
#define ARCH_X86_CPUID_H

#include <stdbool.h>
#include <stdint.h>

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

static inline struct cpuid_regs cpuid_count(uint32_t leaf, uint32_t subleaf)
{
	struct cpuid_regs r;
	asm volatile("cpuid" : "=a"(r.eax), "=b"(r.ebx), "=c"(r.ecx), "=d"(r.edx)
		     : "a"(leaf), "c"(subleaf));
	return r;
}

static inline struct cpuid_regs cpuid(uint32_t leaf) { return cpuid_count(leaf, 0); }

/* Leaf 1 feature bits */
#define CPUID_1_ECX_DTES64		(1U << 2)	/* 64-bit DS save area layout */
#define CPUID_1_ECX_MONITOR		(1U << 3)	/* MONITOR/MWAIT */
#define CPUID_1_ECX_PDCM		(1U << 15)
#define CPUID_1_ECX_X2APIC		(1U << 21)
#define CPUID_1_ECX_TSC_DEADLINE	(1U << 24)
#define CPUID_1_ECX_HYPERVISOR		(1U << 31)
#define CPUID_1_EDX_TSC			(1U << 4)
#define CPUID_1_EDX_MSR			(1U << 5)
#define CPUID_1_EDX_APIC		(1U << 9)
#define CPUID_1_EDX_DS			(1U << 21)	/* debug store: BTS and PEBS */
#define CPUID_1_EDX_SSE2		(1U << 26)
/* Leaf 0AH (architectural performance monitoring) */
#define CPUID_0A_EDX_ANYTHREAD_DEPRECATED	(1U << 15)	/* EVTSEL.AnyThread ignored */
/* Leaf 0x80000001 */
#define CPUID_80000001_EDX_PDPE1GB	(1U << 26)	/* 1-GiB pages */
#define CPUID_80000001_EDX_LM		(1U << 29)
/* Leaf 0x80000007 */
#define CPUID_80000007_EDX_INVTSC	(1U << 8)

#define CPUID_LEAF_MWAIT		0x05	/* EDX[4n+3:4n]: MWAIT sub-states of C-state n */
#define CPUID_LEAF_HYPERVISOR		0x40000000

enum cpu_vendor {
	VENDOR_UNKNOWN = 0,
	VENDOR_INTEL,
	VENDOR_AMD,
	VENDOR_HYGON,
	VENDOR_OTHER,
};

struct cpu_info {
	char vendor_id[13];		/* "GenuineIntel" */
	enum cpu_vendor vendor;
	uint32_t max_leaf;		/* CPUID.0:EAX */
	uint32_t max_ext_leaf;		/* CPUID.80000000H:EAX */
	uint32_t signature;		/* CPUID.1:EAX */
	uint32_t family;		/* display family: base + extended when base == 0xF */
	uint32_t model;			/* display model: ext << 4 | base when family 6 or 0xF */
	uint32_t stepping;
	uint32_t leaf1_ecx, leaf1_edx;
	uint32_t initial_apic_id;	/* CPUID.1:EBX[31:24] */
	char brand[49];			/* trimmed; "" when leaves 0x80000002-4 are absent */
	bool hypervisor;		/* CPUID.1:ECX[31] */
	char hv_signature[13];		/* CPUID.40000000H:EBX,ECX,EDX, "" when absent */
	uint32_t hv_max_leaf;
	bool long_mode, tsc, apic, msr, x2apic, tsc_deadline, pdcm, invariant_tsc;
	/* Time leaves, raw (0 when absent). */
	uint32_t l15_eax, l15_ebx, l15_ecx;	/* TSC/crystal ratio denominator, numerator, crystal Hz */
	uint32_t l16_eax;			/* processor base frequency MHz */
	uint32_t hv_tsc_khz;			/* CPUID.40000010H:EAX where the hypervisor offers it */
	bool pdpe1gb;				/* 1-GiB pages */
	unsigned phys_bits;			/* CPUID.80000008H:EAX[7:0], 36 when absent */
};

typedef struct cpuid_regs (*cpuid_fn)(void *ctx, uint32_t leaf, uint32_t subleaf);

/* Deterministic cache parameters, CPUID leaf 4 (SDM Vol. 2A CPUID, Table 3-8). */
#define CPUID_LEAF_CACHE	4
#define CACHE_TYPE_DATA		1
#define CACHE_TYPE_INSN		2
#define CACHE_TYPE_UNIFIED	3
#define MAX_CACHES		8

struct cache_info {
	unsigned level;		/* 1, 2, 3 */
	unsigned type;		/* CACHE_TYPE_* */
	uint64_t size;		/* bytes: ways * partitions * line size * sets */
	unsigned line, ways;
};

/* Reads leaf 4 subleaves until the null type; returns how many caches (Intel only). */
unsigned cpu_caches(cpuid_fn fn, void *ctx, const struct cpu_info *ci, struct cache_info *out,
		    unsigned max);
/* Size of the data or unified cache at `level`, 0 if none. */
uint64_t cache_size(const struct cache_info *c, unsigned n, unsigned level);

/*
 * How an x2APIC ID splits (SDM Vol. 2A CPUID leaves 1FH and 0BH, "extended topology"): its
 * bits below smt_shift number the logical processor within its core, the bits from smt_shift
 * below pkg_shift the core (with its module, tile and die), the rest the package.
 */
struct cpu_topo {
	bool known;		/* leaf 1FH or 0BH enumerated an SMT and a core level */
	uint32_t leaf;		/* the leaf it came from */
	unsigned smt_shift, pkg_shift;
};
/* Reads leaf 1FH where it has levels, else 0BH (Intel only); known false without them. */
void cpu_topo_decode(struct cpu_topo *t, cpuid_fn fn, void *ctx, const struct cpu_info *ci);
/* Decodes the running CPU's. */
void cpu_topo_read(struct cpu_topo *t, const struct cpu_info *ci);
/*
 * Of the n CPUs with x2APIC IDs apic[] (usable[i]: may be chosen), the first on another core
 * of the package of `me`; -1 if none, with *sibling and *remote the first usable one on me's
 * core and in another package (-1 if none). Without a known topology: the first usable one.
 */
int topo_other_core(const struct cpu_topo *t, uint32_t me, const uint32_t *apic,
		    const bool *usable, unsigned n, int *sibling, int *remote);
/* Of the same CPUs, the first usable one on me's core (its hyper-thread sibling); -1 if none
 * or the topology is not known. */
int topo_sibling(const struct cpu_topo *t, uint32_t me, const uint32_t *apic, const bool *usable,
		 unsigned n);
static inline uint32_t topo_core(const struct cpu_topo *t, uint32_t apic_id)
{
	return t->pkg_shift >= 32 ? apic_id >> t->smt_shift :
	       (apic_id & ((1U << t->pkg_shift) - 1)) >> t->smt_shift;
}
static inline uint32_t topo_package(const struct cpu_topo *t, uint32_t apic_id)
{
	return t->pkg_shift >= 32 ? 0 : apic_id >> t->pkg_shift;
}

/* Decodes through fn (the real instruction, or a table in host tests). */
void cpu_info_decode(struct cpu_info *ci, cpuid_fn fn, void *ctx);
/* Decodes the running CPU. */
void cpu_info_read(struct cpu_info *ci);

/* Pure helpers, exposed for tests. */
uint32_t cpuid_display_family(uint32_t sig);
uint32_t cpuid_display_model(uint32_t sig);
const char *cpu_vendor_name(enum cpu_vendor v);

#endif /* ARCH_X86_CPUID_H */
