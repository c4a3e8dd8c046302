#!/bin/sh
# A lost call on a persistent connection (docs/precise.md, "Lost
# messages"): vpath's paper variant pairs a call with its return by order
# on the connection, borderpatrol by it where there is no call id.  When
# the capture lost a call, its return reaches the caller before the next
# call on that connection is sent (both on the caller's clock); pairing it
# with that call anyway shifted every later call of the connection onto
# the return of the call before it: all three requests below were wrong,
# one of them without a flag (vPath silently wrong).  The return is left
# out instead (counted in unpaired_returns, said on stderr): only the
# request that lost its call is wrong, and vpath flags it.  The same holds
# under a clock offset of the callee (skew cannot fake the rule: it
# compares the caller's own times), and the rule leaves complete traces
# unchanged (tests/sh/test_precise_models.sh).
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
for p in infer score; do [ -x "$PB_BIN/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
field() { awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++) if($i==n) c=i} NR==2{print $c}' "$2"; }
# S's clock: OFF seconds added to every time S stamps (its sends' ts, its
# receipts' recv_ts).
trace() {
    awk -F, -v OFS=, -v off="$1" '
        /^#/ || $1 == "id" { print; next }
        { if ($4 == "S") $2 = sprintf("%.3f", $2 + off)
          if ($5 == "S") $3 = sprintf("%.3f", $3 + off)
          print }' <<'CSV'
# A persistent connection A>S:0 (a pooled or keep-alive connection) carries the one call of each of three requests; the capture lost request 1's call (id 2)
id,ts,recv_ts,src,dst,type,callid,path,cause,thread,sthread,conn
1,0.000,0.001,client,A,call,,1,,a1,c1,C>A:0
2,0.002,0.003,A,S,call,,1,1,s1,a1,A>S:0
3,0.004,0.005,S,A,return,,1,2,a1,s1,A>S:0
4,0.006,0.007,A,client,return,,1,3,c1,a1,C>A:0
5,0.010,0.011,client,A,call,,2,,a1,c1,C>A:1
6,0.012,0.013,A,S,call,,2,5,s1,a1,A>S:0
7,0.014,0.015,S,A,return,,2,6,a1,s1,A>S:0
8,0.016,0.017,A,client,return,,2,7,c1,a1,C>A:1
9,0.020,0.021,client,A,call,,3,,a1,c1,C>A:2
10,0.022,0.023,A,S,call,,3,9,s1,a1,A>S:0
11,0.024,0.025,S,A,return,,3,10,a1,s1,A>S:0
12,0.026,0.027,A,client,return,,3,11,c1,a1,C>A:2
CSV
}
for off in 0 0.009 -0.003; do
    # the truth, and the capture without id 2 (as sniffer writes it)
    trace "$off" > "$tmp/raw.csv"
    { grep -E '^(#|id,)' "$tmp/raw.csv"; grep -vE '^(#|id,)' "$tmp/raw.csv" | sort -t, -k2,2g -s; } > "$tmp/full.csv"
    awk -F, '$1 == "id" { print "# sniffer: messages=12 kept=11 dropped=1"; print; next } $1 != 2' \
        "$tmp/full.csv" > "$tmp/t.csv"
    for algo in "vpath -s variant=paper" "borderpatrol"; do
        # shellcheck disable=SC2086
        "$PB_BIN/infer" --algo $algo --report "$tmp/rep" -o "$tmp/r.csv" "$tmp/t.csv" 2> "$tmp/err" ||
            { cat "$tmp/err"; fail "$algo: infer"; }
        "$PB_BIN/score" --truth "$tmp/full.csv" "$tmp/r.csv" > "$tmp/s" || fail "$algo: score"
        ok=$(field instances_exact "$tmp/s")
        [ "$ok" = 2 ] || fail "$algo (S offset $off): $ok of 3 requests exact, expected 2 (requests 2 and 3)"
        grep -q 'unpaired_returns=1 ' "$tmp/r.csv" || fail "$algo (S offset $off): the lost call's return is not counted"
        grep -q '1 returns answer no call' "$tmp/err" || fail "$algo (S offset $off): nothing said on stderr"
        case $algo in vpath*)
            awk -F, -f "$PB_ROOT/experiments/flag_check.awk" "$tmp/rep" "$tmp/r.csv" "$tmp/t.csv" > "$tmp/fc" 2>&1 ||
                fail "vpath paper silently wrong (S offset $off): $(cat "$tmp/fc")" ;;
        esac
    done
done
echo "lost call on a persistent connection: 2 of 3 exact, counted, vpath flags the third"
exit 0
