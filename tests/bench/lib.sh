# Shared by tests/bench/bench_*.sh (sourced).
#
# speed_row KEY WHAT GOAL MEASURED PAPERS [VERDICT]: a row of the speed
# table (out/bench/speed.md; README only when asked, tests/bench/run.sh),
# sorted by KEY.  VERDICT is what `verdict` printed: met, missed or "-"
# (nothing measured against the goal).
speed_row() {
    [ -n "${PB_BENCH_MD:-}" ] &&
        printf '%s\t| %s | %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" "${6:--}" "$5" >>"$PB_BENCH_MD"
    return 0
}

# verdict VALUE OP LIMIT [VALUE OP LIMIT ...]: "met" when every VALUE OP
# LIMIT holds (OP one of < <= > >=), "missed" when one does not, "-" when
# no VALUE was measured (empty or "-").  Only the numbers a goal names are
# checked: a goal's words ("flat memory", "linear time") are not.
verdict() {
    awk 'BEGIN {
        ok = 1; n = 0
        for (i = 1; i + 2 < ARGC; i += 3) {
            v = ARGV[i]; op = ARGV[i + 1]; l = ARGV[i + 2] + 0
            if (v == "" || v == "-") continue
            n++; v += 0
            if ((op == "<" && !(v < l)) || (op == "<=" && !(v <= l)) ||
                (op == ">" && !(v > l)) || (op == ">=" && !(v >= l))) ok = 0
        }
        print n ? (ok ? "met" : "missed") : "-"
        exit 0
    }' "$@"
}
