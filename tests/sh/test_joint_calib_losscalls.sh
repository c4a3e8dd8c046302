#!/bin/sh
# The self-calibration's copy loses calls at the trace's rate with call
# ids (conf_sim_loss_calls, joint_calibloss.c; docs/joint/confidence.md,
# "The copy's rate of lost calls").  TrainTicket 10:45 and the eBPF
# capture with call ids, 2 % of their messages lost (sniffer -p 0.02 seed
# 1: a known rate per message, so per half and per call).  The metadata
# gives the trace's and the copy's rates by the same estimator (the
# halves left unpaired away from the ends over 2 n; the lost calls over
# n).  Each must be within 0.016 of the known 0.02: three standard
# deviations of the two draws stacked (the trace's estimate from ~800
# pairs, sd ~0.0035; the copy's from ~1,600 copy pairs at that estimate,
# sd ~0.004).  Before (the copy kept the trace's lost calls lost and
# dropped more at the rate): copy call rate 0.060 (TT) and 0.050 (eBPF),
# about twice the trace's.  Also: every level of the reliability table
# calibrated, and the assignment (instance, rank, parent) the one
# conf_sim_loss_calls=0 gives (confidence only).  Fails on main (no
# copy_call_rate_ids) and with PB_TEST_INFER="-s conf_sim_loss_calls=0".
# Skipped when data/ lacks the traces.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
B="$PB_BIN"
for p in importtrace infer score sniffer; do [ -x "$B/$p" ] || exit 77; done
E="$PB_ROOT/data/deeptrace-ebpf/rps100-spans.json.gz"
T="$PB_ROOT/data/nezha/trainticket/rca_2023-01-29_10_45.csv.gz"
[ -f "$E" ] && [ -f "$T" ] || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
. "$PB_ROOT/experiments/trace_cols.sh"
assign() { awk -F, '/^#/ { next } /^id,instance,rank,parent/ { t = 1; next }
                    t { print $1 "," $2 "," $3 "," $4 }' "$1"; }
# the value of key $2 on the conf_sim_loss_ids metadata line of result $1
meta() { sed -n 's/^# conf_sim_loss_ids=1 //p' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
for s in tt1045:"$T" ebpf:"$E"; do
    n=${s%%:*} f=${s#*:}
    "$B/importtrace" -q --callid "$f" > "$tmp/raw.csv" 2> "$tmp/log" || fail "importtrace $n: $(cat "$tmp/log")"
    keep_cols "$tmp/raw.csv" > "$tmp/ids.csv"
    "$B/sniffer" -q -p 0.02 --seed 1 "$tmp/ids.csv" > "$tmp/lossy.csv" || fail "sniffer"
    # shellcheck disable=SC2086
    "$B/infer" --algo joint -q -s conf_sim_loss_calls=1 ${PB_TEST_INFER:-} -o "$tmp/r" "$tmp/lossy.csv" \
        2> "$tmp/log" || fail "infer $n: $(cat "$tmp/log")"
    for k in loss_rate_ids call_rate_ids copy_loss_rate_ids copy_call_rate_ids; do
        v=$(meta "$tmp/r" $k)
        [ -n "$v" ] || fail "$n: no $k in the metadata: $(grep '^# conf_sim_loss_ids' "$tmp/r")"
        echo "$n, 2 % loss (known 0.02), call ids: $k=$v"
        awk -v v="$v" 'BEGIN { exit !(v >= 0.004 && v <= 0.036) }' ||
            fail "$n: $k=$v, not within 0.016 of the known rate 0.02"
    done
    "$B/score" --truth "$tmp/ids.csv" --kept "$tmp/lossy.csv" --reliability "$tmp/rel" "$tmp/r" \
        > "$tmp/row" || fail "score $n"
    r=$(awk -F, 'NR > 1 { printf "%s:%s:%s:%s ", $1, $7, $8, $9 }' "$tmp/rel")
    awk -F, 'NR > 1 && $9 == "0" { f = 1 } END { exit f }' "$tmp/rel" || fail "$n not calibrated: $r"
    "$B/infer" --algo joint -q -s conf_sim_loss_calls=0 -o "$tmp/r0" "$tmp/lossy.csv" 2> "$tmp/log" ||
        fail "infer conf_sim_loss_calls=0: $(cat "$tmp/log")"
    assign "$tmp/r" > "$tmp/a1"
    assign "$tmp/r0" > "$tmp/a0"
    cmp -s "$tmp/a1" "$tmp/a0" || fail "$n: the assignment differs from conf_sim_loss_calls=0's"
done
echo "PASS test_joint_calib_losscalls"
