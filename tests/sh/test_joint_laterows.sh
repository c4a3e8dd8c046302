#!/bin/sh
# Rows within a tick at a service whose calls outlive their requests
# (docs/joint/ticks_rows.md, "Late calls on rows in event order"; late_rows,
# algorithms/joint/late/joint_latetie.c), on retries after a timeout at twice
# the load (experiments/joint_apps_retry.conf, 1 s, instances_scale=2,
# maketrace seed 9: never looked at while developing), stamps rounded down
# to 1 ms, with call ids, the rows not spread (-s subtick=off):
# (1) rows in event order: fe passes the late-call test, tie_rows now
# tests it (metadata late=held_both_sides) and joint is at least 5 points
# above -s late_rows=0 (the rule before: fe not tested; 23.2 -> 35.2) and
# within a point of -s late_calls=0 (35.4); the tree before has no
# late_rows option, so this test fails there;
# (2) the same rows shuffled within each tick (seeded): pay's rows fail
# the test, so fe's are not used: the assignment is late_rows=0's;
# (3) renamed nodes change no assignment of (1).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R="$PB_ROOT"
exact() { "$B/score" --truth "$1" "$2" | exact_acc; }
asg() { sed -n '/^# table=assignment/,$p' "$1" | cut -d, -f1-4; }
run() { # trace result options...
    _t=$1; _o=$2; shift 2
    "$B/infer" --algo joint -q -s subtick=off "$@" -o "$_o" "$_t" 2> "$tmp/log" ||
        fail "infer $*: $(cat "$tmp/log")"
}

"$B/maketrace" "$R/experiments/joint_apps_retry.conf" -s seed=9 -s duration=1s \
    -s instances_scale=2 > "$tmp/g.csv" || fail "maketrace retry seed 9"
"$B/skewer" -q --round 1ms "$tmp/g.csv" > "$tmp/r.csv" || fail "skewer --round 1ms"

# (1) rows in event order
run "$tmp/r.csv" "$tmp/n.res"
run "$tmp/r.csv" "$tmp/o.res" -s late_rows=0
run "$tmp/r.csv" "$tmp/z.res" -s late_calls=0
en=$(exact "$tmp/r.csv" "$tmp/n.res")
eo=$(exact "$tmp/r.csv" "$tmp/o.res")
ez=$(exact "$tmp/r.csv" "$tmp/z.res")
echo "retry x2 1 ms seed 9, ids, subtick=off: late_rows=0 $eo, default $en, late_calls=0 $ez"
grep -q '^# tie_rows_service=fe .* late=held_both_sides' "$tmp/n.res" ||
    fail "fe's rows not used: $(grep tie_rows_service "$tmp/n.res")"
grep -q '^# tie_rows_service=fe ' "$tmp/o.res" && fail "late_rows=0 tested fe"
awk -v a="$en" -v b="$eo" 'BEGIN { exit !(a >= b + 0.05) }' ||
    fail "default $en not 5 points above late_rows=0 ($eo)"
awk -v a="$en" -v b="$ez" 'BEGIN { exit !(a >= b - 0.01) }' ||
    fail "default $en more than a point below late_calls=0 ($ez)"

# (2) rows shuffled within each tick (seeded): the rule declines
shuffle_ticks 9 "$tmp/r.csv" "$tmp/s.csv"
run "$tmp/s.csv" "$tmp/s1.res"
run "$tmp/s.csv" "$tmp/s0.res" -s late_rows=0
grep -q '^# tie_rows_service=fe ' "$tmp/s1.res" && fail "fe's shuffled rows used"
asg "$tmp/s1.res" > "$tmp/a1"
asg "$tmp/s0.res" > "$tmp/a0"
[ "$(wc -l < "$tmp/a1")" -gt 1000 ] || fail "no assignment table"
cmp -s "$tmp/a1" "$tmp/a0" || fail "shuffled ticks: the assignment is not late_rows=0's"
echo "rows shuffled within ticks: $(exact "$tmp/s.csv" "$tmp/s1.res") (late_rows=0's assignment)"

# (3) renamed nodes
sed -e '/^#/!s/\bfe\b/zz_front/g; /^#/!s/\bpay\b/aa_pay/g; /^#/!s/\bauth\b/m_auth/g' \
    "$tmp/r.csv" > "$tmp/rn.csv"
cmp -s "$tmp/r.csv" "$tmp/rn.csv" && fail "renaming changed nothing"
run "$tmp/rn.csv" "$tmp/rn.res"
asg "$tmp/n.res" > "$tmp/a.asg"
asg "$tmp/rn.res" > "$tmp/rn.asg"
cmp -s "$tmp/a.asg" "$tmp/rn.asg" || fail "renaming nodes changed the assignment"
echo "PASS"
