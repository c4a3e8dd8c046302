#!/bin/sh
# joint without call ids: a request's calls one at a time (bb_serial=3,
# joint_bbser.c; docs/joint/accuracy_w36.md, "OnlineBoutique without call
# ids: where the errors are (h304)").  On experiments/joint_loss_repeat.conf
# (12,000 messages, seed 1) as a black box the front end never has two
# calls of a request out at once, yet without the term the search gives one
# request two calls after one return and its neighbour's chain continues
# elsewhere: with loss_serial's term on the links its test calls serial,
# more requests come out exact (0.460 -> 0.517 when written).  A parallel
# fan-out (experiments/joint_apps_wide.conf, 1 s) keeps its accuracy and at
# most one of its links priced.  With call ids the option changes nothing
# (the same bytes but the params line).  Shuffled rows give the same
# result.  Fails on a tree without bb_serial (the option is unknown there).
. "$PB_ROOT/tests/sh/joint_lib.sh"
run() { run_nocal "$@"; }
body() { grep -v '^# *\(params\|program\|cpu\)' "$1" | grep -v cpu_read_s; }
"$B/maketrace" "$PB_ROOT/experiments/joint_loss_repeat.conf" -D messages=12000 -D duration=0 \
    > "$tmp/t.csv" || fail "maketrace"
strip_callids "$tmp/t.csv" > "$tmp/tb.csv"
run "$tmp/tb.csv" "$tmp/r0.csv"
run "$tmp/tb.csv" "$tmp/r3.csv" -s bb_serial=3
e0=$(exact_of "$tmp/t.csv" "$tmp/r0.csv")
e3=$(exact_of "$tmp/t.csv" "$tmp/r3.csv")
echo "repeated serial calls, black box: exact bb_serial=0 $e0, bb_serial=3 $e3"
awk -v a="$e0" -v b="$e3" 'BEGIN { exit !(b >= a + 0.03) }' ||
    fail "the term does not undo the stacked requests: $e0 -> $e3"
grep -q '^# bb_serial=3 ' "$tmp/r3.csv" || fail "no bb_serial metadata line"
grep -q '^# loss_serial=test links_tested=[1-9][0-9]* links_priced=[1-9]' "$tmp/r3.csv" ||
    fail "no link priced: $(grep '^# loss_serial' "$tmp/r3.csv")"
grep -q '^# \(bb_serial\|loss_serial=test\)' "$tmp/r0.csv" && fail "the term's lines at bb_serial=0"
# with call ids: nothing changes
run "$tmp/t.csv" "$tmp/i0.csv"
run "$tmp/t.csv" "$tmp/i3.csv" -s bb_serial=3
body "$tmp/i0.csv" > "$tmp/a"
body "$tmp/i3.csv" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head -5; fail "bb_serial moved a trace with call ids"; }
run "$tmp/t.csv" "$tmp/i7.csv" -s bb_serial=7   # loss_serial's own check there kept as it was
body "$tmp/i7.csv" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head -5; fail "bb_serial=7 moved a trace with call ids"; }
# a parallel fan-out: accuracy kept, at most one link priced
"$B/maketrace" "$PB_ROOT/experiments/joint_apps_wide.conf" -D duration=1s > "$tmp/w.csv" ||
    fail "maketrace (wide)"
strip_callids "$tmp/w.csv" > "$tmp/wb.csv"
run "$tmp/wb.csv" "$tmp/w0.csv"
run "$tmp/wb.csv" "$tmp/w3.csv" -s bb_serial=3
w0=$(exact_of "$tmp/w.csv" "$tmp/w0.csv")
w3=$(exact_of "$tmp/w.csv" "$tmp/w3.csv")
m=$(grep '^# loss_serial=test' "$tmp/w3.csv")
echo "fan-out, black box: exact $w0 -> $w3; $m"
awk -v a="$w0" -v b="$w3" 'BEGIN { exit !(b >= a) }' || fail "the fan-out lost accuracy: $w0 -> $w3"
echo "$m" | awk '{ split($4, p, "="); exit !(p[2] <= 1) }' || fail "the test priced parallel links: $m"
# bb_serial=7: the term's inference kept here (the model without the term
# prefers it; 0.505 when written: the second inference starts from the
# first's order choice), with its check's line
run "$tmp/tb.csv" "$tmp/r7.csv" -s bb_serial=7
e7=$(exact_of "$tmp/t.csv" "$tmp/r7.csv")
grep -q '^# loss_serial_check=loglik serial_links=[1-9][0-9]* .*chosen=with' "$tmp/r7.csv" ||
    fail "bb_serial=7 did not keep the term's solution: $(grep '^# loss_serial_check' "$tmp/r7.csv")"
echo "bb_serial=7: exact $e7"
awk -v a="$e0" -v b="$e7" 'BEGIN { exit !(b >= a + 0.03) }' || fail "bb_serial=7 lost the gain: $e0 -> $e7"
check_shuffled_same "$tmp/tb.csv" "$tmp/r3.csv" -s bb_serial=3
exit 0
