#!/bin/sh
# joint without call ids: bb_serial_warm=3's window from fewer seeds
# (bb_serial_seeds, joint_bbseeds.c; docs/joint/accuracy_w36.md, "A
# smaller window for bb_serial=7 (h320)").  On
# experiments/joint_loss_repeat.conf (12,000 messages, seed 1) as a black
# box: with bb_serial_seeds=1 each stacked call seeds its own request and
# one candidate's, so the window holds no more seeds or messages than
# every candidate's (bb_serial_seeds=0), at least one seed per stacked
# request, and says so (seeds_k=1 stacked_req= of_req=); the term's
# window solution is kept and keeps a gain over the default.  2 seeds at
# least as many as 1.  bb_serial_removed=1 refuses the term's solution
# where a stack is left (the first solution's exactness).  bb_serial_seeds=0 writes h309's line unchanged.
# Shuffled rows give the same result.  Fails on a tree without
# bb_serial_seeds (the option is unknown there: checked on main 0d6b0e9b).
. "$PB_ROOT/tests/sh/joint_lib.sh"
run() { run_nocal "$@"; }
"$B/maketrace" "$PB_ROOT/experiments/joint_loss_repeat.conf" -D messages=12000 -D duration=0 \
    > "$tmp/t.csv" || fail "maketrace"
strip_callids "$tmp/t.csv" > "$tmp/tb.csv"
W="-s bb_serial=7 -s bb_serial_warm=3 -s bb_serial_win_max=1"
run "$tmp/tb.csv" "$tmp/r0.csv"
# shellcheck disable=SC2086
run "$tmp/tb.csv" "$tmp/ra.csv" $W
# shellcheck disable=SC2086
run "$tmp/tb.csv" "$tmp/r1.csv" $W -s bb_serial_seeds=1
# shellcheck disable=SC2086
run "$tmp/tb.csv" "$tmp/r2.csv" $W -s bb_serial_seeds=2
grep -q '^# bb_serial_warm=window stacks=[1-9][0-9]* seeds=[1-9][0-9]* window_msgs=[1-9][0-9]* of_msgs=[1-9][0-9]* limit=1$' "$tmp/ra.csv" ||
    fail "bb_serial_seeds=0 changed h309's line: $(grep '^# bb_serial_warm' "$tmp/ra.csv")"
line1=$(grep '^# bb_serial_warm=window' "$tmp/r1.csv")
echo "seeds=1: $line1"
echo "$line1" | grep -q ' seeds_k=1 stacked_req=[1-9][0-9]* of_req=[1-9][0-9]* stacks_after=[0-9]*$' || fail "no seeds_k line: $line1"
num() { grep '^# bb_serial_warm=window' "$1" | sed -n "s/.* $2=\([0-9]*\).*/\1/p"; }
sa=$(num "$tmp/ra.csv" seeds); s1=$(num "$tmp/r1.csv" seeds); s2=$(num "$tmp/r2.csv" seeds)
wa=$(num "$tmp/ra.csv" window_msgs); w1=$(num "$tmp/r1.csv" window_msgs)
st=$(num "$tmp/r1.csv" stacked_req); rq=$(num "$tmp/r1.csv" of_req)
[ "$s1" -le "$s2" ] && [ "$s2" -le "$sa" ] || fail "seeds not ordered: k=1 $s1, k=2 $s2, all $sa"
[ "$w1" -le "$wa" ] || fail "window grew: $wa -> $w1"
[ "$s1" -ge "$st" ] && [ "$st" -le "$rq" ] || fail "fewer seeds ($s1) than stacked requests ($st of $rq)"
e0=$(exact_of "$tmp/t.csv" "$tmp/r0.csv")
e1=$(exact_of "$tmp/t.csv" "$tmp/r1.csv")
echo "exact: default $e0, bb_serial_seeds=1 $e1"
grep -q '^# loss_serial_check=loglik serial_links=[1-9][0-9]* .*chosen=with' "$tmp/r1.csv" ||
    fail "the window's solution not kept: $(grep '^# loss_serial_check' "$tmp/r1.csv")"
awk -v a="$e0" -v b="$e1" 'BEGIN { exit !(b >= a + 0.02) }' || fail "bb_serial_seeds=1 lost the gain: $e0 -> $e1"
# bb_serial_removed: the term's window solution refused where it left
# more than 1 - x of the stacks (x = 1: any stack left)
sb=$(num "$tmp/r1.csv" stacks); sf=$(num "$tmp/r1.csv" stacks_after)
echo "$line1" | grep -q ' stacks_after=[0-9]*$' || fail "no stacks_after: $line1"
# shellcheck disable=SC2086
run "$tmp/tb.csv" "$tmp/rr.csv" $W -s bb_serial_seeds=1 -s bb_serial_removed=1
if [ "$sf" -gt 0 ]; then
    grep -q '^# bb_serial_warm=window .* refused=removed_under' "$tmp/rr.csv" ||
        fail "not refused with $sf of $sb stacks left: $(grep '^# bb_serial_warm' "$tmp/rr.csv")"
    grep -q '^# loss_serial_check=loglik .*chosen=without' "$tmp/rr.csv" || fail "refused yet kept"
    er=$(exact_of "$tmp/t.csv" "$tmp/rr.csv")
    [ "$er" = "$e0" ] || fail "refused, yet not the first solution: $e0 -> $er"
fi
# shellcheck disable=SC2086
check_shuffled_same "$tmp/tb.csv" "$tmp/r1.csv" $W -s bb_serial_seeds=1
exit 0
