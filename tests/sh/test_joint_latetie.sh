#!/bin/sh
# Ties at the response's stamp (docs/joint/model.md "Ties at the response's
# stamp"; algorithms/joint/late/joint_latetie.c).
# (1) Asynchronous calls at twice the load, stamps rounded down to 1 ms
# (experiments/joint_apps_async.conf -D instances_scale=2, 1 s, maketrace
# seed 9, never looked at while developing; call ids kept and emptied):
# joint by default is at least 5 points above -s late_tie_share=0 in both
# modes (the tree before gives the late_tie_share=0 result: 14.1 / 4.6 %
# against 26.0 / 16.4 % now), and says so (late_tie_share=, the logger link
# a late link).  (2) The same trace at nanosecond stamps: byte for byte the
# result of late_tie_share=0 (the params line aside).  (3) Shuffled rows
# (read back with --sort) change nothing at 1 ms.
# (-s subtick=off throughout: late_tie_share is what runs where the rows are not
# spread over their ticks, docs/joint/ticks.md "Positions within a tick".)
# (1) runs with -s late_chance=0: late_chance (joint_lchance.c, on by
# default) lifts the logger link on its own (its orphans' chance of
# enclosure), so without it pinned late_tie_share=0 reaches the default's
# assignment too and the rule's own gain cannot be seen; the default
# (both rules) must then be at least the late_chance=0 result, and is
# what (3) shuffles.
. "$PB_ROOT/tests/sh/joint_lib.sh"
R="$PB_ROOT"
exact() { "$B/score" --truth "$1" "$2" | exact_acc; }
meta() { grep -v -e '^# cpu_' -e '^# program=' -e '^# params:' -e '^# algo=' -e '^# trace: ' "$1"; }

"$B/maketrace" "$R/experiments/joint_apps_async.conf" -D duration=1s -D seed=9 \
    -D instances_scale=2 > "$tmp/ns.csv" || fail "maketrace async"
"$B/skewer" -q --round 1ms "$tmp/ns.csv" > "$tmp/ms.csv" || fail "skewer --round 1ms"
strip_callids "$tmp/ms.csv" > "$tmp/bb.csv"

# (1) 1 ms, both modes
for mode in ms bb; do
    "$B/infer" --algo joint -s subtick=off -q -s late_chance=0 -s late_tie_share=0 -o "$tmp/$mode.0.res" \
        "$tmp/$mode.csv" 2> /dev/null || fail "infer $mode late_tie_share=0"
    "$B/infer" --algo joint -s subtick=off -q -s late_chance=0 -o "$tmp/$mode.1.res" "$tmp/$mode.csv" \
        2> /dev/null || fail "infer $mode"
    "$B/infer" --algo joint -s subtick=off -q -o "$tmp/$mode.d.res" "$tmp/$mode.csv" 2> /dev/null ||
        fail "infer $mode default"
    e0=$(exact "$tmp/ms.csv" "$tmp/$mode.0.res")
    e1=$(exact "$tmp/ms.csv" "$tmp/$mode.1.res")
    ed=$(exact "$tmp/ms.csv" "$tmp/$mode.d.res")
    echo "async x2 1 ms seed 9 ($mode, late_chance=0): late_tie_share=0 $e0, late_tie_share=1 $e1; default $ed"
    awk -v a="$e1" -v b="$e0" 'BEGIN { exit !(a >= b + 0.05) }' ||
        fail "$mode: late_tie_share=1 $e1, expected at least 5 points above late_tie_share=0 ($e0)"
    awk -v a="$ed" -v b="$e1" 'BEGIN { exit !(a >= b) }' ||
        fail "$mode: default $ed below late_chance=0 ($e1)"
    grep -q '^# late_tie_share=on tied_calls=[1-9][0-9]* ' "$tmp/$mode.1.res" ||
        fail "$mode: no late_tie_share line"
    grep -q '^# late_tie_share=' "$tmp/$mode.0.res" && fail "$mode: late_tie_share line when off"
done
grep -q '^# late_link=api>logger ' "$tmp/ms.1.res" || fail "the logger link is not a late link"
grep -q '^# late_link=api>logger ' "$tmp/ms.0.res" &&
    fail "the logger link is a late link without the rule (the case no longer tests it)"

# (2) nanosecond stamps: nothing changes
"$B/infer" --algo joint -s subtick=off -q -s late_tie_share=0 -o "$tmp/n0.res" "$tmp/ns.csv" 2> "$tmp/n0.err" ||
    fail "infer ns late_tie_share=0"
"$B/infer" --algo joint -s subtick=off -q -o "$tmp/n1.res" "$tmp/ns.csv" 2> "$tmp/n1.err" || fail "infer ns"
meta "$tmp/n0.res" > "$tmp/n0.body"
meta "$tmp/n1.res" > "$tmp/n1.body"
cmp -s "$tmp/n0.body" "$tmp/n1.body" || fail "ns stamps: the result changed"
cmp -s "$tmp/n0.err" "$tmp/n1.err" || fail "ns stamps: stderr changed"
grep -q '^# late_tie_share=' "$tmp/n1.res" && fail "ns stamps: a late_tie_share line"

# (3) shuffled rows at 1 ms
shuffle_rows 9 "$tmp/ms.csv" "$tmp/s.csv"
"$B/infer" --algo joint -s subtick=off -q --sort -o "$tmp/s.res" "$tmp/s.csv" 2> /dev/null || fail "infer shuffled"
grep '^# late_' "$tmp/ms.d.res" > "$tmp/a.late"
grep '^# late_' "$tmp/s.res" > "$tmp/s.late"
cmp -s "$tmp/a.late" "$tmp/s.late" || { diff "$tmp/a.late" "$tmp/s.late" | head; fail "shuffled rows changed the late-call lines"; }
es=$(exact "$tmp/ms.csv" "$tmp/s.res")
e1=$(exact "$tmp/ms.csv" "$tmp/ms.d.res")
[ "$es" = "$e1" ] || fail "shuffled rows: $es against $e1"
exit 0
