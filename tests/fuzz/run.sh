#!/bin/sh
# make fuzz: build every tests/fuzz/fuzz_*.c target with clang's libFuzzer
# (+ ASan + UBSan) against the library sources and run each for a bounded
# time.  FUZZ_SECONDS (default 60) per target; FUZZ_SEED (default: from the
# clock) is printed so a run can be repeated: FUZZ_SEED=N make fuzz.
# Seeds: tests/fuzz/corpus/<target>/; new inputs go to build/fuzz/corpus/.
# A crash leaves build/fuzz/crash-<target>-* ; replay it with
#   build/fuzz/<target> build/fuzz/crash-<target>-...
# The library is compiled once (build/fuzz/obj, FUZZ_JOBS compilers at
# once, default 2) into build/fuzz/libpathbench-fuzz.a, which every target
# links: the run takes that build (a few CPU minutes) plus FUZZ_SECONDS per
# target, and says both at the start and what it took at the end.
set -u
cd "$(dirname "$0")/../.."
CLANG=${CLANG:-clang}
secs=${FUZZ_SECONDS:-60}
seed=${FUZZ_SEED:-$(date +%s)}
out=build/fuzz
mkdir -p "$out/corpus"
if ! command -v "$CLANG" >/dev/null 2>&1; then
    echo "fuzz: $CLANG not found (apt-get install clang libclang-rt-14-dev)" >&2
    exit 1
fi
# the library's folders as the Makefile lists them (the algorithm
# families moved into folders of their own; a fixed list here had lost
# them, and fuzz_nesting no longer built)
algodirs=$(sed -n 's/^ALGODIRS *:= *//p' Makefile)
dirs="core maketrace skewer sniffer algorithms $algodirs metrics importer"
libsrc=""
incs=""
for d in $dirs; do
    incs="$incs -I$d"
    for f in "$d"/*.c; do [ -f "$f" ] && libsrc="$libsrc $f"; done
done
flags="-std=c11 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
 -fno-sanitize-recover=undefined -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE"
# the same libraries as the Makefile links, so that the two cannot drift
libs=$(sed -n 's/^LDLIBS *+= *//p' Makefile)
[ -n "$libs" ] || libs="-ljansson -larchive -lfftw3 -lglpk -lgsl -lgslcblas -lcsv -lm"
ntargets=$(ls tests/fuzz/fuzz_*.c 2>/dev/null | wc -l)
echo "fuzz: seed $seed, $secs s per target (repeat with FUZZ_SEED=$seed): one library"
echo "fuzz: build, then $ntargets targets x $secs s = $((ntargets * secs / 60)) min $((ntargets * secs % 60)) s of fuzzing"
t0=$(date +%s)
# the library, once: instrumented for coverage and the sanitizers, without
# libFuzzer's main (fuzzer-no-link); each target adds its own main
libflags=$(echo "$flags" | sed 's/-fsanitize=fuzzer,/-fsanitize=fuzzer-no-link,/')
mkdir -p "$out/obj"
rm -f "$out/obj"/*.o "$out/libpathbench-fuzz.a"
export CLANG libflags incs out
# shellcheck disable=SC2086
printf '%s\n' $libsrc | xargs -P "${FUZZ_JOBS:-2}" -I{} sh -c \
    'o="$out/obj/$(echo "{}" | tr / _ | sed "s/\.c\$/.o/")"; $CLANG $libflags $incs -c "{}" -o "$o"' ||
    { echo "fuzz: building the library failed" >&2; exit 1; }
ar rcs "$out/libpathbench-fuzz.a" "$out"/obj/*.o || { echo "fuzz: ar failed" >&2; exit 1; }
echo "fuzz: library built in $(( $(date +%s) - t0 )) s wall"
status=0
for src in tests/fuzz/fuzz_*.c; do
    [ -f "$src" ] || continue
    name=$(basename "$src" .c)
    bin="$out/$name"
    # shellcheck disable=SC2086
    if ! $CLANG $flags $incs "$src" "$out/libpathbench-fuzz.a" $libs -o "$bin"; then
        echo "fuzz: $name: build failed" >&2
        status=1
        continue
    fi
    mkdir -p "$out/corpus/$name"
    seeds="tests/fuzz/corpus/$name"
    [ -d "$seeds" ] || seeds=""
    dict=""
    [ -f "tests/fuzz/$name.dict" ] && dict="-dict=tests/fuzz/$name.dict"
    echo "fuzz: $name for $secs s"
    # shellcheck disable=SC2086
    if ! "$bin" -seed="$seed" -max_total_time="$secs" -timeout=10 \
        -rss_limit_mb=2048 -max_len=32768 -print_final_stats=1 $dict \
        -artifact_prefix="$out/crash-$name-" "$out/corpus/$name" $seeds \
        > "$out/$name.log" 2>&1; then
        tail -40 "$out/$name.log"
        echo "fuzz: $name FAILED (seed $seed); see $out/$name.log" >&2
        status=1
    else
        grep -E '^stat::number_of_executed_units|^Done' "$out/$name.log" | head -2
        echo "fuzz: $name ok"
    fi
done
echo "fuzz: took $(( $(date +%s) - t0 )) s wall (load average $(awk '{ print $1 }' /proc/loadavg 2>/dev/null) at the end)"
exit $status
