#!/bin/sh
# joint_ebpf_toss.sh - evaluation only (the truth decides nothing in
# infer): is the eBPF capture's black-box row (joint 212 against fcfs 214
# of 288 requests) a toss?  For the capture, or for
# experiments/joint_goread.conf's seeds, as a black box (call ids
# emptied): joint's and fcfs's exact requests; each link's inversions of
# the truth's, joint's and fcfs's pairings against the calls' send order
# (fcfs's rule) and read order (the durations' choice); the whole
# pairing of each scored under joint's model (joint run with that
# pairing as call ids: its log-likelihood and exact requests); and the
# oracle exchange test, the call crossings under durations fitted on the
# truth, and the threads' information on a call's answer
# (joint_ebpf_toss.py exchange, crossings, threads).
# docs/joint/systems.md, "The eBPF capture as a black box,
# twenty-second wave (h181)".
#   sh experiments/joint_ebpf_toss.sh [DATA_DIR]            the capture
#   sh experiments/joint_ebpf_toss.sh --goread SEED... [-- maketrace -s ...]
set -e
R=$(cd "$(dirname "$0")/.." && pwd)
B=${PB_BIN:-$R/bin}
PY="python3 $R/experiments/joint_ebpf_toss.py"
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
. "$R/experiments/trace_cols.sh"
ex() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "instances_exact") a = i; next }
               NR == 2 { print $a }'; }
one() {   # one black-box trace $W/bb.csv (truth columns kept for scoring)
    "$B/infer" --algo joint -o "$W/joint.csv" "$W/bb.csv" 2> /dev/null
    "$B/infer" --algo fcfs -o "$W/fcfs.csv" "$W/bb.csv" 2> /dev/null
    echo "$1 exact joint=$("$B/score" --truth "$W/bb.csv" "$W/joint.csv" | ex) fcfs=$("$B/score" --truth "$W/bb.csv" "$W/fcfs.csv" | ex)"
    $PY order "$W/bb.csv" "$W/joint.csv" "$W/fcfs.csv" | sed "s|$W/||g; s/^/$1 /"
    for s in truth joint fcfs; do
        if [ $s = truth ]; then $PY ids "$W/bb.csv" > "$W/i.csv"
        else $PY ids "$W/bb.csv" "$W/$s.csv" > "$W/i.csv"; fi
        "$B/infer" --algo joint -o "$W/i.out" "$W/i.csv" 2> /dev/null
        echo "$1 pairing=$s $(sed -n 's/^# log_likelihood=/log_likelihood=/p' "$W/i.out") exact=$("$B/score" --truth "$W/bb.csv" "$W/i.out" | ex)"
    done
    $PY exchange "$W/bb.csv" | sed "s/^/$1 /"
    $PY crossings "$W/bb.csv" | sed "s/^/$1 /"
    $PY threads "$W/bb.csv" | sed "s/^/$1 /"
}
if [ "$1" = --goread ]; then
    shift; seeds=""
    while [ $# -gt 0 ] && [ "$1" != -- ]; do seeds="$seeds $1"; shift; done
    [ "$1" = -- ] && shift
    for s in $seeds; do
        "$B/maketrace" "$R/experiments/joint_goread.conf" -s seed="$s" "$@" > "$W/m.csv" 2> /dev/null
        keep_cols "$W/m.csv" > "$W/k.csv"
        strip_ids "$W/k.csv" > "$W/bb.csv"
        one "seed=$s"
    done
else
    ebpf_trace "${1:-$R/../shared/data}" "$W"
    one ebpf
fi
