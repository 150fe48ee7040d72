/* SPDX-License-Identifier: MIT */
/*
 * The other CPUs: started after ExitBootServices with INIT-SIPI-SIPI through a trampoline
 * below 1 MiB (SDM Vol. 3A 9.4.4, 10.6.1), each with its own stack, GDT, TSS, local APIC and
 * per-CPU block (the IDT is shared); then idle in HLT until run_on() gives them work. With
 * boot services kept they are the firmware's, reached through EFI_MP_SERVICES_PROTOCOL.
 *
 * CPU numbers: 0 is the bootstrap processor, 1.. the others in MADT order. A CPU that does
 * not start, faults, or does not finish a call in time is reported and left alone
 * (stopped with INIT), never waited for without a limit.
 */
#ifndef ARCH_X86_SMP_H
#define ARCH_X86_SMP_H

/* Trampoline data fields, as offsets from its start (trampoline.S reads them). */
#define SMP_TR_DATA		0x100
#define SMP_TR_CR4_32		(SMP_TR_DATA + 0x00)	/* CR4 for the 32-bit step */
#define SMP_TR_CR3		(SMP_TR_DATA + 0x08)	/* below 4 GiB */
#define SMP_TR_EFER		(SMP_TR_DATA + 0x10)	/* low half: LME, NX */
#define SMP_TR_CR0		(SMP_TR_DATA + 0x18)
#define SMP_TR_CR4		(SMP_TR_DATA + 0x20)	/* the BSP's, in long mode */
#define SMP_TR_STACK		(SMP_TR_DATA + 0x28)
#define SMP_TR_ARG		(SMP_TR_DATA + 0x30)
#define SMP_TR_ENTRY		(SMP_TR_DATA + 0x38)
#define SMP_TR_DATA_SIZE	0x40
#define SMP_TRAMPOLINE_MAX	0x9f000		/* the page must lie below this (and 1 MiB) */

#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <stdint.h>
#include "arch/x86/percpu.h"

#define SMP_AP_STACK_SIZE	(64ULL << 10)
#define SMP_START_TIMEOUT_US	1000000		/* from the second SIPI to "alive" */

enum smp_state {
	SMP_ABSENT = 0,		/* not chosen, or not in the MADT */
	SMP_NOT_STARTED,	/* chosen; start not attempted (e.g. no trampoline page) */
	SMP_FAILED,		/* INIT-SIPI-SIPI sent, never answered */
	SMP_IDLE,		/* running pmuboot, waiting for work */
	SMP_BUSY,		/* running a call */
	SMP_LOST,		/* a call did not end in time: stopped with INIT */
	SMP_PARKED,		/* stopped with INIT at the end of the run */
};

/* What run_on() returns besides 0. */
enum smp_error {
	SMP_OK = 0,
	SMP_ENOCPU,		/* no such CPU, or not running pmuboot */
	SMP_ETIMEOUT,		/* the call did not end in time: the CPU is lost */
	SMP_EFAULT,		/* an unexpected exception on that CPU ended the call */
};

struct smp_cpu {
	uint32_t apic_id;
	bool enabled;		/* MADT: enabled (not just online-capable) */
	enum smp_state state;
	uint64_t start_us;	/* INIT to "alive" */
	/* The last fatal exception on it (state stays IDLE: it is usable again). */
	unsigned fault_vector;
	uint64_t fault_rip, fault_error;
	char why[160];		/* why it is not running, when it is not */
};

struct smp_info {
	unsigned ncpus;		/* CPUs known: the BSP and the MADT's others, at most MAX_CPUS */
	unsigned started;	/* APs running pmuboot */
	bool kept;		/* boot services kept: the firmware's MP services run the calls */
	unsigned pmu_unsafe;	/* CPUs given up without their PMU stopped (see smp_set_quiesce) */
	char why[128];		/* why no AP was started, if none was */
	struct smp_cpu cpu[MAX_CPUS];
};

extern struct smp_info smp;

/*
 * Before ExitBootServices: the page below 1 MiB for the trampoline and the APs' stacks
 * (n stacks of SMP_AP_STACK_SIZE), from the firmware. Either may be 0: then no AP starts
 * and smp.why says so.
 */
void smp_reserve(uint64_t trampoline_page, uint64_t stacks, unsigned n);

/*
 * Lists the CPUs: the BSP (apic_id) first, then the MADT's others (enabled ones start; the
 * online-capable ones are listed and never started), then starts those in `chosen` (bit i:
 * CPU i) one at a time. Needs the TSC calibrated and pmuboot's IDT and APIC. Returns the
 * number of APs started.
 */
unsigned smp_start(const uint32_t *apic_ids, const bool *enabled, unsigned n, uint32_t bsp_id,
		   uint64_t chosen);

/*
 * Boot services kept: the firmware's MP services protocol runs the calls (boot/uefi.c).
 * `call` runs smp_fw_ap_run(cpu, fn, arg) on CPU cpu and returns what it returned, or
 * SMP_ETIMEOUT / SMP_ENOCPU; apic_ids[0] is the BSP's. CPUs not in `chosen` are listed only.
 */
typedef int (*smp_fw_call_fn)(unsigned cpu, void (*fn)(void *), void *arg, uint64_t timeout_us);
void smp_use_firmware(unsigned ncpus, const uint32_t *apic_ids, uint64_t chosen,
		      smp_fw_call_fn call);
/* On the AP, inside the firmware's call: pmuboot's IDT and GS block, its own stack (from
 * smp_reserve()), fn(arg), then the firmware's state back. SMP_OK or SMP_EFAULT. */
int smp_fw_ap_run(unsigned cpu, void (*fn)(void *), void *arg);

/* Runs fn(arg) on CPU `cpu` (0: here, directly) and waits at most timeout_us for it. */
int run_on(unsigned cpu, void (*fn)(void *), void *arg, uint64_t timeout_us);

/* Starts fn(arg) on `cpu` and returns; run_wait() collects it. Not for the BSP. A check the
 * watchdog stops (or a run_wait() that gives up) leaves fn running: arg must not point into
 * the caller's stack (xcore_run_pair keeps a slot per CPU). */
int run_start(unsigned cpu, void (*fn)(void *), void *arg);
int run_wait(unsigned cpu, uint64_t timeout_us);

/* Whether this code runs on an AP; the number of the CPU it runs on. */
unsigned smp_this_cpu(void);

/* Called by the fatal-fault path on an AP: records the fault and ends the call. */
void smp_ap_fatal(uint64_t vector, uint64_t rip, uint64_t error) __attribute__((noreturn));

/*
 * What stops this CPU's PMU (the harness's: counters, PEBS, BTS, LBR), run on a CPU before
 * pmuboot gives it up after a call that did not end: INIT leaves every MSR as it was (SDM
 * Vol. 3A Table 9-1), so a CPU stopped with PEBS or BTS armed would write records again
 * once the firmware restarts it. Without boot services the CPU is asked by NMI (it runs fn
 * in its NMI handler, then waits there for the INIT); with them kept, once the firmware's
 * MP services have stopped the call, by one more call through them. Where neither
 * answers, smp.pmu_unsafe counts the CPU and smp.cpu[i].why says so.
 */
void smp_set_quiesce(void (*fn)(void));
/* In the NMI handler of a CPU the BSP is giving up (percpu quiesce_req): stops its PMU,
 * answers, and waits for the INIT. */
void smp_quiesce_self(void) __attribute__((noreturn));

/* At the end of a run: every running AP back to wait-for-SIPI with INIT. */
void smp_park_all(void);

const char *smp_state_name(enum smp_state s);
const char *smp_error_name(int e);

#endif /* __ASSEMBLER__ */
#endif /* ARCH_X86_SMP_H */
