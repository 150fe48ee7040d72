/* SPDX-License-Identifier: MIT */
/* 16550-compatible UART on an I/O port: polled transmit only. */
#ifndef ARCH_X86_SERIAL_H
#define ARCH_X86_SERIAL_H

#include <stdbool.h>
#include <stdint.h>

#define UART_CLOCK_DIVISOR_BASE	115200	/* 1.8432 MHz / 16 */

/* Register offsets from the base port. */
#define UART_THR	0	/* transmit holding (DLAB=0) */
#define UART_DLL	0	/* divisor latch low (DLAB=1) */
#define UART_IER	1
#define UART_DLM	1	/* divisor latch high (DLAB=1) */
#define UART_FCR	2
#define  UART_FCR_ENABLE_CLEAR	0x07	/* enable FIFOs, clear RX and TX */
#define UART_LCR	3
#define  UART_LCR_8N1		0x03
#define  UART_LCR_DLAB		0x80
#define UART_MCR	4
#define  UART_MCR_DTR_RTS_OUT2	0x0b
#define UART_LSR	5
#define  UART_LSR_THRE		0x20	/* transmit holding register empty */
#define  UART_LSR_TEMT		0x40	/* transmitter empty */
#define UART_SCR	7

/*
 * Programs the UART at `port` for baud,8N1 with FIFOs. Returns false (and leaves output
 * disabled) when no UART answers there: the scratch register does not hold a value.
 */
bool serial_init(uint16_t port, uint32_t baud);
bool serial_present(void);
void serial_write(const char *s, unsigned long n);
/* Waits (bounded) until every byte has left the transmitter. */
void serial_flush(void);

#endif /* ARCH_X86_SERIAL_H */
