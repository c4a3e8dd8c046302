#!/bin/sh
# Moves across a tick when the tie test keeps the start
# (algorithms/joint/ticks/joint_tiecross.c, docs/joint/ticks.md "Moves across a
# tick"): the dispatch config (maketrace seed 11, 1 s: not a seed the rule
# was developed on), stamps rounded down to 1 ms, with call ids.  Its
# services answer well under a millisecond, so the tie test keeps the
# start; the calls the search had moved to a request a tick or more away
# get the search's parent back, likelier than the start by more than the
# 10-nat margin (metadata kept=cross), and joint gains at least 4 points
# over -s tie_cross=0 (17.9 -> 26.4 %); the tree before it has no such
# option (fails).  The event config (seed 11, 1 ms), where those moves
# make the model less likely, keeps the start: the same links as
# tie_cross=0.
# (-s subtick=off throughout: the whole-tick machinery tested here is what runs where
# the rows within a tick are not taken as the order of events, docs/joint/ticks.md
# "Positions within a tick"; with the default the rows of these traces are.)
# (loss_serial at its default, 8: its gate skips the second search here (6 % of the
# requests stacked), and with the gate at 0 the term's search no longer keeps the
# search over the start: test_joint_lserial_gate.sh.)
# (-s loss_serial_win=0 throughout: at tie_cross=0 the gate passes here (11 % of the
# requests stacked) and the windowed second search, the default, is kept: 27.4 ->
# 34.0 %, above tie_cross=1's 33.6 (docs/joint/loss.md, "The second search
# windowed"); what is tested here is tie_cross against the search without it.)
# (-s tie_sets=0 throughout: tie_sets=3, the default, decides the set test after
# tie_cross and puts back the search's components the sets favour (dispatch here:
# 38.8 %, test_joint_tieset3.sh); what is tested here is tie_cross alone.)
. "$PB_ROOT/tests/sh/joint_lib.sh"
acc() { # trace tie_cross -> exact accuracy; the result in $tmp/r.$2
    "$B/infer" --algo joint -s subtick=off -s tie_sets=0 -s loss_serial_win=0 -s tie_cross="$2" -o "$tmp/r.$2" "$1" 2> "$tmp/log" ||
        fail "infer $1 tie_cross=$2: $(tail -1 "$tmp/log")"
    "$B/score" --truth "$1" "$tmp/r.$2" |
        exact_acc
}
"$B/maketrace" "$PB_ROOT/experiments/joint_models_dispatch.conf" -s seed=11 -s duration=1s \
    > "$tmp/ns.csv" 2> "$tmp/log" || fail "maketrace: $(tail -1 "$tmp/log")"
"$B/skewer" -q --round 1ms "$tmp/ns.csv" > "$tmp/ms.csv" || fail "skewer 1ms"
off=$(acc "$tmp/ms.csv" 0)
on=$(acc "$tmp/ms.csv" 1)
echo "dispatch x1 at 1 ms, call ids: tie_cross=0 $off, 1 $on"
grep -q '^# tie_test=on .*kept=start' "$tmp/r.1" || fail "the tie test did not keep the start"
grep -q '^# tie_cross=on moved_across_tick=[1-9][0-9]* .*kept=cross' "$tmp/r.1" ||
    fail "the moves across a tick were not kept: $(grep '^# tie_cross=' "$tmp/r.1")"
grep -q '^# tie_cross=' "$tmp/r.0" && fail "tie_cross=0 still writes a tie_cross line"
awk -v a="$on" -v b="$off" 'BEGIN { exit !(a >= b + 0.04) }' ||
    fail "tie_cross=1 $on not 4 points above tie_cross=0 $off"
links() { sed -n '/^# table=assignment/,$p' "$1" | grep -v '^#' | LC_ALL=C sort; }
"$B/maketrace" "$PB_ROOT/experiments/joint_models_event.conf" -s seed=11 -s duration=0.5s \
    > "$tmp/ns.csv" 2> "$tmp/log" || fail "maketrace event: $(tail -1 "$tmp/log")"
"$B/skewer" -q --round 1ms "$tmp/ns.csv" > "$tmp/ms.csv" || fail "skewer 1ms"
off=$(acc "$tmp/ms.csv" 0)
on=$(acc "$tmp/ms.csv" 1)
echo "event x1 at 1 ms, call ids: tie_cross=0 $off, 1 $on"
grep -q '^# tie_cross=on .*kept=start' "$tmp/r.1" ||
    fail "event: the start was not kept: $(grep '^# tie_cross=' "$tmp/r.1")"
links "$tmp/r.0" > "$tmp/l.0"
links "$tmp/r.1" > "$tmp/l.1"
cmp -s "$tmp/l.0" "$tmp/l.1" || fail "event: the links differ from tie_cross=0"
echo "PASS"
