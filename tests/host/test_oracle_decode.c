/* SPDX-License-Identifier: MIT */
/* Host unit tests for the oracle's instruction classification and marker decoding
 * (tests/qemu/oracle_decode.c), on hand-assembled bytes (SDM Vol. 2 opcode maps). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "lib/oracle_tag.h"
#include "tests/qemu/oracle_decode.h"

struct sample {
	const char *what;
	uint8_t bytes[15];
	size_t len;
	enum insn_kind kind;
	int rep;
};

static const struct sample samples[] = {
	{ "jz rel8", { 0x74, 0x05 }, 2, INSN_COND, 0 },
	{ "jg rel8", { 0x7f, 0xfe }, 2, INSN_COND, 0 },
	{ "jnz rel32", { 0x0f, 0x85, 1, 2, 3, 4 }, 6, INSN_COND, 0 },
	{ "jo rel32", { 0x0f, 0x80, 0, 0, 0, 0 }, 6, INSN_COND, 0 },
	{ "loop", { 0xe2, 0xfe }, 2, INSN_COND, 0 },
	{ "loope", { 0xe1, 0xfe }, 2, INSN_COND, 0 },
	{ "loopne", { 0xe0, 0xfe }, 2, INSN_COND, 0 },
	{ "jrcxz", { 0xe3, 0x10 }, 2, INSN_COND, 0 },
	{ "jecxz (67 prefix)", { 0x67, 0xe3, 0x10 }, 3, INSN_COND, 0 },
	{ "jz with branch hint", { 0x3e, 0x74, 0x05 }, 3, INSN_COND, 0 },
	{ "jmp rel8", { 0xeb, 0xfe }, 2, INSN_JMP, 0 },
	{ "jmp rel32", { 0xe9, 0, 0, 0, 0 }, 5, INSN_JMP, 0 },
	{ "jmp *%rax", { 0xff, 0xe0 }, 2, INSN_JMP, 0 },
	{ "jmp *(%rax)", { 0xff, 0x20 }, 2, INSN_JMP, 0 },
	{ "notrack jmp *%rax", { 0x3e, 0xff, 0xe0 }, 3, INSN_JMP, 0 },
	{ "bnd jmp rel32", { 0xf2, 0xe9, 0, 0, 0, 0 }, 6, INSN_JMP, 0 },
	{ "call rel32", { 0xe8, 0, 0, 0, 0 }, 5, INSN_CALL, 0 },
	{ "call *%r11", { 0x41, 0xff, 0xd3 }, 3, INSN_CALL, 0 },
	{ "call *8(%rsp)", { 0xff, 0x54, 0x24, 0x08 }, 4, INSN_CALL, 0 },
	{ "ret", { 0xc3 }, 1, INSN_RET, 0 },
	{ "ret $8", { 0xc2, 0x08, 0x00 }, 3, INSN_RET, 0 },
	{ "rep ret", { 0xf3, 0xc3 }, 2, INSN_RET, 0 },
	{ "lret", { 0xcb }, 1, INSN_FAR, 0 },
	{ "iretq", { 0x48, 0xcf }, 2, INSN_FAR, 0 },
	{ "int3", { 0xcc }, 1, INSN_FAR, 0 },
	{ "int $0x80", { 0xcd, 0x80 }, 2, INSN_FAR, 0 },
	{ "syscall", { 0x0f, 0x05 }, 2, INSN_FAR, 0 },
	{ "sysret", { 0x48, 0x0f, 0x07 }, 3, INSN_FAR, 0 },
	{ "ljmp *(%rax)", { 0xff, 0x28 }, 2, INSN_FAR, 0 },
	{ "lcall *(%rax)", { 0xff, 0x18 }, 2, INSN_FAR, 0 },
	{ "inc (%rax) is FF /0", { 0xff, 0x00 }, 2, INSN_OTHER, 0 },
	{ "push (%rax) is FF /6", { 0xff, 0x30 }, 2, INSN_OTHER, 0 },
	{ "add", { 0x48, 0x83, 0xc0, 0x01 }, 4, INSN_OTHER, 0 },
	{ "ud2", { 0x0f, 0x0b }, 2, INSN_OTHER, 0 },
	{ "rep movsb", { 0xf3, 0xa4 }, 2, INSN_OTHER, 1 },
	{ "rep stosq", { 0xf3, 0x48, 0xab }, 3, INSN_OTHER, 1 },
	{ "repne scasb", { 0xf2, 0xae }, 2, INSN_OTHER, 1 },
	{ "rep insb", { 0xf3, 0x6c }, 2, INSN_OTHER, 1 },
	{ "movsb without rep", { 0xa4 }, 1, INSN_OTHER, 0 },
	{ "plain nopl 0(%rax)", { 0x0f, 0x1f, 0x40, 0x00 }, 4, INSN_OTHER, 0 },
};

static void test_kinds(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		struct insn_class c;

		if (oracle_classify(samples[i].bytes, samples[i].len, &c))
			fail_msg("%s: classify failed", samples[i].what);
		if (c.kind != samples[i].kind)
			fail_msg("%s: kind %s, want %s", samples[i].what, insn_kind_name(c.kind),
				 insn_kind_name(samples[i].kind));
		if (c.rep_string != !!samples[i].rep)
			fail_msg("%s: rep_string %d", samples[i].what, c.rep_string);
		assert_false(c.marker);
	}
}

static void marker_bytes(uint8_t b[7], uint32_t disp)
{
	b[0] = 0x0f;
	b[1] = 0x1f;
	b[2] = ORACLE_MODRM;
	memcpy(b + 3, &disp, 4);	/* little endian, as x86 */
}

static void test_markers(void **state)
{
	uint8_t b[7];
	struct insn_class c;
	(void)state;

	marker_bytes(b, ORACLE_DISP(ORACLE_KIND_START, 17));
	assert_int_equal(oracle_classify(b, 7, &c), 0);
	assert_true(c.marker);
	assert_int_equal(c.marker_kind, ORACLE_KIND_START);
	assert_int_equal(c.marker_id, 17);
	assert_int_equal(c.kind, INSN_OTHER);

	marker_bytes(b, ORACLE_DISP(ORACLE_KIND_END, 255));
	oracle_classify(b, 7, &c);
	assert_true(c.marker);
	assert_int_equal(c.marker_kind, ORACLE_KIND_END);
	assert_int_equal(c.marker_id, 255);

	marker_bytes(b, ORACLE_DISP(ORACLE_KIND_ARM, 0));
	oracle_classify(b, 7, &c);
	assert_true(c.marker);
	assert_int_equal(c.marker_kind, ORACLE_KIND_ARM);

	/* Wrong magic, wrong ModRM (disp32 off %rcx), a prefix: ordinary NOPs. */
	marker_bytes(b, 0x12340000 | 5);
	oracle_classify(b, 7, &c);
	assert_false(c.marker);
	marker_bytes(b, ORACLE_DISP(ORACLE_KIND_START, 1));
	b[2] = 0x81;
	oracle_classify(b, 7, &c);
	assert_false(c.marker);
	{
		uint8_t p[8] = { 0x66 };

		marker_bytes(p + 1, ORACLE_DISP(ORACLE_KIND_START, 1));
		oracle_classify(p, 8, &c);
		assert_false(c.marker);
	}
}

static void test_truncated(void **state)
{
	struct insn_class c;
	static const uint8_t prefixes_only[] = { 0x66, 0xf3 };
	static const uint8_t ff_no_modrm[] = { 0xff };
	static const uint8_t esc_only[] = { 0x0f };
	(void)state;

	assert_int_equal(oracle_classify(prefixes_only, 2, &c), -1);
	assert_int_equal(oracle_classify(ff_no_modrm, 1, &c), -1);
	assert_int_equal(oracle_classify(esc_only, 1, &c), -1);
	assert_int_equal(oracle_classify(NULL, 0, &c), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_markers),
		cmocka_unit_test(test_truncated),
	};

	return cmocka_run_group_tests_name("oracle_decode", tests, NULL, NULL);
}
