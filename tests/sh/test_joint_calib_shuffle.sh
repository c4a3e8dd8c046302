#!/bin/sh
# joint's conf_copy_shuffle and conf_thin_own (default 0, run on here; docs/joint/
# confidence_late.md, "The copy's truth shuffled among overlapping requests
# (h212)"; algorithms/joint/selfcal/joint_cfshuf.c, joint_cfthin.c).
# experiments/joint_apps_shortlong.conf, 2 s, rounded to 1 ms, with call ids:
#   seed 3: with both off the copy's truth is the solution's own split of
#   the overlapping long requests, which its search finds again, and
#   [0.8, 0.9) is over-confident on requests (230 rows, 60.9 % right;
#   asserted, so the case cannot vanish).  With the default no bin is
#   over-confident on requests or rows with both on, the metadata says the copy's calls
#   were dealt among overlapping requests, and the assignment is the off
#   run's byte for byte (confidence only).
#   seed 1: with conf_thin_own=0 the thin links api>agg and agg>db take the
#   all-links map and [0.99, 0.999) is over-confident on requests (28 rows,
#   85.7 % right; asserted); with both on no bin is.
# Fails on a tree without the options (infer rejects them) and with
# PB_TEST_INFER="-s conf_copy_shuffle=0 -s conf_thin_own=0" (given after
# the options the test turns on).
. "$PB_ROOT/tests/sh/joint_lib.sh"
assign() { awk -F, '/^#/ { next } /^id,instance,rank,parent/ { t = 1; next }
                    t { print $1 "," $2 "," $3 "," $4 }' "$1"; }
reqs() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["true_instances"] }' "$1"; }
make_trace() { # seed, out
    "$B/maketrace" "$PB_ROOT/experiments/joint_apps_shortlong.conf" -s seed="$1" -s duration=2s \
        > "$tmp/t.csv" 2> "$tmp/log" || fail "maketrace: $(cat "$tmp/log")"
    keep_cols "$tmp/t.csv" > "$tmp/k.csv"
    "$B/skewer" -q --round 1ms "$tmp/k.csv" > "$2" || fail "skewer"
}
run() { # name, trace, infer args...
    n=$1; t=$2; shift 2
    "$B/infer" --algo joint -q $OLD_COPY "$@" -o "$tmp/$n" "$t" 2> "$tmp/log" || fail "infer $n: $(cat "$tmp/log")"
    "$B/score" --truth "$t" --reliability "$tmp/$n.rel" "$tmp/$n" > "$tmp/$n.row" || fail "score $n"
}
make_trace 3 "$tmp/s3.csv"
run off3 "$tmp/s3.csv" -s conf_copy_shuffle=0 -s conf_thin_own=0
calib_over "$tmp/off3.rel" "$(reqs "$tmp/off3.row")" 0 > "$tmp/o" &&
    fail "seed 3, both off: no bin over-confident any more (the case is gone): $(cat "$tmp/o")"
grep -q '^# conf_copy_shuffle=1' "$tmp/off3" && fail "conf_copy_shuffle=0 still said"
# shellcheck disable=SC2086
run def3 "$tmp/s3.csv" -s conf_copy_shuffle=1 -s conf_thin_own=1 ${PB_TEST_INFER:-}
calib_over "$tmp/def3.rel" "$(reqs "$tmp/def3.row")" 1 > "$tmp/o" ||
    fail "seed 3: a bin over-confident (requests or rows): $(cat "$tmp/o")"
grep -q '^# conf_copy_shuffle=1 copies=1 overlap_clusters=[1-9][0-9]* requests_dealt_other_calls=[1-9]' "$tmp/def3" ||
    fail "metadata: $(grep '^# conf_copy_shuffle' "$tmp/def3")"
assign "$tmp/def3" > "$tmp/a1"
assign "$tmp/off3" > "$tmp/b1"
cmp -s "$tmp/a1" "$tmp/b1" || fail "seed 3: the assignment differs from the off run's"

make_trace 1 "$tmp/s1.csv"
run off1 "$tmp/s1.csv" -s conf_copy_shuffle=1 -s conf_thin_own=0
calib_over "$tmp/off1.rel" "$(reqs "$tmp/off1.row")" 0 > "$tmp/o" &&
    fail "seed 1, conf_thin_own=0: no bin over-confident any more (the case is gone): $(cat "$tmp/o")"
# shellcheck disable=SC2086
run def1 "$tmp/s1.csv" -s conf_copy_shuffle=1 -s conf_thin_own=1 ${PB_TEST_INFER:-}
calib_over "$tmp/def1.rel" "$(reqs "$tmp/def1.row")" 1 > "$tmp/o" ||
    fail "seed 1: a bin over-confident (requests or rows): $(cat "$tmp/o")"
grep -q '^# conf_thin_own=1 thin_links=2 rows_lowered=[1-9]' "$tmp/def1" ||
    fail "metadata: $(grep '^# conf_thin_own' "$tmp/def1")"
assign "$tmp/def1" > "$tmp/a1"
assign "$tmp/off1" > "$tmp/b1"
cmp -s "$tmp/a1" "$tmp/b1" || fail "seed 1: the assignment differs from the off run's"
echo "PASS test_joint_calib_shuffle"
