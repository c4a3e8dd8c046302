#!/bin/sh
# joint's siblings cap decided per trace (-s conf_sib_learn=1, docs/joint/confidence.md,
# "The siblings cap, decided per trace"): on the multi-tier trace
# (maketrace/configs/multitier.conf) with call ids the self-calibration's
# copy explains the real doubt and the cap costs the copy's coverage at
# 99 % precision, so the cap is off there (metadata siblings_strength=0
# siblings_reason=copy_coverage_lost) and the coverage at 99 % message
# precision is at least 93 % (94.2 %); the fixed rule (conf_sib_learn=0,
# the old default) keeps it on and gives 87.8 %.  Every level calibrated
# in both runs (score --reliability), and the assignments (instance, rank,
# parent) the same.  (Where the cap stays on, OnlineBoutique with call ids:
# tests/sh/test_joint_calib_real.sh.)
set -u
B="$PB_BIN"
for p in maketrace infer score; do [ -x "$B/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
"$B/maketrace" "$PB_ROOT/maketrace/configs/multitier.conf" > "$tmp/ids.csv" || fail "maketrace"
table() { awk -F, '/^# table=assignment/ { on = 1 } on && !/^#/ { print $1 "," $2 "," $3 "," $4 }' "$1"; }
cov() {
    "$B/score" --truth "$1" --reliability "$tmp/rel" "$2" > "$tmp/row" || fail "score $2"
    awk -F, 'NR > 1 && $9 == "0" { f = 1 } END { exit f }' "$tmp/rel" ||
        fail "$2: not calibrated: $(awk -F, 'NR > 1 { printf "%s:%s:%s ", $1, $8, $9 }' "$tmp/rel")"
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "coverage_p99") k = i; next }
             { print $k }' "$tmp/row"
}
for m in ids; do
    "$B/infer" --algo joint -q -o "$tmp/$m.new" "$tmp/$m.csv" 2> "$tmp/log" ||
        fail "infer $m: $(cat "$tmp/log")"
    "$B/infer" --algo joint -q -s conf_sib_learn=0 -o "$tmp/$m.old" "$tmp/$m.csv" 2> "$tmp/log" ||
        fail "infer $m conf_sib_learn=0: $(cat "$tmp/log")"
    cn=$(cov "$tmp/$m.csv" "$tmp/$m.new") || exit 1
    co=$(cov "$tmp/$m.csv" "$tmp/$m.old") || exit 1
    meta=$(grep -o 'siblings_strength=[0-9]* siblings_reason=[a-z_]*' "$tmp/$m.new")
    echo "$m: coverage at 99 %: learned $cn ($meta), fixed rule $co"
    table "$tmp/$m.new" > "$tmp/t1"
    table "$tmp/$m.old" > "$tmp/t0"
    [ -s "$tmp/t1" ] && cmp -s "$tmp/t0" "$tmp/t1" || fail "$m: an assignment changed"
    echo "$meta" | grep -q 'siblings_strength=0 siblings_reason=copy_coverage_lost' ||
        fail "ids: the cap not switched off ($meta)"
    awk -v c="$cn" 'BEGIN { exit !(c + 0 >= 0.93) }' || fail "ids: coverage $cn < 0.93"
    awk -v c="$co" 'BEGIN { exit !(c + 0 < 0.9) }' ||
        fail "ids: the fixed rule gives $co: the test cannot fail"
done
echo "PASS test_joint_sib_learn"
