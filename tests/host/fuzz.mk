# SPDX-License-Identifier: MIT
# libFuzzer harnesses of the option, config and event parsers (Debian's clang with
# libclang-rt-14-dev), included by the top-level Makefile.
#   make fuzz       a short run of every harness (FUZZ_TIME seconds each, fixed seed, FUZZ_JOBS
#                   at a time); a crash, a sanitizer report or a failed assertion fails the build
#   make fuzz-long  FUZZ_LONG_TIME seconds each (default 1 hour), e.g.
#                   make fuzz-long FUZZ_LONG_TIME=28800 FUZZ_PAR="-jobs=2 -workers=2"
#                   (parallel jobs write their output to fuzz-N.log in the current directory)
# Seeds: tests/host/corpus/<harness>/ (kept small, in git); what the runs find goes to
# build/fuzz/corpus/<harness>/, crashes to build/fuzz/<harness>-crash-*.

FUZZ_CC        ?= clang
FUZZ_BUILD     ?= $(BUILD)/fuzz
FUZZ_TIME      ?= 20
FUZZ_LONG_TIME ?= 3600
FUZZ_PAR       ?=
FUZZ_SEED      ?= 1
FUZZ_CFLAGS    ?= -std=gnu11 -g -O2 -Wall -Wextra -Werror -DPMUBOOT_HOST -I. \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_DICT      := tests/host/fuzz.dict

FUZZ_HARNESSES := fuzz_options_cfg fuzz_options_cmdline fuzz_measure fuzz_catalog
FUZZ_OPT_MODS  := tests/harness/options.c tests/harness/measure_opt.c lib/fmt.c lib/string.c
FUZZ_CAT_MODS  := $(HOST_CATALOG_MODS) pmu/event.c	# tests/host/host.mk's
FUZZ_MODS_fuzz_options_cfg     := $(FUZZ_OPT_MODS)
FUZZ_MODS_fuzz_options_cmdline := $(FUZZ_OPT_MODS)
FUZZ_MODS_fuzz_measure         := $(FUZZ_OPT_MODS) tests/measure/user_events.c $(FUZZ_CAT_MODS)
FUZZ_MODS_fuzz_catalog         := lib/fmt.c lib/string.c $(FUZZ_CAT_MODS)
FUZZ_HDRS := tests/host/fuzz_options.h tests/harness/options.h tests/harness/measure_opt.h tests/measure/user_events.h \
	pmu/catalog.h pmu/catalog_models.h pmu/event.h tests/measure/pmu_run.h tests/kernels/kernels.h

FUZZ_BINS := $(addprefix $(FUZZ_BUILD)/,$(FUZZ_HARNESSES))

.PHONY: fuzz fuzz-long fuzz-build

fuzz-build: $(FUZZ_BINS)

define FUZZ_RULE
$(FUZZ_BUILD)/$(1): tests/host/$(1).c $$(FUZZ_MODS_$(1)) $$(FUZZ_HDRS) tests/host/fuzz.mk
	@mkdir -p $$(@D)
	$$(FUZZ_CC) $$(FUZZ_CFLAGS) -o $$@ tests/host/$(1).c $$(FUZZ_MODS_$(1))
endef
$(foreach h,$(FUZZ_HARNESSES),$(eval $(call FUZZ_RULE,$(h))))

# One harness for $(2) seconds: the seeds first (each must pass), then mutations from them.
# -print_final_stats gives execs/s; libFuzzer exits non-zero on any crash or leak.
fuzz_run = mkdir -p $(FUZZ_BUILD)/corpus/$(1) && \
	$(FUZZ_BUILD)/$(1) -max_total_time=$(2) -seed=$(FUZZ_SEED) -max_len=4096 -timeout=10 \
		-dict=$(FUZZ_DICT) $(FUZZ_PAR) -print_final_stats=1 \
		-artifact_prefix=$(FUZZ_BUILD)/$(1)- \
		$(FUZZ_BUILD)/corpus/$(1) tests/host/corpus/$(1) 2>&1 | \
		tee $(FUZZ_BUILD)/$(1).log | grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|==[0-9]+==|SUMMARY|fuzz assertion)|Done [0-9]+ runs' ; \
	test $${PIPESTATUS[0]} -eq 0 || { echo "fuzz: $(1) FAILED (log $(FUZZ_BUILD)/$(1).log)"; exit 1; }

# The short runs go FUZZ_JOBS at a time (each harness is one process); make's output sync
# keeps each harness's lines together.
FUZZ_JOBS ?= 2
FUZZ_ONE  := $(addprefix fuzz-one-,$(FUZZ_HARNESSES))
.PHONY: $(FUZZ_ONE)

fuzz: $(FUZZ_BINS) $(FUZZ_DICT)
	@$(MAKE) --no-print-directory -j$(FUZZ_JOBS) --output-sync=target $(FUZZ_ONE)
	@echo "fuzz: all passed"

$(FUZZ_ONE): SHELL := /bin/bash
$(FUZZ_ONE): fuzz-one-%: $(FUZZ_BUILD)/% $(FUZZ_DICT)
	@echo "== $* ($(FUZZ_TIME) s)"; $(call fuzz_run,$*,$(FUZZ_TIME))

fuzz-long: SHELL := /bin/bash
fuzz-long: $(FUZZ_BINS) $(FUZZ_DICT)
	@$(foreach h,$(FUZZ_HARNESSES),echo "== $(h) ($(FUZZ_LONG_TIME) s)"; $(call fuzz_run,$(h),$(FUZZ_LONG_TIME)) &&) \
	echo "fuzz-long: all passed"
