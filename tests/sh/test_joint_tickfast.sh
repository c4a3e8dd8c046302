#!/bin/sh
# fit_fast on traces that run the whole-tick rules (algorithms/joint/ticks/
# joint_tick0.c, joint_tickivl.c, joint_fitfast.c; docs/joint/audits.md "Whole-tick
# delays as intervals").  The event config (maketrace seed 9, 0.5 s, a seed
# the rules were not developed on) rounded to 1 us runs the zero-tick rule;
# rounded to 1 ms with -s tick_ivl=on it runs the intervals too.  On both,
# as a black box and with call ids: fit_fast replays refit walks (the tree
# before switched it off where the zero-tick rule ran: fit_walks_replayed=0,
# fails), and every line of the result is the one of -s fit_fast=0 but the
# parameters, the CPU and the effort counters.  Renamed services and
# shuffled rows (read with --sort) give the same links with the intervals
# on.
# (-s subtick=off throughout: the whole-tick machinery tested here is what runs where
# the rows within a tick are not taken as the order of events, docs/joint/ticks.md
# "Positions within a tick"; with the default the rows of these traces are.)
. "$PB_ROOT/tests/sh/joint_lib.sh"
"$B/maketrace" "$PB_ROOT/experiments/joint_models_event.conf" -s seed=9 -s duration=0.5s \
    > "$tmp/ns.csv" 2> "$tmp/log" || fail "maketrace: $(tail -1 "$tmp/log")"
"$B/skewer" -q --round 1us "$tmp/ns.csv" > "$tmp/us.csv" || fail "skewer 1us"
"$B/skewer" -q --round 1ms "$tmp/ns.csv" > "$tmp/ms.csv" || fail "skewer 1ms"
strip_callids "$tmp/us.csv" > "$tmp/usbb.csv"
strip_callids "$tmp/ms.csv" > "$tmp/msbb.csv"
body() { grep -v '^# \(params\|cpu_\|program\|fit_walks\|parallel_sweeps\|algo=\|fingerprint\)' "$1" | sed 's/ fit_fast=on$/ fit_fast=X/; s/ fit_fast=off$/ fit_fast=X/'; }
for v in us usbb ms msbb; do
    o=
    case $v in ms*) o="-s tick_ivl=on" ;; esac
    "$B/infer" --algo joint -s subtick=off $o -o "$tmp/on.$v" "$tmp/$v.csv" 2> /dev/null || fail "infer $v"
    "$B/infer" --algo joint -s subtick=off $o -s fit_fast=0 -o "$tmp/off.$v" "$tmp/$v.csv" 2> /dev/null ||
        fail "infer $v fit_fast=0"
    grep -q '^# tick0=on ' "$tmp/on.$v" || fail "$v: the zero-tick rule did not run"
    case $v in ms*) grep -q '^# tick_ivl=on ' "$tmp/on.$v" || fail "$v: the intervals did not run" ;; esac
    n=$(sed -n 's/^# fit_walks_replayed=\([0-9]*\) .*/\1/p' "$tmp/on.$v")
    [ "${n:-0}" -gt 0 ] || fail "$v: fit_fast replayed no walk (fit_walks_replayed=${n:-none})"
    body "$tmp/on.$v" > "$tmp/a"
    body "$tmp/off.$v" > "$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" || fail "$v: fit_fast=1 and fit_fast=0 differ: $(diff "$tmp/a" "$tmp/b" | head -4)"
    echo "$v: fit_fast replayed $n walks, the same result"
done
# invariances with the intervals on: services renamed (their order
# reversed), rows shuffled
awk 'BEGIN { FS = OFS = "," } /^#/ { print; next }
     !h { for (i = 1; i <= NF; i++) { if ($i == "src") s = i; if ($i == "dst") d = i }; h = 1; print; next }
     { for (j = 1; j <= 2; j++) { k = j == 1 ? s : d
           if ($k != "") $k = ($k < "m" ? "z_" : "a_") $k }
       print }' "$tmp/msbb.csv" > "$tmp/ren.csv"
cmp -s "$tmp/ren.csv" "$tmp/msbb.csv" && fail "renaming changed nothing"
shuffle_rows 11 "$tmp/msbb.csv" "$tmp/shuf.csv"
"$B/infer" --algo joint -s subtick=off -s tick_ivl=on -o "$tmp/ren.r" "$tmp/ren.csv" 2> /dev/null || fail "infer renamed"
"$B/infer" --algo joint -s subtick=off -s tick_ivl=on --sort -o "$tmp/shuf.r" "$tmp/shuf.csv" 2> /dev/null ||
    fail "infer shuffled"
asg() { sed -n '/^# table=assignment/,$p' "$1" | cut -d, -f1-2; }
asg "$tmp/on.msbb" > "$tmp/l0"
asg "$tmp/ren.r" > "$tmp/l1"
[ "$(wc -l < "$tmp/l0")" -gt 1000 ] || fail "no assignment table"
cmp -s "$tmp/l0" "$tmp/l1" || fail "renamed services change the assignment"
body "$tmp/on.msbb" > "$tmp/a"
body "$tmp/shuf.r" > "$tmp/b"
sort "$tmp/a" > "$tmp/a2"; sort "$tmp/b" > "$tmp/b2"
cmp -s "$tmp/a2" "$tmp/b2" || fail "shuffled rows change the result: $(diff "$tmp/a2" "$tmp/b2" | head -4)"
echo "renamed, shuffled: the same assignment"
echo "PASS"
