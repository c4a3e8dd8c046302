#!/bin/sh
# joint: the candidate cap counted after the rows within a tick
# (tie_rows_wide; docs/joint/ticks_rows.md "Rows within a tick";
# algorithms/joint/ticks/joint_rowcap.c).  A pool in front of a chain
# (experiments/joint_ticks.conf, first come, first served is right) at
# twice its clients, seed 8 (held out), stamps rounded to 10 ms: up to 46
# requests enclose a call, max_candidates=32 kept the latest-started, the
# rows then put out those of the call's own tick, and the oldest waiting
# request (the true parent) was gone; joint fell 20 points below fcfs.
# Now, with call ids and as a black box, joint is at least fcfs (within
# half a point); with tie_rows_wide=1 (cut first, as before) it is not.
# Unrounded stamps: tie_rows_wide changes nothing.  joint runs with
# -s subtick=off: where subtick spreads the rows (joint_subtick.c) tie_rows
# does not run; this is the case where the rows are not spread.
set -u
B="$PB_BIN"
for p in maketrace skewer infer score; do [ -x "$B/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
col() { awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{print $(c[n])}' "$2"; }
strip() { # the callid column emptied: a black box
    awk 'BEGIN { FS = OFS = "," } /^#/ { print; next }
         !h { for (i = 1; i <= NF; i++) if ($i == "callid") c = i; h = 1; print; next }
         { if (c) $c = ""; print }' "$1"
}
acc() { # trace algo [opts] -> exact accuracy
    _t=$1 _a=$2; shift 2
    "$B/infer" --algo "$_a" "$@" -o "$tmp/r" "$_t" 2> "$tmp/log" || fail "infer $_t $_a: $(cat "$tmp/log")"
    "$B/score" --truth "$_t" "$tmp/r" > "$tmp/s" || fail "score $_t"
    col exact_accuracy "$tmp/s"
}
ge() { awk -v a="$1" -v b="$2" -v d="$3" 'BEGIN { exit !(a + d >= b) }'; }
M="$PB_ROOT/experiments/joint_ticks.conf"
"$B/maketrace" "$M" -s seed=8 -s instances_scale=2 > "$tmp/a.csv" || fail maketrace
"$B/skewer" -q --round 10ms "$tmp/a.csv" > "$tmp/a10.csv" || fail skewer
strip "$tmp/a10.csv" > "$tmp/a10.bb.csv"
for t in a10 a10.bb; do
    j=$(acc "$tmp/$t.csv" joint -s subtick=off)
    grep -q 'tie_rows=on' "$tmp/r" || fail "$t: tie_rows did not run"
    w=$(acc "$tmp/$t.csv" joint -s subtick=off -s tie_rows_wide=1)
    f=$(acc "$tmp/$t.csv" fcfs)
    echo "$t: joint $j, tie_rows_wide=1 $w, fcfs $f"
    ge "$j" "$f" 0.005 || fail "$t: joint $j more than half a point below fcfs $f"
    ge "$w" "$f" 0.05 && fail "$t: tie_rows_wide=1 $w not below fcfs $f (the test cannot fail)"
done
# unrounded: nothing changes
"$B/infer" --algo joint -s subtick=off -o "$tmp/u1" "$tmp/a.csv" 2> /dev/null || fail infer
"$B/infer" --algo joint -s subtick=off -s tie_rows_wide=1 -o "$tmp/u0" "$tmp/a.csv" 2> /dev/null || fail infer
grep -v '^# params\|^# cpu' "$tmp/u1" > "$tmp/u1s"; grep -v '^# params\|^# cpu' "$tmp/u0" > "$tmp/u0s"
cmp -s "$tmp/u1s" "$tmp/u0s" || fail "unrounded: tie_rows_wide changed the result"
exit 0
