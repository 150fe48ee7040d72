/* SPDX-License-Identifier: MIT */
/* Models of the assembly kernels, each next to the counts its source comment states; the
 * measurement frame's address helpers. */
#include "tests/kernels/kernels.h"
#include "arch/x86/io.h"
#include "lib/oracle_tag.h"
#include "lib/string.h"

#define FRAME_SLOT_SIZE	64
extern char frame_slots[], frame_slot0_call[], frame_slot0_return[];

frame_slot_fn frame_slot(unsigned slot)
{
	return (frame_slot_fn)(uintptr_t)(frame_slots + FRAME_SLOT_SIZE * (slot % ORACLE_MAX_REGIONS));
}

uint64_t frame_tsc(unsigned slot, kernel_fn k, uint64_t n, void *arg)
{
	return frame_slot(slot)(k, n, arg);
}

uint64_t frame_call_site(unsigned slot)
{
	return (uint64_t)(uintptr_t)frame_slot0_call + FRAME_SLOT_SIZE * (slot % ORACLE_MAX_REGIONS);
}

uint64_t frame_return_site(unsigned slot)
{
	return (uint64_t)(uintptr_t)frame_slot0_return + FRAME_SLOT_SIZE * (slot % ORACLE_MAX_REGIONS);
}

void exec_taken(struct exec_counts *c, uint64_t from, uint64_t to, enum lbr_kind kind)
{
	c->lbr[c->lbr_head].from = from;
	c->lbr[c->lbr_head].to = to;
	c->lbr[c->lbr_head].kind = kind;
	c->lbr_head = (c->lbr_head + 1) % LBR_DEPTH;
	if (c->lbr_count < LBR_DEPTH)
		c->lbr_count++;
}

unsigned exec_lbr(const struct exec_counts *c, struct branch_rec out[LBR_DEPTH])
{
	unsigned first = (c->lbr_head + LBR_DEPTH - c->lbr_count) % LBR_DEPTH;

	for (unsigned i = 0; i < c->lbr_count; i++)
		out[i] = c->lbr[(first + i) % LBR_DEPTH];
	return c->lbr_count;
}

static uint64_t addr(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

/* At most the last LBR_DEPTH iterations can show in the ring: earlier ones are skipped. */
static uint64_t first_visible(uint64_t n)
{
	return n > LBR_DEPTH ? n - LBR_DEPTH : 0;
}

/* --- Models shared by the single-loop kernels ------------------------------------------ */

/*
 * A loop of n iterations closed by one `jnz top` at `jnz`, entered once and left through
 * the RET at `ret`: the back edge is taken n - 1 times, falls through once; RET is one
 * return and one load (its stack line is the frame's, already counted).
 */
static void loop_common(uint64_t n, const void *jnz, const void *top, const void *ret,
			uint64_t ret_to, struct exec_counts *c)
{
	c->cond_taken += n - 1;
	c->cond_not_taken += 1;
	c->rets += 1;
	c->loads += 1;
	for (uint64_t i = first_visible(n); i + 1 < n; i++)
		exec_taken(c, addr(jnz), addr(top), LBR_KIND_JCC);
	exec_taken(c, addr(ret), ret_to, LBR_KIND_RET);
}

#define LOOP_KERNEL_SYMS(name) \
	void name(uint64_t n, void *arg); \
	extern char name##_top[], name##_jnz[], name##_ret[]

/* arith.S */
LOOP_KERNEL_SYMS(kernel_add_chain);
LOOP_KERNEL_SYMS(kernel_imul_chain);
LOOP_KERNEL_SYMS(kernel_div_loop);

/* Loops with no data access: `fixed` + `per_iter` * n instructions. */
#define ARITH_MODEL(k, per_iter, fixed)							\
	static void predict_##k(uint64_t n, const void *arg, uint64_t ret_to,		\
				struct exec_counts *c)					\
	{										\
		(void)arg;								\
		c->insns += (fixed) + (per_iter) * n;					\
		loop_common(n, k##_jnz, k##_top, k##_ret, ret_to, c);			\
	}										\
	const struct kernel_desc k##_desc = {						\
		.name = #k + 7, .fn = k, .predict = predict_##k,			\
		.insns_per_iter = (per_iter),						\
	}

/* loop.S */
extern char kernel_loop4_top[], kernel_loop4_jnz[], kernel_loop4_ret[];
ARITH_MODEL(kernel_loop4, 4, 2);
/* arith.S */
ARITH_MODEL(kernel_add_chain, 10, 2);
ARITH_MODEL(kernel_imul_chain, 6, 2);
ARITH_MODEL(kernel_div_loop, 12, 4);
/* cpuid.S */
LOOP_KERNEL_SYMS(kernel_cpuid_loop);
ARITH_MODEL(kernel_cpuid_loop, 5, 4);
/* loop.S */
LOOP_KERNEL_SYMS(kernel_regs_loop);
ARITH_MODEL(kernel_regs_loop, 5, 5);

/* far.S */
void kernel_iret_loop(uint64_t n, void *arg);
extern const char kernel_iret_loop_top[], kernel_iret_loop_iret[], kernel_iret_loop_back[],
	kernel_iret_loop_jnz[], kernel_iret_loop_ret[];

/* The descriptor-table lines and pages IRETQ reads: the CS and SS descriptors in the GDT
 * (SDM Vol. 3A 6.14.3; QEMU reads them on every IRET, as hardware does). */
static void iret_descriptors(struct exec_counts *c)
{
	struct { uint16_t limit; uint64_t base; } __attribute__((packed)) gdtr;
	uint16_t cs, ss;
	uint64_t at[2], line[2], page[2];

	asm volatile("sgdt %0" : "=m"(gdtr));
	asm volatile("movw %%cs, %0; movw %%ss, %1" : "=r"(cs), "=r"(ss));
	at[0] = gdtr.base + (cs & ~7u);
	at[1] = gdtr.base + (ss & ~7u);
	for (int i = 0; i < 2; i++) {
		line[i] = at[i] >> 6;
		page[i] = at[i] >> 12;
	}
	c->lines += 1 + (line[1] != line[0]);
	c->pages += 1 + (page[1] != page[0]);
}

static void predict_iret_loop(uint64_t n, const void *arg, uint64_t ret_to, struct exec_counts *c)
{
	(void)arg;
	c->insns += 5 + 12 * n;
	c->far += n;
	c->cond_taken += n - 1;
	c->cond_not_taken += 1;
	c->rets += 1;
	c->stores += 5 * n;
	c->loads += n + 1;		/* each IRETQ, and the RET */
	c->lines += 1;			/* the page-aligned frame IRETQ pops */
	c->pages += 1;
	iret_descriptors(c);
	for (uint64_t i = first_visible(n); i < n; i++) {
		exec_taken(c, addr(kernel_iret_loop_iret), addr(kernel_iret_loop_back), LBR_KIND_FAR);
		if (i + 1 < n)
			exec_taken(c, addr(kernel_iret_loop_jnz), addr(kernel_iret_loop_top),
				   LBR_KIND_JCC);
	}
	exec_taken(c, addr(kernel_iret_loop_ret), ret_to, LBR_KIND_RET);
}

const struct kernel_desc kernel_iret_loop_desc = {
	.name = "iret_loop", .fn = kernel_iret_loop, .predict = predict_iret_loop,
	.insns_per_iter = 12,
};

/* bigcode.S */
LOOP_KERNEL_SYMS(kernel_bigcode);
extern const uint64_t kernel_bigcode_insns;

static void predict_bigcode(uint64_t n, const void *arg, uint64_t ret_to, struct exec_counts *c)
{
	(void)arg;
	c->insns += 2 + (kernel_bigcode_insns + 2) * n;
	loop_common(n, kernel_bigcode_jnz, kernel_bigcode_top, kernel_bigcode_ret, ret_to, c);
}

const struct kernel_desc kernel_bigcode_desc = {
	.name = "bigcode", .fn = kernel_bigcode, .predict = predict_bigcode,
	.insns_per_iter = 16384 + 2,
};

LOOP_KERNEL_SYMS(kernel_smallcode);
ARITH_MODEL(kernel_smallcode, 512 + 2, 2);

/* store.S: one line per iteration from arg; the lines are consecutive. */
LOOP_KERNEL_SYMS(kernel_store_nt);
LOOP_KERNEL_SYMS(kernel_store_ntdq);
LOOP_KERNEL_SYMS(kernel_store_plain);

static uint64_t pages_spanned(uint64_t start, uint64_t bytes)
{
	return bytes ? ((start + bytes - 1) >> 12) - (start >> 12) + 1 : 0;
}

#define STORE_MODEL(k, per_iter, fixed, stores_per_iter)				\
	static void predict_##k(uint64_t n, const void *arg, uint64_t ret_to,		\
				struct exec_counts *c)					\
	{										\
		c->insns += (fixed) + (per_iter) * n;					\
		c->stores += (stores_per_iter) * n;					\
		c->lines += n;								\
		c->pages += pages_spanned(addr(arg), 64 * n);				\
		loop_common(n, k##_jnz, k##_top, k##_ret, ret_to, c);			\
	}										\
	const struct kernel_desc k##_desc = {						\
		.name = #k + 7, .fn = k, .predict = predict_##k,			\
		.insns_per_iter = (per_iter),						\
	}

STORE_MODEL(kernel_store_nt, 11, 3, 8);
STORE_MODEL(kernel_store_ntdq, 7, 4, 4);
STORE_MODEL(kernel_store_plain, 11, 2, 8);

/* fp.S kernel_lock_loop: one locked add per line, n consecutive lines from arg: a load and a
 * store each. */
LOOP_KERNEL_SYMS(kernel_lock_loop);

static void predict_kernel_lock_loop(uint64_t n, const void *arg, uint64_t ret_to,
				     struct exec_counts *c)
{
	c->insns += 2 + 4 * n;
	c->loads += n;
	c->stores += n;
	c->lines += n;
	c->pages += pages_spanned(addr(arg), 64 * n);
	loop_common(n, kernel_lock_loop_jnz, kernel_lock_loop_top, kernel_lock_loop_ret, ret_to, c);
}

const struct kernel_desc kernel_lock_loop_desc = {
	.name = "lock_loop", .fn = kernel_lock_loop, .predict = predict_kernel_lock_loop,
	.insns_per_iter = 4,
};

/* fp.S kernel_load_stream: 8 loads of each of n consecutive lines from arg. */
LOOP_KERNEL_SYMS(kernel_load_stream);

static void predict_kernel_load_stream(uint64_t n, const void *arg, uint64_t ret_to,
				       struct exec_counts *c)
{
	c->insns += 2 + 11 * n;
	c->loads += 8 * n;
	c->lines += n;
	c->pages += pages_spanned(addr(arg), 64 * n);
	loop_common(n, kernel_load_stream_jnz, kernel_load_stream_top, kernel_load_stream_ret,
		    ret_to, c);
}

const struct kernel_desc kernel_load_stream_desc = {
	.name = "load_stream", .fn = kernel_load_stream, .predict = predict_kernel_load_stream,
	.insns_per_iter = 11,
};

void lines_flush(void *base, uint64_t lines)
{
	uint8_t *p = base;

	for (uint64_t i = 0; i < lines; i++)
		clflush(p + 64 * i);
	mfence();
}

void lines_make_clean(void *base, uint64_t lines)
{
	volatile uint64_t *p = base;

	for (uint64_t i = 0; i < lines; i++)
		clflush((void *)(p + 8 * i));
	mfence();
	for (uint64_t i = 0; i < lines; i++)
		(void)p[8 * i];
}

/* --- fp.S: x87, MMX, SSE, locked, LCP kernels ------------------------------------------ */

LOOP_KERNEL_SYMS(kernel_x87_loop);
LOOP_KERNEL_SYMS(kernel_mmx_loop);
LOOP_KERNEL_SYMS(kernel_sse_ps_loop);
LOOP_KERNEL_SYMS(kernel_sse_pd_loop);
LOOP_KERNEL_SYMS(kernel_sse_ss_loop);
LOOP_KERNEL_SYMS(kernel_sse_sd_loop);
LOOP_KERNEL_SYMS(kernel_sse_int_loop);
LOOP_KERNEL_SYMS(kernel_lcp_loop);
ARITH_MODEL(kernel_x87_loop, 6, 6);
ARITH_MODEL(kernel_mmx_loop, 6, 5);
ARITH_MODEL(kernel_sse_ps_loop, 6, 4);
ARITH_MODEL(kernel_sse_pd_loop, 6, 4);
ARITH_MODEL(kernel_sse_ss_loop, 6, 4);
ARITH_MODEL(kernel_sse_sd_loop, 6, 4);
ARITH_MODEL(kernel_sse_int_loop, 6, 4);
ARITH_MODEL(kernel_lcp_loop, 34, 2);

/* Loops over one data line at arg: fixed + per_iter * n instructions, loads and stores per
 * iteration (and fixed ones), one line and one page of data. */
#define LINE_MODEL(k, per_iter, fixed, loads_iter, stores_iter, loads_fixed)		\
	static void predict_##k(uint64_t n, const void *arg, uint64_t ret_to,		\
				struct exec_counts *c)					\
	{										\
		(void)arg;								\
		c->insns += (fixed) + (per_iter) * n;					\
		c->loads += (loads_iter) * n + (loads_fixed);				\
		c->stores += (stores_iter) * n;						\
		c->lines += 1;								\
		c->pages += 1;								\
		loop_common(n, k##_jnz, k##_top, k##_ret, ret_to, c);			\
	}										\
	const struct kernel_desc k##_desc = {						\
		.name = #k + 7, .fn = k, .predict = predict_##k,			\
		.insns_per_iter = (per_iter),						\
	}

LOOP_KERNEL_SYMS(kernel_x87_denormal);
LOOP_KERNEL_SYMS(kernel_fldcw_loop);
LOOP_KERNEL_SYMS(kernel_ldmxcsr_loop);
LINE_MODEL(kernel_x87_denormal, 5, 4, 0, 0, 1);
LINE_MODEL(kernel_fldcw_loop, 6, 2, 2, 2, 0);
LINE_MODEL(kernel_ldmxcsr_loop, 6, 2, 2, 2, 0);

/* --- chase.S ------------------------------------------------------------------------ */

LOOP_KERNEL_SYMS(kernel_chase);

static uint64_t xorshift64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static uint64_t *node_at(uint64_t base, uint64_t stride, uint64_t i)
{
	/* Page-stride nodes sit at line offset i % 64 within their page. */
	uint64_t off = stride >= 4096 ? (i % 64) * 64 : 0;

	return (uint64_t *)(uintptr_t)(base + i * stride + off);
}

void *chase_build(uint64_t base, uint64_t nodes, uint64_t stride, uint64_t seed)
{
	uint64_t s = seed ? seed : 1;

	/* Sattolo's algorithm over the identity, kept in each node's second quadword, gives
	 * a permutation that is one cycle; node i then points to node perm(i). */
	for (uint64_t i = 0; i < nodes; i++)
		node_at(base, stride, i)[1] = i;
	for (uint64_t i = nodes - 1; i > 0; i--) {
		uint64_t j = xorshift64(&s) % i;
		uint64_t *a = node_at(base, stride, i), *b = node_at(base, stride, j);
		uint64_t t = a[1];

		a[1] = b[1];
		b[1] = t;
	}
	for (uint64_t i = 0; i < nodes; i++) {
		uint64_t *n = node_at(base, stride, i);

		n[0] = (uint64_t)(uintptr_t)node_at(base, stride, n[1]);
	}
	return node_at(base, stride, 0);
}

void chase_flush(void *first, uint64_t steps)
{
	uint64_t *node = first;

	for (uint64_t i = 0; i < steps; i++) {
		uint64_t *next = (uint64_t *)(uintptr_t)node[0];

		clflush(node);
		node = next;
	}
	mfence();
}

/* Distinct pages of the first `steps` nodes visited, through a bitmap over the pages the
 * nodes span (the chase never leaves the test buffer). */
#define CHASE_PAGE_BITMAP_BITS	(1u << 16)	/* 256 MiB of pages */
static uint8_t page_bitmap[CHASE_PAGE_BITMAP_BITS / 8];

static void predict_chase(uint64_t n, const void *arg, uint64_t ret_to, struct exec_counts *c)
{
	const uint64_t *node = arg;
	uint64_t cycle = 0, lo = UINT64_MAX, steps, pages = 0;

	/* The cycle through arg: its length bounds the distinct nodes visited. */
	do {
		uint64_t pa = addr(node) >> 12;

		lo = pa < lo ? pa : lo;
		node = (const uint64_t *)(uintptr_t)node[0];
		cycle++;
	} while (node != arg && cycle <= n);
	steps = n < cycle ? n : cycle;
	memset(page_bitmap, 0, sizeof(page_bitmap));
	node = arg;
	for (uint64_t i = 0; i < steps; i++) {
		uint64_t p = (addr(node) >> 12) - lo;

		if (p < CHASE_PAGE_BITMAP_BITS && !(page_bitmap[p / 8] & (1u << (p % 8)))) {
			page_bitmap[p / 8] |= (uint8_t)(1u << (p % 8));
			pages++;
		}
		node = (const uint64_t *)(uintptr_t)node[0];
	}
	c->insns += 2 + 3 * n;
	c->loads += n;
	c->lines += steps;	/* one node per line at least */
	c->pages += pages;
	loop_common(n, kernel_chase_jnz, kernel_chase_top, kernel_chase_ret, ret_to, c);
}

const struct kernel_desc kernel_chase_desc = {
	.name = "chase", .fn = kernel_chase, .predict = predict_chase, .insns_per_iter = 3,
};

/* --- branch.S ------------------------------------------------------------------------ */

void kernel_branch_pattern(uint64_t n, void *arg);
extern char kernel_branch_pattern_top[], kernel_branch_pattern_jc[], kernel_branch_pattern_skip[];
extern char kernel_branch_pattern_jnz[], kernel_branch_pattern_ret[];
void kernel_branch_lfsr(uint64_t n, void *arg);
extern char kernel_branch_lfsr_top[], kernel_branch_lfsr_jb[], kernel_branch_lfsr_skip[];
extern char kernel_branch_lfsr_jnz[], kernel_branch_lfsr_ret[];

/* The argument struct: 2 loads from one line and page of its own. */
static void branch_arg_access(const void *arg, struct exec_counts *c)
{
	c->loads += 2;
	c->lines += (addr(arg) >> 6) == ((addr(arg) + 15) >> 6) ? 1 : 2;
	c->pages += pages_spanned(addr(arg), 16);
}

/* Iteration i's pattern branch (taken or not), then the back edge (all but the last). */
static void branch_iteration(struct exec_counts *c, bool taken, const char *jcc,
			     const char *skip, const char *jnz, const char *top, bool last)
{
	if (taken) {
		c->cond_taken++;
		exec_taken(c, addr(jcc), addr(skip), LBR_KIND_JCC);
	} else {
		c->cond_not_taken++;
		c->insns++;		/* the NOP it falls through */
	}
	if (!last)
		exec_taken(c, addr(jnz), addr(top), LBR_KIND_JCC);
}

static void predict_branch_pattern(uint64_t n, const void *arg, uint64_t ret_to,
				   struct exec_counts *c)
{
	const struct branch_pattern *p = arg;

	c->insns += 6 + 7 * n;
	branch_arg_access(arg, c);
	for (uint64_t i = 0; i < n; i++)
		branch_iteration(c, (p->bits >> (i % p->period)) & 1, kernel_branch_pattern_jc,
				 kernel_branch_pattern_skip, kernel_branch_pattern_jnz,
				 kernel_branch_pattern_top, i + 1 == n);
	c->cond_taken += n - 1;		/* back edge */
	c->cond_not_taken += 1;
	c->rets += 1;
	c->loads += 1;
	exec_taken(c, addr(kernel_branch_pattern_ret), ret_to, LBR_KIND_RET);
}

const struct kernel_desc kernel_branch_pattern_desc = {
	.name = "branch_pattern", .fn = kernel_branch_pattern,
	.predict = predict_branch_pattern, .insns_per_iter = 7,
};

static void predict_branch_lfsr(uint64_t n, const void *arg, uint64_t ret_to,
				struct exec_counts *c)
{
	const struct branch_lfsr *p = arg;
	uint64_t s = p->state;

	c->insns += 4 + 10 * n;
	branch_arg_access(arg, c);
	for (uint64_t i = 0; i < n; i++) {
		s = lfsr_step(s, p->taps);
		branch_iteration(c, s & 1, kernel_branch_lfsr_jb, kernel_branch_lfsr_skip,
				 kernel_branch_lfsr_jnz, kernel_branch_lfsr_top, i + 1 == n);
	}
	c->cond_taken += n - 1;
	c->cond_not_taken += 1;
	c->rets += 1;
	c->loads += 1;
	exec_taken(c, addr(kernel_branch_lfsr_ret), ret_to, LBR_KIND_RET);
}

const struct kernel_desc kernel_branch_lfsr_desc = {
	.name = "branch_lfsr", .fn = kernel_branch_lfsr, .predict = predict_branch_lfsr,
	.insns_per_iter = 10,
};

/* --- mix.S ---------------------------------------------------------------------------- */

void kernel_branch_mix(uint64_t n, void *arg);
extern const char kernel_branch_mix_top[], kernel_branch_mix_jmp_ind[],
	kernel_branch_mix_ind_target[], kernel_branch_mix_call_ind[],
	kernel_branch_mix_after_call_ind[], kernel_branch_mix_jnz[], kernel_branch_mix_ret[],
	kernel_branch_mix_fn[];

static void predict_branch_mix(uint64_t n, const void *arg, uint64_t ret_to, struct exec_counts *c)
{
	/* The kernel stored its entry rsp in *arg (the frame's return address sits at rsp);
	 * its CALLs push their return addresses at rsp - 8. Lines are counted apart from the
	 * frame's, which measure.c already holds: the arg quadword's, and the push's when it
	 * falls in another line than rsp's. */
	uint64_t rsp = *(const uint64_t *)arg;

	c->insns += 5 + 8 * n;
	c->jumps += 2 * n;
	c->calls += 2 * n;
	c->rets += 2 * n + 1;
	c->cond_taken += n - 1;
	c->cond_not_taken += 1;
	c->stores += 1 + 2 * n;
	c->loads += 1 + 2 * n;
	c->lines += 1 + (((rsp - 8) >> 6) != (rsp >> 6));
	c->pages += 1 + (((rsp - 8) >> 12) != (rsp >> 12));	/* arg's page is not the stack's */
	/* 7 taken branches an iteration: the last 6 iterations fill the ring. */
	for (uint64_t i = n > 6 ? n - 6 : 0; i < n; i++) {
		exec_taken(c, addr(kernel_branch_mix_top), addr(kernel_branch_mix_jmp_ind),
			   LBR_KIND_REL_JMP);
		exec_taken(c, addr(kernel_branch_mix_jmp_ind), addr(kernel_branch_mix_ind_target),
			   LBR_KIND_IND_JMP);
		exec_taken(c, addr(kernel_branch_mix_ind_target), addr(kernel_branch_mix_fn),
			   LBR_KIND_REL_CALL);
		exec_taken(c, addr(kernel_branch_mix_fn), addr(kernel_branch_mix_call_ind),
			   LBR_KIND_RET);
		exec_taken(c, addr(kernel_branch_mix_call_ind), addr(kernel_branch_mix_fn),
			   LBR_KIND_IND_CALL);
		exec_taken(c, addr(kernel_branch_mix_fn), addr(kernel_branch_mix_after_call_ind),
			   LBR_KIND_RET);
		if (i + 1 < n)
			exec_taken(c, addr(kernel_branch_mix_jnz), addr(kernel_branch_mix_top),
				   LBR_KIND_JCC);
	}
	exec_taken(c, addr(kernel_branch_mix_ret), ret_to, LBR_KIND_RET);
}

const struct kernel_desc kernel_branch_mix_desc = {
	.name = "branch_mix", .fn = kernel_branch_mix, .predict = predict_branch_mix,
	.insns_per_iter = 8,
};

/* --- misp.S --------------------------------------------------------------------------- */

void kernel_ind_misp(uint64_t n, void *arg);
extern const char kernel_ind_misp_top[], kernel_ind_misp_jmp_ind[], kernel_ind_misp_t0[],
	kernel_ind_misp_t1[], kernel_ind_misp_join[], kernel_ind_misp_call_ind[],
	kernel_ind_misp_f0[], kernel_ind_misp_f1[], kernel_ind_misp_call_rel[],
	kernel_ind_misp_fr[], kernel_ind_misp_fr_ret[], kernel_ind_misp_back[],
	kernel_ind_misp_jnz[], kernel_ind_misp_ret[];

static void predict_ind_misp(uint64_t n, const void *arg, uint64_t ret_to, struct exec_counts *c)
{
	/* As branch_mix: the entry rsp stored in arg; the pushes at rsp - 8. The LFSR's
	 * state and taps share the arg's line. */
	const struct ind_misp *p = arg;
	uint64_t rsp = p->rsp, s = p->state;

	c->insns += 7 + 23 * n;
	c->jumps += 2 * n;
	c->calls += 2 * n;
	c->rets += 2 * n + 1;
	c->cond_taken += n - 1;
	c->cond_not_taken += 1;
	c->stores += 1 + 3 * n;
	c->loads += 2 + 2 * n + 1;
	c->lines += 1 + (((rsp - 8) >> 6) != (rsp >> 6));
	c->pages += 1 + (((rsp - 8) >> 12) != (rsp >> 12));
	for (uint64_t i = 0; i < n; i++) {
		const char *t, *f;

		s = lfsr_step(s, p->taps);
		if (i + 7 < n)		/* 7 taken branches an iteration: the last 7 cover the ring */
			continue;
		t = s & 1 ? kernel_ind_misp_t1 : kernel_ind_misp_t0;
		f = (s >> 40) & 1 ? kernel_ind_misp_f1 : kernel_ind_misp_f0;
		exec_taken(c, addr(kernel_ind_misp_jmp_ind), addr(t), LBR_KIND_IND_JMP);
		exec_taken(c, addr(t), addr(kernel_ind_misp_join), LBR_KIND_REL_JMP);
		exec_taken(c, addr(kernel_ind_misp_call_ind), addr(f), LBR_KIND_IND_CALL);
		exec_taken(c, addr(f), addr(kernel_ind_misp_call_rel), LBR_KIND_RET);
		exec_taken(c, addr(kernel_ind_misp_call_rel), addr(kernel_ind_misp_fr),
			   LBR_KIND_REL_CALL);
		exec_taken(c, addr(kernel_ind_misp_fr_ret), addr(kernel_ind_misp_back), LBR_KIND_RET);
		if (i + 1 < n)
			exec_taken(c, addr(kernel_ind_misp_jnz), addr(kernel_ind_misp_top),
				   LBR_KIND_JCC);
	}
	exec_taken(c, addr(kernel_ind_misp_ret), ret_to, LBR_KIND_RET);
}

const struct kernel_desc kernel_ind_misp_desc = {
	.name = "ind_misp", .fn = kernel_ind_misp, .predict = predict_ind_misp,
	.insns_per_iter = 23,
};

/* --- xcore.S ------------------------------------------------------------------------ */

#define XCORE_SYMS(k) extern char k##_tail_top[], k##_tail_jnz[], k##_ret[]
XCORE_SYMS(kernel_pingpong);
XCORE_SYMS(kernel_produce);
XCORE_SYMS(kernel_consume);
XCORE_SYMS(kernel_false_share);
void kernel_pingpong(uint64_t n, void *arg);
void kernel_produce(uint64_t n, void *arg);
void kernel_consume(uint64_t n, void *arg);
void kernel_false_share(uint64_t n, void *arg);

/* The common tail: 66 instructions, 31 taken back edges and the RET, which are the last 32
 * taken branches whatever came before. */
static void xcore_tail(const char *top, const char *jnz, const char *ret, uint64_t ret_to,
		       struct exec_counts *c)
{
	c->insns += 66;
	c->cond_taken += 31;
	c->cond_not_taken += 1;
	c->rets += 1;
	c->loads += 1;
	for (unsigned i = 0; i < 31; i++)
		exec_taken(c, addr(jnz), addr(top), LBR_KIND_JCC);
	exec_taken(c, addr(ret), ret_to, LBR_KIND_RET);
}

/* Distinct lines and pages of the side's argument and of `bytes` from `shared`. */
static void xcore_footprint(const struct xcore_arg *a, uint64_t bytes, struct exec_counts *c)
{
	uint64_t s = addr((const void *)a->shared), e = s + bytes, arg = addr(a);
	bool arg_line_apart = (arg >> 6) < (s >> 6) || (arg >> 6) > ((e - 1) >> 6);
	bool arg_page_apart = (arg >> 12) < (s >> 12) || (arg >> 12) > ((e - 1) >> 12);

	c->lines += ((e - 1) >> 6) - (s >> 6) + 1 + arg_line_apart;
	c->pages += pages_spanned(s, bytes) + arg_page_apart;
}

static void predict_pingpong(uint64_t n, const void *arg, uint64_t ret_to, struct exec_counts *c)
{
	const struct xcore_arg *a = arg;
	uint64_t s = a->spins;

	c->insns += 3 + 7 * n + 7 * s + 1;
	c->cond_taken += n + (n - 1);
	c->cond_not_taken += 2 * s + 1;
	c->jumps += s;
	c->loads += 2 + n + 2 * s;
	c->stores += n + 1;
	xcore_footprint(a, 8, c);
	xcore_tail(kernel_pingpong_tail_top, kernel_pingpong_tail_jnz, kernel_pingpong_ret,
		   ret_to, c);
}

static void predict_produce(uint64_t n, const void *arg, uint64_t ret_to, struct exec_counts *c)
{
	const struct xcore_arg *a = arg;

	c->insns += 2 + 5 * n;
	c->cond_taken += n - 1;
	c->cond_not_taken += 1;
	c->loads += 1;
	c->stores += n;
	xcore_footprint(a, 64 * n - 56, c);	/* word 0 of each of n lines */
	xcore_tail(kernel_produce_tail_top, kernel_produce_tail_jnz, kernel_produce_ret,
		   ret_to, c);
}

static void predict_consume(uint64_t n, const void *arg, uint64_t ret_to, struct exec_counts *c)
{
	const struct xcore_arg *a = arg;
	uint64_t s = a->spins;

	c->insns += 4 + 7 * n + 7 * s + 2;
	c->cond_taken += n + (n - 1);
	c->cond_not_taken += 2 * s + 1;
	c->jumps += s;
	c->loads += 1 + 2 * n + 2 * s;
	c->stores += 2;
	xcore_footprint(a, 64 * n - 56, c);
	xcore_tail(kernel_consume_tail_top, kernel_consume_tail_jnz, kernel_consume_ret,
		   ret_to, c);
}

static void predict_false_share(uint64_t n, const void *arg, uint64_t ret_to,
				struct exec_counts *c)
{
	const struct xcore_arg *a = arg;

	c->insns += 1 + 3 * n;
	c->cond_taken += n - 1;
	c->cond_not_taken += 1;
	c->loads += 1 + n;
	c->stores += n;
	xcore_footprint(a, 8, c);
	xcore_tail(kernel_false_share_tail_top, kernel_false_share_tail_jnz,
		   kernel_false_share_ret, ret_to, c);
}

const struct kernel_desc kernel_pingpong_desc = {
	.name = "pingpong", .fn = kernel_pingpong, .predict = predict_pingpong,
	.insns_per_iter = 7,
};
const struct kernel_desc kernel_produce_desc = {
	.name = "produce", .fn = kernel_produce, .predict = predict_produce,
	.insns_per_iter = 5,
};
const struct kernel_desc kernel_consume_desc = {
	.name = "consume", .fn = kernel_consume, .predict = predict_consume,
	.insns_per_iter = 7,
};
const struct kernel_desc kernel_false_share_desc = {
	.name = "false_share", .fn = kernel_false_share, .predict = predict_false_share,
	.insns_per_iter = 3,
};

/* --- The kernel table ----------------------------------------------------------------- */

#define KERNEL_ENTRY(name, memory)	[K_##name] = &kernel_##name##_desc,
const struct kernel_desc *const kernel_table[K_COUNT] = { KERNELS(KERNEL_ENTRY) };
#undef KERNEL_ENTRY
