#!/bin/sh
# joint_pool_thread.sh - evaluation only: the pool rows that fall 5-9
# points under their dev range on fresh seeds (docs/joint/shapes_late.md,
# "Held-out seeds 61-62, every method (h289)").  For each maketrace seed
# of experiments/joint_models_pool.conf and each variant of the models
# audit (x1 ns, 1us, 1ms, skew; x2 ns, 1us, 1ms), as a black box: joint's
# exact accuracy at the defaults and with `-s thread_soft=T` (default T
# 0.8), and the frontend's thread line of each run (misses over chance's:
# the term weighs the service only where that rate, the least over the
# passes, is at most thread_soft).  Traces made as the audit makes them.
#   sh experiments/joint_pool_thread.sh [-t T] SEED...
set -e
R=$(cd "$(dirname "$0")/.." && pwd)
B=${PB_BIN:-$R/bin}
T=0.8
if [ "${1:-}" = -t ]; then T=$2; shift 2; fi
[ $# -ge 1 ] || { sed -n '2,11p' "$0" >&2; exit 2; }
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
. "$R/experiments/trace_cols.sh"
exact() { # RESULT: exact accuracy (percent)
    "$B/score" --truth "$W/v.csv" "$1" |
        awk -F, 'NR==1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                 NR==2 { printf "%.1f", 100 * $c["exact_accuracy"] }'
}
front() { # RESULT: the frontend's misses over chance's, and whether weighed
    awk '/^# thread_service=frontend / { for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                                          r = v["chance_misses"] > 0 ? v["misses"] / v["chance_misses"] : 0 }
         /^# thread_soft=frontend / { w = $3 }
         END { printf "rate=%.2f %s", r, (w == "" ? "unweighed" : "weighed(" w ")") }' "$1"
}
for s in "$@"; do
    for v in x1:ns x1:1us x1:1ms x1:skew x2:ns x2:1us x2:1ms; do
        l=${v%%:*} st=${v#*:}
        "$B/maketrace" "$R/experiments/joint_models_pool.conf" -s seed="$s" -s duration=2s \
            -s instances_scale="${l#x}" > "$W/raw.csv" 2> /dev/null
        keep_cols "$W/raw.csv" > "$W/gen.csv"
        case $st in
        ns) cp "$W/gen.csv" "$W/v.csv" ;;
        1us|1ms) "$B/skewer" -q --round "$st" "$W/gen.csv" > "$W/v.csv" ;;
        skew) "$B/skewer" -q -n '*=+1ms' "$W/gen.csv" > "$W/v0.csv"
              "$B/skewer" -q --random-offset uniform:0.1ms --seed "$s" "$W/v0.csv" > "$W/v.csv" ;;
        esac
        strip_ids "$W/v.csv" > "$W/bb.csv"
        "$B/infer" --algo joint -o "$W/d.csv" "$W/bb.csv" 2> /dev/null
        "$B/infer" --algo joint -s thread_soft="$T" -o "$W/t.csv" "$W/bb.csv" 2> /dev/null
        echo "pool seed=$s $v blackbox default=$(exact "$W/d.csv") [$(front "$W/d.csv")]" \
             "thread_soft=$T: $(exact "$W/t.csv") [$(front "$W/t.csv")]"
    done
done
