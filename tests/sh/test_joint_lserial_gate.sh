#!/bin/sh
# joint with call ids and no loss, loss_serial=8 (the default): the second
# search gated, its check split at the moved calls, and the tie test
# without the guiding term (docs/joint/loss.md, "The second search gated").
# 1. The gate: the second search runs only where at least loss_serial_gate
#    (0.1) of the requests with a call on a serial link hold a stacked call
#    in the term-free solution.  Async x1 (seed 1, development: 1.5 % of its
#    requests stacked) skips it: metadata loss_serial_gate=skipped with the
#    share and the level, no check line, the assignment byte for byte
#    loss_serial=1's; at loss_serial_gate=0 the second search runs (a check
#    line).
# 2. The sign test over the changed walks: pool at twice its load (seed 1,
#    ns, development) -- the term's solution is likelier held out by about
#    13,000 nats, nearly all in one giant unit, so the units' z is about 1;
#    the walks that changed gain almost all (sign z > 20): the term's
#    search is kept, exact 0.21 -> >= 0.9.
# 3. The tie test without the term: dispatch seed 11 at 1 ms with
#    subtick=off (test_joint_tiecross's trace) with the gate at 0: the term
#    no longer tips the term's search's tie test (it kept the search there,
#    and the check took it: 0.336 -> 0.318); the check keeps the term-free
#    solution, exact equal to loss_serial=1's (the whole second search,
#    loss_serial_win=0; windowed, which runs no tie test, it keeps its
#    search there: 0.388 -> 0.390, checked never below loss_serial=1).
# 4. The second search windowed (loss_serial_win=1, the default: from the
#    first solution, the stacked calls' window only; docs/joint/loss.md,
#    "The second search windowed"): on pool x2 (2.) it keeps what the whole
#    second search (loss_serial_win=0) kept, at least as many requests
#    exact, with a loss_serial_window= line; where the gate skips (async,
#    1.) the output is loss_serial_win=0's byte for byte (but the params
#    and cpu lines).
# Shuffled rows give the same result (pool).  Fails on a tree without
# loss_serial_gate or loss_serial_win (unknown option).
. "$PB_ROOT/tests/sh/joint_lib.sh"
gate() { grep '^# loss_serial_gate=' "$1"; }
check() { grep '^# loss_serial_check=' "$1"; }
# 1. the gate
"$B/maketrace" "$PB_ROOT/experiments/joint_apps_async.conf" -s seed=1 -s duration=2s \
    > "$tmp/a.csv" || fail "maketrace (async)"
run_nocal "$tmp/a.csv" "$tmp/a1.csv" -s loss_serial=1
run_nocal "$tmp/a.csv" "$tmp/a8.csv"
g=$(gate "$tmp/a8.csv")
echo "async x1: $g"
echo "$g" | grep -q '^# loss_serial_gate=skipped share=0\.0[0-9]* level=0\.1000 ' ||
    fail "the gate did not skip the second search: $g"
check "$tmp/a8.csv" && fail "a check line without a second search"
assignment_of "$tmp/a1.csv" > "$tmp/x1"
assignment_of "$tmp/a8.csv" > "$tmp/x8"
cmp -s "$tmp/x1" "$tmp/x8" || fail "gate skipped, but not loss_serial=1's assignment"
run_nocal "$tmp/a.csv" "$tmp/a0.csv" -s loss_serial_gate=0
gate "$tmp/a0.csv" | grep -q '^# loss_serial_gate=ran ' || fail "gate 0: no second search"
check "$tmp/a0.csv" > /dev/null || fail "gate 0: no check line"
# 2. one giant unit: the sign test over the changed walks
"$B/maketrace" "$PB_ROOT/experiments/joint_models_pool.conf" -s seed=1 -s duration=2s \
    -s instances_scale=2 > "$tmp/p.csv" || fail "maketrace (pool)"
run_nocal "$tmp/p.csv" "$tmp/p1.csv" -s loss_serial=1
run_nocal "$tmp/p.csv" "$tmp/p8.csv"
e1=$(exact_of "$tmp/p.csv" "$tmp/p1.csv")
e8=$(exact_of "$tmp/p.csv" "$tmp/p8.csv")
m=$(check "$tmp/p8.csv")
echo "pool x2: exact loss_serial=1 $e1, 8 $e8; $m"
echo "$m" | awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    exit !(v["z"] < v["z_min"] && v["sign_z"] > v["z_min"] && v["chosen"] == "with") }' ||
    fail "not kept by the sign test over the changed walks: $m"
awk -v a="$e1" -v b="$e8" 'BEGIN { exit !(a < 0.5 && b >= 0.9) }' ||
    fail "pool x2: the term's search not kept: $e1 -> $e8"
check_shuffled_same "$tmp/p.csv" "$tmp/p8.csv"
# 4. windowed (the default) against the whole second search
grep -q '^# loss_serial_window=1 window_requests=[0-9]' "$tmp/p8.csv" ||
    fail "pool x2: no loss_serial_window line"
run_nocal "$tmp/p.csv" "$tmp/pw0.csv" -s loss_serial_win=0
grep -q '^# loss_serial_window=' "$tmp/pw0.csv" && fail "loss_serial_win=0: a window line"
m0=$(check "$tmp/pw0.csv")
e0=$(exact_of "$tmp/p.csv" "$tmp/pw0.csv")
echo "pool x2: whole second search exact $e0, windowed $e8"
echo "$m0" | grep -q 'chosen=with$' || fail "pool x2: the whole second search not kept: $m0"
echo "$m" | grep -q 'chosen=with$' || fail "pool x2: the windowed one not kept: $m"
awk -v a="$e0" -v b="$e8" 'BEGIN { exit !(b >= a) }' ||
    fail "pool x2: windowed $e8 below the whole second search's $e0"
run_nocal "$tmp/a.csv" "$tmp/aw0.csv" -s loss_serial_win=0
grep -v '^# params:\|^# cpu_' "$tmp/a8.csv" > "$tmp/x8"
grep -v '^# params:\|^# cpu_' "$tmp/aw0.csv" > "$tmp/xw0"
cmp -s "$tmp/x8" "$tmp/xw0" || fail "async x1 (gate skipped): windowed output differs from loss_serial_win=0's"
# 3. the tie test's choice without the guiding term
"$B/maketrace" "$PB_ROOT/experiments/joint_models_dispatch.conf" -s seed=11 -s duration=1s \
    > "$tmp/d.csv" 2> "$tmp/log" || fail "maketrace (dispatch)"
"$B/skewer" -q --round 1ms "$tmp/d.csv" > "$tmp/dm.csv" || fail "skewer 1ms"
run_nocal "$tmp/dm.csv" "$tmp/d1.csv" -s subtick=off -s loss_serial=1
run_nocal "$tmp/dm.csv" "$tmp/d8.csv" -s subtick=off -s loss_serial_gate=0 -s loss_serial_win=0
e1=$(exact_of "$tmp/dm.csv" "$tmp/d1.csv")
e8=$(exact_of "$tmp/dm.csv" "$tmp/d8.csv")
m=$(check "$tmp/d8.csv")
echo "dispatch s11 1 ms subtick=off, gate 0: exact loss_serial=1 $e1, 8 $e8; $m"
echo "$m" | grep -q 'chosen=without$' || fail "the term's search was kept: $m"
[ "$e1" = "$e8" ] || fail "dispatch: $e1 -> $e8"
# the windowed search (no tie test inside it) may keep its search there:
# never below loss_serial=1
run_nocal "$tmp/dm.csv" "$tmp/dw.csv" -s subtick=off -s loss_serial_gate=0
ew=$(exact_of "$tmp/dm.csv" "$tmp/dw.csv")
echo "dispatch s11 1 ms subtick=off, gate 0, windowed: exact $ew; $(check "$tmp/dw.csv")"
awk -v a="$e1" -v b="$ew" 'BEGIN { exit !(b >= a) }' || fail "dispatch windowed: $e1 -> $ew"
exit 0
