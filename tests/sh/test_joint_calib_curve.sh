#!/bin/sh
# experiments/joint_calib.sh in one command (docs/joint/confidence.md,
# "Precision-coverage curves on the real sets" and "The copy keeps calls
# that outlive their parent"): on a small maketrace trace
# (experiments/joint_apps_async.conf, held-out seed 11, 1 s, stamps in ns,
# with call ids and as a black box) it writes the three tables; checks
# their shape (two runs; per run four curve points "coverage / precision",
# coverage never rising with min_confidence; every reliability bin row
# with eight cells) and a calibration property that can fail: no bin is
# over-confident by the script's one-sided binomial test at 5 %, and every
# cumulative level is calibrated (at the defaults).  With `-s conf_sim_async=0`
# on the copy before the thirty-sixth wave (OLD_COPY of joint_lib.sh; the copy's
# responses wait for their asynchronous calls, the rule before) the black
# box has over-confident bins (77.1 % right of 280 rows stated 0.90-0.95,
# 95.8 % of 1,470 stated 0.99-0.999): the check fails there.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
for p in sniffer importtrace; do [ -x "$PB_BIN/$p" ] || exit 77; done
. "$PB_ROOT/tests/sh/joint_lib.sh"
run() { # OUT [infer args]
    PB_APPS_DURATION=1s PB_CALIB_INFER="${2:-}" sh "$PB_ROOT/experiments/joint_calib.sh" \
        --no-real --apps 11 --sets '^apps_async-s11-ns$' --out "$1" 2> "$tmp/log" ||
        fail "joint_calib.sh: $(tail -3 "$tmp/log")"
    for f in joint_calib.md joint_calib_bins.md joint_calib_curve.md; do
        [ -s "$1/$f" ] || fail "$1/$f missing"
    done
}
run "$tmp/a"
cat "$tmp/a/joint_calib_curve.md"
# shape: two runs, four points each, coverage not rising with X
awk -F'|' '/^\| apps_async/ {
        n++; if (NF != 10) { print "curve row with " NF " fields: " $0; bad = 1 }
        prev = 101
        for (i = 6; i <= 9; i++) { split($i, a, " / "); c = a[1] + 0
            if (c > prev + 1e-9) { print "coverage rises: " $0; bad = 1 }; prev = c } }
    END { if (n != 2) { print "curve rows: " n; bad = 1 }; exit bad }' "$tmp/a/joint_calib_curve.md" ||
    fail "curve table shape"
awk -F'|' '/^\| apps_async/ { n++; if (NF != 10) { print "bins row: " $0; bad = 1 } }
    END { if (n < 4) { print "bin rows: " n; bad = 1 }; exit bad }' "$tmp/a/joint_calib_bins.md" ||
    fail "bins table shape"
grep -q 'apps_async-s11-ns | black box' "$tmp/a/joint_calib.md" || fail "no black-box row"
# calibrated: no over-confident bin, no uncalibrated cumulative level
if grep -q 'OVER\*\*' "$tmp/a/joint_calib_bins.md"; then
    grep 'OVER\*\*' "$tmp/a/joint_calib_bins.md"
    fail "over-confident bins"
fi
grep '^| apps_async' "$tmp/a/joint_calib.md" | grep -q '\*\*' && fail "a cumulative level not calibrated"
# the same check fails with the rule before (conf_sim_async=0)
run "$tmp/b" "$OLD_COPY -s conf_sim_async=0"
grep 'OVER\*\*' "$tmp/b/joint_calib_bins.md" | grep -q 'black box' ||
    fail "conf_sim_async=0 shows no over-confident bin: the check could not fail"
echo "PASS test_joint_calib_curve"
