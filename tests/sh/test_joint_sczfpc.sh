#!/bin/sh
# joint's conf_copy_share_fpc (algorithms/joint/selfcal/joint_sczfpc.c;
# docs/joint/speed_w34.md, "The smaller copy's bound when the default copy
# is the whole trace (h292)"): conf_copy_share_z = k's bound z = k (1 -
# r), r = sqrt((n_s / n_d) (1 - n_d / N) / (1 - n_s / N)) the default
# copy's (n_d pairs) over the smaller copy's (n_s) sampling standard error
# about the trace's N pairs.
# - experiments/joint_apps_shortlong.conf, seed 14, 2 s, stamps rounded to
#   1 ms, call ids: the held-out case that kept conf_copy_share_z off
#   (h284).  N = 1,680 pairs, under the default copy's floor (2,000): the
#   default copy holds the whole trace, the smaller one 1,000 pairs (f =
#   0.5952).  conf_copy_share=0.125 conf_copy_share_z=2 states 98 rows in
#   [0.8, 0.9), 52 right (53 %; most of them rows of the trace's 51 long
#   requests); with conf_copy_share_fpc=1, r = 0 and z = k = 2: no bin of
#   30 rows or more at 0.8 or above lies 0.2 below its lower edge;
#   assignments and the busy test the default's; deterministic.
# - the same trace with conf_sim_pairs=100 (the floor lowered): n_d = 420
#   (a quarter), n_s = 210, r = sqrt(0.5 * 0.75 / 0.875) = 0.6547, z = 2
#   (1 - r) = 0.6907 (hand-worked), where conf_copy_share_z alone takes 2
#   (1 - sqrt 0.5) = 0.5858.
. "$PB_ROOT/tests/sh/joint_lib.sh"
"$B/maketrace" "$PB_ROOT/experiments/joint_apps_shortlong.conf" -s duration=2s -s seed=14 \
    > "$tmp/raw.csv" || fail "maketrace"
keep_cols "$tmp/raw.csv" > "$tmp/g.csv"
"$B/skewer" -q --round 1ms "$tmp/g.csv" > "$tmp/m.csv" || fail "skewer"
cp "$tmp/m.csv" "$tmp/t.csv"
# the old copy pinned (OLD_COPY, joint_lib.sh): this option's case lives on
# it; the later -s options override it
# shellcheck disable=SC2086
run() { _rn=$1; shift; conf_run "$_rn" $OLD_COPY "$@"; }
Z="-s conf_copy_share=0.125 -s conf_copy_share_z=2"
run def > /dev/null
# shellcheck disable=SC2086
run z $Z > /dev/null
# shellcheck disable=SC2086
run f $Z -s conf_copy_share_fpc=1 > /dev/null
# shellcheck disable=SC2086
run f2 $Z -s conf_copy_share_fpc=1 > /dev/null
grep -q '^# conf_copy_share_fpc=' "$tmp/r.z" && fail "a conf_copy_share_fpc line when off"
line=$(grep '^# conf_copy_share_fpc=1 ' "$tmp/r.f") || fail "no conf_copy_share_fpc line"
echo "$line"
echo "$line" | grep -q 'default_copy_share_of_trace=1.0000 se_ratio=0.0000' ||
    fail "the default copy not the whole trace: $line"
grep -q '^# conf_copy_share_z=2 copy_share_f=0.5952 events_z=2 ' "$tmp/r.f" ||
    fail "events_z not k: $(grep '^# conf_copy_share_z=' "$tmp/r.f")"
cmp -s "$tmp/p.def" "$tmp/p.f" || fail "conf_copy_share_fpc moved an assignment"
cmp -s "$tmp/b.def" "$tmp/b.f" || fail "conf_copy_share_fpc moved the busy test"
cmp -s "$tmp/x.f" "$tmp/x.f2" || fail "not deterministic"
sed -n '/^id,instance,rank,parent,confidence$/,$p' "$tmp/r.f" | tail -n +2 |
    awk -F, '!/^#/ && ($5 + 0 < 0 || $5 + 0 > 1) { bad = 1 } END { exit bad }' ||
    fail "a confidence outside [0, 1]"
far() {
    "$B/score" --truth "$tmp/m.csv" --reliability "$tmp/rel.$1" "$tmp/r.$1" > /dev/null ||
        fail "score $1"
    awk -F, 'NR > 1 && $1 + 0 >= 0.8 && $3 + 0 >= 30 && $6 + 0 < $1 - 0.2 { n++ } END { print n + 0 }' \
        "$tmp/rel.$1"
}
fz=$(far z)
ff=$(far f)
echo "# bins far below their edge: conf_copy_share_z=2 $fz, with conf_copy_share_fpc=1 $ff"
[ "$fz" -gt 0 ] || fail "the case is gone: conf_copy_share_z=2 alone is calibrated here"
[ "$ff" = 0 ] || fail "conf_copy_share_fpc=1 leaves $ff bins far below their edge"
# the floor lowered: the default copy a quarter of the trace
# shellcheck disable=SC2086
run l $Z -s conf_copy_share_fpc=1 -s conf_sim_pairs=100 > /dev/null
grep '^# conf_copy_share_fpc=1 ' "$tmp/r.l"
grep -q '^# conf_copy_share_fpc=1 default_copy_share_of_trace=0.2500 se_ratio=0.6547 ' "$tmp/r.l" ||
    fail "r not hand-worked 0.6547: $(grep '^# conf_copy_share_fpc=' "$tmp/r.l")"
grep -q '^# conf_copy_share_z=2 copy_share_f=0.5000 events_z=0.69' "$tmp/r.l" ||
    fail "events_z not 0.6907: $(grep '^# conf_copy_share_z=' "$tmp/r.l")"
[ "$(awk 'BEGIN { printf "%.4f", 2 * (1 - sqrt(0.5 * 0.75 / 0.875)) }')" = 0.6907 ] || fail "hand value"
echo "PASS"
