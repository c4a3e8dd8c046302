#!/bin/sh
# One request making many calls of one service (a fan-out, an N+1-query
# batch job): joint's parallel-call counts must not grow with the pairs of
# its calls (docs/joint/speed.md "Speed, seventeenth wave: a request's many
# calls").  wide(n): a root server span of a; n client spans of a, each
# with one server span of b, a third of them overlapping the next.  With
# n = 3000 (4.5 million pairs of calls) the counts are added per pair of
# links (parallel_adds: a few per refit), not per pair of calls; before,
# the metadata line was missing and each refit added 4.5 million.
set -u
for p in importtrace infer; do
    [ -x "$PB_BIN/$p" ] || exit 77
done
B="$PB_BIN"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
cd "$tmp" || exit 1

n=3000
awk -v n=$n -f "$PB_ROOT/experiments/wide_fanout.awk" > wide.json
"$B/importtrace" -q --callid -o ids.tr wide.json || fail "importtrace --callid"
"$B/importtrace" -q -o bb.tr wide.json || fail "importtrace"
for m in ids bb; do
    "$B/infer" --algo joint -o $m.out $m.tr 2> $m.err || fail "$m: infer: $(tail -1 $m.err)"
    grep -q "^# end patterns=[0-9]* assignments=$((2 * n + 2))\$" $m.out ||
        fail "$m: not every message assigned: $(grep '^# end' $m.out)"
    line=$(grep '^# parallel_sweeps=' $m.out) || fail "$m: no parallel_sweeps metadata"
    sw=$(echo "$line" | sed 's/.*parallel_sweeps=\([0-9]*\).*/\1/')
    ad=$(echo "$line" | sed 's/.*parallel_adds=\([0-9]*\).*/\1/')
    [ "$sw" -ge 1 ] || fail "$m: the wide request was not swept: $line"
    # a refit adds one count per pair of links (one here), not per pair of calls
    [ "$ad" -le 1000 ] || fail "$m: $ad additions to the parallel counts: $line"
done
# as a black box, the exchanges of the calls' returns score the wide
# request from its record (joint_xwalk.c: not walked afresh for each of
# the ~2000 exchanges tried); on main, no such line
line=$(grep '^# swap_top_resumed=' bb.out) || fail "bb: no swap_top_resumed metadata"
xr=$(echo "$line" | sed 's/.*swap_top_resumed=\([0-9]*\).*/\1/')
[ "$xr" -ge 1000 ] || fail "bb: only $xr exchanges scored from the record: $line"
grep -q '^# swap_top_resumed=' ids.out && fail "ids: exchanges with call ids: $(grep swap_top ids.out)"
exit 0
