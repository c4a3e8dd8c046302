#!/bin/sh
# joint without call ids, unp_whole_one=3 (joint_unpone.c; docs/joint/loss_late.md,
# "The whole second search with the other choice (h222)"): when unp_win's
# window holds over half the messages, the whole second search runs only
# the free / held search the first search did NOT keep.  By hand (the trace
# of test_joint_unp_wholeone.sh): 160 requests A>B>C, the calls A>B of
# every request = 2 mod 7 and the answers C>B of every request = 4 mod 7
# lost, call ids emptied; the window is over half the trace, the first
# search keeps the held search and the default's second search the free
# one.  With unp_whole_one=3 the metadata says search=other_choice and the
# assignment (parents and confidences) is the default's; shuffled rows give
# the same assignment; without loss the output is the default's but for
# the params / cpu lines.  Fails before unp_whole_one=3 (out of range).
. "$PB_ROOT/tests/sh/joint_lib.sh"
unp_wide_window_trace
"$B/infer" --algo joint -q -s unp_whole_one=3 -o "$tmp/w.res" "$tmp/pb.csv" 2> /dev/null ||
    fail "infer unp_whole_one=3"
grep -q '^# unp_win=whole .*reason=window_over_max$' "$tmp/d.res" ||
    fail "the default ran no whole second search: $(grep '^# unp_win' "$tmp/d.res")"
grep -q '^# unp_win=whole .* search=other_choice$' "$tmp/w.res" ||
    fail "unp_whole_one=3 did not take the other choice: $(grep '^# unp_win' "$tmp/w.res")"
assignment_of "$tmp/d.res" > "$tmp/a"
assignment_of "$tmp/w.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "the assignment differs from the default's"
shuffle_rows 7 "$tmp/pb.csv" "$tmp/x.csv"
"$B/infer" --algo joint -q --sort -s unp_whole_one=3 -o "$tmp/x.res" "$tmp/x.csv" 2> /dev/null ||
    fail "infer shuffled"
assignment_of "$tmp/x.res" > "$tmp/c"
cmp -s "$tmp/b" "$tmp/c" || fail "shuffled rows changed the result"
"$B/infer" --algo joint -q -s unp_whole_one=3 -o "$tmp/nw.res" "$tmp/tb.csv" 2> /dev/null ||
    fail "infer without loss"
grep -v '^# \(params\|cpu\|program\)' "$tmp/n.res" > "$tmp/a"
grep -v '^# \(params\|cpu\|program\)' "$tmp/nw.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "without loss unp_whole_one=3 changed the output"
exit 0
