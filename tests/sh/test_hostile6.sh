#!/bin/sh
# Hostile input, sixth round (issue 28, h141): inputs of real shape from
# runtimes nobody here had fed in, and bad inputs of the other programs.
# One block per class, each able to fail on the tree before it.
D="$PB_ROOT/tests/data/importtrace"
. "$PB_ROOT/tests/sh/lib_scaffold.sh"
scaffold importtrace score compare

# --- 1. Zipkin v1 (/api/v1/traces: Finagle, older Brave and Sleuth): no
# localEndpoint; a span's sides are its annotations cs/cr (client) and
# sr/ss (server), each with an endpoint; "sa"/"ca" name the other end, "lc"
# a local span's service.  zipkin_v1.json is zipkin.json written so (one v1
# span per RPC side, and b2 one span with all four annotations: the shared
# client/server pair): the same trace, byte for byte.  Before: refused
# ("expected a localEndpoint object").
"$B/importtrace" -q -o v2.tr "$D/zipkin.json" || fail "zipkin.json"
"$B/importtrace" -q -o v1.tr "$D/zipkin_v1.json" || fail "zipkin_v1.json refused"
cmp -s v2.tr v1.tr || { diff v2.tr v1.tr; fail "Zipkin v1: not the trace of its v2 form"; }
"$B/importtrace" -q --format zipkin "$D/zipkin_v1.json" | cmp -s - v1.tr ||
    fail "--format zipkin: Zipkin v1 not the same"
# one side only: the span's duration when the closing annotation is
# missing, the callee from "sa"; a local span's service from "lc"
ann() { printf '{"value":"%s","timestamp":%s,"endpoint":{"serviceName":"%s"}}' "$@"; }
printf '[{"traceId":"t","id":"1","timestamp":5,"duration":7,"annotations":[%s],"binaryAnnotations":[{"key":"sa","value":true,"endpoint":{"serviceName":"db"}}]},
 {"traceId":"u","id":"2","timestamp":10,"duration":4,"binaryAnnotations":[{"key":"lc","value":"cache","endpoint":{"serviceName":"web"}}]}]\n' \
    "$(ann cs 5 api)" > side.json
printf '[{"traceId":"t","id":"1","timestamp":5,"duration":7,"kind":"CLIENT","localEndpoint":{"serviceName":"api"},"remoteEndpoint":{"serviceName":"db"}},
 {"traceId":"u","id":"2","timestamp":10,"duration":4,"localEndpoint":{"serviceName":"web"}}]\n' > side2.json
"$B/importtrace" -q -o side.tr side.json || fail "side.json"
"$B/importtrace" -q -o side2.tr side2.json || fail "side2.json"
cmp -s side.tr side2.tr || { diff side2.tr side.tr; fail "one-sided / local v1 spans: not their v2 form"; }
# bad v1 spans: refused, naming the file, the span and what was expected
bad() { # json text
    printf '%s\n' "$2" > bad.json
    "$B/importtrace" -q -o bad.tr bad.json 2> bad.err && fail "$1: accepted"
    grep -q "bad.json:1:[0-9]*: \[0\]: .*$3" bad.err || { cat bad.err; fail "$1: not located / not said"; }
}
bad "no endpoint" '[{"traceId":"t","id":"1","annotations":[{"value":"cs","timestamp":5}]}]' \
    'expected the endpoint of annotation "cs" with a "serviceName" (Zipkin v1)'
bad "no service anywhere" '[{"traceId":"t","id":"1","annotations":[]}]' \
    'or annotations whose endpoint has a "serviceName" (Zipkin v1)'
bad "annotations not a list" '[{"traceId":"t","id":"1","annotations":{}}]' \
    'expected "annotations" as an array'
bad "annotation not an object" '[{"traceId":"t","id":"1","annotations":[1]}]' \
    'annotations\[0\]: expected an object with "value" and "timestamp"'
bad "end not a number" "[{\"traceId\":\"t\",\"id\":\"1\",\"annotations\":[$(ann cs 5 a),$(ann cr '"x"' a)]}]" \
    'expected the annotations. "timestamp" as a whole number of microseconds'
bad "end far past" "[{\"traceId\":\"t\",\"id\":\"1\",\"annotations\":[$(ann cs 1 a),$(ann cr 9223372036854775807 a)]}]" \
    'past the largest timestamp'
bad "difference overflows" "[{\"traceId\":\"t\",\"id\":\"1\",\"annotations\":[$(ann cs -9223372036854775807 a),$(ann cr 9 a)]}]" \
    'out of range'

# --- 2. score --query cut short: the place named is right after the last
# word, on the query's own line (before: "--query:2:1", a line that is not
# there, from the newline the list reader appends).
"$B/importtrace" -q -o q.tr "$D/zipkin.json" || fail "q.tr"
"$B/score" --truth q.tr --query 'From x In Recv[host=db' q.tr > /dev/null 2> q.err &&
    fail "--query cut short: accepted"
grep -q '^score: --query:1:23: expected ",", got the end of the query' q.err ||
    { cat q.err; fail "--query cut short: wrong place"; }
printf 'From x In Recv Select Count\n\n# two\nFrom y In\n\n' > q.txt
"$B/score" --truth q.tr --query q.txt q.tr > /dev/null 2> q.err && fail "q.txt: accepted"
grep -q '^score: q.txt:4:10: expected a tracepoint' q.err ||
    { cat q.err; fail "q.txt cut short: wrong place"; }
# --- 3. compare's inputs.  (a) Two points whose names agree in their first
# 1,023 bytes are two rows (the row key was the names cut at 1,023 bytes:
# "seed 1 a second time" on the second point).  (b) Finite values whose
# differences overflow a double are refused, naming the row (before: a NaN
# mean and "changed within tolerance", exit 0).  (c) Seeds paired by name
# in any order (a look-up now, not a scan of the side's seeds: reading
# and pairing were quadratic in the seeds of one point).
P=$(awk 'BEGIN { while (n++ < 1100) printf "p" }')
{
    echo point,metric,seed,value
    echo "${P}A,m,1,1"; echo "${P}A,m,2,2"
    echo "${P}B,m,1,10"; echo "${P}B,m,2,20"
} > la.csv
"$B/compare" -q --csv lc.csv la.csv la.csv > /dev/null 2> lc.err || { cat lc.err; fail "long point names: refused"; }
[ "$(grep -c "^${P}[AB],.*,m,none,2,\(1.5,1.5\|15,15\)," lc.csv)" = 2 ] ||
    { cut -c1090-1200 lc.csv; fail "long point names: not two rows of their own"; }
printf 'point,metric,seed,value\np,m,1,1e308\np,m,2,-1e308\n' > oa.csv
printf 'point,metric,seed,value\np,m,1,-1e308\np,m,2,1e308\n' > ob.csv
"$B/compare" -q oa.csv ob.csv > /dev/null 2> o.err; rc=$?
[ "$rc" = 4 ] || fail "overflowing differences: exit $rc, not 4"
grep -q '^compare: point p metric m: .*overflow a double' o.err || { cat o.err; fail "overflow: not said"; }
awk 'BEGIN { print "point,metric,seed,value"; for (i = 0; i < 3000; i++) printf "p,m,s%d,%d\n", i, i % 7 }' > sa.csv
awk 'BEGIN { print "point,metric,seed,value"; for (i = 2999; i >= 0; i--) printf "p,m,s%d,%d\n", i, i % 7 + (i == 5) }' > sb.csv
"$B/compare" -q --csv sc.csv sa.csv sb.csv > /dev/null || true
grep -q '^p,,,m,none,3000,.*,1,0,2999,' sc.csv || { cat sc.csv; fail "3000 seeds in reverse order: not paired (1 up, 2999 equal)"; }
# --- 4. a number option that underflows (1e-400, the denormal 4.9e-324)
# is a finite number rounded toward 0, not "expected a finite number";
# -0 reads as 0; 1e400 stays refused.
if [ -x "$B/infer" ]; then
    "$B/infer" -q --parse-only --algo nesting -s min_confidence=4.9e-324 q.tr 2> u.err ||
        { cat u.err; fail "min_confidence=4.9e-324 refused"; }
    "$B/infer" -q --algo nesting -s min_confidence=-1e-400 -o u.res q.tr 2> u.err ||
        { cat u.err; fail "min_confidence=-1e-400 refused"; }
    grep -q ' min_confidence=0$' u.res || grep -q ' min_confidence=0 ' u.res ||
        fail "min_confidence=-1e-400: not 0 in the parameters: $(grep -o 'min_confidence=[^ ]*' u.res)"
    "$B/infer" -q --parse-only --algo nesting -s min_confidence=1e400 q.tr 2> u.err &&
        fail "min_confidence=1e400 accepted"
    grep -q 'expected a finite number, got "1e400"' u.err || { cat u.err; fail "1e400: not said"; }
fi
# --- 5. a root span whose parent is the invalid (all-zero) span id, as
# some exporters write it instead of leaving the field empty: in hex
# ("0000000000000000") or in base64, protobuf's generic JSON mapping of
# bytes ("AAAAAAAAAAA=", OTLP/JSON from Tempo-like APIs).  It is a root:
# the same trace as with an empty parent.  Before: missing_parent, and the
# request labelled TRACE:SPAN (a trace with two such roots was split).
otlp() { # trace root-id root-parent child-id
    printf '{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"web"}}]},"scopeSpans":[{"spans":[{"traceId":"%s","spanId":"%s","parentSpanId":"%s","kind":"SPAN_KIND_SERVER","startTimeUnixNano":"1651733829634968350","endTimeUnixNano":"1651733829783441370"},{"traceId":"%s","spanId":"%s","parentSpanId":"%s","kind":"SPAN_KIND_CLIENT","startTimeUnixNano":"1651733829644968350","endTimeUnixNano":"1651733829683441370","attributes":[{"key":"peer.service","value":{"stringValue":"db"}}]}]}]}]}\n' \
        "$1" "$2" "$3" "$1" "$4" "$2"
}
T=CwRiw0aY/5DbxmhwztZ3Ww==
otlp $T JdNs9MF0KeQ= '' JdNs9MF0KeR= > b64e.json
otlp $T JdNs9MF0KeQ= AAAAAAAAAAA= JdNs9MF0KeR= > b64z.json
T=0b0462c34698ff90dbc66870ced6775b
otlp $T 25d36cf4c17429e4 '' 25d36cf4c17429e5 > hexe.json
otlp $T 25d36cf4c17429e4 0000000000000000 25d36cf4c17429e5 > hexz.json
printf '[{"traceId":"aaaa","id":"a1","parentId":"%s","kind":"SERVER","timestamp":1000,"duration":100,"localEndpoint":{"serviceName":"web"}}]\n' 0000000000000000 > zipz.json
printf '[{"traceId":"aaaa","id":"a1","kind":"SERVER","timestamp":1000,"duration":100,"localEndpoint":{"serviceName":"web"}}]\n' > zipe.json
for c in b64 hex zip; do
    "$B/importtrace" -q -o "${c}e.tr" "${c}e.json" || fail "${c}e.json"
    "$B/importtrace" -q -o "${c}z.tr" "${c}z.json" || fail "${c}z.json"
    cmp -s "${c}e.tr" "${c}z.tr" ||
        { diff "${c}e.tr" "${c}z.tr"; fail "$c: an all-zero parent id is not a root"; }
done
grep -q ' missing_parent=0 ' b64z.tr || fail "b64z: missing_parent counted"
# a span that is really named so is still a parent (the rule applies only
# to an id no span of the trace has)
printf '[{"traceId":"aaaa","id":"AAAAAAAAAAA=","kind":"SERVER","timestamp":1000,"duration":100,"localEndpoint":{"serviceName":"web"}},
 {"traceId":"aaaa","id":"b","parentId":"AAAAAAAAAAA=","kind":"CLIENT","timestamp":1010,"duration":10,"localEndpoint":{"serviceName":"web"},"remoteEndpoint":{"serviceName":"db"}}]\n' > named.json
"$B/importtrace" -q -o named.tr named.json || fail "named.json"
grep -q '^2,.*,web,db,call,aaaa,1$' named.tr || { cat named.tr; fail "a span named AAAAAAAAAAA= is not its child's parent"; }
# --- 6. Jaeger's query answers as a user saves them.  (a) Jaeger v2's
# api_v3 over HTTP: chunks {"result": {"resourceSpans": [...]}}, one per
# line: OTLP inside (before: refused as no known document).  (b) An answer
# that failed ({"data": null, "errors": [...]} of /api/traces, {"error":
# {...}} of api_v3): the error names the query's own error (before:
# '"data": expected an array of traces', or no known document).
sed 's/^{"resourceSpans"/{"result":{"resourceSpans"/; s/}$/}}/' hexz.json > v3.json
grep -q '^{"result":{"resourceSpans":.*]}}$' v3.json || fail "v3.json not made"
"$B/importtrace" -q -o v3.tr v3.json || fail "api_v3 chunk refused"
cmp -s v3.tr hexz.tr || { diff hexz.tr v3.tr; fail "api_v3 chunk: not the trace of its OTLP"; }
printf '{"data":null,"total":0,"limit":0,"offset":0,"errors":[{"code":500,"msg":"query timeout"}]}\n' > qerr.json
"$B/importtrace" -q -o qerr.tr qerr.json 2> qerr.err && fail "failed answer accepted"
grep -q 'qerr.json:1:1: the document is a query answer that failed (error 500: query timeout)' qerr.err ||
    { cat qerr.err; fail "failed /api/traces answer: not said"; }
printf '{"error":{"grpcCode":5,"httpCode":404,"message":"trace not found","httpStatus":"Not Found"}}\n' > qerr3.json
"$B/importtrace" -q -o qerr.tr qerr3.json 2> qerr.err && fail "failed api_v3 answer accepted"
grep -q 'failed (error 404: trace not found)' qerr.err || { cat qerr.err; fail "failed api_v3 answer: not said"; }
# (c) a partial answer (traces and "errors" beside them): the traces are
# read, and what is missing is said, even with -q (before: silently)
"$B/importtrace" -q -o two.tr "$D/two.json" || fail "two.json"
sed 's/^{/{"errors":[{"code":404,"msg":"trace not found: t9"}],/' "$D/two.json" > part.json
grep -q '^{"errors":\[{"code":404' part.json || fail "part.json not made"
"$B/importtrace" -q -o part.tr part.json 2> part.err || { cat part.err; fail "partial answer refused"; }
cmp -s two.tr part.tr || fail "partial answer: not the traces it holds"
grep -q '^importtrace: warning: .*part.json: the query answer holds 1 errors beside its traces (first: 404: trace not found: t9)' part.err ||
    { cat part.err; fail "partial answer: the missing traces not said"; }
# (d) a count past the largest score can hold is said as such (before: "is
# not a count", which it is)
"$B/score" -m 99999999999999999999 x y 2> big.err && fail "score -m 1e20 accepted"
grep -q 'score: --min-instances: "99999999999999999999"; expected an integer from 0 to 18446744073709551615' big.err ||
    { cat big.err; fail "score -m 1e20: not said as too large"; }
exit 0
