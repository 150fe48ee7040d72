# SPDX-License-Identifier: MIT
# pmuboot: UEFI application (GNU-EFI), bootable disk image, host unit tests, QEMU boot tests.

VERSION := 0.1.0
GIT     := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

BUILD   := build
CC      := gcc
LD      := ld
OBJCOPY := objcopy

EFI_INC := /usr/include/efi
EFI_LIB := /usr/lib
EFI_CRT := $(EFI_LIB)/crt0-efi-x86_64.o
LDSCRIPT := linker/pmuboot.lds

# Freestanding, position-independent (GNU-EFI relocates at load), no red zone (interrupts
# run on the same stack), general registers only (trap handlers must not touch SSE state
# the kernels use), frame pointers for the fault report's backtrace.
CFLAGS := -std=gnu11 -O2 -g -ffreestanding -fno-builtin -fno-stack-protector -fpic \
	-fshort-wchar -mno-red-zone -mgeneral-regs-only -fno-omit-frame-pointer \
	-fno-strict-aliasing -fno-asynchronous-unwind-tables -DGNU_EFI_USE_MS_ABI \
	-Wall -Wextra -Werror -I. -I$(EFI_INC) -I$(EFI_INC)/x86_64 \
	-DPMUBOOT_VERSION='"$(VERSION)"' -DPMUBOOT_GIT='"$(GIT)"' -MMD -MP
ASFLAGS := -g -I. -MMD -MP
# -z defs: an undefined symbol must fail the link, not become a call to address 0.
LDFLAGS := -nostdlib -znocombreloc -z defs -T $(LDSCRIPT) -shared -Bsymbolic -L$(EFI_LIB)

SRCS_C := $(wildcard boot/*.c arch/x86/*.c lib/*.c pmu/*.c tests/harness/*.c tests/checks/*.c \
	tests/measure/*.c tests/expect/*.c tests/kernels/*.c)
SRCS_S := $(wildcard arch/x86/*.S pmu/*.S tests/kernels/*.S)
OBJS   := $(SRCS_C:%.c=$(BUILD)/obj/%.o) $(SRCS_S:%.S=$(BUILD)/obj/%.o)

# The event catalogs generated at build time from Debian's libpfm4 (libpfm4-dev) by
# tests/host/gen_catalog.c, one per model of pmu/catalog_models.h: build/gen/pmu/, never
# committed. The stamp runs the generator once for all of them.
GEN_CATALOG    := $(BUILD)/gen_catalog
CATALOG_GEN    := $(BUILD)/gen/pmu
CATALOG_MODELS := $(shell sed -n 's/^.X.\([a-z0-9_]*\),.*/\1/p' pmu/catalog_models.h)
CATALOG_SRCS   := $(CATALOG_MODELS:%=$(CATALOG_GEN)/catalog_%.c)
OBJS           += $(CATALOG_SRCS:%.c=$(BUILD)/obj/%.o)

EFI    := $(BUILD)/pmuboot.efi
IMG    := $(BUILD)/pmuboot.img
REPORT_TOOL := $(BUILD)/pmuboot-report

# Disk image: GPT with one FAT32 EFI system partition at 1 MiB (sector 2048).
IMG_SIZE_MIB := 72
ESP_START    := 2048
ESP_SECTORS  := 131072
ESP_OFFSET   := $(shell echo $$(( $(ESP_START) * 512 )))

.PHONY: all image oracle linux linux-test bench-host vpmu vpmu-series-check kut vpmu-test check host-test qemu-test clean report-tool
all: $(EFI) $(IMG) $(REPORT_TOOL)
image: $(IMG)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/%.o: %.S
	@mkdir -p $(dir $@)
	$(CC) $(ASFLAGS) -c $< -o $@

$(GEN_CATALOG): tests/host/gen_catalog.c tests/host/catalog_rules.c tests/host/catalog_rules.h \
		pmu/catalog.h pmu/catalog_models.h arch/x86/msr.h
	@mkdir -p $(@D)
	$(HOST_CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -I. -o $@ tests/host/gen_catalog.c \
		tests/host/catalog_rules.c -lpfm

# (libpfm4's own file too: an upgraded library regenerates the tables)
$(CATALOG_GEN)/.stamp: $(GEN_CATALOG) $(wildcard /usr/lib/*/libpfm.so.4 /usr/lib/libpfm.so.4)
	@mkdir -p $(@D)
	$(GEN_CATALOG) $(CATALOG_GEN)
	@touch $@

$(CATALOG_SRCS): $(CATALOG_GEN)/.stamp ;

$(BUILD)/pmuboot.so: $(OBJS) $(LDSCRIPT)
	$(LD) $(LDFLAGS) $(EFI_CRT) $(OBJS) -o $@ -lefi -lgnuefi

# Subsystem 10 = EFI application.
$(EFI): $(BUILD)/pmuboot.so
	$(OBJCOPY) -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel -j .rela \
		-j .reloc --target=efi-app-x86_64 --subsystem=10 $< $@

$(IMG): $(EFI) boot/pmuboot.cfg Makefile
	rm -f $@.tmp
	truncate -s $(IMG_SIZE_MIB)M $@.tmp
	sgdisk -o -n 1:$(ESP_START):+$(ESP_SECTORS) -t 1:ef00 -c 1:"PMUBOOT ESP" $@.tmp >/dev/null
	mformat -i $@.tmp@@$(ESP_OFFSET) -F -T $(ESP_SECTORS) -h 64 -s 32 -H $(ESP_START) -v PMUBOOT ::
	mmd -i $@.tmp@@$(ESP_OFFSET) ::/EFI ::/EFI/BOOT
	mcopy -i $@.tmp@@$(ESP_OFFSET) $(EFI) ::/EFI/BOOT/BOOTX64.EFI
	mcopy -i $@.tmp@@$(ESP_OFFSET) boot/pmuboot.cfg ::/EFI/BOOT/pmuboot.cfg
	mv $@.tmp $@

# The reference oracle: a QEMU TCG plugin built against qemu-plugin.h from Debian's QEMU
# source package of the installed version (fetched into build/, never committed), and the
# host tool that compares its counts with the firmware's predictions.
QEMU_SRC    := $(BUILD)/qemu-src
PLUGIN_HDR  := $(QEMU_SRC)/qemu-plugin.h
ORACLE_SO   := $(BUILD)/oracle.so
ORACLE_CMP  := $(BUILD)/oracle_compare
ORACLE_SRCS := tests/qemu/oracle.c tests/qemu/oracle_decode.c
HOST_TOOL_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -I.
REPORT_SRCS := tests/report/report.c tests/report/parse.c tests/report/output.c \
	tests/report/json.c tests/report/compare.c

$(PLUGIN_HDR): tests/qemu/fetch-plugin-header.sh
	tests/qemu/fetch-plugin-header.sh $(QEMU_SRC)

$(ORACLE_SO): $(ORACLE_SRCS) tests/qemu/oracle_decode.h lib/oracle_tag.h $(PLUGIN_HDR)
	$(HOST_CC) $(HOST_TOOL_CFLAGS) -shared -fPIC -I$(QEMU_SRC) -o $@ $(ORACLE_SRCS) -lpthread

$(ORACLE_CMP): tests/qemu/oracle_compare.c
	$(HOST_CC) $(HOST_TOOL_CFLAGS) -o $@ $<

oracle: $(ORACLE_SO) $(ORACLE_CMP)

# pmuboot-linux: the same kernels (tests/kernels/*.S) and expectations, counted from Linux
# user space through perf_event_open. Static, so the one binary runs on any x86-64 Linux.
LINUX_TOOL := $(BUILD)/pmuboot-linux
LINUX_SRCS := tests/linux/pmuboot_linux.c tests/linux/perf_config.c tests/kernels/kernels.c $(wildcard tests/kernels/*.S) \
	pmu/event.c tests/expect/arch.c lib/fmt.c lib/string.c
linux: $(LINUX_TOOL)
$(LINUX_TOOL): $(LINUX_SRCS) $(wildcard tests/kernels/*.h tests/expect/*.h tests/linux/*.h pmu/*.h lib/*.h)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_TOOL_CFLAGS) -static -DPMUBOOT_VERSION='"$(VERSION)"' \
		-DPMUBOOT_GIT='"$(GIT)"' -o $@ $(LINUX_SRCS)
# The Linux guest of ./run.sh linux: its /init (static) and the initramfs writer.
$(BUILD)/guest-init: tests/linux/guest_init.c
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_TOOL_CFLAGS) -static -o $@ $<
$(BUILD)/mkcpio: tests/linux/mkcpio.c
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_TOOL_CFLAGS) -o $@ $<
# The kernels against multichase and likwid-bench on this CPU: a table, not a test.
bench-host: $(LINUX_TOOL)
	tests/linux/bench-host.sh $(LINUX_TOOL)
# It on this machine: every check passes where Linux counts, SKIPs naming why where not.
linux-test: $(LINUX_TOOL)
	tests/linux/linux-test.sh $(LINUX_TOOL)

# The host report tool (./run.sh report, ./run.sh compare): serial log -> results.json,
# JUnit XML, gnuplot pictures; two results.json -> what changed.
report-tool: $(REPORT_TOOL)
$(REPORT_TOOL): $(REPORT_SRCS) $(wildcard tests/report/*.h)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_TOOL_CFLAGS) -o $@ $(REPORT_SRCS) -lm

# The emulated Intel PMU: Debian's QEMU source of the installed version with the patch
# series in tests/qemu/vpmu/patches, built in the cache outside the clone (the script
# rebuilds only what the series changes) and copied to build/vpmu/.
vpmu:
	tests/qemu/vpmu/build.sh $(BUILD)/vpmu

# The emulated PMU's patch series as a QEMU maintainer would check it: applied patch by
# patch to Debian's source, each built (warm ccache) and run through QEMU's checkpatch.pl.
# Not part of make check: it builds QEMU once per patch.
vpmu-series-check:
	tests/qemu/vpmu/series-check.sh

# kvm-unit-tests' PMU test on every emulated model: the outside judge of the emulation.
kut: vpmu
	tests/qemu/kut.sh

# pmuboot on the emulated PMU: every model, the three-way oracle agreement, the errata.
vpmu-test: $(IMG) $(ORACLE_SO) $(ORACLE_CMP) vpmu
	/usr/bin/python3 tests/qemu/boot_tests.py --vpmu

check: host-test linux-test fuzz qemu-test vpmu-test kut

include tests/host/host.mk
include tests/host/fuzz.mk

qemu-test: $(IMG) $(ORACLE_SO) $(ORACLE_CMP)
	/usr/bin/python3 tests/qemu/boot_tests.py

clean:
	rm -rf $(BUILD)

-include $(OBJS:.o=.d)
