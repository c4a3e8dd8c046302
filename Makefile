# pathbench - one plain GNU Makefile.
#
#   make            build the library and programs into bin/
#   make test       install missing Debian packages, build with -Werror, run all tests
#   make check      build with -Werror and run all tests (no package step)
#   make asan       the same tests under AddressSanitizer + UBSan (a second build;
#                   prints what it took)
#   make bench      speed and memory benchmarks into out/bench/speed.md (never part of
#                   the tests; PB_BENCH_README=1 merges the rows into the README)
#   make test-slurm the quick sweep as a Slurm job array on a local one-node Slurm
#                   (installs slurm-wlm and munge when missing; prints its durations)
#   make figures    regenerate the papers' figures (the main job)
#   make realbench  every algorithm on every real trace set (out/realbench.*)
#   make readme     refresh the README's generated tables from out/figures/
#   make install    PREFIX=/usr/local DESTDIR= : programs, man pages, configs,
#                   docs, experiment scripts, libpathbench (.a, .so), headers,
#                   pathbench.pc (docs/install.md)

# Every core by default: a clean build is ~30 s on 2 cores, ~60 s one file
# at a time.  A -jN on the command line wins (make -j1 builds serially).
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)

PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
BIN     ?= bin
CC      ?= cc
# the release version; the git commit is added at build time (pb_version.h)
VERSION := 0.9.0
SOVERSION := 0

# joint's families have folders of their own (docs/joint.md, "Where the
# code is"; its headers stay in algorithms/joint/); a new family's folder
# is added here, on this one line (tests/sh/test_lib_silent.sh,
# test_no_recursion.sh and tests/fuzz/run.sh read it).
ALGODIRS := algorithms/joint algorithms/joint/core algorithms/joint/model algorithms/joint/cand algorithms/joint/search algorithms/joint/resplit algorithms/joint/repair algorithms/joint/order algorithms/joint/held algorithms/joint/busy algorithms/joint/late algorithms/joint/conf algorithms/joint/selfcal algorithms/joint/loss algorithms/joint/unp algorithms/joint/ticks algorithms/joint/shapes algorithms/convolution algorithms/nesting algorithms/linking algorithms/baseline algorithms/precise
LIBDIRS  := core maketrace skewer sniffer algorithms $(ALGODIRS) metrics importer
WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wpointer-arith -Wformat=2 -Wundef -Wcast-align -Wwrite-strings \
            -Wno-unused-parameter
# -O3: 3-5 % fewer instructions than -O2 on the real sets, every output
# bit-identical (docs/joint/speed_w29.md); -std=c11 keeps floating-point
# contraction off, and no flag here relaxes IEEE semantics.  Link-time
# optimisation (OPT="-O3 -g -flto=auto") saves 6-10 %, also exact, but
# more than doubles a clean build (the whole-program link of each
# program), so it is opt-in; OPT="-O2 -g" is the old build.
OPT      ?= -O3 -g
CPPFLAGS += -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(addprefix -I,$(LIBDIRS)) -I$(BUILD)/gen
CFLAGS   ?=
CFLAGS   += -std=c11 $(OPT) $(WARN) $(EXTRA_CFLAGS)
# Under -flto the objects also carry plain code (-ffat-lto-objects): the
# programs and the libraries are optimised whole at the link; the unit tests
# and benchmarks link that plain code (-fno-lto: a whole-program optimisation
# of each of ~100 small test programs would triple the build)
LTO      := $(if $(findstring -flto,$(OPT) $(EXTRA_CFLAGS)),1)
FATLTO   := $(if $(LTO),-ffat-lto-objects)
NOLTO    := $(if $(LTO),-fno-lto)
ifeq ($(WERROR),1)
CFLAGS   += -Werror
endif
LDLIBS   += -lnghttp2 -lpcap -ljansson -larchive -lz -lfftw3 -lglpk -lgsl -lgslcblas -lcsv -lm

LIB_SRCS  := $(sort $(foreach d,$(LIBDIRS),$(wildcard $(d)/*.c)))
LIB_OBJS  := $(patsubst %.c,$(BUILD)/obj/%.o,$(LIB_SRCS))
LIB       := $(BUILD)/libpathbench.a
SHLIB     := $(BUILD)/libpathbench.so.$(VERSION)
# the installed API: what an algorithm outside the tree needs (read, write,
# score a trace) and every header those include (docs/install.md)
PUB_HDRS  := core/pb_trace.h core/pb_result.h algorithms/pb_algo.h metrics/score.h \
             algorithms/pb_serve.h core/pb_version.h core/pb_error.h core/pb_strtab.h \
             core/pb_time.h core/pb_pattab.h core/pb_strbuf.h core/pb_opt.h metrics/tv.h
PROG_SRCS := $(sort $(wildcard programs/*.c))
MANS      := $(patsubst programs/%.c,$(BUILD)/man/%.1,$(PROG_SRCS))
PROGS     := $(patsubst programs/%.c,$(BIN)/%,$(PROG_SRCS))
TEST_SRCS := $(sort $(wildcard tests/unit/test_*.c))
TEST_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(TEST_SRCS))
BENCH_SRCS:= $(sort $(wildcard tests/bench/bench_*.c))
BENCHES   := $(patsubst tests/bench/%.c,$(BUILD)/bench/%,$(BENCH_SRCS))
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz_*.c))

.SECONDARY:

.PHONY: all test check asan bench fuzz figures report readme regress install clean deps tests-build test-slurm capture-demo realbench lib man FORCE

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
	$(CC) $(CPPFLAGS) $(CFLAGS) $(FATLTO) $(PIC) -MMD -MP -c $< -o $@

# library objects are position-independent: the same objects make the
# static and the shared library
# (-fno-semantic-interposition: the library's own calls stay direct and
# inlinable, as without -fPIC; nothing interposes pathbench's symbols)
$(LIB_OBJS): PIC := -fPIC -fno-semantic-interposition
# (objects built with other flags are rebuilt once)
ifeq ($(wildcard $(BUILD)/obj/.fpic-nsi),)
$(shell rm -f $(LIB_OBJS) && mkdir -p $(BUILD)/obj && touch $(BUILD)/obj/.fpic-nsi)
endif
# (and every object once when OPT or EXTRA_CFLAGS change: -O2 objects
# beside -flto ones would link, unoptimised across units)
OBJFLAGS := $(strip $(OPT) $(EXTRA_CFLAGS))
ifneq ($(shell cat $(BUILD)/obj/.flags 2>/dev/null),$(OBJFLAGS))
$(shell find $(BUILD)/obj -name '*.o' -exec rm -f {} + 2>/dev/null; mkdir -p $(BUILD)/obj && printf '%s\n' '$(OBJFLAGS)' >$(BUILD)/obj/.flags)
endif

# The version and git commit, rewritten only when they change (a new commit
# recompiles pb_version.c alone).  Outside a git checkout of this tree the
# commit is empty and --version prints the version alone.
$(BUILD)/gen/pb_version_gen.h: FORCE
	@mkdir -p $(dir $@)
	@c=""; if [ "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$(CURDIR)" ]; then \
	  c=$$(git rev-parse --short=12 HEAD 2>/dev/null); \
	  [ -z "$$c" ] || git diff --quiet HEAD -- 2>/dev/null || c="$$c-dirty"; fi; \
	printf '#define PB_VERSION_STRING "%s"\n#define PB_GIT_COMMIT "%s"\n' '$(VERSION)' "$$c" >$@.tmp; \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/obj/core/pb_version.o: $(BUILD)/gen/pb_version_gen.h
FORCE:

$(LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(SHLIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libpathbench.so.$(SOVERSION) $(OPT) $(LDFLAGS) $^ $(LDLIBS) -o $@

lib: $(LIB) $(SHLIB)

# man pages from the programs' own --help (the option tables), one a program
$(BUILD)/man/%.1: $(BIN)/% scripts/man.sh
	@mkdir -p $(dir $@)
	sh scripts/man.sh $< $(VERSION) >$@.tmp && mv $@.tmp $@

man: $(MANS)

$(BIN)/%: $(BUILD)/obj/programs/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) $< $(LIB) $(LDLIBS) -o $@

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(NOLTO) $(LDFLAGS) $< $(LIB) $(LDLIBS) -o $@

$(BUILD)/bench/%: $(BUILD)/obj/tests/bench/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(NOLTO) $(LDFLAGS) $< $(LIB) $(LDLIBS) -o $@

tests-build: $(PROGS) $(BUILD)/libpbcapture.so $(TEST_BINS)

deps:
	@sh scripts/deps.sh

# The README's test command: packages, then the strict build, then every test.
test: deps
	@$(MAKE) --no-print-directory check

check:
	@$(MAKE) --no-print-directory WERROR=1 tests-build
	@PB_BIN=$(abspath $(BIN)) PB_TESTBIN=$(abspath $(BUILD)/tests) sh tests/run.sh

# a second build with the sanitizers (build/asan), then every test under
# them; it says what it took when it ends
asan:
	@t0=$$(date +%s); echo "asan: a sanitized build into build/asan, then every test under ASan + UBSan (slower than make check)"; \
	$(MAKE) --no-print-directory BUILD=build/asan BIN=build/asan/bin WERROR=1 \
	  OPT="-O1 -g -fno-omit-frame-pointer" \
	  EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=address,undefined" tests-build || exit 1; \
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  PB_BIN=$(abspath build/asan/bin) PB_TESTBIN=$(abspath build/asan/tests) \
	  PB_SANITIZED=1 sh tests/run.sh; rc=$$?; \
	echo "asan: took $$(( $$(date +%s) - t0 )) s wall (load average $$(cut -d' ' -f1 /proc/loadavg) at the end)"; exit $$rc

bench: $(PROGS) $(BENCHES)
	@echo "bench: programs built with OPT=\"$(OPT)\" ($$($(CC) --version | sed 1q)); the figures depend on it"
	@PB_BIN=$(abspath $(BIN)) PB_BENCHBIN=$(abspath $(BUILD)/bench) sh tests/bench/run.sh

# A single-node Slurm started in a scratch folder runs the quick sweep as a
# job array; results must be byte-identical to the local run (not in make
# test: it installs slurm-wlm and munge and starts daemons, then stops them).
test-slurm: all
	@echo "test-slurm: installs slurm-wlm and munge with apt-get when missing (root), starts munged, slurmctld and slurmd"
	@echo "test-slurm: in a scratch folder and stops them; runs the quick sweep twice (locally, then as a job array)"
	@echo "test-slurm: 5 min 28 s in all when measured (2 shared cores; docs/experiments.md); it prints its durations"
	@PB_BIN=$(abspath $(BIN)) sh tests/slurm/run.sh

# one instrumented build of the library, then FUZZ_SECONDS (60) per target;
# it says both at the start and what it took at the end
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
	  sh scripts/readme_tables.sh --keep-rows figures out/figures/verdicts_summary.md; \
	else sh scripts/readme_tables.sh --keep-rows --from-table '| figure |' figures out/figures/report.md; fi

regress: all
	@sh experiments/regress.sh

# The live test system captured by interposition and tcpdump, every
# algorithm scored (docs/capture.md; about 4 minutes; needs root for the
# packets; not part of make test): installs python3 and tcpdump if missing.
capture-demo: all
	@sh scripts/deps.sh capture
	@sh experiments/capture_demo.sh $(CAPTURE_ARGS)
	@sh experiments/report.sh

# docs/install.md says what goes where.  maketrace finds the installed
# configs by bare name (`maketrace multitier.conf`) from its own location:
# BINDIR/../share/pathbench/configs.
install: $(PROGS) $(BUILD)/libpbcapture.so $(LIB) $(SHLIB) $(MANS)
	@D='$(DESTDIR)$(PREFIX)'; set -e; \
	install -d "$$D/bin" "$$D/share/pathbench/configs" "$$D/share/man/man1" \
	  "$$D/share/doc/pathbench/examples" "$$D/share/pathbench/experiments" \
	  "$$D/share/pathbench/plots" "$$D/share/pathbench/scripts" \
	  "$$D/lib/pkgconfig" "$$D/include/pathbench" "$$D/lib/pathbench"; \
	install -m 755 $(PROGS) "$$D/bin/"; \
	install -m 644 maketrace/configs/*.conf "$$D/share/pathbench/configs/"; \
	install -m 644 $(MANS) "$$D/share/man/man1/"; \
	install -m 644 README.md docs/*.md "$$D/share/doc/pathbench/"; \
	for sub in docs/*/; do [ -d "$$sub" ] || continue; \
	  mkdir -p "$$D/share/doc/pathbench/$$(basename "$$sub")"; \
	  install -m 644 "$$sub"*.md "$$D/share/doc/pathbench/$$(basename "$$sub")/"; done; \
	install -m 644 examples/* "$$D/share/doc/pathbench/examples/"; \
	cp -R experiments/. "$$D/share/pathbench/experiments/"; \
	cp -R plots/. "$$D/share/pathbench/plots/"; \
	install -m 755 scripts/readme_tables.sh "$$D/share/pathbench/scripts/"; \
	install -d "$$D/share/pathbench/maketrace"; \
	ln -sfn ../../bin "$$D/share/pathbench/bin"; \
	ln -sfn ../configs "$$D/share/pathbench/maketrace/configs"; \
	install -m 755 $(BUILD)/libpbcapture.so "$$D/lib/pathbench/"; \
	install -m 644 $(LIB) "$$D/lib/"; \
	install -m 755 $(SHLIB) "$$D/lib/"; \
	ln -sf libpathbench.so.$(VERSION) "$$D/lib/libpathbench.so.$(SOVERSION)"; \
	ln -sf libpathbench.so.$(SOVERSION) "$$D/lib/libpathbench.so"; \
	install -m 644 $(PUB_HDRS) "$$D/include/pathbench/"; \
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' \
	  -e 's|@LIBS@|$(strip $(LDLIBS))|' scripts/pathbench.pc.in >"$$D/lib/pkgconfig/pathbench.pc"; \
	echo "installed pathbench $(VERSION) under $$D (docs/install.md)"

clean:
	rm -rf build bin

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
