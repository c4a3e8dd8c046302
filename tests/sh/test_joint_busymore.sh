#!/bin/sh
# joint's busy test with more copies where its verdict depends on their
# spread (`busy_more`, algorithms/joint/busy/joint_busymore.c; docs/joint/search.md,
# "The busy test").  The class: an event loop of one thread whose requests
# are each slowed by their own factor (experiments/joint_slow.conf: B's
# delays heavy-tailed and correlated within a request).  With the first
# three copies (a quarter of the trace each) B's z stays above -3.29, the
# free search is kept and joint falls below first come, first served; with
# more copies B is found serialising and the held search is kept: at least
# fcfs, and above -s busy_more=0 (seed 1, and seed 8, which was held out
# while the rule was made; busy_more=0 also with busy_space=0, the
# spacing of sends that finds B on its own since: joint_busyspace.sh).
# Shuffled rows and renamed nodes change
# nothing; on the event loop without slowdowns (joint_event.conf, 2 s) the
# first copies decide and the result is byte for byte that of busy_more=0.
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
exact() { "$B/score" --truth "$1" "$2" | exact_acc; }
body() { grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=' "$1"; }
for seed in 1 8; do
    "$B/maketrace" "$R/experiments/joint_slow.conf" -D seed="$seed" > "$tmp/m.csv" ||
        fail "maketrace joint_slow seed $seed"
    strip_callids "$tmp/m.csv" > "$tmp/s$seed.csv"
    "$B/infer" --algo joint -q -s busy_more=0 -s busy_space=0 -o "$tmp/old.res" "$tmp/s$seed.csv" 2> "$tmp/log" ||
        fail "infer busy_more=0: $(cat "$tmp/log")"
    "$B/infer" --algo joint -q -o "$tmp/new$seed.res" "$tmp/s$seed.csv" 2> "$tmp/log" ||
        fail "infer: $(cat "$tmp/log")"
    "$B/infer" --algo fcfs -q -o "$tmp/f.res" "$tmp/s$seed.csv" 2> /dev/null || fail "infer fcfs"
    eo=$(exact "$tmp/s$seed.csv" "$tmp/old.res")
    en=$(exact "$tmp/s$seed.csv" "$tmp/new$seed.res")
    ef=$(exact "$tmp/s$seed.csv" "$tmp/f.res")
    echo "joint_slow seed $seed, black box: busy_more=0 $eo, default $en, fcfs $ef"
    grep -q '^# busy_test=on .* held=yes chosen_by=busy_test busy_copies=[0-9]*$' "$tmp/new$seed.res" ||
        fail "seed $seed: $(grep '^# busy_test=' "$tmp/new$seed.res")"
    grep -q '^# busy_service=B .* serialising=yes ' "$tmp/new$seed.res" || fail "seed $seed: B not serialising"
    awk -v a="$en" -v b="$ef" -v o="$eo" 'BEGIN { exit !(a >= b && a >= o + 0.01) }' ||
        fail "seed $seed: exact $en, fcfs $ef, busy_more=0 $eo: expected at least fcfs and 1 point up"
done
# shuffled rows (read back with --sort) and renamed nodes: the same result
check_shuffle_rename "$tmp/s1.csv" "$tmp/new1.res"
grep -q '^# busy_service=zz_front .* serialising=yes ' "$tmp/r.res" || fail "renamed: B not serialising"
# where the first copies decide: nothing drawn, byte for byte
"$B/maketrace" "$R/experiments/joint_event.conf" -s duration=2s > "$tmp/m.csv" || fail "maketrace event"
strip_callids "$tmp/m.csv" > "$tmp/e.csv"
"$B/infer" --algo joint -q -s busy_more=0 -o "$tmp/e0.res" "$tmp/e.csv" 2> /dev/null || fail "infer event 0"
"$B/infer" --algo joint -q -o "$tmp/e1.res" "$tmp/e.csv" 2> /dev/null || fail "infer event"
! grep -q 'busy_copies=' "$tmp/e1.res" || fail "event loop: more copies drawn"
body "$tmp/e0.res" > "$tmp/a"
body "$tmp/e1.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "busy_more changed the event loop's result"
echo "PASS"
