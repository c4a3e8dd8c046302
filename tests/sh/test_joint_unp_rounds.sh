#!/bin/sh
# joint without call ids, unp_repair / unp_swaps (joint_unprounds.c;
# docs/joint/loss_late.md, "The loss rule's cost: a cheaper second search
# inside the second search only (h268)"): the loss rule's second search
# (the search again with the messages unpaired's choice leaves unpaired)
# runs that many re-pairing and swap rounds; the first search is
# untouched.  By hand (test_joint_unp_copy.sh's trace, 400 requests):
# A>B>C, one request every 1-3 ms, C answers in 1-5 ms, B holds each
# request 20 ms more, so about ten requests are open at A>B at once; 5 %
# of the messages dropped (sniffer seed 9), call ids emptied.  There the
# second search runs (on its window, and with unp_win_max=0 on the whole
# trace).  On / off agreement: with the search's own rounds given
# (unp_repair=2 unp_swaps=2) the output is the default's, window or whole,
# but for the params line and the metadata's unp_rounds line; with 0 and
# 0 the metadata says so.  Without loss (no second search) the output is
# the default's.  Shuffled rows give the same output.  A lost call in the
# middle of a link (the calls A>B of requests 31, 60 and 90 of 120
# removed) costs only its requests with 0 and 0, as at the default.
# unp_warm=1 (joint_unpwarm.c): the whole second search as one search
# from the first search's solution: the metadata says search=warm; shuffled
# rows, no loss and the lost calls in the middle of a link as above.
# Fails before unp_repair (an unknown option).
. "$PB_ROOT/tests/sh/joint_lib.sh"
# the calibration copy before the thirty-sixth wave pinned (OLD_COPY,
# joint_lib.sh): these checks compare the copy's own searches with it
# shellcheck disable=SC2086
[ -x "$B/sniffer" ] || exit 77
SP="$PB_ROOT/experiments/intact_spill.awk"
# abh_trace NREQ: the requests, B holding each 20 ms
abh_trace() {
    awk -v nreq="$1" -v span=0.004 -v hold=0.02 'BEGIN {
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
}'
}
body() { grep -v '^# \(params\|cpu\|program\|unp_rounds\)' "$1"; }
abh_trace 400 > "$tmp/t.csv" || fail "the hand-made trace"
"$B/sniffer" -q -p 0.05 --seed 9 "$tmp/t.csv" > "$tmp/l.csv" || fail "sniffer"
strip_callids "$tmp/l.csv" > "$tmp/lb.csv"
strip_callids "$tmp/t.csv" > "$tmp/tb.csv"
for w in "" "-s unp_win_max=0"; do
    "$B/infer" --algo joint -q $OLD_COPY $w -o "$tmp/d.res" "$tmp/lb.csv" 2> /dev/null || fail "infer default $w"
    grep -q '^# unp_win=' "$tmp/d.res" || fail "no second search ($w)"
    "$B/infer" --algo joint -q $OLD_COPY $w -s unp_repair=2 -s unp_swaps=2 -o "$tmp/e.res" "$tmp/lb.csv" \
        2> /dev/null || fail "infer unp_repair=2 unp_swaps=2 $w"
    grep -q '^# unp_rounds repair=2 swaps=2$' "$tmp/e.res" || fail "no unp_rounds line ($w)"
    body "$tmp/d.res" > "$tmp/a"; body "$tmp/e.res" > "$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" || fail "the search's own rounds changed the output ($w)"
    "$B/infer" --algo joint -q $OLD_COPY $w -s unp_repair=0 -s unp_swaps=0 -o "$tmp/z.res" "$tmp/lb.csv" \
        2> /dev/null || fail "infer unp_repair=0 unp_swaps=0 $w"
    grep -q '^# unp_rounds repair=0 swaps=0$' "$tmp/z.res" || fail "no unp_rounds=0 line ($w)"
    grep "^# unp_\(win\|pieces\)=" "$tmp/z.res"
done
grep -q '^# unp_win=whole' "$tmp/z.res" || fail "unp_win_max=0: not the whole second search"
shuffle_rows 7 "$tmp/lb.csv" "$tmp/x.csv"
"$B/infer" --algo joint -q $OLD_COPY -s unp_win_max=0 -s unp_warm=1 -o "$tmp/w.res" "$tmp/lb.csv" \
    2> /dev/null || fail "infer unp_warm=1"
grep -q '^# unp_win=whole .* search=warm$' "$tmp/w.res" || fail "unp_warm=1: not the warm search"
"$B/infer" --algo joint -q $OLD_COPY --sort -s unp_win_max=0 -s unp_warm=1 -o "$tmp/xw.res" "$tmp/x.csv" \
    2> /dev/null || fail "infer unp_warm=1 shuffled"
assignment_of "$tmp/w.res" > "$tmp/a"; assignment_of "$tmp/xw.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "unp_warm=1: shuffled rows changed the output"
"$B/infer" --algo joint -q $OLD_COPY -s unp_repair=0 -s unp_swaps=0 -o "$tmp/z0.res" "$tmp/lb.csv" \
    2> /dev/null || fail "infer unp_repair=0 unp_swaps=0"
"$B/infer" --algo joint -q $OLD_COPY --sort -s unp_repair=0 -s unp_swaps=0 -o "$tmp/x.res" "$tmp/x.csv" \
    2> /dev/null || fail "infer shuffled"
assignment_of "$tmp/z0.res" > "$tmp/a"; assignment_of "$tmp/x.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "shuffled rows changed the output"
"$B/infer" --algo joint -q $OLD_COPY -o "$tmp/n.res" "$tmp/tb.csv" 2> /dev/null || fail "infer without loss"
"$B/infer" --algo joint -q $OLD_COPY -s unp_repair=0 -s unp_swaps=0 -o "$tmp/n0.res" "$tmp/tb.csv" \
    2> /dev/null || fail "infer unp_repair=0 without loss"
body "$tmp/n.res" > "$tmp/a"; body "$tmp/n0.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "without loss unp_repair / unp_swaps changed the output"
"$B/infer" --algo joint -q $OLD_COPY -s unp_warm=1 -o "$tmp/nw.res" "$tmp/tb.csv" 2> /dev/null ||
    fail "infer unp_warm=1 without loss"
body "$tmp/n.res" > "$tmp/a"; body "$tmp/nw.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "without loss unp_warm changed the output"
# a lost call in the middle of a link costs only its requests
# (test_joint_unp_lostmid.sh's trace: the default keeps all 84 intact
# requests exact)
lostmid_trace 0.004
"$B/infer" --algo joint -q $OLD_COPY -o "$tmp/n1.res" "$tmp/tb.csv" 2> /dev/null || fail "infer 120 without loss"
for w in "" "-s unp_win_max=0" "-s unp_win_max=0 -s unp_warm=1 -s unp_repair=-1 -s unp_swaps=-1"; do
    "$B/infer" --algo joint -q $OLD_COPY -s unp_repair=0 -s unp_swaps=0 $w -o "$tmp/m.res" "$tmp/pb.csv" \
        2> /dev/null || fail "infer 120 unp_repair=0 unp_swaps=0 $w"
    grep -q '^# unp_win=' "$tmp/m.res" || fail "lost mid: no second search ($w)"
    m=$(awk -f "$SP" "$tmp/t.csv" "$tmp/p.csv" "$tmp/n1.res" "$tmp/m.res")
    echo "lost mid, unp_repair=0 unp_swaps=0 $w: $m"
    case "$m" in "intact=117 exact_noloss=84 exact_loss=84 still=84 lost=0 "*) ;;
        *) fail "the lost calls cost other requests ($w): $m" ;; esac
done
exit 0
