#!/bin/sh
# joint's conf_copy_warm_min and conf_copy_warm_free (algorithms/joint/selfcal/joint_scwarm.c;
# docs/joint/confidence_late.md, "The copy warm only where the search was sure (h258)"):
# the self-calibration copy set up on its truth only on the rows the real
# search stated sure (its share before calibration at least the minimum)
# and paired freely; the other rows and every pair from the copy's own start.
# On experiments/joint_apps_async.conf (seed 3, 2 s, black box):
# - the case: the copy warm everywhere (conf_copy_warm=2) states rows at
#   0.9 or more that are right less often than stated (score --reliability's
#   `calibrated` 0: the share right at or above a bin's lower edge below
#   it), and the rule (conf_copy_warm=2, min 0.99, free 1) does not;
# - the rule's line: one copy warm, no pair given, parents given and set;
# - every row's instance, rank and parent and the busy test's lines are the
#   default's (confidences only); confidences in [0, 1]; the same output twice;
# - with call ids (every pair paired by its ids) the rule gives nothing and
#   the output is the default's but for its line.
. "$PB_ROOT/tests/sh/joint_lib.sh"
"$B/maketrace" "$PB_ROOT/experiments/joint_apps_async.conf" -s duration=2s -s seed=3 \
    > "$tmp/m.csv" || fail "maketrace"
strip_callids "$tmp/m.csv" > "$tmp/t.csv"
run() { conf_run "$@" > /dev/null; }
RULE="-s conf_copy_warm=2 -s conf_copy_warm_min=0.99 -s conf_copy_warm_free=1"
run def
# shellcheck disable=SC2086
run w2 -s conf_copy_warm=2
# shellcheck disable=SC2086
run rule $RULE
# shellcheck disable=SC2086
run rule2 $RULE
over() { # the bins at 0.9 or more whose rows at or above are right less than stated
    "$B/score" --truth "$tmp/m.csv" --reliability "$tmp/rel.$1" "$tmp/r.$1" > /dev/null ||
        fail "score $1"
    awk -F, 'NR > 1 && $1 + 0 >= 0.9 && $9 == "0" { n++ } END { print n + 0 }' "$tmp/rel.$1"
}
o=$(over w2)
[ "$o" -gt 0 ] || fail "the case is gone: conf_copy_warm=2 over-confident in no bin at 0.9 or more"
o=$(over rule)
[ "$o" = 0 ] || fail "the rule is over-confident in $o bins at 0.9 or more"
line=$(grep '^# conf_copy_warm=2 ' "$tmp/r.rule") || fail "no conf_copy_warm line"
echo "$line"
echo "$line" | grep -q ' conf_copy_warm_min=0.99 conf_copy_warm_free=1 copies_warm=1 pairs_given=0 ' ||
    fail "the line does not say one copy warm and no pair given"
g=$(echo "$line" | sed -n 's/.* parents_given=\([0-9]*\) .*/\1/p')
st=$(echo "$line" | sed -n 's/.* parents_set=\([0-9]*\) .*/\1/p')
[ "$g" -gt 0 ] && [ "$st" -gt 0 ] && [ "$st" -le "$g" ] || fail "parents given $g, set $st"
g2=$(sed -n 's/.* parents_given=\([0-9]*\) .*/\1/p' "$tmp/r.w2")
[ "$g" -lt "$g2" ] || fail "the rule gave as many parents ($g) as the whole warm start ($g2)"
cmp -s "$tmp/p.def" "$tmp/p.rule" || fail "the rule moved an assignment"
cmp -s "$tmp/b.def" "$tmp/b.rule" || fail "the rule moved the busy test"
cmp -s "$tmp/x.rule" "$tmp/x.rule2" || fail "the rule is not deterministic"
sed -n '/^id,instance,rank,parent,confidence$/,$p' "$tmp/r.rule" | tail -n +2 |
    awk -F, '!/^#/ && ($5 + 0 < 0 || $5 + 0 > 1) { bad = 1 } END { exit bad }' ||
    fail "a confidence outside [0, 1]"
# with call ids: nothing given, the default's output
cp "$tmp/m.csv" "$tmp/t.csv"
run idef
# shellcheck disable=SC2086
run irule $RULE
grep -q ' copies_warm=0 pairs_given=0 parents_given=0 ' "$tmp/r.irule" ||
    fail "with call ids: a copy set up warm"
grep -v '^# conf_copy_warm=' "$tmp/x.irule" | cmp -s "$tmp/x.idef" - ||
    fail "with call ids: the output moved"
echo "PASS"
