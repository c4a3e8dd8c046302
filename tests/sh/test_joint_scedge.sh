#!/bin/sh
# joint's conf_copy_margin (algorithms/joint/selfcal/joint_scedge.c;
# docs/joint/confidence_late.md, "The copy's window: how its error rates
# converge, and its cut edges (h267)"): the result's calibration copy's
# rows next to the cuts its window makes in the trace searched but not
# counted.
# - experiments/joint_models_mixed.conf (seed 13, 2 s, call ids): the copy
#   is a window of the trace; with the margin the line says rows were left
#   uncounted, fewer than the copy holds; every row's instance, rank and
#   parent and the busy test's lines are the default's (confidences only);
#   confidences in [0, 1]; the same output twice;
# - the case that keeps it off (the same trace): a smaller copy
#   (conf_copy_share=0.1875: 1,500 pairs instead of 2,000) states rows in
#   a bin at 0.9 or more right far less often than the bin's lower edge
#   (58 rows in [0.9, 0.95), 72 % right), the default does not; the margin
#   (printed, not asserted) leaves the same rows there: a copy that counts
#   fewer rows is over-confident on this held-out shape whatever rows it
#   drops;
# - experiments/joint_event.conf (400 ms, black box): the copy is the whole
#   trace (no cut): nothing is left out and the output is the default's but
#   for the line.
. "$PB_ROOT/tests/sh/joint_lib.sh"
"$B/maketrace" "$PB_ROOT/experiments/joint_models_mixed.conf" -s duration=2s -s seed=13 \
    > "$tmp/m.csv" || fail "maketrace"
cp "$tmp/m.csv" "$tmp/t.csv"
# the old copy pinned (OLD_COPY, joint_lib.sh): this option's case lives on
# it; the later -s options override it
# shellcheck disable=SC2086
run() { _rn=$1; shift; conf_run "$_rn" $OLD_COPY "$@"; }
n0=$(run def)
[ -n "$n0" ] || fail "no selfcal_rows in the metadata"
grep -q '^# conf_copy_margin=' "$tmp/r.def" && fail "a conf_copy_margin line at the default"
run m -s conf_copy_margin=0.15 > /dev/null
run m2 -s conf_copy_margin=0.15 > /dev/null
line=$(grep '^# conf_copy_margin=0.15 ' "$tmp/r.m") || fail "no conf_copy_margin line"
echo "$line"
u=$(echo "$line" | sed -n 's/.* copy_rows_uncounted=\([0-9]*\) .*/\1/p')
[ "$u" -gt 0 ] && [ "$u" -lt "$n0" ] || fail "rows uncounted $u of the copy's $n0"
cmp -s "$tmp/p.def" "$tmp/p.m" || fail "the margin moved an assignment"
cmp -s "$tmp/b.def" "$tmp/b.m" || fail "the margin moved the busy test"
cmp -s "$tmp/x.m" "$tmp/x.m2" || fail "the margin is not deterministic"
sed -n '/^id,instance,rank,parent,confidence$/,$p' "$tmp/r.m" | tail -n +2 |
    awk -F, '!/^#/ && ($5 + 0 < 0 || $5 + 0 > 1) { bad = 1 } END { exit bad }' ||
    fail "a confidence outside [0, 1]"
# the case: bins at 0.9 or more with 30+ rows right less than their lower
# edge less 0.05
far() {
    "$B/score" --truth "$tmp/m.csv" --reliability "$tmp/rel.$1" "$tmp/r.$1" > /dev/null ||
        fail "score $1"
    awk -F, 'NR > 1 && $1 + 0 >= 0.9 && $3 + 0 >= 30 && $6 + 0 < $1 - 0.05 { n++ } END { print n + 0 }' \
        "$tmp/rel.$1"
}
run small -s conf_copy_share=0.1875 > /dev/null
fd=$(far def)
fs=$(far small)
fm=$(far m)
echo "# bins far below their edge: default $fd, conf_copy_share=0.1875 $fs, conf_copy_margin=0.15 $fm"
[ "$fd" = 0 ] || fail "the default is over-confident on the case ($fd bins)"
[ "$fs" -gt 0 ] || fail "the case is gone: the smaller copy is calibrated"
# the whole trace copied: no cut, nothing left out
"$B/maketrace" "$PB_ROOT/experiments/joint_event.conf" -s duration=400ms > "$tmp/e.csv" ||
    fail "maketrace event"
strip_callids "$tmp/e.csv" > "$tmp/t.csv"
run edef > /dev/null
run em -s conf_copy_margin=0.15 > /dev/null
grep -q '^# conf_copy_margin=0.15 copy_rows_uncounted=0 ' "$tmp/r.em" ||
    fail "the whole trace copied, yet rows left out: $(grep '^# conf_copy_margin' "$tmp/r.em")"
grep -v '^# conf_copy_margin=' "$tmp/x.em" | cmp -s "$tmp/x.edef" - ||
    fail "the whole trace copied, yet the output moved"
echo "PASS"
