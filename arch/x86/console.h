/* SPDX-License-Identifier: MIT */
/* Output sinks for the run: 16550 serial always, plus the UEFI console and an in-memory
 * copy for the results file while boot services are kept. */
#ifndef ARCH_X86_CONSOLE_H
#define ARCH_X86_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>

/* Where the text also goes: a function taking one NUL-terminated chunk. */
typedef void (*con_sink_fn)(const char *s);

/*
 * Also sends output to fn (the UEFI console). When that console already reaches a serial
 * port (serial_mirrored: firmware console redirection), pmuboot stops writing the UART
 * itself, so no line appears twice on a serial log.
 */
void con_set_uefi_sink(con_sink_fn fn, bool serial_mirrored);
/* Whether the UART is written directly (false while a mirrored UEFI console carries it). */
bool con_serial_direct(void);
/* Keeps a copy of everything written (up to size bytes; the rest is counted as dropped). */
void con_capture(char *buf, size_t size);
size_t con_captured(void);
size_t con_dropped(void);

void con_write(const char *s);
void con_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A whole line; a '\n' is added. */
void con_line(const char *s);

#endif /* ARCH_X86_CONSOLE_H */
