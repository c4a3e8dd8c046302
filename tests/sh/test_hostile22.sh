#!/bin/sh
# Hostile input, round 22 (issue 28, the 34th wave): one block per class,
# each able to fail on the tree before it; then the two decisions round 21
# left open (a Jaeger reference into another trace, a pbcapture message
# whose sender and receiver counted different bytes).
. "$PB_ROOT/tests/sh/lib_scaffold.sh"
scaffold importtrace

J="$R/tests/fuzz/corpus/fuzz_importtrace"
C="$R/tests/fuzz/corpus/fuzz_capture"
E="$R/tests/fuzz/corpus/fuzz_ebpf/small.json"

# --- 1. importtrace: bytes after bzip2, lz4, lzma or lzip data.  Their
# libarchive readers stop at the end of their data and never look at what
# follows: a second file joined on (cat a.json.bz2 b.json > x.json.bz2)
# was dropped without a word, in a plain compressed file, a .tar.bz2 (the
# tar reader stops at its end marker) and a compressed member of a tar,
# where gzip's trailing bytes are refused (round 16) and xz's and zstd's by
# their own readers.  Now refused at their byte offset; zero padding reads.
"$B/importtrace" -q -o a.tr "$J/hotel_one.json" || fail "the sound JSON refused"
for z in bz2 lz4 lzma; do
    case $z in
    lzma) command -v xz > /dev/null 2>&1 || continue; xz --format=lzma -c "$J/hotel_one.json" > a.json.$z ;;
    bz2) command -v bzip2 > /dev/null 2>&1 || continue; bzip2 -c "$J/hotel_one.json" > a.json.$z ;;
    *) command -v $z > /dev/null 2>&1 || continue; $z -q -c "$J/hotel_one.json" > a.json.$z ;;
    esac
    sz=$(wc -c < a.json.$z)
    cat a.json.$z "$J/cycle.json" > j.json.$z
    "$B/importtrace" -q -o x.tr j.json.$z 2> j.err && fail "$z: a file joined on after the data: accepted"
    grep -q "^importtrace: j.json.$z: cannot read: the [a-z0-9]* data end at byte $sz of the file and are followed, at byte $sz, by bytes that are not" j.err ||
        { cat j.err; fail "$z: the joined file not said at byte $sz"; }
    cat j.json.$z | "$B/importtrace" -q -o x.tr - 2> p.err && fail "$z: joined, from a pipe: accepted"
    grep -q "^importtrace: (stdin): cannot read: the [a-z0-9]* data end at byte $sz" p.err || { cat p.err; fail "$z: joined, from a pipe: not said"; }
    { cat a.json.$z; head -c 3000 /dev/zero; } > zp.json.$z
    "$B/importtrace" -q -o zp.tr zp.json.$z || fail "$z: zero padding refused"
    cmp -s a.tr zp.tr || fail "$z: zero padding: not the trace of the file"
    [ $z = bz2 ] || continue # members are read by name: *.json.bz2 of these
    mkdir -p m$z && cp j.json.$z m$z/ && tar cf m$z.tar m$z
    "$B/importtrace" -q -o x.tr m$z.tar 2> m.err && fail "$z: a joined member of a tar: accepted"
    grep -q "^importtrace: m$z.tar:m$z/j.json.$z: cannot read: the [a-z0-9]* data end at byte $sz of the member" m.err ||
        { cat m.err; fail "$z: the joined member not said"; }
done
if command -v bzip2 > /dev/null 2>&1; then
    mkdir tb && cp "$J/hotel_one.json" tb/ && tar cf - tb | bzip2 -c > t.tar.bz2
    "$B/importtrace" -q -o t.tr t.tar.bz2 || fail "a sound .tar.bz2 refused"
    sz=$(wc -c < t.tar.bz2)
    cat t.tar.bz2 "$J/cycle.json" > t2.tar.bz2
    "$B/importtrace" -q -o x.tr t2.tar.bz2 2> t.err && fail ".tar.bz2 with a file joined on: accepted"
    grep -q "^importtrace: t2.tar.bz2: cannot read: after the tar archive's end (its last member \"tb/hotel_one.json\"): the bzip2 data end at byte $sz" t.err ||
        { cat t.err; fail ".tar.bz2 joined: not said"; }
    cat t2.tar.bz2 | "$B/importtrace" -q -o x.tr - 2> t.err && fail ".tar.bz2 joined, from a pipe: accepted"
    grep -q "^importtrace: (stdin): cannot read: after the tar archive's end" t.err || { cat t.err; fail ".tar.bz2 joined, pipe: not said"; }
    cat a.json.bz2 a.json.bz2 > two.json.bz2 2> /dev/null &&
        { "$B/importtrace" -q -o x.tr two.json.bz2 || fail "two bzip2 streams (one document twice) refused"; }
fi

# --- 2. importtrace: packets whose IPv4 length field is 0.  A capture on
# the sending host with TCP segmentation offload holds packets the card
# has yet to cut and fill in, their IP length 0 (Wireshark: "reported as
# 0, presumed to be because of TSO"): each was skipped as too short
# without a word, so every such request or response was a gap and
# nothing was found.  Now read at the frame's length, counted and said
# (capture: tso, even with -q); a 60-byte Ethernet frame, which padding
# may have lengthened, is skipped and counted in the same line.
if command -v python3 > /dev/null 2>&1; then
    cat > tso.py <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import mkpcap
from mkpcap import Writer, conn, req, ok
zero = int(sys.argv[3])
orig = mkpcap.packet
def pk(src, sport, dst, dport, seq, ack, flags, payload=b""):
    p = orig(src, sport, dst, dport, seq, ack, flags, payload)
    if zero == 2 or (zero and payload):
        p = p[:16] + b"\0\0" + p[18:]  # IPv4 total length 0
    if zero == 3 and not payload:
        p = p + b"\0" * (60 - len(p))  # a padded minimum frame
        p = p[:16] + b"\0\0" + p[18:]
    return p
mkpcap.packet = pk
w = Writer(sys.argv[2])
conn(w, "10.0.0.1", 40001, "10.0.0.2", 80, [(1, req("/a")), (0, ok(b"x" * 300))])
w.close()
PY
    D="$R/tests/data/capture"
    python3 tso.py "$D" ok.pcap 0 && python3 tso.py "$D" t.pcap 1 && python3 tso.py "$D" t2.pcap 2 &&
        python3 tso.py "$D" t3.pcap 3 || fail "the captures not written"
    "$B/importtrace" -q -o ok.tr ok.pcap 2> ok.err || { cat ok.err; fail "tso: the sound capture refused"; }
    [ -s ok.err ] && { cat ok.err; fail "tso: the sound capture warned"; }
    for f in t t2; do
        "$B/importtrace" -q -o $f.tr $f.pcap 2> $f.err || { cat $f.err; fail "tso $f: refused"; }
        grep -v '^# capture: tso ' $f.tr | cmp -s - ok.tr || fail "tso $f: not the rows of the sound capture"
    done
    grep -q "^importtrace: warning: t.pcap: 2 TCP packets had an IP length field of 0 (TCP segmentation offload" t.err ||
        { cat t.err; fail "tso: not said"; }
    grep -q "^# capture: tso t2.pcap: 7 TCP packets had an IP length field of 0 .* 0 such Ethernet frames of 60 bytes" t2.tr ||
        fail "tso: not in the metadata"
    "$B/importtrace" -q -o t3.tr t3.pcap 2> t3.err || { cat t3.err; fail "tso t3: refused"; }
    grep -q "^importtrace: warning: t3.pcap: 2 TCP packets .* 5 such Ethernet frames of 60 bytes" t3.err ||
        { cat t3.err; fail "tso: padded minimum frames not counted"; }
fi

# --- 3. importtrace: an eBPF event's payload that is not a string (an
# array of byte values, a number): read as empty without a word, the
# request's bytes lost and its response counted "without a request".  Now
# refused, naming the event; absent and null stay "nothing captured".
if command -v python3 > /dev/null 2>&1; then
python3 - "$E" <<'PY' || fail "the eBPF files not made"
import json, sys
d = json.load(open(sys.argv[1]))
p = d['spans'][0]['req']['payload']
d['spans'][0]['req']['payload'] = list(p.encode())
json.dump(d, open('arr.json', 'w'))
d['spans'][0]['req']['payload'] = 5
json.dump(d, open('num.json', 'w'))
d['spans'][0]['req']['payload'] = None
json.dump(d, open('null.json', 'w'))
PY
"$B/importtrace" -q -o x.tr arr.json 2> arr.err && fail "eBPF payload as an array: accepted"
grep -q '^importtrace: arr.json:[0-9]*:[0-9]*: spans\[0\].req: "payload": an array; expected a string' arr.err ||
    { cat arr.err; fail "eBPF payload as an array: not said"; }
"$B/importtrace" -q -o x.tr num.json 2> num.err && fail "eBPF payload as a number: accepted"
grep -q 'spans\[0\].req: "payload": expected a string' num.err || { cat num.err; fail "eBPF payload as a number: not said"; }
"$B/importtrace" -q -o x.tr null.json || fail "eBPF payload null: refused"
fi

# --- 4. importtrace: pbcapture event lines.  (a) A tenth field was never
# looked at: a payload with a blank in it ("4745 5420...") lost every byte
# after the blank, so the request's send went unseen.  (b) A negative
# TS_NS (a time before 1970) or BYTES (-1, a failed call's return) was
# taken: the time written, the count read as 0.  Each refused at its line
# and column; blanks after the ninth field still read.
mkdir cap
cp "$C/server.events" cap/20.21.events
cp "$C/client.events" cap/10.11.events
"$B/importtrace" -q -o ok.tr cap || fail "events: the sound capture not read"
sed 's/^\(2000 10 11 3 send 98 [^ ]* [^ ]* 4745\)/\1 /' "$C/client.events" > cap/10.11.events
"$B/importtrace" -q -o x.tr cap 2> f10.err && fail "events: a payload with a blank: accepted"
grep -q '^importtrace: cap/10.11.events:3:54: field 10: got "54202f' f10.err || { cat f10.err; fail "events: field 10 not said"; }
sed 's/^1000 10 11 3 connect/-1000 10 11 3 connect/' "$C/client.events" > cap/10.11.events
"$B/importtrace" -q -o x.tr cap 2> neg.err && fail "events: a negative time: accepted"
grep -q '^importtrace: cap/10.11.events:2:1: field 1: expected TS_NS' neg.err || { cat neg.err; fail "events: a negative time not said"; }
sed 's/^5000 10 11 3 recv 40 /5000 10 11 3 recv -40 /' "$C/client.events" > cap/10.11.events
"$B/importtrace" -q -o x.tr cap 2> negb.err && fail "events: a negative byte count: accepted"
grep -q '^importtrace: cap/10.11.events:4:19: field 6: expected BYTES (a count from 0), got "-40"' negb.err ||
    { cat negb.err; fail "events: a negative byte count not said"; }
sed 's/$/   /' "$C/client.events" > cap/10.11.events
"$B/importtrace" -q -o bl.tr cap || fail "events: blanks after the ninth field: refused"
cmp -s ok.tr bl.tr || fail "events: blanks after the ninth field: not the trace"
cp "$C/client.events" cap/10.11.events

# --- 5. importtrace: OTLP with protobuf's field names.  The JSON mapping
# of protobuf has parsers take a field's proto name (parent_span_id) as
# well as its JSON name (parentSpanId), and protojson / MessageToJson
# (preserving_proto_field_name) write the former; only the JSON name was
# looked for, so a span's "parent_span_id" was never read: every span
# became a root of its own request (counted extra_root, the cause never
# said); "resource_spans" at the top was "not a known document".  Now
# both spellings are read, alike; both given with two values is refused.
res() { printf '{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"%s"}}]},"scopeSpans":[{"spans":[%s]}]}' "$1" "$2"; }
T='"traceId":"00000000000000004000000000000001"'
S1="{$T,\"spanId\":\"00000000000000d0\",\"name\":\"op\",\"startTimeUnixNano\":\"4000000000\",\"endTimeUnixNano\":\"4001000000\",\"kind\":2},{$T,\"spanId\":\"00000000000000d1\",\"parentSpanId\":\"00000000000000d0\",\"name\":\"op\",\"startTimeUnixNano\":\"4000100000\",\"endTimeUnixNano\":\"4000400000\",\"kind\":3}"
S2="{$T,\"spanId\":\"00000000000000d2\",\"parentSpanId\":\"00000000000000d1\",\"name\":\"op\",\"startTimeUnixNano\":\"4000200000\",\"endTimeUnixNano\":\"4000300000\",\"kind\":2}"
printf '{"resourceSpans":[%s,%s]}\n' "$(res fe "$S1")" "$(res be "$S2")" > o.json
"$B/importtrace" -q -o o.tr o.json || fail "OTLP: the sound file refused"
sed 's/parentSpanId/parent_span_id/g' o.json > op.json
"$B/importtrace" -q -o op.tr op.json 2> op.err || { cat op.err; fail "OTLP parent_span_id: refused"; }
cmp -s o.tr op.tr || fail "OTLP parent_span_id: not the trace of parentSpanId"
sed 's/resourceSpans/resource_spans/; s/scopeSpans/scope_spans/g; s/traceId/trace_id/g; s/spanId/span_id/g; s/parentSpanId/parent_span_id/g; s/UnixNano/_unix_nano/g; s/startTime/start_time/g; s/endTime/end_time/g; s/stringValue/string_value/g' o.json > os.json
grep -q 'parentSpanId\|startTime\|resourceSpans' os.json && fail "the proto-named file not made"
"$B/importtrace" -q -o os.tr os.json 2> os.err || { cat os.err; fail "OTLP in proto names: refused"; }
cmp -s o.tr os.tr || fail "OTLP in proto names: not the trace"
sed 's/"parentSpanId":"00000000000000d0"/"parentSpanId":"00000000000000d0","parent_span_id":"00000000000000d1"/' o.json > tw.json
"$B/importtrace" -q -o x.tr tw.json 2> tw.err && fail "OTLP parentSpanId and parent_span_id with two values: accepted"
grep -q 'scopeSpans\[0\].spans\[1\]: "parentSpanId" and "parent_span_id" (its proto field name) both given, with different values' tw.err ||
    { cat tw.err; fail "OTLP both spellings: not said"; }
sed 's/"parentSpanId":"00000000000000d0"/"parentSpanId":"00000000000000d0","parent_span_id":"00000000000000d0"/' o.json > tw1.json
"$B/importtrace" -q -o tw1.tr tw1.json || fail "OTLP both spellings, one value: refused"
cmp -s o.tr tw1.tr || fail "OTLP both spellings, one value: not the trace"

# --- 6 (decision). A Jaeger reference whose "traceID" names another trace
# (a batch job's span pointing at the request that queued it) was looked
# up in the span's own trace and linked to the span there with the same
# id: here the job of trace bb became part of trace aa's request,
# collapsed into its server span.  Chosen: never a parent, as Jaeger's own
# model (Span.ParentSpanID) skips such references; counted
# (cross_trace_ref), said even with -q, in the metadata.  The span's parent
# is its next reference into its own trace, else it is a root.  A
# "traceID" that is not a string is refused.
cat > x.json <<'EOF'
{"data":[{"traceID":"aa","spans":[{"traceID":"aa","spanID":"1","operationName":"op","startTime":1000,"duration":100,"processID":"p1","references":[],"tags":[{"key":"span.kind","value":"server"}]},
{"traceID":"aa","spanID":"2","operationName":"op","startTime":1010,"duration":50,"processID":"p1","references":[{"refType":"CHILD_OF","traceID":"aa","spanID":"1"}],"tags":[{"key":"span.kind","value":"client"}]},
{"traceID":"aa","spanID":"3","operationName":"op","startTime":1020,"duration":10,"processID":"p2","references":[{"refType":"CHILD_OF","traceID":"aa","spanID":"2"}],"tags":[{"key":"span.kind","value":"server"}]},
{"traceID":"aa","spanID":"4","operationName":"job","startTime":2000,"duration":10,"processID":"p2","references":[{"refType":"FOLLOWS_FROM","traceID":"bb","spanID":"3"}],"tags":[{"key":"span.kind","value":"server"}]}],
"processes":{"p1":{"serviceName":"a"},"p2":{"serviceName":"b"}}}]}
EOF
"$B/importtrace" -q -o x.tr x.json 2> x.err || { cat x.err; fail "cross-trace reference: refused"; }
grep -q '^importtrace: warning: 1 cross_trace_ref: .* (first: x.json: data\[0\].spans\[3\].references\[0\])' x.err ||
    { cat x.err; fail "cross-trace reference: not said"; }
grep -q ' cross_trace_ref=1' x.tr || fail "cross-trace reference: not in the metadata"
grep -q ',call,aa:4,' x.tr || { cat x.tr; fail "cross-trace reference: the span not a root of its own"; }
grep -q ' internal_span=0 ' x.tr || fail "cross-trace reference: the span still merged into trace aa's"
# a reference into its own trace after it is the parent; "000000aa" is aa
sed 's/{"refType":"FOLLOWS_FROM","traceID":"bb","spanID":"3"}/{"refType":"FOLLOWS_FROM","traceID":"bb","spanID":"3"},{"refType":"CHILD_OF","traceID":"000000AA","spanID":"3"}/' x.json > x2.json
"$B/importtrace" -q -o x2.tr x2.json 2> x2.err || { cat x2.err; fail "cross-trace and own reference: refused"; }
grep -q ' internal_span=1 ' x2.tr || fail "the own-trace reference after a cross-trace one: not the parent"
sed 's/"traceID":"bb"/"traceID":7/' x.json > x3.json
"$B/importtrace" -q -o x.tr x3.json 2> x3.err && fail "a reference's traceID not a string: accepted"
grep -q 'data\[0\].spans\[3\].references\[0\]: "traceID" is not a string' x3.err || { cat x3.err; fail "reference traceID a number: not said"; }
# no traceID in a reference: its own trace, as before
sed 's/"traceID":"bb",//' x.json > x4.json
"$B/importtrace" -q -o x4.tr x4.json 2> x4.err || fail "a reference without traceID: refused"
[ -s x4.err ] && { cat x4.err; fail "a reference without traceID: warned"; }

# --- 7 (decision). A pbcapture message the sender wrote with one byte
# count and the receiver read with another (a view that lost or took
# twice some events, a proxy that rewrote it) was written with the
# sender's size without a word.  Now counted and said (capture: sizes,
# even with -q, in the metadata); the rows are unchanged.
hx=$(printf 'HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\nok' | od -An -tx1 | tr -d ' \n')
sed "s/^5000 10 11 3 recv 40 \(.*\) [0-9a-f]*\$/5000 10 11 3 recv 51 \1 $hx/" "$C/client.events" > cap/10.11.events
"$B/importtrace" -q -o sz.tr cap 2> sz.err || { cat sz.err; fail "sizes differ: refused"; }
grep -q '^importtrace: warning: 1 of 2 messages seen by both their sender and their receiver were written with one byte count and read with another (first: response 1 on 10.0.0.1:40000>10.0.0.2:80: 40 bytes written, 51 read)' sz.err ||
    { cat sz.err; fail "sizes differ: not said"; }
grep -q '^# capture: sizes: 1 of 2 messages' sz.tr || fail "sizes differ: not in the metadata"
grep -v '^# capture: sizes' sz.tr | cmp -s - ok.tr || fail "sizes differ: the rows changed"
cp "$C/client.events" cap/10.11.events
"$B/importtrace" -q -o x.tr cap 2> in.err || fail "sizes agree: refused"
[ -s in.err ] && { cat in.err; fail "sizes agree: warned"; }
exit 0
