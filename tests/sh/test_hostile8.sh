#!/bin/sh
# Hostile input, eighth round (issue 28, h162): inputs of real shape not
# covered by rounds 1-7.  One block per class, each able to fail on the
# tree before it (block 2's second half guards a speed fix: tests never
# time; it checks the output the faster index must keep).
. "$PB_ROOT/tests/sh/lib_scaffold.sh"
scaffold importtrace score compare infer maketrace skewer sniffer pbcapture

# --- 1. A JSON key given twice in one object.  jansson keeps the last value
# and drops the first without a word: a second "spans" array lost the first
# one's spans, a process listed twice took the second's service, a span's
# second "startTime" won.  Now refused where the second key stands, naming
# it; a document without repeated keys imports as before.
P='"processes":{"p1":{"serviceName":"a"}}'
S='{"traceID":"t","spanID":"1","operationName":"x","references":[],"startTime":1000,"duration":100,"processID":"p1"}'
S2='{"traceID":"t","spanID":"2","operationName":"x","references":[],"startTime":1000,"duration":100,"processID":"p1"}'
printf '{"data":[{"traceID":"t","spans":[%s],"spans":[%s],%s}]}\n' "$S" "$S2" "$P" > dup_spans.json
printf '{"data":[{"traceID":"t","spans":[%s],"processes":{"p1":{"serviceName":"a"},"p1":{"serviceName":"b"}}}]}\n' "$S" > dup_proc.json
printf '{"data":[{"traceID":"t","spans":[{"traceID":"t","spanID":"1","operationName":"x","references":[],"startTime":1000,"startTime":2000,"duration":100,"processID":"p1"}],%s}]}\n' "$P" > dup_field.json
printf '{"traceID":"t","spans":[%s],\n"spans":[%s],%s}\n' "$S" "$S2" "$P" > dup_bare.json
printf '{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"a"}}]},"scopeSpans":[{"spans":[{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"b7ad6b7169203331","spanId":"b7ad6b7169203332","name":"x","kind":2,"startTimeUnixNano":"1000000","endTimeUnixNano":"2000000"}]}]}]}\n' > dup_otlp.json
for f in dup_spans dup_proc dup_field dup_otlp; do
    "$B/importtrace" -q -o $f.tr $f.json 2> $f.err && fail "$f: a key given twice accepted"
    grep -q "^importtrace: $f.json:1:[0-9]*: duplicate object key .*expected each key once" $f.err ||
        { cat $f.err; fail "$f: not said with file, line and column"; }
done
"$B/importtrace" -q -o dup_bare.tr dup_bare.json 2> dup_bare.err && fail "bare trace: spans twice accepted"
grep -q '^importtrace: dup_bare.json:2:1: duplicate object key "spans"' dup_bare.err ||
    { cat dup_bare.err; fail "bare trace: the second key not named at its place"; }
# the same keys once each: imported
printf '{"data":[{"traceID":"t","spans":[%s,%s],%s}]}\n' "$S" "$S2" "$P" > once.json
"$B/importtrace" -q -o once.tr once.json || fail "keys once each: refused"
[ "$(grep -c ',call,' once.tr)" = 2 ] || fail "keys once each: not two calls"

# --- 2. Packet captures with connections that come and go.  (a) A 4-tuple
# reused for a new connection (a client with few ports, HTTP/1.0 churn):
# the server's SYN+ACK follows the client's new SYN onto the new connection
# (before, the server's side stayed on the old one: the new connection's
# request was "unanswered", its answer lost).  (b) Many connections: each
# found through a hash index (before, a scan per packet: 20,000
# connections took 2.05 s user, 100,000 about a minute; now 0.25 s and
# 1.6 s); the rows of interleaved, reused and mid-stream connections are
# checked here, not the time.
if command -v python3 > /dev/null 2>&1; then
    cat > reuse.py <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from mkpcap import *
w = Writer(sys.argv[2])
A, B = "10.0.0.1", "10.0.0.2"
conn(w, A, 40001, B, 80, [(1, req("/a")), (0, ok(b"1"))])
conn(w, A, 40002, B, 80, [(1, req("/b")), (0, ok(b"22"))])
conn(w, A, 40001, B, 80, [(1, req("/c")), (0, ok(b"333"))])
r = req("/d")
w.put(packet(A, 40003, B, 80, 7000, 9000, PSH | ACK, r))
w.put(packet(B, 80, A, 40003, 9000, 7000 + len(r), PSH | ACK, ok(b"4444")))
w.close()
PY
    python3 reuse.py "$R/tests/data/capture" reuse.pcap || fail "reuse.pcap not written"
    "$B/importtrace" -q -o reuse.tr reuse.pcap 2> reuse.err || { cat reuse.err; fail "reuse.pcap refused"; }
    grep -v '^#' reuse.tr | cut -d, -f2-10 > reuse.rows
    cat > reuse.want <<'W'
ts,recv_ts,src,dst,type,callid,path,cause,conn
1000.004000000,,10.0.0.1,10.0.0.2,call,10.0.0.1:40001>10.0.0.2:80/1,61000000000000000000000000000000,,10.0.0.1:40001>10.0.0.2:80
1000.005000000,,10.0.0.2,10.0.0.1,return,10.0.0.1:40001>10.0.0.2:80/1,61000000000000000000000000000000,1,10.0.0.1:40001>10.0.0.2:80
1000.011000000,,10.0.0.1,10.0.0.2,call,10.0.0.1:40002>10.0.0.2:80/1,62000000000000000000000000000000,,10.0.0.1:40002>10.0.0.2:80
1000.012000000,,10.0.0.2,10.0.0.1,return,10.0.0.1:40002>10.0.0.2:80/1,62000000000000000000000000000000,3,10.0.0.1:40002>10.0.0.2:80
1000.018000000,,10.0.0.1,10.0.0.2,call,10.0.0.1:40001>10.0.0.2:80#2/1,63000000000000000000000000000000,,10.0.0.1:40001>10.0.0.2:80#2
1000.019000000,,10.0.0.2,10.0.0.1,return,10.0.0.1:40001>10.0.0.2:80#2/1,63000000000000000000000000000000,5,10.0.0.1:40001>10.0.0.2:80#2
1000.022000000,,10.0.0.1,10.0.0.2,call,10.0.0.1:40003>10.0.0.2:80/1,64000000000000000000000000000000,,10.0.0.1:40003>10.0.0.2:80
1000.023000000,,10.0.0.2,10.0.0.1,return,10.0.0.1:40003>10.0.0.2:80/1,64000000000000000000000000000000,7,10.0.0.1:40003>10.0.0.2:80
W
    cmp -s reuse.rows reuse.want || { diff reuse.want reuse.rows; fail "reused 4-tuple: rows"; }
    grep -q 'unanswered=0 ' reuse.tr || fail "reused 4-tuple: a request left unanswered"
fi

# --- 3. A write error on --help, --version or --list-options (a full disk,
# a closed stdout) exits 1 saying so, in every program (before: exit 0,
# nothing said, the answer lost).
if [ -w /dev/full ]; then
    for p in importtrace infer score compare maketrace skewer sniffer pbcapture; do
        for o in --help --version --list-options; do
            "$B/$p" $o > /dev/full 2> full.err && fail "$p $o > /dev/full: exit 0"
            grep -q "^$p: (stdout): write error: " full.err || { cat full.err; fail "$p $o: write error not said"; }
        done
        "$B/$p" --version > /dev/null || fail "$p --version: not exit 0"
    done
fi

# --- 4. score's result unreadable (a closed stdin): "read error", not
# "not a result file" (before: "<stdin>:1: not a result file ...").
printf 'id,ts,recv_ts,src,dst,type,path,cause\n1,0.1,0.1,client,a,call,r1,\n2,0.2,0.2,a,client,return,r1,1\n' > t.tr
"$B/score" --truth t.tr <&- 2> closed.err && fail "score, stdin closed: exit 0"
grep -q '^score: <stdin>: read error: ' closed.err || { cat closed.err; fail "score, stdin closed: not a read error"; }

# --- 5. A packet capture cut before its first request: the error says the
# file ends in an error, and where (before: only "no request with a
# traceparent header", the cut said nowhere since there was no trace).
if command -v python3 > /dev/null 2>&1; then
    python3 "$R/tests/data/capture/mkpcap.py" . || fail "mkpcap"
    head -c 100 exchange.pcap > cut.pcap
    "$B/importtrace" -q -o cut.tr cut.pcap 2> cut.err && fail "cut capture: accepted"
    grep -q 'no request with a traceparent header.*the packet capture ends in an error: cut.pcap: after packet 1: truncated dump file' cut.err ||
        { cat cut.err; fail "cut capture: the cut not said"; }
fi

# --- 6. maketrace weights are relative and summed: three of 1e308 summed
# to inf and every draw took the last tracelet (its --stats: 0, 0, 166
# paths).  A weight is now at most 1e15, in tracelets, choose branches and
# node choices alike; 1e15 itself is kept.
cat > w.conf <<'C'
seed = 1
messages = 600
tracelet a from client weight=1 { call x }
tracelet b from client weight=1 { call y }
tracelet c from client weight=1 { call z }
C
for s in a.weight=1e308 b.weight=1e16; do
    "$B/maketrace" --parse-only -s $s w.conf 2> w.err && fail "weight $s: accepted"
    grep -q 'expected weight=W with W a number from 0 to 1e15' w.err || { cat w.err; fail "weight $s: not said"; }
done
"$B/maketrace" -s a.weight=1e15 -s b.weight=1e15 -s c.weight=1e15 -o w.tr w.conf 2> /dev/null || fail "weights 1e15 refused"
for n in x y z; do
    grep -q ",client,$n,call," w.tr || fail "weights 1e15 x3: tracelet to $n never drawn"
done
printf 'tracelet a from client { choose { 1e300 { call x } 1e300 { call y } } }\n' > ch.conf
"$B/maketrace" --parse-only ch.conf 2> ch.err && fail "choose weight 1e300: accepted"
grep -q 'expected a branch weight (a number from 0 to 1e15)' ch.err || { cat ch.err; fail "choose weight: not said"; }
printf 'tracelet a from client { call x:1e300|y:1e300 }\n' > nd.conf
"$B/maketrace" --parse-only nd.conf 2> nd.err && fail "node weight 1e300: accepted"
grep -q 'expected a number from 0 to 1e15 as the weight of node x' nd.err || { cat nd.err; fail "node weight: not said"; }
# --- 7. Archives: a zip member whose header announces more than the cap is
# refused naming the zip header (before: "its tar header announces" for a
# zip).  No ratio limit: the cap is on the decompressed size of one
# document (--max-document, 1 GiB by default), whatever the ratio, so a
# bomb costs at most the cap (docs/importer.md).
if command -v python3 > /dev/null 2>&1; then
    python3 -c "
import zipfile
with zipfile.ZipFile('small.zip', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('a.json', '{\"data\":[' + ' ' * 4000 + ']}')
" || fail "small.zip not written"
    "$B/importtrace" --max-document 1K -q -o z.tr small.zip 2> z.err && fail "zip over the cap: accepted"
    grep -q '^importtrace: small.zip:a.json: its zip header announces more than 1024 bytes' z.err ||
        { cat z.err; fail "zip over the cap: not named as zip"; }
fi
echo "hostile8: ok"
