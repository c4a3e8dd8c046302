#!/bin/sh
# joint with call ids and no loss: a request's calls one at a time on the
# links a test calls serial (loss_serial=4; docs/joint/loss.md, "Loss
# with call ids: a request's calls one at a time", "Without loss").  On
# experiments/joint_loss_repeat.conf (12,000 messages, seed 1: the
# development seed) the front end never has two calls of a request out at
# once, yet without the term the search stacks a neighbour's calls onto a
# request whose own call is out: with the term more requests come out
# exact (0.740 -> 0.798 when written).  A parallel fan-out
# (experiments/joint_apps_wide.conf, sixty calls at once) must stay
# neutral: the test leaves its links unpriced and the assignment is the
# same as without the term.  Shuffled rows give the same result, renamed
# nodes the same accuracy.  Fails on a tree without loss_serial=4 (the
# value is out of range there).
. "$PB_ROOT/tests/sh/joint_lib.sh"
run() { run_nocal "$@"; }       # trace out [options]: joint with call ids
exact() { exact_of "$@"; }
parents() { awk -F, '/^# table=assignment/ { on = 1 } on && !/^#/ { print $1, $2, $3, $4 }' "$1"; }
"$B/maketrace" "$PB_ROOT/experiments/joint_loss_repeat.conf" -D messages=12000 -D duration=0 \
    > "$tmp/t.csv" || fail "maketrace"
run "$tmp/t.csv" "$tmp/r1.csv" -s loss_serial=1
run "$tmp/t.csv" "$tmp/r4.csv" -s loss_serial=4
e1=$(exact "$tmp/t.csv" "$tmp/r1.csv")
e4=$(exact "$tmp/t.csv" "$tmp/r4.csv")
echo "repeated serial calls, no loss: exact loss_serial=1 $e1, loss_serial=4 $e4"
awk -v a="$e1" -v b="$e4" 'BEGIN { exit !(b >= a + 0.03) }' ||
    fail "the term does not undo the stacked requests: $e1 -> $e4"
grep -q '^# loss_serial=test links_tested=[1-9][0-9]* links_priced=[1-9]' "$tmp/r4.csv" ||
    fail "no loss_serial=test metadata (or no link priced): $(grep '^# loss_serial' "$tmp/r4.csv")"
grep -q '^# loss_serial=' "$tmp/r1.csv" && fail "loss_serial metadata without loss at loss_serial=1"
# a parallel fan-out: the test prices none of its sixty parallel calls'
# links, the assignment does not move
"$B/maketrace" "$PB_ROOT/experiments/joint_apps_wide.conf" -D duration=1s > "$tmp/w.csv" ||
    fail "maketrace (wide)"
run "$tmp/w.csv" "$tmp/w1.csv" -s loss_serial=1
run "$tmp/w.csv" "$tmp/w4.csv" -s loss_serial=4
m=$(grep '^# loss_serial=' "$tmp/w4.csv")
echo "fan-out: $m"
echo "$m" | awk '{ split($3, t, "="); split($4, p, "="); exit !(t[2] >= 10 && p[2] <= 1) }' ||
    fail "the test priced parallel links: $m"
parents "$tmp/w1.csv" > "$tmp/a"
parents "$tmp/w4.csv" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head -5; fail "the term moved calls of a parallel fan-out"; }
# invariances: shuffled rows (read back sorted), renamed nodes
check_shuffled_same "$tmp/t.csv" "$tmp/r4.csv" -s loss_serial=4
sed -e '/^#/!s/\bfrontend\b/zz_front/g; /^#/!s/\bcatalog\b/aa_cat/g' "$tmp/t.csv" > "$tmp/tr.csv"
cmp -s "$tmp/t.csv" "$tmp/tr.csv" && fail "renaming changed nothing"
run "$tmp/tr.csv" "$tmp/rr.csv" -s loss_serial=4
er=$(exact "$tmp/tr.csv" "$tmp/rr.csv")
[ "$er" = "$e4" ] || fail "renamed nodes changed the accuracy: $e4 -> $er"
exit 0
