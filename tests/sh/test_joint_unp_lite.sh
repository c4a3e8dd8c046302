#!/bin/sh
# joint without call ids, unp_lite (joint_unplite.c; docs/joint/loss_w34.md,
# "The loss rule's cost: one search where the loss shows before the search
# (h293)").  By hand (the trace of test_joint_unp_wholeone.sh): 160 requests
# A>B>C, the calls A>B of every request = 2 mod 7 and the answers C>B of
# every request = 4 mod 7 lost (23 each), call ids emptied.  Before any
# search two links show the loss: A>B holds 137 calls and 160 returns, B>C
# 160 calls and 137 returns (links_unequal=2).  With unp_lite=1 the free
# search alone decides the forced messages and the forced search is the
# output whole: the line says mode=1 links_unequal=2, forced > 0 and
# default_path=0, and no unp_pieces line is made (no pieces).  With
# unp_lite=4 the pieces are taken against that free search: a unp_pieces
# line.  Shuffled rows give the same line and assignment.  Without loss no
# link shows unequal counts: no line, the default's output (the option
# reads nothing else).  Fails before unp_lite (unknown option).
. "$PB_ROOT/tests/sh/joint_lib.sh"
unp_wide_window_trace
"$B/infer" --algo joint -q -s unp_lite=1 -o "$tmp/l1.res" "$tmp/pb.csv" 2> /dev/null ||
    fail "infer unp_lite=1"
l=$(grep '^# unp_lite' "$tmp/l1.res")
case "$l" in
"# unp_lite mode=1 links_unequal=2 forced="[1-9]*" default_path=0") ;;
*) fail "unp_lite=1's line: $l" ;;
esac
! grep -q '^# unp_pieces=' "$tmp/l1.res" || fail "unp_lite=1 took pieces: $(grep '^# unp_pieces=' "$tmp/l1.res")"
"$B/infer" --algo joint -q -s unp_lite=4 -o "$tmp/l4.res" "$tmp/pb.csv" 2> /dev/null ||
    fail "infer unp_lite=4"
grep -q '^# unp_lite mode=4 links_unequal=2 forced=[1-9][0-9]* default_path=0$' "$tmp/l4.res" ||
    fail "unp_lite=4's line: $(grep '^# unp_lite' "$tmp/l4.res")"
grep -q '^# unp_pieces=' "$tmp/l4.res" || fail "unp_lite=4: no pieces"
shuffle_rows 7 "$tmp/pb.csv" "$tmp/x.csv"
"$B/infer" --algo joint -q --sort -s unp_lite=1 -o "$tmp/x.res" "$tmp/x.csv" 2> /dev/null ||
    fail "infer shuffled"
[ "$l" = "$(grep '^# unp_lite' "$tmp/x.res")" ] || fail "shuffled rows changed the line"
assignment_of "$tmp/l1.res" > "$tmp/a"
assignment_of "$tmp/x.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "shuffled rows changed the assignment"
for m in 1 4; do
    "$B/infer" --algo joint -q -s unp_lite=$m -o "$tmp/nl.res" "$tmp/tb.csv" 2> /dev/null ||
        fail "infer without loss"
    grep -v '^# \(params\|cpu\|program\)' "$tmp/n.res" > "$tmp/a"
    grep -v '^# \(params\|cpu\|program\)' "$tmp/nl.res" > "$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" || fail "without loss unp_lite=$m changed the output"
done
exit 0
