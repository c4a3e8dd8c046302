#!/bin/sh
# real_traces.sh - every algorithm on the real traces (DeathStarBench hotel
# reservation, Jaeger JSON, loads 25 and 100 req/s): pathbench's own
# (nesting, convolution, linking, joint when built), the field's baselines
# as the TraceWeaver artifact runs them (fcfs, arrival, vpath, wap5tw) and
# the oracle, each on the recorded clocks and de-skewed with the skewer's
# own offset estimate, scored by exact_accuracy, set_accuracy and
# tw_accuracy (TraceWeaver's own end-to-end measure), with the CPU time of
# each run, beside the numbers the TraceWeaver authors' code gives on the
# same files.
#
#   sh experiments/real_traces.sh [--out DIR] [--readme [FILE]]
#
# --readme splices the summary table into README.md (or FILE) between
# <!-- real-traces:begin --> and <!-- real-traces:end -->.
# Environment: PB_BIN (programs, default <repo>/bin), PB_OUT (default
# <repo>/out/figures), PB_DATA (default <repo>/data/deathstarbench-hotel).
# Writes
#   $PB_OUT/real_traces.csv         one score row per (load, clocks, method), with cpu_s
#   $PB_OUT/real_traces_summary.md  the summary table (what the README shows)
#   $PB_OUT/real_traces.md          the summary, the Project 5 measures, clocks, import log
#   $PB_OUT/real_traces/            imported traces, clock estimates, results, logs
# Deterministic apart from the CPU times.  About a minute on one core.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${PB_BIN:=$ROOT/bin}"
case "$PB_BIN" in /*) ;; *) PB_BIN="$ROOT/$PB_BIN" ;; esac
: "${PB_OUT:=$ROOT/out/figures}"
: "${PB_DATA:=$ROOT/data/deathstarbench-hotel}"
readme=""
while [ $# -gt 0 ]; do
    case "$1" in
    --out) [ $# -ge 2 ] || { echo "real_traces: --out needs a directory" >&2; exit 2; }
           PB_OUT=$2; shift ;;
    --readme) readme="$ROOT/README.md"
              case "${2:-}" in ""|-*) ;; *) readme=$2; shift ;; esac ;;
    -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
has_algo() { "$PB_BIN/infer" --help 2>/dev/null | grep -q "^$1 ("; }

# method | import (plain, callid or span) | infer arguments | what it is | TraceWeaver authors' number (25 / 100)
# plain: as a sniffer sees it; callid: call ids pair calls and returns;
# span: call ids and the thread column (what the artifact's spans give it)
METHODS='oracle|plain|--algo truth|truth oracle (call view)|
nesting|plain|--algo nesting|Project 5 nesting with the paper parameters|
nesting+callid|callid|--algo nesting|nesting given the call id of each RPC|
nesting skew_window=2ms|plain|--algo nesting -s skew_window=2ms|nesting with the paper'"'"'s skew window (7.5.6) above the largest estimated offset|
convolution|plain|--algo convolution -s mu=10ms|Project 5 convolution with the paper parameters|
linking|plain|--algo linking|WAP5 linking with the paper parameters (x = 2 s)|
linking k=0|plain|--algo linking -s k=0|WAP5 linking x = 2 s without try-both decisions (k = 0)|
linking entry=client|plain|--algo linking -s entry=client|WAP5 linking x = 2 s; the load generator client is an entry node (k = 4)|
linking entry=client k=0|plain|--algo linking -s entry=client -s k=0|the same with k = 0|
linking x=20ms|plain|--algo linking -s x=20ms|WAP5 linking with window x scaled to these traces|
fcfs|span|--algo fcfs|baseline: FCFS (TraceWeaver artifact)|92.3 / 57.6
arrival|span|--algo arrival|baseline: arrival order (TraceWeaver artifact)|98.3 / 78.5
vpath|span|--algo vpath|baseline: vPath with the thread column (TraceWeaver artifact)|94.3 / 73.6
wap5tw|span|--algo wap5tw|baseline: TraceWeaver'"'"'s WAP5 variant|80.0 / 24.8'
if has_algo joint; then
    METHODS="$METHODS
joint|plain|--algo joint|pathbench joint (docs/joint.md): learned delay model and joint search; not told the call graph|
joint+callid|callid|--algo joint|joint given the call id of each RPC (as TraceWeaver is given spans)|"
fi
# (no commas in the descriptions: the tables below split the CSV with awk)

CSV="$PB_OUT/real_traces.csv"
: > "$CSV.tmp"
for L in 25 100; do
    tarball="$PB_DATA/hotel_load$L.tar.xz"
    [ -f "$tarball" ] || die "$tarball missing"
    # the importer reads the archive itself when it can; else unpack it.
    # Relative names, so the logs do not depend on where things are.
    dir="$PB_DATA"; src="hotel_load$L.tar.xz"
    if ! (cd "$dir" && "$PB_BIN/importtrace" -q -o "$W/probe.csv" "$src") 2> /dev/null; then
        (cd "$W" && xz -dc "$tarball" | tar -xf -) || die "cannot extract $tarball"
        dir="$W"; src="hotel_load$L"
    fi
    rm -f "$W/probe.csv"
    (cd "$dir" && "$PB_BIN/importtrace" -o "$W/l$L.plain.csv" "$src" 2> "$W/import$L.log") ||
        die "import load $L failed: $(cat "$W/import$L.log")"
    (cd "$dir" && "$PB_BIN/importtrace" -q --callid -o "$W/l$L.callid.csv" "$src") ||
        die "import load $L --callid failed"
    (cd "$dir" && "$PB_BIN/importtrace" -q --callid --thread -o "$W/l$L.span.csv" "$src") ||
        die "import load $L --callid --thread failed"
    rm -rf "$W/hotel_load$L"
    # clock offsets estimated from the trace itself (no truth used)
    "$PB_BIN/skewer" --estimate "$W/l$L.plain.csv" > "$W/clocks$L.spec" 2> "$W/clocks$L.log" ||
        die "skewer --estimate load $L failed"
    for k in plain callid span; do
        "$PB_BIN/skewer" --deskew -f "$W/clocks$L.spec" -o "$W/l$L.$k.deskewed.csv" \
            "$W/l$L.$k.csv" 2>> "$W/clocks$L.log" || die "skewer --deskew load $L $k failed"
    done
    for clocks in recorded deskewed; do
        echo "$METHODS" | while IFS='|' read -r name kind args what ref; do
            in="$W/l$L.$kind.csv"
            [ "$clocks" = deskewed ] && in="$W/l$L.$kind.deskewed.csv"
            tag=$(echo "$name-$L-$clocks" | tr ' =+' '___')
            # shellcheck disable=SC2086
            "$PB_BIN/infer" $args -o "$W/$tag.result.csv" "$in" 2> "$W/$tag.log" ||
                die "infer $args on load $L ($clocks) failed: $(tail -3 "$W/$tag.log")"
            "$PB_BIN/score" --truth "$W/l$L.$kind.csv" "$W/$tag.result.csv" \
                > "$W/$tag.score.csv" 2>> "$W/$tag.log" ||
                die "score $name load $L ($clocks) failed: $(tail -3 "$W/$tag.log")"
            cpu=$(awk '/^# cpu_/ { for (i = 2; i <= NF; i++) { split($i, kv, "=")
                       if (kv[1] == "cpu_infer_s") print kv[2] } exit }' "$W/$tag.result.csv")
            [ -f "$W/header.csv" ] ||
                awk 'NR==1{print "load,clocks,method,import,description,reference,cpu_s," $0}' \
                    "$W/$tag.score.csv" > "$W/header.csv"
            awk -v L="$L" -v c="$clocks" -v m="$name" -v k="$kind" -v w="$what" -v r="$ref" -v t="$cpu" \
                'NR==2{printf "%s,%s,\"%s\",%s,\"%s\",\"%s\",%s,%s\n", L, c, m, k, w, r, t, $0}' \
                "$W/$tag.score.csv" >> "$CSV.tmp"
        done || exit 1
    done
done
cat "$W/header.csv" "$CSV.tmp" > "$CSV" && rm -f "$CSV.tmp"

# ---- markdown ----------------------------------------------------------
SUM="$PB_OUT/real_traces_summary.md"
{
echo "Whole requests reconstructed, in percent of the 1000 requests of each"
echo "load (DeathStarBench hotel reservation): **exact** (call tree right),"
echo "**set** (messages grouped right), **tw** (TraceWeaver's own end-to-end"
echo "measure, as its artifact counts it), as exact / set / tw."
echo "De-skewed: clocks corrected by \`skewer --estimate\`.  Import: *plain* as a"
echo "sniffer sees it, *callid* with call ids, *span* with call ids and the"
echo "thread column (what the artifact's spans give its baselines).  CPU: milliseconds"
echo "of inference (1000 requests), recorded clocks.  The last column is what the TraceWeaver"
echo "authors' code gives on the same files (end-to-end accuracy, loads 25 / 100)."
echo
awk -F, '
function unq(s) { gsub(/"/, "", s); return s }
function p(x) { return x == "" ? "-" : sprintf("%.1f", 100 * x) }
NR==1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{
    m = unq($col["method"]); key = m SUBSEP $col["load"] SUBSEP $col["clocks"]
    if (!(m in seen)) { seen[m] = 1; order[++n] = m; imp[m] = $col["import"]; ref[m] = unq($col["reference"]) }
    if ($col["exact_accuracy"] == "" && $col["set_accuracy"] == "")
        # convolution ascribes no instances: how many true paths it missed
        # and how many of the patterns it reported are false
        cell[key] = sprintf("paths only (misses %d of %d; %d of %d patterns false)", $col["pattern_fn"], $col["true_patterns"], $col["pattern_fp"], $col["inferred_patterns"])
    else
        cell[key] = p($col["exact_accuracy"]) " / " p($col["set_accuracy"]) " / " p($col["tw_accuracy"])
    if ($col["clocks"] == "recorded") cpu[m, $col["load"]] = $col["cpu_s"]
}
END {
    print "| method | import | load 25 | load 100 | load 25 de-skewed | load 100 de-skewed | CPU ms (25 / 100) | TraceWeaver authors |"
    print "|---|---|---:|---:|---:|---:|---:|---:|"
    for (k = 1; k <= n; k++) {
        m = order[k]
        printf "| %s | %s | %s | %s | %s | %s | %.1f / %.1f | %s |\n", m, imp[m],
            cell[m SUBSEP 25 SUBSEP "recorded"], cell[m SUBSEP 100 SUBSEP "recorded"],
            cell[m SUBSEP 25 SUBSEP "deskewed"], cell[m SUBSEP 100 SUBSEP "deskewed"],
            1000 * cpu[m, 25], 1000 * cpu[m, 100], ref[m]
    }
    print "| *TraceWeaver (not run here)* | | | | | | | 99.8 / 97.7 |"
}' "$CSV"
} > "$SUM"

MD="$PB_OUT/real_traces.md"
{
cat "$SUM"
echo
echo "The Project 5 measures (7.5.1) for every run: patterns true / inferred,"
echo "false-positive and false-negative patterns, instance false-positive and"
echo "false-negative rates, fraction of messages ascribed to a wrong instance."
echo
awk -F, '
function unq(s) { gsub(/"/, "", s); return s }
function pct(x) { return x == "" ? "" : sprintf("%.1f", 100 * x) }
NR==1 { for (i = 1; i <= NF; i++) col[$i] = i
        print "| load | clocks | method | view | patterns true/inferred | pattern FP | pattern FN | instance FP % | instance FN % | message error % | exact % | set % | tw % | CPU s |"
        print "|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"; next }
{
    printf "| %s | %s | %s | %s | %s/%s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
        $col["load"], $col["clocks"], unq($col["method"]), $col["view"],
        $col["true_patterns"], $col["inferred_patterns"], $col["pattern_fp"],
        $col["pattern_fn"], pct($col["instance_fp_rate"]), pct($col["instance_fn_rate"]),
        pct($col["message_error_rate"]), pct($col["exact_accuracy"]),
        pct($col["set_accuracy"]), pct($col["tw_accuracy"]), $col["cpu_s"]
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
echo "real_traces: wrote $CSV, $SUM and $MD"
if [ -n "$readme" ]; then
    sh "$ROOT/scripts/readme_tables.sh" real-traces "$SUM" "$readme" ||
        die "could not update $readme"
    echo "real_traces: updated the real-traces table in $readme"
fi
