/* SPDX-License-Identifier: MIT */
/* What boot found and set up, shared with the checks: options, CPU, ACPI, memory, run mode. */
#ifndef BOOT_PLATFORM_H
#define BOOT_PLATFORM_H

#include <stdbool.h>
#include <stdint.h>
#include "arch/x86/acpi.h"
#include "arch/x86/cpuid.h"
#include "tests/harness/options.h"
#include "tests/harness/runner.h"	/* enum run_status */

#define PMUBOOT_NAME		"pmuboot"
#ifndef PMUBOOT_VERSION
#define PMUBOOT_VERSION		"0.1.0"
#endif

/* QEMU isa-debug-exit (iobase 0xf4): writing v makes QEMU exit with (v << 1) | 1. */
#define DEBUG_EXIT_PORT		0xf4
#define DEBUG_EXIT_PASS		0x10	/* QEMU status 33 */
#define DEBUG_EXIT_FAIL		0x11	/* 35 */
#define DEBUG_EXIT_USAGE	0x12	/* 37 */
#define DEBUG_EXIT_FATAL	0x13	/* 39 */

#define DEFAULT_BUF_SIZE	(256ULL << 20)	/* on hardware */
#define DEFAULT_BUF_SIZE_VM	(16ULL << 20)	/* under a hypervisor: keeps the smoke run fast */
#define MIN_BUF_SIZE		(1ULL << 20)
#define STACK_SIZE		(256ULL << 10)
#define CAPTURE_SIZE		(1ULL << 20)	/* results file copy in boot-services=keep mode */

struct platform {
	struct options opt;
	struct cpu_info cpu;
	struct acpi_info acpi;
	bool boot_services_kept;
	char mode_note[80];		/* why the mode differs from the option, if it does */
	bool serial_ok;			/* a UART answered at serial= */
	bool debug_exit;		/* isa-debug-exit answered at DEBUG_EXIT_PORT */
	uint64_t mem_usable;		/* bytes usable after ExitBootServices, per the memory map */
	uint64_t mem_top;		/* end of the highest memory-map entry */
	uint64_t buf;			/* test buffer (identity-mapped physical address) */
	uint64_t buf_size;
	char buf_note[96];		/* how its size was chosen */
	char load_options_note[96];	/* what happened to the UEFI load options */
	char cfg_note[96];		/* what happened to pmuboot.cfg */
	bool watchdog;			/* the APIC-timer watchdog is usable */
	char watchdog_note[96];
	unsigned ebs_attempts;		/* ExitBootServices calls it took */
};

extern struct platform plat;

/* Ends the run (boot/exit.c): isa-debug-exit, ResetSystem, halt or return, per options. */
void platform_exit(enum run_status st) __attribute__((noreturn));

#endif /* BOOT_PLATFORM_H */
