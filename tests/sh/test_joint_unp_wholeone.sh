#!/bin/sh
# joint without call ids, unp_whole_one (joint_unpone.c; docs/joint/loss_late.md,
# "The whole second search with the first search's choice (h211)"): when
# unp_win's window holds over half the messages, the whole second search
# runs the first search's free / held choice only (=1), or only where the
# first kept the held search (=2).  By hand: 160 requests A>B>C (C
# answering in 1-3 ms), the calls A>B of every request = 2 mod 7 and the
# answers C>B of every request = 4 mod 7 lost (rows removed), call ids
# emptied: the window is over half the trace and the first search keeps
# the held search.  With unp_whole_one=2 the metadata says
# search=first_choice and the parent links are the default's (both
# searches find the same pairs here; the default's second search keeps the
# free one on a tie of the two, so the confidences, fitted with the order
# terms or without, differ: not an exact cut); shuffled rows give the same
# assignment;
# without loss the output is the default's but for the params / cpu lines.
# Fails before unp_whole_one (unknown option).
. "$PB_ROOT/tests/sh/joint_lib.sh"
SP="$PB_ROOT/experiments/intact_spill.awk"
unp_wide_window_trace
"$B/infer" --algo joint -q -s unp_whole_one=2 -o "$tmp/w.res" "$tmp/pb.csv" 2> /dev/null ||
    fail "infer unp_whole_one=2"
"$B/infer" --algo joint -q -s unp_whole_one=1 -o "$tmp/w1.res" "$tmp/pb.csv" 2> /dev/null ||
    fail "infer unp_whole_one=1"
grep -q '^# unp_win=whole .*reason=window_over_max$' "$tmp/d.res" ||
    fail "the default ran no whole second search: $(grep '^# unp_win' "$tmp/d.res")"
grep -q '^# unp_win=whole .* search=first_choice$' "$tmp/w.res" ||
    fail "unp_whole_one=2 did not take the first choice: $(grep '^# unp_win' "$tmp/w.res")"
grep -q '^# unp_win=whole .* search=first_choice$' "$tmp/w1.res" ||
    fail "unp_whole_one=1 did not take the first choice"
d=$(awk -f "$SP" "$tmp/t.csv" "$tmp/p.csv" "$tmp/n.res" "$tmp/d.res")
w=$(awk -f "$SP" "$tmp/t.csv" "$tmp/p.csv" "$tmp/n.res" "$tmp/w.res")
echo "default:         $d"
echo "unp_whole_one=2: $w"
[ "$d" = "$w" ] || fail "the intact requests differ"
assignment_of "$tmp/d.res" | cut -d, -f1-4 > "$tmp/a"
assignment_of "$tmp/w.res" | cut -d, -f1-4 > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "the parent links differ from the default's"
assignment_of "$tmp/w.res" > "$tmp/b"
shuffle_rows 7 "$tmp/pb.csv" "$tmp/x.csv"
"$B/infer" --algo joint -q --sort -s unp_whole_one=2 -o "$tmp/x.res" "$tmp/x.csv" 2> /dev/null ||
    fail "infer shuffled"
assignment_of "$tmp/x.res" > "$tmp/c"
cmp -s "$tmp/b" "$tmp/c" || fail "shuffled rows changed the result"
"$B/infer" --algo joint -q -s unp_whole_one=2 -o "$tmp/nw.res" "$tmp/tb.csv" 2> /dev/null ||
    fail "infer without loss"
grep -v '^# \(params\|cpu\|program\)' "$tmp/n.res" > "$tmp/a"
grep -v '^# \(params\|cpu\|program\)' "$tmp/nw.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "without loss unp_whole_one changed the output"
exit 0
