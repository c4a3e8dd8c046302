#!/bin/sh
# joint's late_ends (docs/joint/shapes_w36.md "The late share from the ends
# inside the calls (h318)"; algorithms/joint/late/joint_lateends.c): on a
# late link whose orphans' own enclosure chance is at late_chance's cap,
# the late share counted from the sender's request ends inside the link's
# calls less chance's count.
# - experiments/joint_models_hedge.conf, 2 s, twice the load (x2), seed 1,
#   stamps rounded to 1 ms, with call ids (models2's row): without the
#   option the log link's orphans have an own enclosure chance at the cap
#   (0.95 or more), its share is under 1/2, it is not widened whole, and
#   joint is at most 25 % exact; with it a late_ends line for log alone
#   (index's orphans are far from the cap), its share recomputed by hand
#   from the line's counts ((ends_inside - chance) / calls, within 1e-3)
#   and at least 1/2, the log link widened whole, joint at least 30 %;
# - the log link's network delay, worked by hand from the trace: 1 ms x
#   the share of its return rows received in a later tick than sent, the
#   line's net_ns within 1 us;
# - the x1 trace at ns stamps (the log orphans' chance under the cap): the
#   output is the default's but the params line.
# Fails on a tree without the option (infer rejects it).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
body() { grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=' "$1"; }
"$B/maketrace" "$R/experiments/joint_models_hedge.conf" -s seed=1 -s duration=2s \
    -s instances_scale=2 > "$tmp/raw.csv" || fail "maketrace hedge seed 1 x2"
keep_cols "$tmp/raw.csv" > "$tmp/ns.csv"
"$B/skewer" -q --round 1ms "$tmp/ns.csv" > "$tmp/m.csv" || fail "skewer"
run_nocal "$tmp/m.csv" "$tmp/d.res" -s late_ends=0
run_nocal "$tmp/m.csv" "$tmp/t.res" -s late_ends=1
e0=$(exact_of "$tmp/m.csv" "$tmp/d.res")
e1=$(exact_of "$tmp/m.csv" "$tmp/t.res")
echo "# hedge s1 x2 1 ms ids: default $e0, late_ends=1 $e1"
lc=$(grep '^# late_chance_link=frontend>log ' "$tmp/d.res") || fail "1 ms: no late_chance line for log"
echo "$lc"
echo "$lc" | awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
    END { exit !(v["orphan_enclosure"] >= 0.95 && v["late_share"] < 0.5 && v["widen"] == "orphans") }' ||
    fail "1 ms: without the option log's orphans are not at the cap or log is widened whole"
! grep -q '^# late_ends=' "$tmp/d.res" || fail "1 ms: a late_ends line without the option"
[ "$(grep -c '^# late_ends=' "$tmp/t.res")" = 1 ] || fail "1 ms: not one late_ends line"
lg=$(grep '^# late_ends=frontend>log ' "$tmp/t.res") || fail "1 ms: no late_ends line for log"
echo "$lg"
echo "$lg" | awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
    END { f = (v["ends_inside"] - v["chance"]) / v["calls"]; d = f - v["share"]
          exit !(d < 1e-3 && d > -1e-3 && v["share"] >= 0.5 && v["widen"] == "all" &&
                 v["share"] > v["orphan_share"]) }' ||
    fail "1 ms: log's share is not (ends_inside - chance) / calls, or under 1/2"
grep -q '^# late_link=frontend>log .* widen=all$' "$tmp/t.res" ||
    fail "1 ms: the log link is not widened whole with the option"
# the log link's network delay from the rows: 1 ms x the share of its
# returns received in a later tick than sent
net=$(awk -F, '$4 == "log" && $5 == "frontend" && $6 == "return" { n++; x += ($2 != $3) }
    END { printf "%.0f", 1e6 * x / n }' "$tmp/m.csv")
echo "$lg" | awk -v h="$net" '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
    END { d = v["net_ns"] - h; exit !(d < 1000 && d > -1000) }' ||
    fail "1 ms: log's net_ns is not the hand-worked $net ns"
awk -v a="$e0" -v b="$e1" 'BEGIN { exit !(a <= 0.25 && b >= 0.30) }' ||
    fail "1 ms: default $e0 (want <= 0.25), late_ends=1 $e1 (want >= 0.30)"
"$B/maketrace" "$R/experiments/joint_models_hedge.conf" -s seed=1 -s duration=2s \
    -s instances_scale=1 > "$tmp/raw1.csv" || fail "maketrace hedge seed 1 x1"
keep_cols "$tmp/raw1.csv" > "$tmp/ns1.csv"
run_nocal "$tmp/ns1.csv" "$tmp/dn.res" -s late_ends=0
run_nocal "$tmp/ns1.csv" "$tmp/tn.res" -s late_ends=1
! grep -q '^# late_ends=' "$tmp/tn.res" || fail "x1 ns: a late_ends line"
body "$tmp/dn.res" > "$tmp/x"
body "$tmp/tn.res" > "$tmp/y"
cmp -s "$tmp/x" "$tmp/y" || { diff "$tmp/x" "$tmp/y" | head -5; fail "x1 ns: output changed"; }
