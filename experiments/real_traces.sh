#!/bin/sh
# real_traces.sh - the three algorithms and the oracle on real traces
# (DeathStarBench hotel reservation, Jaeger JSON, loads 25 and 100 req/s;
# issue 9), scored by exact request reconstruction and the Project 5
# measures, beside the numbers TraceWeaver (SIGCOMM'24) published for the
# same files; each run once on the recorded clocks and once de-skewed with
# the skewer's own offset estimate.
#
#   sh experiments/real_traces.sh [--out DIR]
#
# Environment: PB_BIN (programs, default <repo>/bin), PB_OUT (default
# <repo>/out/figures), PB_DATA (default <repo>/../shared/data/deathstarbench-hotel).
# Writes
#   $PB_OUT/real_traces.csv   one score row per (load, clocks, method)
#   $PB_OUT/real_traces.md    the tables (markdown, as in docs/importer.md)
#   $PB_OUT/real_traces/      imported traces, clock estimates, results, logs
# Deterministic: the same data and programs give the same files.  About 20 s.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${PB_BIN:=$ROOT/bin}"
case "$PB_BIN" in /*) ;; *) PB_BIN="$ROOT/$PB_BIN" ;; esac
: "${PB_OUT:=$ROOT/out/figures}"
: "${PB_DATA:=$ROOT/../shared/data/deathstarbench-hotel}"
while [ $# -gt 0 ]; do
    case "$1" in
    --out) [ $# -ge 2 ] || { echo "real_traces: --out needs a directory" >&2; exit 2; }
           PB_OUT=$2; shift ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "real_traces: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done
die() { echo "real_traces: $*" >&2; exit 1; }
for p in importtrace infer score skewer; do
    [ -x "$PB_BIN/$p" ] || die "$PB_BIN/$p missing (run make)"
done
mkdir -p "$PB_OUT" || die "cannot create $PB_OUT"
W="$PB_OUT/real_traces"
rm -rf "$W"
mkdir -p "$W" || die "cannot create $W"

# method | import (plain or callid) | infer arguments | what it is
METHODS='oracle|plain|--algo truth|truth oracle (call view)
nesting|plain|--algo nesting|Project 5 nesting with the paper parameters
nesting+callid|callid|--algo nesting|nesting given the call id of each RPC
nesting skew_window=2ms|plain|--algo nesting -s skew_window=2ms|nesting with the paper'"'"'s skew window (7.5.6) above the largest estimated offset
convolution|plain|--algo convolution -s mu=10ms|Project 5 convolution with the paper parameters
linking|plain|--algo linking|WAP5 linking with the paper parameters (x = 2 s)
linking k=0|plain|--algo linking -s k=0|WAP5 linking x = 2 s without try-both decisions (k = 0)
linking entry=client|plain|--algo linking -s entry=client|WAP5 linking x = 2 s; the load generator client is an entry node (k = 4)
linking entry=client k=0|plain|--algo linking -s entry=client -s k=0|the same with k = 0
linking x=20ms|plain|--algo linking -s x=20ms|WAP5 linking with window x scaled to these traces'
# (no commas in the descriptions: the tables below split the CSV with awk)

CSV="$PB_OUT/real_traces.csv"
: > "$CSV.tmp"
header=""
for L in 25 100; do
    tarball="$PB_DATA/hotel_load$L.tar.xz"
    [ -f "$tarball" ] || die "$tarball missing"
    (cd "$W" && xz -dc "$tarball" | tar -xf -) || die "cannot extract $tarball"
    # relative names, so the summary does not depend on where PB_OUT is
    (cd "$W" && "$PB_BIN/importtrace" -o "l$L.plain.csv" "hotel_load$L" 2> "import$L.log") ||
        die "import load $L failed: $(cat "$W/import$L.log")"
    "$PB_BIN/importtrace" -q --callid -o "$W/l$L.callid.csv" "$W/hotel_load$L" ||
        die "import load $L --callid failed"
    rm -rf "$W/hotel_load$L"
    # clock offsets estimated from the trace itself (no truth used)
    "$PB_BIN/skewer" --estimate "$W/l$L.plain.csv" > "$W/clocks$L.spec" ||
        die "skewer --estimate load $L failed"
    for k in plain callid; do
        "$PB_BIN/skewer" --deskew -f "$W/clocks$L.spec" -o "$W/l$L.$k.deskewed.csv" \
            "$W/l$L.$k.csv" || die "skewer --deskew load $L $k failed"
    done
    for clocks in recorded deskewed; do
        echo "$METHODS" | while IFS='|' read -r name kind args what; do
            in="$W/l$L.$kind.csv"
            [ "$clocks" = deskewed ] && in="$W/l$L.$kind.deskewed.csv"
            tag=$(echo "$name-$L-$clocks" | tr ' =' '__')
            # shellcheck disable=SC2086
            "$PB_BIN/infer" $args -o "$W/$tag.result.csv" "$in" 2> "$W/$tag.log" ||
                die "infer $args on load $L ($clocks) failed: $(tail -3 "$W/$tag.log")"
            "$PB_BIN/score" --truth "$W/l$L.$kind.csv" "$W/$tag.result.csv" \
                > "$W/$tag.score.csv" 2>> "$W/$tag.log" ||
                die "score $name load $L ($clocks) failed: $(tail -3 "$W/$tag.log")"
            [ -f "$W/header.csv" ] ||
                awk 'NR==1{print "load,clocks,method,description," $0}' \
                    "$W/$tag.score.csv" > "$W/header.csv"
            awk -v L="$L" -v c="$clocks" -v m="$name" -v w="$what" \
                'NR==2{printf "%s,%s,\"%s\",\"%s\",%s\n", L, c, m, w, $0}' \
                "$W/$tag.score.csv" >> "$CSV.tmp"
        done || exit 1
    done
done
cat "$W/header.csv" "$CSV.tmp" > "$CSV" && rm -f "$CSV.tmp"

# ---- markdown ----------------------------------------------------------
MD="$PB_OUT/real_traces.md"
{
echo "Exact reconstruction of whole requests (percent of the 1000 requests"
echo "whose call tree is found exactly), DeathStarBench hotel reservation."
echo "\"de-skewed\": clocks corrected by \`skewer --estimate\` (offsets below)."
echo "TraceWeaver's numbers are those its authors published for the same files."
echo "Convolution reports a graph of paths, not instances: no exact score."
echo
awk -F, '
function unq(s) { gsub(/"/, "", s); return s }
NR==1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{
    m = unq($col["method"]); key = m SUBSEP $col["load"] SUBSEP $col["clocks"]
    if (!(m in seen)) { seen[m] = 1; order[++n] = m }
    e = $col["exact_accuracy"]
    if (e == "") {
        # convolution ascribes no instances: say how many true paths it missed
        v = sprintf("n/a (misses %d of %d true paths)", $col["pattern_fn"], $col["true_patterns"])
    } else v = sprintf("%.1f", 100 * e)
    cell[key] = v
}
END {
    print "| method | load 25 | load 100 | load 25 de-skewed | load 100 de-skewed |"
    print "|---|---:|---:|---:|---:|"
    for (k = 1; k <= n; k++) {
        m = order[k]
        printf "| %s | %s | %s | %s | %s |\n", m, cell[m SUBSEP 25 SUBSEP "recorded"],
            cell[m SUBSEP 100 SUBSEP "recorded"], cell[m SUBSEP 25 SUBSEP "deskewed"],
            cell[m SUBSEP 100 SUBSEP "deskewed"]
    }
    print "| *TraceWeaver paper:* WAP5 variant | 80.0 | 24.8 | | |"
    print "| *TraceWeaver paper:* FCFS | 92.3 | 57.6 | | |"
    print "| *TraceWeaver paper:* vPath | 94.3 | 73.6 | | |"
    print "| *TraceWeaver paper:* TraceWeaver | 99.8 | 97.7 | | |"
}' "$CSV"
echo
echo "The Project 5 measures (7.5.1) for every run: patterns true / inferred,"
echo "false-positive and false-negative patterns, instance false-positive and"
echo "false-negative rates, fraction of messages ascribed to a wrong instance."
echo
awk -F, '
function unq(s) { gsub(/"/, "", s); return s }
function pct(x) { return x == "" ? "" : sprintf("%.1f", 100 * x) }
NR==1 { for (i = 1; i <= NF; i++) col[$i] = i
        print "| load | clocks | method | view | patterns true/inferred | pattern FP | pattern FN | instance FP % | instance FN % | message error % | exact % |"
        print "|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|"; next }
{
    printf "| %s | %s | %s | %s | %s/%s | %s | %s | %s | %s | %s | %s |\n",
        $col["load"], $col["clocks"], unq($col["method"]), $col["view"],
        $col["true_patterns"], $col["inferred_patterns"], $col["pattern_fp"],
        $col["pattern_fn"], pct($col["instance_fp_rate"]), pct($col["instance_fn_rate"]),
        pct($col["message_error_rate"]), pct($col["exact_accuracy"])
}' "$CSV"
echo
echo "Clock offsets estimated by \`skewer --estimate\` (relative to frontend):"
echo
echo "| node | load 25 | load 100 |"
echo "|---|---:|---:|"
awk -F= '
FNR==1 { f++ }
/^#/ || NF < 2 { next }
{ if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } off[$1, f] = $2 }
END { for (k = 1; k <= n; k++) printf "| %s | %s | %s |\n", order[k], off[order[k], 1], off[order[k], 2] }
' "$W/clocks25.spec" "$W/clocks100.spec"
echo
echo "Import (load 25, then load 100):"
echo
echo '```'
cat "$W/import25.log" "$W/import100.log"
echo '```'
} > "$MD"
echo "real_traces: wrote $CSV and $MD"
