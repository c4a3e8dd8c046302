#!/bin/sh
# joint's thread_bound (docs/joint/shapes.md "Visits bound to a thread
# (h187)"; algorithms/joint/shapes/joint_thread.c): the receiving-thread column as
# evidence.  The mesh of experiments/joint_models_mesh.conf at twice its
# load (0.3 s, seed 1), stamps rounded to 1 ms, call ids kept: fe and cart
# are pools of blocking workers (the answer to a call returns to the worker
# that sent it), the sidecars event loops of two threads (an answer lands
# on either).
# - thread_bound=0: no thread_service= line, at most 85 % exact;
#   thread_bound=1: fe and cart bound=yes, every proxy bound=no, at least
#   10 points more;
# - the thread column scrambled among each service's rows (threads that
#   say nothing): no service bound, the output thread_bound=0's byte for
#   byte but the params line and the thread_service= lines;
# - thread_bound=2 (call ids only): thread_bound=1's assignment with call
#   ids, thread_bound=0's output as a black box;
# - shuffled rows give the same assignment; fe renamed (node and thread
#   labels) and the truth columns stripped give the same assignment.
# Every run pins thread_soft=0 (the filter alone; the term, on by default
# since h217, has its own tests: test_joint_thread_soft, _pick).
# Fails on a tree without the option (infer rejects it).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
"$B/maketrace" "$R/experiments/joint_models_mesh.conf" -s duration=0.3s -s instances_scale=2 \
    > "$tmp/raw.csv" || fail "maketrace"
keep_cols "$tmp/raw.csv" > "$tmp/k.csv"
"$B/skewer" -q --round 1ms "$tmp/k.csv" > "$tmp/m.csv" || fail "skewer"
run_nocal "$tmp/m.csv" "$tmp/t0.res" -s thread_soft=0 -s thread_bound=0
run_nocal "$tmp/m.csv" "$tmp/t1.res" -s thread_soft=0 -s thread_bound=1
e0=$(exact_of "$tmp/m.csv" "$tmp/t0.res")
e1=$(exact_of "$tmp/m.csv" "$tmp/t1.res")
echo "# mesh x2 1 ms, call ids: thread_bound=0 $e0, thread_bound=1 $e1"
! grep -q '^# thread_' "$tmp/t0.res" || fail "thread_bound=0: a thread_ line"
for sv in fe cart; do
    grep -q "^# thread_service=$sv answers=[0-9]* misses=[0-9]* chance_misses=[0-9.]* bound=yes$" \
        "$tmp/t1.res" || fail "$sv not bound: $(grep "^# thread_service=$sv " "$tmp/t1.res")"
done
for sv in fe_px cart_px cat_px; do
    grep -q "^# thread_service=$sv .* bound=no$" "$tmp/t1.res" ||
        fail "$sv: $(grep "^# thread_service=$sv " "$tmp/t1.res")"
done
grep -q '^# thread_bound=on candidates_dropped=[1-9]' "$tmp/t1.res" || fail "no candidate dropped"
awk -v a="$e0" -v b="$e1" 'BEGIN { exit !(a <= 0.85 && b >= a + 0.10) }' ||
    fail "thread_bound=0 $e0 (want <= 0.85), thread_bound=1 $e1 (want 10 points more)"
# threads that say nothing: each service's thread labels dealt out again
# at random among its rows (awk's srand(5)): the test must reject them all
scramble_threads "$tmp/m.csv" "$tmp/s.csv"
cmp -s "$tmp/m.csv" "$tmp/s.csv" && fail "scrambling the threads changed nothing"
run_nocal "$tmp/s.csv" "$tmp/s0.res" -s thread_soft=0 -s thread_bound=0
run_nocal "$tmp/s.csv" "$tmp/s1.res" -s thread_soft=0 -s thread_bound=1
! grep -q '^# thread_service=.* bound=yes' "$tmp/s1.res" ||
    fail "scrambled threads bound: $(grep 'bound=yes' "$tmp/s1.res")"
grep -q '^# thread_service=fe .* bound=no$' "$tmp/s1.res" || fail "scrambled: fe not tested"
grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=\|^# thread_service=' "$tmp/s1.res" > "$tmp/a"
grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=' "$tmp/s0.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head -5; fail "no service bound: output changed"; }
# thread_bound=2 (pairs made by call id only): with call ids the same
# assignment as thread_bound=1; as a black box nothing counted, the
# output thread_bound=0's but the params line
run_nocal "$tmp/m.csv" "$tmp/t2.res" -s thread_soft=0 -s thread_bound=2
assignment_of "$tmp/t1.res" > "$tmp/a"
assignment_of "$tmp/t2.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "thread_bound=2 with call ids: not thread_bound=1's assignment"
strip_callids "$tmp/m.csv" > "$tmp/bb.csv"
run_nocal "$tmp/bb.csv" "$tmp/b2.res" -s thread_soft=0 -s thread_bound=2
run_nocal "$tmp/bb.csv" "$tmp/b0.res" -s thread_soft=0 -s thread_bound=0
grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=' "$tmp/b2.res" > "$tmp/a"
grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=' "$tmp/b0.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head -5; fail "thread_bound=2 as a black box: output changed"; }
# invariances of the bound run
check_shuffled_same "$tmp/m.csv" "$tmp/t1.res" -s thread_soft=0 -s thread_bound=1
sed -e '/^#/!s/\bfe\b/zz_fe/g' "$tmp/m.csv" > "$tmp/rn.csv"
cmp -s "$tmp/m.csv" "$tmp/rn.csv" && fail "renaming fe changed nothing"
run_nocal "$tmp/rn.csv" "$tmp/rn.res" -s thread_soft=0 -s thread_bound=1
[ "$(exact_of "$tmp/rn.csv" "$tmp/rn.res")" = "$e1" ] || fail "renaming fe changed the accuracy"
grep -q '^# thread_service=zz_fe .* bound=yes$' "$tmp/rn.res" || fail "renamed fe not bound"
awk 'BEGIN { FS = OFS = "," } /^#/ { print; next }
     !h { for (i = 1; i <= NF; i++) if ($i != "path" && $i != "cause") k[++n] = i; h = 1 }
     { l = $k[1]; for (j = 2; j <= n; j++) l = l OFS $k[j]; print l }' "$tmp/m.csv" > "$tmp/nt.csv"
run_nocal "$tmp/nt.csv" "$tmp/nt.res" -s thread_soft=0 -s thread_bound=1
assignment_of "$tmp/t1.res" > "$tmp/a"
assignment_of "$tmp/nt.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "stripping the truth columns changed the assignment"
echo "PASS"
