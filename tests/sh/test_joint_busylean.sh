#!/bin/sh
# joint's busy_copy_lean (docs/joint/speed_w21.md, "The busy test's copies from
# one set-up (h188)"): the busy test's copies of the free solution share
# one set-up (the orphans' misses, the triggers, the delays per key, the
# window's roots: functions of the solution alone) and are read as the
# stamps their traces would hold.  Speed only: with the option (the
# default) and without it (0: each copy made as a trace) the output is
# the same byte for byte (every row, every metadata line, the busy test's
# per-service counts of the copies included) but the params line, and the
# warnings are the same, on
# - hotel-like (1 s, black box, busy_skip_same=0 so the copies are drawn;
#   nanosecond stamps: the spacing test reads the copies' sends too);
# - shape-serial (1 s, black box: the searches differ, copies drawn);
# - shape-serial stamped in whole milliseconds (skewer --round 1ms, busy_skip_same=0; the
#   copies' stamps cut to the tick, no spacing test);
# - experiments/joint_slow.conf seed 2 (black box): the spacing test decides
#   there, so its busy_spacing= line (the copies' gaps counted from their
#   sends) is compared too.
# A wrong copy (2: the receive of every second call lost) must change the busy
# test's copy counts (the check can fail), and shuffled rows give the same
# output.  Fails on a tree without the option (infer rejects it).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
body() { grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=' "$1"; }
run() { # name trace [options...]
    _n=$1; _t=$2; shift 2
    "$B/infer" --algo joint -q "$@" -o "$tmp/$_n.res" "$_t" 2> "$tmp/$_n.err" ||
        fail "infer $_n: $(cat "$tmp/$_n.err")"
}
"$B/maketrace" "$R/maketrace/configs/hotel-like.conf" -s duration=1s > "$tmp/m.csv" ||
    fail "maketrace hotel-like"
strip_callids "$tmp/m.csv" > "$tmp/h.csv"
"$B/maketrace" "$R/maketrace/configs/shape-serial.conf" -s duration=1s > "$tmp/m.csv" ||
    fail "maketrace shape-serial"
strip_callids "$tmp/m.csv" > "$tmp/s.csv"
"$B/skewer" --round 1ms "$tmp/m.csv" > "$tmp/r.csv" || fail "skewer"
strip_callids "$tmp/r.csv" > "$tmp/sr.csv"
"$B/maketrace" "$R/experiments/joint_slow.conf" -D seed=2 > "$tmp/m.csv" || fail "maketrace joint_slow"
strip_callids "$tmp/m.csv" > "$tmp/w.csv"
for c in h:busy_skip_same=0 s:busy_skip_same=1 sr:busy_skip_same=0 w:busy_skip_same=1; do
    n=${c%%:*}; o=${c#*:}
    run "${n}1" "$tmp/$n.csv" -s "$o"
    run "${n}0" "$tmp/$n.csv" -s "$o" -s busy_copy_lean=0
    run "${n}2" "$tmp/$n.csv" -s "$o" -s busy_copy_lean=2
    grep -q '^# params: .* busy_copy_lean=1' "$tmp/${n}1.res" || fail "$n: busy_copy_lean=1 not the default"
    grep -q '^# busy_service=.* copy_calls=[1-9]' "$tmp/${n}1.res" || fail "$n: no copies drawn"
    body "$tmp/${n}1.res" > "$tmp/a"
    body "$tmp/${n}0.res" > "$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head -5; fail "$n: busy_copy_lean changed the output"; }
    cmp -s "$tmp/${n}1.err" "$tmp/${n}0.err" || fail "$n: busy_copy_lean changed the warnings"
    grep '^# busy_service=' "$tmp/${n}2.res" > "$tmp/a"
    grep '^# busy_service=' "$tmp/${n}0.res" > "$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" && fail "$n: a wrong copy gives the same copy counts: the check cannot fail"
done
grep -q '^# busy_spacing=B .* copy_gaps=[1-9]' "$tmp/w1.res" || fail "joint_slow: the spacing test did not decide"
shuffle_rows 7 "$tmp/s.csv" "$tmp/x.csv"
"$B/infer" --algo joint -q --sort -o "$tmp/x.res" "$tmp/x.csv" 2> /dev/null || fail "infer shuffled"
body "$tmp/s1.res" > "$tmp/a"
body "$tmp/x.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "shuffled rows changed the result"
echo "PASS"
