#!/bin/sh
# joint's late_chance (docs/joint/shapes.md "Unseen execution models";
# algorithms/joint/late/joint_lchance.c): a link's orphan share corrected for
# the requests that enclose its calls by chance.
# - experiments/joint_models_hedge.conf, 0.5 s, seed 1, with call ids:
#   every fire-and-forget `log` call outlives its request, 29 % are
#   orphans (the frontend busy 87 % of the time); late_chance=0 (the
#   default) is at most 30 % exact, late_chance=1 lifts frontend>log to
#   widen=all (late_chance_links=1) and is at least 80 %;
# - shuffled rows give the same assignment;
# - joint_apps_async.conf (late calls, no link lifted): late_chance=1 is
#   late_chance=0's output byte for byte but the params line and its own
#   late_chance_links=0 line.
# Fails on a tree without the option (infer rejects it).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
body() { grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=\|^# late_chance_links=' "$1"; }
"$B/maketrace" "$R/experiments/joint_models_hedge.conf" -s duration=0.5s > "$tmp/m.csv" ||
    fail "maketrace hedge"
run_nocal "$tmp/m.csv" "$tmp/h0.res" -s late_chance=0
run_nocal "$tmp/m.csv" "$tmp/h1.res" -s late_chance=1
e0=$(exact_of "$tmp/m.csv" "$tmp/h0.res")
e1=$(exact_of "$tmp/m.csv" "$tmp/h1.res")
echo "# hedge ids: late_chance=0 $e0, late_chance=1 $e1"
awk -v a="$e0" -v b="$e1" 'BEGIN { exit !(a <= 0.30 && b >= 0.80) }' ||
    fail "hedge: late_chance=0 $e0 (want <= 0.30), =1 $e1 (want >= 0.80)"
grep -q '^# late_chance_links=1$' "$tmp/h1.res" || fail "no late_chance_links=1 line"
grep -q '^# late_link=frontend>log .*widen=all' "$tmp/h1.res" || fail "frontend>log not widened"
! grep -q '^# late_link=frontend>log' "$tmp/h0.res" || fail "late_chance=0 widened frontend>log"
check_shuffled_same "$tmp/m.csv" "$tmp/h1.res" -s late_chance=1
"$B/maketrace" "$R/experiments/joint_apps_async.conf" -s duration=0.5s > "$tmp/a.csv" ||
    fail "maketrace async"
run_nocal "$tmp/a.csv" "$tmp/a0.res" -s late_chance=0
run_nocal "$tmp/a.csv" "$tmp/a1.res" -s late_chance=1
grep -q '^# late_chance_links=0$' "$tmp/a1.res" || fail "async: a link lifted"
body "$tmp/a0.res" > "$tmp/x"
body "$tmp/a1.res" > "$tmp/y"
cmp -s "$tmp/x" "$tmp/y" || { diff "$tmp/x" "$tmp/y" | head -5; fail "async: output changed"; }
# - joint_apps_retry.conf x2, 1 s, seed 1 (the frontend busy ~99.8 %, its
#   late `pay` calls timed-out attempts, long and rarely enclosed):
#   late_chance=1 widens fe>pay whole (the link's short calls' chance of
#   enclosure); late_chance=2 (the default: each orphan's own chance) keeps
#   it to its orphans and gives late_chance=0's output but the late_chance
#   lines.  Fails with the first rule as the default.
"$B/maketrace" "$R/experiments/joint_apps_retry.conf" -s duration=1s -s instances_scale=2 \
    > "$tmp/r.csv" || fail "maketrace retry"
run_nocal "$tmp/r.csv" "$tmp/r0.res" -s late_chance=0
run_nocal "$tmp/r.csv" "$tmp/r1.res" -s late_chance=1
run_nocal "$tmp/r.csv" "$tmp/rd.res"
grep -q '^# late_link=fe>pay .*widen=all' "$tmp/r1.res" || fail "retry: late_chance=1 no longer widens fe>pay"
grep -q '^# late_link=fe>pay' "$tmp/rd.res" && fail "retry: the default widened fe>pay whole"
grep -q '^# late_chance_link=fe>pay orphans=.* widen=orphans$' "$tmp/rd.res" ||
    fail "retry: no late_chance_link line for fe>pay"
body "$tmp/r0.res" | grep -v '^# late_chance_link=' > "$tmp/x"
body "$tmp/rd.res" | grep -v '^# late_chance_link=' > "$tmp/y"
cmp -s "$tmp/x" "$tmp/y" || { diff "$tmp/x" "$tmp/y" | head -5; fail "retry: output changed"; }
run_nocal "$tmp/m.csv" "$tmp/hd.res"
ed=$(exact_of "$tmp/m.csv" "$tmp/hd.res")
echo "# hedge ids default $ed; retry x2 fe>pay kept to its orphans"
awk -v a="$ed" 'BEGIN { exit !(a >= 0.80) }' || fail "hedge: default $ed (want >= 0.80)"
echo "PASS"
