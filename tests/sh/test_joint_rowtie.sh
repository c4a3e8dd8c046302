#!/bin/sh
# Rows within a tick (algorithms/joint/ticks/joint_rowtie.c, docs/joint/ticks_rows.md "Rows
# within a tick"): the event execution-model config (maketrace seed 11, 1
# s: not a seed the rule was developed on), stamps rounded down to 10 ms,
# with call ids.  Every request of a tick is a candidate of every call of
# the tick; the rows, written in the order things happened, say which
# requests were open.  The test passes at every service (used=yes, no
# call left without a candidate) and joint gains at least 30 points over
# -s tie_rows=0 (about 7 %), above nesting.  The tree before it has no such
# option (fails).  The same trace with the rows of each tick reversed (a
# merge that keeps no order): the test fails at every service (used=no)
# and the links are those of tie_rows=0.  Unrounded stamps: no test, the
# links of tie_rows=0.  Renamed nodes give the same links.
# (-s subtick=off throughout: tie_rows is what runs where the rows are not spread
# over their ticks, docs/joint/ticks.md "Positions within a tick".)
. "$PB_ROOT/tests/sh/joint_lib.sh"
run() { # trace option-value out
    "$B/infer" --algo joint -s subtick=off -s tie_rows="$2" -o "$3" "$1" 2> "$tmp/log" ||
        fail "infer $1 tie_rows=$2: $(tail -1 "$tmp/log")"
}
acc() { "$B/score" --truth "$1" "$2" | exact_acc; }
links() { sed -n '/^# table=assignment/,$p' "$1" | grep -v '^#' | LC_ALL=C sort; }
"$B/maketrace" "$PB_ROOT/experiments/joint_models_event.conf" -s seed=11 -s duration=1s \
    > "$tmp/ns.csv" 2> "$tmp/log" || fail "maketrace: $(tail -1 "$tmp/log")"
"$B/skewer" -q --round 10ms "$tmp/ns.csv" > "$tmp/t.csv" || fail "skewer 10ms"
run "$tmp/t.csv" 0 "$tmp/r.0"
run "$tmp/t.csv" 1 "$tmp/r.1"
off=$(acc "$tmp/t.csv" "$tmp/r.0")
on=$(acc "$tmp/t.csv" "$tmp/r.1")
"$B/infer" --algo nesting -q -o "$tmp/n.csv" "$tmp/t.csv" 2> /dev/null || fail "nesting"
nest=$(acc "$tmp/t.csv" "$tmp/n.csv")
echo "event x1 at 10 ms, call ids: tie_rows=0 $off, 1 $on, nesting $nest"
n=$(grep -c '^# tie_rows_service=.* cut=[0-9]* left_without=0 .*used=yes' "$tmp/r.1")
[ "$n" -ge 4 ] || fail "tie_rows: not used at web, text, media, compose: $(grep '^# tie_rows' "$tmp/r.1")"
grep -q '^# tie_rows' "$tmp/r.0" && fail "tie_rows=0 still writes a tie_rows line"
awk -v a="$on" -v b="$off" -v n="$nest" 'BEGIN { exit !(a >= b + 0.3 && a > n) }' ||
    fail "tie_rows=1 $on not 30 points above tie_rows=0 $off and above nesting $nest"
# the rows of each tick reversed: no order of events; the test says so
awk -F, '/^#/ { print; next } !h { print; h = 1; next }
         $2 != t { for (i = k; i > 0; i--) print r[i]; k = 0; t = $2 }
         { r[++k] = $0 } END { for (i = k; i > 0; i--) print r[i] }' "$tmp/t.csv" > "$tmp/rev.csv"
run "$tmp/rev.csv" 1 "$tmp/v.1"
run "$tmp/rev.csv" 0 "$tmp/v.0"
grep -q '^# tie_rows_service=.*used=yes' "$tmp/v.1" &&
    fail "reversed rows: a service still uses them: $(grep '^# tie_rows_service' "$tmp/v.1")"
grep -q '^# tie_rows_service=.*used=no' "$tmp/v.1" || fail "reversed rows: no tie_rows_service line"
links "$tmp/v.0" > "$tmp/l.v0"
links "$tmp/v.1" > "$tmp/l.v1"
cmp -s "$tmp/l.v0" "$tmp/l.v1" || fail "reversed rows: the links differ from tie_rows=0"
# unrounded: nothing runs
run "$tmp/ns.csv" 1 "$tmp/u.1"
run "$tmp/ns.csv" 0 "$tmp/u.0"
grep -q '^# tie_rows' "$tmp/u.1" && fail "unrounded stamps: a tie_rows line"
links "$tmp/u.0" > "$tmp/l.u0"
links "$tmp/u.1" > "$tmp/l.u1"
cmp -s "$tmp/l.u0" "$tmp/l.u1" || fail "unrounded stamps: the links differ from tie_rows=0"
# renamed nodes: the same links
sed 's/,web,/,w9,/g; s/,compose,/,zz_c,/g' "$tmp/t.csv" > "$tmp/ren.csv"
run "$tmp/ren.csv" 1 "$tmp/r.ren"
links "$tmp/r.1" > "$tmp/l.1"
links "$tmp/r.ren" > "$tmp/l.ren"
cmp -s "$tmp/l.1" "$tmp/l.ren" || fail "renamed nodes: the links differ"
echo "PASS"
