#!/bin/sh
# importtrace on the real DeathStarBench hotel traces (both loads): the
# import counts what it should, the result is a valid trace, and the truth
# oracle scores 100% exact reconstruction on it (call and message view).
set -u
DATA="$PB_ROOT/../shared/data/deathstarbench-hotel"
[ -f "$DATA/hotel_load25.tar.xz" ] || { echo "no shared data"; exit 77; }
for p in importtrace infer score; do
    [ -x "$PB_BIN/$p" ] || { echo "no $p"; exit 77; }
done
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
# field NAME CSVFILE: the value of column NAME in the one-row score CSV
field() {
    awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++) if($i==n) c=i} NR==2{print $c}' "$2"
}
for L in 25 100; do
    (cd "$T" && xz -dc "$DATA/hotel_load$L.tar.xz" | tar -xf -) || fail "extract load $L"
    "$PB_BIN/importtrace" -o "$T/l$L.csv" "$T/hotel_load$L" 2> "$T/l$L.err" ||
        { cat "$T/l$L.err"; fail "import load $L"; }
    for kv in files=1000 traces=1000 spans=11000 rpcs=6000 messages=12000 requests=1000 \
              server_only=0 client_only=0 missing_parent=0 intra_rpc=0; do
        grep -q "^# importtrace.* $kv " "$T/l$L.csv" || fail "load $L: expected $kv"
    done
    [ "$(grep -vc '^#' "$T/l$L.csv")" -eq 12001 ] || fail "load $L: expected 12000 rows"
    # the archive read directly (libarchive) gives the same trace
    "$PB_BIN/importtrace" -q "$DATA/hotel_load$L.tar.xz" | cmp -s - "$T/l$L.csv" ||
        fail "load $L: the .tar.xz imported directly differs from its unpacked folder"
    # rows sorted by ts
    awk -F, '!/^#/ && NR>1 && $2 != "ts" { if (p != "" && $2 < p) { print "unsorted at " NR; exit 1 } p = $2 }' \
        "$T/l$L.csv" || fail "load $L: rows not sorted by ts"
    for v in call message; do
        "$PB_BIN/infer" --algo truth -s view=$v -o "$T/r.csv" "$T/l$L.csv" || fail "oracle load $L $v"
        "$PB_BIN/score" --truth "$T/l$L.csv" "$T/r.csv" > "$T/s.csv" || fail "score load $L $v"
        for kv in exact_accuracy=1 instance_fp=0 instance_fn=0 pattern_fp=0 pattern_fn=0 \
                  true_instances=1000 message_error_rate=0; do
            got=$(field "${kv%%=*}" "$T/s.csv")
            [ "$got" = "${kv#*=}" ] || { cat "$T/s.csv"; fail "oracle load $L $v: ${kv%%=*}=$got, expected ${kv#*=}"; }
        done
    done
done
# what the data is known to hold (see docs/importer.md)
grep -q ' clock_return=1335 ' "$T/l25.csv" || fail "load 25: expected clock_return=1335"
grep -q ' clock_call=1082 ' "$T/l100.csv" || fail "load 100: expected clock_call=1082"
grep -q ' late_child=1 ' "$T/l100.csv" || fail "load 100: expected late_child=1"
echo "real traces ok"
