#!/bin/sh
# Hostile input, round 21 (issue 28, the 33rd wave): one block per class,
# each able to fail on the tree before it.
. "$PB_ROOT/tests/sh/lib_scaffold.sh"
scaffold importtrace

C="$R/tests/fuzz/corpus/fuzz_capture"
E="$R/tests/fuzz/corpus/fuzz_ebpf/small.json"

# --- 1. importtrace: a key given twice in an attribute or tag list, with
# two values.  Round 14 refused a JSON object's key given twice; the lists
# of key/value pairs (OTLP attributes, Jaeger tags, Zipkin v1 binary
# annotations) are arrays, and each reader took one of the two without a
# word: OTLP the first service.name (the resource's spans went to "fe"
# where a later attribute said "other"), Jaeger the last span.kind ("client"
# then "server": a client span read as a server span inside its own service
# and collapsed), Zipkin v1 the first "sa".  Now refused, naming both; the
# same value twice is one value.
res() { printf '{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"%s"}}%s]},"scopeSpans":[{"spans":[%s]}]}' "$1" "${3:-}" "$2"; }
T='"traceId":"00000000000000004000000000000001"'
S1="{$T,\"spanId\":\"00000000000000d0\",\"name\":\"op\",\"startTimeUnixNano\":\"4000000000\",\"endTimeUnixNano\":\"4001000000\",\"kind\":2},{$T,\"spanId\":\"00000000000000d1\",\"parentSpanId\":\"00000000000000d0\",\"name\":\"op\",\"startTimeUnixNano\":\"4000100000\",\"endTimeUnixNano\":\"4000400000\",\"kind\":3}"
S2="{$T,\"spanId\":\"00000000000000d2\",\"parentSpanId\":\"00000000000000d1\",\"name\":\"op\",\"startTimeUnixNano\":\"4000200000\",\"endTimeUnixNano\":\"4000300000\",\"kind\":2}"
printf '{"resourceSpans":[%s,%s]}\n' "$(res fe "$S1" ',{"key":"service.name","value":{"stringValue":"other"}}')" "$(res be "$S2")" > o2.json
"$B/importtrace" -q -o x.tr o2.json 2> o2.err && fail "OTLP service.name twice: accepted"
grep -q '^importtrace: o2.json:1:[0-9]*: resourceSpans\[0\].resource.attributes\[1\]: attribute "service.name" given a second time with another value ("fe", then "other")' o2.err ||
    { cat o2.err; fail "OTLP service.name twice: not said"; }
printf '{"resourceSpans":[%s,%s]}\n' "$(res fe "$S1" ',{"key":"service.name","value":{"stringValue":"fe"}}')" "$(res be "$S2")" > o1.json
printf '{"resourceSpans":[%s,%s]}\n' "$(res fe "$S1" '')" "$(res be "$S2")" > o0.json
"$B/importtrace" -q -o o1.tr o1.json || fail "OTLP service.name twice, one value: refused"
"$B/importtrace" -q -o o0.tr o0.json || fail "OTLP service.name once: refused"
cmp -s o0.tr o1.tr || fail "OTLP service.name twice, one value: not the trace of once"
# a span's peer.service
sed 's/"kind":3}/"kind":3,"attributes":[{"key":"peer.service","value":{"stringValue":"be"}},{"key":"peer.service","value":{"stringValue":"db"}}]}/' o0.json > op.json
"$B/importtrace" -q -o x.tr op.json 2> op.err && fail "OTLP peer.service twice: accepted"
grep -q 'spans\[1\].attributes\[1\]: attribute "peer.service" given a second time' op.err || { cat op.err; fail "OTLP peer.service twice: not said"; }
cat > j.json <<'EOF'
{"data":[{"traceID":"t","spans":[{"traceID":"t","spanID":"a","operationName":"op","startTime":1000,"duration":100,"processID":"p1","references":[],"tags":[{"key":"span.kind","value":"server"}]},
{"traceID":"t","spanID":"b","operationName":"op","startTime":1010,"duration":50,"processID":"p1","references":[{"refType":"CHILD_OF","traceID":"t","spanID":"a"}],"tags":[{"key":"span.kind","value":"client"},{"key":"span.kind","value":"server"}]},
{"traceID":"t","spanID":"c","operationName":"op","startTime":1020,"duration":10,"processID":"p2","references":[{"refType":"CHILD_OF","traceID":"t","spanID":"b"}],"tags":[{"key":"span.kind","value":"server"}]}],
"processes":{"p1":{"serviceName":"a"},"p2":{"serviceName":"b"}}}]}
EOF
"$B/importtrace" -q -o x.tr j.json 2> j.err && fail "Jaeger span.kind twice: accepted"
grep -q '^importtrace: j.json:[0-9]*:[0-9]*: data\[0\].spans\[1\].tags\[1\]: tag "span.kind" given a second time with another value (tags\[0\] "client", then "server")' j.err ||
    { cat j.err; fail "Jaeger span.kind twice: not said"; }
sed 's/"value":"client"},{"key":"span.kind","value":"server"}/"value":"client"},{"key":"span.kind","value":"client"}/' j.json > j1.json
sed 's/"value":"client"},{"key":"span.kind","value":"server"}/"value":"client"}/' j.json > j0.json
"$B/importtrace" -q -o j1.tr j1.json || fail "Jaeger span.kind twice, one value: refused"
"$B/importtrace" -q -o j0.tr j0.json || fail "Jaeger span.kind once: refused"
cmp -s j0.tr j1.tr || fail "Jaeger span.kind twice, one value: not the trace of once"
cat > z.json <<'EOF'
[{"traceId":"1","id":"a","name":"op","annotations":[{"timestamp":4000000,"value":"cs","endpoint":{"serviceName":"fe"}},{"timestamp":4001000,"value":"cr","endpoint":{"serviceName":"fe"}}],"binaryAnnotations":[{"key":"sa","value":true,"endpoint":{"serviceName":"be"}},{"key":"sa","value":true,"endpoint":{"serviceName":"db"}}]}]
EOF
"$B/importtrace" -q -o x.tr z.json 2> z.err && fail "Zipkin v1 sa twice: accepted"
grep -q 'binaryAnnotations\[1\] "sa" on endpoint "db", but binaryAnnotations\[0\] "sa" on "be"' z.err || { cat z.err; fail "Zipkin v1 sa twice: not said"; }
sed 's/"db"/"be"/' z.json > z1.json
"$B/importtrace" -q -o x.tr z1.json || fail "Zipkin v1 sa twice, one service: refused"

# --- 2. importtrace: pbcapture event files.  (a) CRLF line ends (a file
# that passed through Windows or a git checkout with autocrlf): the
# carriage return stuck to the last field, and the valid payload "-" was
# "field 9: expected hex digits, got "-"".  Now read as the LF file.
# (b) A NUL byte: fgets's line ended at it, the rest of the line lost, and
# the error said "line longer than 262144 bytes" of a 100-byte line; now
# the NUL's line and column.  (c) One thread writes a file in the order of
# its calls, so a stamp before the one before it is its clock stepping
# back; events are merged by their stamps, so the server's response came
# out before the request it answers, its cause link lost, without a word.
# Now counted and said (capture: backward ..., even with -q).
mkdir cap
cp "$C/client.events" cap/10.11.events
cp "$C/server.events" cap/20.21.events
"$B/importtrace" -q -o ok.tr cap || fail "events: the sound capture not read"
sed 's/$/\r/' "$C/client.events" > cap/10.11.events
"$B/importtrace" -q -o cr.tr cap 2> cr.err || { cat cr.err; fail "events with CRLF: refused"; }
cmp -s ok.tr cr.tr || fail "events with CRLF: not the trace of LF"
awk 'NR == 3 { printf "%s", substr($0, 1, 40); printf "%c", 0; print substr($0, 41); next } { print }' "$C/client.events" > cap/10.11.events
"$B/importtrace" -q -o x.tr cap 2> nul.err && fail "events: a NUL byte accepted"
grep -q "^importtrace: cap/10.11.events:3:41: a NUL byte; expected text" nul.err || { cat nul.err; fail "events: the NUL not placed"; }
cp "$C/client.events" cap/10.11.events
sed 's/^4000 /2500 /' "$C/server.events" > cap/20.21.events
"$B/importtrace" -q -o bk.tr cap 2> bk.err || { cat bk.err; fail "events stamped backwards: refused"; }
grep -q "^importtrace: warning: cap/20.21.events: 1 of 8 events were stamped before the event before them in their file (first: line 4; 0.000000500 s back at most)" bk.err ||
    { cat bk.err; fail "events stamped backwards: not said"; }
grep -q "^# capture: backward cap/20.21.events: 1 of 8 events" bk.tr || fail "events stamped backwards: not in the metadata"
cp "$C/server.events" cap/20.21.events
"$B/importtrace" -q -o x.tr cap 2> in.err || fail "events in order: refused"
[ -s in.err ] && { cat in.err; fail "events in order: warned"; }

# --- 3. importtrace: an eBPF event's enter_seq / exit_seq that is no
# 32-bit TCP sequence number (2^32 + 9, -9, the string "9") was taken as
# absent without a word, the event then placed by its time rather than by
# its bytes' place in the stream.  Now refused; absent and null stay
# "not recorded".
if command -v python3 >/dev/null 2>&1; then
python3 - "$E" <<'PY' || fail "the eBPF files not made"
import json, sys
d = json.load(open(sys.argv[1]))
for name, v in (('big', 4294967296 + 9), ('neg', -9), ('str', '9')):
    d['spans'][0]['resp']['enter_seq'] = v
    json.dump(d, open(name + '.json', 'w'))
d['spans'][0]['resp']['enter_seq'] = None
json.dump(d, open('null.json', 'w'))
d['spans'][0]['resp']['enter_seq'] = 9
d['spans'][0]['resp']['exit_seq'] = 2 ** 40
json.dump(d, open('xbig.json', 'w'))
PY
for f in big neg str xbig; do
    "$B/importtrace" -q -o x.tr $f.json 2> $f.err && fail "eBPF sequence number '$f': accepted"
    grep -q '^importtrace: '$f'.json:[0-9]*:[0-9]*: spans\[0\].resp: "e[a-z]*_seq": expected a TCP sequence number' $f.err ||
        { cat $f.err; fail "eBPF sequence number '$f': not said"; }
done
"$B/importtrace" -q -o x.tr null.json || fail "eBPF enter_seq null: refused"
"$B/importtrace" -q -o x.tr "$E" || fail "eBPF: the sound file refused"
fi
exit 0
