/* SPDX-License-Identifier: MIT */
/*
 * Two CPUs at once (tests/measure/xcore.c): the partner CPU, both sides of a cross-core
 * kernel (tests/kernels/xcore.S) run together, each in its own measurement frame and
 * counting, where the model has such an event, the loads that took a line modified in the
 * other core; and a plain ping-pong for checks that count the traffic elsewhere (uncore).
 */
#ifndef TESTS_MEASURE_XCORE_H
#define TESTS_MEASURE_XCORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "arch/x86/percpu.h"
#include "pmu/counter.h"
#include "tests/harness/check.h"
#include "tests/kernels/kernels.h"

#define PRODUCE_N	1024	/* lines: 64 KiB, within every L2 */

/* A wait gives up after this many turns (about a second on hardware, where PAUSE takes up
 * to ~140 cycles; less under QEMU): the frame runs with interrupts off. */
#define XCORE_SPIN_LIMIT	(1ULL << 26)

/* The event that counts loads of a line modified in another core, NULL where pmuboot knows
 * none for the microarchitecture:
 *   Nehalem/Westmere: MEM_UNCORE_RETIRED.OTHER_CORE_L2_HITM, 0FH/02H (seed
 *     000_666bff9af8f20138.txt, MEM_UNCORE_RETIRED table);
 *   Skylake and later big cores: MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM, D2H/04H (SDM Vol. 3B
 *     Skylake events; Linux's skl_hw_cache_extra_regs / mem_load_l3_hit_retired). */
struct hitm_event {
	uint8_t event, umask;
	const char *name;
};
const struct hitm_event *xcore_hitm_event(void);
/* Why the transfers are not counted here (NULL: they are). */
const char *xcore_no_hitm_count(void);

/* The x2APIC IDs of the CPUs pmuboot started (smp.cpu[], smp.ncpus of them) and which of
 * them may run a side: idle, chosen (cpus=), not this one. */
void xcore_cpus(uint32_t apic[MAX_CPUS], bool usable[MAX_CPUS]);
/*
 * The partner: the first chosen CPU that runs pmuboot on another core of this CPU's package,
 * by CPUID 1FH/0BH (issue 21 item 9: a hyper-thread sibling shares the line in its core, so
 * no HITM crosses cores; another package's transfer is a remote HITM these events do not
 * count). Without that topology, the first chosen CPU. -1 with *why saying why there is
 * none, naming the siblings and remote CPUs passed over.
 */
int xcore_partner(const char **why);
/* This CPU's hyper-thread sibling among the chosen idle CPUs, by CPUID 1FH/0BH; -1 with *why
 * saying why there is none (no extended topology, or no sibling runs pmuboot). */
int xcore_sibling(const char **why);

/* One side: its kernel in a measurement frame, counting HITM loads where it can. */
struct xcore_side {
	const struct kernel_desc *k;
	uint64_t n;
	struct xcore_arg *arg;
	bool count;
	uint64_t hitm;
	int err;
	char errmsg[PMU_ERR_LEN];
};

/* The sides' kernel arguments (xcore_args[0] here, [1] on the partner) and the shared data:
 * a page of its own for the ping-pong line and the two counters, the producer's lines. */
extern struct xcore_arg xcore_args[2];
extern uint8_t xcore_page[4096];
extern uint8_t xcore_produce_buf[PRODUCE_N * 64];

/* Sets both sides up: kernels ka here and kb on the partner, n iterations each, on the
 * shared words sa and sb; they count where xcore_no_hitm_count() is NULL. */
void xcore_setup(struct xcore_side *a, struct xcore_side *b, const struct kernel_desc *ka,
		 const struct kernel_desc *kb, uint64_t n, volatile uint64_t *sa,
		 volatile uint64_t *sb);
/* Runs side a here and side b on the partner, at once. CHECK_PASS, or c failed. */
enum check_status xcore_run_pair(struct check_ctx *c, int cpu, struct xcore_side *a,
				 struct xcore_side *b);

/* Lines of xcore_page a plain ping-pong may use. */
#define XCORE_LINES	(sizeof(xcore_page) / 64)

/* n hand-offs each way between this CPU and `cpu` over line l (< XCORE_LINES) of
 * xcore_page: 2n - 1 cross-core transfers of a modified line; no core counter. 0, or -1
 * with err saying what went wrong. */
int xcore_pingpong(unsigned cpu, uint64_t n, unsigned l, char *err, size_t errlen);

#endif /* TESTS_MEASURE_XCORE_H */
