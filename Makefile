# pathbench - one plain GNU Makefile.
#
#   make            build the library and programs into bin/
#   make test       install missing Debian packages, build with -Werror, run all tests
#   make check      build with -Werror and run all tests (no package step)
#   make asan       the same tests under AddressSanitizer + UBSan
#   make bench      speed and memory benchmarks (never part of the tests)
#   make test-slurm the quick sweep as a Slurm job array on a local one-node Slurm
#   make figures    regenerate the papers' figures (the main job)
#   make realbench  every algorithm on every real trace set (out/realbench.*)
#   make readme     refresh the README's generated tables from out/figures/
#   make install    PREFIX=/usr/local DESTDIR=

PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
BIN     ?= bin
CC      ?= cc

LIBDIRS  := core maketrace skewer sniffer algorithms algorithms/precise metrics importer
WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wpointer-arith -Wformat=2 -Wundef -Wcast-align -Wwrite-strings \
            -Wno-unused-parameter
OPT      ?= -O2 -g
CPPFLAGS += -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(addprefix -I,$(LIBDIRS))
CFLAGS   ?=
CFLAGS   += -std=c11 $(OPT) $(WARN) $(EXTRA_CFLAGS)
ifeq ($(WERROR),1)
CFLAGS   += -Werror
endif
LDLIBS   += -lpcap -ljansson -larchive -lz -lfftw3 -lglpk -lgsl -lgslcblas -lcsv -lm

LIB_SRCS  := $(sort $(foreach d,$(LIBDIRS),$(wildcard $(d)/*.c)))
LIB_OBJS  := $(patsubst %.c,$(BUILD)/obj/%.o,$(LIB_SRCS))
LIB       := $(BUILD)/libpathbench.a
PROG_SRCS := $(sort $(wildcard programs/*.c))
PROGS     := $(patsubst programs/%.c,$(BIN)/%,$(PROG_SRCS))
TEST_SRCS := $(sort $(wildcard tests/unit/test_*.c))
TEST_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(TEST_SRCS))
BENCH_SRCS:= $(sort $(wildcard tests/bench/bench_*.c))
BENCHES   := $(patsubst tests/bench/%.c,$(BUILD)/bench/%,$(BENCH_SRCS))
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz_*.c))

.SECONDARY:

.PHONY: all test check asan bench fuzz figures report readme regress install clean deps tests-build test-slurm capture-demo realbench

all: $(PROGS) $(BUILD)/libpbcapture.so

# the interposition library of bin/pbcapture (docs/capture.md): not part of
# libpathbench; built position-independent and loaded with LD_PRELOAD, never
# with the sanitizers (their runtime must come first in a process; the
# programs it is preloaded into are not built with them)
$(BUILD)/libpbcapture.so: capture/pbcapture_preload.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 -g $(WARN) $(if $(filter 1,$(WERROR)),-Werror) \
	  -fPIC -shared -fvisibility=hidden -o $@ $< -ldl -pthread

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(BIN)/%: $(BUILD)/obj/programs/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) $< $(LIB) $(LDLIBS) -o $@

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) $< $(LIB) $(LDLIBS) -o $@

$(BUILD)/bench/%: $(BUILD)/obj/tests/bench/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) $< $(LIB) $(LDLIBS) -o $@

tests-build: $(PROGS) $(BUILD)/libpbcapture.so $(TEST_BINS)

deps:
	@sh scripts/deps.sh

# The README's test command: packages, then the strict build, then every test.
test: deps
	@$(MAKE) --no-print-directory check

check:
	@$(MAKE) --no-print-directory WERROR=1 tests-build
	@PB_BIN=$(abspath $(BIN)) PB_TESTBIN=$(abspath $(BUILD)/tests) sh tests/run.sh

asan:
	@$(MAKE) --no-print-directory BUILD=build/asan BIN=build/asan/bin WERROR=1 \
	  OPT="-O1 -g -fno-omit-frame-pointer" \
	  EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=address,undefined" tests-build
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  PB_BIN=$(abspath build/asan/bin) PB_TESTBIN=$(abspath build/asan/tests) \
	  PB_SANITIZED=1 sh tests/run.sh

bench: $(PROGS) $(BENCHES)
	@PB_BIN=$(abspath $(BIN)) PB_BENCHBIN=$(abspath $(BUILD)/bench) sh tests/bench/run.sh

# A single-node Slurm started in a scratch folder runs the quick sweep as a
# job array; results must be byte-identical to the local run (not in make
# test: it installs slurm-wlm and munge and starts daemons, then stops them).
test-slurm: all
	@PB_BIN=$(abspath $(BIN)) sh tests/slurm/run.sh

fuzz:
	@sh scripts/deps.sh fuzz
	@sh tests/fuzz/run.sh

figures: deps
	@$(MAKE) --no-print-directory all
	@sh experiments/run_all.sh $(FIGURES_ARGS)

report:
	@sh experiments/report.sh

# The cross-system benchmark: every algorithm on every real set of data/
# (docs/realbench.md); out/realbench.{md,html,csv}.  REALBENCH_ARGS adds
# options, e.g. REALBENCH_ARGS="--exec mine='python3 mine.py'".
realbench: all
	@sh experiments/realbench.sh $(REALBENCH_ARGS)

# The README's generated tables, from the last `make figures` (docs/DEVELOPING.md).
readme:
	@if [ -f out/figures/verdicts_summary.md ]; then \
	  sh scripts/readme_tables.sh figures out/figures/verdicts_summary.md; \
	else sh scripts/readme_tables.sh --from-table '| figure |' figures out/figures/report.md; fi

regress: all
	@sh experiments/regress.sh

# The live test system captured by interposition and tcpdump, every
# algorithm scored (docs/capture.md; about 4 minutes; needs root for the
# packets; not part of make test): installs python3 and tcpdump if missing.
capture-demo: all
	@sh scripts/deps.sh capture
	@sh experiments/capture_demo.sh $(CAPTURE_ARGS)
	@sh experiments/report.sh

install: $(PROGS) $(BUILD)/libpbcapture.so
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/pathbench/configs
	install -m 755 $(PROGS) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 maketrace/configs/*.conf $(DESTDIR)$(PREFIX)/share/pathbench/configs/

clean:
	rm -rf build bin

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
