#!/bin/sh
# joint_seda_toss.sh - evaluation only: seda x1 at 1 us as a black box
# (experiments/joint_models_seda.conf, 2 s), per seed joint's and fcfs's
# exact requests and joint's choice of search, then, summed over the
# seeds, where joint and fcfs give a message different parents: which
# one the truth backs, per sending service, and whether the receiving
# thread tells them apart (joint_seda_toss.py).  docs/joint/ticks.md,
# "Seda x1 at 1 us: the staged front's tosses".
#   sh experiments/joint_seda_toss.sh [SEED...]   (default 3 4 17)
#   PB_INFER_OPTS='-s pair_order=on' sh experiments/joint_seda_toss.sh 3
set -e
R=$(cd "$(dirname "$0")/.." && pwd)
B=${PB_BIN:-$R/bin}
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
. "$R/experiments/trace_cols.sh"
[ $# -gt 0 ] || set -- 3 4 17
ex() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "instances_exact") a = i
                                                      if ($i == "true_instances") b = i }; next }
               NR == 2 { print $a "/" $b }'; }
for s in "$@"; do
    "$B/maketrace" "$R/experiments/joint_models_seda.conf" -s seed="$s" -s duration=2s > "$W/m.csv" 2> /dev/null
    keep_cols "$W/m.csv" > "$W/k.csv"
    "$B/skewer" -q --round 1us "$W/k.csv" > "$W/r.csv"
    strip_ids "$W/r.csv" > "$W/bb.csv"
    # shellcheck disable=SC2086
    "$B/infer" --algo joint $PB_INFER_OPTS -o "$W/j.csv" "$W/bb.csv" 2> /dev/null
    "$B/infer" --algo fcfs -o "$W/f.csv" "$W/bb.csv" 2> /dev/null
    ch=$(grep -o 'busy_partial=on.*chosen=[a-z]*' "$W/j.csv" | sed 's/.*chosen=/partial:/')
    echo "seed $s joint $("$B/score" --truth "$W/r.csv" "$W/j.csv" | ex) fcfs $("$B/score" --truth "$W/r.csv" "$W/f.csv" | ex) ${ch:-no_third_search}"
    python3 "$R/experiments/joint_seda_toss.py" "$W/r.csv" "$W/j.csv" "$W/f.csv" >> "$W/toss"
done
awk '{ k = $0; sub(/ [0-9]+$/, "", k); n[k] += $NF } END { for (k in n) print k, n[k] }' "$W/toss" | sort
