#!/bin/sh
# joint without call ids, unp_wlocal (joint_unpwlocal.c; docs/joint/loss_w36.md,
# "The loss rule's cost: the warm second searches local (h315)"): with
# unp_wboth=1 the two warm second searches re-split only pairs of requests
# one of which is open (on a link with a changed message, or a candidate
# parent of one; 3, 4: its present parent only), and with 2 / 4 the greedy
# rounds move only open calls.  By hand: unp_wide_window_trace (160
# requests A>B>C, calls A>B of every request = 2 mod 7 and answers C>B =
# 4 mod 7 lost, call ids emptied), where the default runs the whole second
# search.  The least-cost pairing changes the link A>B (160 of the 320
# requests, A>B and B>C), so those are open; they are the parents of every
# B>C call, so every pair a re-split visits and every call the greedy
# rounds move has an open request: the line says of=320 open_start=160
# open_end=160, nothing skipped, and the output is unp_wboth=1's but for
# the line.  With 3 / 4 fewer are open (the requests holding a forced or
# re-paired message and their parents), pairs are skipped, and the intact
# requests are still unp_wboth=1's; shuffled rows
# give the same assignment; without loss the output is the default's but
# for the params / cpu lines; without unp_wboth the option does nothing
# (no line).  Fails before unp_wlocal (unknown option).
. "$PB_ROOT/tests/sh/joint_lib.sh"
unp_wide_window_trace
"$B/infer" --algo joint -q -s unp_wboth=1 -o "$tmp/w.res" "$tmp/pb.csv" 2> /dev/null ||
    fail "infer unp_wboth=1"
grep -v '^# \(params\|cpu\|program\|unp_wlocal\)' "$tmp/w.res" > "$tmp/a"
for m in 1 2; do
    "$B/infer" --algo joint -q -s unp_wboth=1 -s unp_wlocal=$m -o "$tmp/l$m.res" "$tmp/pb.csv" \
        2> /dev/null || fail "infer unp_wlocal=$m"
    line=$(grep '^# unp_wlocal' "$tmp/l$m.res")
    echo "unp_wlocal=$m: $line"
    echo "$line" | awk -v m=$m '{ for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
        $3 != "mode=" m || v["of"] != 320 || v["open_start"] != 160 ||
        v["open_end"] != 160 || v["skipped_pairs"] != 0 || v["skipped_calls"] != 0 { exit 1 }' ||
        fail "unp_wlocal=$m: the line"
    grep -v '^# \(params\|cpu\|program\|unp_wlocal\)' "$tmp/l$m.res" > "$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" || fail "unp_wlocal=$m: not unp_wboth=1's output on open requests only"
done
# 3, 4: only the requests holding a forced message or one the warm start
# re-paired are changed, each opening its parent: fewer open, pairs of
# closed requests skipped; the intact requests still unp_wboth=1's
SP="$PB_ROOT/experiments/intact_spill.awk"
w=$(awk -f "$SP" "$tmp/t.csv" "$tmp/p.csv" "$tmp/n.res" "$tmp/w.res")
for m in 3 4; do
    "$B/infer" --algo joint -q -s unp_wboth=1 -s unp_wlocal=$m -o "$tmp/l$m.res" "$tmp/pb.csv" \
        2> /dev/null || fail "infer unp_wlocal=$m"
    line=$(grep '^# unp_wlocal' "$tmp/l$m.res")
    echo "unp_wlocal=$m: $line"
    echo "$line" | awk -v m=$m '{ for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
        $3 != "mode=" m || v["of"] != 320 || v["open_start"] < 1 || v["open_start"] >= 160 ||
        v["open_end"] < v["open_start"] || v["skipped_pairs"] < 1 { exit 1 }' ||
        fail "unp_wlocal=$m: the line"
    l=$(awk -f "$SP" "$tmp/t.csv" "$tmp/p.csv" "$tmp/n.res" "$tmp/l$m.res")
    echo "unp_wboth=1: $w; unp_wlocal=$m: $l"
    [ "$w" = "$l" ] || fail "unp_wlocal=$m: the intact requests differ"
done
assignment_of "$tmp/l2.res" > "$tmp/b"
shuffle_rows 7 "$tmp/pb.csv" "$tmp/x.csv"
"$B/infer" --algo joint -q --sort -s unp_wboth=1 -s unp_wlocal=2 -o "$tmp/x.res" "$tmp/x.csv" \
    2> /dev/null || fail "infer shuffled"
assignment_of "$tmp/x.res" > "$tmp/c"
cmp -s "$tmp/b" "$tmp/c" || fail "shuffled rows changed the result"
"$B/infer" --algo joint -q -s unp_wlocal=2 -o "$tmp/o.res" "$tmp/pb.csv" 2> /dev/null ||
    fail "infer without unp_wboth"
! grep -q '^# unp_wlocal' "$tmp/o.res" || fail "a line without unp_wboth"
grep -v '^# \(params\|cpu\|program\)' "$tmp/d.res" > "$tmp/a"
grep -v '^# \(params\|cpu\|program\)' "$tmp/o.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "without unp_wboth unp_wlocal changed the output"
"$B/infer" --algo joint -q -s unp_wboth=1 -s unp_wlocal=2 -o "$tmp/nw.res" "$tmp/tb.csv" \
    2> /dev/null || fail "infer without loss"
grep -v '^# \(params\|cpu\|program\)' "$tmp/n.res" > "$tmp/a"
grep -v '^# \(params\|cpu\|program\)' "$tmp/nw.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "without loss unp_wlocal changed the output"
exit 0
