#!/bin/sh
# joint_superlinear.sh - the black-box inputs that grew faster than n log n
# (docs/joint/speed.md "Wide requests: the exchange's tail"):
#   wide     one request calling one service N times, ~5 calls open at once
#            (experiments/joint_wide1.awk)
#   deep     one request of N nested spans over 8 services
#            (experiments/joint_deep.awk SHAPE=chain, imported)
#   overlap  N requests, each with one call, all open at once, first in
#            last out (joint_overlap_trace of tests/sh/joint_lib.sh)
#   overlap_blocks  the same in blocks of B = 1000 requests one after
#            another (N / B blocks): as many requests open at once at every
#            N, so a doubling doubles the work of a linear method (the
#            overlap input's delays and open calls grow with N too)
#
#   sh experiments/joint_superlinear.sh [--classes "wide deep overlap"]
#        [--sizes "1000 2000 4000 8000"] [--callgrind] [-- INFER_ARGS...]
#
# One CSV row per class and size: user CPU s and peak RSS (kB) of infer
# --algo joint (from /usr/bin/time when there), instructions (with --callgrind: valgrind
# --tool=callgrind, slow) and the metadata counts swap_top_resumed /
# swap_tail_sums.  INFER_ARGS go to every run (e.g. -s swap_tail_tree=0).
# Environment: PB_BIN (default <repo>/bin).  Deterministic but the CPU.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${PB_BIN:=$ROOT/bin}"
CLASSES="wide deep overlap"
SIZES="1000 2000 4000 8000"
CG=0
while [ $# -gt 0 ]; do
    case "$1" in
    --classes) CLASSES=$2; shift ;;
    --sizes) SIZES=$2; shift ;;
    --callgrind) CG=1 ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; break ;;
    *) echo "joint_superlinear: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done
PB_ROOT=$ROOT
export PB_ROOT
. "$ROOT/tests/sh/joint_lib.sh" # tmp (removed on exit), joint_overlap_trace
echo "class,n,user_s,instructions,swap_top_resumed,swap_tail_sums,max_rss_kb"
for c in $CLASSES; do
    for n in $SIZES; do
        case "$c" in
        wide) awk -v N="$n" -f "$ROOT/experiments/joint_wide1.awk" > "$tmp/t.csv" ;;
        deep) awk -v N="$n" -v SHAPE=chain -f "$ROOT/experiments/joint_deep.awk" > "$tmp/t.json" &&
                  "$PB_BIN/importtrace" -q "$tmp/t.json" -o "$tmp/t.csv" || exit 1 ;;
        overlap) joint_overlap_trace "$n" > "$tmp/t.csv" ;;
        overlap_blocks) awk -v N="$n" -v B=1000 'BEGIN {
            print "id,ts,recv_ts,src,dst,type,path,cause"; id = 0
            for (k = 0; k * B < N; k++) {
                o = k * 5 * B * 0.001; m = N - k * B < B ? N - k * B : B
                for (i = 0; i < m; i++) {
                    t = o + 0.001 * (2 * i); printf "%d,%.3f,%.3f,client,a,call,r%d_%d,\n", ++id, t, t, k, i; c[i] = id
                    t += 0.0005; printf "%d,%.3f,%.3f,a,b,call,r%d_%d,%d\n", ++id, t, t, k, i, c[i]; d[i] = id }
                for (i = m - 1; i >= 0; i--) {
                    t = o + 0.001 * (2 * m + 2 * (m - 1 - i)); printf "%d,%.3f,%.3f,b,a,return,r%d_%d,%d\n", ++id, t, t, k, i, d[i]
                    t += 0.0005; printf "%d,%.3f,%.3f,a,client,return,r%d_%d,%d\n", ++id, t, t, k, i, c[i] } } }' > "$tmp/t.csv" ;;
        *) echo "joint_superlinear: unknown class '$c'" >&2; exit 2 ;;
        esac
        u=; ins=; rss=
        if [ -x /usr/bin/time ]; then
            /usr/bin/time -f "%U %M" -o "$tmp/time" "$PB_BIN/infer" --algo joint -q "$@" \
                -o "$tmp/r.csv" "$tmp/t.csv" 2> "$tmp/log" || { cat "$tmp/log" >&2; exit 1; }
            u=$(tail -1 "$tmp/time" | cut -d' ' -f1)
            rss=$(tail -1 "$tmp/time" | cut -d' ' -f2)
        else
            "$PB_BIN/infer" --algo joint -q "$@" -o "$tmp/r.csv" "$tmp/t.csv" 2> "$tmp/log" || exit 1
        fi
        if [ "$CG" = 1 ]; then
            valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$PB_BIN/infer" --algo joint -q \
                "$@" -o /dev/null "$tmp/t.csv" 2> "$tmp/vg" || { cat "$tmp/vg" >&2; exit 1; }
            ins=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$tmp/vg" | tr -d ,)
        fi
        x=$(sed -n 's/^# swap_top_resumed=\([0-9]*\).*/\1/p' "$tmp/r.csv")
        y=$(sed -n 's/^# swap_tail_sums=\([0-9]*\).*/\1/p' "$tmp/r.csv")
        echo "$c,$n,$u,$ins,${x:-0},${y:-0},$rss"
    done
done
