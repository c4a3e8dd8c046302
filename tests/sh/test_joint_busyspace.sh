#!/bin/sh
# joint's busy test, its second statistic: the spacing of a service's own
# sends (`busy_space`, algorithms/joint/busy/joint_space.c; docs/joint/search.md, "The
# busy test", "Spacing of sends").  The class: an event loop of one thread
# whose requests are each slowed by their own factor
# (experiments/joint_slow.conf).  On seeds 2 and 30 (30 held out while the
# rule was made) the busy test's calls landing busy miss B (z above
# -3.29), the free search is kept and joint falls below first come, first
# served; B's sends are spaced far more than the copies' (z near -15), so
# with busy_space the held search is kept: at least fcfs and a point above
# -s busy_space=0.  Shuffled rows and renamed nodes change nothing; where B
# is a pool of workers (B.model=pool) nothing fires and the result is byte
# for byte that of busy_space=0; likewise at whole-millisecond stamps
# (experiments/joint_fifo_io.conf, `skewer --round 1ms`: many messages
# share a stamp, no test; without that gate its one-worker services
# fired).  Nor on rows that subtick spread over their ticks
# (experiments/joint_apps_endpoints.conf at 1 ms: the spread makes gaps
# below a tick that say nothing of the service; before the gate the
# spacing fired there and kept the held search, 45.7 -> 38.8 %).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
exact() { "$B/score" --truth "$1" "$2" | exact_acc; }
body() { grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=' "$1"; }
for seed in 2 30; do
    "$B/maketrace" "$R/experiments/joint_slow.conf" -D seed="$seed" > "$tmp/m.csv" ||
        fail "maketrace joint_slow seed $seed"
    strip_callids "$tmp/m.csv" > "$tmp/s$seed.csv"
    "$B/infer" --algo joint -q -s busy_space=0 -o "$tmp/old.res" "$tmp/s$seed.csv" 2> "$tmp/log" ||
        fail "infer busy_space=0: $(cat "$tmp/log")"
    "$B/infer" --algo joint -q -o "$tmp/new$seed.res" "$tmp/s$seed.csv" 2> "$tmp/log" ||
        fail "infer: $(cat "$tmp/log")"
    "$B/infer" --algo fcfs -q -o "$tmp/f.res" "$tmp/s$seed.csv" 2> /dev/null || fail "infer fcfs"
    eo=$(exact "$tmp/s$seed.csv" "$tmp/old.res")
    en=$(exact "$tmp/s$seed.csv" "$tmp/new$seed.res")
    ef=$(exact "$tmp/s$seed.csv" "$tmp/f.res")
    echo "joint_slow seed $seed, black box: busy_space=0 $eo, default $en, fcfs $ef"
    grep -q '^# busy_test=on .* held=yes chosen_by=busy_test.* busy_space=1$' "$tmp/new$seed.res" ||
        fail "seed $seed: $(grep '^# busy_test=' "$tmp/new$seed.res")"
    grep -q '^# busy_spacing=B .* serialising=yes$' "$tmp/new$seed.res" ||
        fail "seed $seed: B's sends not found spaced"
    grep -q '^# busy_service=B .* z=-[0-2]\.' "$tmp/new$seed.res" ||
        fail "seed $seed: the busy test's own z no longer misses B (pick another seed)"
    awk -v a="$en" -v b="$ef" -v o="$eo" 'BEGIN { exit !(a >= b && a >= o + 0.01) }' ||
        fail "seed $seed: exact $en, fcfs $ef, busy_space=0 $eo: expected at least fcfs and 1 point up"
done
# shuffled rows (read back with --sort) and renamed nodes: the same result
check_shuffle_rename "$tmp/s2.csv" "$tmp/new2.res"
grep -q '^# busy_spacing=zz_front .* serialising=yes$' "$tmp/r.res" || fail "renamed: B not spaced"
# B a pool of workers (not serialising): nothing fires, byte for byte
"$B/maketrace" "$R/experiments/joint_slow.conf" -s B.model=pool > "$tmp/m.csv" || fail "maketrace pool"
strip_callids "$tmp/m.csv" > "$tmp/p.csv"
"$B/infer" --algo joint -q -s busy_space=0 -o "$tmp/p0.res" "$tmp/p.csv" 2> /dev/null || fail "infer pool 0"
"$B/infer" --algo joint -q -o "$tmp/p1.res" "$tmp/p.csv" 2> /dev/null || fail "infer pool"
! grep -q '^# busy_spacing=\|^# busy_test=.* busy_space=' "$tmp/p1.res" || fail "pool: the spacing fired"
body "$tmp/p0.res" > "$tmp/a"
body "$tmp/p1.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "busy_space changed the pool's result"
# whole-millisecond stamps (coarse ties): not tested, byte for byte
"$B/maketrace" "$R/experiments/joint_fifo_io.conf" > "$tmp/m.csv" || fail "maketrace fifo_io"
"$B/skewer" --round 1ms "$tmp/m.csv" > "$tmp/mr.csv" || fail "skewer"
strip_callids "$tmp/mr.csv" > "$tmp/ms.csv"
"$B/infer" --algo joint -q -s busy_space=0 -o "$tmp/m0.res" "$tmp/ms.csv" 2> /dev/null || fail "infer 1ms 0"
"$B/infer" --algo joint -q -o "$tmp/m1.res" "$tmp/ms.csv" 2> /dev/null || fail "infer 1ms"
! grep -q '^# busy_spacing=\|^# busy_test=.* busy_space=' "$tmp/m1.res" || fail "1 ms: the spacing fired"
body "$tmp/m0.res" > "$tmp/a"
body "$tmp/m1.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "busy_space changed the 1 ms result"
# rows spread by subtick: still coarse for the spacing
"$B/maketrace" "$R/experiments/joint_apps_endpoints.conf" -s seed=1 -s duration=2s > "$tmp/e.csv" ||
    fail "maketrace endpoints"
"$B/skewer" --round 1ms "$tmp/e.csv" > "$tmp/er.csv" || fail "skewer endpoints"
strip_callids "$tmp/er.csv" > "$tmp/es.csv"
"$B/infer" --algo joint -q -o "$tmp/e1.res" "$tmp/es.csv" 2> /dev/null || fail "infer endpoints"
grep -q '^# subtick=.* spread=yes' "$tmp/e1.res" || fail "endpoints 1 ms: rows not spread (pick another case)"
! grep -q '^# busy_spacing=\|^# busy_test=.* busy_space=' "$tmp/e1.res" ||
    fail "spread rows: the spacing fired"
echo "PASS"
