#!/bin/sh
# precise_capture.sh - every method on the eBPF capture
# (../shared/data/deeptrace-ebpf/rps100-spans.json.gz; docs/importer.md,
# "Syscall captures"), imported as is and with --callid (the connection
# position as call id), scored by exact reconstruction; and vpath's paper
# variant's self-report (violations, flagged instances, wrong requests
# without a flag).  Writes the table of docs/precise.md ("Measured") to
# stdout as Markdown.  About 2 s wall (1.5 s at load 4).
#
#   sh experiments/precise_capture.sh [CAPTURE]
#
# Environment: PB_BIN (programs, default <repo>/bin).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${PB_BIN:=$ROOT/bin}"
cap=${1:-$ROOT/../shared/data/deeptrace-ebpf/rps100-spans.json.gz}
[ -f "$cap" ] || { echo "precise_capture: no capture $cap" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
"$PB_BIN/importtrace" -q -o "$tmp/e.csv" "$cap"
"$PB_BIN/importtrace" -q --callid -o "$tmp/ec.csv" "$cap"
exact() {
    # shellcheck disable=SC2086
    "$PB_BIN/infer" --algo $1 -o "$tmp/r.res" "$2" 2>/dev/null
    "$PB_BIN/score" --truth "$2" "$tmp/r.res" |
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "exact_accuracy") c = i }
                 NR == 2 { printf "%.1f", 100 * $c }'
}
echo "| method | imported as is | with \`--callid\` |"
echo "|---|---:|---:|"
while IFS='|' read -r name args; do
    echo "| $name | $(exact "$args" "$tmp/e.csv") | $(exact "$args" "$tmp/ec.csv") |"
done <<'METHODS'
oracle|truth
vpath `paper`|vpath -s variant=paper
vpath `artifact`|vpath
vpath `clean`|vpath -s variant=clean
borderpatrol (thread)|borderpatrol
borderpatrol (node)|borderpatrol -s context=node
fcfs|fcfs
arrival|arrival
wap5tw|wap5tw
nesting|nesting
linking|linking
joint|joint
METHODS
"$PB_BIN/infer" --algo vpath -s variant=paper --report "$tmp/rep" -o "$tmp/v.res" "$tmp/e.csv" 2>/dev/null
echo
grep -h '^# violation_' "$tmp/v.res" | sed 's/^# //'
awk -F, -f "$ROOT/experiments/flag_check.awk" "$tmp/rep" "$tmp/v.res" "$tmp/e.csv"
