#!/bin/sh
# joint_loss_cross.sh - does a lost message cost only the requests it
# touches?  joint with call ids at 2 % sniffer loss, with and without the
# crossing moves (-s uncross=0|1; docs/joint/loss.md, "Loss with call ids:
# crossed chains"), on the real sets under DATA and on the synthetic
# class (experiments/joint_loss_repeat.conf at instances 4 and 6).
#
#   sh experiments/joint_loss_cross.sh [--out DIR] [--data DIR] [--seeds "1 2 3"] [--blackbox]
#
# --blackbox: the same draws (the trace with call ids is lost by sniffer,
# then the callid column is emptied in both copies) inferred as a black
# box, once with the defaults (uncross needs call ids, so there is no
# second setting); writes joint_loss_cross_bb.csv and .md instead.
#
# Per set and sniffer seed: the intact requests (they lost nothing) and of
# them how many are exact without loss and under loss with each setting
# (experiments/intact_spill.awk: evaluation only), score --kept's exact
# accuracy, and infer's CPU seconds (read + infer).  Writes
# $PB_OUT/joint_loss_cross.csv and .md (PB_OUT default <repo>/out).
# Deterministic apart from the CPU column.  About a minute on one core.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${PB_BIN:=$ROOT/bin}"
: "${PB_OUT:=$ROOT/out}"
DATA=$ROOT/data
SEEDS="1 2 3"
BB=0
while [ $# -gt 0 ]; do
    case "$1" in
    --out) [ $# -ge 2 ] || { echo "joint_loss_cross: --out needs a directory" >&2; exit 2; }
           PB_OUT=$2; shift ;;
    --data) [ $# -ge 2 ] || { echo "joint_loss_cross: --data needs a directory" >&2; exit 2; }
           DATA=$2; shift ;;
    --seeds) [ $# -ge 2 ] || { echo "joint_loss_cross: --seeds needs a list" >&2; exit 2; }
           SEEDS=$2; shift ;;
    --blackbox) BB=1 ;;
    -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "joint_loss_cross: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done
die() { echo "joint_loss_cross: $*" >&2; exit 1; }
for p in maketrace sniffer importtrace infer score; do
    [ -x "$PB_BIN/$p" ] || die "$PB_BIN/$p missing (run make)"
done
for s in $SEEDS; do
    case "$s" in ''|*[!0-9]*) die "--seeds: '$s' is not a seed" ;; esac
done
mkdir -p "$PB_OUT" || die "cannot create $PB_OUT"
W=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$W"' EXIT INT TERM
SP="$ROOT/experiments/intact_spill.awk"
CSV="$PB_OUT/joint_loss_cross.csv"
[ "$BB" = 1 ] && CSV="$PB_OUT/joint_loss_cross_bb.csv"
echo "set,seed,intact,exact_noloss,exact_u0,exact_u1,lost_u0,lost_u1,kept_u0,kept_u1,cpu_u0,cpu_u1" > "$CSV.tmp"
cpu() { sed -n 's/^# cpu_read_s=\([0-9.e+-]*\) cpu_infer_s=\([0-9.e+-]*\).*/\1 \2/p' "$1" |
        awk '{ printf "%.3f", $1 + $2 }'; }
kept() { "$PB_BIN/score" --truth "$1" --kept "$2" "$3" |
         awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 2 { print $c["exact_accuracy"] }'; }
# strip TRACE: the trace with its callid column emptied (a black box)
strip() { awk 'BEGIN { FS = OFS = "," } /^#/ { print; next }
         !h { for (i = 1; i <= NF; i++) if ($i == "callid") c = i; h = 1; print; next }
         { if (c) $c = ""; print }' "$1"; }
run_bb() { # name trace (with call ids and truth): black box, one setting
    strip "$2" > "$W/tb.csv"
    "$PB_BIN/infer" --algo joint -o "$W/r0.csv" "$W/tb.csv" 2> "$W/log" ||
        { echo "joint_loss_cross: warning: $1: infer failed: $(tail -1 "$W/log")" >&2; return; }
    for s in $SEEDS; do
        "$PB_BIN/sniffer" -q -p 0.02 --seed "$s" "$2" > "$W/p.csv" || die "sniffer failed"
        strip "$W/p.csv" > "$W/pb.csv"
        "$PB_BIN/infer" --algo joint -o "$W/u0.csv" "$W/pb.csv" 2> "$W/log" ||
            die "$1 seed $s: infer (black box): $(tail -1 "$W/log")"
        a=$(awk -f "$SP" "$2" "$W/p.csv" "$W/r0.csv" "$W/u0.csv" | sed 's/[a-z_0-9]*=//g')
        # shellcheck disable=SC2086
        set -- "$1" "$2" $a
        echo "$1,$s,$3,$4,$5,$5,$7,$7,$(kept "$2" "$W/p.csv" "$W/u0.csv"),$(kept "$2" "$W/p.csv" "$W/u0.csv"),$(cpu "$W/u0.csv"),$(cpu "$W/u0.csv")" >> "$CSV.tmp"
    done
}
run_set() { # name trace (with call ids and truth)
    [ "$BB" = 1 ] && { run_bb "$@"; return; }
    "$PB_BIN/infer" --algo joint -o "$W/r0.csv" "$2" 2> "$W/log" ||
        { echo "joint_loss_cross: warning: $1: infer failed: $(tail -1 "$W/log")" >&2; return; }
    for s in $SEEDS; do
        "$PB_BIN/sniffer" -q -p 0.02 --seed "$s" "$2" > "$W/p.csv" || die "sniffer failed"
        for u in 0 1; do
            "$PB_BIN/infer" --algo joint -s uncross=$u -o "$W/u$u.csv" "$W/p.csv" 2> "$W/log" ||
                die "$1 seed $s: infer -s uncross=$u: $(tail -1 "$W/log")"
        done
        a=$(awk -f "$SP" "$2" "$W/p.csv" "$W/r0.csv" "$W/u0.csv" | sed 's/[a-z_0-9]*=//g')
        b=$(awk -f "$SP" "$2" "$W/p.csv" "$W/r0.csv" "$W/u1.csv" | sed 's/[a-z_0-9]*=//g')
        # shellcheck disable=SC2086
        set -- "$1" "$2" $a
        n=$3 e0=$4 x0=$5 l0=$7
        # shellcheck disable=SC2086
        set -- "$1" "$2" $b
        x1=$5 l1=$7
        echo "$1,$s,$n,$e0,$x0,$x1,$l0,$l1,$(kept "$2" "$W/p.csv" "$W/u0.csv"),$(kept "$2" "$W/p.csv" "$W/u1.csv"),$(cpu "$W/u0.csv"),$(cpu "$W/u1.csv")" >> "$CSV.tmp"
    done
}
for f in "$DATA"/nezha/onlineboutique/*.csv.gz "$DATA"/nezha/trainticket/*.csv.gz \
         "$DATA"/deathstarbench-hotel/*.tar.xz "$DATA"/deeptrace-ebpf/*.json.gz; do
    [ -f "$f" ] || continue
    name=$(basename "$(dirname "$f")")/$(basename "$f" | sed 's/\.\(tar\.xz\|csv\.gz\|json\.gz\)$//')
    if "$PB_BIN/importtrace" -q --callid "$f" > "$W/t.csv" 2> "$W/log"; then
        run_set "$name" "$W/t.csv"
    else
        echo "joint_loss_cross: warning: $name: importtrace cannot read it: $(tail -1 "$W/log")" >&2
    fi
done
for i in 4 6; do
    "$PB_BIN/maketrace" "$ROOT/experiments/joint_loss_repeat.conf" -D instances=$i \
        -D messages=12000 -D duration=0 > "$W/t.csv" || die "maketrace failed"
    run_set "synthetic/joint_loss_repeat-i$i" "$W/t.csv"
done
mv "$CSV.tmp" "$CSV"
awk -F, 'NR == 1 { next }
    { k = $1; if (!(k in seen)) { seen[k] = 1; order[++no] = k }
      n[k] += $3; e0[k] += $4; x0[k] += $5; x1[k] += $6; l0[k] += $7; l1[k] += $8
      k0[k] += $9; k1[k] += $10; c0[k] += $11; c1[k] += $12; ns[k]++ }
    END { if (bb) {
        print "| set | intact requests | exact without loss | at 2 % loss | lost | kept exact | CPU s |"
        print "|---|---|---|---|---|---|---|"
        for (i = 1; i <= no; i++) { k = order[i]
            printf "| %s | %d | %.1f | %.1f | %d | %.1f | %.2f |\n", k, n[k],
                100 * e0[k] / n[k], 100 * x0[k] / n[k], l0[k], 100 * k0[k] / ns[k], c0[k] / ns[k] }
        exit }
        print "| set | intact requests | exact without loss | at 2 % loss, uncross=0 | uncross=1 | lost (0 / 1) | kept exact (0 / 1) | CPU s (0 / 1) |"
        print "|---|---|---|---|---|---|---|---|"
        for (i = 1; i <= no; i++) { k = order[i]
            printf "| %s | %d | %.1f | %.1f | %.1f | %d / %d | %.1f / %.1f | %.2f / %.2f |\n", k, n[k],
                100 * e0[k] / n[k], 100 * x0[k] / n[k], 100 * x1[k] / n[k], l0[k], l1[k],
                100 * k0[k] / ns[k], 100 * k1[k] / ns[k], c0[k] / ns[k], c1[k] / ns[k] } }' \
    bb="$BB" "$CSV" > "${CSV%.csv}.md"
echo "joint_loss_cross: wrote $CSV and ${CSV%.csv}.md"
