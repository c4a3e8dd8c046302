#!/bin/sh
# Calls the start leaves without a parent, on rows in event order
# (algorithms/joint/ticks/joint_roworph.c, docs/joint/ticks.md "Calls the start
# leaves without a parent, on rows in event order"): the event
# execution-model config (maketrace seed 11, 2 s: not a seed the rule was
# developed on), the columns the execution-model audit keeps, stamps
# rounded down to 10 ms, call ids emptied (a black box).  subtick finds the
# rows in the order of events and spreads them; the tie test would keep
# the start, whose pairing of returns leaves about 90 calls without a
# parent (the search 0), while the search is the less likely of the two.
# The rule refutes the start by the sign test alone: metadata
# tie_orphans_rows=on search_likelier=no refuted=yes, joint at least 8
# points above -s tie_orphans_rows=0 (about 52 %) and far above nesting
# (about 19 %).  The tree before it has no such option (fails).  The rows
# of each tick reversed, or shuffled within each tick: subtick declines,
# no tie_orphans_rows line, the links of tie_orphans_rows=0.  Unrounded
# stamps: nothing runs, the links of tie_orphans_rows=0.
. "$PB_ROOT/tests/sh/joint_lib.sh"
run() { # trace option-value out
    "$B/infer" --algo joint -s tie_orphans_rows="$2" -o "$3" "$1" 2> "$tmp/log" ||
        fail "infer $1 tie_orphans_rows=$2: $(tail -1 "$tmp/log")"
}
acc() { "$B/score" --truth "$tmp/truth.csv" "$1" | exact_acc; }
links() { sed -n '/^# table=assignment/,$p' "$1" | grep -v '^#' | LC_ALL=C sort; }
same_links() { # out-a out-b what
    links "$1" > "$tmp/la"
    links "$2" > "$tmp/lb"
    cmp -s "$tmp/la" "$tmp/lb" || fail "$3: the links differ from tie_orphans_rows=0"
}
"$B/maketrace" "$PB_ROOT/experiments/joint_models_event.conf" -s seed=11 -s duration=2s \
    > "$tmp/raw.csv" 2> "$tmp/log" || fail "maketrace: $(tail -1 "$tmp/log")"
keep_cols "$tmp/raw.csv" > "$tmp/ns.ids.csv"
strip_callids "$tmp/ns.ids.csv" > "$tmp/ns.csv"
"$B/skewer" -q --round 10ms "$tmp/ns.ids.csv" > "$tmp/truth.csv" || fail "skewer 10ms"
strip_callids "$tmp/truth.csv" > "$tmp/t.csv"
run "$tmp/t.csv" 1 "$tmp/r.1"
run "$tmp/t.csv" 0 "$tmp/r.0"
on=$(acc "$tmp/r.1")
off=$(acc "$tmp/r.0")
"$B/infer" --algo nesting -q -o "$tmp/n.csv" "$tmp/t.csv" 2> /dev/null || fail "nesting"
nest=$(acc "$tmp/n.csv")
echo "event x1 at 10 ms, black box: tie_orphans_rows=0 $off, 1 $on, nesting $nest"
grep -q '^# subtick=.* spread=yes' "$tmp/r.1" || fail "subtick did not spread the rows"
grep -q '^# tie_orphans_rows=on search_likelier=no refuted=yes' "$tmp/r.1" ||
    fail "the rule did not refute the start: $(grep '^# tie_orphans' "$tmp/r.1")"
grep -q '^# tie_orphans=.* kept=start' "$tmp/r.0" ||
    fail "tie_orphans_rows=0 does not keep the start: $(grep '^# tie_orphans' "$tmp/r.0")"
grep -q '^# tie_orphans_rows' "$tmp/r.0" && fail "tie_orphans_rows=0 still writes its line"
awk -v a="$on" -v b="$off" -v n="$nest" 'BEGIN { exit !(a >= b + 0.08 && a >= n + 0.3) }' ||
    fail "tie_orphans_rows=1 $on not 8 points above =0 $off and 30 above nesting $nest"
# the rows of each tick reversed, then shuffled within each tick: no order
# of events; subtick declines and the rule does not run
awk -F, '/^#/ { print; next } !h { print; h = 1; next }
         $2 != t { for (i = k; i > 0; i--) print r[i]; k = 0; t = $2 }
         { r[++k] = $0 } END { for (i = k; i > 0; i--) print r[i] }' "$tmp/t.csv" > "$tmp/rev.csv"
awk -F, 'BEGIN { srand(5) } /^#/ { print; next } !h { print; h = 1; next }
         function flush(  i, j, x) { for (i = k; i > 1; i--) { j = int(rand() * i) + 1; x = r[i]; r[i] = r[j]; r[j] = x }
                                     for (i = 1; i <= k; i++) print r[i]; k = 0 }
         $2 != t { flush(); t = $2 }
         { r[++k] = $0 } END { flush() }' "$tmp/t.csv" > "$tmp/shuf.csv"
cmp -s "$tmp/t.csv" "$tmp/shuf.csv" && fail "shuffling within ticks changed nothing"
for v in rev shuf; do
    run "$tmp/$v.csv" 1 "$tmp/$v.1"
    run "$tmp/$v.csv" 0 "$tmp/$v.0"
    grep -q '^# subtick=.* spread=no' "$tmp/$v.1" || fail "$v rows: subtick did not decline"
    grep -q '^# tie_orphans_rows' "$tmp/$v.1" && fail "$v rows: a tie_orphans_rows line"
    same_links "$tmp/$v.0" "$tmp/$v.1" "$v rows"
done
# unrounded: nothing runs
run "$tmp/ns.csv" 1 "$tmp/u.1"
run "$tmp/ns.csv" 0 "$tmp/u.0"
grep -q '^# tie_orphans_rows' "$tmp/u.1" && fail "unrounded stamps: a tie_orphans_rows line"
same_links "$tmp/u.0" "$tmp/u.1" "unrounded stamps"
echo "PASS"
