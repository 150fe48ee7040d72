/* SPDX-License-Identifier: MIT */
/*
 * efi_main: options, discovery and allocations under boot services, then either
 * ExitBootServices and ownership of the CPU (default), or a run beside the firmware
 * (boot-services=keep); the checks; the exit.
 */
#include <efi.h>
#include <efilib.h>

#include "arch/x86/acpi.h"
#include "arch/x86/apic.h"
#include "arch/x86/cpuid.h"
#include "arch/x86/desc.h"
#include "arch/x86/io.h"
#include "arch/x86/paging.h"
#include "arch/x86/pci.h"
#include "arch/x86/percpu.h"
#include "arch/x86/serial.h"
#include "arch/x86/smp.h"
#include "arch/x86/trap.h"
#include "arch/x86/tsc.h"
#include "arch/x86/user.h"
#include "arch/x86/watchdog.h"
#include "arch/x86/console.h"
#include "boot/main.h"
#include "tests/harness/options.h"
#include "boot/platform.h"
#include "boot/uefi.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "pmu/counter.h"
#include "pmu/pmu.h"
#include "pmu/uncore.h"
#include "tests/harness/list.h"
#include "tests/checks/events.h"	/* events_coverage_print */
#include "tests/checks/measure.h"	/* measure_prepare */
#include "tests/kernels/kernels.h"	/* oracle_arm */
#include "tests/harness/runner.h"

#ifndef PMUBOOT_GIT
#define PMUBOOT_GIT "unknown"
#endif

struct platform plat;

static char cfg_text[CFG_MAX_SIZE];
static char cmdline[4096];
static char opt_err[256];
static struct recover_point efi_return_rp;
static uint64_t stack_base;

static void pmu_header_line(const char *line)
{
	con_printf("# pmu: %s\n", line);
}

static unsigned known_cpus(void)
{
	unsigned n = plat.acpi.ncpus < MAX_CPUS ? plat.acpi.ncpus : MAX_CPUS;

	return n ? n : 1;
}

static void cpu_pmu_line(const char *line)
{
	con_printf("#   %s\n", line);
}

/* "# smp:" and one "# cpu N:" line per CPU: APIC ID, state, start-up time, core type, and
 * its PMU where it differs from the BSP's. */
static void print_smp(void)
{
	char a[32];

	con_printf("# smp: %u CPU(s) known (MADT %u), %u AP(s) started%s%s%s\n", smp.ncpus,
		   plat.acpi.ncpus, smp.started, smp.kept ? " (firmware MP services)" : "",
		   smp.why[0] ? "; " : "", smp.why);
	for (unsigned i = 0; i < smp.ncpus; i++) {
		const struct smp_cpu *sc = &smp.cpu[i];
		const struct pmu_cpu *pc = &pmu_cpus[i];
		char pmuinfo[96];

		if (i == 0)
			str_lcpy(a, "bootstrap processor", sizeof(a));
		else if (sc->start_us)
			fmt_snprintf(a, sizeof(a), "started in %llu.%03llu ms",
				     (unsigned long long)(sc->start_us / 1000),
				     (unsigned long long)(sc->start_us % 1000));
		else
			str_lcpy(a, smp_state_name(sc->state), sizeof(a));
		if (!pc->probed)
			str_lcpy(pmuinfo, "PMU not probed", sizeof(pmuinfo));
		else if (i == 0 || pmu_caps_same(&pc->caps, &pmu_cpus[0].caps))
			fmt_snprintf(pmuinfo, sizeof(pmuinfo), "core type %s; PMU as CPU 0's",
				     pc->caps.hybrid ? pmu_core_type_name(pc->caps.core_type) :
				     "n/a (not hybrid)");
		else
			fmt_snprintf(pmuinfo, sizeof(pmuinfo), "core type %s; PMU differs:",
				     pc->caps.hybrid ? pmu_core_type_name(pc->caps.core_type) :
				     "n/a (not hybrid)");
		con_printf("# cpu %u: APIC ID %u, %s; %s%s%s\n", i, sc->apic_id, a, pmuinfo,
			   sc->why[0] && i ? "; " : "", i ? sc->why : "");
		if (i && pc->probed && !pmu_caps_same(&pc->caps, &pmu_cpus[0].caps))
			pmu_caps_describe(&pc->caps, cpu_pmu_line);
	}
}

static void uncore_header_line(const char *line)
{
	con_printf("# uncore: %s\n", line);
}

static void print_header(void)
{
	const struct cpu_info *ci = &plat.cpu;
	char a[32], b[32], line[512];	/* con_printf's limit: long measure= lists */

	con_printf("# %s %s (git %s)\n", PMUBOOT_NAME, PMUBOOT_VERSION, PMUBOOT_GIT);
	con_printf("# cpu: %s (%s) family 0x%x model 0x%x stepping %u signature 0x%08x \"%s\"\n",
		   ci->vendor_id, cpu_vendor_name(ci->vendor), ci->family, ci->model, ci->stepping,
		   ci->signature, ci->brand);
	if (ci->hypervisor)
		con_printf("# hypervisor: %s\n", ci->hv_signature[0] ? ci->hv_signature :
			   "present (CPUID.1:ECX[31]) without a signature leaf");
	else
		con_printf("# hypervisor: none\n");
	fmt_fixed(a, sizeof(a), (int64_t)(tsc.hz / 1000), 3);
	if (tsc.calibrated_hz) {
		fmt_fixed(b, sizeof(b), (int64_t)(tsc.calibrated_hz / 1000), 3);
	} else {
		str_lcpy(b, "n/a", sizeof(b));
	}
	con_printf("# tsc: %s MHz from %s; PM-timer calibration %s MHz; invariant %s\n",
		   a, tsc_source_name(tsc.source), b, ci->invariant_tsc ? "yes" : "no");
	if (apic.present) {
		if (apic.timer_hz) {
			fmt_fixed(b, sizeof(b), (int64_t)(apic.timer_hz / 1000), 3);
			fmt_snprintf(a, sizeof(a), "%s MHz (div 16)", b);
		} else {
			str_lcpy(a, "not used", sizeof(a));
		}
		con_printf("# apic: %s id %u base 0x%lx version 0x%x max LVT %u timer %s\n",
			   apic.x2apic ? "x2APIC" : "xAPIC", apic.id, (unsigned long)apic.base,
			   APIC_LVR_VERSION(apic.version), APIC_LVR_MAXLVT(apic.version), a);
	} else {
		con_printf("# apic: none\n");
	}
	if (plat.acpi.found) {
		fmt_snprintf(line, sizeof(line), "%s 0x%lx %u-bit", plat.acpi.pm_timer_space ==
			     ACPI_GAS_IO ? "io" : "mmio", (unsigned long)plat.acpi.pm_timer_addr,
			     plat.acpi.pm_timer_bits);
		con_printf("# acpi: revision %u OEM %s, %u CPUs in MADT, PM timer %s%s\n",
			   plat.acpi.revision, plat.acpi.oem_id, plat.acpi.ncpus,
			   plat.acpi.pm_timer ? line : "none",
			   plat.acpi.bad_checksums ? " (tables with bad checksums ignored)" : "");
	} else {
		con_printf("# acpi: no RSDP\n");
	}
	fmt_size(a, sizeof(a), plat.mem_usable & ~((1ULL << 20) - 1));
	fmt_size(b, sizeof(b), plat.buf_size);
	con_printf("# memory: %s usable; buffer %s at 0x%lx (%s)\n", a, b,
		   (unsigned long)plat.buf, plat.buf_note);
	pmu_caps_describe(&pmu, pmu_header_line);
	uncore_caps_describe(&uncore, uncore_header_line);
	if (pmu.version)
		con_printf("# pmu: the firmware's PMU state (counters, DEBUGCTL, LVTPC) %s\n",
			   pmu_boot_state.saved ? "was saved; it is restored at exit" :
			   "could not be saved (an enumerated MSR faulted): it is not restored at exit");
	print_smp();
	if (plat.boot_services_kept)
		con_printf("# mode: boot services kept%s; results on the UEFI console%s and in %s\n",
			   plat.mode_note, !plat.serial_ok ? "" : con_serial_direct() ? " and the UART" :
			   " (it reaches a serial port: the UART is not written directly)",
			   RESULTS_FILE_NAME);
	else
		con_printf("# mode: boot services exited after %u attempt(s); pmuboot owns GDT, IDT, "
			   "APIC\n", plat.ebs_attempts);
	con_printf("# watchdog: %s\n", plat.watchdog_note);
	con_printf("# config: %s: %s; load options: %s\n", CFG_FILE_NAME, plat.cfg_note,
		   plat.load_options_note);
	options_format(&plat.opt, line, sizeof(line));
	con_printf("# options: %s\n", line);
	con_printf("# pci: host bridge %04x:%04x\n", pci_host_bridge_id() & 0xffff,
		   pci_host_bridge_id() >> 16);
	/* Where pmuboot's code lies, so that an address in an emulator's or a debugger's
	 * output can be told from the firmware's (the x2APIC ICR-ordering statistic names
	 * the WRMSRs that lacked a fence; a fault's RIP is printed relative to it too). */
	{
		uint64_t base, size;

		if (uefi_image_range(&base, &size))
			con_printf("# image: pmuboot.efi at 0x%lx, 0x%lx bytes\n", (unsigned long)base,
				   (unsigned long)size);
		else
			con_printf("# image: pmuboot.efi, where the firmware did not say\n");
	}
	con_printf("# exit: %s\n", plat.debug_exit ? "QEMU isa-debug-exit at 0xf4" :
		   "UEFI ResetSystem");
}

static void setup_watchdog(void)
{
	bool ok = false;

	if (!apic.present) {
		str_lcpy(plat.watchdog_note, "unavailable: no local APIC", sizeof(plat.watchdog_note));
	} else if (plat.boot_services_kept && apic_timer_in_use_by_firmware()) {
		str_lcpy(plat.watchdog_note, "unavailable: the firmware uses the local APIC timer",
			 sizeof(plat.watchdog_note));
	} else {
		apic_timer_calibrate(tsc.hz, 10);
		ok = apic.timer_hz != 0;
		if (ok)
			fmt_snprintf(plat.watchdog_note, sizeof(plat.watchdog_note),
				     "local APIC timer, vector 0x%x, limit %u ms per check",
				     VECTOR_WATCHDOG, plat.opt.watchdog_ms);
		else
			str_lcpy(plat.watchdog_note, "unavailable: the local APIC timer does not count",
				 sizeof(plat.watchdog_note));
	}
	plat.watchdog = ok;
	watchdog_init(ok);
}

/* The other CPUs (exit mode: INIT-SIPI-SIPI) and each one's PMU, probed on it. */
static void start_cpus(void)
{
	pmu_cpus[0].cpu = plat.cpu;
	pmu_cpus[0].caps = pmu;
	pmu_cpus[0].boot = pmu_boot_state;
	pmu_cpus[0].probed = true;
	if (plat.boot_services_kept) {
		char why[96];

		if (uefi_mp_services(plat.opt.cpus, why, sizeof(why))) {
			smp_start(plat.acpi.apic_ids, plat.acpi.cpu_enabled, 0, apic.id, 1);
			str_lcpy(smp.why, why, sizeof(smp.why));
		}
	} else {
		smp_start(plat.acpi.apic_ids, plat.acpi.cpu_enabled, plat.acpi.ncpus < ACPI_MAX_CPUS ?
		  plat.acpi.ncpus : ACPI_MAX_CPUS, apic.id, plat.opt.cpus);
	}
	for (unsigned i = 1; i < smp.ncpus; i++)
		if (smp.cpu[i].state == SMP_IDLE &&
		    run_on(i, pmu_cpu_probe, &pmu_cpus[i], 1000000) != SMP_OK)
			str_lcpy(smp.cpu[i].why, "probing its PMU did not finish",
				 sizeof(smp.cpu[i].why));
}

/* Everything after the CPU is set up: time, watchdog, header, checks, exit. */
static void __attribute__((noreturn)) run(void *unused)
{
	(void)unused;
	oracle_arm();		/* the reference oracle instruments code from here on */
	/* GS base and the IDT are pmuboot's now: the fault-safe MSR accessors work, so the
	 * PMU's MSRs (PERF_CAPABILITIES) can be read. */
	pmu_probe_msrs();
	uncore_probe();		/* reads only; after the core PMU, whose version it consults */
	tsc_init(&plat.cpu, &plat.acpi);
	setup_watchdog();
	pmu_boot_save();
	start_cpus();
	print_header();
	platform_exit(runner_run(&plat.opt, &(struct check_env){
		.buf = plat.buf, .buf_size = plat.buf_size, .reps = plat.opt.reps,
		.reps_set = plat.opt.reps_set, .force_pmu = plat.opt.force_pmu,
		.pmi_nmi = plat.opt.pmi_nmi, .icount = plat.opt.icount, .oracle = plat.opt.oracle,
		.oracle_fault = plat.opt.oracle_fault, .bts = plat.opt.bts, .cpus = plat.opt.cpus,
		.cpu = &plat.cpu, .ncpus = plat.acpi.ncpus, .watchdog_note = plat.watchdog_note }));
}

void main_return_to_efi(enum run_status st)
{
	recover_jump(&efi_return_rp, (int)st + 1);
}

static bool detect_debug_exit(void)
{
	/* QEMU's isa-debug-exit reads as 0; an unclaimed port reads as all ones. Only looked
	 * for under a hypervisor: on hardware port 0xf4 may belong to something else. */
	return plat.cpu.hypervisor && inl(DEBUG_EXIT_PORT) == 0;
}

static void choose_buffer(uint64_t largest_free)
{
	uint64_t want;
	char a[32], b[32];

	if (plat.opt.size_set) {
		plat.buf = uefi_alloc_pages(plat.opt.size);
		if (!plat.buf) {
			fmt_size(a, sizeof(a), plat.opt.size);
			fmt_size(b, sizeof(b), largest_free);
			fmt_snprintf(opt_err, sizeof(opt_err),
				     "size=%s: cannot allocate it (largest free block %s)", a, b);
			return;
		}
		plat.buf_size = plat.opt.size;
		str_lcpy(plat.buf_note, "size= option", sizeof(plat.buf_note));
		return;
	}
	want = plat.cpu.hypervisor ? DEFAULT_BUF_SIZE_VM : DEFAULT_BUF_SIZE;
	fmt_snprintf(plat.buf_note, sizeof(plat.buf_note), "default%s",
		     plat.cpu.hypervisor ? " under a hypervisor" : "");
	/* Leave at least half of the largest free block to the firmware and the rest. */
	while (want > MIN_BUF_SIZE && want > largest_free / 2) {
		want /= 2;
		fmt_size(a, sizeof(a), largest_free & ~((1ULL << 20) - 1));
		fmt_snprintf(plat.buf_note, sizeof(plat.buf_note),
			     "reduced from the default: largest free block %s", a);
	}
	for (; want >= MIN_BUF_SIZE; want /= 2) {
		plat.buf = uefi_alloc_pages(want);
		if (plat.buf) {
			plat.buf_size = want;
			return;
		}
	}
	str_lcpy(plat.buf_note, "none: allocation failed", sizeof(plat.buf_note));
}

static void read_options(void)
{
	size_t len;
	char note[96];
	int r;

	options_defaults(&plat.opt);
	r = uefi_read_cfg(cfg_text, sizeof(cfg_text), &len, note, sizeof(note));
	fmt_snprintf(plat.cfg_note, sizeof(plat.cfg_note), "%s", note);
	if (r < 0) {
		fmt_snprintf(opt_err, sizeof(opt_err), "%s: %s", CFG_FILE_NAME, note);
		return;
	}
	if (r > 0 && options_parse_text(&plat.opt, cfg_text, len, CFG_FILE_NAME, opt_err,
					sizeof(opt_err)))
		return;
	len = uefi_load_options(cmdline, sizeof(cmdline), plat.load_options_note,
				sizeof(plat.load_options_note));
	if (len == (size_t)-1) {
		fmt_snprintf(opt_err, sizeof(opt_err), "load options: %s", plat.load_options_note);
		return;
	}
	if (len && options_parse_text(&plat.opt, cmdline, len, "command line", opt_err,
				      sizeof(opt_err)))
		return;
	options_validate(&plat.opt, opt_err, sizeof(opt_err));
}

/* Bad options: say which and why, run nothing, fail. The run ends as a run with default
 * options would (shutdown; from the shell, back to it): an option that was rejected, or
 * that came with a rejected one, is not obeyed. (on-exit=return without boot services
 * kept returned to the boot manager, which fell into the UEFI shell and waited there.) */
static EFI_STATUS usage_exit(void)
{
	con_printf("# %s %s (git %s)\n", PMUBOOT_NAME, PMUBOOT_VERSION, PMUBOOT_GIT);
	con_printf("# error: %s\n", opt_err);
	con_printf("Bail out! invalid options: no check was run\n");
	if (!uefi_started_from_shell()) {
		options_defaults(&plat.opt);
		platform_final_action(RUN_USAGE, true);
	}
	return (EFI_STATUS)run_status_to_efi(RUN_USAGE);
}

/* Memory for CPL-3 checks: page tables covering all RAM (and the 4 GiB below, for MMIO)
 * and a user stack, taken while boot services can still allocate. */
static uint64_t user_tables, user_tables_top, user_stack;

static void reserve_user_mode(void)
{
	uint64_t top = plat.mem_top > (4ULL << 30) ? plat.mem_top : (4ULL << 30);

	if (top > PAGING_MAX_BYTES)
		return;		/* user_unavailable() will say so */
	user_tables_top = top;
	user_tables = uefi_alloc_pages(paging_table_bytes(top, plat.cpu.pdpe1gb) +
				       PAGING_SPLIT_SPARE * 4096);
	user_stack = uefi_alloc_pages(USER_STACK_SIZE);
}

/* The APs' start-up page below 1 MiB and their stacks, when any AP is chosen. */
static void reserve_smp(void)
{
	unsigned n = known_cpus();

	if (n < 2 || !(plat.opt.cpus & ~1ULL))
		return;
	smp_reserve(plat.boot_services_kept ? 0 : uefi_alloc_pages_below(4096, SMP_TRAMPOLINE_MAX - 1),
		    uefi_alloc_pages((uint64_t)(n - 1) * SMP_AP_STACK_SIZE), n - 1);
}

/* cpus= naming a CPU the MADT does not list is an error, said before anything runs. */
static void validate_cpus(void)
{
	unsigned n = known_cpus();

	if (plat.opt.cpus_set && n < 64 && (plat.opt.cpus >> n))
		fmt_snprintf(opt_err, sizeof(opt_err), "cpus= names CPU %u, but this machine has %u "
			     "(CPUs 0..%u; the MADT lists %u)",
			     (unsigned)__builtin_ctzll(plat.opt.cpus >> n) + n, n, n - 1,
			     plat.acpi.ncpus);
}

static EFI_STATUS run_kept(void)
{
	static bool owned[NR_VECTORS];
	uint64_t cap = uefi_alloc_pages(CAPTURE_SIZE);
	enum run_status st;
	int code;

	if (cap)
		con_capture((char *)(uintptr_t)cap, CAPTURE_SIZE);
	uefi_raise_tpl_notify();
	owned[VECTOR_PMI] = owned[VECTOR_WATCHDOG] = true;
	percpu_install(&percpu_table[0]);
	desc_install_shared(owned);
	runner_init(platform_exit);
	trap_set_fatal_hook(runner_fatal);
	apic_init(false);

	code = recover_set(&efi_return_rp);
	if (code == 0)
		run(NULL);
	st = (enum run_status)(code - 1);

	irq_disable();
	apic_restore();
	trap_set_fatal_hook(0);
	desc_restore_firmware();
	percpu_restore();
	uefi_restore_tpl();
	con_set_uefi_sink(0, false);
	if (cap) {
		size_t n = con_captured();

		if (uefi_write_file(RESULTS_FILE_NAME, (const char *)(uintptr_t)cap, n))
			con_printf("# warning: could not write %s\n", RESULTS_FILE_NAME);
	}
	platform_final_action(st, true);
	return (EFI_STATUS)run_status_to_efi(st);
}

static EFI_STATUS run_exited(void)
{
	con_set_uefi_sink(0, false);	/* the UEFI console is gone with boot services */
	if (uefi_exit_boot_services(&plat.ebs_attempts)) {
		con_printf("# error: ExitBootServices failed after %u attempt(s)\n", plat.ebs_attempts);
		con_printf("Bail out! could not take the machine from the firmware\n");
		platform_final_action(RUN_FATAL, true);
		return (EFI_STATUS)run_status_to_efi(RUN_FATAL);
	}
	/* From here on: no boot services, and the CPU is ours. */
	irq_disable();
	desc_install_owned(&percpu_table[0].desc);
	percpu_install(&percpu_table[0]);
	runner_init(platform_exit);
	trap_set_fatal_hook(runner_fatal);
	legacy_pic_mask_all();
	apic_init(true);
	if (user_tables) {
		user_setup(paging_build_identity(user_tables, user_tables_top, plat.cpu.pdpe1gb),
			   user_stack, USER_STACK_SIZE);
		user_setup_spare(user_tables + paging_table_bytes(user_tables_top,
								  plat.cpu.pdpe1gb));
	}
	call_on_stack((void *)(uintptr_t)(stack_base + STACK_SIZE), run, NULL);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	uint64_t largest_free = 0;

	uefi_init(image, systab);
	uefi_disable_watchdog();
	read_options();
	plat.boot_services_kept = plat.opt.boot_services == BOOT_SERVICES_KEEP;
	plat.serial_ok = serial_init(plat.opt.serial_port, plat.opt.serial_baud);
	if (!plat.serial_ok && !plat.boot_services_kept && !opt_err[0]) {
		/* Nothing would carry the results once boot services are gone: keep them, so the
		 * console and pmuboot.log do. The header says why. */
		plat.boot_services_kept = true;
		plat.opt.boot_services = BOOT_SERVICES_KEEP;
		if (plat.opt.on_exit == ON_EXIT_DEFAULT)
			plat.opt.on_exit = ON_EXIT_SHUTDOWN;	/* what exit mode would have done */
		fmt_snprintf(plat.mode_note, sizeof(plat.mode_note),
			     " (no UART answers at 0x%X, so boot services were kept)",
			     plat.opt.serial_port);
	}
	if (!plat.serial_ok || plat.boot_services_kept || uefi_started_from_shell())
		con_set_uefi_sink(uefi_console_write, uefi_console_has_serial());
	cpu_info_read(&plat.cpu);
	plat.debug_exit = detect_debug_exit();
	acpi_parse(&plat.acpi, uefi_find_rsdp());
	/* CPUID only: no MSR may be touched before pmuboot owns GS and the IDT (rdmsr_safe's
	 * fixup needs both), which happens in run_kept()/run_exited(). */
	pmu_probe_cpuid(&plat.cpu);
	if (!opt_err[0])
		validate_cpus();
	if (!opt_err[0])	/* measure= names against this CPU's catalogs */
		measure_prepare(&plat.opt, opt_err, sizeof(opt_err));
	if (!opt_err[0])
		runner_validate_globs(&plat.opt, opt_err, sizeof(opt_err));
	if (!opt_err[0] && plat.opt.list) {
		con_printf("# %s %s (git %s)\n", PMUBOOT_NAME, PMUBOOT_VERSION, PMUBOOT_GIT);
		if (plat.opt.list_what & LIST_CHECKS)
			runner_list();
		if (plat.opt.list_what & LIST_EVENTS)
			events_list_print();
		if (plat.opt.list_what & LIST_COVERAGE)
			events_coverage_print();
		platform_final_action(RUN_PASS, true);
		return EFI_SUCCESS;
	}
	uefi_memory(&plat.mem_usable, &largest_free, &plat.mem_top);
	if (!opt_err[0])
		choose_buffer(largest_free);
	if (!opt_err[0])
		measure_check_buffer(plat.buf_size, opt_err, sizeof(opt_err));
	if (opt_err[0])
		return usage_exit();
	stack_base = uefi_alloc_pages(STACK_SIZE);
	if (!plat.boot_services_kept)
		reserve_user_mode();
	reserve_smp();
	if (!stack_base && !plat.boot_services_kept) {
		str_lcpy(opt_err, "cannot allocate the run's stack", sizeof(opt_err));
		return usage_exit();
	}
	if (plat.boot_services_kept)
		return run_kept();
	return run_exited();
}
