#!/bin/sh
# BorderPatrol with no flight time (docs/precise.md, "Clocks"): each node
# is scanned on its own clock, a receipt before a send of the same time.
# Where messages arrive at the instant they are sent (a simulation without
# delays: maketrace -s net_delay=0 -s call_delay=0 ...), fe's fan-out
# below sends calls 1 and 2 and receives their returns 3 and 4 at one
# instant; "receipt first" designated fe for the returns before it sent
# the calls, and the request came apart (0 of 1 exact, a cycle cut; with
# maketrace's fan-out at zero delay every request, although immediacy is
# 1).  Such receipts now rank with the sends in row order (rows are in send
# order, causes first): exact, in both contexts.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
for p in infer score; do [ -x "$PB_BIN/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
cat > "$tmp/t.csv" <<'CSV'
# maketrace's fan-out (fe calls b1 and b2 at once, then db) with every delay 0 but db's
id,ts,recv_ts,src,dst,type,callid,path,cause,thread,sthread,conn
0,0.012510660,0.012510660,client,fe,call,1,1,,fe:w0,client:c0,client>fe:0
1,0.012510660,0.012510660,fe,b1,call,2,1,0,b1:w0,fe:w0,fe>b1:0
2,0.012510660,0.012510660,fe,b2,call,3,1,0,b2:w0,fe:w0,fe>b2:0
3,0.012510660,0.012510660,b1,fe,return,2,1,1,fe:w0,b1:w0,fe>b1:0
4,0.012510660,0.012510660,b2,fe,return,3,1,2,fe:w0,b2:w0,fe>b2:0
5,0.012510660,0.012510660,fe,db,call,4,1,4,db:w0,fe:w0,fe>db:0
6,0.013064990,0.013064990,db,fe,return,4,1,5,fe:w0,db:w0,fe>db:0
7,0.013064990,0.013064990,fe,client,return,1,1,6,client:c0,fe:w0,client>fe:0
CSV
for ctx in thread node; do
    "$PB_BIN/infer" --algo borderpatrol -s context=$ctx -o "$tmp/r.csv" "$tmp/t.csv" 2> "$tmp/err" || fail "infer"
    "$PB_BIN/score" --truth "$tmp/t.csv" "$tmp/r.csv" --text > "$tmp/s" || fail "score"
    grep -q '1 of 1 true instances reconstructed exactly' "$tmp/s" ||
        fail "borderpatrol ($ctx) not exact at zero flight time: $(grep exact: "$tmp/s"); $(cat "$tmp/err")"
done
echo "borderpatrol exact on a zero-delay fan-out"
exit 0
