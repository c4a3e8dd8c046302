#!/bin/sh
# joint's conf_copy_share_z (algorithms/joint/selfcal/joint_scz.c;
# docs/joint/speed_w34.md, "A smaller copy paid for by its own noise
# (h284)"): with conf_copy_share the result's calibration copy holds a
# share f of the pairs the default copy would; conf_copy_share_z = k takes
# the events map at its Wilson bound k (1 - sqrt f) standard errors down
# and gives a link its own map from 100 f copy rows (the default copy
# would hold 100).
# - experiments/joint_models_mixed.conf (seed 13, 2 s, call ids), the case
#   that kept conf_copy_share off (h238, h267): the half copy alone states
#   rows in a bin at 0.9 or more right far less often than the bin's lower
#   edge; with conf_copy_share_z=2 no such bin; the line's f is the copy's
#   share (0 < f < 1) and events_z = 2 (1 - sqrt f) (hand-worked: f = 0.5
#   gives 0.5858); every row's instance, rank and parent and the busy
#   test's lines are the default's; confidences in [0, 1]; deterministic;
# - experiments/joint_event.conf (200 ms, black box): the trace is copied
#   whole by both copies (f = 1): the output is conf_copy_share's alone but
#   for the line.
. "$PB_ROOT/tests/sh/joint_lib.sh"
"$B/maketrace" "$PB_ROOT/experiments/joint_models_mixed.conf" -s duration=2s -s seed=13 \
    > "$tmp/m.csv" || fail "maketrace"
cp "$tmp/m.csv" "$tmp/t.csv"
# the old copy pinned (OLD_COPY, joint_lib.sh): this option's case lives on
# it; the later -s options override it
# shellcheck disable=SC2086
run() { _rn=$1; shift; conf_run "$_rn" $OLD_COPY "$@"; }
run def > /dev/null
grep -q '^# conf_copy_share_z=' "$tmp/r.def" && fail "a conf_copy_share_z line at the default"
run s -s conf_copy_share=0.125 > /dev/null
run z -s conf_copy_share=0.125 -s conf_copy_share_z=2 > /dev/null
run z2 -s conf_copy_share=0.125 -s conf_copy_share_z=2 > /dev/null
line=$(grep '^# conf_copy_share_z=2 ' "$tmp/r.z") || fail "no conf_copy_share_z line"
echo "$line"
echo "$line" | awk '{ for (i = 1; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] } }
    END { f = v["copy_share_f"] + 0; z = v["events_z"] + 0
          if (!(f > 0 && f < 1)) exit 1
          if (z < 2 * (1 - sqrt(f)) - 0.001 || z > 2 * (1 - sqrt(f)) + 0.001) exit 1 }' ||
    fail "f or events_z wrong: $line"
[ "$(awk 'BEGIN { printf "%.4f", 2 * (1 - sqrt(0.5)) }')" = 0.5858 ] || fail "hand value"
cmp -s "$tmp/p.def" "$tmp/p.z" || fail "conf_copy_share_z moved an assignment"
cmp -s "$tmp/b.def" "$tmp/b.z" || fail "conf_copy_share_z moved the busy test"
cmp -s "$tmp/x.z" "$tmp/x.z2" || fail "not deterministic"
sed -n '/^id,instance,rank,parent,confidence$/,$p' "$tmp/r.z" | tail -n +2 |
    awk -F, '!/^#/ && ($5 + 0 < 0 || $5 + 0 > 1) { bad = 1 } END { exit bad }' ||
    fail "a confidence outside [0, 1]"
far() {
    "$B/score" --truth "$tmp/m.csv" --reliability "$tmp/rel.$1" "$tmp/r.$1" > /dev/null ||
        fail "score $1"
    awk -F, 'NR > 1 && $1 + 0 >= 0.9 && $3 + 0 >= 30 && $6 + 0 < $1 - 0.05 { n++ } END { print n + 0 }' \
        "$tmp/rel.$1"
}
fd=$(far def)
fs=$(far s)
fz=$(far z)
echo "# bins far below their edge: default $fd, conf_copy_share=0.125 $fs, with conf_copy_share_z=2 $fz"
[ "$fs" -gt 0 ] || fail "the case is gone: the half copy alone is calibrated"
[ "$fz" = 0 ] || fail "conf_copy_share_z=2 leaves $fz bins far below their edge"
# the whole trace copied by both: f = 1, nothing moves
"$B/maketrace" "$PB_ROOT/experiments/joint_event.conf" -s duration=200ms > "$tmp/e.csv" ||
    fail "maketrace event"
strip_callids "$tmp/e.csv" > "$tmp/t.csv"
run es -s conf_copy_share=0.125 > /dev/null
run ez -s conf_copy_share=0.125 -s conf_copy_share_z=2 > /dev/null
grep -q '^# conf_copy_share_z=2 copy_share_f=1.0000 ' "$tmp/r.ez" ||
    fail "the whole trace copied, yet f < 1: $(grep '^# conf_copy_share_z' "$tmp/r.ez")"
grep -v '^# conf_copy_share_z=' "$tmp/x.ez" | cmp -s "$tmp/x.es" - ||
    fail "the whole trace copied, yet the output moved"
echo "PASS"
