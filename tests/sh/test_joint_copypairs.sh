#!/bin/sh
# joint's conf_copy_pairs (docs/joint/speed.md, "Speed, sixteenth wave"):
# the self-calibration's own copy sized apart from the other copies of
# the trace.  On an event loop in front of two services
# (experiments/joint_event.conf, 2 s, black box: the busy test fires
# there and keeps the held search):
# - conf_copy_pairs equal to conf_sim_pairs (2000) is the default: the
#   same output byte for byte but the params line;
# - conf_copy_pairs=300 makes the calibration's copy smaller (fewer
#   simulated rows, the same as conf_sim_pairs=300 gives it) and leaves
#   the busy test's copies alone: its lines byte for byte the default's,
#   every row's instance, rank and parent the same (only confidences
#   move), while conf_sim_pairs=300, which sizes every copy, moves the
#   busy test's counts (so the check above can fail).
. "$PB_ROOT/tests/sh/joint_lib.sh"
"$B/maketrace" "$PB_ROOT/experiments/joint_event.conf" -s duration=2s > "$tmp/m.csv" ||
    fail "maketrace"
strip_callids "$tmp/m.csv" > "$tmp/t.csv"
run() { conf_run "$@"; }
n0=$(run def)
n1=$(run same -s conf_copy_pairs=2000)
cmp -s "$tmp/x.def" "$tmp/x.same" || fail "conf_copy_pairs=2000 is not the default"
n2=$(run copy -s conf_copy_pairs=300)
n3=$(run sim -s conf_sim_pairs=300)
echo "selfcal rows: default $n0, conf_copy_pairs=2000 $n1, conf_copy_pairs=300 $n2, conf_sim_pairs=300 $n3"
[ -n "$n0" ] && [ -n "$n2" ] || fail "no selfcal_rows in the metadata"
[ "$n2" -lt "$n0" ] || fail "conf_copy_pairs=300 did not make the copy smaller ($n2, $n0)"
[ "$n2" = "$n3" ] || fail "the calibration's copy differs from conf_sim_pairs=300's ($n2, $n3)"
[ -s "$tmp/b.def" ] || fail "no busy test lines"
cmp -s "$tmp/b.def" "$tmp/b.copy" || fail "conf_copy_pairs moved the busy test"
cmp -s "$tmp/p.def" "$tmp/p.copy" || fail "conf_copy_pairs moved an assignment"
[ -s "$tmp/p.def" ] || fail "no rows"
! cmp -s "$tmp/b.def" "$tmp/b.sim" || fail "conf_sim_pairs=300 left the busy test unchanged: the check is void"
echo "PASS"
