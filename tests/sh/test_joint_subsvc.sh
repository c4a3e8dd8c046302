#!/bin/sh
# subtick decided per service (algorithms/joint/ticks/joint_subsvc.c,
# docs/joint/ticks_rows.md "Positions within a tick: per service"): a capture merged from hosts whose
# rows keep the order of events and hosts whose rows do not.  The
# social-network-like application of the application audit
# (experiments/joint_apps_social.conf, maketrace seed 31, 1 s: not a seed
# the rule was developed on), stamps rounded down to 1 ms, with the rows of
# poststore and nginx shuffled within each tick among their own places
# (shuffle_services).  The trace-wide check declined on such a trace (one
# verdict for all, the links of -s subtick=off); per service the two are
# put out, every other service's rows are spread (metadata spread=services,
# subtick_order= lines), and joint is at least 3 points above subtick=off
# and above nesting, with call ids and as a black box (fails on the tree
# before: no per-service verdict).  Every row in order: spread=yes, the
# links of -s subtick=on (the trace-wide rule); every service shuffled:
# spread=no, the links of -s subtick=off.  Renamed nodes: the same links.
# Call ids on some links only, -s subtick_tie_links=1 (a worker pool, experiments/joint_pool.conf,
# held-out seed 31, ids emptied on client>B): the tie test on the spread
# rows runs and counts only the moves that touch a link paired by position
# (metadata subtick_tie_links=); joint at or above first come, first
# served (fails on the tree before, which ran no tie test there).
. "$PB_ROOT/tests/sh/joint_lib.sh"
links() { sed -n '/^# table=assignment/,$p' "$1" | grep -v '^#' | LC_ALL=C sort; }
acc() { "$B/score" --truth "$1" "$2" | exact_acc; }
run() { # out trace opts...
    o=$1
    f=$2
    shift 2
    "$B/infer" --algo joint "$@" -o "$o" "$f" 2> "$tmp/log" || fail "infer $f $*: $(tail -1 "$tmp/log")"
}
"$B/maketrace" "$PB_ROOT/experiments/joint_apps_social.conf" -s seed=31 -s duration=1s \
    > "$tmp/ns.csv" 2> "$tmp/log" || fail "maketrace: $(tail -1 "$tmp/log")"
"$B/skewer" -q --round 1ms "$tmp/ns.csv" > "$tmp/ms.csv" || fail "skewer 1ms"
shuffle_services 31 "poststore nginx" "" "$tmp/ms.csv" "$tmp/mix.csv"
strip_callids "$tmp/mix.csv" > "$tmp/mixbb.csv"
for m in ids bb; do
    f=$tmp/mix.csv
    [ $m = bb ] && f=$tmp/mixbb.csv
    run "$tmp/r.$m" "$f"
    run "$tmp/r.off.$m" "$f" -s subtick=off
    "$B/infer" --algo nesting -q -o "$tmp/n.$m" "$f" 2> /dev/null || fail "nesting"
    a=$(acc "$tmp/ms.csv" "$tmp/r.$m")
    off=$(acc "$tmp/ms.csv" "$tmp/r.off.$m")
    nest=$(acc "$tmp/ms.csv" "$tmp/n.$m")
    echo "social, poststore and nginx shuffled, 1 ms, $m: per service $a, subtick=off $off, nesting $nest"
    grep -q '^# subtick=auto .*spread=services' "$tmp/r.$m" ||
        fail "$m: not spread per service: $(grep '^# subtick=' "$tmp/r.$m")"
    for s in poststore nginx; do
        grep -q "^# subtick_order=$s .*spread=no" "$tmp/r.$m" ||
            fail "$m: $s not put out: $(grep "^# subtick_order=$s " "$tmp/r.$m")"
    done
    grep -q '^# subtick_order=composepost .*spread=yes' "$tmp/r.$m" ||
        fail "$m: composepost not spread"
    awk -v a="$a" -v b="$off" -v n="$nest" 'BEGIN { exit !(a >= b + 0.03 && a > n) }' ||
        fail "$m: per service $a not 3 points above subtick=off $off and above nesting $nest"
done
# every row in order: the trace-wide rule's result
strip_callids "$tmp/ms.csv" > "$tmp/bb.csv"
run "$tmp/o.a" "$tmp/bb.csv"
run "$tmp/o.on" "$tmp/bb.csv" -s subtick=on
grep -q '^# subtick=auto .*spread=yes' "$tmp/o.a" || fail "in order: not spread"
grep -q '^# subtick_order=' "$tmp/o.a" && fail "in order: per-service lines"
links "$tmp/o.a" > "$tmp/l.a"
links "$tmp/o.on" > "$tmp/l.b"
cmp -s "$tmp/l.a" "$tmp/l.b" || fail "in order: the links differ from subtick=on"
# every service shuffled: declined, the links of subtick=off
shuffle_services 32 "*" "" "$tmp/bb.csv" "$tmp/all.csv"
run "$tmp/o.s" "$tmp/all.csv"
run "$tmp/o.soff" "$tmp/all.csv" -s subtick=off
grep -q '^# subtick=auto .*spread=no' "$tmp/o.s" || fail "all shuffled: $(grep '^# subtick=' "$tmp/o.s")"
links "$tmp/o.s" > "$tmp/l.a"
links "$tmp/o.soff" > "$tmp/l.b"
cmp -s "$tmp/l.a" "$tmp/l.b" || fail "all shuffled: the links differ from subtick=off"
# renamed nodes: the same links
sed 's/,poststore,/,p0,/g; s/,nginx,/,front,/g' "$tmp/mixbb.csv" > "$tmp/ren.csv"
run "$tmp/o.ren" "$tmp/ren.csv"
links "$tmp/r.bb" > "$tmp/l.a"
links "$tmp/o.ren" > "$tmp/l.b"
cmp -s "$tmp/l.a" "$tmp/l.b" || fail "renamed nodes: the links differ"
# call ids on some links only: the pool, ids emptied on client>B
"$B/maketrace" "$PB_ROOT/experiments/joint_pool.conf" -s seed=31 -s duration=1s \
    > "$tmp/pns.csv" 2> "$tmp/log" || fail "maketrace pool: $(tail -1 "$tmp/log")"
"$B/skewer" -q --round 1ms "$tmp/pns.csv" > "$tmp/pms.csv" || fail "skewer pool"
shuffle_services 31 "" "client>B" "$tmp/pms.csv" "$tmp/pl.csv"
run "$tmp/p.j" "$tmp/pl.csv" -s subtick_tie_links=1
run "$tmp/p.d" "$tmp/pl.csv"
grep -q '^# subtick_tie=off ' "$tmp/p.d" || fail "pool, default: the tie test runs"
grep -q '^# subtick_tie_links=' "$tmp/p.d" && fail "pool, default: a subtick_tie_links line"
"$B/infer" --algo fcfs -o "$tmp/p.f" "$tmp/pl.csv" 2> /dev/null || fail "pool fcfs"
aj=$(acc "$tmp/pms.csv" "$tmp/p.j")
af=$(acc "$tmp/pms.csv" "$tmp/p.f")
echo "pool seed 31 at 1 ms, ids on B's calls only: joint -s subtick_tie_links=1 $aj, fcfs $af"
grep -q '^# subtick_tie=original_tick ' "$tmp/p.j" || fail "pool: the tie test not at the original tick"
grep -q '^# subtick_tie_links=1 of=3 ' "$tmp/p.j" || fail "pool: no subtick_tie_links line"
awk -v a="$aj" -v f="$af" 'BEGIN { exit !(a >= f - 0.005) }' ||
    fail "pool: joint $aj more than half a point below fcfs $af"
# subtick_blame: a chain (experiments/joint_apps_deep.conf, seed 41, 1 s,
# 1 ms) with l10, l11 and l12 shuffled: l11 is put out on its own counts;
# l10's disorder was seen through l11 and is put out with it
# (evidence=blamed), l9 stays spread; with call ids joint is above
# -s subtick_blame=0 (l10 spread out of order) and not below subtick=off
# (fails on the tree before: no such option, l10 spread)
"$B/maketrace" "$PB_ROOT/experiments/joint_apps_deep.conf" -s seed=41 -s duration=1s \
    > "$tmp/dns.csv" 2> "$tmp/log" || fail "maketrace deep: $(tail -1 "$tmp/log")"
"$B/skewer" -q --round 1ms "$tmp/dns.csv" > "$tmp/dms.csv" || fail "skewer deep"
shuffle_services 41 "l10 l11 l12" "" "$tmp/dms.csv" "$tmp/dl.csv"
run "$tmp/d.n" "$tmp/dl.csv"
run "$tmp/d.o" "$tmp/dl.csv" -s subtick_blame=0
run "$tmp/d.f" "$tmp/dl.csv" -s subtick=off
an=$(acc "$tmp/dms.csv" "$tmp/d.n")
ao=$(acc "$tmp/dms.csv" "$tmp/d.o")
af=$(acc "$tmp/dms.csv" "$tmp/d.f")
echo "deep seed 41 at 1 ms, l10-l12 shuffled, ids: subtick_blame $an, subtick_blame=0 $ao, subtick=off $af"
grep -q '^# subtick_order=l10 .*spread=no evidence=blamed' "$tmp/d.n" ||
    fail "deep: l10 not blamed: $(grep '^# subtick_order=l10 ' "$tmp/d.n")"
grep -q '^# subtick_order=l9 .*spread=yes' "$tmp/d.n" || fail "deep: l9 not spread"
grep -q '^# subtick_blamed=1$' "$tmp/d.n" || fail "deep: no subtick_blamed=1 line"
grep -q '^# subtick_order=l10 .*spread=yes' "$tmp/d.o" || fail "deep, subtick_blame=0: l10 not spread"
awk -v a="$an" -v o="$ao" -v f="$af" 'BEGIN { exit !(a >= o + 0.02 && a >= f) }' ||
    fail "deep: subtick_blame $an not 2 points above subtick_blame=0 $ao or below subtick=off $af"
echo "PASS"
