#!/bin/sh
# importtrace's time-unit check (docs/importer.md, "Time units"): hand-made
# Jaeger and Nezha span CSV files whose times are wall-clock stamps of
# 2023-11-14 written in ms, us, ns or s.  Those in the unit their format
# names import silently; the others warn exactly once on stderr, naming the
# file, the field, the unit expected, the unit seen and what to say, and
# carry time_unit_suspect=... in the "# importtrace" line -- and nothing is
# rescaled: apart from the metadata the rows are those of the same file read
# with its unit given explicitly.  Relative stamps (0, 1 s) never warn.
set -u
IT="$PB_BIN/importtrace"
[ -x "$IT" ] || { echo "no importtrace"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
NEZHA=trace=TraceID,span=SpanID,parent=ParentID,service=PodName,operation=OperationName,start=StartTimeUnixNano,end=EndTimeUnixNano,duration=Duration,root=root

# jaeger NAME BASE: three spans at BASE+0, +10, +15 (durations 100, 80, 70)
jaeger() {
    b=$2
    cat > "$T/$1.json" <<JSON
{"data": [{"traceID": "t1", "spans": [
 {"traceID": "t1", "spanID": "a1", "operationName": "GET /", "references": [],
  "startTime": $b, "duration": 100, "processID": "p1",
  "tags": [{"key": "span.kind", "type": "string", "value": "server"}]},
 {"traceID": "t1", "spanID": "a2", "operationName": "api.Get",
  "references": [{"refType": "CHILD_OF", "traceID": "t1", "spanID": "a1"}],
  "startTime": $((b + 10)), "duration": 80, "processID": "p1",
  "tags": [{"key": "span.kind", "type": "string", "value": "client"}]},
 {"traceID": "t1", "spanID": "a3", "operationName": "api.Get",
  "references": [{"refType": "CHILD_OF", "traceID": "t1", "spanID": "a2"}],
  "startTime": $((b + 15)), "duration": 70, "processID": "p2",
  "tags": [{"key": "span.kind", "type": "string", "value": "server"}]}],
 "processes": {"p1": {"serviceName": "web"}, "p2": {"serviceName": "api"}}}]}
JSON
}
# nezha NAME BASE: the same three spans as a Nezha CSV (Duration in us)
nezha() {
    b=$2
    {
        echo "TraceID,SpanID,ParentID,PodName,OperationName,StartTimeUnixNano,EndTimeUnixNano,Duration"
        echo "t1,a1,root,web-5d8f7b9c6d-x2k4p,GET /,$b,$((b + 100)),100"
        echo "t1,a2,a1,web-5d8f7b9c6d-x2k4p,api.Get,$((b + 10)),$((b + 90)),80"
        echo "t1,a3,a2,api-7c9d8f6b5-q8w2z,api.Get/server,$((b + 15)),$((b + 85)),70"
    } > "$T/$1.csv"
}
# run NAME FILE [ARGS]: import; stderr to NAME.err, trace to NAME.out
run() {
    n=$1 f=$2; shift 2
    "$IT" -q "$@" -o "$T/$n.out" "$f" 2> "$T/$n.err" || { cat "$T/$n.err"; fail "import $n"; }
}
# warns NAME TEXT...: exactly one warning, holding every TEXT
warns() {
    n=$1; shift
    [ "$(grep -c 'warning:' "$T/$n.err")" = 1 ] || { cat "$T/$n.err"; fail "$n: expected one warning"; }
    for w in "$@"; do
        grep 'warning:' "$T/$n.err" | grep -qF -- "$w" || { cat "$T/$n.err"; fail "$n: warning without \"$w\""; }
    done
}
quiet() {
    ! grep -q 'warning:' "$T/$1.err" || { cat "$T/$1.err"; fail "$1: unexpected warning"; }
    ! grep -q 'time_unit_suspect' "$T/$1.out" || fail "$1: unexpected time_unit_suspect"
}
meta() { grep '^# importtrace ' "$T/$1.out" | grep -qF " time_unit_suspect=$2" || fail "$1: no time_unit_suspect=$2: $(grep '^# importtrace ' "$T/$1.out")"; }
rows() { grep -v '^#' "$T/$1.out"; }
same() { rows "$1" > "$T/r1"; rows "$2" > "$T/r2"; cmp -s "$T/r1" "$T/r2" || fail "rows of $1 and $2 differ"; }

S=1700000000 # 2023-11-14 22:13:20 UTC, in seconds
# Jaeger: startTime is microseconds
jaeger j_us "${S}000000"; run j_us "$T/j_us.json"; quiet j_us
jaeger j_ms "${S}000"; run j_ms "$T/j_ms.json"
warns j_ms "$T/j_ms.json" '"startTime"' 'read as microseconds' 'look like milliseconds' \
    'Jaeger has no unit option'
meta j_ms 'startTime:us->ms'
# not rescaled: 1700000000000 read as microseconds = 1700000 s
rows j_ms | grep -q '^1,1700000\.000000000,' || fail "j_ms rescaled: $(rows j_ms | sed -n 2p)"
jaeger j_s "$S"; run j_s "$T/j_s.json"
warns j_s '"startTime"' 'look like seconds'; meta j_s 'startTime:us->s'
# finer than microseconds does not fit: the error says what it looks like
jaeger j_ns "${S}000000000"
! "$IT" -q -o "$T/j_ns.out" "$T/j_ns.json" 2> "$T/j_ns.err" || fail "j_ns imported"
grep -q 'looks like nanoseconds' "$T/j_ns.err" || { cat "$T/j_ns.err"; fail "j_ns: no hint"; }
# relative stamps (a trace starting at 0 or 1 s) never warn
jaeger j_rel0 0; run j_rel0 "$T/j_rel0.json"; quiet j_rel0
jaeger j_rel1 1000000; run j_rel1 "$T/j_rel1.json"; quiet j_rel1

# OTLP (nanoseconds) and Zipkin (microseconds) go through the same check
otlp() {
    cat > "$T/$1.json" <<JSON
{"resourceSpans": [{"resource": {"attributes": [{"key": "service.name",
  "value": {"stringValue": "web"}}]}, "scopeSpans": [{"spans": [
 {"traceId": "00000000000000000000000000000001", "spanId": "00000000000000a1",
  "name": "GET /", "kind": 2, "startTimeUnixNano": "$2",
  "endTimeUnixNano": "$(($2 + 100))"}]}]}]}
JSON
}
otlp o_ns "${S}000000000"; run o_ns "$T/o_ns.json"; quiet o_ns
otlp o_us "${S}000000"; run o_us "$T/o_us.json"
warns o_us '"startTimeUnixNano"' 'look like microseconds' 'OTLP has no unit option'
meta o_us 'startTimeUnixNano:ns->us'
printf '[{"traceId":"1","id":"a","name":"GET /","kind":"SERVER","timestamp":%s,"duration":100,"localEndpoint":{"serviceName":"web"}}]\n' \
    "${S}000" > "$T/z_ms.json"
run z_ms "$T/z_ms.json"; warns z_ms '"timestamp"' 'look like milliseconds'; meta z_ms 'timestamp:us->ms'

# Nezha CSV: StartTimeUnixNano is nanoseconds unless --csv-map unit=
nezha n_ns "${S}000000000"; run n_ns "$T/n_ns.csv"; quiet n_ns
for u in us ms s; do
    case $u in us) z=000000 ;; ms) z=000 ;; s) z= ;; esac
    nezha "n_$u" "$S$z"; run "n_$u" "$T/n_$u.csv"
    warns "n_$u" "$T/n_$u.csv" '"StartTimeUnixNano"' 'read as nanoseconds' \
        "--csv-map $NEZHA,unit=$u,duration_unit=us"
    meta "n_$u" "StartTimeUnixNano:ns->$u"
    # nothing rescaled: the rows of the file read with unit=ns said
    run "n_${u}_ns" "$T/n_$u.csv" --csv-map "$NEZHA,unit=ns,duration_unit=us"
    quiet "n_${u}_ns"
    same "n_$u" "n_${u}_ns"
    # the suggestion, followed: no warning, and the rows of the ns file
    # but for the durations of each span in us (same numbers, other unit)
    run "n_${u}_ok" "$T/n_$u.csv" --csv-map "$NEZHA,unit=$u,duration_unit=us"
    quiet "n_${u}_ok"
done
# the us file read as us starts at the ns file's wall clock
rows n_us_ok | sed -n 2p | grep -q "^1,$S\.000000000," || fail "n_us_ok: $(rows n_us_ok | sed -n 2p)"
# an explicit unit is never second-guessed, even a wrong one
run n_us_given "$T/n_us.csv" --csv-map "$NEZHA,unit=ns"; quiet n_us_given
# relative stamps never warn (0, and 1-4 s in ns: synthetic inputs)
for b in 0 1000000000 4000000000; do nezha "n_rel$b" "$b"; run "n_rel$b" "$T/n_rel$b.csv"; quiet "n_rel$b"; done
# several suspect files: still one warning, the others counted
cp "$T/n_us.csv" "$T/n_us2.csv"; sed -i 's/^t1,/t2,/' "$T/n_us2.csv"
"$IT" -q -o "$T/multi.out" "$T/n_us.csv" "$T/n_us2.csv" 2> "$T/multi.err" || fail "multi"
warns multi "$T/n_us.csv" '(and 1 more files alike)'; meta multi 'StartTimeUnixNano:ns->us'
grep -q 'time_unit_suspect_files=2' "$T/multi.out" || fail "multi: files=2"
echo "ok"
