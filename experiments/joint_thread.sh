#!/bin/sh
# joint_thread.sh - thread_bound (docs/joint/shapes.md "Visits bound to a
# thread (h187)") on the mesh of experiments/joint_models_mesh.conf: per
# seed, x1 ns, x2 ns and x2 rounded to 1 ms, with call ids and as a black
# box, exact accuracy of a base binary's joint and of this one's with
# -s thread_bound=1, and the services the test bound; then this one's with
# -s thread_soft=0.5 (the thread as a likelihood term on pairs made without
# call ids, docs/joint/shapes.md "The receiving thread as a likelihood term
# (h200)") and the services it weighed.
#
#   PB_BASE_BIN=DIR sh experiments/joint_thread.sh [SEED...]   (default 11 12 13)
#
# PB_BIN: this tree's programs (default <repo>/bin); PB_BASE_BIN: the
# binary to compare against (default PB_BIN: then thread_bound=0 vs 1,
# both with thread_soft=0, the default since h217 being 0.5; the thread
# column always pins thread_soft=0: h187's filter alone);
# PB_SOFT_ARGS: more infer options for the soft column (e.g. "-s
# thread_soft_pick=3", docs/joint/shapes.md "thread_soft's term out of the
# choice of search (h209)"; default none).
# CSV on stdout: seed,variant,mode,base,thread,bound,soft,weighed.  2 s of trace each.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${PB_BIN:=$ROOT/bin}"
: "${PB_BASE_BIN:=$PB_BIN}"
. "$ROOT/experiments/trace_cols.sh"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT INT TERM
[ $# -gt 0 ] || set -- 11 12 13
acc() { "$PB_BIN/score" --truth "$1" "$2" 2> /dev/null | awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{print $(c["exact_accuracy"])}'; }
echo "seed,variant,mode,base,thread,bound,soft,weighed"
for s in "$@"; do
    for x in 1 2; do
        "$PB_BIN/maketrace" "$ROOT/experiments/joint_models_mesh.conf" -s seed="$s" \
            -s duration=2s -s instances_scale=$x > "$W/raw.csv" 2> /dev/null || exit 1
        keep_cols "$W/raw.csv" > "$W/ns.csv"
        vs=ns; [ $x = 2 ] && vs="ns 1ms"
        for v in $vs; do
            [ "$v" = 1ms ] && "$PB_BIN/skewer" -q --round 1ms "$W/ns.csv" > "$W/1ms.csv"
            strip_ids "$W/$v.csv" > "$W/$v.bb.csv"
            for m in ids blackbox; do
                f=$W/$v.csv; [ $m = blackbox ] && f=$W/$v.bb.csv
                base="-s thread_bound=0 -s thread_soft=0"
                [ "$PB_BASE_BIN" = "$PB_BIN" ] || base="-s conf_seed=1"
                # shellcheck disable=SC2086
                "$PB_BASE_BIN/infer" --algo joint $base "$f" > "$W/o.res" 2> /dev/null
                "$PB_BIN/infer" --algo joint -s thread_bound=1 -s thread_soft=0 "$f" > "$W/n.res" 2> /dev/null
                "$PB_BIN/infer" --algo joint -s thread_soft=0.5 ${PB_SOFT_ARGS:-} "$f" > "$W/s.res" 2> /dev/null
                b=$(sed -n 's/^# thread_service=\([^ ]*\) .*bound=yes$/\1/p' "$W/n.res" | tr '\n' ' ')
                w=$(sed -n 's/^# thread_soft=\([^ ]*\) .*/\1/p' "$W/s.res" | tr '\n' ' ')
                echo "$s,x$x:$v,$m,$(acc "$W/$v.csv" "$W/o.res"),$(acc "$W/$v.csv" "$W/n.res"),${b% },$(acc "$W/$v.csv" "$W/s.res"),${w% }"
            done
        done
    done
done
