#!/bin/sh
# thread_soft_starts (h302; algorithms/joint/shapes/joint_thrstart.c;
# docs/joint/shapes_w36.md "The thread bar from the visits' starts alone
# (h302)"): maketrace's service mesh (experiments/joint_models_mesh.conf:
# the frontend `fe` a pool of four workers between two sidecar proxies,
# event loops of two threads) at twice its load, seed 61, 2 s, stamps
# rounded to 1 ms, a black box (the held-out row
# mesh,61,x2:1ms,blackbox of experiments/joint_models3.sh --seeds 61).
# Under the truth fe's answers never leave their visit's thread, but on
# every pass without the term its answers miss more often than chance's
# (rate over 1): thread_soft never weighs fe and about 22 % of the
# requests are right.  Its visits' starts keep off the threads its open
# visits hold by about 13 sds on every pass, so thread_soft_starts=10
# weighs it, at the bar's rate 0.5: over 40 % (45.1 % measured).
# Hand-worked: the line's term_rate is min(miss_rate, thread_soft) = 0.5
# since its miss_rate is over 0.5, weighed=yes exactly where z_starts >=
# level, and at the default (0) there is no thread_soft_starts= line and
# fe is not weighed.
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
"$B/maketrace" "$R/experiments/joint_models_mesh.conf" -s seed=61 -s duration=2s \
    -s instances_scale=2 > "$tmp/raw.csv" || fail "maketrace"
keep_cols "$tmp/raw.csv" > "$tmp/g.csv"
"$B/skewer" -q --round 1ms "$tmp/g.csv" > "$tmp/m.csv" || fail "skewer"
strip_callids "$tmp/m.csv" > "$tmp/bb.csv"
# both sides pin thread_soft_starts_end=0 (the default since the
# thirty-seventh wave weighs fe here by itself)
run_nocal "$tmp/bb.csv" "$tmp/d.res" -s thread_soft_starts_end=0
run_nocal "$tmp/bb.csv" "$tmp/z.res" -s thread_soft_starts=10 -s thread_soft_starts_end=0
d=$(exact_of "$tmp/m.csv" "$tmp/d.res")
z=$(exact_of "$tmp/m.csv" "$tmp/z.res")
echo "# mesh x2 s61 1 ms black box: default $d, thread_soft_starts=10 $z"
grep '^# thread_soft_starts=' "$tmp/z.res"
! grep -q '^# thread_soft_starts=' "$tmp/d.res" || fail "the default wrote a thread_soft_starts= line"
grep -q '^# thread_soft=fe ' "$tmp/d.res" && fail "fe weighed at the default"
grep -q '^# thread_soft_starts=fe weighed=yes ' "$tmp/z.res" ||
    fail "thread_soft_starts=10 did not weigh fe: $(grep '^# thread_s' "$tmp/z.res" | tr '\n' ' ')"
grep -q '^# thread_soft=fe ' "$tmp/z.res" || fail "no thread_soft=fe line at thread_soft_starts=10"
awk '/^# thread_soft_starts=/ { for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        want = v["miss_rate"] > 0.5 && v["z_starts"] >= v["level"] ? 0.5 : v["miss_rate"]
        if ((v["weighed"] == "yes") != (v["z_starts"] >= v["level"]) || v["term_rate"] - want > 0.00005 ||
            want - v["term_rate"] > 0.00005) { print "# wrong: " $0; bad = 1 } }
     END { exit bad }' "$tmp/z.res" || fail "a thread_soft_starts= line disagrees with its own rule"
awk -v a="$d" 'BEGIN { exit !(a < 0.30) }' || fail "the default gives $d: the trace or the search changed; look again"
awk -v a="$z" 'BEGIN { exit !(a >= 0.40) }' || fail "thread_soft_starts=10 gives $z, under 40 %"
echo "PASS"
