#!/bin/sh
# joint's conf_ratio_min (docs/joint/confidence_late.md, "The lower of the
# plain and the shuffled map (h232)"; algorithms/joint/selfcal/joint_cfmin.c), run
# on here with conf_copy_shuffle=1 and conf_ratio_copy=1.
# OnlineBoutique 06:35 with call ids, imported as experiments/joint_calib.sh
# does: with conf_ratio_min=0 the shuffled copy's map states 74 rows of 8
# requests (each with a wrong row) at about 0.91, [0.9, 0.95) is
# over-confident on requests (asserted, so the case cannot vanish); with
# conf_ratio_min=1 (the lower of the shuffled and the plain copy's maps) no
# bin is over-confident on requests, the metadata says so, and the
# assignment is the 0 run's byte for byte.
# Fails on a tree without the option (infer rejects it) and with
# PB_TEST_INFER="-s conf_ratio_min=0" (given after the options the test
# turns on).  Skipped when data/ lacks the minute.
. "$PB_ROOT/tests/sh/joint_lib.sh"
assign() { awk -F, '/^#/ { next } /^id,instance,rank,parent/ { t = 1; next }
                    t { print $1 "," $2 "," $3 "," $4 }' "$1"; }
reqs() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["true_instances"] }' "$1"; }
run() { # name, trace, infer args...
    n=$1; t=$2; shift 2
    "$B/infer" --algo joint -q $OLD_COPY "$@" -o "$tmp/$n" "$t" 2> "$tmp/log" || fail "infer $n: $(cat "$tmp/log")"
    "$B/score" --truth "$t" --reliability "$tmp/$n.rel" "$tmp/$n" > "$tmp/$n.row" || fail "score $n"
}
D="$PB_ROOT/data/nezha/onlineboutique/rca_2022-08-22_06_35.csv.gz"
if [ ! -f "$D" ]; then
    echo "SKIP test_joint_calib_min (no $D)"
    exit 0
fi
"$B/importtrace" -q --callid "$D" > "$tmp/raw.csv" 2> "$tmp/log" || fail "importtrace: $(cat "$tmp/log")"
keep_cols "$tmp/raw.csv" > "$tmp/ob.csv"
# conf_copy_events=0: its per-link map in units of a request's rows (h269)
# calibrates the 74 rows by itself; the case is conf_ratio_min's
S="-s conf_copy_shuffle=1 -s conf_ratio_copy=1 -s conf_copy_events=0"
# shellcheck disable=SC2086
run off "$tmp/ob.csv" $S -s conf_ratio_min=0
calib_over "$tmp/off.rel" "$(reqs "$tmp/off.row")" 0 > "$tmp/o" &&
    fail "06:35, conf_ratio_min=0: no bin over-confident any more (the case is gone): $(cat "$tmp/o")"
grep -q '^# conf_ratio_min=' "$tmp/off" && fail "conf_ratio_min=0 still said"
# shellcheck disable=SC2086
run on "$tmp/ob.csv" $S -s conf_ratio_min=1 ${PB_TEST_INFER:-}
calib_over "$tmp/on.rel" "$(reqs "$tmp/on.row")" 0 > "$tmp/o" ||
    fail "06:35: a bin over-confident on requests: $(cat "$tmp/o")"
grep -q '^# conf_ratio_min=1 lowered=[1-9]' "$tmp/on" ||
    fail "metadata: $(grep '^# conf_ratio_min' "$tmp/on")"
assign "$tmp/on" > "$tmp/a1"
assign "$tmp/off" > "$tmp/b1"
cmp -s "$tmp/a1" "$tmp/b1" || fail "06:35: the assignment differs from the 0 run's"
echo "PASS test_joint_calib_min"
