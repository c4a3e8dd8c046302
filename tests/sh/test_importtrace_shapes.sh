#!/bin/sh
# importtrace on every shape of real data, in Jaeger, Zipkin and OTLP: the
# hand-written fixtures (1 ms stamps with ties, a client-kind root span,
# spans without kind tags, a 4-way fan-out and a 5-way fan-in whose last
# arrival makes the next calls) import to exactly the golden CSVs in all
# three formats; within one ts every cause comes before its effect; the
# oracle scores 1.0 on each in every view; export to Jaeger and import
# again gives the same trace; nested folders, compressed files and a
# .tar.xz read directly give the same trace as the plain files.
set -u
D="$PB_ROOT/tests/data/importtrace"
IT="$PB_BIN/importtrace"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
rows() { grep -v '^#' "$1"; }
# field NAME CSVFILE: the value of column NAME in the one-row score CSV
field() {
    awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++) if($i==n) c=i} NR==2{print $c}' "$2"
}
# causes_first CSV: within one ts, no message comes before its cause
causes_first() {
    awk -F, '/^#/ || $1 == "id" { next }
        { ts[$1] = $2; line[$1] = NR }
        $NF != "" { c[$1] = $NF }
        END { for (m in c) if (ts[c[m]] == ts[m] && line[c[m]] > line[m]) {
                  print "message " m " comes before its cause " c[m]; exit 1 } }' "$1"
}

SHAPES="ties clientroot nokind fanout"
for s in $SHAPES; do
    # 1. golden, and the same rows from Zipkin and OTLP
    "$IT" -q "$D/$s.json" > "$T/$s.csv" || fail "$s.json: exit $?"
    diff "$D/$s.csv" "$T/$s.csv" || fail "$s.json differs from $s.csv"
    rows "$D/$s.csv" > "$T/$s.rows"
    for f in zipkin otlp; do
        "$IT" -q "$D/$s.$f.json" > "$T/$s.$f.csv" || fail "$s.$f.json: exit $?"
        rows "$T/$s.$f.csv" | diff "$T/$s.rows" - || fail "$s.$f.json rows differ from $s.json"
        grep -q "^# generator=importtrace format=$f " "$T/$s.$f.csv" || fail "$s.$f: format meta"
    done
    causes_first "$T/$s.csv" || fail "$s: an effect before its cause"
    # 2. the oracle is exact in every view
    for v in call message path; do
        "$PB_BIN/infer" --algo truth -s view=$v -o "$T/r.csv" "$T/$s.csv" || fail "oracle $s $v"
        "$PB_BIN/score" --truth "$T/$s.csv" "$T/r.csv" > "$T/sc.csv" || fail "score $s $v"
        for kv in pattern_fp=0 pattern_fn=0 instance_fp=0 instance_fn=0; do
            got=$(field "${kv%%=*}" "$T/sc.csv")
            [ "$got" = "${kv#*=}" ] || { cat "$T/sc.csv"; fail "oracle $s $v: ${kv%%=*}=$got"; }
        done
        if [ $v != path ]; then
            [ "$(field exact_accuracy "$T/sc.csv")" = 1 ] || { cat "$T/sc.csv"; fail "oracle $s $v: not exact"; }
        fi
        # 3. export the oracle's instances, import them again: the same
        # trace (path labels renamed one to one)
        [ $v = path ] && continue
        "$PB_BIN/infer" --algo truth -s view=$v --export-jaeger "$T/x.json" -o /dev/null \
            "$T/$s.csv" 2> "$T/x.err" || { cat "$T/x.err"; fail "export $s $v"; }
        "$IT" -q "$T/x.json" > "$T/rt.csv" || fail "re-import $s $v"
        rows "$T/$s.csv" | cut -d, -f1-6,8 > "$T/a" && rows "$T/rt.csv" | cut -d, -f1-6,8 > "$T/b"
        diff "$T/a" "$T/b" > /dev/null || { diff "$T/a" "$T/b" | head; fail "round trip $s $v: rows differ"; }
        rows "$T/$s.csv" > "$T/pa"
        rows "$T/rt.csv" > "$T/pb"
        paste -d' ' "$T/pa" "$T/pb" |
            awk '{ split($1, x, ","); split($2, y, ","); p = x[7]; q = y[7]
                   if ((p in f) && f[p] != q) bad = 1; if ((q in g) && g[q] != p) bad = 1
                   f[p] = q; g[q] = p } END { exit bad }' || fail "round trip $s $v: paths differ"
    done
done

# 4. what each shape is about
grep -q ' client_root=1 ' "$T/clientroot.csv" || fail "client root not counted"
grep -q '^1,2.000000000,2.000100000,loadgen,frontend,call,2000000000000001,$' "$T/clientroot.csv" ||
    fail "client-kind root: loadgen should be the spontaneous sender"
grep -q ',client,frontend,call,2000000000000001,' "$T/clientroot.csv" &&
    fail "client-kind root: a made-up client RPC"
grep -q '^3,2.002000000,2.002000000,client,frontend,call,2000000000000002,$' "$T/clientroot.csv" ||
    fail "server root: the request enters from node client"
grep -q ' no_kind_rpc=2 ' "$T/nokind.csv" || fail "spans without kind: no_kind_rpc"
grep -q ' server_only=0 ' "$T/nokind.csv" || fail "spans without kind counted as server_only"
"$IT" "$D/nokind.json" 2>&1 >/dev/null | grep -q 'no_kind_rpc: spans with neither client nor server kind' ||
    fail "spans without kind: the warning words"
# ties: the return to the client (depth 2) after search's return after mongo's
grep -q '^10,1.003000000,1.003000000,search,frontend,return,1000000000000001,8$' "$T/ties.csv" ||
    fail "ties: search's return"
grep -q '^12,1.003000000,1.003000000,frontend,client,return,1000000000000001,10$' "$T/ties.csv" ||
    fail "ties: frontend's return after its cause"
# fan-in: both next calls caused by the last of the five returns (e5's)
grep -q '^21,4.001790000,4.001800000,e5,frontend,return,4000000000000002,16$' "$T/fanout.csv" || fail "fan-in: last arrival"
grep -q '^22,4.001800000,4.001810000,frontend,db,call,4000000000000002,21$' "$T/fanout.csv" || fail "fan-in: db call"
grep -q '^23,4.001800000,4.001810000,frontend,cache,call,4000000000000002,21$' "$T/fanout.csv" || fail "fan-in: cache call"
[ "$(grep -c ',frontend,[abcd],call,4000000000000001,1$' "$T/fanout.csv")" -eq 4 ] || fail "fan-out: 4 calls caused by the call into frontend"

# 5. nested folders (name order at every level), compressed files, a tar.xz
mkdir -p "$T/shapes/a/b" "$T/shapes/c"
cp "$D/ties.json" "$T/shapes/a/"
gzip -nc "$D/clientroot.json" > "$T/shapes/a/b/clientroot.json.gz"
echo "not a trace" > "$T/shapes/a/b/README.txt"
cp "$D/nokind.zipkin.json" "$T/shapes/c/"
cp "$D/fanout.otlp.json" "$T/shapes/"
"$IT" -o "$T/dir.csv" "$T/shapes" 2> "$T/dir.err" || { cat "$T/dir.err"; fail "nested folders: exit $?"; }
grep -q "4 files from $T/shapes (3 subfolders)" "$T/dir.err" || { cat "$T/dir.err"; fail "nested folders: how many from where"; }
grep -q ' files=4 traces=7 ' "$T/dir.csv" || fail "nested folders: counts"
grep -q ' skipped_files=1 ' "$T/dir.csv" || fail "nested folders: README not skipped"
grep -q '^# generator=importtrace format=jaeger+zipkin+otlp ' "$T/dir.csv" || fail "nested folders: formats"
"$IT" -q "$D/ties.json" "$D/clientroot.json" "$D/nokind.json" "$D/fanout.json" > "$T/files.csv"
rows "$T/files.csv" > "$T/fr"
rows "$T/dir.csv" | cmp -s - "$T/fr" || fail "nested folders != the plain files"
"$IT" -o "$T/tar.csv" "$D/shapes.tar.xz" 2> "$T/tar.err" || { cat "$T/tar.err"; fail "tar.xz: exit $?"; }
cmp -s "$T/tar.csv" "$T/dir.csv" || fail "tar.xz != its unpacked folder"
grep -q "4 files from $D/shapes.tar.xz (1 tar archive)" "$T/tar.err" || fail "tar.xz: how many from where"
(cd "$T" && tar -cf shapes.tar shapes && tar -czf shapes.tar.gz shapes) || fail "making tars"
for a in shapes.tar shapes.tar.gz; do
    "$IT" -q "$T/$a" | cmp -s - "$T/tar.csv" || fail "$a != the .tar.xz"
done
for z in "gzip -nc" "xz -c" "zstd -qc" "bzip2 -c"; do
    command -v ${z%% *} > /dev/null || continue
    $z "$D/ties.json" > "$T/ties.json.z"
    "$IT" -q "$T/ties.json.z" | cmp -s - "$D/ties.csv" || fail "compressed with ${z%% *}: differs"
done
# a folder holding only folders with no JSON: a clear error
mkdir -p "$T/empty/x/y"
"$IT" -q "$T/empty" > /dev/null 2> "$T/err"
[ $? -eq 1 ] && grep -q 'folder holds no JSON or CSV files, in it or its subfolders' "$T/err" || fail "empty folder tree"
# a corrupt .xz: an error naming the file, not a JSON decoding error
head -c 200 "$D/shapes.tar.xz" > "$T/cut.tar.xz"
"$IT" -q "$T/cut.tar.xz" > /dev/null 2> "$T/err"
[ $? -eq 1 ] && grep -q 'cut.tar.xz' "$T/err" && ! grep -q 'unable to decode' "$T/err" || { cat "$T/err"; fail "truncated xz"; }

# 6. converting Jaeger to OTLP (scripts/jaeger2otlp.py) gives the same trace
if command -v python3 > /dev/null; then
    mkdir -p "$T/jf/x/y"
    cp "$D/two.json" "$D/irregular.json" "$T/jf/"
    cp "$D/ties.json" "$D/clientroot.json" "$T/jf/x/"
    cp "$D/nokind.json" "$D/fanout.json" "$T/jf/x/y/"
    python3 "$PB_ROOT/scripts/jaeger2otlp.py" "$T/jf" > "$T/all.otlp.json" || fail "jaeger2otlp"
    "$IT" -q "$T/all.otlp.json" | grep -v '^#' > "$T/o.rows"
    "$IT" -q "$T/jf" | grep -v '^#' | diff - "$T/o.rows" > /dev/null ||
        fail "a Jaeger folder and its OTLP conversion differ"
    python3 "$PB_ROOT/scripts/jaeger2otlp.py" --single "$T/jf" | "$IT" -q - | grep -v '^#' |
        diff - "$T/o.rows" > /dev/null || fail "jaeger2otlp --single differs"
fi

# 7. bad OTLP: located errors
bad() { # name expected-substring json
    printf '%s' "$3" > "$T/$1.json"
    "$IT" -q "$T/$1.json" > "$T/out" 2> "$T/err"
    rc=$?
    [ $rc -eq 1 ] || fail "$1: exit $rc, expected 1"
    grep -qF "$2" "$T/err" || { cat "$T/err"; fail "$1: expected message containing: $2"; }
}
bad otlp_kind 'resourceSpans[0].scopeSpans[0].spans[0]: expected "kind" as an integer 0 to 5' \
 '{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"a"}}]},"scopeSpans":[{"spans":[{"traceId":"t","spanId":"s","kind":9,"startTimeUnixNano":"1"}]}]}]}'
bad otlp_time 'expected "startTimeUnixNano" as nanoseconds' \
 '{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"a"}}]},"scopeSpans":[{"spans":[{"traceId":"t","spanId":"s","kind":2,"startTimeUnixNano":"1.5"}]}]}]}'
bad otlp_service 'expected a non-empty service name (resource attribute service.name)' \
 '{"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[{"spans":[{"traceId":"t","spanId":"s","kind":2,"startTimeUnixNano":"1"}]}]}]}'
bad otlp_lines 'otlp_lines.json:2:' '{"resourceSpans":[]}
{"resourceSpans":[}'
bad cut_element 'cut_element.json:1:' '{"data":[{"traceID":"t","spans":[]} {"traceID":"u"}]}'
echo "importtrace shapes ok"
