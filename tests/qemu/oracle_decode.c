/* SPDX-License-Identifier: MIT */
/* Control-transfer classification of x86-64 instructions (SDM Vol. 2 opcode maps). */
#include "tests/qemu/oracle_decode.h"
#include "lib/oracle_tag.h"

const char *insn_kind_name(enum insn_kind k)
{
	switch (k) {
	case INSN_COND: return "cond";
	case INSN_JMP: return "jmp";
	case INSN_CALL: return "call";
	case INSN_RET: return "ret";
	case INSN_FAR: return "far";
	default: return "other";
	}
}

static bool legacy_prefix(uint8_t b)
{
	switch (b) {
	case 0xf0: case 0xf2: case 0xf3:			/* LOCK, REPNE, REP */
	case 0x2e: case 0x36: case 0x3e: case 0x26:		/* segment, branch hints */
	case 0x64: case 0x65:
	case 0x66: case 0x67:					/* operand, address size */
		return true;
	default:
		return false;
	}
}

static bool string_op(uint8_t op)
{
	return (op >= 0xa4 && op <= 0xa7) || (op >= 0xaa && op <= 0xaf) ||
	       (op >= 0x6c && op <= 0x6f);
}

int oracle_classify(const uint8_t *b, size_t len, struct insn_class *out)
{
	size_t i = 0;
	bool rep = false, prefixed = false;
	uint8_t op;

	*out = (struct insn_class){ .kind = INSN_OTHER };
	while (i < len && legacy_prefix(b[i])) {
		rep |= b[i] == 0xf2 || b[i] == 0xf3;
		prefixed = true;
		i++;
	}
	if (i < len && (b[i] & 0xf0) == 0x40) {	/* REX */
		prefixed = true;
		i++;
	}
	if (i >= len)
		return -1;
	op = b[i++];

	if (op == 0x0f) {
		if (i >= len)
			return -1;
		op = b[i++];
		if (op >= 0x80 && op <= 0x8f) {
			out->kind = INSN_COND;
		} else if (op == 0x05 || op == 0x07 || op == 0x34 || op == 0x35) {
			out->kind = INSN_FAR;
		} else if (op == 0x1f && !prefixed) {
			uint32_t disp;

			if (i + 5 > len)
				return i + 1 > len ? -1 : 0;
			if (b[i] != ORACLE_MODRM)
				return 0;
			disp = (uint32_t)b[i + 1] | (uint32_t)b[i + 2] << 8 |
			       (uint32_t)b[i + 3] << 16 | (uint32_t)b[i + 4] << 24;
			if ((disp & ORACLE_TAG_MASK) == ORACLE_TAG) {
				out->marker = true;
				out->marker_kind = (disp & ORACLE_KIND_MASK) >> ORACLE_KIND_SHIFT;
				out->marker_id = disp & ORACLE_ID_MASK;
			}
		}
		return 0;
	}
	if ((op >= 0x70 && op <= 0x7f) || (op >= 0xe0 && op <= 0xe3)) {
		out->kind = INSN_COND;
	} else if (op == 0xe9 || op == 0xeb) {
		out->kind = INSN_JMP;
	} else if (op == 0xe8) {
		out->kind = INSN_CALL;
	} else if (op == 0xc2 || op == 0xc3) {
		out->kind = INSN_RET;
	} else if (op == 0xca || op == 0xcb || op == 0xcc || op == 0xcd || op == 0xce ||
		   op == 0xcf || op == 0xea || op == 0x9a) {
		out->kind = INSN_FAR;
	} else if (op == 0xff) {
		unsigned reg;

		if (i >= len)
			return -1;
		reg = (b[i] >> 3) & 7;
		if (reg == 2)
			out->kind = INSN_CALL;
		else if (reg == 4)
			out->kind = INSN_JMP;
		else if (reg == 3 || reg == 5)
			out->kind = INSN_FAR;
	} else if (rep && string_op(op)) {
		out->rep_string = true;
	}
	return 0;
}
