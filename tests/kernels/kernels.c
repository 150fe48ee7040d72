/* SPDX-License-Identifier: MIT */
/* Models of the assembly kernels, each next to the counts its source comment states; the
 * measurement frame's address helpers. */
#include "tests/kernels/kernels.h"
#include "tests/kernels/oracle_tag.h"
#include "lib/string.h"

#define FRAME_SLOT_SIZE	64
extern char frame_slots[], frame_slot0_call[], frame_slot0_return[];

typedef uint64_t (*frame_slot_fn)(kernel_fn k, uint64_t n, void *arg);

uint64_t frame_tsc(unsigned slot, kernel_fn k, uint64_t n, void *arg)
{
	frame_slot_fn f = (frame_slot_fn)(uintptr_t)(frame_slots +
		FRAME_SLOT_SIZE * (slot % ORACLE_MAX_REGIONS));

	return f(k, n, arg);
}

uint64_t frame_call_site(unsigned slot)
{
	return (uint64_t)(uintptr_t)frame_slot0_call + FRAME_SLOT_SIZE * (slot % ORACLE_MAX_REGIONS);
}

uint64_t frame_return_site(unsigned slot)
{
	return (uint64_t)(uintptr_t)frame_slot0_return + FRAME_SLOT_SIZE * (slot % ORACLE_MAX_REGIONS);
}

void exec_taken(struct exec_counts *c, uint64_t from, uint64_t to)
{
	c->lbr[c->lbr_head].from = from;
	c->lbr[c->lbr_head].to = to;
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

/* loop.S: mov; n x (add, add, dec, jnz); ret. */
static void predict_loop4(uint64_t n, const void *arg, uint64_t ret_to, struct exec_counts *c)
{
	(void)arg;
	c->insns += 2 + 4 * n;
	c->cond_taken += n - 1;
	c->cond_not_taken += 1;
	c->rets += 1;
	c->loads += 1;		/* ret pops the return address */
	for (uint64_t i = first_visible(n); i + 1 < n; i++)
		exec_taken(c, addr(kernel_loop4_jnz), addr(kernel_loop4_top));
	exec_taken(c, addr(kernel_loop4_ret), ret_to);
}

const struct kernel_desc kernel_loop4_desc = {
	.name = "loop4",
	.fn = kernel_loop4,
	.predict = predict_loop4,
	.insns_per_iter = 4,
};
