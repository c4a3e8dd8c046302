#!/bin/sh
# joint's conf_copy_warm_pairs (algorithms/joint/selfcal/joint_scwarm.c, with the
# partial pairing in joint_find_pairs; docs/joint/confidence_late.md, "The
# copy paired only where the search was sure (h267)"): under
# conf_copy_warm_min / _free, the copy's sure rows are given their true
# pair too (2: their pair alone), and only the other calls and returns are
# paired as the real search pairs them.  On an event loop in front of two
# services (experiments/joint_event.conf, 2 s, black box):
# - 1: the line says pairs and parents were given (parents set at most as
#   many as given); 2: pairs given, no parent;
# - every pair of the copy is made once: the copy's rows (selfcal_rows)
#   are the default's in number;
# - every row's instance, rank and parent and the busy test's lines are the
#   default's (confidences only); confidences in [0, 1]; the same output
#   twice.
. "$PB_ROOT/tests/sh/joint_lib.sh"
"$B/maketrace" "$PB_ROOT/experiments/joint_event.conf" -s duration=2s > "$tmp/m.csv" ||
    fail "maketrace"
strip_callids "$tmp/m.csv" > "$tmp/t.csv"
run() { conf_run "$@"; }
W="-s conf_copy_warm=2 -s conf_copy_warm_min=0.99 -s conf_copy_warm_free=1"
n0=$(run def)
[ -n "$n0" ] || fail "no selfcal_rows in the metadata"
for v in 1 2; do
    # shellcheck disable=SC2086
    n=$(run p$v $W -s conf_copy_warm_pairs=$v)
    # shellcheck disable=SC2086
    run q$v $W -s conf_copy_warm_pairs=$v > /dev/null
    line=$(grep "^# conf_copy_warm=2 " "$tmp/r.p$v") || fail "no conf_copy_warm line ($v)"
    echo "$line"
    echo "$line" | grep -q " conf_copy_warm_pairs=$v " || fail "the line does not say conf_copy_warm_pairs=$v"
    pg=$(echo "$line" | sed -n 's/.* pairs_given=\([0-9]*\) .*/\1/p')
    g=$(echo "$line" | sed -n 's/.* parents_given=\([0-9]*\) .*/\1/p')
    st=$(echo "$line" | sed -n 's/.* parents_set=\([0-9]*\) .*/\1/p')
    [ "$pg" -gt 0 ] || fail "no pair given ($v)"
    if [ "$v" = 1 ]; then
        [ "$g" -gt 0 ] && [ "$st" -le "$g" ] || fail "parents given $g, set $st"
    else
        [ "$g" = 0 ] || fail "conf_copy_warm_pairs=2 gave $g parents"
    fi
    [ "$n" = "$n0" ] || fail "the copy's rows $n, the default's $n0 ($v)"
    cmp -s "$tmp/p.def" "$tmp/p.p$v" || fail "conf_copy_warm_pairs=$v moved an assignment"
    cmp -s "$tmp/b.def" "$tmp/b.p$v" || fail "conf_copy_warm_pairs=$v moved the busy test"
    cmp -s "$tmp/x.p$v" "$tmp/x.q$v" || fail "conf_copy_warm_pairs=$v is not deterministic"
    sed -n '/^id,instance,rank,parent,confidence$/,$p' "$tmp/r.p$v" | tail -n +2 |
        awk -F, '!/^#/ && ($5 + 0 < 0 || $5 + 0 > 1) { bad = 1 } END { exit bad }' ||
        fail "a confidence outside [0, 1] ($v)"
done
# without min or free the whole warm start gives every pair anyway: the
# option changes nothing there
run w2 -s conf_copy_warm=2 > /dev/null
run w2p -s conf_copy_warm=2 -s conf_copy_warm_pairs=1 > /dev/null
grep -v '^# conf_copy_warm=' "$tmp/x.w2" > "$tmp/y.w2"
grep -v '^# conf_copy_warm=' "$tmp/x.w2p" | cmp -s "$tmp/y.w2" - ||
    fail "conf_copy_warm_pairs moved the whole warm start"
echo "PASS"
