# SPDX-License-Identifier: MIT
# Host unit tests (cmocka) for the pure-logic modules. Included by the top-level Makefile,
# or run standalone from the repository root: make -f tests/host/host.mk host-test

HOST_MK := $(lastword $(MAKEFILE_LIST))
# Standalone use (this file is the only makefile read): make host-test the default goal.
ifeq ($(words $(MAKEFILE_LIST)),1)
HOST_STANDALONE := 1
endif
HOST_SAVED_DEFAULT_GOAL := $(.DEFAULT_GOAL)

HOST_CC ?= gcc
HOST_BUILD ?= build/host
HOST_LDLIBS ?= -lcmocka

# Use ASan + UBSan when the host toolchain can build *and run* a sanitized program.
HOST_SANITIZE_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all
ifeq ($(origin HOST_SANITIZE),undefined)
HOST_SANITIZE := $(shell t=$$(mktemp -d 2>/dev/null) && \
	printf 'int main(void){return 0;}\n' > $$t/p.c && \
	$(HOST_CC) $(HOST_SANITIZE_FLAGS) $$t/p.c -o $$t/p >/dev/null 2>&1 && \
	$$t/p >/dev/null 2>&1 && echo '$(HOST_SANITIZE_FLAGS)'; rm -rf "$$t")
endif

HOST_CFLAGS ?= -std=gnu11 -Wall -Wextra -Werror -DPMUBOOT_HOST -I. -g $(HOST_SANITIZE)

HOST_HDRS := lib/string.h lib/fmt.h lib/stats.h tests/harness/options.h tests/harness/measure_opt.h tests/harness/tap.h arch/x86/cpuid.h \
	arch/x86/tsc.h arch/x86/acpi.h pmu/pmu.h tests/qemu/oracle_decode.h lib/oracle_tag.h \
	pmu/counter.h pmu/event.h pmu/pmi.h arch/x86/hw.h tests/host/pmu_model.h tests/measure/pmu_run.h \
	tests/measure/region.h tests/expect/arch.h pmu/frame.h pmu/ds.h pmu/pebs.h pmu/lbr.h pmu/uncore.h tests/host/uncore_model.h \
	tests/measure/user_events.h pmu/catalog.h tests/kernels/kernels.h tests/linux/perf_config.h

# To add a program: list it here (or in HOST_TESTS before this file is included) and set
# HOST_MODS_<name> to the module sources it links.
HOST_TESTS += test_string test_fmt test_stats test_options test_tap test_cpuid test_acpi \
	test_oracle_decode
HOST_TESTS += test_pmu_model test_pmu test_pmu_run test_expect test_pebs test_lbr test_uncore
HOST_TESTS += test_measure_opt test_user_events
HOST_TESTS += test_catalog test_catalog_pfm
HOST_TESTS += test_report test_layers test_check_report test_perf_config test_paging
HOST_MODS_test_paging := arch/x86/paging.c lib/string.c
HOST_MODS_test_report := tests/report/parse.c tests/report/output.c tests/report/json.c \
	tests/report/compare.c
HOST_EXTRA_DEPS_test_report := tests/report/report.h tests/report/json.h tests/report/compare.h
HOST_LIBS_test_report := -lm

# Module sources linked into each test. test_string includes lib/string.c itself (to test
# the firmware's mem* functions under other names), so it links nothing else.
HOST_MODS_test_string :=
HOST_MODS_test_layers :=
HOST_MODS_test_check_report := tests/harness/report.c tests/expect/arch.c pmu/event.c lib/fmt.c lib/string.c
HOST_MODS_test_fmt := lib/fmt.c lib/string.c
HOST_MODS_test_stats := lib/stats.c
HOST_MODS_test_options := tests/harness/options.c tests/harness/measure_opt.c lib/fmt.c lib/string.c
HOST_MODS_test_measure_opt := tests/harness/options.c tests/harness/measure_opt.c lib/fmt.c lib/string.c
HOST_MODS_test_tap := tests/harness/tap.c lib/fmt.c lib/string.c
HOST_MODS_test_cpuid := arch/x86/cpuid.c arch/x86/tsc.c pmu/pmu.c lib/fmt.c lib/string.c
HOST_MODS_test_acpi := arch/x86/acpi.c lib/string.c
HOST_MODS_test_oracle_decode := tests/qemu/oracle_decode.c
HOST_MODS_test_pmu_model := tests/host/pmu_model.c tests/host/uncore_model.c
HOST_MODS_test_pmu := pmu/pmu.c pmu/discover.c pmu/event.c pmu/counter.c pmu/pmi.c \
	pmu/lbr.c pmu/ds.c arch/x86/cpuid.c lib/fmt.c lib/string.c tests/host/pmu_model.c tests/host/uncore_model.c
HOST_MODS_test_pmu_run := tests/measure/pmu_run.c pmu/pmu.c pmu/discover.c pmu/event.c pmu/counter.c \
	pmu/pmi.c pmu/lbr.c pmu/ds.c arch/x86/cpuid.c lib/fmt.c lib/string.c lib/stats.c tests/host/pmu_model.c tests/host/uncore_model.c
HOST_MODS_test_expect := tests/expect/arch.c pmu/event.c lib/fmt.c lib/string.c
HOST_MODS_test_perf_config := tests/linux/perf_config.c lib/fmt.c lib/string.c
HOST_MODS_test_pebs := pmu/pebs.c pmu/ds.c pmu/pmu.c lib/fmt.c lib/string.c tests/host/pmu_model.c tests/host/uncore_model.c
HOST_MODS_test_lbr := pmu/lbr.c pmu/pmu.c pmu/discover.c arch/x86/cpuid.c lib/fmt.c lib/string.c \
	tests/host/pmu_model.c tests/host/uncore_model.c
HOST_MODS_test_uncore := pmu/uncore.c pmu/pmu.c pmu/discover.c pmu/lbr.c pmu/ds.c \
	arch/x86/cpuid.c lib/fmt.c lib/string.c tests/host/pmu_model.c tests/host/uncore_model.c
HOST_EXTRA_DEPS_test_string := lib/string.c
# The seed models (a file tests/expect/seed_<model>.c per line of tests/expect/seed_models.h)
# against the event catalog (the generated tables: Makefile's CATALOG_SRCS, so only when
# included from it).
HOST_SEED_MODELS := $(patsubst %,tests/expect/seed_%.c,$(shell sed -n \
	's/^.X.\([a-z0-9_]*\),.*/\1/p' tests/expect/seed_models.h))
ifdef CATALOG_SRCS
HOST_TESTS += test_events
HOST_MODS_test_events := tests/expect/seed.c $(HOST_SEED_MODELS) pmu/catalog.c pmu/catalog_arch.c \
	pmu/catalog_skl_unc.c $(CATALOG_SRCS) lib/fmt.c lib/string.c
HOST_EXTRA_DEPS_test_events := tests/expect/seed.h tests/expect/seed_models.h \
	tests/expect/seed_rows.h pmu/catalog.h
endif

# The event catalogs, generated from libpfm4 by tests/host/gen_catalog.c (as the firmware
# build does, into HOST_BUILD so this file also works standalone).
HOST_GEN_CATALOG := $(HOST_BUILD)/gen_catalog
HOST_CATALOG_GEN := $(HOST_BUILD)/gen/pmu
HOST_CATALOG_SRCS := $(patsubst %,$(HOST_CATALOG_GEN)/catalog_%.c,$(shell sed -n \
	's/^.X.\([a-z0-9_]*\),.*/\1/p' pmu/catalog_models.h))
HOST_CATALOG_MODS := pmu/catalog.c pmu/catalog_arch.c pmu/catalog_skl_unc.c $(HOST_CATALOG_SRCS)
HOST_MODS_test_catalog := $(HOST_CATALOG_MODS) pmu/event.c pmu/uncore.c pmu/pmu.c pmu/discover.c \
	pmu/lbr.c pmu/ds.c arch/x86/cpuid.c lib/fmt.c lib/string.c tests/host/pmu_model.c \
	tests/host/uncore_model.c
HOST_MODS_test_catalog_pfm := $(HOST_CATALOG_MODS) tests/host/catalog_rules.c lib/string.c
HOST_LIBS_test_catalog_pfm := -lpfm
HOST_EXTRA_DEPS_test_catalog := pmu/catalog.h pmu/catalog_models.h
HOST_EXTRA_DEPS_test_catalog_pfm := pmu/catalog.h pmu/catalog_models.h tests/host/catalog_rules.h
# measure= lists resolved against the catalogs as the firmware links them.
HOST_MODS_test_user_events := tests/measure/user_events.c tests/harness/options.c tests/harness/measure_opt.c \
	$(HOST_CATALOG_MODS) pmu/event.c lib/fmt.c lib/string.c

$(HOST_GEN_CATALOG): tests/host/gen_catalog.c tests/host/catalog_rules.c tests/host/catalog_rules.h \
		pmu/catalog.h pmu/catalog_models.h arch/x86/msr.h
	@mkdir -p $(@D)
	$(HOST_CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -I. -o $@ tests/host/gen_catalog.c \
		tests/host/catalog_rules.c -lpfm

$(HOST_CATALOG_GEN)/.stamp: $(HOST_GEN_CATALOG) $(wildcard /usr/lib/*/libpfm.so.4 /usr/lib/libpfm.so.4)
	@mkdir -p $(@D)
	$(HOST_GEN_CATALOG) $(HOST_CATALOG_GEN)
	@touch $@

$(HOST_CATALOG_SRCS): $(HOST_CATALOG_GEN)/.stamp ;

HOST_TEST_BINS := $(addprefix $(HOST_BUILD)/,$(HOST_TESTS))

.PHONY: host-test host-clean

host-test: $(HOST_TEST_BINS)
	@fail=0; \
	for t in $(HOST_TEST_BINS); do \
		echo "== $$t"; \
		case $$t in /*) run=$$t ;; *) run=./$$t ;; esac; \
		$$run || { echo "!! $$t FAILED"; fail=1; }; \
	done; \
	if [ $$fail -eq 0 ]; then echo "host-test: all passed"; else echo "host-test: FAILED"; fi; \
	exit $$fail

host-clean:
	rm -rf $(HOST_BUILD)

define HOST_TEST_RULE
$(HOST_BUILD)/$(1): tests/host/$(1).c $$(HOST_MODS_$(1)) $$(HOST_EXTRA_DEPS_$(1)) $$(HOST_HDRS) $$(HOST_MK)
	@mkdir -p $$(@D)
	$$(HOST_CC) $$(HOST_CFLAGS) -o $$@ tests/host/$(1).c $$(HOST_MODS_$(1)) $$(HOST_LDLIBS) $$(HOST_LIBS_$(1))
endef
$(foreach t,$(HOST_TESTS),$(eval $(call HOST_TEST_RULE,$(t))))

# Do not steal the including Makefile's default goal.
ifdef HOST_STANDALONE
.DEFAULT_GOAL := host-test
else
.DEFAULT_GOAL := $(HOST_SAVED_DEFAULT_GOAL)
endif
