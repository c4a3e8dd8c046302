#!/bin/sh
# Hostile input, round 20 (issue 28, the 31st wave): one block per class,
# each able to fail on the tree before it.
. "$PB_ROOT/tests/sh/lib_scaffold.sh"
scaffold importtrace maketrace infer score compare

# CPU and memory caps far above what the fixed code needs (none under the
# sanitizers, whose shadow memory and speed differ)
lim() { if [ -z "${PB_SANITIZED:-}" ]; then ulimit -v 1000000; ulimit -t 30; fi; }
C="$R/tests/fuzz/corpus/fuzz_capture"

# --- 1. importtrace: numbers in pbcapture event files.  (a) A descriptor
# past 2^31 - 1 was cut to its low 32 bits (descriptor 4294967299 became
# descriptor 3, its connection merged with 3's); (b) a 19-digit number
# past 2^63 wrapped (signed overflow) into a negative time, read as such:
# the request's close moved before its send and the call split off to a
# node named by its address.  Both refused at line and column.
mkdir cap
cp "$C/client.events" cap/10.11.events
cp "$C/server.events" cap/20.21.events
"$B/importtrace" -q -o ok.tr cap || fail "events: the sound capture not read"
sed 's/ 10 11 3 / 10 11 4294967299 /' "$C/client.events" > cap/10.11.events
"$B/importtrace" -q -o x.tr cap 2> fd.err && fail "events: descriptor 4294967299 accepted"
grep -q "10.11.events:2:12: field 4: expected FD (0 to 2147483647), got \"4294967299\"" fd.err ||
    { cat fd.err; fail "events: the descriptor not named"; }
sed 's/^6000 /9999999999999999999 /' "$C/client.events" > cap/10.11.events
"$B/importtrace" -q -o x.tr cap 2> ts.err && fail "events: a time past 2^63 accepted"
grep -q "10.11.events:5:1: field 1: expected TS_NS (nanoseconds below 2^63), got \"9999999999999999999\"" ts.err ||
    { cat ts.err; fail "events: the time past 2^63 not named"; }
# the header's pid= (a thread label is "PID/TID") was read by strtol
# unchecked: 99999999999999999999 became 9223372036854775807 (every such
# pid one process), a word became 0
sed '1s/pid=10 /pid=99999999999999999999 /' "$C/client.events" > cap/10.11.events
"$B/importtrace" -q -o x.tr cap 2> pid.err && fail "events: pid=99999999999999999999 accepted"
grep -q "10.11.events:1:19: expected pid=PID, a process id from 0 to 2147483647" pid.err ||
    { cat pid.err; fail "events: the pid not named"; }
# dup:OLDFD past 2^31 - 1 the same
{ cat "$C/client.events"; echo "7000 10 11 5 dup:4294967299 0 - - -"; } > cap/10.11.events
"$B/importtrace" -q -o x.tr cap 2> dup.err && fail "events: dup of descriptor 4294967299 accepted"
grep -q "10.11.events:6:.*expected dup:OLDFD" dup.err || { cat dup.err; fail "events: the dup not named"; }

# --- 2. maketrace: pipelined and multiplexed connections.  (a) Every call
# scanned all conns=K of its link for the one with the fewest calls
# outstanding (K up to 10^6): with conns=1000000, 24.9 CPU s for 100,000
# messages, so this 300,000 passes the cap; now a heap, O(log K) a call
# (0.08 s for 100,000).  (b) Every reply on a pipelined connection scanned the calls outstanding there for its own: 20,000
# instances on one connection took 3.2 s for 200,000 messages (0.3 s now,
# the same bytes).  (c) stages=1001 said "in 1..1000000".
printf 'messages=300000\ninstances=1000\nlink A -> S conn=pipelined conns=1000000\ntracelet t from A { call S }\n' > p.conf
( lim; exec "$B/maketrace" p.conf ) > p.csv 2> p.err || { cat p.err; fail "pipelined conns=1000000: not made under 30 CPU s"; }
[ "$(grep -vc '^#' p.csv)" -eq 300001 ] || fail "pipelined conns=1000000: not 300,000 messages"
sed 's/pipelined/multiplexed/' p.conf > x.conf
( lim; exec "$B/maketrace" x.conf ) > x.csv 2> x.err || { cat x.err; fail "multiplexed conns=1000000: not made under 30 CPU s"; }
# the choice is the scan's: fewest outstanding, lowest number first
printf 'messages=4000\ninstances=9\nlink A -> S conn=pipelined conns=4\ntracelet t from A { call S }\n' > s.conf
"$B/maketrace" s.conf > s.csv || fail "pipelined conns=4: not made"
awk -F, '$6 == "call" { print $12 }' s.csv | sort -u | tr '\n' ' ' > s.conns
[ "$(cat s.conns)" = "A>S:0 A>S:1 A>S:2 A>S:3 " ] || { cat s.conns; fail "pipelined conns=4: not the four connections"; }
printf 'messages=200\nservice S model=seda stages=1001\ntracelet t from A { call S }\n' > st.conf
"$B/maketrace" st.conf > /dev/null 2> st.err && fail "stages=1001 accepted"
grep -q "stages=K with K an integer in 1..1000, got \"1001\"" st.err || { cat st.err; fail "stages: not its range"; }

# --- 3. score --query: a field the truth trace has no column for (size,
# attr; latency, whose return is found by call id, in a trace without call
# ids) is empty on every event: the truth's answer and every result's
# were both empty and scored as equal (tv_distance 0, top_same 1), so any
# method looked perfect.  Refused at the query's line and column.
mkdir -p cap; cp "$C/server.events" cap/20.21.events
"$B/maketrace" "$R/maketrace/configs/multitier.conf" -s duration=5s > q.csv 2>/dev/null
"$B/infer" --algo fcfs q.csv > qf.csv 2>/dev/null
"$B/score" --truth q.csv --query 'From a In Recv Select Sum(a.size)' qf.csv > q.out 2> q.err &&
    { cat q.out; fail "query: Sum of size over a trace without size: answered"; }
grep -q -- "--query:1:29: field size: the trace q.csv has no size column" q.err || { cat q.err; fail "query: size not named"; }
printf 'Q1: From a In Recv Select Count\n\nQ2: From a In Recv[type=call,\n   attr=GET*] Select Count\n' > qs.txt
"$B/score" --truth q.csv --query qs.txt qf.csv > q.out 2> q.err && fail "query: attr over a trace without attr: answered"
grep -q "qs.txt:4:4: field attr: the trace q.csv has no attr column" q.err || { cat q.err; fail "query: attr not named"; }
cut -d, -f1-6,8,9 q.csv > nocid.csv
"$B/infer" --algo fcfs nocid.csv > nf.csv 2>/dev/null
"$B/score" --truth nocid.csv --query 'From r In Recv[type=return] GroupBy r.peer Select r.peer, Avg(r.latency)' nf.csv \
    > q.out 2> q.err && { cat q.out; fail "query: latency without call ids: answered"; }
grep -q "field latency: the trace nocid.csv has no callid column" q.err || { cat q.err; fail "query: latency not named"; }
# the same fields where the columns are there: answered
"$B/score" --truth q.csv --query 'From r In Recv[type=return] GroupBy r.peer Select r.peer, Avg(r.latency)' qf.csv \
    > q.out || fail "query: latency with call ids refused"
cp "$C/client.events" cap/10.11.events
"$B/importtrace" -q -o cap.csv cap || fail "query: the capture not read"
"$B/infer" --algo fcfs cap.csv > capr.csv 2>/dev/null
"$B/score" --truth cap.csv --query 'From a In Recv GroupBy a.attr Select a.attr, Sum(a.size)' capr.csv > q.out ||
    fail "query: attr and size of a capture refused"

# --- 4. compare: seeds side A measured and side B did not (empty, nan or
# -: a run that failed, a metric the new result no longer allows) were
# left out of the pairing, the verdict drawn on the rest: B losing 4 of 5
# seeds read "no detectable change (4 unpaired)", exit 0.  Now MISSING,
# exit 1, kept by --changes; seeds B has and A has not stay "unpaired".
{ echo point,metric,better,seed,value; for s in 1 2 3 4 5; do echo "p,acc,higher,$s,0.5"; done; } > a.csv
{ echo point,metric,better,seed,value; echo p,acc,higher,1,0.5; echo p,acc,higher,2,nan; echo p,acc,higher,3,
  echo p,acc,higher,4,-; } > b.csv
"$B/compare" a.csv b.csv > c.out; rc=$?
[ "$rc" = 1 ] || { cat c.out; fail "compare: B lost 4 seeds of 5: exit $rc, not 1"; }
grep -q "MISSING: B has no value at 4 of A's 5 seeds" c.out || { cat c.out; fail "compare: the lost seeds not said"; }
"$B/compare" --changes a.csv b.csv | grep -q "MISSING: B has no value" || fail "compare --changes: the row left out"
"$B/compare" -q b.csv a.csv > c.out; rc=$?
[ "$rc" = 0 ] && grep -q "(4 unpaired)" c.out || { cat c.out; fail "compare: seeds on B only: exit $rc"; }
"$B/compare" -q a.csv a.csv > /dev/null || fail "compare: a file against itself"

# --- 5. vpath paper on a trace without a conn column: calls are paired by
# call id or first in first out per caller and callee, yet two calls
# outstanding on that key were said to be "on one connection (pipelined
# or multiplexed)", a connection the trace never named.  The warning now
# names the key that paired them.
cut -d, -f1-11 "$R/tests/data/precise/fig1_dispatcher.csv" > nc.csv
"$B/infer" --algo vpath -s variant=paper nc.csv > /dev/null 2> nc.err || { cat nc.err; fail "vpath paper without conn: failed"; }
grep -q "connection (pipelined" nc.err && { cat nc.err; fail "vpath paper without conn: a connection named"; }
grep -q "two calls outstanding between one caller and callee under one call id" nc.err ||
    { cat nc.err; fail "vpath paper without conn: the pairing key not named"; }
"$B/infer" --algo vpath -s variant=paper "$R/tests/data/precise/fig8_batched.csv" > /dev/null 2> c.err
grep -q "two calls outstanding on one connection (pipelined or multiplexed)" c.err ||
    { cat c.err; fail "vpath paper with conn: the connection not named"; }

# --- 6. importtrace: an OTLP span whose start is unset.  proto3 leaves
# startTimeUnixNano out of its JSON when unset (the whole import was then
# refused), and an exporter that writes defaults writes "0", which was
# read as the epoch: the span's call came 56 years before the rest of its
# request.  Now a span without a start time, as a Zipkin span without
# "timestamp": not read (without a timed fragment of the same id),
# counted no_timestamp and said even with -q; its children are roots.
res() { printf '{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"%s"}}]},"scopeSpans":[{"spans":[%s]}]}' "$1" "$2"; }
T='"traceId":"00000000000000004000000000000001"'
for st in '"startTimeUnixNano":"0","endTimeUnixNano":"0",' '"startTimeUnixNano":null,' ''; do
    printf '{"resourceSpans":[%s,%s]}\n' \
        "$(res fe "{$T,\"spanId\":\"00000000000000d0\",\"name\":\"op\",\"startTimeUnixNano\":\"4000000000\",\"endTimeUnixNano\":\"4001000000\",\"kind\":2},{$T,\"spanId\":\"00000000000000d1\",\"parentSpanId\":\"00000000000000d0\",\"name\":\"op\",${st}\"kind\":3}")" \
        "$(res be "{$T,\"spanId\":\"00000000000000d2\",\"parentSpanId\":\"00000000000000d1\",\"name\":\"op\",\"startTimeUnixNano\":\"4000200000\",\"endTimeUnixNano\":\"4000300000\",\"kind\":2}")" > o.json
    "$B/importtrace" -q -o o.tr o.json 2> o.err || { cat o.err; fail "OTLP start '$st': refused"; }
    grep -q "warning: 1 no_timestamp: spans without a start time" o.err || { cat o.err; fail "OTLP start '$st': not said"; }
    grep -q '^0\.\|,0\.000000000,' o.tr && { cat o.tr; fail "OTLP start '$st': read at the epoch"; }
    grep -q " no_timestamp=1 " o.tr || fail "OTLP start '$st': not counted"
    [ "$(grep -vc '^#' o.tr)" -eq 5 ] || { cat o.tr; fail "OTLP start '$st': not the two timed RPCs"; }
done
# Zipkin's model takes a timestamp of 0 as absent: the same
printf '[{"traceId":"1","id":"a","name":"op","timestamp":4000000,"duration":1000,"localEndpoint":{"serviceName":"fe"},"kind":"SERVER"},{"traceId":"1","id":"b","parentId":"a","name":"op","timestamp":0,"duration":100,"localEndpoint":{"serviceName":"fe"},"kind":"CLIENT"},{"traceId":"1","id":"c","parentId":"b","name":"op","timestamp":4000200,"duration":50,"localEndpoint":{"serviceName":"be"},"kind":"SERVER"}]\n' > z0.json
"$B/importtrace" -q -o z0.tr z0.json 2> z0.err || { cat z0.err; fail "Zipkin timestamp 0: refused"; }
grep -q " no_timestamp=1 " z0.tr || { cat z0.tr; fail "Zipkin timestamp 0: read at the epoch"; }
exit 0
