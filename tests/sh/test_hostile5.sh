#!/bin/sh
# Hostile input, fifth round (issue 28, h128): inputs a new user meets
# that nobody here had seen -- other exporters' span tables, adversarial
# shapes.  One block per class, each able to fail on the tree before it.
set -u
for p in importtrace infer score; do
    [ -x "$PB_BIN/$p" ] || exit 77
done
B="$PB_BIN"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
cd "$tmp" || exit 1
rows() { grep -v '^#' "$1"; }

# --- 1. a span table whose end field is empty but whose duration is there
# (Nezha's layout has both; an exporter that leaves EndTimeUnixNano empty
# for some rows): the row's length is its duration, not 0 and not
# missing_duration.  Before: every such span was taken as 0 long.
hdr=TraceID,SpanID,ParentID,PodName,OperationName,StartTimeUnixNano,EndTimeUnixNano,Duration
{
    echo "$hdr"
    echo "t1,a,root,web-579b9bff58-t2dbm,GET,1000000,9000000,8000"
    echo "t1,b,a,web-579b9bff58-t2dbm,api.Get,2000000,8000000,6000"
    echo "t1,c,b,api-579b9bff58-x7k2p,api.Get,3000000,7000000,4000"
} > full.csv
sed 's/,[0-9]*,\([0-9]*\)$/,,\1/' full.csv | sed '1s/.*/'"$hdr"'/' > noend.csv
grep -q ',,4000$' noend.csv || fail "noend.csv not made"
"$B/importtrace" -q -o full.tr full.csv || fail "full.csv"
"$B/importtrace" -q -o noend.tr noend.csv || fail "noend.csv"
rows full.tr > full.rows
rows noend.tr > noend.rows
cmp -s full.rows noend.rows ||
    { diff full.rows noend.rows; fail "empty end with a duration: not the rows of the full table"; }
grep -q ' missing_duration=0 ' noend.tr || fail "empty end with a duration counted as missing"
# both empty: still missing_duration, counted
sed 's/,[0-9]*,[0-9]*$/,,/' full.csv | sed '1s/.*/'"$hdr"'/' > none.csv
"$B/importtrace" -q -o none.tr none.csv || fail "none.csv"
grep -q ' missing_duration=3 ' none.tr || fail "no end, no duration: not counted"

# --- 2. OTLP/JSON with "scopeSpans": [] beside "instrumentationLibrarySpans"
# (an encoder that writes empty repeated fields, OTLP 0.15-0.19): the old
# field's spans are the resource's spans.  Before: silently dropped (here
# resource 1's server span: its RPC became client_only).
svc() { printf '{"key":"service.name","value":{"stringValue":"%s"}}' "$1"; }
sp() { # trace span parent kind start end
    printf '{"traceId":"%s","spanId":"%s","parentSpanId":"%s","name":"op","kind":%s,"startTimeUnixNano":"%s","endTimeUnixNano":"%s"}' "$@"
}
t=00000000000000000000000000000abc
{
    printf '{"resourceSpans":[{"resource":{"attributes":[%s]},"scopeSpans":[{"spans":[%s,%s]}]},' \
        "$(svc web)" "$(sp $t 01 '' 2 1000 9000)" "$(sp $t 02 01 3 2000 8000)"
    printf '{"resource":{"attributes":[%s]},"scopeSpans":[],"instrumentationLibrarySpans":[{"spans":[%s]}]}]}\n' \
        "$(svc api)" "$(sp $t 03 02 2 3000 7000)"
} > both.json
sed 's/"scopeSpans":\[\],"instrumentationLibrarySpans"/"scopeSpans"/' both.json > new.json
grep -q '"scopeSpans":\[{"spans":\[{"traceId":"[0-9a-f]*","spanId":"03"' new.json || fail "new.json not made"
"$B/importtrace" -q -o both.tr both.json || fail "both.json"
"$B/importtrace" -q -o new.tr new.json || fail "new.json"
rows both.tr > both.rows
rows new.tr > new.rows
cmp -s both.rows new.rows ||
    { diff new.rows both.rows; fail "scopeSpans [] beside instrumentationLibrarySpans: spans lost"; }
grep -q ' spans=3 .* client_only=0 ' both.tr || fail "both.json: not 3 spans, no client_only"

echo "ok"
