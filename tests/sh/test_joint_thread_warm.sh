#!/bin/sh
# joint's thread_soft_pick=5 (docs/joint/shapes.md "The receiving thread's
# term searched from the solution without it (h217)";
# algorithms/joint/shapes/joint_thrwarm.c): the inference runs with the thread term
# muted; where the term weighs a service, one more search with the term
# starts from that solution's pairs and is kept.  The mesh of
# experiments/joint_models_mesh.conf at twice its load (0.3 s, seed 1),
# stamps rounded to 1 ms, as a black box: fe and cart are pools of blocking
# workers (an answer returns to the worker that sent the call).
# - a thread_soft_check=warm_start line, kept=with_term, cart weighed;
#   at least 4 points more exact than thread_soft=0, and not below
#   thread_soft_pick=3;
# - the thread column scrambled among each service's rows (threads that
#   say nothing): no service weighed, no second search (no
#   thread_soft_check= line), thread_soft=0's assignment;
# - with call ids (every pair made by call id): thread_soft=0's assignment;
# - shuffled rows give the same assignment.
# Fails on a tree without thread_soft_pick=5 (infer rejects the value).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
mesh_1ms_trace
run_nocal "$tmp/bb.csv" "$tmp/t0.res" -s thread_soft=0
run_nocal "$tmp/bb.csv" "$tmp/t3.res" -s thread_soft=0.5 -s thread_soft_pick=3
run_nocal "$tmp/bb.csv" "$tmp/t5.res" -s thread_soft=0.5 -s thread_soft_pick=5
e0=$(exact_of "$tmp/m.csv" "$tmp/t0.res")
e3=$(exact_of "$tmp/m.csv" "$tmp/t3.res")
e5=$(exact_of "$tmp/m.csv" "$tmp/t5.res")
echo "# mesh x2 1 ms, black box: thread_soft=0 $e0, pick=3 $e3, pick=5 $e5"
grep -q '^# thread_soft_check=warm_start ll_with_term_search=[-0-9.]* ll_without_term_search=[-0-9.]* kept=with_term$' \
    "$tmp/t5.res" || fail "pick=5: no warm_start line: $(grep '^# thread_soft' "$tmp/t5.res")"
grep -q '^# thread_soft=cart ' "$tmp/t5.res" || fail "pick=5: cart not weighed"
awk -v a="$e0" -v b="$e5" 'BEGIN { exit !(b >= a + 0.04) }' ||
    fail "thread_soft=0 $e0, pick=5 $e5 (want 4 points more)"
awk -v a="$e3" -v b="$e5" 'BEGIN { exit !(b >= a) }' || fail "pick=5 $e5 below pick=3 $e3"
# threads that say nothing, call ids, shuffled rows: as without the term
thread_pick_neutral 5 '^# thread_soft_check=\|^# thread_soft=' "$tmp/t5.res"
echo "PASS"
