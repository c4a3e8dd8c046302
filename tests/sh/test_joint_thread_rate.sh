#!/bin/sh
# joint's thread_soft_pick=6 (docs/joint/shapes_late.md "The receiving
# thread's term kept by a test of the thread itself (h233)";
# algorithms/joint/shapes/joint_thrtest.c): the inference runs with the term and
# without it; the term's solution is kept when the thread test's misses in
# the two solutions (a binomial log-likelihood ratio) outweigh the delays'.
# The mesh of experiments/joint_models_mesh.conf at twice its load (0.3 s,
# seed 1), stamps rounded to 1 ms, as a black box (fe and cart: pools of
# blocking workers).
# - a thread_soft_rate_test=with_term line, with fewer misses with the
#   term than without; the assignment is the term's search's
#   (thread_soft_pick=1's) and at least as exact as thread_soft=0's;
# - threads scrambled among each service's rows: no line, thread_soft=0's
#   assignment;
# - with call ids: thread_soft=0's assignment;
# - shuffled rows give the same assignment.
# Fails on a tree without thread_soft_pick=6 (infer rejects the value).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
mesh_1ms_trace
run_nocal "$tmp/bb.csv" "$tmp/t0.res" -s thread_soft=0
run_nocal "$tmp/bb.csv" "$tmp/t1.res" -s thread_soft=0.5 -s thread_soft_pick=1
run_nocal "$tmp/bb.csv" "$tmp/t6.res" -s thread_soft=0.5 -s thread_soft_pick=6
e0=$(exact_of "$tmp/m.csv" "$tmp/t0.res")
e6=$(exact_of "$tmp/m.csv" "$tmp/t6.res")
echo "# mesh x2 1 ms, black box: thread_soft=0 $e0, pick=6 $e6"
line=$(grep '^# thread_soft_rate_test=' "$tmp/t6.res") || fail "pick=6: no rate test line"
echo "$line" | awk '{ split($2, a, "="); split($3, k1, "="); split($5, k0, "=");
    exit !(a[2] == "with_term" && k1[2] + 0 < k0[2] + 0) }' || fail "pick=6: $line"
assignment_of "$tmp/t1.res" > "$tmp/a"
assignment_of "$tmp/t6.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "pick=6 kept the term: not pick=1's assignment"
awk -v a="$e0" -v b="$e6" 'BEGIN { exit !(b >= a) }' || fail "pick=6 $e6 below thread_soft=0 $e0"
thread_pick_neutral 6 '^# thread_soft_rate_test=\|^# thread_soft=' "$tmp/t6.res"
echo "PASS"
