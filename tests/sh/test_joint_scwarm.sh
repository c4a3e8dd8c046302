#!/bin/sh
# joint's conf_copy_warm (algorithms/joint/selfcal/joint_scwarm.c; docs/joint/speed_w29.md,
# "The copy searched from its own truth (h247)"): the self-calibration's
# copy searched from the pairs and parents it was made with.  On an event
# loop in front of two services (experiments/joint_event.conf, 2 s, black
# box):
# - at the default (0) no conf_copy_warm line;
# - conf_copy_warm=1 and =2: the line says one copy was set up warm, with
#   pairs and parents given and parents set (at most as many as given), and
#   every row's instance, rank and parent and the busy test's lines are the
#   default's (confidences only);
# - the confidence column stays in [0, 1] (the maps move both ways).
. "$PB_ROOT/tests/sh/joint_lib.sh"
"$B/maketrace" "$PB_ROOT/experiments/joint_event.conf" -s duration=2s > "$tmp/m.csv" ||
    fail "maketrace"
strip_callids "$tmp/m.csv" > "$tmp/t.csv"
run() { conf_run "$@"; }
n0=$(run def)
[ -n "$n0" ] || fail "no selfcal_rows in the metadata"
[ -s "$tmp/p.def" ] || fail "no rows"
grep -q '^# conf_copy_warm=' "$tmp/r.def" && fail "a conf_copy_warm line at the default"
for w in 1 2; do
    run w$w -s conf_copy_warm=$w > /dev/null
    line=$(grep "^# conf_copy_warm=$w " "$tmp/r.w$w") || fail "no conf_copy_warm=$w line"
    echo "$line"
    c=$(echo "$line" | sed -n 's/.* copies_warm=\([0-9]*\) .*/\1/p')
    pg=$(echo "$line" | sed -n 's/.* pairs_given=\([0-9]*\) .*/\1/p')
    g=$(echo "$line" | sed -n 's/.* parents_given=\([0-9]*\) .*/\1/p')
    st=$(echo "$line" | sed -n 's/.* parents_set=\([0-9]*\) .*/\1/p')
    [ "$c" = 1 ] || fail "conf_copy_warm=$w: $c copies warm, not 1"
    [ "$pg" -gt 0 ] && [ "$g" -gt 0 ] && [ "$st" -gt 0 ] || fail "conf_copy_warm=$w: nothing given"
    [ "$st" -le "$g" ] || fail "conf_copy_warm=$w: more parents set than given"
    cmp -s "$tmp/p.def" "$tmp/p.w$w" || fail "conf_copy_warm=$w moved an assignment"
    cmp -s "$tmp/b.def" "$tmp/b.w$w" || fail "conf_copy_warm=$w moved the busy test"
    sed -n '/^id,instance,rank,parent,confidence$/,$p' "$tmp/r.w$w" | tail -n +2 |
        awk -F, '!/^#/ && ($5 + 0 < 0 || $5 + 0 > 1) { bad = 1 } END { exit bad }' ||
        fail "conf_copy_warm=$w: a confidence outside [0, 1]"
done
echo "PASS"
