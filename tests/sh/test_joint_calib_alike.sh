#!/bin/sh
# joint's conf_alike (docs/joint/confidence_late.md, "Calls alike in two
# requests (h242)"; algorithms/joint/conf/joint_cfalike.c).
# experiments/joint_apps_retry.conf seed 12, 2 s, ns stamps, with call
# ids (joint_calib.sh's apps_retry-s12-ns ids): with conf_alike=0 three
# requests' receipt rows (a series shifted by one request) are stated
# 0.99 and wrong, [0.99, 0.999) over-confident on requests (asserted, so
# the case cannot vanish); with conf_alike=1 no bin is over-confident on
# requests, no row is stated 0.95 or more and wrong, the metadata says
# what was capped, and the assignment is the 0 run's byte for byte.
# Fails on a tree without the option (infer rejects it) and with
# PB_TEST_INFER="-s conf_alike=0" (given after the option the test turns on).
. "$PB_ROOT/tests/sh/joint_lib.sh"
assign() { awk -F, '/^#/ { next } /^id,instance,rank,parent/ { t = 1; next }
                    t { print $1 "," $2 "," $3 "," $4 }' "$1"; }
reqs() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["true_instances"] }' "$1"; }
run() { # name, trace, infer args...
    n=$1; t=$2; shift 2
    "$B/infer" --algo joint -q $OLD_COPY "$@" -o "$tmp/$n" "$t" 2> "$tmp/log" || fail "infer $n: $(cat "$tmp/log")"
    "$B/score" --truth "$t" --reliability "$tmp/$n.rel" "$tmp/$n" > "$tmp/$n.row" || fail "score $n"
}
"$B/maketrace" "$PB_ROOT/experiments/joint_apps_retry.conf" -s seed=12 -s duration=2s \
    > "$tmp/raw.csv" 2> "$tmp/log" || fail "maketrace: $(cat "$tmp/log")"
keep_cols "$tmp/raw.csv" > "$tmp/r.csv"
run off "$tmp/r.csv" -s conf_alike=0
calib_over "$tmp/off.rel" "$(reqs "$tmp/off.row")" 0 > "$tmp/o" &&
    fail "retry s12, conf_alike=0: no bin over-confident any more (the case is gone): $(cat "$tmp/o")"
grep -q '^# conf_alike=' "$tmp/off" && fail "conf_alike=0 still said"
# shellcheck disable=SC2086
run on "$tmp/r.csv" -s conf_alike=1 ${PB_TEST_INFER:-}
calib_over "$tmp/on.rel" "$(reqs "$tmp/on.row")" 0 > "$tmp/o" ||
    fail "retry s12: a bin over-confident on requests: $(cat "$tmp/o")"
awk -F, '$1 + 0 >= 0.95 && $1 + 0 < 1 && $5 + 0 < $3 + 0 { bad = 1 } END { exit !bad }' "$tmp/on.rel" &&
    fail "retry s12: a wrong row stated in [0.95, 1): $(cat "$tmp/on.rel")"
grep -q '^# conf_alike=1 tie=1 real_alike=[1-9][0-9]* copy_alike=[1-9][0-9]* copy_alike_right=[0-9]* rows_capped=[1-9]' "$tmp/on" ||
    fail "metadata: $(grep '^# conf_alike' "$tmp/on")"
assign "$tmp/on" > "$tmp/a1"
assign "$tmp/off" > "$tmp/b1"
cmp -s "$tmp/a1" "$tmp/b1" || fail "retry s12: the assignment differs from the 0 run's"
echo "PASS test_joint_calib_alike"
