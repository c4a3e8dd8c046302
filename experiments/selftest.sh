#!/bin/sh
# selftest.sh - a figure that needs no pathbench program: it exercises the
# job list, resume and collect logic (tests/sh/test_experiments_runner.sh).
# y = x*x + seed; a point fails when the file named by PB_SELFTEST_FAIL
# exists and names its key.
FIG=selftest
FIG_TITLE="framework self-test (y = x^2 + seed)"
FIG_HOW="awk arithmetic, no programs"
. "$(dirname "$0")/lib.sh"

fig_points() {
    for s in a b; do
        for x in $(seq_list 1 "$(mode_pick 5 4 3)"); do
            for seed in $(seeds 2); do
                point "$s-x$x-s$seed" series=$s x=$x seed=$seed
            done
        done
    done
}

fig_run() {
    if [ -n "${PB_SELFTEST_FAIL:-}" ] && grep -qx "$P_series-x$P_x-s$P_seed" "$PB_SELFTEST_FAIL" 2>/dev/null; then
        echo "selftest: asked to fail" >&2
        return 1
    fi
    [ -n "${PB_SELFTEST_SLEEP:-}" ] && sleep "$PB_SELFTEST_SLEEP"
    echo "series,x,seed,y"
    awk -v s="$P_series" -v x="$P_x" -v seed="$P_seed" 'BEGIN { print s "," x "," seed "," x * x + seed }'
}

fig_collect() {
    aggregate "$OUT/$FIG.dat" series x y
}

pb_main "$@"
