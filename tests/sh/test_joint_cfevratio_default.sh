#!/bin/sh
# joint's conf_ratio_events default (2, with conf_ratio_events_band 0.5,
# since the thirty-seventh wave; docs/joint/confidence_w36.md, "conf_ratio_events
# made the default (h306)"; algorithms/joint/conf/joint_cfevratio.c).  On
# experiments/joint_apps_async.conf at maketrace seed 12 with call ids (a
# held-out seed where the events map's ratio is eased on some link), the
# default run says conf_ratio_events=2 band=0.5 with rows eased, states no
# row lower than `-s conf_ratio_events=0` and some row higher, and its
# assignment (instance, rank, parent) and pattern table are the 0 run's
# byte for byte (confidences only).  Fails on main before the flip (no
# conf_ratio_events line at the default) and with PB_TEST_INFER="-s
# conf_ratio_events=0".
. "$PB_ROOT/tests/sh/joint_lib.sh"
"$B/maketrace" "$PB_ROOT/experiments/joint_apps_async.conf" -s seed=12 -s duration=2s > "$tmp/raw.csv" 2> "$tmp/log" ||
    fail "maketrace: $(cat "$tmp/log")"
keep_cols "$tmp/raw.csv" > "$tmp/ids.csv"
# shellcheck disable=SC2086
"$B/infer" --algo joint -q ${PB_TEST_INFER:-} -o "$tmp/on" "$tmp/ids.csv" 2> "$tmp/log" || fail "infer: $(cat "$tmp/log")"
"$B/infer" --algo joint -q -s conf_ratio_events=0 -o "$tmp/off" "$tmp/ids.csv" 2> "$tmp/log" ||
    fail "infer conf_ratio_events=0: $(cat "$tmp/log")"
grep -q '^# conf_ratio_events=2 band=0.5 links_eased=[1-9][0-9]* rows_eased=[1-9]' "$tmp/on" ||
    fail "default metadata: $(grep '^# conf_ratio_events' "$tmp/on")"
grep -q '^# conf_ratio_events=' "$tmp/off" && fail "conf_ratio_events=0 still said"
# the assignment table without its confidence column, and the patterns
cols() { awk -F, '/^# table=assignment/ { t = 1; next } /^#/ { t = 0; next }
                  t { print $1 "," $2 "," $3 "," $4 }' "$1"; }
pats() { awk '/^# table=patterns/ { t = 1; next } /^# table=/ { t = 0 } t' "$1"; }
cols "$tmp/on" > "$tmp/a1"; cols "$tmp/off" > "$tmp/b1"
[ -s "$tmp/a1" ] || fail "no assignment table"
cmp -s "$tmp/a1" "$tmp/b1" || fail "the assignment differs from conf_ratio_events=0's"
pats "$tmp/on" > "$tmp/a2"; pats "$tmp/off" > "$tmp/b2"
cmp -s "$tmp/a2" "$tmp/b2" || fail "the pattern table differs from conf_ratio_events=0's"
# confidences: none lower, some higher
conf() { awk -F, '/^# table=assignment/ { t = 1; next } /^#/ { t = 0; next }
                  t && $1 != "id" { print $5 }' "$1"; }
conf "$tmp/on" > "$tmp/c1"; conf "$tmp/off" > "$tmp/c2"
paste -d, "$tmp/c1" "$tmp/c2" | awk -F, '$1 + 0 < $2 - 1e-12 { lo++ } $1 + 0 > $2 + 1e-12 { hi++ }
    END { if (lo || !hi) { printf "lower %d higher %d\n", lo, hi; exit 1 } }' > "$tmp/o" ||
    fail "confidences against conf_ratio_events=0: $(cat "$tmp/o")"
echo "PASS test_joint_cfevratio_default"
