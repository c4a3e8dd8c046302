#!/bin/sh
# The calibration's copy as large as a small trace (conf_sim_whole,
# joint_selfcal.c; docs/joint/confidence.md, "The copy as large as a small
# trace").  Hotel load 25 rounded to 10 ms, as a black box: about ten
# requests in a thousand cross at the frontend (a three-way rotation of
# the reservation pairs, two requests' tails exchanged), stated 0.90-0.94
# by the shares; the default copy (2,000 of the 6,000 pairs) sees two or
# three of them and its map keeps the share (bin [0.9, 0.95): 124 rows,
# 54 % right).  With -s conf_sim_whole=10000 the copy is the whole trace:
# no bin of the reliability table over-confident by the request-level
# one-sided binomial test at 5 % that experiments/joint_calib.sh applies
# (rows per request m, n = rows / m requests, k = n x share right); the
# metadata line says the copy was whole; the assignment is the one
# conf_sim_whole=0 gives (confidence only).  Fails on main (no option) and
# with PB_TEST_INFER="-s conf_sim_whole=0".  Skipped without the data.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
B="$PB_BIN"
for p in importtrace infer score skewer; do [ -x "$B/$p" ] || exit 77; done
H="$PB_ROOT/data/deathstarbench-hotel/hotel_load25.tar.xz"
[ -f "$H" ] || exit 77
. "$PB_ROOT/tests/sh/joint_lib.sh"
. "$PB_ROOT/experiments/trace_cols.sh"
assign() { awk -F, '/^#/ { next } /^id,instance,rank,parent/ { t = 1; next }
                    t { print $1 "," $2 "," $3 "," $4 }' "$1"; }
"$B/importtrace" -q --callid "$H" > "$tmp/raw.csv" 2> "$tmp/log" || fail "importtrace: $(cat "$tmp/log")"
keep_cols "$tmp/raw.csv" > "$tmp/ids.csv"
"$B/skewer" -q --round 10ms "$tmp/ids.csv" > "$tmp/r10.csv" || fail "skewer"
strip_ids "$tmp/r10.csv" > "$tmp/bb.csv"
# shellcheck disable=SC2086
"$B/infer" --algo joint -q -s conf_sim_whole=10000 ${PB_TEST_INFER:-} -o "$tmp/r" "$tmp/bb.csv" \
    2> "$tmp/log" || fail "infer: $(cat "$tmp/log")"
"$B/score" --truth "$tmp/bb.csv" --reliability "$tmp/rel" "$tmp/r" > "$tmp/row" || fail "score"
calib_over "$tmp/rel" 1000 0 || fail "a bin over-confident (request-level test at 5 %)"
grep -q '^# conf_sim_whole=10000 copy_pairs=6000 ' "$tmp/r" ||
    fail "no conf_sim_whole metadata line: $(grep '^# conf_sim' "$tmp/r")"
"$B/infer" --algo joint -q -s conf_sim_whole=0 -o "$tmp/r0" "$tmp/bb.csv" 2> "$tmp/log" ||
    fail "infer conf_sim_whole=0: $(cat "$tmp/log")"
assign "$tmp/r" > "$tmp/a1"
assign "$tmp/r0" > "$tmp/a0"
cmp -s "$tmp/a1" "$tmp/a0" || fail "the assignment differs from conf_sim_whole=0's"
echo "PASS test_joint_calib_whole"
