#!/bin/sh
# joint without call ids, unp_win=2 (joint_unpwin.c; docs/joint/shapes.md,
# "Loss without call ids, twenty-second wave"): the second search's window
# by candidate requests -- the requests holding a changed message and the
# requests of the first search's pairs, on a changed message's link, whose
# call-to-return interval holds its stamp; no time padding.  By hand (the
# trace of test_joint_unp_lostmid.sh): 120 requests A>B>C, C answering in
# 1-5 ms, two or three requests in flight at B; the calls A>B of requests
# 31, 60 and 90 lost (rows removed), call ids emptied.  The first search
# alone (unpaired=0) loses 3 or more intact requests exact without loss;
# with unp_win=2 none is lost (84 of 117 intact exact, as without loss),
# the window is smaller than unp_win=1's time window, shuffled rows give
# the same assignment, renamed nodes the same accuracy, and without loss
# the output equals the default's but for the params / cpu lines.  Fails
# before unp_win=2 (out of range).
. "$PB_ROOT/tests/sh/joint_lib.sh"
SP="$PB_ROOT/experiments/intact_spill.awk"
lostmid_trace 0.004
R="-s unpaired=1 -s unp_pieces=1 -s unp_flow=2"
"$B/infer" --algo joint -q -o "$tmp/n.res" "$tmp/tb.csv" 2> /dev/null || fail "infer without loss"
"$B/infer" --algo joint -q -s unpaired=0 -o "$tmp/d.res" "$tmp/pb.csv" 2> /dev/null || fail "infer unpaired=0"
"$B/infer" --algo joint -q $R -s unp_win=1 -o "$tmp/w1.res" "$tmp/pb.csv" 2> /dev/null || fail "infer unp_win=1"
"$B/infer" --algo joint -q $R -s unp_win=2 -o "$tmp/w.res" "$tmp/pb.csv" 2> /dev/null || fail "infer unp_win=2"
d=$(awk -f "$SP" "$tmp/t.csv" "$tmp/p.csv" "$tmp/n.res" "$tmp/d.res")
w=$(awk -f "$SP" "$tmp/t.csv" "$tmp/p.csv" "$tmp/n.res" "$tmp/w.res")
echo "unpaired=0: $d"
echo "unp_win=2:  $w"
dl=$(echo "$d" | sed 's/.* lost=\([0-9]*\).*/\1/')
[ "$dl" -ge 3 ] || fail "the first search lost only $dl: the case does not shift the link"
case "$w" in "intact=117 exact_noloss=84 exact_loss=84 still=84 lost=0 "*) ;;
    *) fail "the lost calls cost other requests with unp_win=2: $w" ;; esac
wl=$(grep '^# unp_win=window ' "$tmp/w.res") || fail "no window: $(grep '^# unp_win' "$tmp/w.res")"
w1=$(grep '^# unp_win=window ' "$tmp/w1.res") || fail "no unp_win=1 window"
echo "$wl"; echo "$w1"
wm=$(echo "$wl" | sed 's/.* window_msgs=\([0-9]*\) .*/\1/')
wm1=$(echo "$w1" | sed 's/.* window_msgs=\([0-9]*\) .*/\1/')
[ "$wm" -gt 0 ] && [ "$wm" -lt "$wm1" ] || fail "the window is not smaller: $wm vs unp_win=1's $wm1"
shuffle_rows 7 "$tmp/pb.csv" "$tmp/x.csv"
"$B/infer" --algo joint -q --sort $R -s unp_win=2 -o "$tmp/x.res" "$tmp/x.csv" 2> /dev/null || fail "infer shuffled"
assignment_of "$tmp/w.res" > "$tmp/a"; assignment_of "$tmp/x.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "shuffled rows changed the result"
sed -e '/^#/!s/\bB\b/zz_front/g; /^#/!s/\bC\b/aa_c/g' "$tmp/pb.csv" > "$tmp/r.csv"
cmp -s "$tmp/pb.csv" "$tmp/r.csv" && fail "renaming changed nothing"
"$B/infer" --algo joint -q $R -s unp_win=2 -o "$tmp/r.res" "$tmp/r.csv" 2> /dev/null || fail "infer renamed"
[ "$(exact_of "$tmp/r.csv" "$tmp/r.res")" = "$(exact_of "$tmp/pb.csv" "$tmp/w.res")" ] ||
    fail "renaming nodes changed the accuracy"
"$B/infer" --algo joint -q $R -s unp_win=2 -o "$tmp/nw.res" "$tmp/tb.csv" 2> /dev/null || fail "infer without loss"
grep -v '^# \(params\|cpu\|program\)' "$tmp/n.res" > "$tmp/a"
grep -v '^# \(params\|cpu\|program\)' "$tmp/nw.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "without loss unp_win=2 changed the output"
exit 0
