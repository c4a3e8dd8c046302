#!/bin/sh
# joint without call ids, unp_predict=1 (joint_unplp.c; docs/joint/loss_late.md,
# "A predictor of the second search's free / held choice (h231)"): a
# measurement only.  When the loss rule forces messages, the first search's
# free and held solutions are re-scored with the forced messages' pairs
# changed in place, and the scores are written beside the second search's
# own choice (metadata unp_predict=).  By hand (the trace of
# test_joint_unp_wholeone.sh): 160 requests A>B>C, the calls A>B of every
# request = 2 mod 7 and the answers C>B of every request = 4 mod 7 lost,
# call ids emptied; the first search keeps the held search and the
# default's second search the free one.  With unp_predict=1 the line says
# first=held second=free, and everything else is the default's output
# (assignment, confidences, metadata); shuffled rows give the same line
# and assignment; without loss there is no line and the output is the
# default's.  Fails before unp_predict (unknown option).
. "$PB_ROOT/tests/sh/joint_lib.sh"
unp_wide_window_trace
"$B/infer" --algo joint -q -s unp_predict=1 -o "$tmp/p.res" "$tmp/pb.csv" 2> /dev/null ||
    fail "infer unp_predict=1"
grep -q '^# unp_predict first=held .* second=free ' "$tmp/p.res" ||
    fail "no unp_predict line with first=held second=free: $(grep '^# unp_predict' "$tmp/p.res")"
grep -q '^# unp_predict .*rescored_held_minus_free=-\{0,1\}[0-9][0-9.]* predicted=\(free\|held\) ' "$tmp/p.res" ||
    fail "no re-scored margin: $(grep '^# unp_predict' "$tmp/p.res")"
grep -v '^# \(params\|cpu\|program\|unp_predict\)' "$tmp/d.res" > "$tmp/a"
grep -v '^# \(params\|cpu\|program\|unp_predict\)' "$tmp/p.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "unp_predict=1 changed the output"
shuffle_rows 7 "$tmp/pb.csv" "$tmp/x.csv"
"$B/infer" --algo joint -q --sort -s unp_predict=1 -o "$tmp/x.res" "$tmp/x.csv" 2> /dev/null ||
    fail "infer shuffled"
grep '^# unp_predict' "$tmp/p.res" > "$tmp/a"
grep '^# unp_predict' "$tmp/x.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "shuffled rows changed the unp_predict line"
assignment_of "$tmp/p.res" > "$tmp/a"
assignment_of "$tmp/x.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "shuffled rows changed the result"
"$B/infer" --algo joint -q -s unp_predict=1 -o "$tmp/np.res" "$tmp/tb.csv" 2> /dev/null ||
    fail "infer without loss"
grep -q '^# unp_predict' "$tmp/np.res" && fail "an unp_predict line without loss"
grep -v '^# \(params\|cpu\|program\)' "$tmp/n.res" > "$tmp/a"
grep -v '^# \(params\|cpu\|program\)' "$tmp/np.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "without loss unp_predict=1 changed the output"
exit 0
