#!/bin/sh
# joint's recur_inner (docs/joint/shapes.md "Unseen execution models";
# algorithms/joint/shapes/joint_recur.c): a service that calls itself
# (experiments/joint_models_recur.conf: `tree` recurses one to three
# levels, each level reads db, the deepest also index).  Every start
# joint had ends with the deepest index call on the outermost visit; the
# second search starts each of tree's calls on its innermost open visit.
# - with call ids (0.5 s, seed 1): recur_inner=0 is at most 45 % exact;
#   the default says recur_inner=kept and is at least 90 %;
# - as a black box: the default kept, at least 20 points above
#   recur_inner=0;
# - shuffled rows give the same assignment; tree renamed gives the same
#   accuracy;
# - a trace with no service calling itself (the same shape with the levels
#   named tree, tree2, tree3) prints no recur_inner= line and is
#   recur_inner=0's output byte for byte but the params line.
# Fails on a tree without the option (infer rejects it).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
second_search_check "$R/experiments/joint_models_recur.conf" recur_inner tree 0.45 0.90 0.20
grep -q '^# recur_inner=kept services=1 ' "$tmp/i1.res" ||
    fail "ids: not kept: $(grep '^# recur_inner=' "$tmp/i1.res")"
grep -q '^# recur_inner=off services=1 ' "$tmp/i0.res" || fail "recur_inner=0: no off line"
# no service calls itself: nothing changes
sed -e 's/^        2 { call tree ret/        2 { call tree2 ret/' \
    -e 's/^                1 { call tree ret/                1 { call tree3 ret/' \
    "$R/experiments/joint_models_recur.conf" > "$tmp/nr.conf"
cmp -s "$R/experiments/joint_models_recur.conf" "$tmp/nr.conf" && fail "no level renamed"
second_search_silent "$tmp/nr.conf" recur_inner '^# recur_inner='
echo "PASS"
