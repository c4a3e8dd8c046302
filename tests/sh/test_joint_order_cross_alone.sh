#!/bin/sh
# order_cross_alone (joint_tieorder.c; docs/joint/loss_late.md,
# "order_cross under jitter (h220)"): with order_cross on, 0 tries a
# crossing only with the two parents' calls exchanged too (a move of whole
# requests), never the callee's answers exchanged alone.  The trace is
# test_joint_order_cross.sh's (its generator read from that file): one
# crossing, whose right pairing is the answers exchanged alone (+6.5 nats
# there).  With order_cross_alone=0 the crossing is tried (the parents'
# calls exchanged), nothing is kept, and the assignment is byte for byte
# the option's off (230 exact); with the default (1) it is 232 as before.
# Metadata says alone=; order_cross_alone's default is 0 (order_cross
# itself stays off by default).  Renamed nodes change nothing.
. "$PB_ROOT/tests/sh/joint_lib.sh"
awk '/^gen\(\) \{/ { f = 1 } f { print } f && /^}.$/ { exit }' \
    "$PB_ROOT/tests/sh/test_joint_order_cross.sh" > "$tmp/gen.sh"
echo "}" >> "$tmp/gen.sh"
. "$tmp/gen.sh"
nexact() { "$B/score" --truth "$1" "$2" 2> /dev/null |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 2 { print $(c["instances_exact"]) }'; }
gen 1 > "$tmp/t.csv"
[ "$(grep -c . "$tmp/t.csv")" = 1441 ] || fail "the trace has $(grep -c . "$tmp/t.csv") lines, not 1441"
run_nocal "$tmp/t.csv" "$tmp/off.res" -s order_cross=0
run_nocal "$tmp/t.csv" "$tmp/on.res" -s order_cross=1 -s order_cross_alone=1
run_nocal "$tmp/t.csv" "$tmp/a0.res" -s order_cross=1 -s order_cross_alone=0
[ "$(nexact "$tmp/t.csv" "$tmp/on.res")" = 232 ] ||
    fail "order_cross_alone=1: $(nexact "$tmp/t.csv" "$tmp/on.res") exact, expected 232"
grep -q '^# order_cross=on crossings=1 exchanges_tried=1 kept=1 .* alone=1' "$tmp/on.res" ||
    fail "alone=1: $(grep '^# order_cross=' "$tmp/on.res")"
grep -q '^# order_cross=on crossings=1 exchanges_tried=1 kept=0 gain=0.000 alone=0' "$tmp/a0.res" ||
    fail "alone=0: $(grep '^# order_cross=' "$tmp/a0.res")"
cmp -s "$(assignment_of "$tmp/off.res" > "$tmp/oa"; echo "$tmp/oa")" \
       "$(assignment_of "$tmp/a0.res" > "$tmp/ob"; echo "$tmp/ob")" ||
    fail "order_cross_alone=0 changed the assignment with nothing kept"
# order_cross alone: order_cross_alone's default is 0
run_nocal "$tmp/t.csv" "$tmp/def.res" -s order_cross=1
grep -q '^# order_cross=on .* alone=0' "$tmp/def.res" || fail "defaults: $(grep '^# order_cross=' "$tmp/def.res")"
cmp -s "$tmp/oa" "$(assignment_of "$tmp/def.res" > "$tmp/od"; echo "$tmp/od")" ||
    fail "order_cross_alone's default changed the assignment with nothing kept"
sed -e '/^#/!s/,B,/,zz_front,/g; /^#/!s/,D,/,aa_d,/g' "$tmp/t.csv" > "$tmp/r.csv"
run_nocal "$tmp/r.csv" "$tmp/r.res" -s order_cross=1 -s order_cross_alone=0
[ "$(nexact "$tmp/r.csv" "$tmp/r.res")" = 230 ] || fail "renamed nodes: $(nexact "$tmp/r.csv" "$tmp/r.res") exact"
echo "PASS"
