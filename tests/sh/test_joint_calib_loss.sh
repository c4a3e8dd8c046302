#!/bin/sh
# joint's confidence after a loss the search did not place (conf_sim_loss,
# joint_calibloss.c; docs/joint/confidence.md, "The copy loses what the
# search did not place"): hotel load 100 as a black box, 2 % of its
# messages lost (sniffer seed 1), scored against the survivors' truth.
# Every level of the reliability table is calibrated (before: among the 21
# rows stated 1, 61.9 % right, "right at >= 0.999" not calibrated), the
# metadata says the copy lost more, and the assignment (instance, rank,
# parent) is the one conf_sim_loss=0 gives: the rule moves confidence
# only.  On the same trace without loss the rule does not fire (no
# conf_sim_loss line).  Fails with -s conf_sim_loss=0.
# Skipped when data/ does not hold the hotel traces.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
B="$PB_BIN"
for p in importtrace infer score sniffer; do [ -x "$B/$p" ] || exit 77; done
F="$PB_ROOT/data/deathstarbench-hotel/hotel_load100.tar.xz"
[ -f "$F" ] || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
. "$PB_ROOT/experiments/trace_cols.sh"   # keep_cols, strip_ids: as experiments/joint_calib.sh makes its traces
assign() { awk -F, '/^#/ { next } /^id,instance,rank,parent/ { t = 1; next }
                    t { print $1 "," $2 "," $3 "," $4 }' "$1"; }
"$B/importtrace" -q --callid "$F" > "$tmp/raw.csv" 2> "$tmp/log" || fail "importtrace: $(cat "$tmp/log")"
keep_cols "$tmp/raw.csv" > "$tmp/ids.csv"
"$B/sniffer" -q -p 0.02 --seed 1 "$tmp/ids.csv" > "$tmp/lossy.csv" || fail "sniffer"
strip_ids "$tmp/lossy.csv" > "$tmp/bb.csv"
strip_ids "$tmp/ids.csv" > "$tmp/bb.orig.csv"
"$B/infer" --algo joint -q ${PB_TEST_INFER:-} -o "$tmp/r" "$tmp/bb.csv" 2> "$tmp/log" ||
    fail "infer: $(cat "$tmp/log")"
"$B/score" --truth "$tmp/bb.orig.csv" --kept "$tmp/bb.csv" --reliability "$tmp/rel" "$tmp/r" \
    > "$tmp/row" || fail "score"
r=$(awk -F, 'NR > 1 { printf "%s:%s:%s:%s ", $1, $7, $8, $9 }' "$tmp/rel")
echo "hotel load 100, 2 % loss, black box (conf_low:rows_at_or_above:fraction_right:calibrated): $r"
awk -F, 'NR > 1 && $9 == "0" { f = 1 } END { exit f }' "$tmp/rel" || fail "not calibrated: $r"
grep -q '^# conf_sim_loss=1 loss_rate_est=' "$tmp/r" || fail "no conf_sim_loss line"
"$B/infer" --algo joint -q -s conf_sim_loss=0 -o "$tmp/r0" "$tmp/bb.csv" 2> "$tmp/log" ||
    fail "infer conf_sim_loss=0: $(cat "$tmp/log")"
assign "$tmp/r" > "$tmp/a1"
assign "$tmp/r0" > "$tmp/a0"
cmp -s "$tmp/a1" "$tmp/a0" || fail "the assignment differs from conf_sim_loss=0's"
"$B/infer" --algo joint -q -o "$tmp/rc" "$tmp/bb.orig.csv" 2> "$tmp/log" || fail "infer clean"
grep -q '^# conf_sim_loss=1' "$tmp/rc" && fail "the rule fired on the trace without loss"
echo "PASS test_joint_calib_loss"
