/* SPDX-License-Identifier: MIT */
/* AP start-up (INIT-SIPI-SIPI through trampoline.S), the idle loop, run_on(). */
#include "arch/x86/smp.h"
#include "arch/x86/apic.h"
#include "arch/x86/desc.h"
#include "arch/x86/io.h"
#include "arch/x86/msr.h"
#include "arch/x86/trap.h"
#include "arch/x86/tsc.h"
#include "arch/x86/watchdog.h"
#include "lib/fmt.h"
#include "lib/string.h"

extern char smp_trampoline_start[], smp_trampoline_end[];

struct smp_info smp;

/* One per CPU: the call it is given, and how it ended. */
struct mailbox {
	void (*volatile fn)(void *);
	void *volatile arg;
	volatile int done;
	volatile int result;		/* SMP_OK or SMP_EFAULT */
	volatile int alive;		/* set once by the AP when it is up */
	struct recover_point rp;	/* the idle loop, for a call that faulted */
};

static struct mailbox mbox[MAX_CPUS];
static uint64_t tramp_page, ap_stacks;
static unsigned ap_stack_count;
/* What every AP copies from the BSP. */
static uint64_t bsp_xcr0;
static bool bsp_osxsave;
static smp_fw_call_fn fw_call;
static void (*quiesce_fn)(void);
/* How long a CPU being given up has to answer the NMI, or the firmware call, that stops
 * its PMU: the handler's few MSR writes take microseconds on a part; an emulated CPU on a
 * loaded host may not run for a good part of a second (measured: over 10 ms under TCG
 * with the build beside it). Paid only for a CPU that is lost anyway. */
#define QUIESCE_TIMEOUT_US	500000

/* SDM Vol. 3A 9.4.4.1 (the MP initialization example): 10 ms after INIT, 200 us after each
 * STARTUP IPI. */
#define INIT_DELAY_US		10000
#define SIPI_DELAY_US		200

static void udelay(uint64_t us)
{
	uint64_t t0 = rdtsc(), n = tsc_from_us(us);

	while (rdtsc() - t0 < n)
		cpu_relax();
}

static void wake_irq(struct trap_frame *f)
{
	(void)f;
	apic_eoi();
}

void smp_reserve(uint64_t trampoline_page, uint64_t stacks, unsigned n)
{
	tramp_page = trampoline_page;
	ap_stacks = stacks;
	ap_stack_count = n;
}

unsigned smp_this_cpu(void)
{
	return this_cpu()->index;
}

/* The AP's first C code, on its own stack, with the trampoline's GDT and no IDT. */
static void __attribute__((noreturn, used)) ap_main(struct percpu *c)
{
	struct mailbox *m = &mbox[c->index];
	int code;

	desc_install_ap(&c->desc);
	percpu_install(c);
	if (bsp_osxsave)
		write_xcr0(bsp_xcr0);
	c->apic_id = apic_take_over();
	__atomic_store_n(&m->alive, 1, __ATOMIC_RELEASE);

	code = recover_set(&m->rp);
	if (code) {			/* smp_ap_fatal(): the call ended with a fault */
		c->trap_depth = 0;
		c->probe_rp = 0;
		c->guard_rp = 0;
		c->guard_armed = 0;
		m->result = SMP_EFAULT;
		m->fn = 0;
		__atomic_store_n(&m->done, 1, __ATOMIC_RELEASE);
	}
	for (;;) {
		void (*fn)(void *);

		irq_disable();
		/* STI's one-instruction shadow: a wake-up IPI sent after the test is taken
		 * in HLT, not lost before it. */
		while (!(fn = __atomic_load_n(&m->fn, __ATOMIC_ACQUIRE)))
			asm volatile("sti; hlt; cli" ::: "memory");
		fn(m->arg);
		irq_disable();
		m->result = SMP_OK;
		m->fn = 0;
		__atomic_store_n(&m->done, 1, __ATOMIC_RELEASE);
	}
}

void smp_ap_fatal(uint64_t vector, uint64_t rip, uint64_t error)
{
	unsigned i = smp_this_cpu();

	smp.cpu[i].fault_vector = (unsigned)vector;
	smp.cpu[i].fault_rip = rip;
	smp.cpu[i].fault_error = error;
	recover_jump(&mbox[i].rp, 1);
	for (;;)
		hlt();
}

static void tr_put(unsigned off, uint64_t v)
{
	*(volatile uint64_t *)(uintptr_t)(tramp_page + off) = v;
}

/* INIT, then two STARTUP IPIs with the trampoline's page number as the vector. */
static void send_init_sipi(uint32_t id)
{
	uint32_t vector = (uint32_t)(tramp_page >> 12);

	apic_send_ipi(id, APIC_ICR_DM_INIT | APIC_ICR_LEVEL_ASSERT);
	udelay(INIT_DELAY_US);
	for (int i = 0; i < 2; i++) {
		apic_send_ipi(id, APIC_ICR_DM_STARTUP | APIC_ICR_LEVEL_ASSERT | vector);
		udelay(SIPI_DELAY_US);
	}
}

void smp_set_quiesce(void (*fn)(void))
{
	quiesce_fn = fn;
}

void smp_quiesce_self(void)
{
	struct percpu *c = this_cpu();

	c->quiesce_req = 0;
	if (quiesce_fn)
		quiesce_fn();
	__atomic_store_n(&c->quiesce_done, 1, __ATOMIC_RELEASE);
	for (;;) {
		irq_disable();
		hlt();		/* NMIs stay blocked (no IRET): only the INIT ends this */
	}
}

/* Asks CPU i, by NMI, to stop its PMU before it is given up; whether it answered. */
static bool quiesce_by_nmi(unsigned i)
{
	struct percpu *c = &percpu_table[i];
	uint64_t t0, limit = tsc_from_us(QUIESCE_TIMEOUT_US);

	if (!quiesce_fn)
		return false;
	c->quiesce_done = 0;
	__atomic_store_n(&c->quiesce_req, 1, __ATOMIC_RELEASE);
	apic_send_ipi(smp.cpu[i].apic_id, APIC_ICR_DM_NMI | APIC_ICR_LEVEL_ASSERT);
	for (t0 = rdtsc(); rdtsc() - t0 < limit; cpu_relax())
		if (__atomic_load_n(&c->quiesce_done, __ATOMIC_ACQUIRE))
			return true;
	c->quiesce_req = 0;
	return false;
}

static void quiesce_call(void *unused)
{
	(void)unused;
	if (quiesce_fn)
		quiesce_fn();
}

static void stop_cpu(unsigned i, enum smp_state st)
{
	apic_send_ipi(smp.cpu[i].apic_id, APIC_ICR_DM_INIT | APIC_ICR_LEVEL_ASSERT);
	smp.cpu[i].state = st;
}

static bool start_one(unsigned i, unsigned slot)
{
	struct smp_cpu *sc = &smp.cpu[i];
	struct mailbox *m = &mbox[i];
	uint64_t t0, limit = tsc_from_us(SMP_START_TIMEOUT_US);
	struct percpu *c = &percpu_table[i];

	memset(c, 0, sizeof(*c));
	c->self = c;
	c->index = i;
	c->apic_id = sc->apic_id;
	memset(m, 0, sizeof(*m));
	tr_put(SMP_TR_STACK, ap_stacks + (uint64_t)(slot + 1) * SMP_AP_STACK_SIZE);
	tr_put(SMP_TR_ARG, (uint64_t)(uintptr_t)c);
	tr_put(SMP_TR_ENTRY, (uint64_t)(uintptr_t)ap_main);

	t0 = rdtsc();
	send_init_sipi(sc->apic_id);
	while (!__atomic_load_n(&m->alive, __ATOMIC_ACQUIRE) && rdtsc() - t0 < limit)
		cpu_relax();
	if (!m->alive) {
		/* Stopped, so that a late start cannot run on the next CPU's trampoline data. */
		stop_cpu(i, SMP_FAILED);
		fmt_snprintf(sc->why, sizeof(sc->why), "no answer to INIT-SIPI-SIPI within %u ms",
			     (unsigned)(SMP_START_TIMEOUT_US / 1000));
		return false;
	}
	sc->start_us = tsc_to_us(rdtsc() - t0);
	if (c->apic_id != sc->apic_id) {
		stop_cpu(i, SMP_FAILED);
		fmt_snprintf(sc->why, sizeof(sc->why), "started, but its local APIC says ID %u, "
			     "not the MADT's %u", c->apic_id, sc->apic_id);
		return false;
	}
	sc->state = SMP_IDLE;
	return true;
}

static const char *trampoline_unusable(void)
{
	uint64_t size = (uint64_t)(smp_trampoline_end - smp_trampoline_start);

	if (!apic.present)
		return "no local APIC";
	if (!tramp_page)
		return "no free page below 1 MiB for the start-up code";
	if (tramp_page & 0xfff || tramp_page >= SMP_TRAMPOLINE_MAX || size > 4096)
		return "the start-up page is not a page below 0x9F000";
	if (read_cr3() >> 32)
		return "the page tables (CR3) lie above 4 GiB, out of the 32-bit start-up code's reach";
	if (!ap_stacks)
		return "no memory for the APs' stacks";
	return NULL;
}

unsigned smp_start(const uint32_t *apic_ids, const bool *enabled, unsigned n, uint32_t bsp_id,
		   uint64_t chosen)
{
	const char *why;
	unsigned slot = 0;

	memset(&smp, 0, sizeof(smp));
	smp.ncpus = 1;
	smp.cpu[0].apic_id = bsp_id;
	smp.cpu[0].enabled = true;
	smp.cpu[0].state = SMP_IDLE;
	percpu_table[0].index = 0;
	for (unsigned k = 0; k < n; k++) {
		struct smp_cpu *sc;

		if (apic_ids[k] == bsp_id)
			continue;
		if (smp.ncpus == MAX_CPUS) {
			fmt_snprintf(smp.why, sizeof(smp.why), "the MADT lists %u CPUs; pmuboot "
				     "knows the first %u", n, MAX_CPUS);
			break;
		}
		sc = &smp.cpu[smp.ncpus++];
		sc->apic_id = apic_ids[k];
		sc->enabled = enabled[k];
		sc->state = SMP_NOT_STARTED;
		if (!enabled[k])
			str_lcpy(sc->why, "online-capable in the MADT, not enabled", sizeof(sc->why));
		else if (!apic.x2apic && apic_ids[k] > 0xFE) {
			/* As Linux's apic_id_valid(): in xAPIC mode an IPI's destination is 8 bits,
			 * 0xFF the broadcast. */
			sc->enabled = false;
			fmt_snprintf(sc->why, sizeof(sc->why), "APIC ID %u above 254 with the local "
				     "APIC in xAPIC mode: an IPI cannot reach it alone", apic_ids[k]);
		}
	}
	if (smp.ncpus == 1 || !(chosen & ~1ULL))
		return 0;
	why = trampoline_unusable();
	if (why) {
		str_lcpy(smp.why, why, sizeof(smp.why));
		for (unsigned i = 1; i < smp.ncpus; i++)
			if (smp.cpu[i].enabled)
				str_lcpy(smp.cpu[i].why, why, sizeof(smp.cpu[i].why));
		return 0;
	}

	memcpy((void *)(uintptr_t)tramp_page, smp_trampoline_start,
	       (size_t)(smp_trampoline_end - smp_trampoline_start));
	tr_put(SMP_TR_CR4_32, read_cr4() & ~(uint64_t)(X86_CR4_PCIDE | X86_CR4_CET));
	tr_put(SMP_TR_CR3, read_cr3());
	tr_put(SMP_TR_EFER, rdmsr(MSR_EFER) & (EFER_LME | EFER_NX));
	tr_put(SMP_TR_CR0, read_cr0());
	tr_put(SMP_TR_CR4, read_cr4());
	bsp_osxsave = read_cr4() & X86_CR4_OSXSAVE;
	if (bsp_osxsave)
		bsp_xcr0 = read_xcr0();
	trap_set_handler(VECTOR_SMP_WAKE, wake_irq);

	for (unsigned i = 1; i < smp.ncpus; i++) {
		struct smp_cpu *sc = &smp.cpu[i];

		if (!sc->enabled)
			continue;
		if (!(chosen & (1ULL << i))) {
			sc->state = SMP_ABSENT;
			str_lcpy(sc->why, "not chosen (cpus=)", sizeof(sc->why));
			continue;
		}
		if (slot >= ap_stack_count) {
			str_lcpy(sc->why, "no stack reserved for it", sizeof(sc->why));
			continue;
		}
		if (start_one(i, slot))
			smp.started++;
		slot++;
	}
	return smp.started;
}

void smp_use_firmware(unsigned ncpus, const uint32_t *apic_ids, uint64_t chosen,
		      smp_fw_call_fn call)
{
	memset(&smp, 0, sizeof(smp));
	smp.kept = true;
	fw_call = call;
	smp.ncpus = ncpus < MAX_CPUS ? ncpus : MAX_CPUS;
	for (unsigned i = 0; i < smp.ncpus; i++) {
		struct percpu *c = &percpu_table[i];

		smp.cpu[i].apic_id = apic_ids[i];
		smp.cpu[i].enabled = true;
		smp.cpu[i].state = SMP_IDLE;
		if (i == 0)
			continue;
		if (!(chosen & (1ULL << i))) {
			smp.cpu[i].state = SMP_ABSENT;
			str_lcpy(smp.cpu[i].why, "not chosen (cpus=)", sizeof(smp.cpu[i].why));
			continue;
		}
		if (i > ap_stack_count || !ap_stacks) {
			smp.cpu[i].state = SMP_NOT_STARTED;
			str_lcpy(smp.cpu[i].why, "no stack reserved for it", sizeof(smp.cpu[i].why));
			continue;
		}
		memset(c, 0, sizeof(*c));
		c->self = c;
		c->index = i;
		c->apic_id = apic_ids[i];
		smp.started++;
	}
}

struct fw_job {
	unsigned cpu;
	void (*fn)(void *);
	void *arg;
	int result;
};

static void fw_body(void *p)
{
	struct fw_job *j = p;
	struct mailbox *m = &mbox[j->cpu];
	struct percpu *c = this_cpu();

	if (recover_set(&m->rp)) {	/* smp_ap_fatal() */
		c->trap_depth = 0;
		c->probe_rp = 0;
		c->guard_rp = 0;
		c->guard_armed = 0;
		j->result = SMP_EFAULT;
		return;
	}
	j->fn(j->arg);
	j->result = SMP_OK;
}

int smp_fw_ap_run(unsigned cpu, void (*fn)(void *), void *arg)
{
	struct fw_job j = { cpu, fn, arg, SMP_EFAULT };
	struct desc_ptr idtr;
	uint64_t gs = rdmsr(MSR_GS_BASE), flags = irq_save();
	uint32_t lvtt = apic_read(APIC_LVTT), tdcr = apic_read(APIC_TDCR);
	uint32_t tmict = apic_read(APIC_TMICT);

	desc_idt_save(&idtr);
	desc_idt_load_shared();
	wrmsr(MSR_GS_BASE, (uint64_t)(uintptr_t)&percpu_table[cpu]);
	call_on_stack_return((void *)(uintptr_t)(ap_stacks + (uint64_t)cpu * SMP_AP_STACK_SIZE),
			     fw_body, &j);
	irq_disable();
	apic_write(APIC_LVTT, lvtt | APIC_LVT_MASKED);
	apic_write(APIC_TDCR, tdcr);
	apic_write(APIC_TMICT, tmict);
	apic_write(APIC_LVTT, lvtt);
	wrmsr(MSR_GS_BASE, gs);
	desc_idt_restore(&idtr);
	irq_restore(flags);
	return j.result;
}

static bool usable(unsigned cpu)
{
	return cpu < smp.ncpus && smp.cpu[cpu].state == SMP_IDLE;
}

int run_start(unsigned cpu, void (*fn)(void *), void *arg)
{
	struct mailbox *m = &mbox[cpu];

	if (cpu == 0 || !usable(cpu) || smp.kept)
		return SMP_ENOCPU;
	smp.cpu[cpu].state = SMP_BUSY;
	smp.cpu[cpu].fault_vector = 0;
	m->done = 0;
	m->arg = arg;
	__atomic_store_n(&m->fn, fn, __ATOMIC_RELEASE);
	apic_send_ipi(smp.cpu[cpu].apic_id, APIC_ICR_DM_FIXED | APIC_ICR_LEVEL_ASSERT |
		      VECTOR_SMP_WAKE);
	return SMP_OK;
}

/* run_on()'s wait: in HLT, woken by the APIC timer, so long. Short enough that the caller
 * learns of the end soon; long enough that the waiting CPU stays idle nearly all the time. */
#define SMP_NAP_US	200

/*
 * Waits for the AP's call to end, or for the limit. With `nap`, between looks it halts for
 * SMP_NAP_US (watchdog_nap) rather than spinning: a spinning CPU takes a host CPU from the
 * AP under emulation (4 vCPUs on 2 host CPUs), and issue slots from it as its hyper-thread
 * sibling on a real part. Without the timer, or where it cannot end a halt, it spins.
 */
static int wait_done(unsigned cpu, uint64_t timeout_us, bool nap)
{
	struct mailbox *m = &mbox[cpu];
	uint64_t t0 = rdtsc(), limit = tsc_from_us(timeout_us);

	if (cpu == 0 || cpu >= smp.ncpus || smp.cpu[cpu].state != SMP_BUSY)
		return SMP_ENOCPU;
	while (!__atomic_load_n(&m->done, __ATOMIC_ACQUIRE)) {
		uint64_t waited = rdtsc() - t0, ticks, left_us;

		if (waited >= limit) {
			bool quiet = quiesce_by_nmi(cpu);

			stop_cpu(cpu, SMP_LOST);
			fmt_snprintf(smp.cpu[cpu].why, sizeof(smp.cpu[cpu].why),
				     "a call did not end within %llu ms: stopped with INIT, %s",
				     (unsigned long long)(timeout_us / 1000), quiet ?
				     "its PMU stopped first (NMI)" : "its PMU NOT stopped first (no "
				     "answer to an NMI): counters, PEBS, BTS may stay armed");
			if (!quiet)
				smp.pmu_unsafe++;
			return SMP_ETIMEOUT;
		}
		left_us = tsc_to_us(limit - waited) + 1;
		if (!nap || watchdog_nap(left_us < SMP_NAP_US ? left_us : SMP_NAP_US, &ticks) < 0) {
			nap = false;
			cpu_relax();
		}
	}
	smp.cpu[cpu].state = SMP_IDLE;
	return m->result;
}

int run_wait(unsigned cpu, uint64_t timeout_us)
{
	return wait_done(cpu, timeout_us, false);
}

int run_on(unsigned cpu, void (*fn)(void *), void *arg, uint64_t timeout_us)
{
	int r;

	if (cpu == 0) {
		fn(arg);
		return SMP_OK;
	}
	if (smp.kept) {
		if (!usable(cpu) || !fw_call)
			return SMP_ENOCPU;
		r = fw_call(cpu, fn, arg, timeout_us);
		if (r == SMP_ETIMEOUT) {
			/* The firmware has reset the CPU to its own idle loop, its PMU as it was:
			 * one more call through it stops the PMU. */
			int q = quiesce_fn ? fw_call(cpu, quiesce_call, NULL, QUIESCE_TIMEOUT_US) :
				SMP_ENOCPU;

			smp.cpu[cpu].state = SMP_LOST;
			fmt_snprintf(smp.cpu[cpu].why, sizeof(smp.cpu[cpu].why),
				     "a call did not end within %llu ms: the firmware's MP services "
				     "stopped it, %s", (unsigned long long)(timeout_us / 1000),
				     q == SMP_OK ? "then a call through them stopped its PMU" :
				     "its PMU NOT stopped (a call through them did not run): counters, "
				     "PEBS, BTS may stay armed");
			if (q != SMP_OK)
				smp.pmu_unsafe++;
		}
		return r;
	}
	r = run_start(cpu, fn, arg);
	return r ? r : wait_done(cpu, timeout_us, true);
}

void smp_park_all(void)
{
	if (smp.kept)
		return;
	for (unsigned i = 1; i < smp.ncpus; i++)
		if (smp.cpu[i].state == SMP_IDLE) {
			stop_cpu(i, SMP_PARKED);
			str_lcpy(smp.cpu[i].why, "parked at the end of the run", sizeof(smp.cpu[i].why));
		}
}

const char *smp_state_name(enum smp_state s)
{
	switch (s) {
	case SMP_ABSENT: return "not chosen";
	case SMP_NOT_STARTED: return "not started";
	case SMP_FAILED: return "failed to start";
	case SMP_IDLE: return "running";
	case SMP_BUSY: return "busy";
	case SMP_LOST: return "lost";
	case SMP_PARKED: return "parked";
	}
	return "?";
}

const char *smp_error_name(int e)
{
	switch (e) {
	case SMP_OK: return "done";
	case SMP_ENOCPU: return "the CPU is not running pmuboot";
	case SMP_ETIMEOUT: return "the call did not end in time (the CPU was stopped)";
	case SMP_EFAULT: return "an unexpected exception on the CPU ended the call";
	}
	return "unknown error";
}
