#!/bin/sh
# skewer --estimate walks only the node pairs that have messages (a sorted
# index of the pairs, not every node pair per node).  Hand-worked: the
# offsets, the order of the pairs (breadth first from the reference, each
# node's new neighbours in name order), the blind pair (ts == recv_ts both
# ways), and the nodes no estimated node reaches.  Then many nodes that
# share nothing (n$i <-> m$i): exactly one pair is estimated and every other
# node is named as without information, in node order.  No timings here
# (tests/bench/bench_convolution.sh times the disjoint pairs).
set -u
: "${PB_BIN:?}"
S="$PB_BIN/skewer"
[ -x "$S" ] || { echo "no $S"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

cat >"$tmp/t.csv" <<'EOF'
id,ts,recv_ts,src,dst,type,callid
1,1.000000000,1.000001000,Z,A,call,1
2,1.000010000,1.000013000,A,Z,return,1
3,1.000020000,1.000022000,A,C,call,2
4,1.000030000,1.000032000,C,A,return,2
5,1.000040000,1.000040000,C,D,call,3
6,1.000050000,1.000050000,D,C,return,3
7,1.000060000,1.000061000,E,F,call,4
8,1.000070000,1.000075000,Z,Y,call,5
9,1.000080000,1.000081000,Y,Z,return,5
10,1.000090000,1.000090000,F,E,return,4
EOF
# A-Z: min 3us one way, 1us back: Z = +1us; Z-Y: 5us and 1us: Y = Z + 2us;
# A-C symmetric: C = 0; C-D all ts == recv_ts: blind; E-F reaches no one
cat >"$tmp/want" <<'EOF'
A=+0s
# pair A>C: min delay 2us over 1 messages, back 2us over 1
C=+0s
# pair A>Z: min delay 3us over 1 messages, back 1us over 1
Z=+1us
# pair Z>Y: min delay 5us over 1 messages, back 1us over 1
Y=+3us
# pair C<>D: no clock information: all 2 messages have ts == recv_ts
# D: no clock information (no message both ways with a node reached, other than with ts == recv_ts); left at offset 0
# E: no clock information (no message both ways with a node reached, other than with ts == recv_ts); left at offset 0
# F: no clock information (no message both ways with a node reached, other than with ts == recv_ts); left at offset 0
EOF
"$S" --estimate --ref-node A "$tmp/t.csv" >"$tmp/out" 2>"$tmp/err" || fail "estimate failed"
tail -n +2 "$tmp/out" | diff "$tmp/want" - || fail "hand-worked estimate differs"
grep -q 'no clock information for 3 of 7 nodes (D, E, F)' "$tmp/err" || fail "no-information warning"
grep -q '^skewer: --estimate: 1 node pairs have messages both ways all with ts == recv_ts' "$tmp/err" ||
    fail "blind-pair warning"

# many nodes that share nothing
n=3000
awk -v n=$n 'BEGIN { print "id,ts,recv_ts,src,dst,type,callid"
    for (i = 0; i < n; i++) {
        t = 1 + i * 2e-6
        printf "%d,%.9f,%.9f,n%d,m%d,call,%d\n", 2 * i, t, t + 3e-7, i, i, i
        printf "%d,%.9f,%.9f,m%d,n%d,return,%d\n", 2 * i + 1, t + 1e-6, t + 1.5e-6, i, i, i } }' >"$tmp/p.csv"
"$S" --estimate "$tmp/p.csv" >"$tmp/out" 2>"$tmp/err" || fail "pairs: estimate failed"
# reference: most messages, ties by name: m0; n0 = (500ns - 300ns) / 2
grep -q '^# skewer --estimate: clock offsets relative to m0,' "$tmp/out" || fail "pairs: reference"
[ "$(grep -c '^[^#]' "$tmp/out")" -eq 2 ] || fail "pairs: two offsets expected"
grep -q '^n0=+100ns$' "$tmp/out" || fail "pairs: n0"
[ "$(grep -c '^# [nm][0-9]*: no clock information' "$tmp/out")" -eq $((2 * n - 2)) ] ||
    fail "pairs: every other node without information"
grep '^# [nm][0-9]*: no clock' "$tmp/out" | sed -n '1p;$p' | tr '\n' ' ' | grep -q "^# n1: .* # m$((n - 1)): " ||
    fail "pairs: nodes without information not in node order"
grep -q "no clock information for $((2 * n - 2)) of $((2 * n)) nodes (n1, m1, n2, m2, n3, m3, n4, m4, ...)" "$tmp/err" ||
    fail "pairs: warning"
echo "PASS test_skewer_pairs"
