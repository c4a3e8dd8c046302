#!/bin/sh
# A KNOWN FAILURE of joint, kept as a test that expects it (docs/joint/
# shapes_late.md, "Held-out seeds 55-56 of apps and models3, every method
# (h265)"): maketrace's shortlong app (short lookups and, one in ten,
# 150 ms reports through the same services; the config has no service
# line, so no worker limit) at twice its load, seed 56, 2 s, ns stamps,
# a black box (the apps audit's row shortlong,56,x2:ns,blackbox).  Joint gets 2.7 % exact
# (the dev seeds 1-3 and seed 55 get 37-43 %), because the busy test
# (joint_pick.c) finds fe serialising (its calls land busy 81 % of the
# time against the copies' 89 %, z = -7.05) and keeps the held search,
# 1,067 nats less likely than the free one; with busy_test=0 joint gets
# about 43 %.  A false serialising verdict of the busy test: the class of
# backoff (h183, no worker limit either) and heavytail (h252, h254, 16
# workers).  Why the copies land busy more often here was not measured
# per link (a guess: they misfit the long reports' calls).
# The test passes while the failure is there (joint under 10 %, the busy
# test keeping the held search at fe) and busy_test=0 gives at least
# 30 %.  It FAILS when joint gets 30 % or more: a fix has flipped it;
# then turn this test into a plain check of the fix.
# PB_KNOWN_ARGS: infer options added to joint's default run (to check
# that a fix flips the test, e.g. PB_KNOWN_ARGS="-s busy_test=0").
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
"$B/maketrace" "$R/experiments/joint_apps_shortlong.conf" -s seed=56 -s duration=2s \
    -s instances_scale=2 > "$tmp/raw.csv" || fail "maketrace"
keep_cols "$tmp/raw.csv" > "$tmp/m.csv"
strip_callids "$tmp/m.csv" > "$tmp/bb.csv"
# shellcheck disable=SC2086
run_nocal "$tmp/bb.csv" "$tmp/d.res" ${PB_KNOWN_ARGS:-}
run_nocal "$tmp/bb.csv" "$tmp/n.res" -s busy_test=0
d=$(exact_of "$tmp/m.csv" "$tmp/d.res")
n=$(exact_of "$tmp/m.csv" "$tmp/n.res")
echo "# shortlong x2 s56 ns black box: joint $d, busy_test=0 $n"
echo "# $(grep '^# busy_test=' "$tmp/d.res")"
awk -v a="$n" 'BEGIN { exit !(a >= 0.30) }' ||
    fail "busy_test=0 gives $n (under 30 %): the trace or the search changed; look again"
awk -v a="$d" 'BEGIN { exit !(a < 0.30) }' ||
    fail "KNOWN FAILURE FIXED: joint $d (30 % or more; busy_test=0 $n): flip this test into a check of the fix"
awk -v a="$d" 'BEGIN { exit !(a < 0.10) }' ||
    fail "joint $d: neither the known failure (under 10 %) nor a fix (30 % or more)"
grep -q '^# busy_test=on .* held=yes chosen_by=busy_test' "$tmp/d.res" &&
    grep -q '^# busy_service=fe .* serialising=yes' "$tmp/d.res" ||
    fail "the known failure's cause moved: $(grep '^# busy_test=\|^# busy_service=fe' "$tmp/d.res")"
echo "KNOWN FAILURE reproduced (expected): joint $d, busy_test=0 $n"
echo "PASS"
