#!/bin/sh
# joint_deep.sh - joint as a black box (and with call ids) on one very deep
# request: h141's Jaeger chain of N nested spans over 8 services, a tree
# (the chain with three leaf calls per level) and a flat fan-out, made by
# experiments/joint_deep.awk and imported by importtrace (docs/joint/speed.md,
# "Speed, nineteenth wave").
#
#   sh experiments/joint_deep.sh [--shapes "chain tree fan"] [--sizes "1000 2000"]
#                                [--modes "bb ids"] [-- INFER_ARGS...]
#
# One row per shape, size and mode: user CPU seconds of infer (/usr/bin/time
# when there, else the result's cpu_infer_s), peak KB when known, and the
# metadata lines swap_top_resumed (exchanges scored from a record).
# INFER_ARGS go to every run (e.g. -s swap_resume=0).  Environment: PB_BIN
# (default <repo>/bin).  Writes CSV to stdout.  Deterministic but the CPU.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${PB_BIN:=$ROOT/bin}"
SHAPES="chain tree fan"
SIZES="1000 2000 4000 8000"
MODES="bb"
while [ $# -gt 0 ]; do
    case "$1" in
    --shapes) SHAPES=$2; shift ;;
    --sizes) SIZES=$2; shift ;;
    --modes) MODES=$2; shift ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; break ;;
    *) echo "joint_deep: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
echo "shape,spans,mode,user_s,peak_kb,swap_top_resumed"
for sh in $SHAPES; do
    for n in $SIZES; do
        awk -v N="$n" -v SHAPE="$sh" -f "$ROOT/experiments/joint_deep.awk" > "$W/t.json"
        for m in $MODES; do
            c=; [ "$m" = ids ] && c=--callid
            "$PB_BIN/importtrace" -q $c "$W/t.json" -o "$W/t.csv" || exit 1
            if [ -x /usr/bin/time ]; then
                /usr/bin/time -f "%U %M" -o "$W/time" "$PB_BIN/infer" --algo joint -q "$@" \
                    -o "$W/r.csv" "$W/t.csv" 2> "$W/log" || { cat "$W/log" >&2; exit 1; }
                read -r u k < "$W/time"
            else
                "$PB_BIN/infer" --algo joint -q "$@" -o "$W/r.csv" "$W/t.csv" 2> "$W/log" || exit 1
                u=$(sed -n 's/^# cpu_read_s=.* cpu_infer_s=\([0-9.e+-]*\).*/\1/p' "$W/r.csv"); k=
            fi
            x=$(grep -o 'swap_top_resumed=[0-9]*' "$W/r.csv" | head -1 | cut -d= -f2)
            echo "$sh,$n,$m,$u,$k,${x:-0}"
        done
    done
done
