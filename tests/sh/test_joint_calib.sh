#!/bin/sh
# joint's self-calibrated confidence (docs/joint/confidence.md "Allowances for model
# error", -s conf_selfcal=1): on the multi-tier trace (10,000 messages,
# 3.8 requests in flight per service), with call ids and as a black box,
# the neighbourhood's shares alone (conf_selfcal=0 conf_siblings=0) are not calibrated
# (among the rows stated at 0.99 or more fewer than 99 % are right, by
# score --reliability), and with the self-calibration every level is.
# The self-calibration changes nothing but the confidence column and the
# metadata (every instance and parent the same), says what it learned
# per link, and gives the same file twice (seeded draws).
set -u
B="$PB_BIN"
for p in maketrace infer score; do [ -x "$B/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
# callers=keyed: on multitier pooling the callers (joint_select.c) makes the shares
# alone calibrated at 0.99, and this test needs a trace where they are not
"$B/maketrace" "$PB_ROOT/maketrace/configs/multitier.conf" -D messages=10000 \
    > "$tmp/ids.csv" || fail "maketrace"
awk -F, 'BEGIN { OFS = "," } /^#/ { print; next }
    !h { for (i = 1; i <= NF; i++) if ($i == "callid") c = i; h = 1; print; next }
    { if (c) $c = ""; print }' "$tmp/ids.csv" > "$tmp/bb.csv"
# the assignment table without its confidence column
table() { awk -F, '/^# table=assignment/ { on = 1 } on && !/^#/ { print $1 "," $2 "," $3 "," $4 }' "$1"; }
for m in ids bb; do
    for sc in 0 1; do
        "$B/infer" --algo joint -q -s callers=keyed -s conf_selfcal=$sc -s conf_siblings=$sc \
            -o "$tmp/$m$sc" "$tmp/$m.csv" \
            2> "$tmp/log" || fail "infer $m conf_selfcal=$sc: $(cat "$tmp/log")"
        "$B/score" --truth "$tmp/$m.csv" --reliability "$tmp/rel$m$sc" "$tmp/$m$sc" \
            > /dev/null || fail "score"
    done
    # conf_low, fraction right at or above, calibrated
    r0=$(awk -F, 'NR > 1 { printf "%s:%s:%s ", $1, $8, $9 }' "$tmp/rel${m}0")
    r1=$(awk -F, 'NR > 1 { printf "%s:%s:%s ", $1, $8, $9 }' "$tmp/rel${m}1")
    echo "$m: shares alone: $r0"
    echo "$m: self-calibrated: $r1"
    awk -F, 'NR > 1 && $1 == 0.99 && $9 == "0" { f = 1 } END { exit !f }' "$tmp/rel${m}0" ||
        fail "$m: the shares alone are calibrated at 0.99 already; the test cannot fail"
    awk -F, 'NR > 1 && $9 == "0" { f = 1 } END { exit f }' "$tmp/rel${m}1" ||
        fail "$m: self-calibrated confidence not calibrated: $r1"
    table "$tmp/${m}0" > "$tmp/t0"
    table "$tmp/${m}1" > "$tmp/t1"
    [ -s "$tmp/t1" ] || fail "$m: no assignment table"
    cmp -s "$tmp/t0" "$tmp/t1" || fail "$m: the self-calibration changed an assignment"
    grep -q "^# conf_heldout=0 conf_selfcal=1 conf_seed=1 conf_sims=1 conf_siblings=1 lowered_siblings=[0-9]* siblings_by_construction=[0-9]* selfcal_rows=[1-9]" "$tmp/${m}1" ||
        fail "$m: no self-calibration metadata"
    grep -q "^# conf_link=WS[12]>AUTH .*selfcal_map=" "$tmp/${m}1" ||
        fail "$m: no per-link metadata"
done
"$B/infer" --algo joint -q -s callers=keyed -o "$tmp/again" "$tmp/bb.csv" 2> /dev/null || fail "infer again"
grep -v '^# cpu' "$tmp/again" > "$tmp/a1"
grep -v '^# cpu' "$tmp/bb1" > "$tmp/a2"
cmp -s "$tmp/a1" "$tmp/a2" || fail "two runs differ"
echo "PASS test_joint_calib"
