#!/bin/sh
# joint's busy_links (docs/joint/shapes_late.md "The busy test at a
# many-worker service with heavy-tailed delays (h254)"; algorithms/joint/busy/
# joint_busyheld.c): a service's deficit of busy landings that lies on one
# of its links alone is that callee's misfit, not a service keeping its
# requests in order.
# - maketrace's heavytail app at twice the load (seed 54, 2 s), a black
#   box: at the default the busy test finds api serialising (the deficit
#   is on api -> db, the heavy-tailed link; api -> cache lands busy as the
#   copies predict) and keeps the held search, first come first served's
#   pairing (about 4 % exact).  With busy_links=1 api's verdict is
#   withdrawn (its line gives the cache link, z above 1.96), the free
#   search is kept: at least 5 points more;
# - shuffled rows give the same assignment; api renamed the same accuracy;
# - the event loop of experiments/joint_event.conf (B serialises, both its
#   links short): busy_links=1's output is the default's byte for byte but
#   the params line.
# The heavytail runs are at fifo_lifo=0 (h261): at its default the link
# api>db is no longer first in, first out and the fault is gone.
# Fails on a tree without the option (infer rejects it).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
"$B/maketrace" "$R/experiments/joint_apps_heavytail.conf" -s seed=54 -s instances_scale=2 \
    > "$tmp/m.csv" || fail "maketrace"
strip_callids "$tmp/m.csv" > "$tmp/bb.csv"
run_nocal "$tmp/bb.csv" "$tmp/b0.res" -s fifo_lifo=0
run_nocal "$tmp/bb.csv" "$tmp/b1.res" -s busy_links=1 -s fifo_lifo=0
b0=$(exact_of "$tmp/m.csv" "$tmp/b0.res")
b1=$(exact_of "$tmp/m.csv" "$tmp/b1.res")
echo "# heavytail x2 s54 black box: default $b0, busy_links=1 $b1"
grep -q '^# busy_test=on .* held=yes chosen_by=busy_test' "$tmp/b0.res" ||
    fail "default: the busy test did not keep the held search: $(grep '^# busy_test=' "$tmp/b0.res")"
grep -q '^# busy_service=api .* serialising=yes' "$tmp/b0.res" || fail "default: api not serialising"
grep -q '^# busy_test=on .* held=no chosen_by=likelihood' "$tmp/b1.res" ||
    fail "busy_links=1: $(grep '^# busy_test=' "$tmp/b1.res")"
grep -q '^# busy_service=api .* serialising=no' "$tmp/b1.res" ||
    fail "busy_links=1: api's verdict not withdrawn: $(grep '^# busy_service=api' "$tmp/b1.res")"
awk -v a="$b0" -v b="$b1" 'BEGIN { exit !(b >= a + 0.05) }' ||
    fail "default $b0, busy_links=1 $b1 (want 5 points more)"
check_shuffled_same "$tmp/bb.csv" "$tmp/b1.res" -s busy_links=1 -s fifo_lifo=0
sed -e '/^#/!s/\bapi\b/zz_api/g' "$tmp/bb.csv" > "$tmp/rn.csv"
sed -e '/^#/!s/\bapi\b/zz_api/g' "$tmp/m.csv" > "$tmp/rnt.csv"
cmp -s "$tmp/bb.csv" "$tmp/rn.csv" && fail "renaming api changed nothing"
run_nocal "$tmp/rn.csv" "$tmp/rn.res" -s busy_links=1 -s fifo_lifo=0
[ "$(exact_of "$tmp/rnt.csv" "$tmp/rn.res")" = "$b1" ] || fail "renaming api changed the accuracy"
# a service that serialises on both its links keeps its verdict
"$B/maketrace" "$R/experiments/joint_event.conf" -s duration=2s > "$tmp/e.csv" || fail "maketrace event"
strip_callids "$tmp/e.csv" > "$tmp/ebb.csv"
run_nocal "$tmp/ebb.csv" "$tmp/e0.res"
run_nocal "$tmp/ebb.csv" "$tmp/e1.res" -s busy_links=1
grep -q '^# busy_service=B .* serialising=yes' "$tmp/e1.res" || fail "event: B's verdict withdrawn"
grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=' "$tmp/e0.res" > "$tmp/a"
grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=' "$tmp/e1.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head -5; fail "event: output changed"; }
echo "PASS"
