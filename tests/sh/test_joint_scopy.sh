#!/bin/sh
# joint's conf_copy_stage (algorithms/joint/selfcal/joint_scopy.c; docs/joint/speed_w29.md,
# "The calibration copy made small first (h238)"): the self-calibration's
# copy first made of conf_copy_stage_share of its pairs, kept only where
# every real row's reliability bin is settled.  On an event loop in front
# of two services (experiments/joint_event.conf, 2 s, black box):
# - conf_copy_stage=2 (the stage, then always the default) and =3 (the
#   default copy's noise measured) give the default's output but their
#   line: the stage leaves nothing behind;
# - conf_copy_stage=1 with conf_copy_stage_tol=1 (every stage kept): the
#   stage's copy holds about a quarter of the default's pairs, fewer
#   simulated rows, and every row's instance, rank and parent and the busy
#   test's lines are the default's (confidences only);
# - conf_copy_stage=1 (tolerance 0): either the stage is kept (its line
#   says so) or the output is the default's but the line.
. "$PB_ROOT/tests/sh/joint_lib.sh"
"$B/maketrace" "$PB_ROOT/experiments/joint_event.conf" -s duration=2s > "$tmp/m.csv" ||
    fail "maketrace"
strip_callids "$tmp/m.csv" > "$tmp/t.csv"
conf_run_drop='^# conf_copy_stage='
run() { conf_run "$@"; }
n0=$(run def)
[ -n "$n0" ] || fail "no selfcal_rows in the metadata"
[ -s "$tmp/p.def" ] || fail "no rows"
grep -q '^# conf_copy_stage=' "$tmp/r.def" && fail "a conf_copy_stage line at the default"
run two -s conf_copy_stage=2 > /dev/null
grep -q '^# conf_copy_stage=2 .*kept=default' "$tmp/r.two" || fail "no conf_copy_stage=2 line"
cmp -s "$tmp/x.def" "$tmp/x.two" || fail "conf_copy_stage=2 is not the default but its line"
run three -s conf_copy_stage=3 > /dev/null
grep -q '^# conf_copy_stage=3 rows=[0-9]* rows_unsettled=' "$tmp/r.three" ||
    fail "no conf_copy_stage=3 line"
cmp -s "$tmp/x.def" "$tmp/x.three" || fail "conf_copy_stage=3 is not the default but its line"
n1=$(run tol -s conf_copy_stage=1 -s conf_copy_stage_tol=1)
line=$(grep '^# conf_copy_stage=1 ' "$tmp/r.tol") || fail "no conf_copy_stage=1 line"
echo "$line"
case $line in *kept=stage*) ;; *) fail "tolerance 1 did not keep the stage" ;; esac
sp=$(echo "$line" | sed -n 's/.* stage_pairs=\([0-9]*\) .*/\1/p')
fp=$(echo "$line" | sed -n 's/.* full_pairs=\([0-9]*\) .*/\1/p')
[ -n "$sp" ] && [ -n "$fp" ] || fail "no pair counts"
[ $((4 * sp)) -ge $((fp - 4)) ] && [ $((4 * sp)) -le $((fp + 4)) ] ||
    fail "the stage holds $sp of $fp pairs, not a quarter"
[ "$n1" -lt "$n0" ] || fail "the stage's copy is not smaller ($n1 rows, default $n0)"
cmp -s "$tmp/p.def" "$tmp/p.tol" || fail "conf_copy_stage moved an assignment"
cmp -s "$tmp/b.def" "$tmp/b.tol" || fail "conf_copy_stage moved the busy test"
run one -s conf_copy_stage=1 > /dev/null
line=$(grep '^# conf_copy_stage=1 ' "$tmp/r.one") || fail "no conf_copy_stage=1 line"
echo "$line"
case $line in
*kept=stage*) cmp -s "$tmp/p.def" "$tmp/p.one" || fail "the kept stage moved an assignment" ;;
*) cmp -s "$tmp/x.def" "$tmp/x.one" || fail "the default copy after the stage is not the default" ;;
esac
echo "PASS"
