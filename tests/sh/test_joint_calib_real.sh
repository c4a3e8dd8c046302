#!/bin/sh
# joint's confidence on real OnlineBoutique minutes with call ids (docs/joint/confidence.md,
# "Calibrated on OnlineBoutique with call ids, and a quarter of the cost"):
# the fault-free minute 17:00 and the fault minute 07:11, imported as
# experiments/joint_calib.sh does.  Among the rows stated at 0.5, 0.9, 0.99
# and 0.999 or more, at least that share is right (score --reliability), and
# some rows are stated at 0.99 or more.  Before the fixes of this stop
# 17:00 gave 98.92 % at 0.99 and 07:11 97.67 % at 0.99, 99.82 % at 0.999.
# The minute 03:53 too, and there the coverage at 99 % message precision is
# at least 60 % (34.1 % before the siblings cap left the rows right by
# construction alone and kept the order of the rows it lowers, 73.6 % after;
# docs/joint/confidence.md, "The siblings cap: rows that cannot move, and their order").
# On all three the siblings cap stays on, decided from the trace
# (conf_sib_learn: the real rows doubt more than the self-calibration's
# copy; docs/joint/confidence.md, "The siblings cap, decided per trace"): 07:11 is not
# calibrated without it (89.66 % at 0.9).  The reason the copy gives may be
# real_doubts_more or copy_cannot_vouch (03:53 since loss_serial_win: the
# real rows' doubt now agrees with the copy's, z -1.10, but the copy cannot
# vouch for every level); either keeps the cap on.
# Skipped when data/ does not hold the minutes.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
B="$PB_BIN"
for p in importtrace infer score; do [ -x "$B/$p" ] || exit 77; done
D="$PB_ROOT/data/nezha/onlineboutique"
[ -f "$D/construct_2022-08-23_17_00.csv.gz" ] && [ -f "$D/rca_2022-08-22_07_11.csv.gz" ] &&
    [ -f "$D/rca_2022-08-22_03_53.csv.gz" ] || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
keep_cols() {
    awk 'BEGIN { FS = OFS = ","; split("id ts recv_ts src dst type callid path cause", K, " ")
                 for (i in K) ok[K[i]] = 1 }
         /^#/ { print; next }
         !h { for (i = 1; i <= NF; i++) if ($i in ok) keep[++nk] = i; h = 1 }
         { line = ""; for (j = 1; j <= nk; j++) line = line (j > 1 ? OFS : "") $keep[j]; print line }' "$1"
}
for m in construct_2022-08-23_17_00 rca_2022-08-22_07_11 rca_2022-08-22_03_53; do
    "$B/importtrace" -q --callid "$D/$m.csv.gz" > "$tmp/raw.csv" 2> "$tmp/log" || fail "importtrace $m: $(cat "$tmp/log")"
    keep_cols "$tmp/raw.csv" > "$tmp/$m.csv"
    "$B/infer" --algo joint -q -o "$tmp/$m.r" "$tmp/$m.csv" 2> "$tmp/log" || fail "infer $m: $(cat "$tmp/log")"
    "$B/score" --truth "$tmp/$m.csv" --reliability "$tmp/$m.rel" --coverage-curve "$tmp/$m.cov" \
        "$tmp/$m.r" > "$tmp/$m.row" || fail "score $m"
    r=$(awk -F, 'NR > 1 { printf "%s:%s:%s:%s ", $1, $7, $8, $9 }' "$tmp/$m.rel")
    echo "$m (conf_low:rows_at_or_above:fraction_right:calibrated): $r"
    awk -F, 'NR > 1 && $9 == "0" { f = 1 } END { exit f }' "$tmp/$m.rel" ||
        fail "$m: not calibrated: $r"
    grep -q 'siblings_strength=1 siblings_reason=' "$tmp/$m.r" ||
        fail "$m: the siblings cap not kept: $(grep -o 'siblings_strength=.*siblings_doubt_z=[-0-9.]*' "$tmp/$m.r")"
    awk -F, 'NR > 1 && $1 == 0.99 && $7 > 0 { f = 1 } END { exit !f }' "$tmp/$m.rel" ||
        fail "$m: no row stated at 0.99 or more"
    if [ "$m" = rca_2022-08-22_03_53 ]; then
        c=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "coverage_p99") k = i; next }
                     { print $k }' "$tmp/$m.row")
        echo "$m coverage at 99 % precision: $c"
        awk -v c="$c" 'BEGIN { exit !(c + 0 >= 0.6) }' || fail "$m: coverage at 99 % $c < 0.6"
    fi
done
echo "PASS test_joint_calib_real"
