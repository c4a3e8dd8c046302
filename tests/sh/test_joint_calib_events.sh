#!/bin/sh
# joint's conf_copy_events (docs/joint/confidence_late.md, "Copy errors
# counted by the request (h269)"; algorithms/joint/selfcal/joint_cfev.c).
# OnlineBoutique 03:53 with call ids at conf_seed=2 (where the data is):
# the self-calibration's copy at that seed happens to be right on every
# currency, cart and ad call (its errors come as whole chains of frontend
# calls, and this draw holds almost none), so the plain map states 6,492
# rows 0.97 of which 91.6 % are right.  conf_copy_events=0: the
# [0.95, 0.99) bin over-confident on requests (asserted, so the case
# cannot vanish); conf_copy_events=2: no bin over-confident on requests,
# the metadata says what was lowered, and the assignment is the 0 run's
# byte for byte.  Fails on a tree without the option (infer rejects it)
# and with PB_TEST_INFER="-s conf_copy_events=0".
. "$PB_ROOT/tests/sh/joint_lib.sh"
assign() { awk -F, '/^#/ { next } /^id,instance,rank,parent/ { t = 1; next }
                    t { print $1 "," $2 "," $3 "," $4 }' "$1"; }
reqs() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["true_instances"] }' "$1"; }
T="$PB_ROOT/data/nezha/onlineboutique/rca_2022-08-22_03_53.csv.gz"
if [ ! -f "$T" ]; then
    echo "PASS test_joint_calib_events (no OnlineBoutique data: skipped)"
    exit 0
fi
"$B/importtrace" -q --callid "$T" > "$tmp/raw.csv" 2> "$tmp/log" || fail "importtrace: $(cat "$tmp/log")"
keep_cols "$tmp/raw.csv" > "$tmp/ids.csv"
run() { # name, infer args...
    n=$1; shift
    "$B/infer" --algo joint -q -s conf_seed=2 $OLD_COPY "$@" -o "$tmp/$n" "$tmp/ids.csv" 2> "$tmp/log" ||
        fail "infer $n: $(cat "$tmp/log")"
    "$B/score" --truth "$tmp/ids.csv" --reliability "$tmp/$n.rel" "$tmp/$n" > "$tmp/$n.row" ||
        fail "score $n"
}
run off -s conf_copy_events=0
calib_over "$tmp/off.rel" "$(reqs "$tmp/off.row")" 0 > "$tmp/o" &&
    fail "conf_copy_events=0: no bin over-confident any more (the case is gone): $(cat "$tmp/o")"
grep -q '^# conf_copy_events=' "$tmp/off" && fail "conf_copy_events=0 still said"
# shellcheck disable=SC2086
run on -s conf_copy_events=2 ${PB_TEST_INFER:-}
calib_over "$tmp/on.rel" "$(reqs "$tmp/on.row")" 0 > "$tmp/o" ||
    fail "conf_copy_events=2: a bin over-confident on requests: $(cat "$tmp/o")"
grep -q '^# conf_copy_events=2 z=0 copy_rows=[1-9][0-9]* .* rows_lowered=[1-9]' "$tmp/on" ||
    fail "metadata: $(grep '^# conf_copy_events' "$tmp/on")"
assign "$tmp/on" > "$tmp/a1"
assign "$tmp/off" > "$tmp/b1"
cmp -s "$tmp/a1" "$tmp/b1" || fail "the assignment differs from conf_copy_events=0's"
echo "PASS test_joint_calib_events"
