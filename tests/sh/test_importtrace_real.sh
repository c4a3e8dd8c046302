#!/bin/sh
# importtrace on the real DeathStarBench hotel traces (both loads): the
# import counts what it should, the result is a valid trace, and the truth
# oracle scores 100% exact reconstruction on it (call and message view);
# the .tar.xz read directly, the oracle's Jaeger export and the OTLP
# conversion all give the same rows.
set -u
DATA="$PB_ROOT/data/deathstarbench-hotel"
[ -f "$DATA/hotel_load25.tar.xz" ] || { echo "FAIL: $DATA/hotel_load25.tar.xz missing (data/ is part of the repository)"; exit 1; }
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
    # within one ts no message comes before its cause
    awk -F, '/^#/ || $1 == "id" { next } { ts[$1] = $2; line[$1] = NR }
        $NF != "" { c[$1] = $NF }
        END { for (m in c) if (ts[c[m]] == ts[m] && line[c[m]] > line[m]) exit 1 }' \
        "$T/l$L.csv" || fail "load $L: an effect before its cause at equal ts"
    # the archive read directly (libarchive) gives the same trace
    "$PB_BIN/importtrace" -q "$DATA/hotel_load$L.tar.xz" | cmp -s - "$T/l$L.csv" ||
        fail "load $L: the .tar.xz imported directly differs from its unpacked folder"
    # rows sorted by ts
    awk -F, '!/^#/ && NR>1 && $2 != "ts" { if (p != "" && $2 < p) { print "unsorted at " NR; exit 1 } p = $2 }' \
        "$T/l$L.csv" || fail "load $L: rows not sorted by ts"
    # export the oracle's instances to Jaeger and import them again: the
    # same rows but for the path labels (recorded clocks, skew and all)
    "$PB_BIN/infer" --algo truth -o /dev/null --export-jaeger "$T/x$L.json" "$T/l$L.csv" \
        2> "$T/x.err" || { cat "$T/x.err"; fail "export load $L"; }
    "$PB_BIN/importtrace" -q "$T/x$L.json" > "$T/rt$L.csv" || fail "re-import load $L"
    grep -v '^#' "$T/l$L.csv" | cut -d, -f1-6,8 > "$T/a"
    grep -v '^#' "$T/rt$L.csv" | cut -d, -f1-6,8 | cmp -s - "$T/a" ||
        fail "load $L: the Jaeger export imports to other rows"
    # its OTLP conversion gives the same rows too
    if command -v python3 > /dev/null; then
        grep -v '^#' "$T/l$L.csv" > "$T/b"
        python3 "$PB_ROOT/scripts/jaeger2otlp.py" "$T/hotel_load$L" | "$PB_BIN/importtrace" -q - |
            grep -v '^#' | cmp -s - "$T/b" || fail "load $L: the OTLP conversion imports to other rows"
    fi
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
