#!/bin/sh
# joint without call ids, unp_copy (joint_unpcopy.c; docs/joint/loss_late.md,
# "The loss rule's cost: the copies' second search (h259)"): in the
# self-calibration's lossy copies the loss rule's second search runs on its
# window at any size (1), on unp_alt=2's local window (2) or not at all
# (3); the real trace's search is untouched, so only confidences move.
# By hand (test_joint_unp_alt.sh's trace, 400 requests): A>B>C, one request
# every 1-3 ms, C answers in 1-5 ms, B holds each request 20 ms more before
# it answers A, so about ten requests are open at A>B at once; 5 % of the
# messages dropped (sniffer seed 9), call ids emptied.  One of the two
# copies' unpaired choices changes messages there, so its second search
# runs: with each value the assignment (ids, requests, parents) is the
# default's; with 3 the confidences differ (the copy kept its first
# search), and the metadata counts the copies.  Shuffled rows give the same
# output; without loss the output is the default's but for the params /
# cpu lines.  And lost calls in the middle of a link (the calls A>B of
# requests 31, 60 and 90 of 120 removed) cost only their requests, as at
# the default.  Fails before unp_copy (an unknown option).
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
rows() { awk -F, '/^# table=assignment/ { on = 1 } on && !/^#/ { print $1 "," $2 "," $4 }' "$1"; }
abh_trace 400 > "$tmp/t.csv" || fail "the hand-made trace"
"$B/sniffer" -q -p 0.05 --seed 9 "$tmp/t.csv" > "$tmp/l.csv" || fail "sniffer"
strip_callids "$tmp/l.csv" > "$tmp/lb.csv"
strip_callids "$tmp/t.csv" > "$tmp/tb.csv"
"$B/infer" --algo joint -q $OLD_COPY -o "$tmp/d.res" "$tmp/lb.csv" 2> /dev/null || fail "infer default"
rows "$tmp/d.res" > "$tmp/dr"
[ -s "$tmp/dr" ] || fail "no assignment rows"
for c in 1 2 3; do
    "$B/infer" --algo joint -q $OLD_COPY -s unp_copy=$c -o "$tmp/c$c.res" "$tmp/lb.csv" 2> /dev/null ||
        fail "infer unp_copy=$c"
    grep "^# unp_copy=" "$tmp/c$c.res"
    grep -q "^# unp_copy=$c copies=2 changed=1 " "$tmp/c$c.res" ||
        fail "unp_copy=$c: not one copy of two changed: $(grep '^# unp_copy=' "$tmp/c$c.res")"
    rows "$tmp/c$c.res" > "$tmp/cr"
    cmp -s "$tmp/dr" "$tmp/cr" || fail "unp_copy=$c changed the assignment"
done
grep -q '^# unp_copy=3 .* window=0 ' "$tmp/c3.res" || fail "unp_copy=3: a copy's second search ran"
grep -q '^# unp_copy=1 .* window=1 ' "$tmp/c1.res" || fail "unp_copy=1: no copy's window"
grep -v '^# \(params\|cpu\|program\|unp_copy\)' "$tmp/d.res" > "$tmp/a"
grep -v '^# \(params\|cpu\|program\|unp_copy\)' "$tmp/c3.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" && fail "unp_copy=3 changed nothing: the copy's second search did not matter here"
shuffle_rows 7 "$tmp/lb.csv" "$tmp/x.csv"
"$B/infer" --algo joint -q $OLD_COPY --sort -s unp_copy=3 -o "$tmp/x.res" "$tmp/x.csv" 2> /dev/null ||
    fail "infer shuffled"
assignment_of "$tmp/c3.res" > "$tmp/a"; assignment_of "$tmp/x.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "shuffled rows changed the output"
"$B/infer" --algo joint -q $OLD_COPY -o "$tmp/n.res" "$tmp/tb.csv" 2> /dev/null || fail "infer without loss"
"$B/infer" --algo joint -q $OLD_COPY -s unp_copy=3 -o "$tmp/n3.res" "$tmp/tb.csv" 2> /dev/null ||
    fail "infer unp_copy=3 without loss"
grep -v '^# \(params\|cpu\|program\|unp_copy\)' "$tmp/n.res" > "$tmp/a"
grep -v '^# \(params\|cpu\|program\|unp_copy\)' "$tmp/n3.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "without loss unp_copy changed the output"
# a lost call in the middle of a link costs only its requests
# (test_joint_unp_lostmid.sh's trace: the calls A>B of requests 31, 60 and
# 90 of 120 removed; the default keeps all 84 intact requests exact)
lostmid_trace 0.004
"$B/infer" --algo joint -q $OLD_COPY -o "$tmp/n1.res" "$tmp/tb.csv" 2> /dev/null || fail "infer 120 without loss"
for c in 1 2 3; do
    "$B/infer" --algo joint -q $OLD_COPY -s unp_copy=$c -o "$tmp/m$c.res" "$tmp/pb.csv" 2> /dev/null ||
        fail "infer 120 unp_copy=$c"
    m=$(awk -f "$SP" "$tmp/t.csv" "$tmp/p.csv" "$tmp/n1.res" "$tmp/m$c.res")
    echo "lost mid, unp_copy=$c: $m"
    case "$m" in "intact=117 exact_noloss=84 exact_loss=84 still=84 lost=0 "*) ;;
        *) fail "unp_copy=$c: the lost calls cost other requests: $m" ;; esac
done
exit 0
