#!/bin/sh
# thread_soft_z (h295; algorithms/joint/shapes/joint_thrbar.c;
# docs/joint/shapes_late.md "The thread bar from the trace's evidence
# (h295)"): maketrace's pool model (experiments/joint_models_pool.conf:
# frontend a pool of three workers whose continuations move to another
# worker with probability 0.3) at its load, seed 60, 2 s, ns stamps, a
# black box (the models audit's row pool,60,x1:ns,blackbox).  Under the
# truth's pairing the frontend's answers miss every open visit's thread at
# 0.68 of chance's rate: over thread_soft's bar of 0.5, so the term never
# weighs the frontend and its root calls go to the wrong visit (84.3 %).
# Its misses fall under chance's by about 6 Poisson standard deviations
# and its visits start on a thread an open visit holds far less often than
# chance (a worker owned by its visit: about 14 sds), so thread_soft_z=4
# weighs it: at least 88 % (89.9 % measured).
# Hand-worked: the bar's z is the most over the passes, so it is at least
# the last pass's (chance - misses) / sqrt(chance), read from the
# thread_service= line; and thread_soft_z=0 (the default) leaves the
# frontend unweighed (no thread_soft_bar= line, under 87 %).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
"$B/maketrace" "$R/experiments/joint_models_pool.conf" -s seed=60 -s duration=2s \
    -s instances_scale=1 > "$tmp/raw.csv" || fail "maketrace"
keep_cols "$tmp/raw.csv" > "$tmp/m.csv"
strip_callids "$tmp/m.csv" > "$tmp/bb.csv"
# every run pins thread_soft_starts_end=0: the default since the thirty-
# seventh wave weighs this trace's service by its starts at the searches'
# end, and the rule here is checked on the default before it
run_nocal "$tmp/bb.csv" "$tmp/d.res" -s thread_soft_z=0 -s thread_soft_starts_end=0
run_nocal "$tmp/bb.csv" "$tmp/z.res" -s thread_soft_z=4 -s thread_soft_starts_end=0
d=$(exact_of "$tmp/m.csv" "$tmp/d.res")
z=$(exact_of "$tmp/m.csv" "$tmp/z.res")
echo "# pool x1 s60 ns black box: thread_soft_z=0 $d, thread_soft_z=4 $z"
grep '^# thread_soft_bar=' "$tmp/z.res"
! grep -q '^# thread_soft_bar=' "$tmp/d.res" || fail "thread_soft_z=0 wrote a thread_soft_bar= line"
grep -q '^# thread_soft=frontend ' "$tmp/d.res" && fail "the frontend weighed at thread_soft_z=0"
grep -q '^# thread_soft_bar=frontend weighed=yes ' "$tmp/z.res" ||
    fail "thread_soft_z=4 did not weigh the frontend: $(grep '^# thread_s' "$tmp/z.res" | tr '\n' ' ')"
grep -q '^# thread_soft=frontend ' "$tmp/z.res" || fail "no thread_soft=frontend line at thread_soft_z=4"
# the last pass's z by hand from the thread_service= line; the bar's is the most over the passes
awk '/^# thread_service=frontend / { for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                                      last = (v["chance_misses"] - v["misses"]) / sqrt(v["chance_misses"]) }
     /^# thread_soft_bar=frontend / { for (i = 3; i <= NF; i++) { split($i, kv, "="); b[kv[1]] = kv[2] } }
     END { printf "# last pass z %.2f, the bar'"'"'s %.2f\n", last, b["z"]
           exit !(b["z"] >= last - 0.005 && last > 4 && b["z_starts"] >= 4 && b["miss_rate"] > 0.5 && b["miss_rate"] < 0.8) }' \
    "$tmp/z.res" || fail "the bar's z or rate is not what the thread_service= line gives"
awk -v a="$d" 'BEGIN { exit !(a < 0.87) }' || fail "thread_soft_z=0 gives $d: the trace or the search changed; look again"
awk -v a="$z" 'BEGIN { exit !(a >= 0.88) }' || fail "thread_soft_z=4 gives $z, under 88 %"
echo "PASS"
