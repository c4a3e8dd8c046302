#!/bin/sh
# joint's late_tie_learn (docs/joint/shapes_w36.md "A learned late chance
# per link for the tied calls (h307)"; algorithms/joint/late/joint_latelearn.c):
# on rows subtick spread over their ticks, a late link's calls tied at their
# request's end count in its late share by the link's late chance learned
# from the rows' order.
# - experiments/joint_models_hedge.conf, 2 s, x1, seed 61, stamps rounded to
#   1 ms, with call ids (models2's held-out row), both sides with
#   late_excess_ties=1: without the option the log link's late share is
#   under 1/2 (its tied calls count 0), it is not widened whole and joint is
#   at most 45 % exact; with it the log link is widened whole (late share 1),
#   kv (never late) keeps a late chance under 0.1 and a share under 1/2, and
#   joint is at least 75 % exact;
# - the log link's network delay, worked by hand from the trace: 1 ms x the
#   share of its return rows received in a later tick than sent, the
#   line's net_ns within 1 us;
# - the same trace at ns stamps (no spread rows): the output is the
#   default's but the params line.
# Fails on a tree without the option (infer rejects it).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
body() { grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=' "$1"; }
"$B/maketrace" "$R/experiments/joint_models_hedge.conf" -s seed=61 -s duration=2s \
    -s instances_scale=1 > "$tmp/raw.csv" || fail "maketrace hedge seed 61"
keep_cols "$tmp/raw.csv" > "$tmp/ns.csv"
"$B/skewer" -q --round 1ms "$tmp/ns.csv" > "$tmp/m.csv" || fail "skewer"
run_nocal "$tmp/m.csv" "$tmp/d.res" -s late_excess_ties=1 -s late_tie_learn=0
run_nocal "$tmp/m.csv" "$tmp/t.res" -s late_excess_ties=1 -s late_tie_learn=1
e0=$(exact_of "$tmp/m.csv" "$tmp/d.res")
e1=$(exact_of "$tmp/m.csv" "$tmp/t.res")
echo "# hedge s61 x1 1 ms ids: late_excess_ties=1 $e0, with late_tie_learn=1 $e1"
grep -q '^# late_chance_link=frontend>log .* widen=orphans$' "$tmp/d.res" ||
    fail "1 ms: without the option the log link is already widened whole"
! grep -q '^# late_tie_learn=' "$tmp/d.res" || fail "1 ms: a late_tie_learn line without the option"
grep -q '^# late_link=frontend>log orphan_share=1.0000 widen=all$' "$tmp/t.res" ||
    fail "1 ms: the log link is not widened whole with the option"
kv=$(grep '^# late_tie_learn=frontend>kv ' "$tmp/t.res") || fail "1 ms: no kv line"
lg=$(grep '^# late_tie_learn=frontend>log ' "$tmp/t.res") || fail "1 ms: no log line"
echo "$kv"
echo "$lg"
echo "$kv" | awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
    END { exit !(v["late_chance"] < 0.1 && v["placed"] >= 5) }' || fail "1 ms: kv's late chance"
! grep -q '^# late_link=frontend>kv ' "$tmp/t.res" || fail "1 ms: kv widened whole"
# the log link's network delay from the rows: 1 ms x the share of its
# returns received in a later tick than sent
net=$(awk -F, '$4 == "log" && $5 == "frontend" && $6 == "return" { n++; x += ($2 != $3) }
    END { printf "%.0f", 1e6 * x / n }' "$tmp/m.csv")
echo "$lg" | awk -v h="$net" '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
    END { d = v["net_ns"] - h; exit !(d < 1000 && d > -1000 && v["late_chance"] > 0.1) }' ||
    fail "1 ms: log's net_ns is not the hand-worked $net ns (or its chance is 0.1 or less)"
awk -v a="$e0" -v b="$e1" 'BEGIN { exit !(a <= 0.45 && b >= 0.75) }' ||
    fail "1 ms: without $e0 (want <= 0.45), with late_tie_learn $e1 (want >= 0.75)"
run_nocal "$tmp/ns.csv" "$tmp/dn.res" -s late_excess_ties=1
run_nocal "$tmp/ns.csv" "$tmp/tn.res" -s late_excess_ties=1 -s late_tie_learn=1
! grep -q '^# late_tie_learn=' "$tmp/tn.res" || fail "ns: a late_tie_learn line"
body "$tmp/dn.res" > "$tmp/x"
body "$tmp/tn.res" > "$tmp/y"
cmp -s "$tmp/x" "$tmp/y" || { diff "$tmp/x" "$tmp/y" | head -5; fail "ns: output changed"; }
