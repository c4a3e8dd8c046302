#!/bin/sh
# maketrace execution and connection models (docs/maketrace.md "Threads and
# connections"): hand-worked worker ids (lowest free first, reused),
# pipelined replies in call order and multiplexed ones out of order, event
# isolation delaying the next input until the fragment's outputs are sent
# (and a batched read not), hand-off, the meters in --stats, determinism,
# no model = the nine columns of before, and the configs that must be
# rejected.
set -u
MT="$PB_BIN/maketrace"
CONF="$PB_ROOT/maketrace/configs"
[ -x "$MT" ] || { echo "no $MT"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
body() { grep -v '^#' "$1" | sed 1d; }

# --- worker ids.  W (an unbounded pool) serves `long` (arrives at 1 ms,
# replies 9.5 ms later) and `short` (arrives every 3 ms from 2 ms, replies
# 1 ms later).  long takes w0; short takes w1 (w0 busy) and gets it back
# at 5 and 8 ms; at 10.5 ms long frees w0, so short at 11 ms takes w0, the
# lowest free, and long's next call at 11.5 ms w1.
cat > "$tmp/ids.conf" <<'C'
messages = 16
service W model=pool
tracelet long from C instances=1 think=0 { call W delay=1ms ret=9.5ms }
tracelet short from D instances=1 think=0 { call W delay=2ms ret=1ms }
C
"$MT" "$tmp/ids.conf" > "$tmp/ids.csv" || fail "ids.conf exit $?"
got=$(body "$tmp/ids.csv" | awk -F, '$6=="call"{printf "%s %s %s\n", $2, $4, $10}' | head -6)
want='0.001000000 C W:w0
0.002000000 D W:w1
0.005000000 D W:w1
0.008000000 D W:w1
0.011000000 D W:w0
0.011500000 C W:w1'
[ "$got" = "$want" ] || fail "worker ids: got
$got"
# the reply leaves from the worker that received the call
body "$tmp/ids.csv" | awk -F, '$6=="call"{t[$7]=$10} $6=="return" && t[$7]!=$11 {bad=1} END{exit bad}' ||
    fail "a reply left from another worker than the one that received its call"

# --- pipelined and multiplexed: A calls S twice at once over one
# connection; the first call's reply is ready at 6 ms, the second's at
# 2.5 ms.  Pipelined, the second reply waits and leaves at 6 ms, after the
# first; multiplexed, it leaves at 2.5 ms.
cat > "$tmp/pipe.conf" <<'C'
messages = 6
link A -> S conn=pipelined
tracelet t from C instances=1 think=0 {
  call A delay=0ms ret=0ms { par { call S delay=1ms ret=5ms ; call S delay=1.5ms ret=1ms } }
}
C
"$MT" "$tmp/pipe.conf" > "$tmp/pipe.csv" || fail "pipe.conf exit $?"
got=$(body "$tmp/pipe.csv" | awk -F, '$4=="S"{printf "%s %s %s\n", $2, $7, $12}')
want='0.006000000 2 A>S:0
0.006000000 3 A>S:0'
[ "$got" = "$want" ] || fail "pipelined replies: got
$got"
sed 's/pipelined/multiplexed/' "$tmp/pipe.conf" > "$tmp/mux.conf"
"$MT" "$tmp/mux.conf" > "$tmp/mux.csv" || fail "mux.conf exit $?"
got=$(body "$tmp/mux.csv" | awk -F, '$4=="S"{printf "%s %s %s\n", $2, $7, $12}')
want='0.002500000 3 A>S:0
0.006000000 2 A>S:0'
[ "$got" = "$want" ] || fail "multiplexed replies: got
$got"
# new connection per call (the default): two connections
sed 's/^link.*//' "$tmp/pipe.conf" | sed 's/^messages/observed = 1\nmessages/' > "$tmp/new.conf"
"$MT" "$tmp/new.conf" > "$tmp/new.csv" || fail "new.conf exit $?"
got=$(body "$tmp/new.csv" | awk -F, '$5=="S"{print $12}' | tr '\n' ' ')
[ "$got" = "A>S:0 A>S:1 " ] || fail "new connections: got $got"

# --- event isolation: three calls reach W (one event-loop thread) at 1 ms;
# each fragment sends a DB call 1 ms after it starts.  With isolation the
# second call is read only after the first fragment's send (2 ms + 1 ns),
# the third after the second's (3 ms + 2 ns); a read of up to 2 (batch=2)
# takes the second and third together at 2 ms + 1 ns.
cat > "$tmp/iso.conf" <<'C'
messages = 12
service W model=event threads=1
tracelet t from C instances=3 think=0 {
  call W delay=1ms ret=1ms { call DB delay=1ms ret=1ms }
}
C
"$MT" "$tmp/iso.conf" --stats > "$tmp/iso.csv" 2> "$tmp/iso.err" || fail "iso.conf exit $?"
got=$(body "$tmp/iso.csv" | awk -F, '$5=="W" && $6=="call"{printf "%s %s\n", $3, $10}')
want='0.001000000 W:e0
0.002000001 W:e0
0.003000002 W:e0'
[ "$got" = "$want" ] || fail "isolation reads: got
$got"
grep -q '^immediacy 1.0000 ' "$tmp/iso.err" || fail "isolation: immediacy not 1: $(cat "$tmp/iso.err")"
"$MT" "$tmp/iso.conf" -s W.batch=2 --stats > "$tmp/bat.csv" 2> "$tmp/bat.err" || fail "batch exit $?"
got=$(body "$tmp/bat.csv" | awk -F, '$5=="W" && $6=="call"{printf "%s\n", $3}' | tr '\n' ' ')
[ "$got" = "0.001000000 0.002000001 0.002000001 " ] || fail "batched read: got $got"
# the second fragment's DB call (cause: the second call) follows the read
# of the third: 6 of 9 sends immediate (hand count from the trace)
grep -q '^immediacy 0.6667 (6 of 9 ' "$tmp/bat.err" || fail "batch: $(cat "$tmp/bat.err")"
# the stats keep the parallelism line last
tail -1 "$tmp/iso.err" | grep -q '^mean per-node parallelism' || fail "stats: last line"

# --- hand-off: with handoff=1 every continuation after a return moves to
# another worker, so a visit's second nested call leaves from another
# thread than its first: of the 30 visits, W's 10 break the thread pattern
# and DB's 20 leaves keep it
cat > "$tmp/ho.conf" <<'C'
messages = 60
service W model=pool handoff=1
tracelet t from C instances=2 think=0..1ms {
  call W { call DB ; call DB }
}
C
"$MT" "$tmp/ho.conf" --stats > "$tmp/ho.csv" 2> "$tmp/ho.err" || fail "ho.conf exit $?"
body "$tmp/ho.csv" | awk -F, '$4=="W" && $6=="call"{n[$8]++; s[$8, n[$8]]=$11}
    END{for (p in n) if (s[p,1]==s[p,2]) exit 1}' || fail "hand-off: a visit stayed on one worker"
grep -q '^thread_pattern 0.6667 (20 of 30 ' "$tmp/ho.err" || fail "hand-off meter: $(cat "$tmp/ho.err")"

# --- determinism, and the seed matters
for c in dearinter tpcw; do
    "$MT" "$CONF/$c.conf" -s duration=3s > "$tmp/a.csv" || fail "$c exit"
    "$MT" "$CONF/$c.conf" -s duration=3s > "$tmp/b.csv" || fail "$c exit"
    cmp -s "$tmp/a.csv" "$tmp/b.csv" || fail "$c: two runs differ"
    "$MT" "$CONF/$c.conf" -s duration=3s --seed 2 > "$tmp/c.csv" || fail "$c exit"
    cmp -s "$tmp/a.csv" "$tmp/c.csv" && fail "$c: seeds 1 and 2 give the same trace"
    head -3 "$tmp/a.csv" | grep -q '^id,ts,recv_ts,src,dst,type,callid,path,cause,thread,sthread,conn$' ||
        fail "$c: columns"
done

# --- no model: the nine columns and the params of before
for c in hotel shape-serial tiny; do
    "$MT" "$CONF/$c.conf" -s duration=2s > "$tmp/p.csv" || fail "$c exit"
    sed -n 3p "$tmp/p.csv" | grep -q '^id,ts,recv_ts,src,dst,type,callid,path,cause$' || fail "$c: columns"
    grep -q 'observed=\|\.model=' "$tmp/p.csv" && fail "$c: model settings in the params"
done
# -s observed=1 adds the columns; the worker ids of hotel's pools are
# reused (far fewer ids than calls)
"$MT" "$CONF/hotel.conf" -s observed=1 -s duration=10s > "$tmp/h.csv" || fail "hotel observed"
body "$tmp/h.csv" | awk -F, '$6=="call"{c++; if (!($10 in s)) {s[$10]=1; k++}} END{exit !(c > 10 * k)}' ||
    fail "hotel: worker ids not reused"

# --- rejected
bad() {
    printf '%s\n' "$1" > "$tmp/bad.conf"
    printf 'messages = 10\n' >> "$tmp/bad.conf"
    out=$("$MT" "$tmp/bad.conf" 2>&1) && fail "accepted: $1"
    echo "$out" | grep -q -- "$2" || fail "message for [$1]: $out"
}
bad 'service W model=threads
tracelet a from C { call W }' 'model=pool, dispatcher, event or seda'
bad 'service W model=event workers=2
tracelet a from C { call W }' 'expected threads=T'
bad 'service W model=pool handoff=2
tracelet a from C { call W }' 'probability'
bad 'service W model=pool batch=2 handoff=0.5
tracelet a from C { call W }' 'expected one of them'
bad 'link C -> W
tracelet a from C { call W }' 'expected conn='
bad 'link C W conn=pool
tracelet a from C { call W }' 'expected link SRC -> DST'
bad 'link C -> W conn=fast
tracelet a from C { call W }' 'conn=new, pool, pipelined or multiplexed'
exit 0
