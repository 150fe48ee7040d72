/* SPDX-License-Identifier: MIT */
/* Every check's entry point; the order of the suite is tests/harness/suite.c. */
#ifndef TESTS_HARNESS_CHECKS_H
#define TESTS_HARNESS_CHECKS_H

#include "tests/harness/runner.h"

/* tests/checks/cpu.c */
enum check_status check_cpuid_sanity(struct check_ctx *c);
/* tests/checks/fault.c */
enum check_status check_fault_ud(struct check_ctx *c);
enum check_status check_fault_gp_noncanonical(struct check_ctx *c);
enum check_status check_fault_gp_msr_reserved(struct check_ctx *c);
enum check_status check_fault_rdpmc_invalid(struct check_ctx *c);
/* tests/checks/apic.c */
enum check_status check_apic_self_ipi(struct check_ctx *c);
/* tests/checks/watchdog.c */
enum check_status check_watchdog_stuck_loop(struct check_ctx *c);
/* tests/checks/icount.c */
enum check_status check_icount_loop_delta(struct check_ctx *c);
enum check_status check_icount_repeatable(struct check_ctx *c);
enum check_status check_icount_frame_overhead(struct check_ctx *c);
/* Why icount checks cannot run, or NULL. */
const char *icount_unavailable(void);
/* tests/checks/model.c: one instance per kernel */
enum check_status check_model(struct check_ctx *c);
unsigned model_instances(void);
void model_instance_name(unsigned i, char *buf, size_t len);
/* tests/checks/pmu.c */
enum check_status check_pmu_arch_version(struct check_ctx *c);
enum check_status check_pmu_rdpmc_gp0(struct check_ctx *c);
enum check_status check_pmu_frame(struct check_ctx *c);
enum check_status check_pmu_arch_event(struct check_ctx *c);
unsigned pmu_arch_instances(void);
void pmu_arch_instance_name(unsigned i, char *buf, size_t len);
enum check_status check_pmu_fixed(struct check_ctx *c);
unsigned pmu_fixed_instances(void);
void pmu_fixed_instance_name(unsigned i, char *buf, size_t len);
enum check_status check_pmu_reserved_bits(struct check_ctx *c);
enum check_status check_pmu_width(struct check_ctx *c);
enum check_status check_pmu_overflow(struct check_ctx *c);
enum check_status check_pmu_pmi(struct check_ctx *c);
enum check_status check_pmu_cmask_inv_edge(struct check_ctx *c);
enum check_status check_pmu_freeze_on_pmi(struct check_ctx *c);
enum check_status check_pmu_pmi_nmi(struct check_ctx *c);
enum check_status check_pmu_pmi_storm(struct check_ctx *c);
enum check_status check_pmu_usr_os(struct check_ctx *c);
enum check_status check_pmu_rdpmc_forms(struct check_ctx *c);
enum check_status check_pmu_global_gates(struct check_ctx *c);
enum check_status check_pmu_status_set_inuse(struct check_ctx *c);
enum check_status check_pmu_enumeration(struct check_ctx *c);
enum check_status check_pmu_reset_state(struct check_ctx *c);
enum check_status check_pmu_pmi_exact(struct check_ctx *c);
enum check_status check_pmu_running_write(struct check_ctx *c);
enum check_status check_pmu_pmi_short_period(struct check_ctx *c);
unsigned pmu_counter_instances(void);
void pmu_counter_instance_name(unsigned i, char *buf, size_t len);
/* tests/checks/pmu_uarch.c */
enum check_status check_pmu_branch_misses(struct check_ctx *c);
unsigned branch_miss_instances(void);
void branch_miss_instance_name(unsigned i, char *buf, size_t len);
enum check_status check_pmu_nehalem_stall_active(struct check_ctx *c);
enum check_status check_pmu_nehalem_load_sources(struct check_ctx *c);
enum check_status check_pmu_cache_levels(struct check_ctx *c);
/* tests/checks/events.c: one instance per event of a seed (tests/expect/seed_table.c) */
enum check_status check_events_nhm(struct check_ctx *c);
unsigned events_nhm_instances(void);
void events_nhm_instance_name(unsigned i, char *buf, size_t len);
enum check_status check_events_skl(struct check_ctx *c);
unsigned events_skl_instances(void);
void events_skl_instance_name(unsigned i, char *buf, size_t len);
/* tests/checks/lbr.c */
enum check_status check_lbr_stack(struct check_ctx *c);
unsigned lbr_stack_instances(void);
void lbr_stack_instance_name(unsigned i, char *buf, size_t len);
enum check_status check_lbr_tos_wrap(struct check_ctx *c);
enum check_status check_lbr_filter(struct check_ctx *c);
unsigned lbr_filter_instances(void);
void lbr_filter_instance_name(unsigned i, char *buf, size_t len);
enum check_status check_lbr_mispredict(struct check_ctx *c);
enum check_status check_lbr_freeze_on_pmi(struct check_ctx *c);
enum check_status check_lbr_basic_blocks(struct check_ctx *c);
/* tests/checks/pebs.c */
enum check_status check_pebs_precise(struct check_ctx *c);
unsigned pebs_counter_instances(void);
void pebs_counter_instance_name(unsigned i, char *buf, size_t len);
enum check_status check_pebs_threshold(struct check_ctx *c);
enum check_status check_pebs_buffer_full(struct check_ctx *c);
enum check_status check_pebs_load_latency(struct check_ctx *c);
unsigned pebs_ll_instances(void);
void pebs_ll_instance_name(unsigned i, char *buf, size_t len);
enum check_status check_pebs_adaptive(struct check_ctx *c);
enum check_status check_pebs_fixed(struct check_ctx *c);
enum check_status check_pebs_frontend(struct check_ctx *c);
unsigned pebs_fe_instances(void);
void pebs_fe_instance_name(unsigned i, char *buf, size_t len);
/* tests/checks/bts.c (option bts) */
enum check_status check_bts_records(struct check_ctx *c);
enum check_status check_bts_threshold(struct check_ctx *c);
enum check_status check_bts_full(struct check_ctx *c);
enum check_status check_bts_circular(struct check_ctx *c);
/* tests/checks/uncore.c */
enum check_status check_uncore_skl_clock(struct check_ctx *c);
enum check_status check_uncore_skl_cbo_lookup(struct check_ctx *c);
enum check_status check_uncore_skl_arb_requests(struct check_ctx *c);
enum check_status check_uncore_skl_imc_reads(struct check_ctx *c);
enum check_status check_uncore_skl_imc_writes(struct check_ctx *c);
enum check_status check_uncore_skl_counter_width(struct check_ctx *c);
enum check_status check_uncore_skl_status_w1c(struct check_ctx *c);
enum check_status check_uncore_skl_restrictions(struct check_ctx *c);
enum check_status check_uncore_skl_pmi(struct check_ctx *c);
enum check_status check_uncore_skl_frz_on_pmi(struct check_ctx *c);
enum check_status check_uncore_skl_xsnp_hitm(struct check_ctx *c);
enum check_status check_uncore_skl_pmi_other_core(struct check_ctx *c);
enum check_status check_uncore_nhm_fixed(struct check_ctx *c);
enum check_status check_uncore_nhm_gq_alloc(struct check_ctx *c);
enum check_status check_uncore_nhm_qmc_reads(struct check_ctx *c);
enum check_status check_uncore_nhm_qmc_writes(struct check_ctx *c);
enum check_status check_uncore_nhm_occupancy_empty(struct check_ctx *c);
/* tests/measure/events_uncore.c: an events.<model>.<EVENT> check whose row of
 * tests/expect/seed_table.c runs the uncore kernels (tests/checks/events.c calls it); pos, the row's
 * place among its model's rows, rotates the counters it takes */
struct events_row;
enum check_status check_events_uncore_row(struct check_ctx *c, const struct events_row *row,
					  unsigned pos);
/* tests/checks/user.c */
enum check_status check_user_ring3(struct check_ctx *c);
enum check_status check_user_icount(struct check_ctx *c);
/* tests/checks/xcore.c: cross-core kernels on the BSP and a second CPU */
enum check_status check_xcore_pingpong(struct check_ctx *c);
enum check_status check_xcore_producer_consumer(struct check_ctx *c);
enum check_status check_xcore_false_sharing(struct check_ctx *c);

/* tests/checks/measure.c: the user's event lists (measure=), one instance per event */
enum check_status check_measure(struct check_ctx *c);
unsigned measure_instances(void);
void measure_instance_name(unsigned i, char *buf, size_t len);

/* tests/checks/selftest.c: fail, hang or fault by design; manual */
enum check_status check_selftest_fail(struct check_ctx *c);
enum check_status check_selftest_hang(struct check_ctx *c);
enum check_status check_selftest_fault(struct check_ctx *c);
enum check_status check_selftest_hang_irqs_off(struct check_ctx *c);
/* tests/checks/bench.c: TSC-only benchmarks with "# data:" lines */
enum check_status check_bench_chase_latency(struct check_ctx *c);
enum check_status check_bench_store_bandwidth(struct check_ctx *c);
/* tests/checks/system.c */
enum check_status check_system_unexpected_interrupts(struct check_ctx *c);
/* After every check, however it ended (the watchdog too): stops the PMU, puts DEBUGCTL to
 * the baseline, masks the LVT entry, drains a PMI left waiting (noted under the check's
 * result and failing system.unexpected_interrupts), removes the checks' PMI handlers. */
void check_cleanup(struct check_ctx *c);

#endif /* TESTS_HARNESS_CHECKS_H */
