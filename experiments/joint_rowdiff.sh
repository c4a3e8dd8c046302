#!/bin/sh
# joint_rowdiff.sh - evaluation only: one row of a held-out audit (a trace
# the audit kept with --keep, with call ids and truth) looked at request
# by request: joint and OTHER run as the audit runs them (black box: call
# ids emptied), then joint_rowdiff.py (the requests each gets right alone
# and where the other went wrong), joint's busy-test and choice lines, and
# the log-likelihood under joint's model of the truth's, joint's and
# OTHER's pairings (joint_ebpf_toss.py ids; a call's return is paired
# with the call on the reversed link in its instance, so on a request
# with two calls on one link the pairing is approximate).
# docs/joint/shapes_late.md, "Held-out seeds 55-56 of apps and models3,
# every method (h265)".
#   sh experiments/joint_rowdiff.sh KEPT_TRACE ids|blackbox OTHER [infer options for joint...]
set -e
[ $# -ge 3 ] || { sed -n '2,14p' "$0" >&2; exit 2; }
R=$(cd "$(dirname "$0")/.." && pwd)
B=${PB_BIN:-$R/bin}
PY="python3 $R/experiments/joint_ebpf_toss.py"
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
. "$R/experiments/trace_cols.sh"
tr=$1 mode=$2 other=$3; shift 3
case $mode in
ids) cp "$tr" "$W/t.csv" ;;
blackbox) strip_ids "$tr" > "$W/t.csv" ;;
*) echo "joint_rowdiff: mode '$mode': ids or blackbox" >&2; exit 2 ;;
esac
"$B/infer" --algo joint "$@" -o "$W/joint.csv" "$W/t.csv" 2> /dev/null
"$B/infer" --algo "$other" -o "$W/other.csv" "$W/t.csv" 2> /dev/null
python3 "$R/experiments/joint_rowdiff.py" "$tr" "$W/joint.csv" "$W/other.csv" "$other"
grep -E '^# (busy_test|busy_service|chosen|held|search_choice)' "$W/joint.csv" | cut -c1-200 || true
for p in truth joint other; do
    if [ $p = truth ]; then $PY ids "$tr" > "$W/i.csv"
    else $PY ids "$tr" "$W/$p.csv" > "$W/i.csv"; fi
    "$B/infer" --algo joint -o "$W/i.out" "$W/i.csv" 2> /dev/null
    echo "pairing=$p $(sed -n 's/^# log_likelihood=/log_likelihood=/p' "$W/i.out")"
done
