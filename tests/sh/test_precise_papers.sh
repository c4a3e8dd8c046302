#!/bin/sh
# The precise tracers on the papers' own examples, hand-worked
# (tests/data/precise/*.csv, each with the story in its first line):
# - vPath Figure 1 (two components, request X over TCP1 calls Y over TCP2),
#   two concurrent requests, with pool workers and with a dispatcher:
#   vpath's paper variant is exact in both without a violation; the
#   artifact's register fails in both and the clean variant fails with the
#   dispatcher (the thread that receives a request is not the one that
#   serves it);
# - BorderPatrol Figure 8 (pipelined image requests through Apache to
#   FastCGI): with event isolation borderpatrol is exact; without it one
#   read returns House.jpg and Mark2.jpg, and House.jpg's FastCGI call is
#   attributed to Mark2.jpg (6.1): 1 of 3 requests exact, the instance
#   repaired by the witness flagged;
# - BorderPatrol Figure 10 (Zeus, one event-driven thread): exact, the
#   FastCGI call going to statimg.fcgi, not to 1t.gif read after it.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
for p in infer score; do [ -x "$PB_BIN/$p" ] || exit 77; done
D="$PB_ROOT/tests/data/precise"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
field() { awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++) if($i==n) c=i} NR==2{print $c}' "$2"; }
meta() { grep -o "$1=[0-9]*" "$2" | head -n 1 | cut -d= -f2; }
# check FIXTURE ALGO-ARGS EXACT [META=VALUE ...]
check() {
    f=$1 a=$2 want=$3
    shift 3
    # shellcheck disable=SC2086
    "$PB_BIN/infer" --algo $a -o "$tmp/r.res" "$D/$f.csv" 2> "$tmp/r.err" || fail "$f: infer $a"
    "$PB_BIN/score" --truth "$D/$f.csv" "$tmp/r.res" > "$tmp/r.score" || fail "$f: score $a"
    got=$(field exact_accuracy "$tmp/r.score")
    [ "$got" = "$want" ] || fail "$f: $a: exact_accuracy $got, expected $want"
    for kv in "$@"; do
        k=${kv%%=*} v=${kv#*=}
        g=$(meta "$k" "$tmp/r.res")
        [ "$g" = "$v" ] || fail "$f: $a: $k=$g, expected $v"
    done
}
zero="violation_two_intervals=0 violation_send_outside=0 violation_conn_busy=0 violation_handoff=0 violation_dispatcher_send=0 flagged_instances=0"
for f in fig1_pool fig1_dispatcher; do
    for view in call message; do
        # shellcheck disable=SC2086
        check $f "vpath -s variant=paper -s view=$view" 1 $zero
        # per-tier latency: the truth's own, node by node
        [ "$(field latency_error_max "$tmp/r.score")" = 0 ] || fail "$f $view: per-tier latency off"
        "$PB_BIN/infer" --algo truth -s view=$view -o "$tmp/t.res" "$D/$f.csv" || fail "oracle $f"
        [ "$(grep '^1,' "$tmp/r.res" | head -n 1)" = "$(grep '^1,' "$tmp/t.res" | head -n 1)" ] ||
            fail "$f $view: pattern line (latencies) differs from the truth's"
    done
    check $f "vpath" 0
done
check fig1_pool "vpath -s variant=clean" 1
check fig1_dispatcher "vpath -s variant=clean" 0
# what the paper variant does without sthread / conn: falls back and says so
grep -v '^#' "$D/fig1_pool.csv" | cut -d, -f1-10 > "$tmp/nost.csv"
"$PB_BIN/infer" --algo vpath -s variant=paper -o "$tmp/r.res" "$tmp/nost.csv" 2> "$tmp/r.err" || fail "no sthread"
grep -q 'no sthread column: a reply is taken as sent by the thread that received' "$tmp/r.err" || fail "no sthread: no fallback said"
grep -q 'no conn column: calls and returns paired by call id' "$tmp/r.err" || fail "no conn: no fallback said"
"$PB_BIN/score" --truth "$D/fig1_pool.csv" "$tmp/r.res" > "$tmp/r.score"
[ "$(field exact_accuracy "$tmp/r.score")" = 1 ] || fail "pool without sthread: not exact"

for ctx in thread node; do
    for view in call message; do
        check fig8_isolated "borderpatrol -s context=$ctx -s view=$view" 1 witness_repairs=0
        check fig8_batched "borderpatrol -s context=$ctx -s view=$view" 0.333333 witness_repairs=1 flagged_instances=1
        check fig10_zeus "borderpatrol -s context=$ctx -s view=$view" 1
    done
done
# Figure 8 without isolation: House.jpg's FastCGI call went to Mark2.jpg
"$PB_BIN/infer" --algo borderpatrol -o "$tmp/r.res" "$D/fig8_batched.csv" 2> "$tmp/r.err"
grep -q '^[0-9],"client>apache\[fcgi,fcgi\]",1,' "$tmp/r.res" || fail "fig8 batched: Mark2.jpg does not hold both FastCGI calls"
awk -F, '$1 == 5 || $1 == 9 { i[$1] = $2 } $1 == 7 || $1 == 10 { j[$1] = $2 }
         END { exit !(i[5] == i[9] && j[7] == j[10] && i[5] != j[7]) }' "$tmp/r.res" ||
    fail "fig8 batched: expected House.jpg's call and reply alone, its FastCGI call with Mark2.jpg's"
grep -q 'immediacy failed' "$tmp/r.err" || fail "fig8 batched: the witness repair is not said"
# vPath's paper rule on the same two logs: exact, the overlap flagged
check fig8_batched "vpath -s variant=paper" 1 violation_two_intervals=1 violation_conn_busy=2
check fig10_zeus "vpath -s variant=paper" 1 violation_send_outside=1 violation_two_intervals=1
exit 0
