/* SPDX-License-Identifier: MIT */
/* The UEFI services pmuboot uses before (and, for ResetSystem, after) ExitBootServices. */
#ifndef BOOT_UEFI_H
#define BOOT_UEFI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CFG_FILE_NAME		"pmuboot.cfg"
#define RESULTS_FILE_NAME	"pmuboot.log"
#define CFG_MAX_SIZE		(64u << 10)

/* UEFI status values pmuboot returns (UEFI 2.x Appendix D). */
#define UEFI_STATUS_SUCCESS		0ULL
#define UEFI_STATUS_INVALID_PARAMETER	(0x8000000000000000ULL | 2)
#define UEFI_STATUS_ABORTED		(0x8000000000000000ULL | 21)

void uefi_init(void *image, void *system_table);
void uefi_disable_watchdog(void);
/* Where the firmware loaded pmuboot.efi (EFI_LOADED_IMAGE): false if it did not say. */
bool uefi_image_range(uint64_t *base, uint64_t *size);

/*
 * The command-line arguments the app was started with, as ASCII in buf (NUL-terminated):
 * from the shell (EFI_SHELL_PARAMETERS_PROTOCOL, program name dropped) or from a boot
 * option's text load options. Binary load options (firmware-created boot entries carry a
 * GUID) are ignored. Returns the length; note says what was found.
 */
size_t uefi_load_options(char *buf, size_t size, char *note, size_t notelen);
/* Whether the app was started from the UEFI shell with arguments. */
bool uefi_started_from_shell(void);

/*
 * Reads pmuboot.cfg from the directory holding the app on its boot volume. Returns 1 when
 * read (length in *len, NUL-terminated), 0 when there is none, -1 on an error (note says).
 */
int uefi_read_cfg(char *buf, size_t size, size_t *len, char *note, size_t notelen);
/* Writes a file beside the app (replacing it). 0 or -1. */
int uefi_write_file(const char *name, const char *data, size_t len);

/* Page allocation as loader data; 0 on failure. */
uint64_t uefi_alloc_pages(uint64_t bytes);
/* Pages ending at or below max_addr (AllocateMaxAddress: the last byte's address), or 0. */
uint64_t uefi_alloc_pages_below(uint64_t bytes, uint64_t max_addr);
/* Memory the firmware will hand over at ExitBootServices (conventional + boot services +
 * loader), the largest conventional block, and the end of the highest memory-map entry. */
void uefi_memory(uint64_t *usable, uint64_t *largest_free, uint64_t *top);
/* The ACPI 2.0+ RSDP from the configuration table (1.0 as a fallback); 0 if none. */
uint64_t uefi_find_rsdp(void);

/* Calls ExitBootServices with a fresh memory map, retrying on a stale map key (UEFI 2.x
 * 7.4: only GetMemoryMap may be called between attempts). Returns 0 or -1. */
int uefi_exit_boot_services(unsigned *attempts);

/* Whether the firmware's console output (the ConOut variable) includes a serial UART. */
bool uefi_console_has_serial(void);
/* Text to the UEFI console (ASCII, '\n' becomes CR LF). */
void uefi_console_write(const char *s);

/* TPL around a boot-services-kept run. */
void uefi_raise_tpl_notify(void);
void uefi_restore_tpl(void);

enum uefi_reset { UEFI_RESET_COLD, UEFI_RESET_SHUTDOWN };
void uefi_reset(enum uefi_reset type, uint64_t status);

/*
 * Boot services kept: the other CPUs through EFI_MP_SERVICES_PROTOCOL (smp_use_firmware(),
 * run_on() then calls StartupThisAP in blocking mode). 0, or -1 with why filled in.
 */
int uefi_mp_services(uint64_t chosen, char *why, size_t whylen);

#endif /* BOOT_UEFI_H */
