/* SPDX-License-Identifier: MIT */
/* Boot flow internals shared by boot/main.c and boot/exit.c. */
#ifndef BOOT_MAIN_H
#define BOOT_MAIN_H

#include <stdbool.h>
#include <stdint.h>
#include "boot/platform.h"

/* boot-services=keep: unwinds to efi_main, which restores the firmware's state. */
void main_return_to_efi(enum run_status st) __attribute__((noreturn));
/* isa-debug-exit / ResetSystem / halt per on-exit; returns only for on-exit=return while
 * boot services are alive. */
void platform_final_action(enum run_status st, bool boot_services);
uint64_t run_status_to_efi(enum run_status st);

#endif /* BOOT_MAIN_H */
