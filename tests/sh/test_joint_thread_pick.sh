#!/bin/sh
# joint's thread_soft_pick (docs/joint/shapes.md "thread_soft's term out of
# the choice of search (h209)"; algorithms/joint/shapes/joint_thrpick.c): the
# receiving thread's term (thread_soft) steers each search, but the
# choices between searches are made by the model without it.  The pool of
# experiments/joint_models_pool.conf at twice its load (2 s, seed 1),
# stamps rounded to 1 us, as a black box: search (two blocking workers) is
# weighed; the search with the term ends in a solution the model without
# the term finds less likely than the search without it (h200's pool row
# that fell, 24.8 -> 23.1 %).
# - thread_soft_pick=1: a thread_soft_pick= line, whose lls are the
#   choice's with the term;
# - thread_soft_pick=3: a thread_soft_check= line; kept=without_term
#   exactly when the search without the term is likelier by more than 10
#   nats, and then the assignment is thread_soft=0's (else the one of
#   thread_soft_pick=1); here kept=without_term: the accuracy
#   thread_soft=0's, not below it;
# - thread_soft_pick=2: the same two solutions, kept=with_term unless the
#   other is likelier by more than 10 nats;
# - the thread column scrambled (no service weighed): thread_soft_pick=3
#   gives thread_soft=0's assignment with no thread_soft_check= line (no
#   second search);
# - shuffled rows give the same assignment.
# Fails on a tree without the option (infer rejects it).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
"$B/maketrace" "$R/experiments/joint_models_pool.conf" -s duration=2s -s instances_scale=2 \
    > "$tmp/raw.csv" || fail "maketrace"
keep_cols "$tmp/raw.csv" > "$tmp/k.csv"
"$B/skewer" -q --round 1us "$tmp/k.csv" > "$tmp/m.csv" || fail "skewer"
strip_callids "$tmp/m.csv" > "$tmp/bb.csv"
run_nocal "$tmp/bb.csv" "$tmp/t0.res" -s thread_soft=0
run_nocal "$tmp/bb.csv" "$tmp/t1.res" -s thread_soft=0.5 -s thread_soft_pick=1
run_nocal "$tmp/bb.csv" "$tmp/t3.res" -s thread_soft=0.5 -s thread_soft_pick=3
run_nocal "$tmp/bb.csv" "$tmp/t2.res" -s thread_soft=0.5 -s thread_soft_pick=2
e0=$(exact_of "$tmp/m.csv" "$tmp/t0.res")
e1=$(exact_of "$tmp/m.csv" "$tmp/t1.res")
e3=$(exact_of "$tmp/m.csv" "$tmp/t3.res")
echo "# pool x2 1 us, black box: thread_soft=0 $e0, pick=1 $e1, pick=3 $e3"
grep -q '^# thread_soft=search ' "$tmp/t1.res" || fail "search not weighed"
grep -q '^# thread_soft_pick=on ' "$tmp/t1.res" || fail "pick=1: no thread_soft_pick= line"
! grep -q '^# thread_soft_check=' "$tmp/t1.res" || fail "pick=1: a thread_soft_check= line"
# the check's line: ll with the term's search, without, kept
chk() { sed -n 's/^# thread_soft_check=[a-z_]* ll_with_term_search=\([-0-9.]*\) ll_without_term_search=\([-0-9.]*\) kept=\([a-z_]*\)$/\1 \2 \3/p' "$1"; }
set -- $(chk "$tmp/t3.res")
[ $# = 3 ] || fail "pick=3: no thread_soft_check= line"
want=$(awk -v a="$1" -v b="$2" 'BEGIN { print (a > b + 10) ? "with_term" : "without_term" }')
[ "$3" = "$want" ] || fail "pick=3: kept=$3 with lls $1 $2"
[ "$3" = without_term ] || fail "pick=3: the term's search kept here ($1 against $2)"
assignment_of "$tmp/t0.res" > "$tmp/a"
assignment_of "$tmp/t3.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "pick=3 kept without_term: not thread_soft=0's assignment"
awk -v a="$e0" -v b="$e3" 'BEGIN { exit !(b >= a) }' || fail "pick=3 $e3 below thread_soft=0 $e0"
set -- $(chk "$tmp/t2.res")
[ $# = 3 ] || fail "pick=2: no thread_soft_check= line"
want=$(awk -v a="$1" -v b="$2" 'BEGIN { print (b > a + 10) ? "without_term" : "with_term" }')
[ "$3" = "$want" ] || fail "pick=2: kept=$3 with lls $1 $2"
assignment_of "$tmp/t2.res" > "$tmp/b"
if [ "$3" = with_term ]; then assignment_of "$tmp/t1.res" > "$tmp/a"; else assignment_of "$tmp/t0.res" > "$tmp/a"; fi
cmp -s "$tmp/a" "$tmp/b" || fail "pick=2 kept=$3: not that search's assignment"
# threads that say nothing (each service's labels dealt out again): no
# service weighed, no second search, thread_soft=0's assignment
scramble_threads "$tmp/bb.csv" "$tmp/s.csv"
run_nocal "$tmp/s.csv" "$tmp/s0.res" -s thread_soft=0
run_nocal "$tmp/s.csv" "$tmp/s3.res" -s thread_soft=0.5 -s thread_soft_pick=3
! grep -q '^# thread_soft_check=\|^# thread_soft=' "$tmp/s3.res" ||
    fail "scrambled threads: $(grep '^# thread_soft' "$tmp/s3.res")"
assignment_of "$tmp/s0.res" > "$tmp/a"
assignment_of "$tmp/s3.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "scrambled threads, pick=3: not thread_soft=0's assignment"
check_shuffled_same "$tmp/bb.csv" "$tmp/t3.res" -s thread_soft=0.5 -s thread_soft_pick=3
echo "PASS"
