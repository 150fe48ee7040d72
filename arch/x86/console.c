/* SPDX-License-Identifier: MIT */
/* Console multiplexer: serial, optional UEFI console, optional capture for the results file. */
#include "arch/x86/console.h"
#include "arch/x86/serial.h"
#include "lib/fmt.h"
#include "lib/string.h"

static con_sink_fn uefi_sink;
static bool mirrored;
static char *cap_buf;
static size_t cap_size, cap_len, cap_dropped;

void con_set_uefi_sink(con_sink_fn fn, bool serial_mirrored)
{
	uefi_sink = fn;
	mirrored = fn && serial_mirrored;
}

bool con_serial_direct(void)
{
	return !mirrored;
}

void con_capture(char *buf, size_t size)
{
	cap_buf = buf;
	cap_size = size;
	cap_len = cap_dropped = 0;
}

size_t con_captured(void)
{
	return cap_len;
}

size_t con_dropped(void)
{
	return cap_dropped;
}

/* Several CPUs may print (each whole line in one con_write): a spin lock, bounded so that a
 * CPU that faulted while holding it cannot stop the others' reports for good. */
static volatile int con_lock;
#define CON_LOCK_SPINS	50000000u

void con_write(const char *s)
{
	size_t n = str_len(s);
	bool locked = false;

	for (unsigned i = 0; i < CON_LOCK_SPINS; i++) {
		if (!__atomic_exchange_n(&con_lock, 1, __ATOMIC_ACQUIRE)) {
			locked = true;
			break;
		}
		__builtin_ia32_pause();
	}

	if (!mirrored)
		serial_write(s, n);
	if (uefi_sink)
		uefi_sink(s);
	if (cap_buf) {
		size_t room = cap_size - cap_len;
		size_t take = n < room ? n : room;

		memcpy(cap_buf + cap_len, s, take);
		cap_len += take;
		cap_dropped += n - take;
	}
	if (locked)
		__atomic_store_n(&con_lock, 0, __ATOMIC_RELEASE);
}

void con_printf(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	con_write(buf);
}

void con_line(const char *s)
{
	con_write(s);
	con_write("\n");
}
