#!/bin/sh
# joint's conf_late_construct (off by default; docs/joint/confidence_mid.md,
# "Rows right by construction and calls that outlive their request
# (h191)"; algorithms/joint/conf/joint_calibconstr.c): a service whose late-call
# test passed has no row right by construction.
# experiments/joint_apps_retry.conf, 2 s, seed 2, with call ids: fe's
# asynchronous pay retries outlive their request and late_attach places
# every orphan, so with conf_late_construct=0 fe>pay calls a neighbour's
# request encloses are stated 1: the bin [0.999, 1] is over-confident on
# rows (asserted, so the case cannot vanish: 2,106 rows, 99.3 % right);
# with the option that bin passes the test, the metadata says it, and the
# assignment is conf_late_construct=0's byte for byte (confidence only).
# (The baseline runs with conf_late_hidden=0, which states those rows
# lower by itself: joint_cfhidden.c.)
# Fails on a tree without the option (infer rejects it) and with
# PB_TEST_INFER="-s conf_late_construct=0".
. "$PB_ROOT/tests/sh/joint_lib.sh"
assign() { awk -F, '/^#/ { next } /^id,instance,rank,parent/ { t = 1; next }
                    t { print $1 "," $2 "," $3 "," $4 }' "$1"; }
reqs() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["true_instances"] }' "$1"; }
"$B/maketrace" "$PB_ROOT/experiments/joint_apps_retry.conf" -s seed=2 -s duration=2s > "$tmp/t.csv" \
    2> "$tmp/log" || fail "maketrace: $(cat "$tmp/log")"
keep_cols "$tmp/t.csv" > "$tmp/k.csv"
"$B/infer" --algo joint -q -s conf_late_construct=0 -s conf_late_hidden=0 -o "$tmp/b" "$tmp/k.csv" 2> "$tmp/log" ||
    fail "infer conf_late_construct=0: $(cat "$tmp/log")"
"$B/score" --truth "$tmp/t.csv" --reliability "$tmp/brel" "$tmp/b" > "$tmp/brow" || fail "score"
calib_over "$tmp/brel" "$(reqs "$tmp/brow")" 1 0.999 > "$tmp/bo" &&
    fail "conf_late_construct=0: [0.999, 1] no longer over-confident (the case is gone): $(cat "$tmp/bo")"
# shellcheck disable=SC2086
"$B/infer" --algo joint -q -s conf_late_construct=1 ${PB_TEST_INFER:-} -o "$tmp/a" "$tmp/k.csv" \
    2> "$tmp/log" || fail "infer: $(cat "$tmp/log")"
"$B/score" --truth "$tmp/t.csv" --reliability "$tmp/arel" "$tmp/a" > "$tmp/arow" || fail "score"
calib_over "$tmp/arel" "$(reqs "$tmp/arow")" 1 0.999 > "$tmp/ao" ||
    fail "[0.999, 1] over-confident: $(cat "$tmp/ao")"
grep -q '^# conf_late_construct=1 services=1 ' "$tmp/a" || fail "metadata"
assign "$tmp/a" > "$tmp/a1"
assign "$tmp/b" > "$tmp/b1"
cmp -s "$tmp/a1" "$tmp/b1" || fail "the assignment differs from conf_late_construct=0's"
echo "PASS test_joint_calib_construct"
