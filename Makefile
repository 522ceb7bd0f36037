# SPDX-License-Identifier: GPL-2.0
#
# tlsx: top-level build.  `make help` lists the targets.

SHELL := /bin/bash
.DEFAULT_GOAL := all

B := build
# The one version (the VERSION file): tlsx.ko's MODULE_VERSION (Kbuild),
# libtlsx's TLSX_VERSION_STRING and soname, tlsxd --version, the packages.
VERSION := $(shell cat VERSION)
SOMAJOR := $(firstword $(subst ., ,$(VERSION)))
CRYPTO := userspace/crypto

# The kernel series tlsx supports, oldest first.  Every per-series module
# build, VM kernel, DKMS entry and test target below is made from this
# line, and tools/ read it through tools/kernel-series (make
# print-kernel-series): adding a series is this line, kmod/compat.h and
# tools/deps (docs/testing.md).  The last is the default: the kernel of
# KDIR and of tlsx.ko in this tree, and the one the VM targets that boot a
# single kernel boot.  tools/check-series fails on a copy elsewhere.
KERNEL_SERIES := 6.1 6.12
KERNEL_DEFAULT := $(lastword $(KERNEL_SERIES))
KERNEL_OTHERS := $(filter-out $(KERNEL_DEFAULT),$(KERNEL_SERIES))
# A series in a variable's name: KDIR_6_1 for 6.1.
series_var = $(subst .,_,$(1))
space := $(subst ,, )
# "a and b and c"
and_list = $(subst $(space), and ,$(strip $(1)))

# The module builds for every series, each against the newest installed
# headers of that series, never a fixed version: the default series in
# this tree (KDIR), each other one in build/kmod-SERIES (KDIR_6_1 for
# 6.1).  KDIR=... or KDIR_6_1=... on the command line builds against
# that tree.
newest_kver = $(shell ls -1 /lib/modules 2>/dev/null | \
	grep '^$(subst .,\.,$(1))\.' | sort -V | tail -1)
# KVER=SERIES (one of KERNEL_SERIES) instead names the kernel the VM
# targets boot: test-vm and bench-vm boot every series by default,
# test-compat the default one.
ifneq ($(shell echo '$(KVER)' | grep -Ex '[0-9]+\.[0-9]+'),)
ifeq ($(filter $(KVER),$(KERNEL_SERIES)),)
$(error KVER=$(KVER) is no series of KERNEL_SERIES ($(KERNEL_SERIES)))
endif
VM_KERNELS := $(KVER)
COMPAT_KERNELS := $(KVER)
override KVER := $(call newest_kver,$(KERNEL_DEFAULT))
endif
VM_KERNELS ?= $(KERNEL_DEFAULT) $(KERNEL_OTHERS)
COMPAT_KERNELS ?= $(KERNEL_DEFAULT)
KVER ?= $(call newest_kver,$(KERNEL_DEFAULT))
KDIR ?= $(if $(KVER),/lib/modules/$(KVER)/build)
define series_kdir
KVER_$(2) ?= $$(call newest_kver,$(1))
KDIR_$(2) ?= $$(if $$(KVER_$(2)),/lib/modules/$$(KVER_$(2))/build)
endef
$(foreach s,$(KERNEL_OTHERS),$(eval $(call series_kdir,$(s),$(call series_var,$(s)))))
# $(call kdir_of,SERIES)
kdir_of = $(if $(filter $(KERNEL_DEFAULT),$(1)),$(KDIR),$(KDIR_$(call series_var,$(1))))

CC := gcc
WARN := -Wall -Wextra
CFLAGS ?= -O2 -g
KSRC_DIR := build/ksrc
# The kselftest harness is a system header to us: its own code is not
# ours to warn about.  Test programs using it also need -Wno-clobbered
# (its setjmp-based assertions).
CPPFLAGS_ALL := -I$(CRYPTO) -Iuserspace \
	-isystem $(KSRC_DIR)/tools/testing/selftests -D_GNU_SOURCE \
	-DTLSX_VERSION_STRING='"$(VERSION)"'
CFLAGS_ALL = $(CFLAGS) $(WARN) -std=gnu11 -fno-strict-aliasing
TEST_CFLAGS = -Wno-clobbered
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined

KSRC := $(KSRC_DIR)/.stamp

# --- the AEAD library, the same sources as in tlsx.ko -----------------
AEAD := $(CRYPTO)/aead
include $(AEAD)/aead.mk
AEAD_SRCS := $(addprefix $(AEAD)/,$(TLSX_AEAD_SRCS))
AEAD_SIMD := $(addprefix $(AEAD)/,$(TLSX_AEAD_SIMD_SRCS))
ifneq ($(filter-out $(AEAD_SRCS) $(AEAD_SIMD),$(wildcard $(AEAD)/*.c)),)
$(error $(filter-out $(AEAD_SRCS) $(AEAD_SIMD),$(wildcard $(AEAD)/*.c)) \
	not listed in $(AEAD)/aead.mk)
endif
# Handshake primitives (userspace only): the other families' sources.
HS_SRCS := $(filter-out $(AEAD)/% $(CRYPTO)/test/%,$(wildcard $(CRYPTO)/*/*.c))
LIB_SRCS := $(AEAD_SRCS) $(AEAD_SIMD) $(HS_SRCS)

LIB := $(B)/lib/libtlsx_crypto.a
LIB_ASAN := $(B)/lib/libtlsx_crypto-asan.a
LIB_OBJS := $(patsubst %.c,$(B)/obj/%.o,$(LIB_SRCS))
LIB_OBJS_ASAN := $(patsubst %.c,$(B)/obj-asan/%.o,$(LIB_SRCS))

# --- the TLS 1.3 engine, on top of the crypto library -----------------
# Its includes name their folder from userspace/ ("handshake/engine/codec.h"),
# as the crypto families' do from userspace/crypto/ ("hash/hkdf.h").
# userspace/handshake/README.md says what each folder owns.
HS_DIR := userspace/handshake
ENGINE_SRCS := $(wildcard $(HS_DIR)/engine/*.c)
# libtlsx proper: configuration, connection, I/O, the record layers and
# the handoff, on top of the engine.  Both go into libtlsx_hs.a.
LIBTLSX_SRCS := $(wildcard $(HS_DIR)/libtlsx/*.c)
ENGINE_LIB := $(B)/lib/libtlsx_hs.a
ENGINE_LIB_ASAN := $(B)/lib/libtlsx_hs-asan.a
ENGINE_OBJS := $(patsubst %.c,$(B)/obj/%.o,$(ENGINE_SRCS) $(LIBTLSX_SRCS))
ENGINE_OBJS_ASAN := $(patsubst %.c,$(B)/obj-asan/%.o,$(ENGINE_SRCS) \
	$(LIBTLSX_SRCS))

# --- libtlsx: what programs link (userspace/handshake/libtlsx/tlsx.h) ----------
# The engine and the crypto code in one archive, and a shared library
# from the same sources built -fPIC with every symbol hidden but tlsx.h's
# TLSX_API ones.
LIBTLSX := $(B)/lib/libtlsx.a
LIBTLSX_SO := $(B)/lib/libtlsx.so.$(SOMAJOR)
LIBTLSX_PIC_OBJS := $(patsubst %.c,$(B)/obj-pic/%.o,$(ENGINE_SRCS) \
	$(LIBTLSX_SRCS) $(LIB_SRCS))

# --- tlsxd: the HTTPS static file server (docs/tlsxd.md) --------------
# Everything but main.c goes into an archive the unit tests and fuzz
# targets link too.  tlsxd-static is the VM's build (its initramfs has no
# libc and no libsystemd): the same sources without sd_notify/LISTEN_FDS.
TLSXD_DIR := userspace/tlsxd
# h2/: HTTP/2 (docs/http2.md).
TLSXD_SRCS := $(filter-out $(TLSXD_DIR)/main.c,$(wildcard $(TLSXD_DIR)/*.c)) \
	$(wildcard $(TLSXD_DIR)/h2/*.c)
TLSXD_LIB := $(B)/lib/libtlsxd.a
TLSXD_LIB_ASAN := $(B)/lib/libtlsxd-asan.a
TLSXD_OBJS := $(patsubst %.c,$(B)/obj/%.o,$(TLSXD_SRCS))
TLSXD_OBJS_ASAN := $(patsubst %.c,$(B)/obj-asan/%.o,$(TLSXD_SRCS))
TLSXD_STATIC_OBJS := $(patsubst %.c,$(B)/obj-static/%.o,$(TLSXD_SRCS) \
	$(TLSXD_DIR)/main.c)
TLSXD := $(if $(wildcard $(TLSXD_DIR)/main.c),$(B)/bin/tlsxd)
TLSXD_STATIC := $(if $(TLSXD),$(B)/bin/tlsxd-static)
# Test builds with a low key limit (see tlsxd-rekey below).
TLSXD_TEST_REKEY_LIMIT := 512
TLSXD_REKEY := $(if $(TLSXD),$(B)/bin/tlsxd-rekey)
TLSXD_STATIC_REKEY := $(if $(TLSXD),$(B)/bin/tlsxd-static-rekey)
TLSXD_LIBS := -luring -lsystemd -lpthread

# --- unit tests: every test/test_*.c of a family is one program -------
TEST_DIRS := $(wildcard userspace/*/test $(CRYPTO)/*/test $(HS_DIR)/*/test)
TEST_SRCS := $(wildcard $(addsuffix /test_*.c,$(TEST_DIRS)))
TESTS := $(patsubst %.c,$(B)/test/%,$(notdir $(TEST_SRCS)))
TESTS_ASAN := $(patsubst %.c,$(B)/test-asan/%,$(notdir $(TEST_SRCS)))
# Constant-time checks run under valgrind: test/ct_*.c.
CT_SRCS := $(wildcard $(addsuffix /ct_*.c,$(TEST_DIRS)))
CT_TESTS := $(patsubst %.c,$(B)/test/%,$(notdir $(CT_SRCS)))
TEST_LIBS := -lssl -lcrypto -lpthread

# --- fuzz targets: fuzz/fuzz_*.c of a family, libFuzzer under clang ---
# They link the crypto and engine sources built again by clang with
# the sanitizers; `make test-unit` runs each FUZZ_SECONDS from its seed
# corpus, `make fuzz FUZZ_SECONDS=600` longer.
FUZZ_SRCS := $(wildcard userspace/*/fuzz/fuzz_*.c $(CRYPTO)/*/fuzz/fuzz_*.c \
	$(HS_DIR)/*/fuzz/fuzz_*.c)
FUZZ := $(patsubst %.c,$(B)/fuzz/%,$(notdir $(FUZZ_SRCS)))
FUZZ_CC := clang
FUZZ_CFLAGS := $(CPPFLAGS_ALL) -O1 -g $(WARN) -std=gnu11 \
	-fsanitize=address,undefined -fno-sanitize-recover=undefined
# libtlsx is in for fuzz_urec (its userspace record layer) and tlsxd's
# targets.
FUZZ_LIB_SRCS := $(AEAD_SRCS) $(AEAD_SIMD) $(HS_SRCS) \
	$(ENGINE_SRCS) $(LIBTLSX_SRCS) $(TLSXD_SRCS)
FUZZ_LIB_OBJS := $(patsubst %.c,$(B)/obj-fuzz/%.o,$(FUZZ_LIB_SRCS))
FUZZ_LIB := $(B)/lib/libtlsx_crypto-fuzz.a
FUZZ_SECONDS ?= 10
FUZZ_RUNS = $(foreach f,$(FUZZ),'tools/fuzz-run $(f) $(FUZZ_SECONDS)')
# The engine targets' seeds, made at build time (tools/gen/hs_fuzz_seeds.c).
FUZZ_CORPUS := $(B)/fuzz-corpus/.stamp

# The AEAD tests again with AVX hidden (TLSX_CPU_MASK, see cpu.c): the
# legacy SSE builds of the 128-bit engines, which a CPU with AVX does
# not run otherwise, against the known answers, OpenSSL, the portable
# engine (test_gcm_engines), the stack checks and the constant-time check.
NO_AVX_TESTS := test_aead_kat test_aead_diff test_aead_sg test_aead_tamper \
	test_gcm_engines test_aead_stack test_aead_wipe_depth \
	test_aead_ct_trace
NO_AVX_RUNS = $(foreach t,$(NO_AVX_TESTS),\
	'env TLSX_CPU_MASK=avx $(B)/test/$(t)') \
	'env TLSX_CPU_MASK=avx tools/ctgrind $(B)/test/ct_aead' \
	$(foreach t,test_stack_left test_stack_depth,\
	'env TLSX_CPU_MASK=$(PORTABLE_MASK) $(B)/test/$(t)')
# The handshake primitives' stack checks again on their portable code
# (X25519, P-256, ML-KEM, the bignums, SHA-2), whose frames go deeper.
PORTABLE_MASK := avx512f,avx2,adx,bmi2,avx512ifma,sha

# --- tools ------------------------------------------------------------
BENCH_SRCS := $(wildcard tools/bench/*.c)
BENCH := $(if $(BENCH_SRCS),$(B)/bin/tlsx-bench)
# tlsx-client and tlsx-server: libtlsx's public API only (tlsx.h), and
# what the two share in tools/tlsx-tool/.
TOOL_SRCS := $(wildcard tools/tlsx-tool/*.c)
TOOL_HDRS := $(wildcard tools/tlsx-tool/*.h)
HS_TOOLS := $(B)/bin/tlsx-client $(B)/bin/tlsx-server
# The shim BoringSSL's BoGo runner drives (tools/bogo/, docs/testing.md,
# "BoGo"): libtlsx's public API only.
BOGO_SHIM := $(B)/bin/tlsx-bogo-shim

# --- VM selftests: selftests/*.c, static, run in the guest ------------
SELFTEST_SRCS := $(wildcard selftests/*.c)
SELFTESTS := $(patsubst selftests/%.c,$(B)/selftests/%,$(SELFTEST_SRCS))

MODULE := tlsx.ko
# The test build: the same module with the selftests' debugfs hooks
# (Kbuild's TLSX_TEST_HOOKS=y), built from a copy of its sources in
# $(TEST_MODULE_DIR) (Kbuild writes objects next to the sources, so one
# tree cannot hold both builds).  The VM targets load this one.
TEST_MODULE_DIR := $(B)/kmod-test
TEST_MODULE := $(TEST_MODULE_DIR)/tlsx.ko
# The other series' builds, each in its own copy too: MODULE_6_1 in
# MODULE_6_1_DIR (build/kmod-6.1), TEST_MODULE_6_1 in TEST_MODULE_6_1_DIR
# (build/kmod-test-6.1) for 6.1.
define series_module_vars
MODULE_$(2)_DIR := $(B)/kmod-$(1)
MODULE_$(2) = $$(MODULE_$(2)_DIR)/tlsx.ko
TEST_MODULE_$(2)_DIR := $(B)/kmod-test-$(1)
TEST_MODULE_$(2) = $$(TEST_MODULE_$(2)_DIR)/tlsx.ko
endef
$(foreach s,$(KERNEL_OTHERS),$(eval $(call series_module_vars,$(s),$(call series_var,$(s)))))
# $(call module_of,SERIES), $(call test_module_of,SERIES)
module_of = $(if $(filter $(KERNEL_DEFAULT),$(1)),$(MODULE),$(MODULE_$(call series_var,$(1))))
test_module_of = $(if $(filter $(KERNEL_DEFAULT),$(1)),$(TEST_MODULE),$(TEST_MODULE_$(call series_var,$(1))))
# Every series' build, the default one first.
MODULES = $(foreach s,$(KERNEL_DEFAULT) $(KERNEL_OTHERS),$(call module_of,$(s)))
TEST_MODULES = $(foreach s,$(KERNEL_DEFAULT) $(KERNEL_OTHERS),$(call test_module_of,$(s)))

.PHONY: all help deps lib tests module module-test selftests test test-unit test-bogo \
	test-vm \
	lint bench bench-crypto fuzz test-mlkem-long clean print-kdir test-compat test-debug bench-vm \
	bench-report \
	bench-hs fuzz-seeds interop scan serve bench-http bench-http-vm

all: lib tests $(BENCH) $(HS_TOOLS) $(BOGO_SHIM) $(TLSXD) $(TLSXD_STATIC) \
	$(TLSXD_REKEY) $(TLSXD_STATIC_REKEY) selftests \
	module module-test

help:
	@echo "make deps       install missing Debian packages (root)"
	@echo "make            libraries, programs, tests, tlsx.ko and its test build"
	@echo "make module     tlsx.ko for $(KERNEL_DEFAULT) and $(call and_list,$(filter-out $(MODULE),$(MODULES))) (no test hooks)"
	@echo "make module-test  $(call and_list,$(TEST_MODULES)), with the selftests' debugfs hooks"
	@echo "make test       unit tests natively, then selftests in the VM"
	@echo "make test-unit  userspace tests (plain, ASan/UBSan, valgrind)"
	@echo "make interop    tlsx-client/-server against openssl, gnutls, curl"
	@echo "make test-bogo  BoringSSL's BoGo suite against tlsx (part of test-unit)"
	@echo "make serve [ROOT=DIR] [PORT=N]  tlsxd on https://localhost:8443/"
	@echo "make scan       testssl.sh, sslscan, probes against tlsxd (slow)"
	@echo "make test-vm [KVER=$(subst $(space),|,$(KERNEL_SERIES))]  module selftests in a qemu VM (tls and tlsx), on $(call and_list,$(KERNEL_DEFAULT) $(KERNEL_OTHERS))"
	@echo "make demo       tlsxd in the VM: files over tlsx.ko, checked"
	@echo "make test-vm-tlsxd  tlsxd's VM tests alone (part of test-vm)"
	@echo "make test-vm-close  tlsx-client/-server closing, each layer, in the VM (part of test-vm)"
	@echo "make lint       checkpatch.pl and -Werror builds"
	@echo "make check-deps every program run comes from tools/deps's packages"
	@echo "make install [PREFIX=/usr/local DESTDIR=]  programs, libtlsx, man pages, units"
	@echo "make uninstall  removes what install wrote"
	@echo "make dkms-install  tlsx.ko's source in /usr/src, dkms add/build/install, the kernel hooks"
	@echo "make deb [DEB_REUSE=1]  tlsx-dkms, libtlsx0, libtlsx-dev, tlsxd .debs"
	@echo "make test-pkg   install, DKMS and .deb tests (in make test)"
	@echo "make bench      benchmarks"
	@echo "make bench-hs   whole TLS 1.3 handshakes vs libssl"
	@echo "make bench-http tlsxd vs nginx over HTTPS (h2load or wrk)"
	@echo "make bench-report  crypto, handshake, HTTP (REPORT_VM=1: kmod) into build/report"
	@echo "make bench-http-vm  the same in the VM, tlsx.ko and tls vs nginx kTLS"
	@echo "make fuzz [FUZZ_SECONDS=N]  libFuzzer targets, longer; and the"
	@echo "                            1,000,000-test ML-KEM run (test-mlkem-long)"
	@echo "make test-compat [ULP=tls|tlsx] [KVER=SERIES]  kernel's tls.c selftest in the VM ($(KERNEL_DEFAULT)'s, or that of SERIES on SERIES)"
	@echo "make test-debug [DEBUG_KVER=SERIES] [SKIP_FAULTS=1]  selftests on a KASAN/lockdep/kmemleak kernel ($(KERNEL_DEFAULT); failslab where the series can aim it)"
	@echo "make bench-vm   tlsx.ko vs tls throughput and memory in the VM"
	@echo "KDIR=...        $(KERNEL_DEFAULT) kernel build tree (default: $(KDIR))"
	@$(foreach s,$(KERNEL_OTHERS),echo "KDIR_$(call series_var,$(s))=...    $(s) kernel build tree (default: $(KDIR_$(call series_var,$(s))))";) true
	@echo "KERNEL_SERIES:  $(KERNEL_SERIES) (the default: $(KERNEL_DEFAULT))"

deps:
	@tools/deps

$(KSRC):
	@tools/ksrc $(KSRC_DIR)

lib: $(LIB) $(ENGINE_LIB) $(LIBTLSX) $(LIBTLSX_SO)

$(LIB): $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(ENGINE_LIB): $(ENGINE_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(ENGINE_LIB_ASAN): $(ENGINE_OBJS_ASAN)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(LIBTLSX): $(ENGINE_OBJS) $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(LIBTLSX_SO): $(LIBTLSX_PIC_OBJS)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,$(@F) -Wl,--no-undefined \
		-Wl,-z,relro,-z,now,-z,noexecstack $^ -o $@
	ln -sf $(@F) $(B)/lib/libtlsx.so

$(B)/obj-pic/%.o: %.c | $(KSRC)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -fPIC -fvisibility=hidden \
		-MMD -MP -c $< -o $@

$(LIB_ASAN): $(LIB_OBJS_ASAN)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(B)/obj/%.o: %.c | $(KSRC)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(B)/obj-asan/%.o: %.c | $(KSRC)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $(SAN) -MMD -MP \
		-c $< -o $@

tests: $(TESTS) $(TESTS_ASAN) $(CT_TESTS) $(FUZZ)

$(B)/obj-fuzz/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP \
		-c $< -o $@

vpath fuzz_%.c $(sort $(dir $(FUZZ_SRCS)))

$(FUZZ_LIB): $(FUZZ_LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(B)/fuzz/%: %.c $(FUZZ_LIB)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -MMD -MP $< $(FUZZ_LIB) \
		-o $@

# The 1,000,000-test accumulated ML-KEM run (C2SP CCTV's 70090cc5...):
# minutes, so here and not in `make test` (which runs the 10,000).
MLKEM_LONG_RUN := 'env TLSX_MLKEM_ACCUM=1000000 $(B)/test/test_mlkem -f accum'

fuzz: $(FUZZ) $(FUZZ_CORPUS) $(B)/test/test_mlkem
	@tools/run-tests $(FUZZ_RUNS) $(MLKEM_LONG_RUN)

test-mlkem-long: $(B)/test/test_mlkem
	@tools/run-tests $(MLKEM_LONG_RUN)

# The engine targets' seeds, recorded from tlsx against itself at
# build time into $(B)/fuzz-corpus/NAME/ (tools/fuzz-run reads them):
# always the engine being fuzzed, hybrid key shares included
# (FUZZ_CORPUS, above).
$(B)/bin/hs-fuzz-seeds: tools/gen/hs_fuzz_seeds.c \
		$(HS_DIR)/engine/fuzz/fuzz_hs.h $(ENGINE_LIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $< $(ENGINE_LIB) $(LIB) -lpthread \
		-o $@

$(FUZZ_CORPUS): $(B)/bin/hs-fuzz-seeds
	rm -rf $(@D)
	$< $(@D) > /dev/null
	touch $@

fuzz-seeds: $(FUZZ_CORPUS)

vpath test_%.c $(sort $(dir $(TEST_SRCS)))
vpath ct_%.c $(sort $(dir $(CT_SRCS)))

$(B)/test/%: %.c $(ENGINE_LIB) $(LIB) | $(KSRC)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $(TEST_CFLAGS) \
		-MMD -MP $< $(TEST_XLIBS) $(ENGINE_LIB) $(LIB) $(TEST_LIBS) \
		$(TEST_XSYSLIBS) -o $@

$(B)/test-asan/%: %.c $(ENGINE_LIB_ASAN) $(LIB_ASAN) | $(KSRC)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $(TEST_CFLAGS) \
		$(SAN) -MMD -MP $< $(TEST_XLIBS_ASAN) $(ENGINE_LIB_ASAN) $(LIB_ASAN) \
		$(TEST_LIBS) $(TEST_XSYSLIBS) -o $@

# tlsxd's unit tests link its archive (and libtlsx, for the server).
TLSXD_TESTS := $(patsubst %.c,%,$(notdir $(wildcard $(TLSXD_DIR)/test/test_*.c)))
$(addprefix $(B)/test/,$(TLSXD_TESTS)): $(TLSXD_LIB)
$(addprefix $(B)/test-asan/,$(TLSXD_TESTS)): $(TLSXD_LIB_ASAN)
$(addprefix $(B)/test/,$(TLSXD_TESTS)): TEST_XLIBS = $(TLSXD_LIB)
$(addprefix $(B)/test-asan/,$(TLSXD_TESTS)): TEST_XLIBS_ASAN = $(TLSXD_LIB_ASAN)
$(addprefix $(B)/test/,$(TLSXD_TESTS)) \
$(addprefix $(B)/test-asan/,$(TLSXD_TESTS)): TEST_XSYSLIBS = $(TLSXD_LIBS)
# test_tlsxd_server opens the window between the bind and the listener
# check inside a wrapped listen_check_open() (the daemon has no seam).
$(B)/test/test_tlsxd_server $(B)/test-asan/test_tlsxd_server: \
	TEST_XSYSLIBS += -Wl,--wrap=listen_check_open
# test_conn drives the kernel send path with no record layer: it checks
# what conn_kernel.c reserves under the sending key by a wrapped
# tlsx_conn_tx_reserve(), and receives by a wrapped tlsx_conn_rx_plain().
$(B)/test/test_conn $(B)/test-asan/test_conn: \
	TEST_XSYSLIBS += -Wl,--wrap=tlsx_conn_tx_reserve \
	-Wl,--wrap=tlsx_conn_rx_plain
# test_aead_wipe_depth measures where the AEAD dispatcher's stack wipes
# would reach, through wrapped wipes (stack_wipe.c) that wipe nothing.
$(B)/test/test_aead_wipe_depth $(B)/test-asan/test_aead_wipe_depth: \
	TEST_XSYSLIBS += -Wl,--wrap=tlsx_stack_wipe_shallow \
	-Wl,--wrap=tlsx_stack_wipe_deep
# test_stack_depth does the same for the handshake primitives' wipes.
$(B)/test/test_stack_depth $(B)/test-asan/test_stack_depth: \
	TEST_XSYSLIBS += -Wl,--wrap=tlsx_stack_wipe_user
# test_tlsxd_main runs the daemon itself.
$(B)/test/test_tlsxd_main $(B)/test-asan/test_tlsxd_main: | $(TLSXD)

# test_tlsxd_http runs the daemon (build/bin/tlsxd, found next to
# itself); its ASan build runs the daemon built with ASan/UBSan too.
TLSXD_ASAN := $(if $(TLSXD),$(B)/bin/tlsxd-asan)
$(B)/test/test_tlsxd_http: | $(TLSXD) $(TLSXD_REKEY)
$(B)/test-asan/test_tlsxd_http: | $(TLSXD) $(TLSXD_ASAN) $(TLSXD_REKEY)

$(B)/bin/tlsxd-asan: $(TLSXD_DIR)/main.c $(TLSXD_LIB_ASAN) $(ENGINE_LIB_ASAN) \
		$(LIB_ASAN)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $(SAN) -MMD -MP $< \
		$(TLSXD_LIB_ASAN) $(ENGINE_LIB_ASAN) $(LIB_ASAN) $(TLSXD_LIBS) -o $@

$(TLSXD_LIB): $(TLSXD_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(TLSXD_LIB_ASAN): $(TLSXD_OBJS_ASAN)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(B)/bin/tlsxd: $(TLSXD_DIR)/main.c $(TLSXD_LIB) $(LIBTLSX)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -MMD -MP $< $(TLSXD_LIB) \
		$(LIBTLSX) $(TLSXD_LIBS) -o $@

$(B)/obj-static/%.o: %.c | $(KSRC)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -DTLSXD_NO_SYSTEMD -MMD -MP \
		-c $< -o $@

$(B)/bin/tlsxd-static: $(TLSXD_STATIC_OBJS) $(LIBTLSX)
	@mkdir -p $(@D)
	$(CC) -static $(TLSXD_STATIC_OBJS) $(LIBTLSX) -luring -lpthread -o $@

# Test builds of tlsxd whose sending keys seal at most
# TLSXD_TEST_REKEY_LIMIT records (RFC 8446 5.5; the suite's limit is
# 2^24): tlsx_config_freeze() wrapped (test/rekey_limit.c), as the daemon
# has no seam.  tlsxd-rekey for test_tlsxd_http (userspace layer),
# tlsxd-static-rekey for tools/tlsxd/vm-tests (tlsx and tls).  512
# (TLSXD_TEST_REKEY_LIMIT): a 1 MiB send (259 records at most) fits
# under one key.
TLSXD_REKEY_FLAGS = -DTLSXD_TEST_REKEY_LIMIT=$(TLSXD_TEST_REKEY_LIMIT) \
	-Wl,--wrap=tlsx_config_freeze
$(B)/bin/tlsxd-rekey: $(TLSXD_DIR)/main.c $(TLSXD_DIR)/test/rekey_limit.c \
		$(TLSXD_LIB) $(LIBTLSX)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $(TLSXD_REKEY_FLAGS) \
		$(TLSXD_DIR)/main.c $(TLSXD_DIR)/test/rekey_limit.c \
		$(TLSXD_LIB) $(LIBTLSX) $(TLSXD_LIBS) -o $@

$(B)/bin/tlsxd-static-rekey: $(TLSXD_STATIC_OBJS) \
		$(TLSXD_DIR)/test/rekey_limit.c $(LIBTLSX)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $(TLSXD_REKEY_FLAGS) -static \
		$(TLSXD_STATIC_OBJS) $(TLSXD_DIR)/test/rekey_limit.c \
		$(LIBTLSX) -luring -lpthread -o $@

# `tlsx-bench handshake` runs the engine against libssl (in TEST_LIBS).
BENCH_LINK = $(ENGINE_LIB) $(LIB) $(TEST_LIBS)

# The kernel anchor of `tlsx-bench crypto` (tools/bench/crypto_kernel.c):
# 6.12's x86 AEAD assembly from build/ksrc, assembled with the macros of
# tools/bench/kanchor.  Bench-only: in no library and not in tlsx.ko.
KANCHOR_SRC := $(KSRC_DIR)/arch/x86/crypto
KANCHOR_OBJS := $(patsubst %,$(B)/kanchor/%.o,aes-gcm-avx10-x86_64 \
	aes-gcm-aesni-x86_64 chacha-avx512vl-x86_64 chacha-avx2-x86_64 \
	chacha-ssse3-x86_64 poly1305-x86_64-cryptogams)
KANCHOR_ASFLAGS := -Wa,--noexecstack -Itools/bench/kanchor \
	-DCONFIG_AS_AVX512=1 -DCONFIG_AS_VAES=1 -DCONFIG_AS_VPCLMULQDQ=1

$(KANCHOR_SRC)/%:
	@tools/ksrc $(KSRC_DIR)

$(B)/kanchor/poly1305-x86_64-cryptogams.S: \
		$(KANCHOR_SRC)/poly1305-x86_64-cryptogams.pl
	@mkdir -p $(@D)
	perl $< > $@

$(B)/kanchor/%.o: $(KANCHOR_SRC)/%.S $(wildcard tools/bench/kanchor/*/*.h)
	@mkdir -p $(@D)
	$(CC) $(KANCHOR_ASFLAGS) -c $< -o $@

$(B)/kanchor/%.o: $(B)/kanchor/%.S
	$(CC) $(KANCHOR_ASFLAGS) -c $< -o $@

$(HS_TOOLS): $(B)/bin/tlsx-%: tools/tlsx-%/main.c $(TOOL_SRCS) $(TOOL_HDRS) \
		$(LIBTLSX)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -Itools/tlsx-tool \
		$(filter %.c,$^) $(LIBTLSX) -o $@

$(BOGO_SHIM): $(wildcard tools/bogo/*.c tools/bogo/*.h) $(LIBTLSX)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -I$(HS_DIR)/libtlsx \
		$(filter %.c,$^) $(LIBTLSX) -lpthread -o $@

# The commit tlsx-bench records in --json and --plot (machine.c): a
# stamp rewritten only when `git describe` changes, so that a new commit
# rebuilds the benchmark and nothing else.
BENCH_COMMIT := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
BENCH_STAMP := $(B)/bench-commit
$(shell mkdir -p $(B) && { [ "$$(cat $(BENCH_STAMP) 2>/dev/null)" = \
	"$(BENCH_COMMIT)" ] || echo "$(BENCH_COMMIT)" > $(BENCH_STAMP); })
BENCH_DEFS = -DTLSX_BENCH_COMMIT='"$(BENCH_COMMIT)"'

$(B)/bin/tlsx-bench: $(BENCH_SRCS) $(wildcard tools/bench/*.h) $(LIB) \
		$(ENGINE_LIB) $(KANCHOR_OBJS) $(BENCH_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $(BENCH_DEFS) -Itools/bench \
		$(BENCH_SRCS) $(KANCHOR_OBJS) $(BENCH_LINK) -o $@

# The benchmark again, static, for the VM (its initramfs has no libc),
# without the malloc interposition (glibc's static malloc cannot be
# wrapped): its handshake subcommand shows no heap.
$(B)/bin/tlsx-bench-static: $(BENCH_SRCS) $(wildcard tools/bench/*.h) $(LIB) \
		$(ENGINE_LIB) $(KANCHOR_OBJS) $(BENCH_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $(BENCH_DEFS) -Itools/bench -static \
		-DHSB_NO_MALLOC_WRAP $(BENCH_SRCS) $(KANCHOR_OBJS) \
		$(BENCH_LINK) -ldl -o $@

# Selftests are static so the initramfs needs no libc.  A test that
# needs a library names it in SELFTEST_LIBS_<test>.
selftests: $(SELFTESTS)
SELFTEST_LIBS_uring := -luring
SELFTEST_LIBS_openssl := -lssl -lcrypto -ldl
# libtlsx, static, against OpenSSL's server; the syscalls libtlsx makes
# are counted by the test's __wrap_ functions.
SELFTEST_WRAP_libtlsx := read write send sendmsg recvmsg setsockopt \
	getsockopt poll sendfile pread preadv
SELFTEST_LIBS_libtlsx := $(LIBTLSX) -lssl -lcrypto -ldl \
	$(foreach f,$(SELFTEST_WRAP_libtlsx),-Wl,--wrap=$(f))
$(B)/selftests/libtlsx: $(LIBTLSX)

$(B)/selftests/%: selftests/%.c $(wildcard selftests/*.h) $(LIB) | $(KSRC)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $(TEST_CFLAGS) \
		-Iselftests -static $< $(LIB) $(SELFTEST_LIBS_$*) -lpthread \
		-o $@

module: $(MODULES)

KBUILD_SRCS := Kbuild VERSION $(wildcard kmod/*.[ch]) $(AEAD)/aead.mk \
	$(AEAD_SRCS) $(AEAD_SIMD) $(wildcard $(AEAD)/*.h)

# $(call check_kdir,DIR,SERIES)
check_kdir = test -n "$(1)" -a -d "$(1)" || \
	{ echo "no $(2) kernel headers: run 'make deps' as root" >&2; exit 1; }
CHECK_KDIR = $(call check_kdir,$(KDIR),$(KERNEL_DEFAULT))

$(MODULE): $(KBUILD_SRCS)
	@$(CHECK_KDIR)
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(KBUILD_ARGS) modules

module-test: $(TEST_MODULES)

# $(call kbuild_copy,DIR,KDIR,SERIES,ARGS): build the module in a copy of
# its sources in DIR.  Kbuild's outputs in the copy are excluded from the
# transfer, so --delete keeps them and the next build is incremental.
define kbuild_copy
	@$(call check_kdir,$(2),$(3))
	@mkdir -p $(1)
	@rsync -a --delete --prune-empty-dirs \
		--include='/Kbuild' --include='/VERSION' \
		--include='/kmod/' --include='/kmod/*.[ch]' \
		--include='/userspace/' --include='/$(CRYPTO)/' \
		--include='/$(AEAD)/' --include='/$(AEAD)/*.[ch]' \
		--include='/$(AEAD)/*.mk' \
		--exclude='*' ./ $(1)/
	+$(MAKE) -C $(2) M=$(CURDIR)/$(1) $(4) $(KBUILD_ARGS) modules
endef

$(TEST_MODULE): $(KBUILD_SRCS)
	$(call kbuild_copy,$(TEST_MODULE_DIR),$(KDIR),$(KERNEL_DEFAULT),TLSX_TEST_HOOKS=y)

# Each other series: its plain and test builds, in copies, each build
# knowing its series (MODULE_SERIES).
define series_module_rules
$$(MODULE_$(2)) $$(TEST_MODULE_$(2)): MODULE_SERIES := $(1)
endef
$(foreach s,$(KERNEL_OTHERS),$(eval $(call series_module_rules,$(s),$(call series_var,$(s)))))
OTHER_MODULES := $(foreach s,$(KERNEL_OTHERS),$(MODULE_$(call series_var,$(s))))
OTHER_TEST_MODULES := $(foreach s,$(KERNEL_OTHERS),$(TEST_MODULE_$(call series_var,$(s))))

$(OTHER_MODULES): $(KBUILD_SRCS)
	$(call kbuild_copy,$(@D),$(call kdir_of,$(MODULE_SERIES)),$(MODULE_SERIES),)

$(OTHER_TEST_MODULES): $(KBUILD_SRCS)
	$(call kbuild_copy,$(@D),$(call kdir_of,$(MODULE_SERIES)),$(MODULE_SERIES),TLSX_TEST_HOOKS=y)

# --- tests ------------------------------------------------------------
# tools/interop/run: tlsx-client and tlsx-server against OpenSSL, GnuTLS
# and curl over loopback (its certificates made in $(B)/interop).
# tools/tlsxd/clients: curl, openssl s_client and gnutls-cli against
# tlsxd (skipped while tlsxd is not built); tools/tlsxd/h2-frames: RFC
# 9113's MUSTs and the HTTP/2 limits, frame by frame (docs/http2.md).
# tools/tlsxd/fleet: three tlsxd behind haproxy (about 17 s).
# tools/interop/chromium: headless Chromium against tlsx-server and
# tlsxd, X25519MLKEM768 (~30 s).
# tools/check-series: no script
# copies KERNEL_SERIES.
test-unit: $(TESTS) $(TESTS_ASAN) $(CT_TESTS) $(FUZZ) $(FUZZ_CORPUS) \
		$(HS_TOOLS) $(TLSXD) \
		$(BENCH) $(BOGO_SHIM)
	@mkdir -p $(B)/results
	@tools/run-tests --summary $(B)/results/unit.sum \
		$(TESTS) $(TESTS_ASAN) \
		$(foreach t,$(CT_TESTS),'tools/ctgrind $(t)') $(NO_AVX_RUNS) \
		$(FUZZ_RUNS) 'tools/interop/run $(B)' 'tools/tlsxd/clients $(B)' \
		'tools/interop/chromium $(B)' 'tools/bogo/run $(B)' \
		'tools/tlsxd/fleet $(B)' \
		'tools/tlsxd/h2-frames $(B)' \
		'tools/bench/test-opts $(B)/bin/tlsx-bench' \
		'tools/bench/test-out $(B)/bin/tlsx-bench' tools/check-layers \
		tools/check-series

interop: $(HS_TOOLS) $(TLSXD)
	@tools/run-tests 'tools/interop/run $(B)' 'tools/interop/chromium $(B)'

# BoringSSL's BoGo suite against tlsx (tools/bogo/run, docs/testing.md,
# "BoGo"): the runner built from ../shared/third_party/bogo, the shim.
test-bogo: $(BOGO_SHIM)
	@tools/bogo/run $(B)

# The main job: tlsxd serving ROOT (docs/) on https://localhost:PORT/
# (8443) with a self-signed certificate kept in $(B)/serve.
serve: $(B)/bin/tlsxd
	@ROOT="$(ROOT)" PORT="$(PORT)" tools/tlsxd/serve $(B)

# testssl.sh and sslscan against tlsxd (docs/tlsxd-scan.md): some 5
# minutes, so not part of `make test`.
scan: $(TLSXD)
	@tools/tlsxd/scan $(B)

# --- tlsxd in the VM (tools/tlsxd/): make demo, its tests in test-vm --
# curl (and GNU cmp, six times busybox's speed there) run in the guest
# from the host (tools/vm/run --with-bin); the certificate is made here
# once; /etc/mime.types (media-types) as on a server.  Without tlsxd (no
# main.c yet) test-vm runs without them.
TLSXD_VM_DIR := $(B)/tlsxd-vm
TLSXD_VM_CERT := $(TLSXD_VM_DIR)/cert.pem
TLSXD_VM_FILES = --with-bin curl --with-bin cmp \
	--with-file $(TLSXD_VM_CERT):/tlsx/tlsxd/cert.pem \
	--with-file $(TLSXD_VM_DIR)/key.pem:/tlsx/tlsxd/key.pem \
	--with-file tools/tlsxd/demo:/tlsx/tlsxd/demo \
	--with-file tools/tlsxd/vm-tests:/tlsx/tlsxd/vm-tests \
	--with-file $(TLSXD_VM_KU):/tlsx/tlsxd/ku-client \
	--with-file $(TLSXD_VM_ALERT):/tlsx/tlsxd/alert-client \
	--with-file $(TLSXD_VM_H2STALL):/tlsx/tlsxd/h2-stall-client \
	$(if $(wildcard /etc/mime.types),--with-file /etc/mime.types:/etc/mime.types)
# The KeyUpdate client of vm-tests (issue 26 item 1), static like tlsxd's
# VM build.
TLSXD_VM_KU := $(TLSXD_VM_DIR)/ku-client
$(TLSXD_VM_KU): tools/tlsxd/ku-client.c $(LIBTLSX)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -static $< $(LIBTLSX) -lpthread \
		-o $@
# The client of vm-tests' alert cases: forbidden records after the
# handshake (a bad tag, a KeyUpdate split by a request), static.
TLSXD_VM_ALERT := $(TLSXD_VM_DIR)/alert-client
$(TLSXD_VM_ALERT): tools/tlsxd/alert-client.c selftests/tlsx_test.h $(LIBTLSX)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -static $< $(LIBTLSX) -lpthread \
		-o $@
# The HTTP/2 client of vm-tests' stalled stream (issue 31): libtlsx,
# tlsxd's frame writers and HPACK encoder.
TLSXD_VM_H2STALL := $(TLSXD_VM_DIR)/h2-stall-client
$(TLSXD_VM_H2STALL): tools/tlsxd/h2-stall-client.c $(TLSXD_DIR)/h2/h2_frame.c \
		$(wildcard $(TLSXD_DIR)/h2/hpack*.c) $(LIBTLSX)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -static $(filter %.c,$^) \
		$(LIBTLSX) -lpthread -o $@
TLSXD_VM_DEPS := $(if $(TLSXD_STATIC),$(TLSXD_STATIC) $(TLSXD_STATIC_REKEY) \
	$(TLSXD_VM_CERT) $(TLSXD_VM_KU) $(TLSXD_VM_ALERT) $(TLSXD_VM_H2STALL))
TLSXD_VM_ARGS = $(if $(TLSXD_STATIC),$(TLSXD_VM_FILES))
TLSXD_VM_TESTS := $(if $(TLSXD_STATIC),/tlsx/tlsxd/vm-tests)
NO_TLSXD = { echo "no tlsxd yet ($(TLSXD_DIR)/main.c)" >&2; exit 1; }

# How tlsx-client and tlsx-server close, on each record layer
# (tools/interop/vm-close): against nginx and gnutls-cli in the guest,
# with tlsxd's VM certificate.
CLOSE_VM_ARGS = --with-bin /usr/sbin/nginx --with-bin gnutls-cli \
	--with-bin cmp \
	--with-file $(TLSXD_VM_CERT):/tlsx/interop/cert.pem \
	--with-file $(TLSXD_VM_DIR)/key.pem:/tlsx/interop/key.pem \
	--with-file tools/interop/vm-close:/tlsx/interop/vm-close
CLOSE_VM_DEPS := $(HS_TOOLS) $(TLSXD_VM_CERT)
CLOSE_VM_TESTS := /tlsx/interop/vm-close

# Every selftest in one boot.  With the AES-CCM variants it outgrew
# tools/vm/run's default 600 s with another VM on the machine; this bound
# leaves room for a loaded machine and still ends a hung guest.
# One boot per kernel series (VM_KERNELS), each with its own test build
# of the module.  The stress test runs STRESS_SECONDS per ULP: its full
# length on the default series, a short run on the others (VM_STRESS_SHORT), to
# keep CI's whole run under 30 minutes.
VM_TIMEOUT ?= 1800
VM_STRESS_SHORT ?= 5
VM_TEST_MODULE = $(call test_module_of,$(1))
vm_selftests = $(foreach t,$(notdir $(SELFTESTS)),$(if $(and \
	$(filter stress,$(t)),$(filter-out $(KERNEL_DEFAULT),$(1))),\
	'env STRESS_SECONDS=$(VM_STRESS_SHORT) /tlsx/selftests/$(t)',\
	/tlsx/selftests/$(t)))
# The kernels boot at once (VM_JOBS, default one per kernel: each guest
# spends much of its time waiting on its tests' timers, so two share the
# machine's CPUs well); each kernel's console is printed whole when it
# ends (make -O) and kept in $(B)/results/vm-SERIES.log.  VM_JOBS=1
# boots them one after the other.
VM_JOBS ?= $(words $(VM_KERNELS))
test-vm: $(foreach k,$(VM_KERNELS),$(call VM_TEST_MODULE,$(k))) $(SELFTESTS) \
		$(TLSXD_VM_DEPS)
	@mkdir -p $(B)/results
	@rm -f $(foreach k,$(VM_KERNELS),$(B)/results/vm-$(k).sum)
	@rc=0; $(MAKE) --no-print-directory -j$(VM_JOBS) -O \
		$(addprefix test-vm-kernel-,$(VM_KERNELS)) || rc=1; \
	tools/run-tests --total $(addprefix $(B)/results/vm-,\
		$(addsuffix .sum,$(VM_KERNELS))) > $(B)/results/vm.total; \
	echo "test-vm ($(VM_KERNELS)): $$(cat $(B)/results/vm.total)"; \
	exit $$rc

# One kernel's boot: every selftest and tlsxd's VM tests.
define vm_suite
.PHONY: test-vm-kernel-$(1)
test-vm-kernel-$(1): $(call VM_TEST_MODULE,$(1)) $(SELFTESTS) $(TLSXD_VM_DEPS) \
		$(CLOSE_VM_DEPS)
	@mkdir -p $(B)/results
	@echo "==== test-vm: kernel $(1)"
	@set -o pipefail; tools/vm/run --kernel $(1) --load tls --load tlsx \
		--timeout $(VM_TIMEOUT) $(TLSXD_VM_ARGS) $(CLOSE_VM_ARGS) \
		--summary $(B)/results/vm-$(1).sum -- \
		run-tests $(call vm_selftests,$(1)) $(TLSXD_VM_TESTS) \
		$(CLOSE_VM_TESTS) 2>&1 | \
		tee $(B)/results/vm-$(1).log
endef
$(foreach k,$(VM_KERNELS),$(eval $(call vm_suite,$(k))))

# Run every time (quick when the certificate is still good): mkcerts
# makes it again before it expires.
$(TLSXD_VM_CERT): FORCE
	@tools/interop/mkcerts --self-signed $@ $(@D)/key.pem

FORCE:

.PHONY: demo test-vm-tlsxd
# The shipped module (no test hooks), as a user runs it.
demo: $(MODULE) $(TLSXD_VM_DEPS)
	@test -n "$(TLSXD_STATIC)" || $(NO_TLSXD)
	@tools/vm/run --module $(MODULE) --load tls --load tlsx \
		--timeout 600 $(TLSXD_VM_FILES) -- /tlsx/tlsxd/demo

# tlsxd's VM tests alone (test-vm runs them after the selftests).
# The closing cases alone (test-vm runs them after the selftests).
.PHONY: test-vm-close
test-vm-close: $(TEST_MODULE) $(CLOSE_VM_DEPS)
	@mkdir -p $(B)/results
	@tools/vm/run --load tls --load tlsx --timeout 900 $(CLOSE_VM_ARGS) \
		--summary $(B)/results/vm-close.sum -- run-tests $(CLOSE_VM_TESTS)

test-vm-tlsxd: $(TEST_MODULE) $(TLSXD_VM_DEPS)
	@test -n "$(TLSXD_STATIC)" || $(NO_TLSXD)
	@mkdir -p $(B)/results
	@tools/vm/run --load tls --load tlsx --timeout 900 \
		$(TLSXD_VM_FILES) --summary $(B)/results/vm-tlsxd.sum -- \
		run-tests /tlsx/tlsxd/vm-tests

# Everything is built first (one make, every CPU), then the tests run in
# two lanes side by side (TEST_JOBS): the unit tests and then the
# packaging tests on this machine, and the VM suites.  A TCG guest spends
# most of its time waiting on its tests' timers (about 0.3 of a CPU each,
# measured), so the first lane keeps the CPUs; built first, the two never
# build one file at once.  Each lane's output is printed whole when it
# ends (make -O).  TEST_JOBS=1 runs the lanes one after the other.
TEST_JOBS ?= 2
test:
	@rm -f $(B)/results/unit.sum $(B)/results/vm-*.sum $(B)/results/pkg.sum
	@$(MAKE) --no-print-directory -j$(shell nproc) all || true
	@$(MAKE) --no-print-directory check-deps || true
	@$(MAKE) --no-print-directory -k -j$(TEST_JOBS) -O test-host-lane \
		test-vm || true
	@tools/run-tests --total $(B)/results/unit.sum \
		$(addprefix $(B)/results/vm-,$(addsuffix .sum,$(VM_KERNELS))) \
		$(B)/results/deps.sum $(B)/results/pkg.sum

# make test's first lane.
.PHONY: test-host-lane
test-host-lane:
	@$(MAKE) --no-print-directory test-unit || true
	@$(MAKE) --no-print-directory test-pkg || true

# Every program the Makefile, .ci/run and tools/ run comes from a package
# tools/deps installs or from Debian's essential/required set (one test
# per program; tools/check-deps).
.PHONY: check-deps
check-deps:
	@mkdir -p $(B)/results
	@rm -f $(B)/results/deps.sum
	@tools/run-tests --summary $(B)/results/deps.sum tools/check-deps

# --- long runs, not in CI ---------------------------------------------
# The kernel's own tls.c selftest against tls and tlsx (ULP=tls or
# ULP=tlsx for one), a debug kernel run, the throughput benchmark.
test-compat: $(foreach k,$(COMPAT_KERNELS),$(call VM_TEST_MODULE,$(k))) | $(KSRC)
	@rc=0; $(foreach k,$(COMPAT_KERNELS), \
		COMPAT_KERNEL=$(k) tools/compat/run $(ULP) || rc=1;) exit $$rc

# DEBUG_KVER=SERIES for another series' debug kernel
# (build/debug-kernel-SERIES).
DEBUG_KVER ?= $(KERNEL_DEFAULT)
test-debug: | $(KSRC)
	@DEBUG_KVER=$(DEBUG_KVER) tools/debug-kernel/run

# tlsx against the kernel's tls, one boot per kernel (ratios in one boot).
# BENCH_VM_ARGS=--icount: the guest's clock counts instructions (tools/vm/run).
bench-vm: $(foreach k,$(VM_KERNELS),$(call VM_TEST_MODULE,$(k))) \
		$(B)/bin/tlsx-bench-static
	@rc=0; $(foreach k,$(VM_KERNELS), \
		echo "==== bench-vm: kernel $(k)"; \
		tools/vm/run $(BENCH_VM_ARGS) --kernel $(k) --load tls --load tlsx \
			--timeout 3600 -- \
			/tlsx/bin/tlsx-bench-static kmod $(BENCH_ARGS) || rc=1;) \
		exit $$rc

lint: $(KSRC)
	@tools/lint

bench: bench-crypto bench-hs

# The AEADs warm (records back to back), then cold (other code and data
# run between records: tlsx-bench crypto --cold), then the primitives.
bench-crypto: $(BENCH)
	$(BENCH) crypto
	$(BENCH) crypto --cold
	$(BENCH) hs

# Whole TLS 1.3 handshakes against libssl (docs/perf-handshake.md);
# BENCH_HS_ARGS="--rounds 21 --csv FILE" and so on.
bench-hs: $(BENCH)
	$(BENCH) handshake $(BENCH_HS_ARGS)

# tlsxd against nginx over HTTPS with h2load (or wrk: --wrk), the load
# generator's CPU beside the server's (docs/perf-http.md).  By default
# each server is capped at 0.2 CPU with h2load on two threads, so that
# on a 2-CPU machine the rates are the servers' (root: cgroups);
# BENCH_HTTP_ARGS="--rounds 7 --csv FILE" and so on replaces that.
BENCH_HTTP_ARGS ?= --server-cpu 0.2 --load-threads 2
bench-http: $(BENCH) $(TLSXD)
	$(BENCH) http $(BENCH_HTTP_ARGS)

# One page a user attaches to a question and docs/perf-*.md quote:
# tlsx-bench crypto --sweep, handshake and http (BENCH_HTTP_ARGS) with
# their JSON records and figures, the machine and the commit, into
# build/report/report.md; REPORT_VM=1 adds tlsx-bench kmod --sweep in
# the VM (tools/bench/kmod-vm).  REPORT_CRYPTO_ARGS, REPORT_HS_ARGS and
# REPORT_KMOD_ARGS replace each run's options.
bench-report: $(BENCH) $(TLSXD) \
		$(if $(REPORT_VM),$(TEST_MODULE) $(B)/bin/tlsx-bench-static)
	@REPORT_VM="$(REPORT_VM)" BENCH_HTTP_ARGS="$(BENCH_HTTP_ARGS)" \
		REPORT_CRYPTO_ARGS="$(REPORT_CRYPTO_ARGS)" \
		REPORT_HS_ARGS="$(REPORT_HS_ARGS)" \
		REPORT_KMOD_ARGS="$(REPORT_KMOD_ARGS)" \
		tools/bench/report $(B)/report

# The same in the VM: tlsxd on tlsx.ko and on tls vs nginx with kTLS
# (emulated CPU: ratios only); BENCH_HTTP_VM_ARGS replaces its options.
bench-http-vm: $(TEST_MODULE) $(B)/bin/tlsx-bench-static $(TLSXD_STATIC)
	@tools/bench/http-vm $(BENCH_HTTP_VM_ARGS)

clean:
	rm -rf $(B)
	-test -z "$(KDIR)" || $(MAKE) -C $(KDIR) M=$(CURDIR) clean

-include $(LIB_OBJS:.o=.d) $(LIB_OBJS_ASAN:.o=.d)
-include $(ENGINE_OBJS:.o=.d) $(ENGINE_OBJS_ASAN:.o=.d)
-include $(LIBTLSX_PIC_OBJS:.o=.d)
-include $(TLSXD_OBJS:.o=.d) $(TLSXD_OBJS_ASAN:.o=.d) \
	$(TLSXD_STATIC_OBJS:.o=.d) $(wildcard $(B)/bin/*.d)
-include $(wildcard $(B)/test/*.d $(B)/test-asan/*.d $(B)/fuzz/*.d \
	$(B)/obj-fuzz/*/*/*.d \
	$(B)/obj-fuzz/*/*/*/*.d)

# --- install, DKMS, Debian packages (tools/packaging/) -----------------
# `make install` (PREFIX, DESTDIR for staging) puts the programs, libtlsx,
# its header and tlsx.pc, the man pages, the example configuration and
# the systemd units where a system looks for them; `make uninstall`
# removes the same list.  The Debian build (tools/packaging/debian/rules)
# runs it with PREFIX=/usr and its own LIBDIR and SYSTEMDUNITDIR.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
SBINDIR ?= $(PREFIX)/sbin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/tlsxd
SYSCONFDIR ?= $(if $(filter /usr,$(PREFIX)),/etc,$(PREFIX)/etc)
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
MODULESLOADDIR ?= $(PREFIX)/lib/modules-load.d
# INSTALL_MODULES_LOAD=1 also installs modules-load.d/tlsx.conf (tlsx.ko
# and the kernel's tls loaded at boot).
INSTALL_MODULES_LOAD ?=
PKG := tools/packaging
LIBTLSX_REAL := libtlsx.so.$(VERSION)
SO_NAME := libtlsx.so.$(SOMAJOR)
INSTALL_BINS := tlsx-client tlsx-server tlsx-bench
MAN_PAGES := $(wildcard $(PKG)/man/*.[1358])
# Every directive (tools/tlsxd/), and the one tlsxd.service runs with.
CONF_EXAMPLE := tools/tlsxd/tlsxd.conf.example
# Files the templates in $(PKG) become, with the install's paths in them.
PKG_SUBST = sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@PREFIX@|$(PREFIX)|g' \
	-e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' \
	-e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g'
INSTALLED_FILES = $(addprefix $(BINDIR)/,$(INSTALL_BINS)) $(SBINDIR)/tlsxd \
	$(LIBDIR)/$(LIBTLSX_REAL) $(LIBDIR)/$(SO_NAME) $(LIBDIR)/libtlsx.so \
	$(LIBDIR)/libtlsx.a $(INCLUDEDIR)/tlsx.h $(LIBDIR)/pkgconfig/tlsx.pc \
	$(foreach m,$(MAN_PAGES),$(MANDIR)/man$(subst .,,$(suffix $(m)))/$(notdir $(m))) \
	$(DOCDIR)/tlsxd.conf.example $(DOCDIR)/tlsxd.service.conf \
	$(SYSTEMDUNITDIR)/tlsxd.service $(SYSTEMDUNITDIR)/tlsxd.socket \
	$(SYSUSERSDIR)/tlsxd.conf $(MODULESLOADDIR)/tlsx.conf
INSTALLED_DIRS = $(DOCDIR)

.PHONY: install uninstall dkms-install dkms-uninstall deb test-pkg

# A change of VERSION rebuilds what prints it or is named by it.
$(ENGINE_OBJS) $(ENGINE_OBJS_ASAN) $(LIBTLSX_PIC_OBJS) $(TLSXD_OBJS) \
	$(TLSXD_OBJS_ASAN) $(TLSXD_STATIC_OBJS) $(B)/bin/tlsxd $(HS_TOOLS): VERSION

# What the templates are filled with, rewritten only when it changes: a
# file made for one PREFIX is remade for another (test-install's
# /usr/local, then make deb DEB_REUSE=1's /usr in the same $(B)).
PKG_VALUES = $(VERSION) $(PREFIX) $(LIBDIR) $(INCLUDEDIR) $(SBINDIR) \
	$(SYSCONFDIR) $(DKMS_SERIES)
.PHONY: pkg-values-check
$(B)/pkg/values: pkg-values-check
	@mkdir -p $(@D)
	@echo '$(PKG_VALUES)' | cmp -s - $@ || echo '$(PKG_VALUES)' > $@

$(B)/pkg/tlsx.pc: $(PKG)/tlsx.pc.in $(B)/pkg/values
	@mkdir -p $(@D)
	$(PKG_SUBST) $< > $@

$(B)/pkg/tlsxd.service: $(PKG)/tlsxd.service.in $(B)/pkg/values
	@mkdir -p $(@D)
	$(PKG_SUBST) $< > $@

# The installed header carries the version (tlsx.h says "unknown" alone).
$(B)/pkg/tlsx.h: userspace/handshake/libtlsx/tlsx.h VERSION
	@mkdir -p $(@D)
	sed 's|^#define TLSX_VERSION_STRING\t"unknown"$$|#define TLSX_VERSION_STRING\t"$(VERSION)"|' \
		$< > $@
	grep -q '"$(VERSION)"' $@

install: $(B)/bin/tlsxd $(HS_TOOLS) $(B)/bin/tlsx-bench $(LIBTLSX) \
		$(LIBTLSX_SO) $(B)/pkg/tlsx.pc $(B)/pkg/tlsxd.service \
		$(B)/pkg/tlsx.h
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SBINDIR) \
		$(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR) \
		$(DESTDIR)$(DOCDIR) $(DESTDIR)$(SYSTEMDUNITDIR) \
		$(DESTDIR)$(SYSUSERSDIR) \
		$(addprefix $(DESTDIR)$(MANDIR)/man,$(sort $(subst .,,$(suffix $(MAN_PAGES)))))
	install -m 755 $(addprefix $(B)/bin/,$(INSTALL_BINS)) $(DESTDIR)$(BINDIR)
	install -m 755 $(B)/bin/tlsxd $(DESTDIR)$(SBINDIR)
	install -m 644 $(LIBTLSX_SO) $(DESTDIR)$(LIBDIR)/$(LIBTLSX_REAL)
	ln -sf $(LIBTLSX_REAL) $(DESTDIR)$(LIBDIR)/$(SO_NAME)
	ln -sf $(SO_NAME) $(DESTDIR)$(LIBDIR)/libtlsx.so
	install -m 644 $(LIBTLSX) $(DESTDIR)$(LIBDIR)
	install -m 644 $(B)/pkg/tlsx.h $(DESTDIR)$(INCLUDEDIR)
	install -m 644 $(B)/pkg/tlsx.pc $(DESTDIR)$(LIBDIR)/pkgconfig
	$(foreach m,$(MAN_PAGES),install -m 644 $(m) \
		$(DESTDIR)$(MANDIR)/man$(subst .,,$(suffix $(m)))/ &&) true
	install -m 644 $(CONF_EXAMPLE) $(PKG)/tlsxd.service.conf $(DESTDIR)$(DOCDIR)
	install -m 644 $(B)/pkg/tlsxd.service $(PKG)/tlsxd.socket \
		$(DESTDIR)$(SYSTEMDUNITDIR)
	install -m 644 $(PKG)/tlsxd.sysusers $(DESTDIR)$(SYSUSERSDIR)/tlsxd.conf
ifneq ($(INSTALL_MODULES_LOAD),)
	install -d $(DESTDIR)$(MODULESLOADDIR)
	install -m 644 $(PKG)/modules-load.conf $(DESTDIR)$(MODULESLOADDIR)/tlsx.conf
endif
	@test -n "$(DESTDIR)" || ! command -v ldconfig >/dev/null || ldconfig

# Only the files install writes, and the directories left empty by that.
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED_FILES))
	-rmdir $(addprefix $(DESTDIR),$(INSTALLED_DIRS)) 2>/dev/null
	@test -n "$(DESTDIR)" || ! command -v ldconfig >/dev/null || ldconfig


# DKMS: the module's source under /usr/src/tlsx-VERSION with its
# dkms.conf (dkms-src, also what the tlsx-dkms package ships), then dkms
# add, build and install for the running kernel (dkms-install, root;
# DKMS_KVER=... for another installed kernel).  The selftests' debugfs
# hooks stay out of the shipped source.
DKMS_SRC := /usr/src/tlsx-$(VERSION)
DKMS_KVER ?= $(shell uname -r)
DKMS_FILES := Kbuild VERSION $(filter-out kmod/debugfs_%,$(wildcard kmod/*.[ch])) \
	$(AEAD)/aead.mk $(wildcard $(AEAD)/*.[ch])
# The kernel series DKMS builds tlsx for (dkms.conf's BUILD_EXCLUSIVE_KERNEL,
# ^(6\.1|6\.12)\. for 6.1 and 6.12); other kernels are skipped with a
# message, not failed.
DKMS_SERIES := $(KERNEL_SERIES)
DKMS_SUBST = $(PKG_SUBST) -e 's|@DKMS_SERIES@|$(call and_list,$(DKMS_SERIES))|g' \
	-e 's\#@DKMS_SERIES_RE@\#^($(subst $(space),|,$(subst .,\\.,$(DKMS_SERIES))))\\.\#g'
# New kernels: tlsx's hook (kernel-hook.in, for dkms.conf's AUTOINSTALL),
# run by a kernel image's and a headers package's postinst.
DKMS_HOOKS := /etc/kernel/postinst.d/tlsx-dkms \
	/etc/kernel/header_postinst.d/tlsx-dkms

$(B)/pkg/dkms.conf: $(PKG)/dkms.conf.in $(B)/pkg/values
	@mkdir -p $(@D)
	$(DKMS_SUBST) $< > $@

$(B)/pkg/kernel-hook: $(PKG)/kernel-hook.in $(B)/pkg/values
	@mkdir -p $(@D)
	$(DKMS_SUBST) $< > $@

.PHONY: dkms-src
dkms-src: $(B)/pkg/dkms.conf
	rm -rf $(DESTDIR)$(DKMS_SRC)
	$(foreach d,$(sort $(dir $(DKMS_FILES))),install -d $(DESTDIR)$(DKMS_SRC)/$(d) &&) true
	$(foreach f,$(DKMS_FILES),install -m 644 $(f) $(DESTDIR)$(DKMS_SRC)/$(f) &&) true
	install -m 644 $(B)/pkg/dkms.conf $(DESTDIR)$(DKMS_SRC)

.PHONY: dkms-hooks
dkms-hooks: $(B)/pkg/kernel-hook
	$(foreach h,$(DKMS_HOOKS),install -D -m 755 $< $(DESTDIR)$(h) &&) true

dkms-install: dkms-src dkms-hooks
	dkms add tlsx/$(VERSION)
	dkms build tlsx/$(VERSION) -k $(DKMS_KVER)
	dkms install tlsx/$(VERSION) -k $(DKMS_KVER)

dkms-uninstall:
	-dkms remove tlsx/$(VERSION) --all
	rm -rf $(DKMS_SRC)
	rm -f $(DKMS_HOOKS)

# Debian packages: tlsx-dkms, libtlsx0, libtlsx-dev and tlsxd, built by
# dpkg-buildpackage from tools/packaging/debian/ assembled under
# $(B)/deb/tlsx-VERSION (the .debs land in $(B)/deb/), then checked by
# lintian.  The rules run this Makefile: by default into a build
# directory of their own with Debian's hardening flags; DEB_REUSE=1
# packages the objects `make` already built in $(B) (what CI does).
DEB_DIR := $(B)/deb
DEB_TREE := $(DEB_DIR)/tlsx-$(VERSION)
DEB_REUSE ?=

deb: $(B)/pkg/dkms.conf
	rm -rf $(DEB_TREE) $(DEB_DIR)/*.deb $(DEB_DIR)/*.changes \
		$(DEB_DIR)/*.buildinfo
	mkdir -p $(DEB_TREE)
	cp -r $(PKG)/debian $(DEB_TREE)/
	cp $(PKG)/tlsxd.sysusers $(DEB_TREE)/debian/tlsxd.sysusers
	sed -e 's|@VERSION@|$(VERSION)|' -e "s|@DATE@|$$(date -R -r VERSION)|" \
		$(PKG)/debian/changelog.in > $(DEB_TREE)/debian/changelog
	$(DKMS_SUBST) -e 's|@KERNEL_DEFAULT@|$(KERNEL_DEFAULT)|g' \
		$(PKG)/debian/control.in > $(DEB_TREE)/debian/control
	rm $(DEB_TREE)/debian/changelog.in $(DEB_TREE)/debian/control.in
	cd $(DEB_TREE) && TLSX_TOP=$(CURDIR) \
		TLSX_B=$(if $(DEB_REUSE),$(B),$(B)/deb/obj) \
		dpkg-buildpackage -b -us -uc
	lintian --info --display-info $(DEB_DIR)/tlsx_$(VERSION)-1_*.changes \
		| tee $(DEB_DIR)/lintian.txt

# The tests of all the above (in `make test`): a staged install, DKMS's
# module in the VM, the .debs installed, run and purged on this machine.
PKG_TESTS := tools/packaging/test-install tools/packaging/test-dkms \
	tools/packaging/test-deb
test-pkg: lib $(B)/bin/tlsxd $(HS_TOOLS) $(BENCH) $(SELFTESTS)
	@mkdir -p $(B)/results
	@tools/run-tests --summary $(B)/results/pkg.sum \
		$(foreach t,$(PKG_TESTS),'$(t) $(B)')

# For tools/: KDIR, each series' KDIR (print-kdir-6.1), the series.
.PHONY: print-kernel-series print-kernel-default print-kernel-others
print-kdir:
	@echo $(KDIR)

print-kdir-%:
	@echo $(if $(filter $*,$(KERNEL_SERIES)),$(call kdir_of,$*),$(error \
		print-kdir-$*: $* is no series of KERNEL_SERIES))

print-kernel-series:
	@echo $(KERNEL_SERIES)

print-kernel-default:
	@echo $(KERNEL_DEFAULT)

print-kernel-others:
	@echo $(KERNEL_OTHERS)
