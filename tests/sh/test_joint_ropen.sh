#!/bin/sh
# joint's repair_open_passes (docs/joint/speed.md, "Speed, seventeenth
# wave"): the open-ended solve of each re-pairing round with fewer
# local-search passes.  On an event loop in front of two services
# (experiments/joint_event.conf, 2 s):
# - black box, -1 (the default) and 2 (= min(passes, 2), what the default
#   runs) give the default's output byte for byte but the params line;
# - black box, 0 leaves those passes out: the metadata says so
#   (repair_open_passes=0 open_solves_capped=N, N >= 1) and the kept
#   search ran fewer local-search passes (search_passes) than the default;
# - with call ids no return is re-paired (no open-ended solve): 0 gives the
#   default's output byte for byte but the params line.
. "$PB_ROOT/tests/sh/joint_lib.sh"
"$B/maketrace" "$PB_ROOT/experiments/joint_event.conf" -s duration=2s > "$tmp/ids.csv" ||
    fail "maketrace"
strip_callids "$tmp/ids.csv" > "$tmp/bb.csv"
run() { # name trace [options...]
    _n=$1; _t=$2; shift 2
    "$B/infer" --algo joint -q "$@" -o "$tmp/r.$_n" "$tmp/$_t.csv" 2> "$tmp/log" ||
        fail "infer $_n: $(cat "$tmp/log")"
    grep -v '^# cpu_\|^# params:\|^# program=' "$tmp/r.$_n" > "$tmp/x.$_n"
}
run def bb
run m1 bb -s repair_open_passes=-1
run two bb -s repair_open_passes=2
run zero bb -s repair_open_passes=0
cmp -s "$tmp/x.def" "$tmp/x.m1" || fail "repair_open_passes=-1 is not the default"
cmp -s "$tmp/x.def" "$tmp/x.two" || fail "repair_open_passes=2 (min(passes, 2)) is not the default"
grep -q '^# repair_open_passes' "$tmp/r.def" && fail "a repair_open_passes line at the default"
n=$(sed -n 's/^# repair_open_passes=0 open_solves_capped=\([0-9]*\)$/\1/p' "$tmp/r.zero")
[ -n "$n" ] && [ "$n" -ge 1 ] || fail "repair_open_passes=0: no open_solves_capped line"
p0=$(sed -n 's/^# search_passes=//p' "$tmp/r.def")
p1=$(sed -n 's/^# search_passes=//p' "$tmp/r.zero")
[ -n "$p0" ] && [ -n "$p1" ] || fail "no search_passes"
[ "$p1" -lt "$p0" ] || fail "repair_open_passes=0 ran as many local-search passes ($p1, $p0)"
run idef ids
run izero ids -s repair_open_passes=0
cmp -s "$tmp/x.idef" "$tmp/x.izero" || fail "with call ids repair_open_passes=0 changed the output"
echo "open-ended solves capped $n, local-search passes $p0 -> $p1"
echo "PASS"
