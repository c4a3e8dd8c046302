#!/bin/sh
# joint without call ids, unp_wboth (joint_unpwboth.c; docs/joint/loss_w36.md,
# "The loss rule's cost: both second searches warm (h311)"): where the loss
# rule's window holds over half the messages, the whole second search runs
# as two warm searches, the free one from the first search's free solution
# and the held one from its held solution, and chooses again.  By hand:
# unp_wide_window_trace (160 requests A>B>C, calls A>B of every request = 2
# mod 7 and answers C>B = 4 mod 7 lost, call ids emptied), where the
# default runs the whole second search and the first search keeps the
# held one.  With unp_wboth=1 the metadata says search=warm_both and
# unp_wboth first=held; the intact requests are the default's (every
# request but the lossy ones is A>B>C, both warm starts find it);
# shuffled rows give the same assignment; without loss the output is the
# default's but for the params / cpu lines.  Fails before unp_wboth
# (unknown option).
. "$PB_ROOT/tests/sh/joint_lib.sh"
SP="$PB_ROOT/experiments/intact_spill.awk"
unp_wide_window_trace
"$B/infer" --algo joint -q -s unp_wboth=1 -o "$tmp/w.res" "$tmp/pb.csv" 2> /dev/null ||
    fail "infer unp_wboth=1"
grep -q '^# unp_win=whole .*reason=window_over_max$' "$tmp/d.res" ||
    fail "the default ran no whole second search: $(grep '^# unp_win' "$tmp/d.res")"
grep -q '^# unp_win=whole .* search=warm_both$' "$tmp/w.res" ||
    fail "unp_wboth=1 did not run both warm searches: $(grep '^# unp_win' "$tmp/w.res")"
grep -q '^# unp_wboth first=held second=\(free\|held\) other_paused=[01]$' "$tmp/w.res" ||
    fail "the unp_wboth line: $(grep '^# unp_wboth' "$tmp/w.res")"
d=$(awk -f "$SP" "$tmp/t.csv" "$tmp/p.csv" "$tmp/n.res" "$tmp/d.res")
w=$(awk -f "$SP" "$tmp/t.csv" "$tmp/p.csv" "$tmp/n.res" "$tmp/w.res")
echo "default:     $d"
echo "unp_wboth=1: $w"
[ "$d" = "$w" ] || fail "the intact requests differ"
assignment_of "$tmp/w.res" > "$tmp/b"
shuffle_rows 7 "$tmp/pb.csv" "$tmp/x.csv"
"$B/infer" --algo joint -q --sort -s unp_wboth=1 -o "$tmp/x.res" "$tmp/x.csv" 2> /dev/null ||
    fail "infer shuffled"
assignment_of "$tmp/x.res" > "$tmp/c"
cmp -s "$tmp/b" "$tmp/c" || fail "shuffled rows changed the result"
"$B/infer" --algo joint -q -s unp_wboth=1 -o "$tmp/nw.res" "$tmp/tb.csv" 2> /dev/null ||
    fail "infer without loss"
grep -v '^# \(params\|cpu\|program\)' "$tmp/n.res" > "$tmp/a"
grep -v '^# \(params\|cpu\|program\)' "$tmp/nw.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "without loss unp_wboth changed the output"
exit 0
