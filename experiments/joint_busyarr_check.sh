#!/bin/sh
# experiments/joint_busyarr_check.sh - evaluation only (h270; docs/joint/
# shapes_late.md "The busy test fooled by a solution's smeared durations"):
# black-box traces of maketrace configs, joint with busy_arr=1 and, where
# it withdrew a busy-test verdict, busy_arr=0 too (elsewhere the two are
# the same by construction); -s conf_selfcal=0 (exact accuracy only).
#   sh experiments/joint_busyarr_check.sh PREFIX "CONFIGS" "SEEDS" "VARIANTS" OUT.csv
# e.g. joint_models_ "pool event" "53 54" "x1:ns x2:1us x2:1ms" out.csv
# (variants as the audits': xL:ns|1us|1ms, L the instances_scale).
# Appends rows: config,seed,variant,blackbox,exact busy_arr=0,exact
# busy_arr=1,verdicts withdrawn,verdicts kept,the busy_arr= lines.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/experiments/trace_cols.sh"
: "${PB_BIN:=$ROOT/bin}"
B=$PB_BIN; W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
ex() { "$B/score" --truth "$1" "$2" 2> /dev/null |
       awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{print $(c["exact_accuracy"])}'; }
for c in $2; do for s in $3; do for v in $4; do
    l=${v%%:*}; st=${v#*:}
    "$B/maketrace" "$ROOT/experiments/$1$c.conf" -s seed="$s" -s duration=2s \
        -s instances_scale="${l#x}" > "$W/raw.csv" 2> /dev/null || continue
    keep_cols "$W/raw.csv" > "$W/g.csv"
    case $st in ns) cp "$W/g.csv" "$W/v.csv" ;; *) "$B/skewer" -q --round "$st" "$W/g.csv" > "$W/v.csv" ;; esac
    strip_ids "$W/v.csv" > "$W/bb.csv"
    "$B/infer" --algo joint -s conf_selfcal=0 -s busy_arr=1 -o "$W/r1" "$W/bb.csv" 2> /dev/null
    a1=$(ex "$W/v.csv" "$W/r1"); a0=$a1
    nw=$(grep -c '^# busy_arr=.*withdrawn' "$W/r1"); nk=$(grep -c '^# busy_arr=.*kept' "$W/r1")
    if [ "$nw" -gt 0 ]; then
        "$B/infer" --algo joint -s conf_selfcal=0 -s busy_arr=0 -o "$W/r0" "$W/bb.csv" 2> /dev/null
        a0=$(ex "$W/v.csv" "$W/r0")
    fi
    echo "$c,$s,$v,blackbox,$a0,$a1,$nw,$nk,$(grep '^# busy_arr=' "$W/r1" | sed 's/^# //' | tr '\n' ';')" >> "$5"
done; done; done
