#!/bin/sh
# joint's confidence after a loss with call ids (conf_anchor,
# joint_anchor.c; docs/joint/confidence.md, "The copy scores a row as the
# scorer does"): OnlineBoutique 06:35 with call ids, 2 % of its messages
# lost (sniffer seed 1), scored against the survivors' truth.  Every level
# of the reliability table is calibrated (before: rows stated >= 0.999
# 99.85 % right, 5 of 3,332 wrong: roots that lost their call, whose
# children went to other requests, and the scorer counts them wrong), the
# metadata says where the rule fired, and the assignment (instance, rank,
# parent) is the one conf_anchor=0 gives: the rule moves confidence only.
# On the same trace without loss it does not fire.  Fails with
# PB_TEST_INFER="-s conf_anchor=0".  Skipped when data/ lacks the trace.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
B="$PB_BIN"
for p in importtrace infer score sniffer; do [ -x "$B/$p" ] || exit 77; done
F="$PB_ROOT/data/nezha/onlineboutique/rca_2022-08-22_06_35.csv.gz"
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
"$B/infer" --algo joint -q ${PB_TEST_INFER:-} -o "$tmp/r" "$tmp/lossy.csv" 2> "$tmp/log" ||
    fail "infer: $(cat "$tmp/log")"
"$B/score" --truth "$tmp/ids.csv" --kept "$tmp/lossy.csv" --reliability "$tmp/rel" "$tmp/r" \
    > "$tmp/row" || fail "score"
r=$(awk -F, 'NR > 1 { printf "%s:%s:%s:%s ", $1, $7, $8, $9 }' "$tmp/rel")
echo "OB 06:35, 2 % loss, call ids (conf_low:rows_at_or_above:fraction_right:calibrated): $r"
awk -F, 'NR > 1 && $9 == "0" { f = 1 } END { exit f }' "$tmp/rel" || fail "not calibrated: $r"
grep -q '^# conf_anchor=1 copy_rows_owner_wrong=[0-9]* roots_without_call_not_by_construction=[1-9]' \
    "$tmp/r" || fail "no conf_anchor line"
"$B/infer" --algo joint -q -s conf_anchor=0 -o "$tmp/r0" "$tmp/lossy.csv" 2> "$tmp/log" ||
    fail "infer conf_anchor=0: $(cat "$tmp/log")"
assign "$tmp/r" > "$tmp/a1"
assign "$tmp/r0" > "$tmp/a0"
cmp -s "$tmp/a1" "$tmp/a0" || fail "the assignment differs from conf_anchor=0's"
"$B/infer" --algo joint -q -o "$tmp/rc" "$tmp/ids.csv" 2> "$tmp/log" || fail "infer clean"
grep -q '^# conf_anchor=1' "$tmp/rc" && fail "the rule fired on the trace without loss"
echo "PASS test_joint_calib_anchor"
