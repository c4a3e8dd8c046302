#!/bin/sh
# joint_calib.sh - is joint's confidence calibrated?  For every real set
# (imported as experiments/joint_systems.sh does: "ids" with --callid,
# "black box" without) and, with --synthetic, a few maketrace configs,
# run `infer --algo joint`, then `score --reliability` and
# `score --coverage-curve`, and tabulate, per set and mode, the share of
# rows right among those stated at 0.5, 0.9, 0.99 and 0.999 or more (and
# how many rows that is), and the coverage at 99 % message precision.
#
#   sh experiments/joint_calib.sh [--out DIR] [--data DIR] [--synthetic]
#        [--stress] [--apps "SEEDS"] [--no-real] [--sets REGEX]
#
# --stress: also the real sets' stressed variants (as the stress audit
#   makes them): round1ms / round10ms (`skewer --round`), loss2 (`sniffer
#   -p 0.02 --seed 1`, scored against the survivors' truth), skew
#   (`skewer --random-offset uniform:20ms --seed 1`), quarter (the first
#   quarter of the requests).
# --apps "SEEDS": also experiments/joint_apps_*.conf and joint_models_*.conf
#   at maketrace seeds SEEDS, 2 s (PB_APPS_DURATION), the config's load,
#   stamps in ns and rounded to 1 ms.
# --no-real: skip the real sets themselves (with --stress, their variants
#   are still made).  --sets REGEX: only sets whose name matches (grep -E).
# Every run: both modes (ids; black box = call ids emptied).
#
# Environment: PB_BIN (default <repo>/bin), PB_OUT (default <repo>/out),
# PB_CALIB_INFER (more infer arguments, e.g. "-s conf_selfcal=0"),
# PB_APPS_DURATION (default 2s), PB_CALIB_LOSS_SEED (the loss2 variant's
# sniffer seed, default 1; other seeds hold the loss variants out).
# Writes $PB_OUT/joint_calib.md, and per set the reliability table and
# the precision-coverage curve under $PB_OUT/joint_calib/; also
# $PB_OUT/joint_calib_bins.md (every reliability bin: stated confidence,
# rows, right %, and OVER where a one-sided binomial test at 5 % says the
# share right is below the bin's lower edge c) and
# $PB_OUT/joint_calib_curve.md (coverage and message precision at
# min_confidence 0.5, 0.8, 0.9, 0.95: the result's rows below it made
# abstentions, scored).  Deterministic.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${PB_BIN:=$ROOT/bin}"
: "${PB_OUT:=$ROOT/out}"
DATA=$ROOT/data
SYN=0
STRESS=0
APPS=
REAL=1
SETS=.
while [ $# -gt 0 ]; do
    case "$1" in
    --out) [ $# -ge 2 ] || { echo "joint_calib: --out needs a directory" >&2; exit 2; }
           PB_OUT=$2; shift ;;
    --data) [ $# -ge 2 ] || { echo "joint_calib: --data needs a directory" >&2; exit 2; }
           DATA=$2; shift ;;
    --synthetic) SYN=1 ;;
    --stress) STRESS=1 ;;
    --no-real) REAL=0 ;;
    --apps) [ $# -ge 2 ] || { echo "joint_calib: --apps needs seeds" >&2; exit 2; }
           APPS=$2; shift ;;
    --sets) [ $# -ge 2 ] || { echo "joint_calib: --sets needs a regular expression" >&2; exit 2; }
           SETS=$2; shift ;;
    -h|--help) sed -n '2,35p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "joint_calib: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done
die() { echo "joint_calib: $*" >&2; exit 1; }
for p in maketrace skewer sniffer importtrace infer score; do
    [ -x "$PB_BIN/$p" ] || die "$PB_BIN/$p missing (run make)"
done
D=$PB_OUT/joint_calib
mkdir -p "$D" || die "cannot create $D"
W=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$W"' EXIT
MD=$PB_OUT/joint_calib.md
BINS=$PB_OUT/joint_calib_bins.md
CURVE=$PB_OUT/joint_calib_curve.md
{
    echo "Share of rows right (%) among those joint states at c or more (in brackets: those rows,"
    echo "% of all), and the coverage at 99 % message precision.  Written by experiments/joint_calib.sh."
    echo ""
    echo "| set | mode | requests | exact % | c >= 0.5 | c >= 0.9 | c >= 0.99 | c >= 0.999 | coverage at 99 % |"
    echo "|---|---|---:|---:|---|---|---|---|---:|"
} > "$MD.tmp"
{
    echo "Every reliability bin of stated confidence [c, c'): rows, mean stated confidence, % right."
    echo "Rows of one request share their fate (a crossing moves a whole tail), so the test counts"
    echo "requests: m = the set's rows per request, n = rows / m and k = right / m (rounded); p ="
    echo "P(X <= k | n, c) for X ~ Binomial(n, c).  OVER: p < 0.05 (fewer than c right, at 5 %);"
    echo "(rows): the same test on rows only; under: the share right is above c' (under-confident)."
    echo "Written by experiments/joint_calib.sh."
    echo ""
    echo "| set | mode | bin | rows | stated | right % | p | flag |"
    echo "|---|---|---|---:|---:|---:|---:|---|"
} > "$BINS.tmp"
{
    echo "Coverage (share of messages attached) and message precision (% of attached right) with"
    echo "min_confidence X: every row stated below X made an abstention, then scored."
    echo "Written by experiments/joint_calib.sh."
    echo ""
    echo "| set | mode | requests | exact % | X = 0.5 | X = 0.8 | X = 0.9 | X = 0.95 |"
    echo "|---|---|---:|---:|---|---|---|---|"
} > "$CURVE.tmp"

# every bin of reliability table $3 (set $1, mode $2; $4 requests), with
# the test (experiments/calib_bins.awk)
bins_of() {
    awk -F, -v req="$4" -f "$ROOT/experiments/calib_bins.awk" "$3" |
    awk -F, -v set="$1" -v mode="$2" '{
        pv = $7 + 0
        fl = pv < 0.05 ? "**OVER**" : $8 + 0 < 0.05 ? "(rows)" : ($6 > $2 && $2 < 1 ? "under" : "")
        printf "| %s | %s | [%s, %s) | %d | %.4f | %.2f | %s | %s |\n", set, mode, $1, $2, $3, $4,
            100 * $6, (pv < 1e-4 ? sprintf("%.1e", pv) : sprintf("%.4f", pv)), fl
    }'
}

# the point of the precision-coverage curve at min_confidence 0.5, 0.8,
# 0.9, 0.95 of result $3 (set $1, mode $2), scored with score args $4...
curve_of() {
    set_=$1; mode_=$2; res=$3; shift 3
    line=""
    for x in 0.5 0.8 0.9 0.95; do
        # abstain on the rows below x (docs/formats.md: instance, rank and
        # parent emptied; the confidence kept)
        awk -F, -v x="$x" 'BEGIN { OFS = "," }
            /^# table=assignment/ { t = 1; print; next }
            /^#/ || !t { print; next }
            !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; print; next }
            { if ($c["confidence"] != "" && $c["confidence"] + 0 < x + 0) {
                  $c["instance"] = ""; $c["rank"] = ""; if ("parent" in c) $c["parent"] = "" }
              print }' "$res" > "$W/abst.r"
        "$PB_BIN/score" "$@" "$W/abst.r" > "$W/abst.csv" 2> "$W/log" || { line="$line score failed |"; continue; }
        line="$line $(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            NR == 2 { r = $c["msgs_right"]; w = $c["msgs_wrong"]; u = $c["msgs_unattached"]
                      printf "%.1f / %s", 100 * (r + w) / (r + w + u), (r + w ? sprintf("%.2f", 100 * r / (r + w)) : "-") }' "$W/abst.csv") |"
    done
    awk -F, -v set="$set_" -v mode="$mode_" -v line="$line" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        NR == 2 { printf "| %s | %s | %d | %.1f |%s\n", set, mode, $c["true_instances"], 100 * $c["exact_accuracy"], line }' \
        "$W/row.csv" >> "$CURVE.tmp"
}

# run joint on trace $2 (set $1, mode $3) and add its rows; $4 (optional):
# the unperturbed trace $2 is a lossy copy of (scored with --kept)
one() {
    echo "$1" | grep -Eq -- "$SETS" || return 0
    n=$(echo "$1.$3" | tr '/ ' '__')
    if [ -n "${4:-}" ]; then set -- "$1" "$2" "$3" --truth "$4" --kept "$2"
    else set -- "$1" "$2" "$3" --truth "$2"; fi
    # shellcheck disable=SC2086
    "$PB_BIN/infer" --algo joint -q ${PB_CALIB_INFER:-} -o "$D/$n.r" "$2" 2> "$W/log" ||
        { echo "| $1 | $3 | infer failed: $(tail -1 "$W/log") |" >> "$MD.tmp"; return; }
    "$PB_BIN/score" "$4" "$5" ${6:+"$6"} ${7:+"$7"} --reliability "$D/$n.rel.csv" \
        --coverage-curve "$D/$n.cov.csv" "$D/$n.r" > "$W/row.csv" 2> "$W/log" ||
        { echo "| $1 | $3 | score failed: $(tail -1 "$W/log") |" >> "$MD.tmp"; return; }
    awk -F, -v set="$1" -v mode="$3" '
        NR == FNR { if (FNR == 1) for (i = 1; i <= NF; i++) c[$i] = i
                    else { req = $c["true_instances"]; ex = $c["exact_accuracy"]; p99 = $c["coverage_p99"] }
                    next }
        FNR == 2 { tot = $7 }
        FNR > 1 { lo[FNR] = $1; up[FNR] = $7; cum[FNR] = $8; cal[FNR] = $9 }
        END {
            line = sprintf("| %s | %s | %d | %.1f |", set, mode, req, 100 * ex)
            for (i = 3; i <= 8; i++) {
                if (lo[i] != 0.5 && lo[i] != 0.9 && lo[i] != 0.99 && lo[i] != 0.999) continue
                if (up[i] == 0) { line = line " - |"; continue }
                t = sprintf("%.2f (%.1f)", 100 * cum[i], 100 * up[i] / tot)
                if (cal[i] == "0") t = "**" t "**"
                line = line " " t " |"
            }
            printf "%s %s |\n", line, (p99 == "" ? "" : sprintf("%.1f", 100 * p99))
        }' "$W/row.csv" "$D/$n.rel.csv" >> "$MD.tmp"
    req=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["true_instances"] }' "$W/row.csv")
    bins_of "$1" "$3" "$D/$n.rel.csv" "$req" >> "$BINS.tmp"
    curve_of "$1" "$3" "$D/$n.r" "$4" "$5" ${6:+"$6"} ${7:+"$7"}
    rm -f "$D/$n.r"   # the largest file; the tables above keep what it says
}

. "$ROOT/experiments/trace_cols.sh"
# both modes of trace $2 (with call ids; set $1); $3: its unperturbed
# trace when $2 is a lossy copy
both() {
    one "$1" "$2" ids ${3:+"$3"}
    strip_ids "$2" > "$W/both.bb.csv"
    [ -n "${3:-}" ] && strip_ids "$3" > "$W/both.bb.orig.csv"
    one "$1" "$W/both.bb.csv" "black box" ${3:+"$W/both.bb.orig.csv"}
}
# the stressed variants of imported trace $2 (set $1), as
# experiments/joint_stress.sh makes them
stress() {
    "$PB_BIN/skewer" -q --round 1ms "$2" > "$W/v.csv" && both "$1+round1ms" "$W/v.csv"
    "$PB_BIN/skewer" -q --round 10ms "$2" > "$W/v.csv" && both "$1+round10ms" "$W/v.csv"
    "$PB_BIN/sniffer" -q -p 0.02 --seed "${PB_CALIB_LOSS_SEED:-1}" "$2" > "$W/v.csv" && cp "$2" "$W/v.orig.csv" &&
        both "$1+loss2" "$W/v.csv" "$W/v.orig.csv"
    "$PB_BIN/skewer" -q --random-offset uniform:20ms --seed 1 --allow-negative "$2" > "$W/v.csv" &&
        both "$1+skew" "$W/v.csv"
    awk -v op=select -v lo=0 -v hi=0.25 -f "$ROOT/experiments/stress_edit.awk" "$2" "$2" > "$W/v.csv" &&
        both "$1+quarter" "$W/v.csv"
}
for f in "$DATA"/deathstarbench-hotel/*.tar.xz "$DATA"/nezha/*/*.csv.gz \
         "$DATA"/deeptrace-ebpf/*.json.gz; do
    [ -f "$f" ] || continue
    name=$(basename "$(dirname "$f")")/$(basename "$f" | sed 's/\.\(tar\.xz\|csv\.gz\|json\.gz\)$//')
    [ "$STRESS" = 1 ] || [ "$REAL" = 1 ] || continue
    echo "$name" | grep -Eq -- "$SETS" || continue
    if "$PB_BIN/importtrace" -q --callid "$f" > "$W/raw.csv" 2> "$W/log" &&
       grep -q '^[^#]*callid' "$W/raw.csv"; then
        keep_cols "$W/raw.csv" > "$W/ids.csv"
        [ "$REAL" = 1 ] && one "$name" "$W/ids.csv" ids
        if [ "$STRESS" = 1 ]; then cp "$W/ids.csv" "$W/real.csv"; stress "$name" "$W/real.csv"; fi
    fi
    [ "$REAL" = 1 ] || continue
    if "$PB_BIN/importtrace" -q "$f" > "$W/raw.csv" 2> "$W/log"; then
        keep_cols "$W/raw.csv" > "$W/bb.csv"
        one "$name" "$W/bb.csv" "black box"
    else
        echo "| $name | - | importtrace cannot read it: $(tail -1 "$W/log") |" >> "$MD.tmp"
    fi
done

if [ -n "$APPS" ]; then
    for cf in "$ROOT"/experiments/joint_apps_*.conf "$ROOT"/experiments/joint_models_*.conf; do
        c=$(basename "$cf" .conf | sed 's/^joint_//')
        for s in $APPS; do
            printf '%s\n' "$c-s$s-ns" "$c-s$s-1ms" | grep -Eq -- "$SETS" || continue
            "$PB_BIN/maketrace" "$cf" -s seed="$s" -s duration="${PB_APPS_DURATION:-2s}" > "$W/raw.csv" 2> "$W/log" ||
                { echo "| $c s$s | - | maketrace failed: $(tail -1 "$W/log") |" >> "$MD.tmp"; continue; }
            keep_cols "$W/raw.csv" > "$W/gen.csv"
            both "$c-s$s-ns" "$W/gen.csv"
            "$PB_BIN/skewer" -q --round 1ms "$W/gen.csv" > "$W/g1.csv" && both "$c-s$s-1ms" "$W/g1.csv"
        done
    done
fi

if [ "$SYN" = 1 ]; then
    for c in hotel-like media-like shape-fanout shape-retry multitier; do
        "$PB_BIN/maketrace" "$ROOT/maketrace/configs/$c.conf" > "$W/ids.csv" ||
            die "maketrace $c failed"
        both "$c" "$W/ids.csv"
    done
    "$PB_BIN/maketrace" "$ROOT/experiments/joint_fifo_io.conf" -D instances_scale=4 > "$W/m.csv" &&
        "$PB_BIN/skewer" --round 1ms "$W/m.csv" > "$W/fio.csv" || die "joint_fifo_io failed"
    both joint_fifo_io-x4 "$W/fio.csv"
fi
mv "$MD.tmp" "$MD"
mv "$BINS.tmp" "$BINS"
mv "$CURVE.tmp" "$CURVE"
echo "joint_calib: wrote $MD, $BINS and $CURVE" >&2
