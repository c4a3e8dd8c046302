#!/bin/sh
# Convolution on many nodes that share nothing: n call/return pairs, each
# between its own client and server, named in the reverse of their order
# in the trace.  Every node is a root here (spontaneous rule on an RPC
# trace; one message each way is far below min_count, so no correlation
# explains a node's sends); the roots are listed in name order (a sort, not an insertion
# sort that was quadratic in roots), and there is one correlation per
# directed edge (2n).  No timings here (tests/bench/bench_convolution.sh
# times the disjoint pairs).
set -u
: "${PB_BIN:?}"
[ -x "$PB_BIN/infer" ] || { echo "no infer"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
meta() { grep -v '^# params:\|^# trace:' "$2" | sed -n "s/^# \(.* \)\{0,1\}$1=\([^ ]*\).*/\2/p" | head -n 1; }
n=400
awk -v n=$n 'BEGIN { print "id,ts,recv_ts,src,dst,type,callid"
    for (i = 0; i < n; i++) {
        t = 1 + i * 2e-6; c = sprintf("c%03d", n - 1 - i); s = sprintf("s%03d", n - 1 - i)
        printf "%d,%.9f,%.9f,%s,%s,call,%d\n", 2 * i, t, t + 3e-7, c, s, i
        printf "%d,%.9f,%.9f,%s,%s,return,%d\n", 2 * i + 1, t + 1e-6, t + 1.5e-6, s, c, i } }' >"$tmp/p.csv"
"$PB_BIN/infer" --algo convolution "$tmp/p.csv" >"$tmp/r.csv" 2>"$tmp/err" || fail "infer failed: $(head -1 "$tmp/err")"
want=$(awk -v n=$n 'BEGIN { for (i = 0; i < 2 * n; i++) printf "%s%s%03d", i ? "," : "", i < n ? "c" : "s", i % n }')
[ "$(meta roots "$tmp/r.csv")" = "$want" ] || fail "roots not every node in name order: $(meta roots "$tmp/r.csv" | cut -c1-60)..."
[ "$(meta root_rule "$tmp/r.csv")" = spontaneous ] || fail "root_rule $(meta root_rule "$tmp/r.csv")"
[ "$(meta correlations "$tmp/r.csv")" = $((2 * n)) ] || fail "correlations $(meta correlations "$tmp/r.csv"), expected $((2 * n))"
echo "PASS test_convolution_pairs"
