#!/bin/sh
# maketrace services with K workers (FIFO queues) and joins across callers:
# hand-worked timestamps (delays without spread, no network delay), the
# arrival-order property on a shipped config, truth trees that score 1.0,
# determinism, and the configs that must be rejected.
set -u
MT="$PB_BIN/maketrace"
CONF="$PB_ROOT/maketrace/configs"
[ -x "$MT" ] || { echo "no $MT"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
body() { grep -v '^#' "$1" | sed 1d; }

# --- a one-worker queue, three requests arriving together at 1 ms.
# W's block: a DB call 1 ms after it starts, the return 1 ms later, W's
# return 2 ms after that; the worker is busy from the block's start to
# W's return.  So the blocks run 1-5, 5-9, 9-13 ms, in arrival order.
cat > "$tmp/q.conf" <<'C'
messages = 12
service W workers=1
tracelet a from C instances=3 think=0 {
  call W delay=1ms ret=2ms { call DB delay=1ms ret=1ms }
}
C
"$MT" "$tmp/q.conf" > "$tmp/q.csv" || fail "q.conf exit $?"
cat > "$tmp/q.want" <<'C'
0,0.001000000,0.001000000,C,W,call,1,1,
1,0.001000000,0.001000000,C,W,call,2,2,
2,0.001000000,0.001000000,C,W,call,3,3,
3,0.002000000,0.002000000,W,DB,call,4,1,0
4,0.003000000,0.003000000,DB,W,return,4,1,3
5,0.005000000,0.005000000,W,C,return,1,1,4
6,0.006000000,0.006000000,W,DB,call,5,2,1
7,0.007000000,0.007000000,DB,W,return,5,2,6
8,0.009000000,0.009000000,W,C,return,2,2,7
9,0.010000000,0.010000000,W,DB,call,6,3,2
10,0.011000000,0.011000000,DB,W,return,6,3,9
11,0.013000000,0.013000000,W,C,return,3,3,10
C
body "$tmp/q.csv" > "$tmp/q.got"
cmp -s "$tmp/q.got" "$tmp/q.want" || { diff "$tmp/q.want" "$tmp/q.got"; fail "one-worker queue: timestamps differ from the hand-worked ones"; }
grep -q ' W.workers=1$' "$tmp/q.csv" || fail "metadata lacks W.workers=1: $(sed -n 2p "$tmp/q.csv")"
# two workers (-s W.workers=2): the third request waits for the first only
"$MT" "$tmp/q.conf" -s W.workers=2 > "$tmp/q2.csv" || fail "W.workers=2 exit $?"
body "$tmp/q2.csv" | awk -F, '$4=="W" && $6=="return" {printf "%s ", $2}' > "$tmp/q2.got"
[ "$(cat "$tmp/q2.got")" = "0.005000000 0.005000000 0.009000000 " ] || fail "two workers: W returns at $(cat "$tmp/q2.got")"
# enough workers: nobody waits, every W return at 5 ms
"$MT" "$tmp/q.conf" -s W.workers=3 | body /dev/stdin | awk -F, '$4=="W" && $6=="return" {printf "%s ", $2}' > "$tmp/q3.got"
[ "$(cat "$tmp/q3.got")" = "0.005000000 0.005000000 0.005000000 " ] || fail "three workers: W returns at $(cat "$tmp/q3.got")"

# --- a join: A and B both call C with join=post; the last arrival calls
# STORE, then returns; the earlier one is answered after its ret delay.
cat > "$tmp/j.conf" <<'C'
messages = 12
let bd = 2ms
tracelet post from CL instances=1 think=0 {
  call FE delay=0 ret=1ms {
    par {
      call A delay=1ms ret=1ms { call C delay=1ms ret=1ms join=post { call STORE delay=1ms ret=1ms } }
      call B delay=1ms ret=1ms { call C delay=$bd ret=1ms join=post { call STORE delay=1ms ret=1ms } }
    }
  }
}
C
# B's part arrives at 3 ms, after A's (2 ms): STORE is called at 4 ms
# because of B's call (id 4); A's part is answered at 3 ms.
"$MT" "$tmp/j.conf" > "$tmp/j1.csv" || fail "j.conf exit $?"
cat > "$tmp/j1.want" <<'C'
0,0.000000000,0.000000000,CL,FE,call,1,1,
1,0.001000000,0.001000000,FE,A,call,2,1,0
2,0.001000000,0.001000000,FE,B,call,3,1,0
3,0.002000000,0.002000000,A,C,call,4,1,1
4,0.003000000,0.003000000,B,C,call,5,1,2
5,0.003000000,0.003000000,C,A,return,4,1,3
6,0.004000000,0.004000000,C,STORE,call,6,1,4
7,0.004000000,0.004000000,A,FE,return,2,1,5
8,0.005000000,0.005000000,STORE,C,return,6,1,6
9,0.006000000,0.006000000,C,B,return,5,1,8
10,0.007000000,0.007000000,B,FE,return,3,1,9
11,0.008000000,0.008000000,FE,CL,return,1,1,10
C
body "$tmp/j1.csv" > "$tmp/j1.got"
cmp -s "$tmp/j1.got" "$tmp/j1.want" || { diff "$tmp/j1.want" "$tmp/j1.got"; fail "join, B last: differs from the hand-worked trace"; }
# B's upload 0.5 ms: B arrives first (1.5 ms), A last (2 ms) and A's call
# (id 4) makes the STORE call at 3 ms; B's part is answered at 2.5 ms
"$MT" "$tmp/j.conf" -s bd=0.5ms > "$tmp/j2.csv" || fail "bd=0.5ms exit $?"
body "$tmp/j2.csv" | grep -q '^6,0.003000000,0.003000000,C,STORE,call,6,1,4$' || fail "join, A last: STORE call not caused by A's call: $(body "$tmp/j2.csv" | grep STORE)"
body "$tmp/j2.csv" | grep -q '^5,0.002500000,0.002500000,C,B,return,4,1,3$' || fail "join, A last: B's part not answered at 2.5 ms"
# with random delays, the last arrival varies: both MEDIA and TEXT make
# STORE calls in shape-fanin
"$MT" "$CONF/shape-fanin.conf" -s duration=2s > "$tmp/f.csv" || fail "shape-fanin exit $?"
awk -F, '!/^#/ && NR>3 {src[$1]=$4; cause[$1]=$9; dst[$1]=$5; typ[$1]=$6}
         !/^#/ && NR>3 && $5=="STORE" && $6=="call" {n[src[$9]]++}
         END {print n["MEDIA"]+0, n["TEXT"]+0}' "$tmp/f.csv" > "$tmp/f.got"
read nm nt < "$tmp/f.got"
[ "$nm" -gt 0 ] && [ "$nt" -gt 0 ] || fail "shape-fanin: STORE calls caused by MEDIA $nm, by TEXT $nt; expected both"

# --- arrival order on shape-serial at high load: W's blocks never
# overlap, and W serves its calls in the order they arrived
serial_check() { # $1: trace; W's blocks in arrival order, never overlapping
awk -F, '/^[0-9]/ {id=$1; ts[id]=$2; rv[id]=$3; s[id]=$4; d[id]=$5; t[id]=$6; cid[id]=$7; ca[id]=$9}
         END {
           prev_end = 0; prev_arr = -1; n = 0
           for (i = 0; i in ts; i++) {
             if (s[i]=="W" && d[i]=="DB" && t[i]=="call") {
               c = ca[i]            # the W call this block serves
               if (rv[c] < prev_arr) { print "out of order at id " i; exit 1 }
               if (ts[i] < prev_end) { print "overlap at id " i; exit 1 }
               prev_arr = rv[c]; n++
             }
             if (s[i]=="W" && d[i]=="C" && t[i]=="return") { prev_end = ts[i] }
           }
           print n " blocks"
         }' "$1"
}
"$MT" "$CONF/shape-serial.conf" -s duration=5s -s instances_scale=4 > "$tmp/s.csv" || fail "shape-serial exit $?"
serial_check "$tmp/s.csv" > "$tmp/s.out" || fail "shape-serial: $(cat "$tmp/s.out")"
# the check can fail: with two workers the blocks overlap
"$MT" "$CONF/shape-serial.conf" -s duration=5s -s instances_scale=4 -s W.workers=2 > "$tmp/s2.csv" || fail "exit $?"
serial_check "$tmp/s2.csv" > /dev/null && fail "shape-serial with two workers passes the one-worker check"

# --- truth trees are trees: the oracle scores 1.0 on every new shape
if [ -x "$PB_BIN/infer" ] && [ -x "$PB_BIN/score" ]; then
    for c in shape-queue shape-join shape-fanin shape-serial; do
        "$MT" "$CONF/$c.conf" -s duration=3s -s instances_scale=4 > "$tmp/t.csv" || fail "$c exit $?"
        "$PB_BIN/infer" --algo truth -o "$tmp/r.csv" "$tmp/t.csv" 2>"$tmp/err" || fail "$c: infer truth: $(cat "$tmp/err")"
        "$PB_BIN/score" --truth "$tmp/t.csv" "$tmp/r.csv" > "$tmp/sc.csv" 2>"$tmp/err" || fail "$c: score: $(cat "$tmp/err")"
        acc=$(awk -F, 'NR==1 {for (i=1;i<=NF;i++) col[$i]=i; next} NR==2 {print $col["exact_accuracy"]}' "$tmp/sc.csv")
        [ "$acc" = 1 ] || fail "$c: the truth scores $acc against itself"
    done
fi

# --- determinism: the same seed gives the same bytes, another seed not
"$MT" "$CONF/shape-queue.conf" -s duration=2s > "$tmp/d1.csv" || fail "exit $?"
"$MT" "$CONF/shape-queue.conf" -s duration=2s > "$tmp/d2.csv" || fail "exit $?"
cmp -s "$tmp/d1.csv" "$tmp/d2.csv" || fail "shape-queue: two runs with one seed differ"
"$MT" "$CONF/shape-queue.conf" -s duration=2s --seed 2 > "$tmp/d3.csv" || fail "exit $?"
cmp -s "$tmp/d1.csv" "$tmp/d3.csv" && fail "shape-queue: seeds 1 and 2 give the same trace"
# workers that never bind change nothing (the same engine and draws)
"$MT" "$CONF/shape-join.conf" -s duration=2s > "$tmp/n1.csv" || fail "exit $?"
{ echo "service nobody_calls_me workers=1"; cat "$CONF/shape-join.conf"; } > "$tmp/sj.conf"
"$MT" "$tmp/sj.conf" -s duration=2s | body /dev/stdin > "$tmp/n2.csv" || fail "exit $?"
body "$tmp/n1.csv" | cmp -s - "$tmp/n2.csv" || fail "a service nobody calls changed shape-join's trace"
# whole paths only with a count limit, and the count is kept
"$MT" "$CONF/shape-queue.conf" -s duration=0 -s messages=1000 > "$tmp/m.csv" || fail "exit $?"
n=$(body "$tmp/m.csv" | wc -l)
[ "$n" -le 1000 ] && [ "$n" -gt 900 ] || fail "messages=1000 gave $n"
body "$tmp/m.csv" | awk -F, '$6=="call" {c[$7]++} $6=="return" {c[$7]--} END {for (k in c) if (c[k]) exit 1}' \
    || fail "messages=1000: a call without its return"

# --- configs that must be rejected: exit 1, file:line:col and what was expected
bad() { # $1: config text, $2: text the message must hold
    printf '%s\nmessages = 10\n' "$1" > "$tmp/bad.conf"
    "$MT" "$tmp/bad.conf" > /dev/null 2> "$tmp/err"
    rc=$?
    [ $rc -eq 1 ] || fail "expected exit 1, got $rc for: $1"
    grep -q "bad.conf:[0-9]*:[0-9]*: .*$2" "$tmp/err" || fail "message for [$1]: $(cat "$tmp/err"); expected $2"
}
bad 'tracelet a from C { call F { par { call A join=j ; call B } } }' 'only this one part'
bad 'tracelet a from C { call F { choose { 1 { call A join=j } 1 { } } ; call A join=j } }' 'inside a choose'
bad 'tracelet a from C { call F { call A join=j { call A join=j } } }' 'can never complete'
bad 'tracelet a from C { call F { par { call A join=j ; call B join=j } } }' 'same node'
bad 'tracelet a from C { call F { par { call A|B join=j ; call A join=j } } }' 'must name one node'
bad 'tracelet a from C { call F { par { call A join=1x ; call A join=j } } }' 'join=NAME'
bad 'tracelet a from C { send F join=j }' 'unknown attribute'
bad 'service W workers=1
tracelet a from C { call W { call W } }' 'wait for each other forever'
bad 'service X workers=1
service Y workers=2
tracelet a from C { call X { call Y } }
tracelet b from C { call Y { call X } }' 'no cycle'
bad 'service W workers=0
tracelet a from C { call W }' 'workers=K with K an integer'
bad 'service W
tracelet a from C { call W }' 'expected workers=K'
bad 'service W workers=1
service W workers=2
tracelet a from C { call W }' 'declared twice'
bad 'service A|B workers=1
tracelet a from C { call A }' 'single node'
# an override of a service that does not exist is a usage error
"$MT" "$tmp/q.conf" -s X.workers=2 > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "-s X.workers=2 for no service: expected exit 2"
grep -q 'SERVICE.workers' "$tmp/err" || fail "-s X.workers: $(cat "$tmp/err")"
exit 0
