#!/bin/sh
# unp_piece.sh - the draws of docs/joint/loss.md, "Which messages stay
# unpaired: pieces decided by a held-out likelihood": each draw inferred as
# a black box with `-s unpaired=0` and `-s unpaired=1`, then
# experiments/unp_piece.py (evaluation only: it reads the truth) scores the
# first search, the second, and the per-piece rules.
#
#   sh experiments/unp_piece.sh [--out DIR] [--data DIR] < LIST
#
# LIST: one draw a line, `NAME order MAKETRACE_SEED INSTANCES LOSS SNIFFER_SEED`
# (experiments/joint_loss_order.conf, 6000 messages; `repeat` instead of
# `order`: joint_loss_repeat.conf, 12000 messages) or `NAME real FILE
# SNIFFER_SEED` (FILE under --data, default ../shared/data, imported with
# call ids, 2 % loss); the callid column is emptied before infer.  Writes
# DIR/NAME.{t,p,u0,u1}.csv and appends to DIR/piece.txt one line per rule
# and draw (`NAME rule=R intact= exact= lost= gained= fall= ...`) and
# `NAME cpu u0= u1=` (read + infer, s).  A draw already done is skipped.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${PB_BIN:=$ROOT/bin}"
OUT=${PB_OUT:-$ROOT/out}/unp_piece
DATA=$ROOT/../shared/data
while [ $# -gt 0 ]; do
    case "$1" in
    --out) [ $# -ge 2 ] || { echo "unp_piece: --out needs a directory" >&2; exit 2; }; OUT=$2; shift ;;
    --data) [ $# -ge 2 ] || { echo "unp_piece: --data needs a directory" >&2; exit 2; }; DATA=$2; shift ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unp_piece: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done
die() { echo "unp_piece: $*" >&2; exit 1; }
mkdir -p "$OUT" || die "cannot create $OUT"
strip() { awk 'BEGIN { FS = OFS = "," } /^#/ { print; next }
         !h { for (i = 1; i <= NF; i++) if ($i == "callid") c = i; h = 1; print; next }
         { if (c) $c = ""; print }' "$1"; }
cpu() { sed -n 's/^# cpu_read_s=\([0-9.e+-]*\) cpu_infer_s=\([0-9.e+-]*\).*/\1 \2/p' "$1" |
        awk '{ printf "%.3f", $1 + $2 }'; }
while read -r name kind a b c d; do
    [ -n "$name" ] || continue
    n=$OUT/$name
    [ -f "$n.u1.csv" ] && continue
    case "$kind" in
    order|repeat)
           conf=joint_loss_order.conf msgs=6000
           [ "$kind" = repeat ] && conf=joint_loss_repeat.conf msgs=12000
           "$PB_BIN/maketrace" "$ROOT/experiments/$conf" --seed "$a" \
               -D instances="$b" -D messages=$msgs -D duration=0 > "$n.t.csv" || die "$name: maketrace"
           "$PB_BIN/sniffer" -q -p "$c" --seed "$d" "$n.t.csv" > "$n.p.csv" || die "$name: sniffer" ;;
    real)  "$PB_BIN/importtrace" -q --callid "$DATA/$a" > "$n.t.csv" || die "$name: importtrace"
           "$PB_BIN/sniffer" -q -p 0.02 --seed "$b" "$n.t.csv" > "$n.p.csv" || die "$name: sniffer" ;;
    *) die "$name: kind '$kind' is not order, repeat or real" ;;
    esac
    strip "$n.p.csv" > "$n.pb.csv"
    for u in 0 1; do
        "$PB_BIN/infer" --algo joint -s unpaired=$u -o "$n.u$u.csv" "$n.pb.csv" 2> "$n.u$u.log" ||
            die "$name: infer -s unpaired=$u: $(tail -1 "$n.u$u.log")"
    done
    rm -f "$n.pb.csv"
    python3 "$ROOT/experiments/unp_piece.py" "$n.t.csv" "$n.p.csv" "$n.u0.csv" "$n.u1.csv" |
        sed "s/^/$name /" >> "$OUT/piece.txt"
    echo "$name cpu u0=$(cpu "$n.u0.csv") u1=$(cpu "$n.u1.csv")" >> "$OUT/piece.txt"
done
echo "unp_piece: wrote $OUT/piece.txt"
