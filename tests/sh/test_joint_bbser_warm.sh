#!/bin/sh
# joint without call ids: bb_serial=7's second inference from the first
# solution (bb_serial_warm=1, joint_bbser.c; docs/joint/accuracy_w36.md,
# "bb_serial=7 from the first solution (h309)").  On
# experiments/joint_loss_repeat.conf (12,000 messages, seed 1) as a black
# box the term's inference, set up on the first solution's pairs and
# parents, is kept (the model without the term prefers it) and keeps
# bb_serial's gain over the default (0.460 -> 0.5 or more when written);
# its metadata line counts the pairs and parents given.  With
# bb_serial_warm=0 no such line.  With call ids nothing changes.  Shuffled
# rows give the same result.  Fails on a tree without bb_serial_warm (the
# option is unknown there: checked on main 0fdf8017).
. "$PB_ROOT/tests/sh/joint_lib.sh"
run() { run_nocal "$@"; }
body() { grep -v '^# *\(params\|program\|cpu\)' "$1" | grep -v cpu_read_s; }
"$B/maketrace" "$PB_ROOT/experiments/joint_loss_repeat.conf" -D messages=12000 -D duration=0 \
    > "$tmp/t.csv" || fail "maketrace"
strip_callids "$tmp/t.csv" > "$tmp/tb.csv"
run "$tmp/tb.csv" "$tmp/r0.csv"
run "$tmp/tb.csv" "$tmp/rw.csv" -s bb_serial=7 -s bb_serial_warm=1
e0=$(exact_of "$tmp/t.csv" "$tmp/r0.csv")
ew=$(exact_of "$tmp/t.csv" "$tmp/rw.csv")
echo "repeated serial calls, black box: exact default $e0, bb_serial=7 warm $ew"
grep -q '^# bb_serial_warm=warm pairs_given=[1-9][0-9]* parents_given=[1-9][0-9]* parents_set=[1-9][0-9]* repair=2 swap_rounds=2$' "$tmp/rw.csv" ||
    fail "no bb_serial_warm line: $(grep '^# bb_serial_warm' "$tmp/rw.csv")"
grep -q '^# loss_serial_check=loglik serial_links=[1-9][0-9]* .*chosen=with' "$tmp/rw.csv" ||
    fail "the warm term's solution not kept: $(grep '^# loss_serial_check' "$tmp/rw.csv")"
awk -v a="$e0" -v b="$ew" 'BEGIN { exit !(b >= a + 0.03) }' || fail "bb_serial_warm lost the gain: $e0 -> $ew"
run "$tmp/tb.csv" "$tmp/r7.csv" -s bb_serial=7
grep -q '^# bb_serial_warm' "$tmp/r7.csv" && fail "a bb_serial_warm line at bb_serial_warm=0"
# the rounds are the warm inference's own
run "$tmp/tb.csv" "$tmp/r10.csv" -s bb_serial=7 -s bb_serial_warm=1 -s bb_serial_repair=1 -s bb_serial_swaps=0
grep -q '^# bb_serial_warm=warm .* repair=1 swap_rounds=0$' "$tmp/r10.csv" ||
    fail "the rounds not said: $(grep '^# bb_serial_warm' "$tmp/r10.csv")"
# bb_serial_warm=3: the window of the stacked calls searched from the
# first solution there
run "$tmp/tb.csv" "$tmp/r3.csv" -s bb_serial=7 -s bb_serial_warm=3 -s bb_serial_win_max=1
e3=$(exact_of "$tmp/t.csv" "$tmp/r3.csv")
echo "bb_serial_warm=3: exact $e3; $(grep '^# bb_serial_warm' "$tmp/r3.csv")"
grep -q '^# bb_serial_warm=window stacks=[1-9][0-9]* seeds=[1-9][0-9]* window_msgs=[1-9][0-9]* of_msgs=[1-9][0-9]* limit=1$' "$tmp/r3.csv" ||
    fail "no window line: $(grep '^# bb_serial_warm' "$tmp/r3.csv")"
awk -v a="$e0" -v b="$e3" 'BEGIN { exit !(b >= a + 0.02) }' || fail "the window lost the gain: $e0 -> $e3"
# with call ids: nothing changes
run "$tmp/t.csv" "$tmp/i0.csv"
run "$tmp/t.csv" "$tmp/iw.csv" -s bb_serial=7 -s bb_serial_warm=1
body "$tmp/i0.csv" > "$tmp/a"
body "$tmp/iw.csv" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head -5; fail "bb_serial_warm moved a trace with call ids"; }
check_shuffled_same "$tmp/tb.csv" "$tmp/rw.csv" -s bb_serial=7 -s bb_serial_warm=1
exit 0
