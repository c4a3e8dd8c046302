#!/bin/sh
# swap_floor on the application shapes (algorithms/joint/repair/joint_xfloor.c;
# docs/joint/audits.md "Speed on the application shapes"): the media-like and
# parallel-then-join configs of experiments/joint_apps.sh (maketrace seed
# 5, 0.4 s at twice the load, a seed the rule was not developed on), as a
# black box, stamps as generated and rounded down to 1 ms: every line of
# the result is the one of -s swap_floor=0 but the parameters, the CPU and
# the effort counters, and the floor left splits out (more splits left
# out by the bound; the tree before has no swap_floor option: fails).
. "$PB_ROOT/tests/sh/joint_lib.sh"
body() { grep -v '^# \(params\|cpu_\|program\|resplit_estimated=\|resplit_bound_scored=\|bnb_row_keep=\)' "$1"; }
leftout() { sed -n 's/^# resplit_bound_scored=[0-9]* resplit_bound_cut=\([0-9]*\).*/\1/p' "$1"; }
for c in media parjoin; do
    "$B/maketrace" "$PB_ROOT/experiments/joint_apps_$c.conf" -s seed=5 -s duration=0.4s \
        -s instances_scale=2 > "$tmp/ns.csv" 2> "$tmp/log" || fail "maketrace $c: $(tail -1 "$tmp/log")"
    "$B/skewer" -q --round 1ms "$tmp/ns.csv" > "$tmp/ms.csv" || fail "skewer 1ms"
    for v in ns ms; do
        strip_callids "$tmp/$v.csv" > "$tmp/bb.csv"
        "$B/infer" --algo joint -o "$tmp/on" "$tmp/bb.csv" 2> "$tmp/on.err" || fail "infer $c $v"
        "$B/infer" --algo joint -s swap_floor=0 -o "$tmp/off" "$tmp/bb.csv" 2> "$tmp/off.err" ||
            fail "infer $c $v swap_floor=0"
        body "$tmp/on" > "$tmp/a"
        body "$tmp/off" > "$tmp/b"
        cmp -s "$tmp/a" "$tmp/b" || fail "$c $v: swap_floor=1 and 0 differ: $(diff "$tmp/a" "$tmp/b" | head -4)"
        cmp -s "$tmp/on.err" "$tmp/off.err" || fail "$c $v: stderr differs"
        n1=$(leftout "$tmp/on"); n0=$(leftout "$tmp/off")
        [ "${n1:-0}" -gt "${n0:-0}" ] || fail "$c $v: the floor left nothing out (${n1:-none} splits left out against ${n0:-none})"
        echo "$c $v: the same result; splits the bound left out $n0 -> $n1"
    done
done
echo "PASS"
