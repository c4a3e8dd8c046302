# experiments/cost.sh - sourced by the scripts that state what they cost:
# they print what this run took instead of a number typed once (issue 27).
#   . "$ROOT/experiments/cost.sh"      (records the start)
#   ...
#   pb_cost_report NAME                 (prints one line on stderr)
# The line: wall seconds, CPU seconds (user + system of the script and of
# every process it waited for, from the shell's `times`), the cores and the
# load average at the start and the end, so that a number a user reads
# comes with the conditions it was measured under.
pb_cost_t0=$(date +%s)
pb_cost_l0=$(awk '{ print $1 }' /proc/loadavg 2>/dev/null || echo "?")

pb_cost_report() {
    _w=$(( $(date +%s) - pb_cost_t0 ))
    _l1=$(awk '{ print $1 }' /proc/loadavg 2>/dev/null || echo "?")
    _n=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo "?")
    # `times`: two lines, this shell then its children, "XmY.YYYs XmY.YYYs";
    # run in this shell (a pipe or $(...) would time a subshell)
    _f=$(mktemp) || return 0
    times >"$_f"
    _c=$(awk 'function s(t,   m) { m = t; sub(/m.*/, "", m); sub(/^[0-9]+m/, "", t); sub(/s$/, "", t); return m * 60 + t }
                      { c += s($1) + s($2) } END { printf "%.1f", c }' "$_f")
    rm -f "$_f"
    echo "$1: took ${_w} s wall, ${_c} CPU s (user + system, every process included) on $_n cores, load average $pb_cost_l0 at the start, $_l1 at the end" >&2
}
