#!/bin/sh
# joint without call ids, unp_where=1 (joint_unpwhere.c; docs/joint/loss_late.md,
# "The loss rule's cost: where the whole second search's changes lie (h278)"):
# metadata only.  By hand (the trace of test_joint_unp_wholeone.sh): 160
# requests A>B>C, the calls A>B of every request = 2 mod 7 and the answers
# C>B of every request = 4 mod 7 lost, call ids emptied; the window by
# candidate requests is over half the trace, so the whole second search runs.
# With unp_where=1 the output is the default's but for one line, unp_where=,
# whose counts add up against the default's own lines: its window and
# message count are unp_win's, its pieces inside + outside the window are
# unp_pieces' count, its taken ones unp_pieces' taken, and the messages of
# its pieces (inside + outside) the sum of the unp_piece lines' msgs= (and of
# the taken ones, of the taken lines).  Every piece of this trace lies
# inside the window, so unp_where=2 (the taken pieces outside it dropped)
# gives the default's rows.  Shuffled rows give the same line;
# without loss, no line and the default's output.  Fails before unp_where
# (unknown option).
. "$PB_ROOT/tests/sh/joint_lib.sh"
unp_wide_window_trace
"$B/infer" --algo joint -q -s unp_where=1 -o "$tmp/w.res" "$tmp/pb.csv" 2> /dev/null ||
    fail "infer unp_where=1"
grep -q '^# unp_win=whole .*reason=window_over_max$' "$tmp/d.res" ||
    fail "the default ran no whole second search: $(grep '^# unp_win' "$tmp/d.res")"
grep -v '^# \(params\|cpu\|program\|unp_where \)' "$tmp/d.res" > "$tmp/a"
grep -v '^# \(params\|cpu\|program\|unp_where \)' "$tmp/w.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "unp_where=1 changed the output"
[ "$(grep -c '^# unp_where ' "$tmp/w.res")" -eq 1 ] || fail "no unp_where line"
chk=$(awk '
    function v(k,   i, a) { for (i = 2; i <= NF; i++) { split($i, a, "="); if (a[1] == k) return a[2] } return "" }
    /^# unp_win=whole/ { ww = v("window_msgs"); wn = v("of_msgs") }
    /^# unp_pieces=/ { split($2, a, "="); np = a[2]; nt = v("taken") }
    /^# unp_piece=/ { pm += v("msgs"); if (v("taken") == 1) tm += v("msgs") }
    /^# unp_where / { uw = v("window_msgs"); un = v("of_msgs")
        ui = v("pieces_in") + v("pieces_out"); ut = v("taken_in") + v("taken_out")
        um = v("piece_msgs_in") + v("piece_msgs_out"); utm = v("taken_in_msgs") + v("taken_out_msgs") }
    END { if (np == "" || uw == "") { print "lines missing"; exit }
        if (uw != ww || un != wn) print "window " uw "/" un " against " ww "/" wn
        if (ui != np || ut != nt) print "pieces " ui "/" ut " against " np "/" nt
        if (um != pm || utm != tm) print "piece messages " um "/" utm " against " pm "/" tm }' "$tmp/w.res")
[ -z "$chk" ] || fail "unp_where does not add up: $chk ($(grep '^# unp_where' "$tmp/w.res"))"
# here every changed request lies in the window (every piece inside it):
# unp_where=2, which drops the taken pieces outside, gives the default's rows
grep -q '^# unp_where mode=1 .* piece_msgs_out=0 pieces_out=0 ' "$tmp/w.res" ||
    fail "a piece outside the window: $(grep '^# unp_where' "$tmp/w.res")"
"$B/infer" --algo joint -q -s unp_where=2 -o "$tmp/w2.res" "$tmp/pb.csv" 2> /dev/null ||
    fail "infer unp_where=2"
assignment_of "$tmp/d.res" > "$tmp/a"
assignment_of "$tmp/w2.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "unp_where=2 changed the rows with no piece outside"
shuffle_rows 7 "$tmp/pb.csv" "$tmp/x.csv"
"$B/infer" --algo joint -q --sort -s unp_where=1 -o "$tmp/x.res" "$tmp/x.csv" 2> /dev/null ||
    fail "infer shuffled"
[ "$(grep '^# unp_where ' "$tmp/w.res")" = "$(grep '^# unp_where ' "$tmp/x.res")" ] ||
    fail "shuffled rows changed the line"
"$B/infer" --algo joint -q -s unp_where=1 -o "$tmp/nw.res" "$tmp/tb.csv" 2> /dev/null ||
    fail "infer without loss"
grep -v '^# \(params\|cpu\|program\)' "$tmp/n.res" > "$tmp/a"
grep -v '^# \(params\|cpu\|program\)' "$tmp/nw.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "without loss unp_where=1 changed the output"
exit 0
