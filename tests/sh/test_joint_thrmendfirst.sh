#!/bin/sh
# thread_soft_mendfirst=1 (docs/joint/shapes_late.md "The rate test's
# delays scored held out (h274)"; joint_thrmove.c): the known failure of
# test_joint_known_threadrate (maketrace's keepalive model at twice its
# load, seed 57, 2 s, ns stamps, a black box), where thread_soft_pick=7's
# rate test drops the receiving thread's term (23 % exact, 62 % with the
# term), is mended when the moves check decides both ways: the term's
# solution moves 1,763 calls to mend 544 of the other's 560 thread misses
# (3.2 per mend, under the learned ratio 4), so it is kept.  The test
# checks the option's metadata (the moves check ran and kept the term)
# and that joint then gets at least 50 % exact.
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
"$B/maketrace" "$R/experiments/joint_models_keepalive.conf" -s seed=57 -s duration=2s \
    -s instances_scale=2 > "$tmp/raw.csv" || fail "maketrace"
keep_cols "$tmp/raw.csv" > "$tmp/m.csv"
strip_callids "$tmp/m.csv" > "$tmp/bb.csv"
run_nocal "$tmp/bb.csv" "$tmp/d.res" -s thread_soft_mendfirst=1
d=$(exact_of "$tmp/m.csv" "$tmp/d.res")
echo "# keepalive x2 s57 ns black box, thread_soft_mendfirst=1: joint $d"
grep '^# thread_soft_moves=' "$tmp/d.res"
grep -q '^# thread_soft_moves=swap_size .* kept=with_term' "$tmp/d.res" ||
    fail "the moves check did not keep the term: $(grep '^# thread_soft' "$tmp/d.res" | tr '\n' ' ')"
awk -v a="$d" 'BEGIN { exit !(a >= 0.50) }' || fail "joint $d under 50 % with thread_soft_mendfirst=1"
echo "PASS"
