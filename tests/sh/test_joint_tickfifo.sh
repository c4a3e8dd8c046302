#!/bin/sh
# A service in tick order at whole-tick stamps whose rows within a tick are
# not in event order (docs/joint/ticks_rows.md, "A service in tick order: its
# calls in tick order"; tick_fifo, algorithms/joint/ticks/joint_tickx.c), on
# experiments/joint_ticks.conf (a pool F of 3 workers calling E, then G,
# which calls H; maketrace seed 41, never looked at while developing, 1 s),
# stamps rounded down to 1 ms, rows shuffled within each tick (seeded):
# (1) with call ids: subtick spreads nothing, every service passes the
# tick-order test (metadata used=yes), and joint with -s tick_fifo=1 is at
# least 3 points above -s tick_fifo=0 (the search's assignment) and not
# below fcfs by more than half a point; the tree before has no tick_fifo
# option, so this test fails there;
# (2) the rows in event order: subtick spreads them, the rule does not run
# (no metadata) and the assignment is tick_fifo=0's;
# (3) as a black box: the rule does not run, tick_fifo=0's assignment;
# (4) renamed nodes change no assignment of (1).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R="$PB_ROOT"
exact() { "$B/score" --truth "$1" "$2" | exact_acc; }
asg() { sed -n '/^# table=assignment/,$p' "$1" | cut -d, -f1-4; }
run() { # trace result options...
    _t=$1; _o=$2; shift 2
    "$B/infer" --algo joint -q "$@" -o "$_o" "$_t" 2> "$tmp/log" ||
        fail "infer $*: $(cat "$tmp/log")"
}

"$B/maketrace" "$R/experiments/joint_ticks.conf" -s seed=41 > "$tmp/g.csv" ||
    fail "maketrace joint_ticks seed 41"
"$B/skewer" -q --round 1ms "$tmp/g.csv" > "$tmp/r.csv" || fail "skewer --round 1ms"
shuffle_ticks 41 "$tmp/r.csv" "$tmp/s.csv"

# (1) rows shuffled within ticks, call ids
run "$tmp/s.csv" "$tmp/n.res" -s tick_fifo=1
run "$tmp/s.csv" "$tmp/o.res" -s tick_fifo=0
"$B/infer" --algo fcfs -q -o "$tmp/f.res" "$tmp/s.csv" 2> /dev/null || fail "infer fcfs"
en=$(exact "$tmp/g.csv" "$tmp/n.res")
eo=$(exact "$tmp/g.csv" "$tmp/o.res")
ef=$(exact "$tmp/g.csv" "$tmp/f.res")
echo "joint_ticks x1 1 ms seed 41, ticks shuffled, ids: tick_fifo=0 $eo, tick_fifo=1 $en, fcfs $ef"
grep -q '^# subtick=.* spread=no' "$tmp/n.res" || fail "subtick spread the shuffled rows"
grep -q '^# tick_fifo_service=F .* fifo=yes used=yes' "$tmp/n.res" ||
    fail "F not in tick order: $(grep tick_fifo_service=F "$tmp/n.res")"
grep -q '^# tick_fifo=on links=3 ' "$tmp/n.res" || fail "$(grep '^# tick_fifo=' "$tmp/n.res")"
grep -q '^# tick_fifo' "$tmp/o.res" && fail "tick_fifo=0 ran the rule"
awk -v a="$en" -v b="$eo" 'BEGIN { exit !(a >= b + 0.03) }' ||
    fail "tick_fifo=1 $en not 3 points above tick_fifo=0 ($eo)"
awk -v a="$en" -v b="$ef" 'BEGIN { exit !(a >= b - 0.005) }' ||
    fail "tick_fifo=1 $en more than half a point below fcfs ($ef)"

# (2) rows in event order: spread, the rule does not run
run "$tmp/r.csv" "$tmp/r1.res" -s tick_fifo=1
run "$tmp/r.csv" "$tmp/r0.res" -s tick_fifo=0
grep -q '^# tick_fifo' "$tmp/r1.res" && fail "the rule ran on rows in event order"
asg "$tmp/r1.res" > "$tmp/a1"
asg "$tmp/r0.res" > "$tmp/a0"
[ "$(wc -l < "$tmp/a1")" -gt 1000 ] || fail "no assignment table"
cmp -s "$tmp/a1" "$tmp/a0" || fail "rows in order: the assignment is not tick_fifo=0's"

# (3) black box
strip_callids "$tmp/s.csv" > "$tmp/b.csv"
run "$tmp/b.csv" "$tmp/b1.res" -s tick_fifo=1
run "$tmp/b.csv" "$tmp/b0.res" -s tick_fifo=0
grep -q '^# tick_fifo' "$tmp/b1.res" && fail "the rule ran without call ids"
asg "$tmp/b1.res" > "$tmp/a1"
asg "$tmp/b0.res" > "$tmp/a0"
cmp -s "$tmp/a1" "$tmp/a0" || fail "black box: the assignment is not tick_fifo=0's"

# (4) renamed nodes
sed -e '/^#/!s/,F,/,zz_pool,/g; /^#/!s/,G,/,aa_g,/g; /^#/!s/,E,/,m_e,/g' \
    "$tmp/s.csv" > "$tmp/sn.csv"
cmp -s "$tmp/s.csv" "$tmp/sn.csv" && fail "renaming changed nothing"
run "$tmp/sn.csv" "$tmp/sn.res" -s tick_fifo=1
asg "$tmp/n.res" > "$tmp/a.asg"
asg "$tmp/sn.res" > "$tmp/sn.asg"
cmp -s "$tmp/a.asg" "$tmp/sn.asg" || fail "renaming nodes changed the assignment"
echo "PASS"
