#!/bin/sh
# joint's conf_ratio_copy (docs/joint/confidence_late.md, "The doubt ratio
# beside a shuffled copy (h221)"; algorithms/joint/selfcal/joint_cfratio.c), run on
# here with conf_copy_shuffle=1.
# OnlineBoutique 17:00 with call ids, imported as experiments/joint_calib.sh
# does: with the shuffle and conf_ratio_copy=0 the shuffled copy doubts as
# much as the real trace but is no more often wrong, the doubt ratio falls
# (8.7 -> 1.7) and [0.95, 0.99) is over-confident on requests (about 6,000
# rows, 92 % right; asserted, so the case cannot vanish).  With
# conf_ratio_copy=1 (the ratio's copy side from a copy made without the
# shuffle) no bin is over-confident on requests, the metadata gives the
# ratio (above 4), and the assignment is the 0 run's byte for byte.
# experiments/joint_apps_shortlong.conf seed 3, 2 s, 1 ms, call ids (the
# shuffle's own case, test_joint_calib_shuffle): still no bin over-confident
# on requests with conf_ratio_copy=1.
# Fails on a tree without the option (infer rejects it) and with
# PB_TEST_INFER="-s conf_ratio_copy=0" (given after the options the test
# turns on).  The OnlineBoutique part is skipped when data/ lacks the minute.
. "$PB_ROOT/tests/sh/joint_lib.sh"
assign() { awk -F, '/^#/ { next } /^id,instance,rank,parent/ { t = 1; next }
                    t { print $1 "," $2 "," $3 "," $4 }' "$1"; }
reqs() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["true_instances"] }' "$1"; }
run() { # name, trace, infer args...
    n=$1; t=$2; shift 2
    "$B/infer" --algo joint -q $OLD_COPY "$@" -o "$tmp/$n" "$t" 2> "$tmp/log" || fail "infer $n: $(cat "$tmp/log")"
    "$B/score" --truth "$t" --reliability "$tmp/$n.rel" "$tmp/$n" > "$tmp/$n.row" || fail "score $n"
}
"$B/maketrace" "$PB_ROOT/experiments/joint_apps_shortlong.conf" -s seed=3 -s duration=2s \
    > "$tmp/t.csv" 2> "$tmp/log" || fail "maketrace: $(cat "$tmp/log")"
keep_cols "$tmp/t.csv" > "$tmp/k.csv"
"$B/skewer" -q --round 1ms "$tmp/k.csv" > "$tmp/s3.csv" || fail "skewer"
# shellcheck disable=SC2086
run sl "$tmp/s3.csv" -s conf_copy_shuffle=1 -s conf_ratio_copy=1 ${PB_TEST_INFER:-}
calib_over "$tmp/sl.rel" "$(reqs "$tmp/sl.row")" 0 > "$tmp/o" ||
    fail "shortlong seed 3: a bin over-confident on requests: $(cat "$tmp/o")"

D="$PB_ROOT/data/nezha/onlineboutique/construct_2022-08-23_17_00.csv.gz"
if [ -f "$D" ]; then
    "$B/importtrace" -q --callid "$D" > "$tmp/raw.csv" 2> "$tmp/log" || fail "importtrace: $(cat "$tmp/log")"
    keep_cols "$tmp/raw.csv" > "$tmp/ob.csv"
    run off "$tmp/ob.csv" -s conf_copy_shuffle=1 -s conf_ratio_copy=0
    calib_over "$tmp/off.rel" "$(reqs "$tmp/off.row")" 0 > "$tmp/o" &&
        fail "17:00, conf_ratio_copy=0: no bin over-confident any more (the case is gone): $(cat "$tmp/o")"
    grep -q '^# conf_ratio_copy=' "$tmp/off" && fail "conf_ratio_copy=0 still said"
    # shellcheck disable=SC2086
    run on "$tmp/ob.csv" -s conf_copy_shuffle=1 -s conf_ratio_copy=1 ${PB_TEST_INFER:-}
    calib_over "$tmp/on.rel" "$(reqs "$tmp/on.row")" 0 > "$tmp/o" ||
        fail "17:00: a bin over-confident on requests: $(cat "$tmp/o")"
    grep -q '^# conf_ratio_copy=1 copy_rows=[1-9][0-9]* ratio_all_links=[4-9]' "$tmp/on" ||
        fail "metadata: $(grep '^# conf_ratio_copy' "$tmp/on")"
    assign "$tmp/on" > "$tmp/a1"
    assign "$tmp/off" > "$tmp/b1"
    cmp -s "$tmp/a1" "$tmp/b1" || fail "17:00: the assignment differs from the 0 run's"
fi
echo "PASS test_joint_calib_ratio"
