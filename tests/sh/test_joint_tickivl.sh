#!/bin/sh
# Whole-tick delays as intervals (algorithms/joint/ticks/joint_tickivl.c,
# docs/joint/audits.md "Whole-tick delays as intervals"): the dispatch config at
# twice its load (maketrace seed 9, 0.5 s: not a seed the rule was
# developed on), stamps rounded down to 100 us, with call ids.  Most
# messages share a stamp (coarse_ties=1) and the delays are a few ticks
# (the observed requests' median duration 4 ticks): with -s tick_ivl=auto
# the gate runs the intervals (metadata tick_ivl=on) and joint gains at
# least 2 points over tick_ivl=off (57.2 -> 61.0 %); the tree before it
# has no such option (fails).  Rounded to 1 ms the same trace keeps them
# off (durations under 2 ticks: tick_ivl=off).
# (-s subtick=off throughout: the whole-tick machinery tested here is what runs where
# the rows within a tick are not taken as the order of events, docs/joint/ticks.md
# "Positions within a tick"; with the default the rows of these traces are.)
# (-s loss_serial=1 throughout: the serial term's check at loss_serial=8 (not the default) keeps the term's
# search at tick_ivl=off (0.572 -> 0.597; auto 0.610 either way), which narrows the
# margin tested here.)
. "$PB_ROOT/tests/sh/joint_lib.sh"
"$B/maketrace" "$PB_ROOT/experiments/joint_models_dispatch.conf" -s seed=9 -s duration=0.5s \
    -s instances_scale=2 > "$tmp/ns.csv" 2> "$tmp/log" || fail "maketrace: $(tail -1 "$tmp/log")"
"$B/skewer" -q --round 100us "$tmp/ns.csv" > "$tmp/c.csv" || fail "skewer 100us"
"$B/skewer" -q --round 1ms "$tmp/ns.csv" > "$tmp/ms.csv" || fail "skewer 1ms"
acc() { # trace tick_ivl -> exact accuracy; the result in $tmp/r.$2
    "$B/infer" --algo joint -s loss_serial=1 -s subtick=off -s tick_ivl="$2" -o "$tmp/r.$2" "$1" 2> "$tmp/log" ||
        fail "infer $1 tick_ivl=$2: $(tail -1 "$tmp/log")"
    "$B/score" --truth "$1" "$tmp/r.$2" |
        exact_acc
}
off=$(acc "$tmp/c.csv" off)
auto=$(acc "$tmp/c.csv" auto)
echo "dispatch x2 at 100 us, call ids: tick_ivl=off $off, auto $auto"
grep -q '^# .*coarse_ties=1' "$tmp/r.auto" || fail "100 us: ties not coarse (the test no longer covers the class)"
grep -q '^# tick_ivl=on tick_ivl_ticks=20 tick_ivl_rule=coarse_ties ' "$tmp/r.auto" ||
    fail "100 us: the intervals did not run: $(grep '^# tick_ivl=' "$tmp/r.auto")"
grep -q '^# tick_ivl=' "$tmp/r.off" && fail "tick_ivl=off still writes a tick_ivl line"
awk -v a="$auto" -v b="$off" 'BEGIN { exit !(a >= b + 0.02) }' ||
    fail "100 us: tick_ivl=auto $auto not 2 points above off $off"
acc "$tmp/ms.csv" auto > /dev/null
grep -q '^# tick_ivl=off .*tick_ivl_rule=coarse_ties ' "$tmp/r.auto" ||
    fail "1 ms: the gate did not keep the intervals off: $(grep '^# tick_ivl=' "$tmp/r.auto")"
echo "PASS"
