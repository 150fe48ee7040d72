/* SPDX-License-Identifier: MIT */
/*
 * The bridge from an event select (IA32_PERFEVTSELx, or AMD's PERF_CTL) to a Linux
 * perf_event_attr for the core PMU (type PERF_TYPE_RAW or the PMU's own type): pure code,
 * host-tested. Linux keeps the event select's event, unit mask, edge, invert and counter
 * mask from attr.config (arch/x86/include/asm/perf_event.h X86_RAW_EVENT_MASK; AMD adds
 * event bits 35:32, AMD64_RAW_EVENT_MASK), AnyThread (bit 21) where the PMU allows it
 * (arch/x86/events/intel/core.c, intel_pmu_hw_config), and sets USR, OS, INT and EN itself
 * from exclude_user/exclude_kernel and its own overflow handling. So USR and OS become the
 * exclude flags, EN is dropped, and what perf cannot express is refused by name: INT (the
 * kernel owns the PMI), pin control, adaptive PEBS, AMD's host/guest-only bits, reserved bits.
 */
#ifndef TESTS_LINUX_PERF_CONFIG_H
#define TESTS_LINUX_PERF_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct perf_raw {
	uint64_t config;
	bool exclude_user, exclude_kernel;
};

/* 0 and *out; or -1 with err naming the value and the bit perf cannot express. */
int perf_raw_from_evtsel(uint64_t evtsel, bool amd, struct perf_raw *out, char *err, size_t len);

#endif /* TESTS_LINUX_PERF_CONFIG_H */
