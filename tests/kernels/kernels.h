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

/*
 * THE KERNEL TABLE: every kernel once, X(name, memory). Its model is kernel_<name>_desc
 * (kernels.c; .name is <name>), its code kernel_<name> in the .S file named; memory: its
 * argument is consecutive 64-byte lines or a chase's nodes, so a size for it is bytes of
 * the test buffer (otherwise iterations). What runs a kernel says so by its id K_<name>:
 * kernel_table[K_<name>] is its model. The workloads build on it, a kernel each and what is
 * done before it: measure= (tests/harness/measure_opt.h, with a default size) and the seed
 * models' (tests/expect/seed.h EVK_*: cold, flushed or clean lines, another CPU's ...).
 */
#define KERNELS(X)										\
	X(loop4, false)			/* loop.S */						\
	X(add_chain, false)		/* arith.S */						\
	X(imul_chain, false)									\
	X(div_loop, false)									\
	X(chase, true)			/* chase.S: arg = first node */				\
	X(branch_pattern, false)	/* branch.S: arg = branch_pattern */			\
	X(branch_lfsr, false)		/* arg = branch_lfsr */					\
	X(store_nt, true)		/* store.S: arg = 64-byte aligned */			\
	X(store_ntdq, true)									\
	X(store_plain, true)									\
	X(bigcode, false)		/* bigcode.S */						\
	X(smallcode, false)		/* bigcode.S: 2 KiB of code */				\
	X(iret_loop, false)		/* far.S */						\
	X(cpuid_loop, false)		/* cpuid.S */						\
	X(regs_loop, false)		/* loop.S */						\
	X(branch_mix, false)		/* mix.S: arg = a quadword */				\
	X(ind_misp, false)		/* misp.S: arg = struct ind_misp */			\
	/* fp.S: x87, MMX, SSE, locked, length-changing-prefix, denormal and control-word */	\
	X(x87_loop, false)									\
	X(mmx_loop, false)									\
	X(sse_ps_loop, false)									\
	X(sse_pd_loop, false)									\
	X(sse_ss_loop, false)									\
	X(sse_sd_loop, false)									\
	X(sse_int_loop, false)									\
	X(lcp_loop, false)									\
	X(lock_loop, true)		/* arg = 64-byte aligned lines */			\
	X(x87_denormal, false)		/* arg = a denormal double */				\
	X(fldcw_loop, false)		/* arg = a word of its own line (stored first) */	\
	X(load_stream, true)		/* arg = 64-byte aligned lines */			\
	X(ldmxcsr_loop, false)		/* arg = a doubleword of its own line (stored first) */ \
	/* xcore.S: cross-core kernels, one side per CPU, both at once (see xcore.S) */		\
	X(pingpong, false)									\
	X(produce, false)									\
	X(consume, false)									\
	X(false_share, false)

enum kernel_id {
#define KERNEL_ID(name, memory)	K_##name,
	KERNELS(KERNEL_ID)
#undef KERNEL_ID
	K_COUNT
};

#define KERNEL_EXTERN(name, memory)	extern const struct kernel_desc kernel_##name##_desc;
KERNELS(KERNEL_EXTERN)
#undef KERNEL_EXTERN

/* kernel_table[K_<name>] = &kernel_<name>_desc (kernels.c). */
extern const struct kernel_desc *const kernel_table[K_COUNT];

/* A kernel's name and whether it is a memory kernel, from the table alone (pure code and the
 * host tests, which do not link the kernels); "?" and false past the end. */
static inline const char *kernel_name(unsigned k)
{
#define KERNEL_NAME(name, memory)	#name,
	static const char *const names[K_COUNT] = { KERNELS(KERNEL_NAME) };
#undef KERNEL_NAME
	return k < K_COUNT ? names[k] : "?";
}

static inline bool kernel_memory(unsigned k)
{
#define KERNEL_MEMORY(name, memory)	memory,
	static const bool memory[K_COUNT] = { KERNELS(KERNEL_MEMORY) };
#undef KERNEL_MEMORY
	return k < K_COUNT && memory[k];
}

/* The bigcode kernel's code spans [kernel_bigcode_desc.fn, kernel_bigcode_end). */
extern char kernel_bigcode_end[];

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

/* kernel_ind_misp's argument, in one line: the kernel stores its entry stack pointer in rsp
 * and steps the Galois LFSR (state != 0) that picks its indirect targets. */
struct ind_misp {
	uint64_t rsp;
	uint64_t state;
	uint64_t taps;
} __attribute__((aligned(64)));

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
