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
#
# Environment: PB_BIN (default <repo>/bin), PB_OUT (default <repo>/out).
# Writes $PB_OUT/joint_calib.md, and per set the reliability table and
# the precision-coverage curve under $PB_OUT/joint_calib/.  Deterministic.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${PB_BIN:=$ROOT/bin}"
: "${PB_OUT:=$ROOT/out}"
DATA=$ROOT/data
SYN=0
while [ $# -gt 0 ]; do
    case "$1" in
    --out) [ $# -ge 2 ] || { echo "joint_calib: --out needs a directory" >&2; exit 2; }
           PB_OUT=$2; shift ;;
    --data) [ $# -ge 2 ] || { echo "joint_calib: --data needs a directory" >&2; exit 2; }
           DATA=$2; shift ;;
    --synthetic) SYN=1 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "joint_calib: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done
die() { echo "joint_calib: $*" >&2; exit 1; }
for p in maketrace skewer importtrace infer score; do
    [ -x "$PB_BIN/$p" ] || die "$PB_BIN/$p missing (run make)"
done
D=$PB_OUT/joint_calib
mkdir -p "$D" || die "cannot create $D"
W=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$W"' EXIT
MD=$PB_OUT/joint_calib.md
{
    echo "Share of rows right (%) among those joint states at c or more (in brackets: those rows,"
    echo "% of all), and the coverage at 99 % message precision.  Written by experiments/joint_calib.sh."
    echo ""
    echo "| set | mode | requests | exact % | c >= 0.5 | c >= 0.9 | c >= 0.99 | c >= 0.999 | coverage at 99 % |"
    echo "|---|---|---:|---:|---|---|---|---|---:|"
} > "$MD.tmp"

# run joint on trace $2 (set $1, mode $3) and add its row
one() {
    n=$(echo "$1.$3" | tr '/' '_')
    "$PB_BIN/infer" --algo joint -q -o "$D/$n.r" "$2" 2> "$W/log" ||
        { echo "| $1 | $3 | infer failed: $(tail -1 "$W/log") |" >> "$MD.tmp"; return; }
    "$PB_BIN/score" --truth "$2" --reliability "$D/$n.rel.csv" --coverage-curve "$D/$n.cov.csv" \
        "$D/$n.r" > "$W/row.csv" 2> "$W/log" ||
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
}

keep_cols() {
    awk 'BEGIN { FS = OFS = ","; split("id ts recv_ts src dst type callid path cause", K, " ")
                 for (i in K) ok[K[i]] = 1 }
         /^#/ { print; next }
         !h { for (i = 1; i <= NF; i++) if ($i in ok) keep[++nk] = i; h = 1 }
         { line = ""; for (j = 1; j <= nk; j++) line = line (j > 1 ? OFS : "") $keep[j]; print line }' "$1"
}
for f in "$DATA"/deathstarbench-hotel/*.tar.xz "$DATA"/nezha/*/*.csv.gz \
         "$DATA"/deeptrace-ebpf/*.json.gz; do
    [ -f "$f" ] || continue
    name=$(basename "$(dirname "$f")")/$(basename "$f" | sed 's/\.\(tar\.xz\|csv\.gz\|json\.gz\)$//')
    if "$PB_BIN/importtrace" -q --callid "$f" > "$W/raw.csv" 2> "$W/log" &&
       grep -q '^[^#]*callid' "$W/raw.csv"; then
        keep_cols "$W/raw.csv" > "$W/ids.csv"
        one "$name" "$W/ids.csv" ids
    fi
    if "$PB_BIN/importtrace" -q "$f" > "$W/raw.csv" 2> "$W/log"; then
        keep_cols "$W/raw.csv" > "$W/bb.csv"
        one "$name" "$W/bb.csv" "black box"
    else
        echo "| $name | - | importtrace cannot read it: $(tail -1 "$W/log") |" >> "$MD.tmp"
    fi
done

if [ "$SYN" = 1 ]; then
    strip_ids() {
        awk -F, 'BEGIN { OFS = "," } /^#/ { print; next }
            !h { for (i = 1; i <= NF; i++) if ($i == "callid") c = i; h = 1; print; next }
            { if (c) $c = ""; print }' "$1"
    }
    for c in hotel-like media-like shape-fanout shape-retry multitier; do
        "$PB_BIN/maketrace" "$ROOT/maketrace/configs/$c.conf" > "$W/ids.csv" ||
            die "maketrace $c failed"
        strip_ids "$W/ids.csv" > "$W/bb.csv"
        one "$c" "$W/ids.csv" ids
        one "$c" "$W/bb.csv" "black box"
    done
    "$PB_BIN/maketrace" "$ROOT/experiments/joint_fifo_io.conf" -D instances_scale=4 > "$W/m.csv" &&
        "$PB_BIN/skewer" --round 1ms "$W/m.csv" > "$W/ids.csv" || die "joint_fifo_io failed"
    strip_ids "$W/ids.csv" > "$W/bb.csv"
    one joint_fifo_io-x4 "$W/ids.csv" ids
    one joint_fifo_io-x4 "$W/bb.csv" "black box"
fi
mv "$MD.tmp" "$MD"
echo "joint_calib: wrote $MD" >&2
