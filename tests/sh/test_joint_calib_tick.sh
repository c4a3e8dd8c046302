#!/bin/sh
# joint's conf_copy_tick (default 1; docs/joint/confidence_late.md, "The copy at
# the trace's own tick, spread as the trace was (h201)"; algorithms/joint/selfcal/
# joint_cftick.c): where subtick spread the trace's rows over their coarse
# ticks, the calibration's copy is cut to the same tick, its tied rows in
# the order of its events, and spread the same way.
# experiments/joint_apps_shortlong.conf, 2 s, seed 1, rounded to 1 ms, with
# call ids: with conf_copy_tick=0 the copy is exact (the spread stamps'
# tick) and [0.99, 0.999) is over-confident on requests (1,146 rows, 94.4 %
# right; asserted, so the case cannot vanish).  With the default no bin is
# over-confident on requests or rows, the metadata says the copy was cut
# to 1 ms and spread, and the assignment is conf_copy_tick=0's byte for
# byte (confidence only).  Hotel load 25 rounded to 10 ms as a black box
# where the data is: no bin over-confident on requests (conf_copy_tick=0:
# [0.9, 0.95) 124 rows stated 0.930, 54.0 % right).  Fails on a tree
# without the option (infer rejects it) and with
# PB_TEST_INFER="-s conf_copy_tick=0".
. "$PB_ROOT/tests/sh/joint_lib.sh"
assign() { awk -F, '/^#/ { next } /^id,instance,rank,parent/ { t = 1; next }
                    t { print $1 "," $2 "," $3 "," $4 }' "$1"; }
reqs() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["true_instances"] }' "$1"; }
"$B/maketrace" "$PB_ROOT/experiments/joint_apps_shortlong.conf" -s seed=1 -s duration=2s > "$tmp/t.csv" \
    2> "$tmp/log" || fail "maketrace: $(cat "$tmp/log")"
keep_cols "$tmp/t.csv" > "$tmp/k.csv"
"$B/skewer" -q --round 1ms "$tmp/k.csv" > "$tmp/r.csv" || fail "skewer"
# conf_copy_shuffle=0 in the baseline: the copy that shuffles overlapping
# requests' calls (joint_cfshuf.c) calibrates this case by itself
"$B/infer" --algo joint -q $OLD_COPY -s conf_copy_tick=0 -s conf_copy_shuffle=0 -o "$tmp/b" "$tmp/r.csv" 2> "$tmp/log" ||
    fail "infer conf_copy_tick=0: $(cat "$tmp/log")"
"$B/score" --truth "$tmp/r.csv" --reliability "$tmp/brel" "$tmp/b" > "$tmp/brow" || fail "score"
calib_over "$tmp/brel" "$(reqs "$tmp/brow")" 0 > "$tmp/bo" &&
    fail "conf_copy_tick=0: no bin over-confident any more (the case is gone): $(cat "$tmp/bo")"
grep -q '^# conf_copy_tick=1' "$tmp/b" && fail "conf_copy_tick=0 still said"
# shellcheck disable=SC2086
"$B/infer" --algo joint -q $OLD_COPY ${PB_TEST_INFER:-} -o "$tmp/a" "$tmp/r.csv" 2> "$tmp/log" ||
    fail "infer: $(cat "$tmp/log")"
"$B/score" --truth "$tmp/r.csv" --reliability "$tmp/arel" "$tmp/a" > "$tmp/arow" || fail "score"
calib_over "$tmp/arel" "$(reqs "$tmp/arow")" 1 > "$tmp/ao" ||
    fail "a bin over-confident (requests or rows): $(cat "$tmp/ao")"
grep -q '^# conf_copy_tick=1 tick_ns=1000000 copies=1 copies_spread=1 ' "$tmp/a" ||
    fail "metadata: $(grep '^# conf_copy_tick' "$tmp/a")"
assign "$tmp/a" > "$tmp/a1"
assign "$tmp/b" > "$tmp/b1"
cmp -s "$tmp/a1" "$tmp/b1" || fail "the assignment differs from conf_copy_tick=0's"

H="$PB_ROOT/data/deathstarbench-hotel/hotel_load25.tar.xz"
if [ -f "$H" ]; then
    "$B/importtrace" -q --callid "$H" > "$tmp/raw.csv" 2> "$tmp/log" || fail "importtrace: $(cat "$tmp/log")"
    keep_cols "$tmp/raw.csv" > "$tmp/ids.csv"
    "$B/skewer" -q --round 10ms "$tmp/ids.csv" > "$tmp/h10.csv" || fail "skewer hotel"
    strip_ids "$tmp/h10.csv" > "$tmp/hbb.csv"
    # shellcheck disable=SC2086
    "$B/infer" --algo joint -q ${PB_TEST_INFER:-} -o "$tmp/h" "$tmp/hbb.csv" 2> "$tmp/log" ||
        fail "infer hotel: $(cat "$tmp/log")"
    "$B/score" --truth "$tmp/hbb.csv" --reliability "$tmp/hrel" "$tmp/h" > "$tmp/hrow" || fail "score hotel"
    calib_over "$tmp/hrel" "$(reqs "$tmp/hrow")" 0 > "$tmp/ho" ||
        fail "hotel load 25 at 10 ms: a bin over-confident (requests): $(cat "$tmp/ho")"
fi
echo "PASS test_joint_calib_tick"
