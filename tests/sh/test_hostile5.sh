#!/bin/sh
# Hostile input, fifth round (issue 28, h128): inputs a new user meets
# that nobody here had seen -- other exporters' span tables, adversarial
# shapes.  One block per class, each able to fail on the tree before it.
. "$PB_ROOT/tests/sh/lib_scaffold.sh"
scaffold importtrace infer score
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

# --- 3. a Jaeger trace listing many processes: multi_process counts every
# process of a service beyond its first, through a table (it was a pairwise
# comparison, quadratic in processes: 40,000 processes of distinct
# services took 6.7 CPU s, now 0.4; the cost is not timed here, the count
# is checked on both shapes)
# procs N M: a trace of N spans, each in a process of its own, of M services
procs() {
    awk -v n="$1" -v m="$2" 'BEGIN {
    printf "{\"data\":[{\"traceID\":\"t1\",\"processes\":{"
    for (i = 0; i < n; i++) printf "%s\"p%d\":{\"serviceName\":\"s%d\"}", (i ? "," : ""), i, i % m
    printf "},\"spans\":["
    for (i = 0; i < n; i++) printf "%s{\"traceID\":\"t1\",\"spanID\":\"%x\",\"startTime\":%d,\"duration\":1,\"processID\":\"p%d\"}", (i ? "," : ""), i + 1, 1000000 + i, i
    printf "]}]}\n" }'
}
procs 3000 3 > procs.json
"$B/importtrace" -q -o procs.tr procs.json || fail "procs.json"
grep -q ' multi_process=2997 ' procs.tr || fail "3000 processes of 3 services: not multi_process=2997: $(grep -o 'multi_process=[0-9]*' procs.tr)"
procs 3000 3000 > distinct.json
"$B/importtrace" -q -o distinct.tr distinct.json || fail "distinct.json"
grep -q ' multi_process=0 ' distinct.tr || fail "3000 distinct services: multi_process not 0"

# --- 4. --thread=pool: the lowest worker whose visit ended by the start
# (an end equal to the start is free), now through two heaps rather than a
# scan of every worker (quadratic where a service holds thousands of
# visits at once; outputs byte-identical on the real sets).  api's visits
# [2,40] [5,8] [8,30] [30,45] get w0 w1 w1 w1.
cat > pool.csv <<'EOF2'
trace,span,parent,svc,ts,end,kind
t1,a,,web,0,100,server
t1,ac,a,web,1,50,client
t1,as,ac,api,2,40,server
t2,b,,web,3,100,server
t2,bc,b,web,4,50,client
t2,bs,bc,api,5,8,server
t3,c,,web,6,100,server
t3,cc,c,web,7,50,client
t3,cs,cc,api,8,30,server
t4,d,,web,9,100,server
t4,dc,d,web,10,50,client
t4,ds,dc,api,30,45,server
EOF2
"$B/importtrace" -q --thread=pool -o pool.tr \
    --csv-map trace=trace,span=span,parent=parent,service=svc,start=ts,end=end,kind=kind,unit=us pool.csv ||
    fail "pool.csv"
got=$(rows pool.tr | awk -F, '$5 == "api" && $6 == "call" { printf "%s ", $9 }')
[ "$got" = "w0 w1 w1 w1 " ] || fail "pool workers of api: \"$got\", expected w0 w1 w1 w1"

echo "ok"
