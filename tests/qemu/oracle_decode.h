/* SPDX-License-Identifier: MIT */
/* x86-64 instruction classification for the reference oracle: control-transfer kind and
 * the region markers, from an instruction's bytes (pure, host-tested). */
#ifndef TESTS_QEMU_ORACLE_DECODE_H
#define TESTS_QEMU_ORACLE_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum insn_kind {
	INSN_OTHER = 0,
	INSN_COND,	/* Jcc rel8/rel32, LOOP/LOOPE/LOOPNE, JrCXZ */
	INSN_JMP,	/* JMP rel8/rel32, JMP r/m (near) */
	INSN_CALL,	/* CALL rel32, CALL r/m (near) */
	INSN_RET,	/* RET, RET imm16 (near) */
	INSN_FAR,	/* far JMP/CALL/RET, IRET, INT n/INT3/INTO, SYSCALL/SYSRET, SYSENTER/SYSEXIT */
};

struct insn_class {
	enum insn_kind kind;
	bool rep_string;	/* REP/REPE/REPNE with a string instruction: one instruction,
				 * which QEMU re-enters once per iteration */
	bool marker;		/* nopl ORACLE_DISP(kind, id)(%rax) */
	unsigned marker_kind;	/* ORACLE_KIND_* */
	unsigned marker_id;
};

/* Classifies the instruction in b[0..len); returns 0, or -1 if the bytes are truncated. */
int oracle_classify(const uint8_t *b, size_t len, struct insn_class *out);

const char *insn_kind_name(enum insn_kind k);

#endif /* TESTS_QEMU_ORACLE_DECODE_H */
