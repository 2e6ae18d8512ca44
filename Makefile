# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# MRC for Linux: top-level build.
#
#   make                      build mrc.ko, the provider and the tools
#   make install [DESTDIR=]   install them (a real node: as root, no DESTDIR)
#   make check                every test suite; ends with "N passed, N failed"
#   make demo                 boot the test VM and show MRC at work
#   make bench                MRC against rdma_rxe and TCP, in two VMs
#   make fuzz                 fuzz the protocol core, FUZZ_SECONDS (600) each
#
# Every target first installs missing Debian packages (scripts/setup-deps.sh).

SHELL := /bin/bash
TOP := $(CURDIR)
KVER ?= $(shell $(TOP)/selftests/vm/kver.sh 2>/dev/null)
KDIR ?= /lib/modules/$(KVER)/build
BUILD ?= $(TOP)/build
CMAKE_BUILD := $(BUILD)/cmake
STAGE := $(BUILD)/stage
PREFIX ?= /usr
JOBS ?= $(shell nproc)
FUZZ_SECONDS ?= 600

.PHONY: all deps module userspace install install-module install-userspace \
	stage check demo bench fuzz clean soak trimq kctest

all: module userspace

deps:
	@$(TOP)/scripts/setup-deps.sh

module: deps
	@test -n "$(KVER)" || { echo "make: no kernel headers (KVER=?)" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOP) -j$(JOBS) modules

userspace: deps
	cmake -S $(TOP) -B $(CMAKE_BUILD) -DCMAKE_INSTALL_PREFIX=$(PREFIX) \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(CMAKE_BUILD) -j$(JOBS)

install: install-module install-userspace

install-module: module
	install -D -m 0644 kernel/mrc.ko $(DESTDIR)/lib/modules/$(KVER)/updates/mrc.ko
	install -D -m 0644 kernel/uapi/mrc-abi.h $(DESTDIR)$(PREFIX)/include/rdma/mrc-abi.h
	install -D -m 0644 kernel/uapi/mrc-genl.h $(DESTDIR)$(PREFIX)/include/rdma/mrc-genl.h
	@if [ -z "$(DESTDIR)" ]; then depmod -a $(KVER); fi

install-userspace: userspace
	DESTDIR=$(DESTDIR) cmake --install $(CMAKE_BUILD)

# The test-only trimming qdisc (selftests/trimq): the stage has it, an
# install never does.
trimq: deps
	$(MAKE) -C $(KDIR) M=$(TOP)/selftests/trimq -j$(JOBS) modules

# The test-only kernel consumer (selftests/kconsumer): the same.
kctest: deps
	$(MAKE) -C $(KDIR) M=$(TOP)/selftests/kconsumer -j$(JOBS) modules

# A fresh install tree for the test VM, with module dependency files made
# here on the host.
stage: all trimq kctest
	rm -rf $(STAGE)
	$(MAKE) --no-print-directory install DESTDIR=$(STAGE)
	install -D -m 0644 selftests/trimq/sch_mrc_trim.ko \
		$(STAGE)/lib/modules/$(KVER)/extra/sch_mrc_trim.ko
	install -D -m 0644 selftests/kconsumer/mrc_kc_test.ko \
		$(STAGE)/lib/modules/$(KVER)/extra/mrc_kc_test.ko
	$(TOP)/scripts/depmod-stage.sh $(STAGE) $(KVER)

# When make started, so that run-all.sh's total includes the build.
CHECK_T0 := $(shell date +%s)

check: stage
	@MRC_CHECK_T0=$(CHECK_T0) $(TOP)/selftests/run-all.sh

demo: stage
	@$(TOP)/selftests/vm/run-vm.sh -t 600 $(TOP)/selftests/vm/demo/demo.sh

# Long soaks, outside make check (Documentation/testing.rst): path cuts
# under traffic, SOAK_CUTS of them (make check runs 4), and SOAK_CHURN
# rounds of QPs killed mid-stream (make check runs 8).
SOAK_CUTS ?= 30
SOAK_CHURN ?= 64
soak: stage
	@MRC_VM_ENV="MRC_CUTS=$(SOAK_CUTS) MRC_CHURN_ROUNDS=$(SOAK_CHURN)" \
		MRC_SUITES=vm MRC_VM_TESTS="mp_cut_loop qp_churn" \
		$(TOP)/selftests/run-all.sh

# Benchmarks report figures (table + build/bench/results.json); they do
# not pass or fail. BENCH_REPS=N sets the repetitions (default 3).
bench: stage
	@$(TOP)/selftests/bench/bench.sh

# The libFuzzer harnesses of fuzz/, long; make check runs them 10 s each.
fuzz: deps
	@$(TOP)/fuzz/run-fuzz.sh -t $(FUZZ_SECONDS)

clean:
	-$(MAKE) -C $(KDIR) M=$(TOP) clean
	-$(MAKE) -C $(KDIR) M=$(TOP)/selftests/trimq clean
	-$(MAKE) -C $(KDIR) M=$(TOP)/selftests/kconsumer clean
	rm -rf $(BUILD)
