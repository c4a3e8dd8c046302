#!/bin/sh
# joint_parjoin_toss.sh - evaluation only: are the apps audit's two LOSS
# rows (parjoin x2, ns stamps, black box: joint 704 vs fcfs 705 of 1895,
# 699 vs 703 of 1881) a toss?  For each maketrace seed of
# experiments/joint_apps_parjoin.conf at twice its load, as a black box:
# joint's and fcfs's exact requests, the requests each alone gets right,
# each link's right parents (joint_parjoin_toss.py), each link's
# inversions against send order, and the whole pairing of the truth, of
# joint and of fcfs scored under joint's model (joint_ebpf_toss.py ids:
# joint run with that pairing as call ids; its log-likelihood).
# docs/joint/audits.md, "The parjoin rows, twenty-second wave (h185)".
#   sh experiments/joint_parjoin_toss.sh SEED...
set -e
R=$(cd "$(dirname "$0")/.." && pwd)
B=${PB_BIN:-$R/bin}
PY="python3 $R/experiments/joint_ebpf_toss.py"
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
. "$R/experiments/trace_cols.sh"
for s in "$@"; do
    "$B/maketrace" "$R/experiments/joint_apps_parjoin.conf" -s seed="$s" \
        -s instances_scale=2 > "$W/m.csv" 2> /dev/null
    keep_cols "$W/m.csv" > "$W/k.csv"
    strip_ids "$W/k.csv" > "$W/bb.csv"
    "$B/infer" --algo joint -o "$W/joint.csv" "$W/bb.csv" 2> /dev/null
    "$B/infer" --algo fcfs -o "$W/fcfs.csv" "$W/bb.csv" 2> /dev/null
    python3 "$R/experiments/joint_parjoin_toss.py" "$W/bb.csv" \
        "$W/joint.csv" "$W/fcfs.csv" | sed "s/^/seed=$s /"
    $PY order "$W/bb.csv" "$W/joint.csv" "$W/fcfs.csv" |
        sed "s|$W/||g; s/^/seed=$s /" | grep -v 'inverted_vs_send=0 '
    for p in truth joint fcfs; do
        if [ $p = truth ]; then $PY ids "$W/bb.csv" > "$W/i.csv"
        else $PY ids "$W/bb.csv" "$W/$p.csv" > "$W/i.csv"; fi
        "$B/infer" --algo joint -o "$W/i.out" "$W/i.csv" 2> /dev/null
        echo "seed=$s pairing=$p $(sed -n 's/^# log_likelihood=/log_likelihood=/p' "$W/i.out")"
    done
done
