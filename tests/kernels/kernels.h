/* SPDX-License-Identifier: MIT */
/*
 * Microbenchmark kernels (assembly, the .S files beside this header) and their exact models: for n
 * iterations, what each executes — instructions, branches by kind and outcome, the last
 * taken branches, instructions that load and that store (one doing both counts once in
 * each, as MEM_INST_RETIRED counts), and the distinct 64-byte lines and 4 KiB pages its
 * data accesses touch. The reference oracle (tests/qemu/oracle.c) checks every model.
 */
#ifndef TESTS_KERNELS_KERNELS_H
#define TESTS_KERNELS_KERNELS_H

#include <stdbool.h>
#include <stdint.h>
#include "pmu/lbr.h"

/* Every kernel: k(n, arg), n >= 1, System V ABI, touches no callee-saved register. */
typedef void (*kernel_fn)(uint64_t n, void *arg);

#define LBR_DEPTH	32

struct branch_rec {
	uint64_t from, to;
	enum lbr_kind kind;	/* how LBR_SELECT sorts it */
};

/* What one region executes; also what the oracle plugin reports. */
struct exec_counts {
	uint64_t insns;
	uint64_t cond_taken, cond_not_taken;
	uint64_t jumps, calls, rets, far;	/* unconditional: direct or indirect */
	uint64_t loads, stores;			/* instructions, not accesses */
	uint64_t lines, pages;			/* distinct data lines / pages */
	unsigned lbr_count;			/* taken branches recorded, up to LBR_DEPTH */
	unsigned lbr_head;			/* next slot of the ring */
	struct branch_rec lbr[LBR_DEPTH];	/* ring of the last taken branches */
};

/* Records a taken branch of `kind` in the ring. */
void exec_taken(struct exec_counts *c, uint64_t from, uint64_t to, enum lbr_kind kind);
/* The ring, oldest first, into out[]; returns how many. */
unsigned exec_lbr(const struct exec_counts *c, struct branch_rec out[LBR_DEPTH]);

struct kernel_desc {
	const char *name;
	kernel_fn fn;
	/* Adds what fn(n, arg) executes to c, its final RET returning to ret_to. */
	void (*predict)(uint64_t n, const void *arg, uint64_t ret_to, struct exec_counts *c);
	/* Instructions per iteration, for the differential method count(2N) - count(N). */
	uint64_t insns_per_iter;
};

/* The kernels (models in kernels.c, code in the .S files named). */
extern const struct kernel_desc kernel_loop4_desc;		/* loop.S */
extern const struct kernel_desc kernel_add_chain_desc;		/* arith.S */
extern const struct kernel_desc kernel_imul_chain_desc;
extern const struct kernel_desc kernel_div_loop_desc;
extern const struct kernel_desc kernel_chase_desc;		/* chase.S: arg = first node */
extern const struct kernel_desc kernel_branch_pattern_desc;	/* branch.S: arg = branch_pattern */
extern const struct kernel_desc kernel_branch_lfsr_desc;	/* arg = branch_lfsr */
extern const struct kernel_desc kernel_store_nt_desc;		/* store.S: arg = 64-byte aligned */
extern const struct kernel_desc kernel_store_ntdq_desc;
extern const struct kernel_desc kernel_store_plain_desc;
extern const struct kernel_desc kernel_bigcode_desc;		/* bigcode.S */
extern const struct kernel_desc kernel_smallcode_desc;		/* bigcode.S: 2 KiB of code */
/* The bigcode kernel's code spans [kernel_bigcode_desc.fn, kernel_bigcode_end). */
extern char kernel_bigcode_end[];
extern const struct kernel_desc kernel_iret_loop_desc;		/* far.S */
extern const struct kernel_desc kernel_cpuid_loop_desc;		/* cpuid.S */
extern const struct kernel_desc kernel_regs_loop_desc;		/* loop.S */
extern const struct kernel_desc kernel_branch_mix_desc;		/* mix.S: arg = a quadword */
/* fp.S: x87, MMX, SSE, locked, length-changing-prefix, denormal and control-word kernels */
extern const struct kernel_desc kernel_x87_loop_desc;
extern const struct kernel_desc kernel_mmx_loop_desc;
extern const struct kernel_desc kernel_sse_ps_loop_desc;
extern const struct kernel_desc kernel_sse_pd_loop_desc;
extern const struct kernel_desc kernel_sse_ss_loop_desc;
extern const struct kernel_desc kernel_sse_sd_loop_desc;
extern const struct kernel_desc kernel_sse_int_loop_desc;
extern const struct kernel_desc kernel_lcp_loop_desc;
extern const struct kernel_desc kernel_lock_loop_desc;		/* arg = 64-byte aligned lines */
extern const struct kernel_desc kernel_x87_denormal_desc;	/* arg = a denormal double */
extern const struct kernel_desc kernel_fldcw_loop_desc;		/* arg = a word of its own line (stored first) */
extern const struct kernel_desc kernel_load_stream_desc;		/* arg = 64-byte aligned lines */
extern const struct kernel_desc kernel_ldmxcsr_loop_desc;	/* arg = a doubleword of its own line (stored first) */

/* xcore.S: cross-core kernels, one side per CPU, both at once (see xcore.S). */
extern const struct kernel_desc kernel_pingpong_desc;
extern const struct kernel_desc kernel_produce_desc;
extern const struct kernel_desc kernel_consume_desc;
extern const struct kernel_desc kernel_false_share_desc;

/* Each side's argument (the layout xcore.S reads), in a line of its own. */
struct xcore_arg {
	volatile uint64_t *shared;	/* ping-pong line, producer/consumer lines, or counter */
	uint64_t role;			/* ping-pong: 0 or 1 */
	uint64_t spins;			/* out: turns of the wait loop */
	uint64_t sum;			/* out: the consumer's sum */
	uint64_t spin_limit;		/* a wait gives up here (the other CPU has stopped) */
} __attribute__((aligned(64)));
_Static_assert(sizeof(struct xcore_arg) == 64, "xcore.S: one line per side");

/* kernel_regs_loop and its labels, for placing a PEBS record's IP. */
void kernel_regs_loop(uint64_t n, void *arg);
extern char kernel_regs_loop_top[], kernel_regs_loop_i1[], kernel_regs_loop_i2[],
	kernel_regs_loop_i3[], kernel_regs_loop_jnz[], kernel_regs_loop_ret[];
/* tests/kernels/xmm.S: XMM0..15 from v[0..31] (low quadword first), or all zero. */
void xmm_load(const uint64_t v[32]);
void xmm_zero(void);

/* kernel_branch_mix's argument: the kernel stores its entry stack pointer there. */
struct branch_mix {
	uint64_t rsp;
};

void kernel_loop4(uint64_t n, void *arg);

/* kernel_branch_pattern's argument: iteration i takes the branch iff bit (i % period). */
struct branch_pattern {
	uint64_t bits;
	uint64_t period;	/* 1..64 */
};

/* kernel_branch_lfsr's argument: a Galois LFSR (state != 0), stepped before each branch. */
struct branch_lfsr {
	uint64_t state;
	uint64_t taps;
};
#define LFSR64_TAPS	0xd800000000000000ULL	/* x^64 + x^63 + x^61 + x^60 + 1 */

/* One LFSR step, as kernel_branch_lfsr does it. */
static inline uint64_t lfsr_step(uint64_t s, uint64_t taps)
{
	return (s >> 1) ^ ((s & 1) ? taps : 0);
}

/*
 * Pointer-chase layout: `nodes` nodes `stride` bytes apart from `base` (64: one per line;
 * 4096: one per page, each at a different line offset so they spread over cache sets),
 * linked in one cycle in Sattolo-random order (seeded, so runs repeat). Returns the first.
 */
void *chase_build(uint64_t base, uint64_t nodes, uint64_t stride, uint64_t seed);
/* Writes back and invalidates (CLFLUSH) the lines of the first `steps` nodes visited from
 * `first`, so a chase of that many steps starts from cold caches; unlike WBINVD it works
 * in a guest (hypervisors may drop WBINVD). */
void chase_flush(void *first, uint64_t steps);
/* CLFLUSHes `lines` consecutive 64-byte lines from base, then reads each once: they are then
 * cached clean (exclusive), for the kernels that must find lines in E state. */
void lines_make_clean(void *base, uint64_t lines);
/* CLFLUSHes `lines` consecutive 64-byte lines from base. */
void lines_flush(void *base, uint64_t lines);

/*
 * tests/kernels/frame.S: the measurement frame. frame_tsc() runs k(n, arg) in frame slot
 * `slot` (0..255, the oracle region id its markers carry) and returns the TSC delta across
 * it. Call with interrupts disabled.
 */
uint64_t frame_tsc(unsigned slot, kernel_fn k, uint64_t n, void *arg);
/* The slot's code itself, for running the frame elsewhere (at CPL 3). */
typedef uint64_t (*frame_slot_fn)(kernel_fn k, uint64_t n, void *arg);
frame_slot_fn frame_slot(unsigned slot);
/* Address of the slot's CALL to the kernel, and the return address it pushes. */
uint64_t frame_call_site(unsigned slot);
uint64_t frame_return_site(unsigned slot);
/* TSC ticks the frame adds beyond the region under QEMU -icount shift=0 (frame.S). */
#define FRAME_TSC_OVERHEAD	6
/* Instructions of the frame inside the region: the CALL (1 call, 1 store of the return
 * address: 1 line, 1 page of stack). */
#define FRAME_REGION_INSNS	1

/* tests/kernels/frame.S: the oracle's "pmuboot is running" marker. */
void oracle_arm(void);

#endif /* TESTS_KERNELS_KERNELS_H */
