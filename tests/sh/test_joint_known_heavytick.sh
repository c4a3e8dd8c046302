#!/bin/sh
# A KNOWN FAILURE of joint, kept as a test that expects it (docs/joint/
# shapes_late.md, "Held-out seeds 55-56 of apps and models3, every method
# (h265)"): maketrace's heavytail app at twice its load (api: 16 workers;
# db answers in 0.5 / 5 / 50 ms), seed 56, 2 s, stamps rounded down to
# 1 ms, a black box (the apps audit's row heavytail,56,x2:1ms,blackbox).
# Joint returns first come, first served's pairing (2.5 % exact, the
# same requests as fcfs), although its own search, with the two guards
# off, gets about 18 %:
# - the tie test (joint_quant.c) puts the start back: 52 % of the
#   search's moves stay within a tick and they gain 1.23 nats each
#   (under its bar of 1.92), yet the start is fcfs's order and 2.5 %
#   right, so nearly every true parent is a move, many of them within a
#   tick at ~1.3 requests a millisecond;
# - with tie_test=0 the busy test (joint_pick.c) found api serialising
#   (the heavytail class of h252 / h254) and kept the held search, which
#   is fcfs's pairing again; since busy_arr (h270, joint_busyarr.c) that
#   verdict is withdrawn (api's calls land busy at the trace's own arrivals
#   as often as in the copies), so the tie test alone is left: with
#   tie_test=0 joint gets about 18 %.  Seeds 53 and 55, where the busy test
#   alone held, are fixed by busy_arr (test_joint_busyarr.sh).
# The test passes while the failure is there (joint within 0.5 points of
# fcfs, the tie test keeping the start) and the search with both guards
# off is at least 10 points above fcfs (so the failure is the guards',
# not the search's).  It FAILS when joint gets 5 points above fcfs: a fix
# has flipped it; then turn this test into a plain check of the fix.
# PB_KNOWN_ARGS: infer options added to joint's default run (to check
# that a fix flips the test, e.g. PB_KNOWN_ARGS="-s tie_test=0 -s busy_test=0").
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
"$B/maketrace" "$R/experiments/joint_apps_heavytail.conf" -s seed=56 -s duration=2s \
    -s instances_scale=2 > "$tmp/raw.csv" || fail "maketrace"
keep_cols "$tmp/raw.csv" > "$tmp/k.csv"
"$B/skewer" -q --round 1ms "$tmp/k.csv" > "$tmp/m.csv" || fail "skewer"
strip_callids "$tmp/m.csv" > "$tmp/bb.csv"
# shellcheck disable=SC2086
run_nocal "$tmp/bb.csv" "$tmp/d.res" ${PB_KNOWN_ARGS:-}
run_nocal "$tmp/bb.csv" "$tmp/n.res" -s tie_test=0 -s busy_test=0
"$B/infer" --algo fcfs -o "$tmp/f.res" "$tmp/bb.csv" 2> /dev/null || fail "infer fcfs"
d=$(exact_of "$tmp/m.csv" "$tmp/d.res")
n=$(exact_of "$tmp/m.csv" "$tmp/n.res")
f=$(exact_of "$tmp/m.csv" "$tmp/f.res")
echo "# heavytail x2 s56 1 ms black box: joint $d, fcfs $f, tie_test=0 busy_test=0 $n"
echo "# $(grep '^# tie_test=' "$tmp/d.res")"
awk -v a="$n" -v b="$f" 'BEGIN { exit !(a >= b + 0.10) }' ||
    fail "the search with both guards off ($n) is not 10 points above fcfs ($f): the trace or the search changed; look again"
if awk -v a="$d" -v b="$f" 'BEGIN { exit !(a >= b + 0.05) }'; then
    fail "KNOWN FAILURE FIXED: joint $d against fcfs $f (5 points or more above): flip this test into a check of the fix"
fi
awk -v a="$d" -v b="$f" 'BEGIN { exit !(a <= b + 0.005) }' ||
    fail "joint $d, fcfs $f: neither the known failure (within 0.5 points) nor a fix (5 points above)"
grep -q '^# tie_test=on .* kept=start' "$tmp/d.res" ||
    fail "the known failure's cause moved (the tie test did not keep the start): $(grep '^# tie_test=' "$tmp/d.res")"
echo "KNOWN FAILURE reproduced (expected): joint $d = fcfs $f"
echo "PASS"
