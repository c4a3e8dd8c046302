#!/bin/sh
# joint's conf_series (docs/joint/confidence_late.md, "A series of calls
# shifted by one request (h248)"; algorithms/joint/conf/joint_cfseries.c).
# experiments/joint_apps_retry.conf seed 12, 2 s, ns stamps, with call
# ids (joint_calib.sh's apps_retry-s12-ns ids): with conf_series=0 the
# receipt rows of a series shifted by one request are stated 0.99 or more
# and wrong (asserted, so the case cannot vanish); with conf_series=2 no
# wrong row is stated 0.99 or more, no bin is over-confident at 0.99 or
# more, the metadata says what was tried, and the assignment is the 0
# run's byte for byte.  Fails on a tree without the option (infer rejects
# it) and with PB_TEST_INFER="-s conf_series=0".
. "$PB_ROOT/tests/sh/joint_lib.sh"
assign() { awk -F, '/^#/ { next } /^id,instance,rank,parent/ { t = 1; next }
                    t { print $1 "," $2 "," $3 "," $4 }' "$1"; }
run() { # name, trace, infer args...
    n=$1; t=$2; shift 2
    "$B/infer" --algo joint -q $OLD_COPY "$@" -o "$tmp/$n" "$t" 2> "$tmp/log" || fail "infer $n: $(cat "$tmp/log")"
    "$B/score" --truth "$t" --reliability "$tmp/$n.rel" "$tmp/$n" > "$tmp/$n.row" || fail "score $n"
}
wrong99() { awk -F, 'NR > 1 && $1 + 0 >= 0.99 && $1 + 0 < 1 && $5 + 0 < $3 + 0 { bad = 1 } END { exit !bad }' "$1"; }
"$B/maketrace" "$PB_ROOT/experiments/joint_apps_retry.conf" -s seed=12 -s duration=2s \
    > "$tmp/raw.csv" 2> "$tmp/log" || fail "maketrace: $(cat "$tmp/log")"
keep_cols "$tmp/raw.csv" > "$tmp/r.csv"
run off "$tmp/r.csv" -s conf_series=0
wrong99 "$tmp/off.rel" || fail "retry s12, conf_series=0: no wrong row at 0.99 any more (the case is gone): $(cat "$tmp/off.rel")"
grep -q '^# conf_series=' "$tmp/off" && fail "conf_series=0 still said"
# shellcheck disable=SC2086
run on "$tmp/r.csv" -s conf_series=2 ${PB_TEST_INFER:-}
wrong99 "$tmp/on.rel" && fail "retry s12: a wrong row stated in [0.99, 1): $(cat "$tmp/on.rel")"
grep -q '^# conf_series=2 len=6 min=0.9 calls_tried=[1-9][0-9]* calls_with_series=[1-9][0-9]* shares_lowered=[1-9]' "$tmp/on" ||
    fail "metadata: $(grep '^# conf_series' "$tmp/on")"
assign "$tmp/on" > "$tmp/a1"
assign "$tmp/off" > "$tmp/b1"
cmp -s "$tmp/a1" "$tmp/b1" || fail "retry s12: the assignment differs from the 0 run's"
echo "PASS test_joint_calib_series"
