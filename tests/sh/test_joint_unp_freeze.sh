#!/bin/sh
# joint without call ids, unp_freeze (joint_unpfreeze.c; docs/joint/loss_w34.md,
# "The loss rule's cost: the second search with the outside frozen (h286)").
# By hand (the trace of test_joint_unp_wholeone.sh): 160 requests A>B>C, the
# calls A>B of every request = 2 mod 7 and the answers C>B of every request
# = 4 mod 7 lost, call ids emptied; the window by candidate requests is over
# half the trace, so the default runs the whole second search.  With
# unp_freeze=1 the second search runs on the whole trace with the requests
# outside that window frozen: its line says unp_win=frozen with the default's
# window (seeds, window_msgs, of_msgs), frozen_pairs = the pairs wholly
# outside it (of_msgs - window_msgs messages, the frozen ones each one or two
# of them, so between half that count and that count) and moved=0 (no frozen
# pair left its pair or parent).
# unp_freeze=2 (the window by each changed message's link median) says
# by=link_median.  Shuffled rows give the same line and rows; without loss
# the default's output.  Fails before unp_freeze (unknown option).
. "$PB_ROOT/tests/sh/joint_lib.sh"
unp_wide_window_trace
grep -q '^# unp_win=whole .*reason=window_over_max$' "$tmp/d.res" ||
    fail "the default ran no whole second search: $(grep '^# unp_win' "$tmp/d.res")"
"$B/infer" --algo joint -q -s unp_freeze=1 -o "$tmp/f.res" "$tmp/pb.csv" 2> /dev/null ||
    fail "infer unp_freeze=1"
l=$(grep '^# unp_win=' "$tmp/f.res")
d=$(grep '^# unp_win=' "$tmp/d.res" | sed 's/.*\(seeds=[0-9]* window_msgs=[0-9]* of_msgs=[0-9]*\).*/\1/')
case "$l" in
"# unp_win=frozen $d frozen_pairs="*" moved=0 by=candidate_requests") ;;
*) fail "the line: $l (default's window: $d)" ;;
esac
chk=$(echo "$l" | awk '{ for (i = 2; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] }
    out = v["of_msgs"] - v["window_msgs"]
    if (out <= 0 || v["frozen_pairs"] * 2 < out || v["frozen_pairs"] > out) print "frozen " v["frozen_pairs"] " for " out " messages outside" }')
[ -z "$chk" ] || fail "$chk"
"$B/infer" --algo joint -q -s unp_freeze=2 -s unp_freeze_close=1 -o "$tmp/f2.res" "$tmp/pb.csv" 2> /dev/null ||
    fail "infer unp_freeze=2"
grep -q '^# unp_win=frozen .* moved=0 by=link_median$' "$tmp/f2.res" ||
    fail "unp_freeze=2's line: $(grep '^# unp_win' "$tmp/f2.res")"
shuffle_rows 7 "$tmp/pb.csv" "$tmp/x.csv"
"$B/infer" --algo joint -q --sort -s unp_freeze=1 -o "$tmp/x.res" "$tmp/x.csv" 2> /dev/null ||
    fail "infer shuffled"
[ "$l" = "$(grep '^# unp_win=' "$tmp/x.res")" ] || fail "shuffled rows changed the line"
assignment_of "$tmp/f.res" > "$tmp/a"
assignment_of "$tmp/x.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "shuffled rows changed the assignment"
"$B/infer" --algo joint -q -s unp_freeze=1 -o "$tmp/nf.res" "$tmp/tb.csv" 2> /dev/null ||
    fail "infer without loss"
grep -v '^# \(params\|cpu\|program\)' "$tmp/n.res" > "$tmp/a"
grep -v '^# \(params\|cpu\|program\)' "$tmp/nf.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "without loss unp_freeze=1 changed the output"
exit 0
