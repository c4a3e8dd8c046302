#!/bin/sh
# greedy_tcache (joint_tcache.c; default 2: kept below 2^20 candidate
# slots) where the windowed second search of the serial term runs
# (loss_serial_win, joint_lserwin.c; docs/joint/speed_w18.md, "Speed, twentieth
# wave (h155)").  Those greedy rounds follow re-splits and exchanges that
# changed kid lists and return times the kept trigger slots do not see, so
# they must count as a new search (joint_greedy_solve_start): pool at twice
# its load with call ids (seed 1, 2 s; test_joint_lserial_gate's trace,
# where the window runs), and the OnlineBoutique-like shape of repeated
# calls, give byte for byte the same output (but the params and cpu lines)
# with greedy_tcache=0, 1 and the default.  Fails on a tree whose windowed
# rounds reuse the slots of the search before (the pool trace's
# assignment differs) and on a tree without greedy_tcache=2.
. "$PB_ROOT/tests/sh/joint_lib.sh"
"$B/maketrace" "$PB_ROOT/experiments/joint_models_pool.conf" -s seed=1 -s duration=2s \
    -s instances_scale=2 > "$tmp/p.csv" || fail "maketrace (pool)"
run_nocal "$tmp/p.csv" "$tmp/p0.csv" -s greedy_tcache=0
run_nocal "$tmp/p.csv" "$tmp/p1.csv" -s greedy_tcache=1
run_nocal "$tmp/p.csv" "$tmp/p2.csv" -s greedy_tcache=2
run_nocal "$tmp/p.csv" "$tmp/pd.csv"
grep -q '^# loss_serial_window=1 window_requests=[0-9]' "$tmp/p0.csv" ||
    fail "pool x2: the windowed second search did not run (no loss_serial_window line)"
for v in 0 1 2 d; do
    grep -v '^# params:\|^# cpu_' "$tmp/p$v.csv" > "$tmp/x$v"
done
for v in 1 2 d; do
    cmp -s "$tmp/x0" "$tmp/x$v" || fail "pool x2: greedy_tcache=$v differs from greedy_tcache=0"
done
echo "pool x2: greedy_tcache 0, 1, 2 and the default give the same output"
echo "PASS"
