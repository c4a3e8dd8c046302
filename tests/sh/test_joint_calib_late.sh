#!/bin/sh
# joint's conf_sim_late (docs/joint/confidence_mid.md, "Calibration of late
# calls, twenty-second wave (h186)"; algorithms/joint/selfcal/joint_simlate.c):
# the self-calibration's copy takes the real trace's late-call decision.
# - experiments/joint_models_hedge.conf, 1 s, seed 1, black box: the real
#   trace widens frontend>log whole (late_chance), the copy's own late
#   test finds no late service; with conf_sim_late=0 a bin >= 0.5 is
#   over-confident (one-sided binomial test at 5 % on requests), with
#   conf_sim_late=1 none;
# - the assignment is conf_sim_late=0's byte for byte (confidence only).
# Fails on a tree without the option (infer rejects it) and with
# PB_TEST_INFER="-s conf_sim_late=0".
. "$PB_ROOT/tests/sh/joint_lib.sh"
assign() { awk -F, '/^#/ { next } /^id,instance,rank,parent/ { t = 1; next }
                    t { print $1 "," $2 "," $3 "," $4 }' "$1"; }
reqs() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["true_instances"] }' "$1"; }
"$B/maketrace" "$PB_ROOT/experiments/joint_models_hedge.conf" -s duration=1s > "$tmp/t.csv" 2> "$tmp/log" ||
    fail "maketrace: $(cat "$tmp/log")"
keep_cols "$tmp/t.csv" > "$tmp/k.csv"
strip_ids "$tmp/k.csv" > "$tmp/bb.csv"
"$B/infer" --algo joint -q $OLD_COPY -s conf_sim_late=0 -o "$tmp/b" "$tmp/bb.csv" 2> "$tmp/log" ||
    fail "infer conf_sim_late=0: $(cat "$tmp/log")"
"$B/score" --truth "$tmp/t.csv" --reliability "$tmp/brel" "$tmp/b" > "$tmp/brow" || fail "score"
calib_over "$tmp/brel" "$(reqs "$tmp/brow")" 0 > "$tmp/bo" &&
    fail "conf_sim_late=0 no longer over-confident here (the case is gone): $(cat "$tmp/bo")"
# shellcheck disable=SC2086
"$B/infer" --algo joint -q $OLD_COPY -s conf_sim_late=1 ${PB_TEST_INFER:-} -o "$tmp/a" "$tmp/bb.csv" \
    2> "$tmp/log" || fail "infer: $(cat "$tmp/log")"
"$B/score" --truth "$tmp/t.csv" --reliability "$tmp/arel" "$tmp/a" > "$tmp/arow" || fail "score"
calib_over "$tmp/arel" "$(reqs "$tmp/arow")" 0 || fail "a bin over-confident (requests)"
grep -q '^# late_link=frontend>log .*widen=all' "$tmp/a" || fail "frontend>log not widened"
assign "$tmp/a" > "$tmp/a1"
assign "$tmp/b" > "$tmp/b1"
cmp -s "$tmp/a1" "$tmp/b1" || fail "the assignment differs from conf_sim_late=0's"
echo "PASS test_joint_calib_late"
