#!/bin/sh
# joint_split.sh - where `infer --algo joint` spends its instructions on a
# trace: reading, the main searches (the busy test's simulated copies
# shown apart), the self-calibration's copy (its generation, its search,
# its shares) and the rest of the confidence, writing.  Runs the whole
# program once per trace under `valgrind --tool=callgrind` (instruction
# counts: repeatable on a loaded machine, unlike CPU seconds) and reads
# the inclusive costs of the calls from callgrind_annotate's call tree.
#
#   sh experiments/joint_split.sh [-s NAME=VALUE]... TRACE...
#
# -s options are passed to infer (e.g. -s conf_selfcal=0).  Give traces
# as experiments/joint_systems.sh imports them (black box: without call
# ids).  Columns (G instructions): total, read (pb_trace_load), main
# (joint_init: every search of the real trace, the busy test included),
# busy (joint_pick: its copies and counts), copy (the self-calibration's
# sim_points: gen = simulate, search = the copy's joint_init, shares =
# its raw_shares), conf (the real trace's confidence without the copy),
# write (pb_result_write); copy_pct = copy / total.  Environment: PB_BIN
# (default <repo>/bin).  Writes markdown to stdout.  A few minutes per
# OnlineBoutique minute.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${PB_BIN:=$ROOT/bin}"
OPTS=""
while [ $# -gt 0 ]; do
    case "$1" in
    -s) [ $# -ge 2 ] || { echo "joint_split: -s needs NAME=VALUE" >&2; exit 2; }
        OPTS="$OPTS -s $2"; shift ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; break ;;
    -*) echo "joint_split: unknown option '$1' (try --help)" >&2; exit 2 ;;
    *) break ;;
    esac
    shift
done
[ $# -gt 0 ] || { echo "joint_split: no trace (try --help)" >&2; exit 2; }
command -v valgrind > /dev/null && command -v callgrind_annotate > /dev/null ||
    { echo "joint_split: valgrind (callgrind) not installed" >&2; exit 1; }
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
echo "| trace | total | read | main | busy | copy | gen | search | shares | conf | write | copy_pct |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for t in "$@"; do
    # shellcheck disable=SC2086
    valgrind --tool=callgrind --callgrind-out-file="$W/cg" "$PB_BIN/infer" --algo joint -q \
        $OPTS -o "$W/r.csv" "$t" > "$W/log" 2>&1 ||
        { echo "joint_split: $t: infer failed: $(tail -1 "$W/log")" >&2; continue; }
    callgrind_annotate --tree=calling --inclusive=yes "$W/cg" > "$W/tree" 2> /dev/null
    callgrind_annotate "$W/cg" 2> /dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }' > "$W/tot"
    # the inclusive cost of callee C under caller F (its first line in F's block)
    awk -v tot="$(cat "$W/tot")" -v name="$(basename "$t")" '
        function get(f, c) { return (f SUBSEP c) in v ? v[f SUBSEP c] : 0 }
        /\*  / { cur = ""; n = split("programs/infer.c:main joint.c:joint_run joint.c:init_choose " \
                 "joint_selfcal.c:joint_selfcal joint_selfcal.c:sim_points", F, " ")
                 for (i = 1; i <= n; i++) if ($0 ~ (F[i] "( |$)")) cur = F[i]
                 next }
        /^$/ { cur = ""; next }
        cur != "" && />  / { x = $1; gsub(",", "", x)
                 n = split("pb_trace_load pb_result_write joint_init joint_paths joint_pick sim_points simulate raw_shares", C, " ")
                 for (i = 1; i <= n; i++) if (index($0, ":" C[i] " ") && !((cur SUBSEP C[i]) in v)) v[cur SUBSEP C[i]] = x }
        END {
            g = 1e9; main = get("joint.c:joint_run", "joint_init"); paths = get("joint.c:joint_run", "joint_paths")
            copy = get("joint_selfcal.c:joint_selfcal", "sim_points")
            printf "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.1f %% |\n", name,
                tot / g, get("programs/infer.c:main", "pb_trace_load") / g, main / g,
                get("joint.c:init_choose", "joint_pick") / g, copy / g,
                get("joint_selfcal.c:sim_points", "simulate") / g, get("joint_selfcal.c:sim_points", "joint_init") / g,
                get("joint_selfcal.c:sim_points", "raw_shares") / g, (paths - copy) / g,
                get("programs/infer.c:main", "pb_result_write") / g, (tot > 0 ? 100 * copy / tot : 0) }' "$W/tree"
done
