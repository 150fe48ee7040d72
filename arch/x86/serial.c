/* SPDX-License-Identifier: MIT */
/* 16550 UART driver: detection through the scratch register, polled, bounded waits. */
#include "arch/x86/serial.h"
#include "arch/x86/io.h"

static uint16_t uart_port;
static bool uart_ok;

/* A byte at 115200 baud takes ~87 us; give each wait far more than that, but never hang
 * on a UART that stopped answering (LSR reading 0xff means nothing is decoding the port). */
#define UART_SPIN_LIMIT	2000000

bool serial_init(uint16_t port, uint32_t baud)
{
	uint16_t div;

	uart_ok = false;
	uart_port = port;
	if (!baud || UART_CLOCK_DIVISOR_BASE % baud)
		return false;
	outb(port + UART_SCR, 0x5a);
	if (inb(port + UART_SCR) != 0x5a)
		return false;
	outb(port + UART_SCR, 0xa5);
	if (inb(port + UART_SCR) != 0xa5)
		return false;
	div = (uint16_t)(UART_CLOCK_DIVISOR_BASE / baud);
	outb(port + UART_IER, 0x00);
	outb(port + UART_LCR, UART_LCR_DLAB);
	outb(port + UART_DLL, div & 0xff);
	outb(port + UART_DLM, div >> 8);
	outb(port + UART_LCR, UART_LCR_8N1);
	outb(port + UART_FCR, UART_FCR_ENABLE_CLEAR);
	outb(port + UART_MCR, UART_MCR_DTR_RTS_OUT2);
	uart_ok = true;
	return true;
}

bool serial_present(void)
{
	return uart_ok;
}

static void putc_raw(char c)
{
	for (unsigned i = 0; i < UART_SPIN_LIMIT; i++) {
		uint8_t lsr = inb(uart_port + UART_LSR);

		if (lsr == 0xff) {
			uart_ok = false;	/* the device went away */
			return;
		}
		if (lsr & UART_LSR_THRE)
			break;
		cpu_relax();
	}
	outb(uart_port + UART_THR, (uint8_t)c);
}

void serial_write(const char *s, unsigned long n)
{
	for (unsigned long i = 0; i < n && uart_ok; i++) {
		if (s[i] == '\n')
			putc_raw('\r');
		putc_raw(s[i]);
	}
}

void serial_flush(void)
{
	for (unsigned i = 0; uart_ok && i < UART_SPIN_LIMIT; i++) {
		if (inb(uart_port + UART_LSR) & UART_LSR_TEMT)
			return;
		cpu_relax();
	}
}
