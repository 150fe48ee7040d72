/* SPDX-License-Identifier: MIT */
/* Event select -> perf_event_attr (tests/linux/perf_config.h). */
#include "tests/linux/perf_config.h"
#include "lib/fmt.h"

#define SEL_EVENT	0x00000000000000ffULL
#define SEL_UMASK	0x000000000000ff00ULL
#define SEL_USR		(1ULL << 16)
#define SEL_OS		(1ULL << 17)
#define SEL_EDGE	(1ULL << 18)
#define SEL_PC		(1ULL << 19)
#define SEL_INT		(1ULL << 20)
#define SEL_ANY		(1ULL << 21)
#define SEL_EN		(1ULL << 22)
#define SEL_INV		(1ULL << 23)
#define SEL_CMASK	0x00000000ff000000ULL
#define SEL_ADAPTIVE	(1ULL << 34)		/* Intel: adaptive PEBS record */
#define AMD_EVENT_HI	0x0000000f00000000ULL	/* AMD: event select bits 11:8 */
#define AMD_HG_ONLY	(3ULL << 40)		/* AMD: GuestOnly, HostOnly */

int perf_raw_from_evtsel(uint64_t evtsel, bool amd, struct perf_raw *out, char *err, size_t len)
{
	uint64_t keep = SEL_EVENT | SEL_UMASK | SEL_EDGE | SEL_INV | SEL_CMASK |
			(amd ? AMD_EVENT_HI : SEL_ANY);
	uint64_t refused = evtsel & ~(keep | SEL_USR | SEL_OS | SEL_EN);
	const char *what = NULL;

	if (refused & SEL_INT)
		what = "INT (bit 20): the kernel owns the PMI";
	else if (refused & SEL_PC)
		what = "PC (bit 19): pin control is not a perf attribute";
	else if (!amd && (refused & SEL_ADAPTIVE))
		what = "adaptive PEBS (bit 34): not a counting attribute";
	else if (amd && (refused & AMD_HG_ONLY))
		what = "GuestOnly/HostOnly (bits 41:40): perf sets them from exclude_host/guest";
	else if (amd && (refused & SEL_ANY))
		what = "bit 21: AnyThread is Intel's; reserved on AMD";
	else if (refused)
		what = "reserved bits";
	if (what) {
		fmt_snprintf(err, len, "event select %#llx: %s (bits %#llx)", (unsigned long long)evtsel,
			     what, (unsigned long long)refused);
		return -1;
	}
	if (!(evtsel & (SEL_USR | SEL_OS))) {
		fmt_snprintf(err, len, "event select %#llx: neither USR (bit 16) nor OS (bit 17): "
			     "it counts at no privilege level", (unsigned long long)evtsel);
		return -1;
	}
	out->config = evtsel & keep;
	out->exclude_user = !(evtsel & SEL_USR);
	out->exclude_kernel = !(evtsel & SEL_OS);
	return 0;
}
