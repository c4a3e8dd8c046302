#!/bin/sh
# make install into a temporary prefix (docs/install.md), then use it as a
# user would: the programs, one man page each made from the option tables
# (every flag of --list-options is on its page), the configs found by bare
# name, and the example algorithm in C (examples/rpcs.c) built against the
# installed headers and libraries with pkg-config -- once on the shared
# library, once on the static one -- and run through the installed
# `infer --algo exec:`: both give the same result, one instance per RPC.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
# the sanitized build is not what gets installed
[ -z "${PB_SANITIZED:-}" ] || { echo "skip: sanitized run"; exit 77; }
command -v pkg-config >/dev/null 2>&1 || { echo "skip: no pkg-config"; exit 77; }
command -v "${CC:-cc}" >/dev/null 2>&1 || { echo "skip: no C compiler"; exit 77; }
[ "$(cd "$PB_BIN" && pwd)" = "$(cd "$PB_ROOT/bin" 2>/dev/null && pwd)" ] ||
    { echo "skip: PB_BIN is not the tree's bin/"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
P="$tmp/prefix"
make -C "$PB_ROOT" --no-print-directory install PREFIX="$P" >"$tmp/make.log" 2>&1 ||
    { tail -20 "$tmp/make.log"; fail "make install"; }
# DESTDIR stages the same tree under another root
make -C "$PB_ROOT" --no-print-directory install PREFIX=/opt/pb DESTDIR="$tmp/stage" >/dev/null 2>&1 ||
    fail "make install DESTDIR"
[ -x "$tmp/stage/opt/pb/bin/infer" ] || fail "DESTDIR: no staged infer"
grep -q '^prefix=/opt/pb$' "$tmp/stage/opt/pb/lib/pkgconfig/pathbench.pc" || fail "DESTDIR: pc prefix"

progs="maketrace skewer sniffer importtrace infer score"
for p in $progs; do
    [ -x "$P/bin/$p" ] || fail "no $P/bin/$p"
    m="$P/share/man/man1/$p.1"
    [ -s "$m" ] || fail "no man page for $p"
    grep -q "^\.TH $(echo "$p" | tr a-z A-Z) 1" "$m" || fail "$p.1: no .TH line"
    # every flag of the option table is on the page (roff writes - as \-)
    "$P/bin/$p" --list-options | awk '$1 == "flag" && $3 != "--list-options" { print $3 }' |
        while read -r f; do
            g=$(printf '%s' "$f" | sed 's/-/\\\\-/g')
            grep -q -- "$g" "$m" || { echo "FAIL: $p.1 lacks $f"; exit 1; }
        done || exit 1
    "$P/bin/$p" --version | grep -q "^$p (pathbench) [0-9]" || fail "$p --version"
done
for f in multitier.conf hotel.conf tiny.conf; do
    [ -f "$P/share/pathbench/configs/$f" ] || fail "config $f not installed"
done
for f in pb_trace.h pb_result.h pb_algo.h score.h pb_serve.h pb_version.h; do
    [ -f "$P/include/pathbench/$f" ] || fail "header $f not installed"
done
[ -f "$P/lib/libpathbench.a" ] && [ -e "$P/lib/libpathbench.so" ] || fail "libraries"
# pbcapture's interposition library, where the installed pbcapture looks
if [ -x "$P/bin/pbcapture" ]; then
    [ -f "$P/lib/pathbench/libpbcapture.so" ] || fail "libpbcapture.so not installed"
    "$P/bin/pbcapture" -o "$tmp/cap" -- true 2>"$tmp/e" || fail "installed pbcapture: $(cat "$tmp/e")"
fi
[ -f "$P/share/doc/pathbench/README.md" ] && [ -f "$P/share/doc/pathbench/examples/rpcs.c" ] ||
    fail "docs or examples not installed"
[ -f "$P/share/pathbench/experiments/run_all.sh" ] || fail "experiment scripts not installed"
# the installed experiment scripts run: one tiny figure into a folder of ours
PB_OUT="$tmp/fig" sh "$P/share/pathbench/experiments/run_all.sh" --tiny --only fig20 -j 2 >"$tmp/fig.log" 2>&1 ||
    { tail -5 "$tmp/fig.log"; fail "installed run_all.sh --tiny --only fig20"; }
[ -s "$tmp/fig/fig20.dat" ] || fail "installed run_all.sh wrote no fig20.dat"

# configs by bare name, with or without .conf, from any folder
cd "$tmp" || exit 1
"$P/bin/maketrace" multitier.conf -s duration=10s -o t.csv || fail "maketrace multitier.conf"
"$P/bin/maketrace" multitier -s duration=10s -o t2.csv || fail "maketrace multitier"
cmp -s t.csv t2.csv || fail "multitier and multitier.conf differ"
"$P/bin/maketrace" nosuch.conf >/dev/null 2>"$tmp/e" && fail "a missing config accepted"
grep -q nosuch.conf "$tmp/e" || fail "missing config not named: $(cat "$tmp/e")"

# the example algorithm, against the installed library
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
pkg-config --exists pathbench || fail "pkg-config does not find pathbench.pc"
[ "$(pkg-config --modversion pathbench)" = "$("$P/bin/infer" --version | awk '{ print $3 }')" ] ||
    fail "pathbench.pc version is not the programs' version"
libdir=$(pkg-config --variable=libdir pathbench)
# every installed header compiles on its own (what it includes is installed)
for h in "$P"/include/pathbench/*.h; do
    # shellcheck disable=SC2046
    printf '#include "%s"\nint pb_test_unit;\n' "$(basename "$h")" |
        ${CC:-cc} -std=c11 -Wall -Werror $(pkg-config --cflags pathbench) -fsyntax-only -x c - 2>"$tmp/e" ||
        fail "$(basename "$h") does not compile alone: $(head -3 "$tmp/e")"
done
# shellcheck disable=SC2046
${CC:-cc} -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags pathbench) \
    "$P/share/doc/pathbench/examples/rpcs.c" $(pkg-config --libs pathbench) \
    -Wl,-rpath,"$libdir" -o rpcs_shared || fail "build the example on the shared library"
# shellcheck disable=SC2046
${CC:-cc} -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags pathbench) \
    "$P/share/doc/pathbench/examples/rpcs.c" "$libdir/libpathbench.a" \
    $(pkg-config --static --libs-only-l pathbench | sed 's/-lpathbench//') \
    -o rpcs_static || fail "build the example on the static library"
if command -v ldd >/dev/null 2>&1; then
    ldd rpcs_shared | grep -q 'libpathbench\.so\.0 => '"$libdir" || fail "shared build: $(ldd rpcs_shared)"
    ldd rpcs_static | grep -q libpathbench && fail "static build links the shared library"
fi
for v in shared static; do
    "$P/bin/infer" --algo "exec:./rpcs_$v" -o "r_$v.csv" t.csv 2>"$tmp/e" ||
        { cat "$tmp/e"; fail "infer --algo exec:./rpcs_$v"; }
    grep -v -e '^# exec_status=' -e '^# exec: command=' -e '^# exec_commit' "r_$v.csv" >"r_$v.cmp"
done
sed 's/rpcs_static/rpcs_shared/g' r_static.cmp | cmp -s r_shared.cmp - || fail "static and shared builds differ"
grep -q '^# algo=exec:rpcs view=call ' r_shared.csv || fail "no algo=exec:rpcs line: $(head -5 r_shared.csv)"
grep -q '^# program=infer version=' r_shared.csv || fail "no program version line"
grep -q '^# exec_program=rpcs exec_version=' r_shared.csv || fail "no example version line"
# one instance per call: as many instances as calls, at most 2 messages each
calls=$(awk -F, '/^#/ { next } !c { for (i = 1; i <= NF; i++) if ($i == "type") c = i; next }
                 $c == "call" { n++ } END { print n }' t.csv)
awk -F, '/^# table=assignment/ { a = 1; getline; next } /^#/ { a = 0 } a { n[$2]++ }
         END { for (i in n) { k++; if (n[i] > 2) bad++ } print k, bad + 0 }' r_shared.csv >"$tmp/inst"
[ "$(cat "$tmp/inst")" = "$calls 0" ] || fail "instances, >2-message instances: $(cat "$tmp/inst"); calls $calls"
"$P/bin/score" --truth t.csv r_shared.csv >s.csv || fail "score the example's result"
# parameters reach it: callids=0 still pairs every call here (FIFO per caller/callee)
"$P/bin/infer" --algo exec:./rpcs_shared -s callids=0 t.csv >r0.csv 2>/dev/null || fail "-s callids=0"
grep -q 'exec_program=rpcs' r0.csv || fail "callids=0 run"
grep -q '^# params: callids=0' r0.csv || fail "callids=0 did not reach the example: $(grep params r0.csv)"
"$P/bin/infer" --algo exec:./rpcs_shared -s nosuch=1 t.csv >/dev/null 2>"$tmp/e" && fail "-s nosuch=1 accepted"
grep -q 'nosuch.*callids' "$tmp/e" || fail "unknown parameter not reported: $(cat "$tmp/e")"
# and in a sweep: query_error.sh takes exec: items beside infer's algorithms
PB_OUT="$tmp/qe" sh "$P/share/pathbench/experiments/query_error.sh" --quick \
    --algos "truth,exec:$tmp/rpcs_shared" >"$tmp/qe.log" 2>&1 ||
    { tail -5 "$tmp/qe.log"; fail "installed query_error.sh with exec:rpcs"; }
[ "$(grep -c "exec:$tmp/rpcs_shared" "$tmp/qe/query_error.dat")" -ge 2 ] ||
    fail "the sweep has no rows of the example: $(head -5 "$tmp/qe/query_error.dat")"
exit 0
