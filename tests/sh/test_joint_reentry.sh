#!/bin/sh
# joint's busy_reentry (docs/joint/shapes.md "Unseen execution models,
# third round: the black box at load (h183)"; algorithms/joint/busy/
# joint_reentry.c): the busy test must not read a service its own
# requests re-enter as one that keeps its requests in order.  The mesh of
# experiments/joint_models_mesh.conf at twice its load (0.3 s, seed 1),
# as a black box: the sidecar fe_px (links fe_px -> fe -> fe_px) spaces
# its sends as an event loop of two threads does, the busy test finds it
# serialising (z about -3.9) and, with busy_reentry=0 (main before this
# rule), keeps the held search thousands of nats less likely than the
# free one: about 16 % exact.  By default fe_px's verdict is withdrawn
# (reentered=yes), the free search is kept, about 48 %.
# - busy_reentry=0 with busy_arr=0 (busy_arr=2, the default since h280,
#   withdraws fe_px's verdict too: the held search rewrites most of its
#   calls): held=yes, at most 25 % exact; default: held=no,
#   chosen_by=likelihood, fe_px's line says reentered=yes, at least 25
#   points more;
# - shuffled rows give the same assignment; fe_px renamed the same
#   accuracy;
# - the same mesh with each proxy split in two (no cycle, no self link):
#   no reentered= word, the output busy_reentry=0's byte for byte but the
#   params line.
# Fails on a tree without the option (infer rejects it).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
"$B/maketrace" "$R/experiments/joint_models_mesh.conf" -s duration=0.3s -s instances_scale=2 \
    > "$tmp/m.csv" || fail "maketrace"
strip_callids "$tmp/m.csv" > "$tmp/bb.csv"
run_nocal "$tmp/bb.csv" "$tmp/b1.res"
run_nocal "$tmp/bb.csv" "$tmp/b0.res" -s busy_reentry=0 -s busy_arr=0
b1=$(exact_of "$tmp/m.csv" "$tmp/b1.res")
b0=$(exact_of "$tmp/m.csv" "$tmp/b0.res")
echo "# black box x2: busy_reentry=0 $b0, default $b1"
grep -q '^# busy_test=on .* held=yes chosen_by=busy_test' "$tmp/b0.res" ||
    fail "busy_reentry=0: the busy test did not keep the held search: $(grep '^# busy_test=' "$tmp/b0.res")"
grep -q '^# busy_test=on .* held=no chosen_by=likelihood' "$tmp/b1.res" ||
    fail "default: $(grep '^# busy_test=' "$tmp/b1.res")"
grep -q '^# busy_service=fe_px .* serialising=no .* reentered=yes$' "$tmp/b1.res" ||
    fail "default: fe_px's verdict not withdrawn: $(grep '^# busy_service=fe_px' "$tmp/b1.res")"
! grep -q 'reentered=' "$tmp/b0.res" || fail "busy_reentry=0: a reentered= word"
awk -v a="$b0" -v b="$b1" 'BEGIN { exit !(a <= 0.25 && b >= a + 0.25) }' ||
    fail "busy_reentry=0 $b0 (want <= 0.25), default $b1 (want 0.25 more)"
check_shuffled_same "$tmp/bb.csv" "$tmp/b1.res"
sed -e '/^#/!s/\bfe_px\b/aa_fe_px/g' "$tmp/bb.csv" > "$tmp/rn.csv"
sed -e '/^#/!s/\bfe_px\b/aa_fe_px/g' "$tmp/m.csv" > "$tmp/rnt.csv"
cmp -s "$tmp/bb.csv" "$tmp/rn.csv" && fail "renaming fe_px changed nothing"
run_nocal "$tmp/rn.csv" "$tmp/rn.res"
[ "$(exact_of "$tmp/rnt.csv" "$tmp/rn.res")" = "$b1" ] || fail "renaming fe_px changed the accuracy"
# each proxy split into an inbound and an outbound node: no service re-entered
sed -e 's/call fe_px ret=/call fe_pxo ret=/' -e 's/call cart_px ret=/call cart_pxo ret=/' \
    "$R/experiments/joint_models_mesh.conf" > "$tmp/nc.conf"
cmp -s "$R/experiments/joint_models_mesh.conf" "$tmp/nc.conf" && fail "no proxy split"
"$B/maketrace" "$tmp/nc.conf" -s duration=0.3s -s instances_scale=2 > "$tmp/n.csv" || fail "maketrace nc"
strip_callids "$tmp/n.csv" > "$tmp/nbb.csv"
run_nocal "$tmp/nbb.csv" "$tmp/n1.res"
run_nocal "$tmp/nbb.csv" "$tmp/n0.res" -s busy_reentry=0
! grep -q 'reentered=' "$tmp/n1.res" || fail "reentered= where no service is re-entered"
grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=' "$tmp/n1.res" > "$tmp/a"
grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=' "$tmp/n0.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head -5; fail "busy_reentry cannot fire: output changed"; }
echo "PASS"
