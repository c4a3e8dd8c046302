#!/bin/sh
# joint's busy_arr (docs/joint/shapes_late.md "The busy test fooled by a
# solution's smeared durations (h270)"; algorithms/joint/busy/
# joint_busyarr.c): the busy test's deficit of busy landings is read again
# at the trace's own call arrivals, each given a duration drawn from the
# copy's own on its link; a deficit that a solution's smeared durations
# make (a short/long mix paired wrongly) is gone there, a caller's spacing
# is not.
# - maketrace's shortlong app at twice the load, seed 56, 2 s, ns stamps,
#   a black box (the known failure of h265): with busy_arr=0 the busy test
#   finds fe serialising and keeps the held search (under 10 % exact);
#   with busy_arr=1 fe's verdict is withdrawn and joint gets 30 % or more;
# - heavytail at twice the load, seed 55, 1 ms stamps, a black box: with
#   busy_arr=0 joint is first come, first served's pairing (within half a
#   point of fcfs); with busy_arr=1 api's verdict is withdrawn, 10 points
#   or more above fcfs;
# - shuffled rows give the same assignment; fe renamed the same accuracy;
# - the event loop of experiments/joint_event.conf (B serialises): B's
#   verdict kept, the output busy_arr=0's byte for byte but the params
#   line and the busy_arr= line.
# Fails on a tree without the option (infer rejects it).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
"$B/maketrace" "$R/experiments/joint_apps_shortlong.conf" -s seed=56 -s duration=2s \
    -s instances_scale=2 > "$tmp/raw.csv" || fail "maketrace"
keep_cols "$tmp/raw.csv" > "$tmp/m.csv"
strip_callids "$tmp/m.csv" > "$tmp/bb.csv"
run_nocal "$tmp/bb.csv" "$tmp/s0.res" -s busy_arr=0
run_nocal "$tmp/bb.csv" "$tmp/s1.res" -s busy_arr=1
s0=$(exact_of "$tmp/m.csv" "$tmp/s0.res")
s1=$(exact_of "$tmp/m.csv" "$tmp/s1.res")
echo "# shortlong x2 s56 ns black box: busy_arr=0 $s0, busy_arr=1 $s1"
echo "# $(grep '^# busy_arr=fe' "$tmp/s1.res")"
grep -q '^# busy_service=fe .* serialising=yes' "$tmp/s0.res" ||
    fail "busy_arr=0: fe not serialising: $(grep '^# busy_service=fe' "$tmp/s0.res")"
awk -v a="$s0" 'BEGIN { exit !(a < 0.10) }' || fail "busy_arr=0 gives $s0 (want under 10 %)"
grep -q '^# busy_arr=fe .* verdict=withdrawn' "$tmp/s1.res" ||
    fail "busy_arr=1: fe's verdict not withdrawn: $(grep '^# busy_arr=' "$tmp/s1.res")"
grep -q '^# busy_test=on .* held=no chosen_by=likelihood' "$tmp/s1.res" ||
    fail "busy_arr=1: $(grep '^# busy_test=' "$tmp/s1.res")"
awk -v a="$s1" 'BEGIN { exit !(a >= 0.30) }' || fail "busy_arr=1 gives $s1 (want 30 % or more)"
check_shuffled_same "$tmp/bb.csv" "$tmp/s1.res" -s busy_arr=1
sed -e '/^#/!s/\bfe\b/zz_fe/g' "$tmp/bb.csv" > "$tmp/rn.csv"
sed -e '/^#/!s/\bfe\b/zz_fe/g' "$tmp/m.csv" > "$tmp/rnt.csv"
cmp -s "$tmp/bb.csv" "$tmp/rn.csv" && fail "renaming fe changed nothing"
run_nocal "$tmp/rn.csv" "$tmp/rn.res" -s busy_arr=1
[ "$(exact_of "$tmp/rnt.csv" "$tmp/rn.res")" = "$s1" ] || fail "renaming fe changed the accuracy"
# heavytail x2 at 1 ms
"$B/maketrace" "$R/experiments/joint_apps_heavytail.conf" -s seed=55 -s duration=2s \
    -s instances_scale=2 > "$tmp/hraw.csv" || fail "maketrace heavytail"
keep_cols "$tmp/hraw.csv" > "$tmp/hk.csv"
"$B/skewer" -q --round 1ms "$tmp/hk.csv" > "$tmp/hm.csv" || fail "skewer"
strip_callids "$tmp/hm.csv" > "$tmp/hbb.csv"
run_nocal "$tmp/hbb.csv" "$tmp/h0.res" -s busy_arr=0
run_nocal "$tmp/hbb.csv" "$tmp/h1.res" -s busy_arr=1
"$B/infer" --algo fcfs -o "$tmp/hf.res" "$tmp/hbb.csv" 2> /dev/null || fail "infer fcfs"
h0=$(exact_of "$tmp/hm.csv" "$tmp/h0.res")
h1=$(exact_of "$tmp/hm.csv" "$tmp/h1.res")
hf=$(exact_of "$tmp/hm.csv" "$tmp/hf.res")
echo "# heavytail x2 s55 1 ms black box: busy_arr=0 $h0, busy_arr=1 $h1, fcfs $hf"
echo "# $(grep '^# busy_arr=api' "$tmp/h1.res")"
awk -v a="$h0" -v b="$hf" 'BEGIN { exit !(a <= b + 0.005) }' ||
    fail "busy_arr=0 $h0 is not fcfs's $hf: the fault moved"
grep -q '^# busy_arr=api .* verdict=withdrawn' "$tmp/h1.res" ||
    fail "busy_arr=1: api's verdict not withdrawn: $(grep '^# busy_arr=' "$tmp/h1.res")"
awk -v a="$h1" -v b="$hf" 'BEGIN { exit !(a >= b + 0.10) }' ||
    fail "busy_arr=1 $h1 not 10 points above fcfs $hf"
# a service that serialises keeps its verdict
"$B/maketrace" "$R/experiments/joint_event.conf" -s duration=2s > "$tmp/e.csv" || fail "maketrace event"
strip_callids "$tmp/e.csv" > "$tmp/ebb.csv"
run_nocal "$tmp/ebb.csv" "$tmp/e0.res" -s busy_arr=0
run_nocal "$tmp/ebb.csv" "$tmp/e1.res" -s busy_arr=1
grep -q '^# busy_arr=B .* verdict=kept' "$tmp/e1.res" ||
    fail "event: B's verdict not kept: $(grep '^# busy_arr=' "$tmp/e1.res")"
grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=\|^# busy_arr=' "$tmp/e0.res" > "$tmp/a"
grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=\|^# busy_arr=' "$tmp/e1.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head -5; fail "event: output changed"; }
echo "PASS"
