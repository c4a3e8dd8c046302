#!/bin/sh
# joint with call ids and no loss: the serial term decided per trace
# (loss_serial=7; docs/joint/loss.md, "Loss with call ids: a request's
# calls one at a time", "Decided per trace").  Where the serial test calls
# a link serial the search runs again with the term (loss_serial=4, the
# greedy's costs seeing it: loss_serial_greedy=2) and its solution is
# kept when the model without the term finds it likelier.  On the repeat
# class at six instances (experiments/joint_loss_repeat.conf, 12,000
# messages, seed 1: the development seed) the term-free search stacks
# calls its own model finds less likely: the search with the term must be
# kept and more requests come out exact.  On the retry class
# (experiments/joint_apps_retry.conf seed 1, x1: development) retried
# calls genuinely overlap and the term's solution is less likely: the
# term-free search must be kept, byte for byte in its assignment.
# Shuffled rows give the same result.  Fails on a tree without
# loss_serial=7 (the value is out of range there).
. "$PB_ROOT/tests/sh/joint_lib.sh"
run() { run_nocal "$@"; }       # trace out [options]: joint with call ids
exact() { exact_of "$@"; }
assign() { assignment_of "$@"; }
"$B/maketrace" "$PB_ROOT/experiments/joint_loss_repeat.conf" -D messages=12000 -D duration=0 \
    -D instances=6 > "$tmp/t6.csv" || fail "maketrace (instances=6)"
run "$tmp/t6.csv" "$tmp/s1.csv" -s loss_serial=1
run "$tmp/t6.csv" "$tmp/s7.csv" -s loss_serial=7
e1=$(exact "$tmp/t6.csv" "$tmp/s1.csv")
e7=$(exact "$tmp/t6.csv" "$tmp/s7.csv")
m=$(grep '^# loss_serial_check=' "$tmp/s7.csv")
echo "repeat class x6: exact loss_serial=1 $e1, 7 $e7; $m"
echo "$m" | grep -q '^# loss_serial_check=loglik .*chosen=with$' ||
    fail "the likelihood did not keep the search with the term: $m"
awk -v a="$e1" -v b="$e7" 'BEGIN { exit !(b >= a + 0.03) }' ||
    fail "the check does not undo the stacked requests: $e1 -> $e7"
grep -q '^# loss_serial_check=' "$tmp/s1.csv" && fail "check metadata at loss_serial=1"
# retried calls overlap: the term-free search is kept
"$B/maketrace" "$PB_ROOT/experiments/joint_apps_retry.conf" -s seed=1 -s duration=2s \
    > "$tmp/w.csv" || fail "maketrace (retry)"
run "$tmp/w.csv" "$tmp/w1.csv" -s loss_serial=1
run "$tmp/w.csv" "$tmp/w7.csv" -s loss_serial=7
m=$(grep '^# loss_serial_check=' "$tmp/w7.csv")
echo "retry: $m"
echo "$m" | grep -q 'chosen=without$' || fail "the check kept the term on retried calls: $m"
assign "$tmp/w1.csv" > "$tmp/a"
assign "$tmp/w7.csv" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head -5; fail "not the term-free assignment"; }
# invariance: shuffled rows (read back sorted)
check_shuffled_same "$tmp/t6.csv" "$tmp/s7.csv" -s loss_serial=7
exit 0
