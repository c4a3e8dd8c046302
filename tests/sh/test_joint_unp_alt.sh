#!/bin/sh
# joint without call ids, unp_alt (joint_unpalt.c; docs/joint/loss_late.md,
# "The loss rule's cost: the other choice's pieces and a window at any size
# (h249)").  By hand: 120 requests A>B>C (A the client, B the front end, C
# a leaf), one every 1-3 ms (a golden-ratio sequence); B calls C 0.2 ms
# after a request arrives, C answers in 1-5 ms (another golden-ratio
# sequence), and B holds the request 20 ms more before it answers A: about
# ten requests open at A>B at once, so each request's span covers many
# others (as OnlineBoutique's long requests do).  The calls B>C of requests
# 31, 60 and 90 are lost (rows removed) in the middle of the link, call
# ids emptied.  The default's window of the second search (the changed
# messages' requests widened by half their span, and every request that
# overlaps) holds over half the messages: the whole second search runs.
# With unp_alt=2 the window is each changed message's own pair widened by
# its link's median pair (B>C: a few ms), closed under requests: under a
# quarter of the messages.  Compared on and off: unp_alt=1 (the window by
# requests at any size, and the first search's other free / held solution
# offered by pieces) gives the default's intact requests; unp_alt=2 keeps
# no more requests wrong than the first search without the rule
# (unpaired=0) and a window of under a quarter; shuffled rows give the same
# assignment; without loss the output is the default's but for the params /
# cpu lines.  Fails before unp_alt (an unknown option).
. "$PB_ROOT/tests/sh/joint_lib.sh"
SP="$PB_ROOT/experiments/intact_spill.awk"
awk -v nreq=120 -v span=0.004 -v hold=0.02 'BEGIN {
    OFS = ","; print "id,ts,recv_ts,src,dst,type,callid,path,cause"
    n = 0; t = 0.001
    for (k = 0; k < nreq; k++) {
        g = 0.41421356 * k - int(0.41421356 * k)
        if (k) t += 0.001 + 0.002 * g
        u = 0.618034 * k - int(0.618034 * k)
        d = 0.001 + span * u
        ev[n] = sprintf("%.9f,A,B,call,%d,%d", t, 2 * k + 1, k + 1); key[n++] = t
        ev[n] = sprintf("%.9f,B,C,call,%d,%d", t + 0.0002, 2 * k + 2, k + 1); key[n++] = t + 0.0002
        ev[n] = sprintf("%.9f,C,B,return,%d,%d", t + 0.0002 + d, 2 * k + 2, k + 1); key[n++] = t + 0.0002 + d
        ev[n] = sprintf("%.9f,B,A,return,%d,%d", t + 0.0004 + d + hold, 2 * k + 1, k + 1)
        key[n++] = t + 0.0004 + d + hold
    }
    for (i = 1; i < n; i++) { x = ev[i]; kx = key[i]; j = i - 1
        while (j >= 0 && key[j] > kx) { ev[j + 1] = ev[j]; key[j + 1] = key[j]; j-- }
        ev[j + 1] = x; key[j + 1] = kx }
    for (i = 0; i < n; i++) { split(ev[i], f, ","); print i + 1, f[1], f[1], f[2], f[3], f[4], f[5], f[6], "" }
}' > "$tmp/t.csv" || fail "the hand-made trace"
awk -F, 'NR == 1 || !($4 == "B" && $5 == "C" && $6 == "call" && ($8 == 31 || $8 == 60 || $8 == 90))' \
    "$tmp/t.csv" > "$tmp/p.csv"
[ "$(wc -l < "$tmp/p.csv")" -eq 478 ] || fail "the three calls not removed"
strip_callids "$tmp/t.csv" > "$tmp/tb.csv"
strip_callids "$tmp/p.csv" > "$tmp/pb.csv"
"$B/infer" --algo joint -q -o "$tmp/n.res" "$tmp/tb.csv" 2> /dev/null || fail "infer without loss"
"$B/infer" --algo joint -q -o "$tmp/d.res" "$tmp/pb.csv" 2> /dev/null || fail "infer default"
"$B/infer" --algo joint -q -s unpaired=0 -o "$tmp/u0.res" "$tmp/pb.csv" 2> /dev/null ||
    fail "infer unpaired=0"
for a in 1 2; do
    "$B/infer" --algo joint -q -s unp_alt=$a -o "$tmp/a$a.res" "$tmp/pb.csv" 2> /dev/null ||
        fail "infer unp_alt=$a"
done
grep -q '^# unp_win=whole .*reason=window_over_max$' "$tmp/d.res" ||
    fail "the default ran no whole second search: $(grep '^# unp_win' "$tmp/d.res")"
d=$(awk -f "$SP" "$tmp/t.csv" "$tmp/p.csv" "$tmp/n.res" "$tmp/d.res")
u0=$(awk -f "$SP" "$tmp/t.csv" "$tmp/p.csv" "$tmp/n.res" "$tmp/u0.res")
a1=$(awk -f "$SP" "$tmp/t.csv" "$tmp/p.csv" "$tmp/n.res" "$tmp/a1.res")
a2=$(awk -f "$SP" "$tmp/t.csv" "$tmp/p.csv" "$tmp/n.res" "$tmp/a2.res")
echo "default:     $d"
echo "unpaired=0:  $u0"
echo "unp_alt=1:   $a1"
echo "unp_alt=2:   $a2"
grep '^# unp_\(win\|alt\)=' "$tmp/a2.res"
grep -q '^# unp_alt=1 pieces=[0-9]* taken=[0-9]* output=' "$tmp/a1.res" || fail "no unp_alt=1 line"
grep -q '^# unp_alt=2 pieces=[0-9]* taken=[0-9]* output=' "$tmp/a2.res" || fail "no unp_alt=2 line"
grep -q '^# unp_win=window ' "$tmp/a1.res" || fail "unp_alt=1 ran the whole second search"
[ "$d" = "$a1" ] || fail "unp_alt=1's intact requests differ from the default's"
wm=$(grep '^# unp_win=window ' "$tmp/a2.res" | sed 's/.* window_msgs=\([0-9]*\) .*/\1/')
[ -n "$wm" ] && [ "$wm" -gt 0 ] && [ "$wm" -lt 119 ] || fail "unp_alt=2's window is not local: ${wm:-none}"
l2=$(echo "$a2" | sed 's/.* lost=\([0-9]*\).*/\1/')
l0=$(echo "$u0" | sed 's/.* lost=\([0-9]*\).*/\1/')
[ "$l2" -le "$l0" ] || fail "unp_alt=2 loses more intact requests ($l2) than no rule ($l0)"
assignment_of "$tmp/a2.res" > "$tmp/a"
shuffle_rows 7 "$tmp/pb.csv" "$tmp/x.csv"
"$B/infer" --algo joint -q --sort -s unp_alt=2 -o "$tmp/x.res" "$tmp/x.csv" 2> /dev/null ||
    fail "infer shuffled"
assignment_of "$tmp/x.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "shuffled rows changed the result"
"$B/infer" --algo joint -q -s unp_alt=2 -o "$tmp/nw.res" "$tmp/tb.csv" 2> /dev/null ||
    fail "infer without loss"
grep -v '^# \(params\|cpu\|program\)' "$tmp/n.res" > "$tmp/a"
grep -v '^# \(params\|cpu\|program\)' "$tmp/nw.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "without loss unp_alt changed the output"
exit 0
