#!/bin/sh
# vpath's paper variant is never silently wrong (docs/precise.md), also
# when a pool hands a request's continuation to another worker after a
# return (testbed/hotel.py's `pool` model, docs/capture.md): below, thread
# d of F receives X and Y; worker w1 sends X's first call holding no
# interval (a send outside, flagged, rooting an instance of its own);
# worker w2 sends X's second call while it holds Y's interval (it replies
# to Y), so Paper's rule gives that call to Y.  Nothing on w2 violates an
# assumption, and Y's instance (Y, X's call, Y's reply) was wrong with no
# flag.  The send outside shows that some request open at F lost a call,
# so every request open at F then is flagged: Y is.  The truth's shape
# check: X wrong, Y wrong, both flagged; renaming threads changes nothing.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
for p in infer score; do [ -x "$PB_BIN/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
cat > "$tmp/t.csv" <<'CSV'
# a dispatcher d at F, and a pool that moves X's continuation from w1 to w2 after a return while w2 serves Y
id,ts,recv_ts,src,dst,type,callid,path,cause,thread,sthread,conn
1,0.000,0.001,client,F,call,,1,,d,c1,C>F:0
2,0.001,0.002,client,F,call,,2,,d,c2,C>F:1
3,0.003,0.004,F,S,call,,1,1,s1,w1,F>S:0
4,0.005,0.006,S,F,return,,1,3,w1,s1,F>S:0
5,0.007,0.008,F,S,call,,1,4,s1,w2,F>S:1
6,0.009,0.010,S,F,return,,1,5,w2,s1,F>S:1
7,0.011,0.012,F,client,return,,2,2,c2,w2,C>F:1
8,0.013,0.014,F,client,return,,1,6,c1,w3,C>F:0
CSV
sed 's/,w2,/,worker-B,/g; s/,w3,/,worker-C,/g; s/,d,/,disp,/g' "$tmp/t.csv" > "$tmp/t2.csv"
for f in t t2; do
    "$PB_BIN/infer" --algo vpath -s variant=paper --report "$tmp/rep" -o "$tmp/r.csv" "$tmp/$f.csv" 2> "$tmp/err" ||
        fail "infer"
    awk -F, -f "$PB_ROOT/experiments/flag_check.awk" "$tmp/rep" "$tmp/r.csv" "$tmp/$f.csv" > "$tmp/fc" 2>&1 ||
        fail "vpath paper silently wrong ($f): $(cat "$tmp/fc")"
    grep -q 'requests=2 wrong=2 wrong_unflagged=0' "$tmp/fc" || fail "($f) expected both requests wrong and flagged: $(cat "$tmp/fc")"
    grep -q 'violation_send_outside=1 ' "$tmp/r.csv" || fail "($f) the send outside is not counted"
    grep -q 'every request open at its node then is flagged' "$tmp/err" || fail "($f) nothing said on stderr"
done
echo "a hand-off after a return: every request open at the send outside is flagged"
exit 0
