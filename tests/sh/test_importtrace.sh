#!/bin/sh
# importtrace: the hand-written Jaeger file (three services, two overlapping
# requests) gives exactly the committed CSV; the same traces in Zipkin v2
# give the same rows; irregular data is counted; bad input gets a located
# error and exit 1, never a crash.
set -u
D="$PB_ROOT/tests/data/importtrace"
IT="$PB_BIN/importtrace"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

# 1. golden
"$IT" -q "$D/two.json" > "$T/two.csv" || fail "two.json: exit $?"
diff "$D/two.csv" "$T/two.csv" || fail "two.json differs from two.csv"

# 2. Zipkin v2 of the same two requests (one RPC as a shared span): same rows
"$IT" -q "$D/zipkin.json" > "$T/z.csv" || fail "zipkin.json: exit $?"
grep -v '^#' "$T/z.csv" > "$T/z.rows"
grep -v '^#' "$D/two.csv" > "$T/two.rows"
diff "$T/two.rows" "$T/z.rows" || fail "zipkin rows differ from the Jaeger ones"
grep -q '^# generator=importtrace format=zipkin' "$T/z.csv" || fail "zipkin format meta"
grep -q ' shared_span=1 ' "$T/z.csv" || fail "shared span not counted"
"$IT" -q --format zipkin "$D/zipkin.json" | cmp -s - "$T/z.csv" || fail "--format zipkin"

# 3. stdin and --callid
"$IT" -q - < "$D/two.json" | cmp -s - "$D/two.csv" || fail "stdin import differs"
"$IT" -q --callid "$D/two.json" > "$T/cid.csv" || fail "--callid: exit $?"
grep -q '^id,ts,recv_ts,src,dst,type,callid,path,cause$' "$T/cid.csv" || fail "--callid header"
grep -q '^2,0.001010000,0.001015000,web,api,call,aaaa:a3,aaaa,1$' "$T/cid.csv" || fail "--callid call row"
grep -q '^11,0.001085000,0.001090000,api,web,return,aaaa:a3,aaaa,10$' "$T/cid.csv" || fail "--callid return row"

# 4. irregular data: golden rows and every rule counted
"$IT" "$D/irregular.json" > "$T/irr.csv" 2> "$T/irr.err" || fail "irregular.json: exit $?"
diff "$D/irregular.csv" "$T/irr.csv" || fail "irregular.json differs from irregular.csv"
for kv in server_only=2 client_only=2 missing_parent=1 intra_rpc=1 internal_span=1 \
          multi_process=1 negative_duration=1 follows_from=1 requests=2 rpcs=8; do
    grep -q " $kv " "$T/irr.csv" || fail "irregular: expected $kv"
done
grep -q 'negative_duration: .*irregular.json: data\[0\]\.spans\[11\]' "$T/irr.err" ||
    fail "summary does not say where the negative duration is"

# 5. a folder: *.json in name order, other entries counted as skipped
mkdir "$T/dir"
cp "$D/irregular.json" "$T/dir/b.json"
cp "$D/two.json" "$T/dir/a.json"
echo hello > "$T/dir/README"
"$IT" -q "$T/dir" > "$T/dir.csv" || fail "folder: exit $?"
grep -q ' files=2 traces=3 spans=25 ' "$T/dir.csv" || fail "folder counts"
grep -q ' skipped_files=1 ' "$T/dir.csv" || fail "folder: skipped file not counted"
"$IT" -q "$D/two.json" "$D/irregular.json" | grep -v '^#' > "$T/files.rows"
grep -v '^#' "$T/dir.csv" | cmp -s - "$T/files.rows" || fail "folder != its files in name order"

# 6. cycles of parents: counted and broken, not a hang
cat > "$T/cycle.json" <<'J'
{"data":[{"traceID":"t","processes":{"p":{"serviceName":"a"},"q":{"serviceName":"b"}},
 "spans":[{"spanID":"x","startTime":1,"duration":5,"processID":"p","references":[{"spanID":"y"}]},
          {"spanID":"y","startTime":2,"duration":3,"processID":"q","references":[{"spanID":"x"}]}]}]}
J
"$IT" -q "$T/cycle.json" > "$T/cycle.csv" || fail "cycle: exit $?"
grep -q ' parent_cycle=1 ' "$T/cycle.csv" || fail "cycle not counted"

# 7. bad input: exit 1 and a message naming file, place and what was expected
bad() { # name expected-substring json
    printf '%s' "$3" > "$T/$1.json"
    "$IT" -q "$T/$1.json" > "$T/out" 2> "$T/err"
    rc=$?
    [ $rc -eq 1 ] || fail "$1: exit $rc, expected 1"
    grep -qF "$2" "$T/err" || { cat "$T/err"; fail "$1: expected message containing: $2"; }
    grep -qF "$1.json" "$T/err" || fail "$1: message does not name the file"
}
bad malformed "malformed.json:3:" '{"data": [
 {"traceID": "x",
  "spans": [,
'
bad missing_process 'data[0].spans[0]: names process "p9", which is not in data[0].processes' \
 '{"data":[{"traceID":"t","processes":{"p1":{"serviceName":"a"}},"spans":[{"spanID":"s","startTime":1,"duration":1,"processID":"p9"}]}]}'
bad not_jaeger 'expected a Jaeger document' '{"foo": 1}'
bad start_string 'data[0].spans[0]: expected "startTime" as a whole number of microseconds' \
 '{"data":[{"traceID":"t","processes":{"p1":{"serviceName":"a"}},"spans":[{"spanID":"s","startTime":"2019-01-01T00:00:00Z","duration":1,"processID":"p1"}]}]}'
bad start_negative 'out of range' \
 '{"data":[{"traceID":"t","processes":{"p1":{"serviceName":"a"}},"spans":[{"spanID":"s","startTime":-1,"duration":1,"processID":"p1"}]}]}'
bad no_spans 'no spans' '{"data":[]}'
bad zipkin_no_endpoint '[0]: expected a "localEndpoint" object' '[{"traceId":"t","id":"a","timestamp":1}]'
"$IT" -q --format zipkin "$D/two.json" > /dev/null 2> "$T/err"
[ $? -eq 1 ] && grep -q 'expected a Zipkin v2 document' "$T/err" || fail "--format zipkin on Jaeger"
"$IT" -q "$T/nonexistent.json" > /dev/null 2> "$T/err"
[ $? -eq 1 ] && grep -q 'nonexistent.json' "$T/err" || fail "missing file"
"$IT" -q --format xml "$D/two.json" > /dev/null 2>&1
[ $? -eq 2 ] || fail "bad --format: expected exit 2"
"$IT" > /dev/null 2>&1
[ $? -eq 2 ] || fail "no PATH: expected exit 2"

# 8. the output is a valid trace for the rest of the pipeline
if [ -x "$PB_BIN/infer" ]; then
    "$PB_BIN/infer" --algo nesting --parse-only "$T/irr.csv" > /dev/null ||
        fail "infer rejects the imported trace"
fi
echo "importtrace ok"
