#!/bin/sh
# late_trust's trust alone (lt_trust_alone, default 1; algorithms/joint/late/
# joint_latetrust.c; docs/joint/speed_w29.md, "The calibration copy's
# consumers (h247)"): where the result's confidences are computed again
# whatever late_trust decides, its pass runs the self-calibration's copies
# and their per-link counts only.  Speed only: on retries after a timeout
# (experiments/joint_apps_retry.conf, 2 s, maketrace seed 3), stamps rounded
# down to 1 ms (spread by subtick: the result's copy is cut to the tick),
# with call ids, late_trust places and undoes orphans, and
# - the output and stderr with lt_trust_alone=1 and =0 are the same but
#   the params line (the tree before has no such option: this test fails
#   there);
# - so with conf_copy_shuffle=1 (the result's copy another again).
. "$PB_ROOT/tests/sh/joint_lib.sh"
R="$PB_ROOT"
"$B/maketrace" "$R/experiments/joint_apps_retry.conf" -s seed=3 -s duration=2s > "$tmp/g.csv" ||
    fail "maketrace retry seed 3"
"$B/skewer" -q --round 1ms "$tmp/g.csv" > "$tmp/t.csv" || fail "skewer --round 1ms"
two() {
    for a in 0 1; do
        "$B/infer" --algo joint -q -s lt_trust_alone=$a "$@" -o "$tmp/r$a" "$tmp/t.csv" \
            2> "$tmp/e$a" || fail "infer lt_trust_alone=$a $*: $(cat "$tmp/e$a")"
        grep -v '^# cpu_\|^# params:\|^# program=' "$tmp/r$a" > "$tmp/x$a"
    done
    grep -q '^# late_trust=.*>.* placed=' "$tmp/r1" || fail "no late_trust line ($*)"
    grep '^# late_trust=.*>' "$tmp/r1"
    cmp -s "$tmp/x0" "$tmp/x1" || fail "lt_trust_alone changed the output ($*)"
    cmp -s "$tmp/e0" "$tmp/e1" || fail "lt_trust_alone changed stderr ($*)"
}
two
grep -q '^# subtick=.* spread=yes' "$tmp/r1" || fail "the trace was not spread: the test is moot"
two -s conf_copy_shuffle=1
echo "PASS"
