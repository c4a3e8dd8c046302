#!/bin/sh
# importtrace on span CSVs (docs/importer.md, "Span tables (CSV)"): one
# hand-written file per case of the kind rule, with the counts worked out
# by hand -- a client span with one remote child (client.csv, every row
# checked), an internal span (internal.csv), a span with children in two
# services (twoservices.csv), a missing parent (missing.csv), a clock
# violation (clock.csv) -- then the same spans in another layout through
# --csv-map, gzip, pod names, and bad input.
set -u
D="$PB_ROOT/tests/data/importtrace/spans"
IT="$PB_BIN/importtrace"
[ -x "$IT" ] || { echo "no importtrace"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
# expect FILE KEY=VALUE...: the trace's "# importtrace" counters
expect() {
    f=$1; shift
    for kv in "$@"; do
        grep '^# importtrace ' "$f" | grep -q " $kv\( \|$\)" || fail "$f: expected $kv: $(grep '^# importtrace ' "$f")"
    done
}
for c in client internal twoservices missing clock; do
    "$IT" --attr -o "$T/$c.csv" "$D/$c.csv" 2> "$T/$c.err" || { cat "$T/$c.err"; fail "import $c"; }
done
# the client side of an RPC: every row by hand (call sent at the client
# span's start, received at the server span's start; return likewise)
grep -v '^#' "$T/client.csv" | cmp -s - "$D/client.expected" || fail "client.csv rows"
expect "$T/client.csv" requests=1 rpcs=2 kind_client=1 internal_span=0 kind_two_services=0 \
    kind_other=0 missing_parent=0 clock_call=0 clock_return=0 no_kind_rpc=0
# a local operation between the server span and the client span
expect "$T/internal.csv" requests=1 rpcs=2 kind_client=1 internal_span=1 kind_two_services=0
# children in api and db under one local span: not covered, each child an
# RPC derived from its own span
expect "$T/twoservices.csv" requests=1 rpcs=3 kind_client=0 internal_span=1 \
    kind_two_services=1 no_kind_rpc=2
grep -q '^2,3.000001000,3.000001000,web,api,call,t3,1,' "$T/twoservices.csv" ||
    fail "twoservices: call to api from the child span alone"
# a parent that is not in the trace: its own path, entered from client
expect "$T/missing.csv" requests=2 rpcs=3 kind_client=1 missing_parent=1
grep -q ',client,db,call,t4:e4,,' "$T/missing.csv" || fail "missing: own path t4:e4"
# server span outside its client span: both stamps kept, both counted
expect "$T/clock.csv" kind_client=1 clock_call=1 clock_return=1
grep -q '^2,5.000001000,5.000000500,web,api,call,' "$T/clock.csv" || fail "clock: call stamps"
grep -q 'kind rule (spans without kind): 1 spans taken as the client side.* 2 clock violations' \
    "$T/clock.err" || fail "clock: summary line"
# pod names -> services, in the summary and the metadata
grep -q '^importtrace:   web <- web-5d8f7b9c6d-x2k4p$' "$T/client.err" || fail "pod mapping in summary"
grep -q '^# importtrace_pods web-5d8f7b9c6d-x2k4p=web api-7c9d8f6b5-q8w2z=api$' "$T/client.csv" ||
    fail "pod mapping in metadata"
"$IT" -q --csv-map trace=TraceID,span=SpanID,parent=ParentID,service=PodName,start=StartTimeUnixNano,end=EndTimeUnixNano,root=root,pods=keep \
    "$D/client.csv" > "$T/keep.csv" || fail "pods=keep"
grep -q ',client,web-5d8f7b9c6d-x2k4p,call,' "$T/keep.csv" || fail "pods=keep renamed the pod"
# another layout: kinds given, microseconds, start + duration, columns in
# another order, empty parent = root: the same rows
"$IT" -q --attr --csv-map trace=trace,span=span,parent=parent,service=svc,operation=op,start=ts_us,duration=dur_us,kind=kind,unit=us \
    "$D/mapped.csv" > "$T/mapped.csv" || fail "import mapped.csv"
grep -v '^#' "$T/mapped.csv" | cmp -s - "$D/client.expected" || fail "mapped.csv rows differ from client.csv's"
expect "$T/mapped.csv" kind_client=0 rpcs=2
# gzip, and a folder of span CSVs (name order), read like JSON
gzip -c "$D/clock.csv" > "$T/clock.csv.gz"
"$IT" -q --attr "$T/clock.csv.gz" | grep -v '^#' > "$T/gz.rows" || fail "import .csv.gz"
grep -v '^#' "$T/clock.csv" | cmp -s - "$T/gz.rows" || fail ".csv.gz differs"
mkdir "$T/dir" && cp "$D/client.csv" "$D/clock.csv" "$T/dir/"
"$IT" -q -o "$T/dir.csv" "$T/dir" || fail "folder of CSVs"
expect "$T/dir.csv" files=2 requests=2 kind_client=2
# bad input
printf 'a,b,c\n1,2,3\n' > "$T/bad.csv"
"$IT" -q "$T/bad.csv" > /dev/null 2> "$T/e" && fail "unknown layout accepted"
grep -q "not Nezha's span layout" "$T/e" || fail "unknown layout message: $(cat "$T/e")"
sed 's/^t1,b1,a1,\(.*\),1000001000,/t1,b1,a1,\1,1.0e9,/' "$D/client.csv" > "$T/badts.csv"
"$IT" -q "$T/badts.csv" > /dev/null 2> "$T/e" && fail "bad start accepted"
grep -q 'badts.csv:3:6: .*field 6 (StartTimeUnixNano): "1.0e9": expected a non-negative decimal number of ns' "$T/e" ||
    fail "bad start message: $(cat "$T/e")"
printf 'TraceID,SpanID,ParentID,PodName,StartTimeUnixNano,EndTimeUnixNano\nt,a,root,web,1\n' > "$T/short.csv"
"$IT" -q "$T/short.csv" > /dev/null 2> "$T/e" && fail "short row accepted"
grep -q 'short.csv:2:.*5 fields; expected 6' "$T/e" || fail "short row message: $(cat "$T/e")"
"$IT" -q --csv-map trace=a,span=b "$D/client.csv" > /dev/null 2> "$T/e"
[ $? -eq 2 ] || fail "incomplete --csv-map: expected exit 2"
grep -q 'no column for parent' "$T/e" || fail "incomplete map message: $(cat "$T/e")"
"$IT" -q --csv-map trace=a,colour=b "$D/client.csv" > /dev/null 2> "$T/e"
[ $? -eq 2 ] || fail "unknown --csv-map key: expected exit 2"
"$IT" -q --csv-map trace=TraceID,span=SpanID,parent=ParentID,service=Pod,start=StartTimeUnixNano,end=EndTimeUnixNano \
    "$D/client.csv" > /dev/null 2> "$T/e" && fail "missing mapped column accepted"
grep -q 'no column "Pod" (for service)' "$T/e" || fail "missing column message: $(cat "$T/e")"
echo "importtrace spans ok"
