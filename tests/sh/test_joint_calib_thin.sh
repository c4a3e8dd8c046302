#!/bin/sh
# The calibration's second copy where the first cannot test the real rows'
# levels (conf_sims_auto, joint_selfcal.c; docs/joint/confidence.md,
# "Calibration, twenty-second wave").  experiments/joint_calib_thin.conf
# (a lightly loaded hotel-like application, a slow reservation call now and
# then) rounded to 10 ms, as a black box: with one copy the rows stated
# [0.9, 0.95) are 12 rows, 4 right (one-sided binomial test on rows at 5 %:
# over-confident); the first copy holds fewer than 30 rows in the band of
# 6.4 % of the real rows, so conf_sims_auto=1 pools a second copy and no
# bin of 0.5 or more is over-confident, on rows (the issue's claim: among
# the rows stated c at least c right) or on requests.  The metadata says
# why; the assignment is conf_sims_auto=0's (confidence only) and the
# confidences are conf_sims=2's (the rule only chooses the number of
# copies).  Where the data is there, hotel load 25 rounded to 10 ms as a
# black box (main's one over-confident real cell, [0.9, 0.95) 124 rows 54 %
# right) passes the request-level test of experiments/joint_calib.sh.
# Fails on main (no option) and with PB_TEST_INFER="-s conf_sims_auto=0".
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
. "$PB_ROOT/tests/sh/joint_lib.sh"
[ -x "$B/importtrace" ] || exit 77
assign() { awk -F, '/^#/ { next } /^id,instance,rank,parent/ { t = 1; next }
                    t { print $1 "," $2 "," $3 "," $4 }' "$1"; }
conf() { awk -F, '/^#/ { next } /^id,instance,rank,parent/ { t = 1; next }
                  t { print $1 "," $5 }' "$1"; }
reqs() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["true_instances"] }' "$1"; }

"$B/maketrace" "$PB_ROOT/experiments/joint_calib_thin.conf" > "$tmp/t.csv" 2> "$tmp/log" ||
    fail "maketrace: $(cat "$tmp/log")"
"$B/skewer" -q --round 10ms "$tmp/t.csv" > "$tmp/r.csv" || fail "skewer"
strip_ids "$tmp/r.csv" > "$tmp/bb.csv"
# shellcheck disable=SC2086
"$B/infer" --algo joint -q -s conf_sims_auto=1 ${PB_TEST_INFER:-} -o "$tmp/a" "$tmp/bb.csv" \
    2> "$tmp/log" || fail "infer: $(cat "$tmp/log")"
"$B/score" --truth "$tmp/bb.csv" --reliability "$tmp/rel" "$tmp/a" > "$tmp/row" || fail "score"
calib_over "$tmp/rel" "$(reqs "$tmp/row")" 1 || fail "a bin over-confident (one-sided binomial test at 5 %)"
grep -q '^# conf_sims_auto=1 copies=2 rows=[0-9]* thin_rows=[0-9]* thin_share=0\.0[5-9]' "$tmp/a" ||
    fail "no second copy said: $(grep '^# conf_sims_auto' "$tmp/a")"
"$B/infer" --algo joint -q -s conf_sims_auto=0 -o "$tmp/b" "$tmp/bb.csv" 2> "$tmp/log" ||
    fail "infer conf_sims_auto=0: $(cat "$tmp/log")"
assign "$tmp/a" > "$tmp/a1"
assign "$tmp/b" > "$tmp/b1"
cmp -s "$tmp/a1" "$tmp/b1" || fail "the assignment differs from conf_sims_auto=0's"
"$B/infer" --algo joint -q -s conf_sims=2 -o "$tmp/c" "$tmp/bb.csv" 2> "$tmp/log" ||
    fail "infer conf_sims=2: $(cat "$tmp/log")"
conf "$tmp/a" > "$tmp/a2"
conf "$tmp/c" > "$tmp/c2"
cmp -s "$tmp/a2" "$tmp/c2" || fail "the confidences differ from conf_sims=2's"

H="$PB_ROOT/data/deathstarbench-hotel/hotel_load25.tar.xz"
if [ -f "$H" ]; then
    "$B/importtrace" -q --callid "$H" > "$tmp/raw.csv" 2> "$tmp/log" || fail "importtrace: $(cat "$tmp/log")"
    keep_cols "$tmp/raw.csv" > "$tmp/ids.csv"
    "$B/skewer" -q --round 10ms "$tmp/ids.csv" > "$tmp/h10.csv" || fail "skewer hotel"
    strip_ids "$tmp/h10.csv" > "$tmp/hbb.csv"
    # shellcheck disable=SC2086
    "$B/infer" --algo joint -q -s conf_sims_auto=1 ${PB_TEST_INFER:-} -o "$tmp/h" "$tmp/hbb.csv" \
        2> "$tmp/log" || fail "infer hotel: $(cat "$tmp/log")"
    "$B/score" --truth "$tmp/hbb.csv" --reliability "$tmp/hrel" "$tmp/h" > "$tmp/hrow" || fail "score hotel"
    calib_over "$tmp/hrel" "$(reqs "$tmp/hrow")" 0 || fail "hotel load 25 at 10 ms: a bin over-confident (requests)"
fi
echo "PASS test_joint_calib_thin"
