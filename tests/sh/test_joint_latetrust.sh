#!/bin/sh
# The trust in a held orphan's placement (docs/joint/model.md, "The trust in
# a placement"; algorithms/joint/late/joint_latetrust.c), on retries after a
# timeout at twice the load (experiments/joint_apps_retry.conf, 1 s,
# instances_scale=2, maketrace seed 9: never looked at while developing),
# stamps rounded down to 1 ms, with call ids:
# (1) rows in event order: joint by default at least -s late_calls=0;
# (2) the same rows shuffled within each tick (no order of events for
# subtick to read; where placements are least trusted): the result says
# what it undid (late_trust=fe>pay ... undone=N, N >= 1) and is at least
# -s late_trust=0 (the rule before; the tree before has no late_trust
# option, so this test fails there);
# (3) renamed nodes change no assignment of (2).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R="$PB_ROOT"
exact() { "$B/score" --truth "$1" "$2" | exact_acc; }

"$B/maketrace" "$R/experiments/joint_apps_retry.conf" -s seed=9 -s duration=1s \
    -s instances_scale=2 > "$tmp/g.csv" || fail "maketrace retry seed 9"
"$B/skewer" -q --round 1ms "$tmp/g.csv" > "$tmp/r.csv" || fail "skewer --round 1ms"

# (1) rows in event order
"$B/infer" --algo joint -q -s late_calls=0 -o "$tmp/z.res" "$tmp/r.csv" 2> "$tmp/log" ||
    fail "infer late_calls=0: $(cat "$tmp/log")"
"$B/infer" --algo joint -q -o "$tmp/n.res" "$tmp/r.csv" 2> "$tmp/log" ||
    fail "infer: $(cat "$tmp/log")"
ez=$(exact "$tmp/r.csv" "$tmp/z.res")
en=$(exact "$tmp/r.csv" "$tmp/n.res")
echo "retry x2 1 ms seed 9, ids: late_calls=0 $ez, default $en"
awk -v a="$en" -v b="$ez" 'BEGIN { exit !(a >= b) }' ||
    fail "default $en below late_calls=0 ($ez)"

# (2) rows shuffled within each tick (seeded)
shuffle_ticks 9 "$tmp/r.csv" "$tmp/s.csv"
"$B/infer" --algo joint -q -s late_trust=0 -o "$tmp/s0.res" "$tmp/s.csv" 2> "$tmp/log" ||
    fail "infer late_trust=0: $(cat "$tmp/log")"
"$B/infer" --algo joint -q -o "$tmp/s1.res" "$tmp/s.csv" 2> "$tmp/log" ||
    fail "infer shuffled ticks: $(cat "$tmp/log")"
e0=$(exact "$tmp/s.csv" "$tmp/s0.res")
e1=$(exact "$tmp/s.csv" "$tmp/s1.res")
line=$(grep '^# late_trust=fe>pay ' "$tmp/s1.res")
echo "rows shuffled within ticks: late_trust=0 $e0, default $e1; $line"
[ -n "$line" ] || fail "no late_trust line for fe>pay"
echo "$line" | grep -q ' undone=[1-9]' || fail "no placement undone: $line"
grep -q '^# late_trust=' "$tmp/s0.res" && fail "late_trust=0 wrote a late_trust line"
awk -v a="$e1" -v b="$e0" 'BEGIN { exit !(a >= b) }' ||
    fail "default $e1 below late_trust=0 ($e0)"

# (3) renamed nodes
sed -e '/^#/!s/\bfe\b/zz_front/g; /^#/!s/\bpay\b/aa_pay/g; /^#/!s/\bauth\b/m_auth/g' \
    "$tmp/s.csv" > "$tmp/rn.csv"
cmp -s "$tmp/s.csv" "$tmp/rn.csv" && fail "renaming changed nothing"
"$B/infer" --algo joint -q -o "$tmp/rn.res" "$tmp/rn.csv" 2> /dev/null || fail "infer renamed"
sed -n '/^# table=assignment/,$p' "$tmp/s1.res" | cut -d, -f1-4 > "$tmp/a.asg"
sed -n '/^# table=assignment/,$p' "$tmp/rn.res" | cut -d, -f1-4 > "$tmp/rn.asg"
[ "$(wc -l < "$tmp/a.asg")" -gt 1000 ] || fail "no assignment table"
cmp -s "$tmp/a.asg" "$tmp/rn.asg" || fail "renaming nodes changed the assignment"
echo "PASS"
