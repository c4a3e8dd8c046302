#!/bin/sh
# The rows within a tick as the order of events (algorithms/joint/ticks/
# joint_subtick.c, docs/joint/ticks.md "Positions within a tick: the order of the
# rows"): the twelve-level chain and the six-endpoint service of the
# application audit (experiments/joint_apps_deep.conf, _endpoints.conf;
# maketrace seed 11, 1 s: not a seed the rule was developed on), stamps
# rounded down to 1 ms, as a black box.  The rows keep the order of events
# (skewer --round keeps it), so the row-order check passes (metadata
# spread=yes, no contradiction forwards) and joint, on the rows spread over
# their ticks, is at least 10 points above -s subtick=off and above
# nesting (on the tree before, joint is below nesting on both: fails).
# The same trace with the rows of every tick reversed (an order a writer
# that does not keep the order of events could give): the check declines
# (spread=no) and the links are those of -s subtick=off.  Stamps in ns:
# no subtick line, the output of -s subtick=off (but the params line).
# Renamed nodes give the same links.  On the spread rows the tie test
# still runs (subtick_tie): it keeps the search on deep and endpoints and
# the start on a worker pool (below).
. "$PB_ROOT/tests/sh/joint_lib.sh"
acc() { # trace subtick-value out truth -> exact accuracy
    "$B/infer" --algo joint -s subtick="$2" -o "$3" "$1" 2> "$tmp/log" ||
        fail "infer $1 subtick=$2: $(tail -1 "$tmp/log")"
    "$B/score" --truth "$4" "$3" | exact_acc
}
links() { sed -n '/^# table=assignment/,$p' "$1" | grep -v '^#' | LC_ALL=C sort; }
body() { grep -v '^# \(cpu_\|params:\)' "$1"; }
for c in deep endpoints; do
    "$B/maketrace" "$PB_ROOT/experiments/joint_apps_$c.conf" -s seed=11 -s duration=1s \
        > "$tmp/ns.csv" 2> "$tmp/log" || fail "maketrace $c: $(tail -1 "$tmp/log")"
    "$B/skewer" -q --round 1ms "$tmp/ns.csv" > "$tmp/ms.csv" || fail "skewer 1ms"
    strip_callids "$tmp/ms.csv" > "$tmp/bb.csv"
    off=$(acc "$tmp/bb.csv" off "$tmp/r.off" "$tmp/ms.csv")
    on=$(acc "$tmp/bb.csv" auto "$tmp/r.on" "$tmp/ms.csv")
    "$B/infer" --algo nesting -q -o "$tmp/n.csv" "$tmp/bb.csv" 2> /dev/null || fail "nesting"
    nest=$("$B/score" --truth "$tmp/ms.csv" "$tmp/n.csv" | exact_acc)
    echo "$c x1 at 1 ms, black box: subtick=off $off, auto $on, nesting $nest"
    grep -q '^# subtick=auto tick=1ms runs=[0-9]* forward=0 backward=[0-9]* .*spread=yes' "$tmp/r.on" ||
        fail "$c: the rows were not spread: $(grep '^# subtick=' "$tmp/r.on")"
    grep -q '^# subtick=' "$tmp/r.off" && fail "$c: subtick=off still writes a subtick line"
    grep -q '^# tie_test=on .*kept=search' "$tmp/r.on" ||
        fail "$c: the tie test on the spread rows did not keep the search: $(grep '^# tie_test=' "$tmp/r.on")"
    awk -v a="$on" -v b="$off" -v n="$nest" 'BEGIN { exit !(a >= b + 0.10 && a > n) }' ||
        fail "$c: subtick $on not 10 points above subtick=off $off and above nesting $nest"
    # every tick's rows reversed: declined, the links of subtick=off
    awk 'BEGIN { FS = "," } /^#/ { print; next } !h { h = 1; print; next }
         { if (n && $2 != t) { for (i = n; i >= 1; i--) print r[i]; n = 0 }
           t = $2; r[++n] = $0 }
         END { for (i = n; i >= 1; i--) print r[i] }' "$tmp/bb.csv" > "$tmp/rev.csv"
    "$B/infer" --algo joint -o "$tmp/r.rev" "$tmp/rev.csv" 2> "$tmp/log" || fail "reversed: $(tail -1 "$tmp/log")"
    "$B/infer" --algo joint -s subtick=off -o "$tmp/r.revoff" "$tmp/rev.csv" 2> "$tmp/log" ||
        fail "reversed off: $(tail -1 "$tmp/log")"
    grep -q '^# subtick=auto .*spread=no' "$tmp/r.rev" ||
        fail "$c reversed rows: not declined: $(grep '^# subtick=' "$tmp/r.rev")"
    links "$tmp/r.rev" > "$tmp/l.a"
    links "$tmp/r.revoff" > "$tmp/l.b"
    cmp -s "$tmp/l.a" "$tmp/l.b" || fail "$c reversed rows: the links differ from subtick=off"
    # renamed nodes: the same links
    sed 's/,l9,/,zz9,/g; s/,api,/,a0,/g' "$tmp/bb.csv" > "$tmp/ren.csv"
    "$B/infer" --algo joint -o "$tmp/r.ren" "$tmp/ren.csv" 2> "$tmp/log" || fail "renamed: $(tail -1 "$tmp/log")"
    links "$tmp/r.on" > "$tmp/l.a"
    links "$tmp/r.ren" > "$tmp/l.b"
    cmp -s "$tmp/l.a" "$tmp/l.b" || fail "$c renamed nodes: the links differ"
done
# a pool of four workers in front of two fast services (experiments/
# joint_pool.conf, held-out seed 8), 1 ms, black box: the rows are spread
# (the check passes), but the search's moves on them stay within a tick
# of their start parent and gain little, so the tie test keeps the start
# (arrival in row order): first come, first served's accuracy (with
# -s subtick_tie=0 the search was kept and lost 3 points before the merge
# of tie_rows; since then both give fcfs's accuracy on this seed)
"$B/maketrace" "$PB_ROOT/experiments/joint_pool.conf" -s seed=8 > "$tmp/pns.csv" 2> "$tmp/log" ||
    fail "maketrace pool: $(tail -1 "$tmp/log")"
"$B/skewer" -q --round 1ms "$tmp/pns.csv" > "$tmp/pms.csv" || fail "skewer pool"
strip_callids "$tmp/pms.csv" > "$tmp/pbb.csv"
"$B/infer" --algo joint -o "$tmp/p.1" "$tmp/pbb.csv" 2> /dev/null || fail "pool"
"$B/infer" --algo joint -s subtick_tie=0 -o "$tmp/p.0" "$tmp/pbb.csv" 2> /dev/null || fail "pool tie 0"
"$B/infer" --algo fcfs -o "$tmp/p.f" "$tmp/pbb.csv" 2> /dev/null || fail "pool fcfs"
a1=$("$B/score" --truth "$tmp/pms.csv" "$tmp/p.1" | exact_acc)
a0=$("$B/score" --truth "$tmp/pms.csv" "$tmp/p.0" | exact_acc)
af=$("$B/score" --truth "$tmp/pms.csv" "$tmp/p.f" | exact_acc)
echo "pool seed 8 at 1 ms, black box: subtick_tie=1 $a1, 0 $a0, fcfs $af"
grep -q '^# subtick=auto .*spread=yes' "$tmp/p.1" || fail "pool: not spread"
grep -q '^# tie_test=on .*kept=start' "$tmp/p.1" || fail "pool: the tie test did not keep the start"
awk -v a="$a1" -v f="$af" 'BEGIN { exit !(a >= f) }' ||
    fail "pool: subtick_tie=1 $a1 not at fcfs $af"
# the pool at 1 ms given call ids (held-out seed 9): the returns are
# paired by id, so the tie test does not judge the spread rows at the
# original tick (subtick_tie applies where the calls carry no ids): the
# search is kept and beats first come, first served (78.7 against 75.9);
# with -s subtick_tie_ids=1 (main before this) the start was kept, 74.4
"$B/maketrace" "$PB_ROOT/experiments/joint_pool.conf" -s seed=9 > "$tmp/p9ns.csv" 2> "$tmp/log" ||
    fail "maketrace pool 9: $(tail -1 "$tmp/log")"
"$B/skewer" -q --round 1ms "$tmp/p9ns.csv" > "$tmp/p9ms.csv" || fail "skewer pool 9"
"$B/infer" --algo joint -o "$tmp/p9.j" "$tmp/p9ms.csv" 2> /dev/null || fail "pool 9"
"$B/infer" --algo fcfs -o "$tmp/p9.f" "$tmp/p9ms.csv" 2> /dev/null || fail "pool 9 fcfs"
aj=$("$B/score" --truth "$tmp/p9ms.csv" "$tmp/p9.j" | exact_acc)
af=$("$B/score" --truth "$tmp/p9ms.csv" "$tmp/p9.f" | exact_acc)
echo "pool seed 9 at 1 ms, call ids: joint $aj, fcfs $af"
grep -q '^# subtick_tie=off calls=[0-9]* with_call_ids=' "$tmp/p9.j" ||
    fail "pool 9: no subtick_tie=off line"
awk -v a="$aj" -v f="$af" 'BEGIN { exit !(a >= f) }' ||
    fail "pool 9 with call ids: joint $aj below fcfs $af"
grep -q '^# subtick_tie=original_tick calls=' "$tmp/p.1" ||
    fail "pool black box: the tie test not at the original tick"
# stamps as generated: nothing runs
strip_callids "$tmp/ns.csv" > "$tmp/bbns.csv"
"$B/infer" --algo joint -o "$tmp/r.ns" "$tmp/bbns.csv" 2> /dev/null || fail "ns"
"$B/infer" --algo joint -s subtick=off -o "$tmp/r.nsoff" "$tmp/bbns.csv" 2> /dev/null || fail "ns off"
grep -q '^# subtick' "$tmp/r.ns" && fail "ns stamps: a subtick line"
body "$tmp/r.ns" > "$tmp/b.a"
body "$tmp/r.nsoff" > "$tmp/b.b"
cmp -s "$tmp/b.a" "$tmp/b.b" || fail "ns stamps: the output differs from subtick=off"
echo "PASS"
