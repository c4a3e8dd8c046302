#!/bin/sh
# joint's recur_cycle (docs/joint/shapes.md "Unseen execution models,
# third round"; algorithms/joint/shapes/joint_rcycle.c): a service re-entered
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
second_search_check "$R/experiments/joint_models_mesh.conf" recur_cycle fe_px 0.30 0.90 0.30
grep -q '^# recur_cycle=4$' "$tmp/i1.res" || fail "ids: no recur_cycle=4 line"
grep -q '^# recur_inner=kept services=0 ' "$tmp/i1.res" ||
    fail "ids: not kept: $(grep '^# recur_inner=' "$tmp/i1.res")"
! grep -q '^# recur_\(cycle\|inner\)=' "$tmp/i0.res" || fail "recur_cycle=0: a recur line"
# each proxy split into an inbound and an outbound node: no cycle
sed -e 's/call fe_px ret=/call fe_pxo ret=/' -e 's/call cart_px ret=/call cart_pxo ret=/' \
    "$R/experiments/joint_models_mesh.conf" > "$tmp/nc.conf"
cmp -s "$R/experiments/joint_models_mesh.conf" "$tmp/nc.conf" && fail "no proxy split"
second_search_silent "$tmp/nc.conf" recur_cycle '^# recur_\(cycle\|inner\)='
echo "PASS"
