#!/bin/sh
# joint's thread_soft (docs/joint/shapes.md "The receiving thread as a
# likelihood term (h200)"; algorithms/joint/shapes/joint_thread.c): without call
# ids, the receiving-thread column weighed as a likelihood term whose
# weight the trace fits (the thread test's misses over chance's), not a
# filter.  The pool of experiments/joint_models_pool.conf at its load (2 s,
# seed 1), stamps rounded to 1 us, as a black box: search is a pool of two
# blocking workers (an answer returns to the worker that sent the call).
# - thread_soft=0: no thread_soft= line; thread_soft=0.5: search's line
#   (a miss rate below 0.1) and at least 4 points more exact;
# - the thread column scrambled among each service's rows (threads that
#   say nothing): no thread_soft= line, the output thread_soft=0's byte for
#   byte but the params line and the thread_service= lines;
# - with call ids (every pair made by call id: the filter's, thread_bound=2)
#   thread_soft=0's assignment;
# - thread_soft_floor=1 (every mismatch costs 0; thread_soft_pick=1):
#   thread_soft=0's assignment;
# - every split scored (resplit_bound=0) gives the same assignment (the
#   branch and bound's bound of the term is admissible);
# - shuffled rows give the same assignment; search renamed (node and
#   thread labels) and the truth columns stripped give the same assignment.
# Fails on a tree without the option (infer rejects it).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
"$B/maketrace" "$R/experiments/joint_models_pool.conf" -s duration=2s > "$tmp/raw.csv" ||
    fail "maketrace"
keep_cols "$tmp/raw.csv" > "$tmp/k.csv"
"$B/skewer" -q --round 1us "$tmp/k.csv" > "$tmp/m.csv" || fail "skewer"
strip_callids "$tmp/m.csv" > "$tmp/bb.csv"
run_nocal "$tmp/bb.csv" "$tmp/t0.res" -s thread_soft=0
run_nocal "$tmp/bb.csv" "$tmp/t1.res" -s thread_soft=0.5
e0=$(exact_of "$tmp/m.csv" "$tmp/t0.res")
e1=$(exact_of "$tmp/m.csv" "$tmp/t1.res")
echo "# pool x1 1 us, black box: thread_soft=0 $e0, thread_soft=0.5 $e1"
! grep -q '^# thread_soft=' "$tmp/t0.res" || fail "thread_soft=0: a thread_soft= line"
l=$(sed -n 's/^# thread_soft=search miss_rate=\([0-9.]*\) threads=2$/\1/p' "$tmp/t1.res")
[ -n "$l" ] || fail "search has no thread_soft= line: $(grep '^# thread_' "$tmp/t1.res")"
awk -v m="$l" 'BEGIN { exit !(m < 0.1) }' || fail "search's miss rate $l (want < 0.1)"
awk -v a="$e0" -v b="$e1" 'BEGIN { exit !(b >= a + 0.04) }' ||
    fail "thread_soft=0 $e0, thread_soft=0.5 $e1 (want 4 points more)"
# threads that say nothing: each service's thread labels dealt out again
# at random among its rows (awk's srand(5)): no service gets the term
scramble_threads "$tmp/bb.csv" "$tmp/s.csv"
cmp -s "$tmp/bb.csv" "$tmp/s.csv" && fail "scrambling the threads changed nothing"
run_nocal "$tmp/s.csv" "$tmp/s0.res" -s thread_soft=0
run_nocal "$tmp/s.csv" "$tmp/s1.res" -s thread_soft=0.5
! grep -q '^# thread_soft=' "$tmp/s1.res" ||
    fail "scrambled threads weighed: $(grep '^# thread_soft=' "$tmp/s1.res")"
grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=\|^# thread_service=\|^# thread_bound=' \
    "$tmp/s1.res" > "$tmp/a"
grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=\|^# thread_service=\|^# thread_bound=' \
    "$tmp/s0.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head -5; fail "no service weighed: output changed"; }
# with call ids every pair is made by call id: the term never applies
run_nocal "$tmp/m.csv" "$tmp/i0.res" -s thread_soft=0
run_nocal "$tmp/m.csv" "$tmp/i1.res" -s thread_soft=0.5
assignment_of "$tmp/i0.res" > "$tmp/a"
assignment_of "$tmp/i1.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "thread_soft with call ids: the assignment changed"
# the branch and bound's bounds with the term (joint_bnb.c) admissible:
# every split scored (resplit_bound=0) gives the same assignment
run_nocal "$tmp/bb.csv" "$tmp/nb.res" -s thread_soft=0.5 -s resplit_bound=0
assignment_of "$tmp/t1.res" > "$tmp/a"
assignment_of "$tmp/nb.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "resplit_bound=0 changed the assignment"
# thread_soft_floor (h204): a floor of 1 makes every mismatch cost 0:
# thread_soft=0's assignment, search still named weighed
# (thread_soft_pick=1: under the default 3 the equal solutions would keep the
# search without the term, which names no service)
run_nocal "$tmp/bb.csv" "$tmp/f1.res" -s thread_soft=0.5 -s thread_soft_floor=1 -s thread_soft_pick=1
grep -q '^# thread_soft=search ' "$tmp/f1.res" || fail "thread_soft_floor=1: search not weighed"
assignment_of "$tmp/t0.res" > "$tmp/a"
assignment_of "$tmp/f1.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "thread_soft_floor=1: not thread_soft=0's assignment"
# invariances of the weighed run
check_shuffled_same "$tmp/bb.csv" "$tmp/t1.res" -s thread_soft=0.5
sed -e '/^#/!s/\bsearch\b/zz_search/g' "$tmp/bb.csv" > "$tmp/rn.csv"
sed -e '/^#/!s/\bsearch\b/zz_search/g' "$tmp/m.csv" > "$tmp/rnm.csv"
cmp -s "$tmp/bb.csv" "$tmp/rn.csv" && fail "renaming search changed nothing"
run_nocal "$tmp/rn.csv" "$tmp/rn.res" -s thread_soft=0.5
[ "$(exact_of "$tmp/rnm.csv" "$tmp/rn.res")" = "$e1" ] || fail "renaming search changed the accuracy"
grep -q '^# thread_soft=zz_search ' "$tmp/rn.res" || fail "renamed search not weighed"
awk 'BEGIN { FS = OFS = "," } /^#/ { print; next }
     !h { for (i = 1; i <= NF; i++) if ($i != "path" && $i != "cause") k[++n] = i; h = 1 }
     { l = $k[1]; for (j = 2; j <= n; j++) l = l OFS $k[j]; print l }' "$tmp/bb.csv" > "$tmp/nt.csv"
run_nocal "$tmp/nt.csv" "$tmp/nt.res" -s thread_soft=0.5
assignment_of "$tmp/t1.res" > "$tmp/a"
assignment_of "$tmp/nt.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "stripping the truth columns changed the assignment"
echo "PASS"
