#!/bin/sh
# joint: calls sent in one tick when the tie test keeps the start
# (docs/joint/ticks.md, "The tie test: whole-tick stamps", calls tied at their
# send stamp; algorithms/joint/ticks/joint_tiecall.c).  A pool of workers in
# front of a chain at 1 ms stamps (experiments/joint_ticks.conf, 6
# workers, seed 6): the tie test keeps the start; with call ids, the
# start that ranks tied requests by their responses but tied calls by
# their rows (-s tie_calls=0, the code before) is below first come, first
# served; ranking tied calls by their returns as well brings joint to it.
# The black box (pairs by time: the returns keep the calls' order) and
# unrounded stamps (no tie test) give what they gave before, byte for byte
# but for the metadata line.  tie_calls is checked alone: joint runs with
# -s tie_rows=0 (with the rows within a tick, a later rule, the tie test
# keeps the search on this trace, above fcfs: checked last).
# (-s subtick=off as well: the spreading of the rows over their ticks,
# docs/joint/ticks.md "Positions within a tick", is tested in test_joint_subtick.sh.)
. "$PB_ROOT/tests/sh/joint_lib.sh"
acc() { # trace result -> exact accuracy
    "$B/score" --truth "$1" "$2" > "$tmp/s" || fail "score $2"
    exact_acc < "$tmp/s"
}
body() { grep -v '^# params\|^# cpu\|^# program\|^# algo=' "$1"; }
"$B/maketrace" "$PB_ROOT/experiments/joint_ticks.conf" -s seed=6 -s F.workers=6 > "$tmp/a.csv" ||
    fail maketrace
"$B/skewer" -q --round 1ms "$tmp/a.csv" > "$tmp/t.csv" || fail skewer
strip_callids "$tmp/t.csv" > "$tmp/bb.csv"
"$B/infer" --algo joint -s tie_rows=0 -s subtick=off -o "$tmp/new" "$tmp/t.csv" 2> /dev/null || fail infer
"$B/infer" --algo joint -s tie_rows=0 -s subtick=off -s tie_calls=0 -o "$tmp/old" "$tmp/t.csv" 2> /dev/null || fail infer
"$B/infer" --algo fcfs -o "$tmp/f" "$tmp/t.csv" 2> /dev/null || fail "infer fcfs"
grep -q 'tie_test=on.*kept=start' "$tmp/new" || fail "the tie test did not keep the start"
grep -q '^# tie_calls=on tied_calls=[0-9]* reranked_calls=[1-9]' "$tmp/new" ||
    fail "no call re-ranked: $(grep tie_calls= "$tmp/new")"
n=$(acc "$tmp/t.csv" "$tmp/new"); o=$(acc "$tmp/t.csv" "$tmp/old"); f=$(acc "$tmp/t.csv" "$tmp/f")
echo "ids: joint $n, tie_calls=0 $o, fcfs $f"
awk -v n="$n" -v f="$f" 'BEGIN { exit !(n + 1e-9 >= f) }' || fail "joint $n below fcfs $f"
awk -v o="$o" -v f="$f" 'BEGIN { exit !(o + 0.002 < f) }' ||
    fail "tie_calls=0 ($o) not below fcfs ($f): the test cannot fail"
# black box: nothing re-ranked, the same result
"$B/infer" --algo joint -s tie_rows=0 -s subtick=off -o "$tmp/bn" "$tmp/bb.csv" 2> /dev/null || fail infer
"$B/infer" --algo joint -s tie_rows=0 -s subtick=off -s tie_calls=0 -o "$tmp/bo" "$tmp/bb.csv" 2> /dev/null || fail infer
body "$tmp/bn" | grep -v '^# tie_calls=' > "$tmp/bn.b"; body "$tmp/bo" > "$tmp/bo.b"
cmp -s "$tmp/bn.b" "$tmp/bo.b" || fail "black box: the result differs from tie_calls=0"
# unrounded: no tie test, no line, the same result
"$B/infer" --algo joint -s tie_rows=0 -s subtick=off -o "$tmp/un" "$tmp/a.csv" 2> /dev/null || fail infer
"$B/infer" --algo joint -s tie_rows=0 -s subtick=off -s tie_calls=0 -o "$tmp/uo" "$tmp/a.csv" 2> /dev/null || fail infer
grep -q '^# tie_calls=' "$tmp/un" && fail "tie_calls line on unrounded stamps"
body "$tmp/un" > "$tmp/un.b"; body "$tmp/uo" > "$tmp/uo.b"
cmp -s "$tmp/un.b" "$tmp/uo.b" || fail "unrounded: the result differs from tie_calls=0"
# the defaults (tie_rows on): at or above fcfs
"$B/infer" --algo joint -o "$tmp/d" "$tmp/t.csv" 2> /dev/null || fail infer
d=$(acc "$tmp/t.csv" "$tmp/d")
echo "ids, defaults (tie_rows): joint $d, fcfs $f"
awk -v n="$d" -v f="$f" 'BEGIN { exit !(n + 1e-9 >= f) }' || fail "defaults: joint $d below fcfs $f"
exit 0
