/* SPDX-License-Identifier: MIT */
/*
 * Region markers for the reference oracle (tests/qemu/oracle.c): `nopl DISP32(%rax)`
 * (0F 1F 80 disp32), a 7-byte NOP that real CPUs retire as one instruction and that the
 * QEMU plugin recognises from its bytes. The displacement carries a magic tag, the kind
 * and the region id. Usable from C and assembly.
 */
#ifndef LIB_ORACLE_TAG_H
#define LIB_ORACLE_TAG_H

#define ORACLE_TAG		0x504d0000	/* "PM" in bits 31:16 */
#define ORACLE_TAG_MASK		0xffff0000
#define ORACLE_KIND_SHIFT	12
#define ORACLE_KIND_MASK	0x0000f000
#define ORACLE_ID_MASK		0x00000fff

#define ORACLE_KIND_START	0x1	/* a region begins after this instruction */
#define ORACLE_KIND_END		0x2	/* a region ends before this instruction */
#define ORACLE_KIND_ARM		0x3	/* the firmware is up: instrument from here on */

#define ORACLE_DISP(kind, id)	(ORACLE_TAG | ((kind) << ORACLE_KIND_SHIFT) | (id))

#define ORACLE_MAX_REGIONS	256	/* region ids 0..255: one measurement-frame slot each */

/* Encoding: 0F 1F /0 with ModRM 0x80 = mod 10 (disp32), reg 0, rm 000 (%rax). */
#define ORACLE_MARKER_LEN	7
#define ORACLE_MODRM		0x80

#ifdef __ASSEMBLER__
/* MARKER kind, id: the 7-byte marker NOP, spelled out so no assembler picks another form. */
.macro MARKER kind, id
	.byte	0x0f, 0x1f, ORACLE_MODRM
	.long	ORACLE_DISP(\kind, \id)
.endm
#endif

#endif /* LIB_ORACLE_TAG_H */
