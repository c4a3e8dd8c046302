#!/bin/sh
# joint's recur_cycle (docs/joint/shapes.md "Unseen execution models,
# third round"; algorithms/joint/joint_rcycle.c): a service re-entered
# through a cycle of two services, as a service mesh's sidecar proxy is
# (experiments/joint_models_mesh.conf: fe_px forwards the client's call
# into fe and carries fe's calls out: links fe_px -> fe -> fe_px).  No
# service calls itself, so recur_inner alone never runs, and every start
# puts the proxy's outgoing calls on its outer visit.
# - with call ids (0.5 s, seed 1): recur_cycle=0 is at most 30 % exact;
#   the default says recur_cycle=4 and recur_inner=kept and is at least
#   90 %;
# - as a black box: the default kept, at least 30 points above
#   recur_cycle=0;
# - shuffled rows give the same assignment; fe_px renamed gives the same
#   accuracy;
# - the same mesh with each proxy split in two (inbound and outbound
#   nodes: no cycle) prints no recur_cycle= line and is recur_cycle=0's
#   output byte for byte but the params line.
# Fails on a tree without the option (infer rejects it).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
body() { grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=' "$1"; }
exact() { exact_of "$1" "$2"; }
"$B/maketrace" "$R/experiments/joint_models_mesh.conf" -s duration=0.5s > "$tmp/m.csv" ||
    fail "maketrace mesh"
run_nocal "$tmp/m.csv" "$tmp/i1.res"
run_nocal "$tmp/m.csv" "$tmp/i0.res" -s recur_cycle=0
e1=$(exact "$tmp/m.csv" "$tmp/i1.res")
e0=$(exact "$tmp/m.csv" "$tmp/i0.res")
echo "# ids: recur_cycle=0 $e0, default $e1"
grep -q '^# recur_cycle=4$' "$tmp/i1.res" || fail "ids: no recur_cycle=4 line"
grep -q '^# recur_inner=kept services=0 ' "$tmp/i1.res" ||
    fail "ids: not kept: $(grep '^# recur_inner=' "$tmp/i1.res")"
! grep -q '^# recur_\(cycle\|inner\)=' "$tmp/i0.res" || fail "recur_cycle=0: a recur line"
awk -v a="$e0" -v b="$e1" 'BEGIN { exit !(a <= 0.30 && b >= 0.90) }' ||
    fail "ids: recur_cycle=0 $e0 (want <= 0.30), default $e1 (want >= 0.90)"
check_shuffled_same "$tmp/m.csv" "$tmp/i1.res"
sed -e '/^#/!s/\bfe_px\b/aa_px/g' "$tmp/m.csv" > "$tmp/rn.csv"
cmp -s "$tmp/m.csv" "$tmp/rn.csv" && fail "renaming changed nothing"
run_nocal "$tmp/rn.csv" "$tmp/rn.res"
[ "$(exact "$tmp/rn.csv" "$tmp/rn.res")" = "$e1" ] || fail "renaming fe_px changed the accuracy"
strip_callids "$tmp/m.csv" > "$tmp/bb.csv"
run_nocal "$tmp/bb.csv" "$tmp/b1.res"
run_nocal "$tmp/bb.csv" "$tmp/b0.res" -s recur_cycle=0
b1=$(exact "$tmp/m.csv" "$tmp/b1.res")
b0=$(exact "$tmp/m.csv" "$tmp/b0.res")
echo "# black box: recur_cycle=0 $b0, default $b1"
grep -q '^# recur_inner=kept ' "$tmp/b1.res" || fail "black box: not kept"
awk -v a="$b0" -v b="$b1" 'BEGIN { exit !(b >= a + 0.30) }' ||
    fail "black box: recur_cycle=0 $b0, default $b1 (want 30 points more)"
# each proxy split into an inbound and an outbound node: no cycle
sed -e 's/call fe_px ret=/call fe_pxo ret=/' -e 's/call cart_px ret=/call cart_pxo ret=/' \
    "$R/experiments/joint_models_mesh.conf" > "$tmp/nc.conf"
cmp -s "$R/experiments/joint_models_mesh.conf" "$tmp/nc.conf" && fail "no proxy split"
"$B/maketrace" "$tmp/nc.conf" -s duration=0.5s > "$tmp/n.csv" || fail "maketrace split"
run_nocal "$tmp/n.csv" "$tmp/n1.res"
run_nocal "$tmp/n.csv" "$tmp/n0.res" -s recur_cycle=0
! grep -q '^# recur_\(cycle\|inner\)=' "$tmp/n1.res" || fail "a recur line with no cycle"
body "$tmp/n1.res" > "$tmp/a"
body "$tmp/n0.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head -5; fail "no cycle: output changed"; }
echo "PASS"
