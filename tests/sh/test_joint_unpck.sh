#!/bin/sh
# joint -s unpaired=3 (docs/joint/loss.md, "Which messages stay unpaired,
# checked"; algorithms/joint/unp/joint_unpck.c): without call ids, under loss,
# on a link answering out of arrival order, the priced choice of which
# calls and returns stay unpaired (count included) is searched again and
# kept only when the model's likelihood and a copy of the trace both say
# it helps.  On experiments/joint_loss_order.conf at a held-out maketrace
# seed (41, instances 8, 6000 messages, 2 % sniffer loss at
# seed 7, ids emptied; never looked at while the rule was built): the
# check is reported, the choice is taken, and the intact requests come out
# exact more often than with unpaired=0 (176 -> 192 of 771 when written; evaluation
# only, experiments/intact_spill.awk).  Without loss nothing runs: the
# output is byte-identical to unpaired=0's.  Fails on the old tree
# (unpaired=3 out of range).  Run as built: every other unpaired option
# at 0 (-s unp_pieces=0 -s unp_win=0 -s unp_flow=0; the defaults since h199
# are unpaired=1's window and zone, which unpaired=3 would also use).
. "$PB_ROOT/tests/sh/joint_lib.sh"
[ -x "$B/sniffer" ] || exit 77
C="$PB_ROOT/experiments/joint_loss_order.conf"
SP="$PB_ROOT/experiments/intact_spill.awk"
MSEED=41
INST=8
LOSS=0.02
U0="-s unp_pieces=0 -s unp_win=0 -s unp_flow=0"
"$B/maketrace" "$C" --seed "$MSEED" -D instances=$INST -D messages=6000 -D duration=0 \
    > "$tmp/t.csv" || fail "maketrace"
strip_callids "$tmp/t.csv" > "$tmp/tb.csv"
for u in 0 3; do
    "$B/infer" --algo joint -s unpaired=$u $U0 -o "$tmp/r$u.csv" "$tmp/tb.csv" 2> "$tmp/log" ||
        fail "infer -s unpaired=$u without loss: $(tail -1 "$tmp/log")"
done
grep -q "unpaired=3" "$tmp/r3.csv" || fail "unpaired=3 not in the params line"
grep -v '^# \(cpu_\|params:\)' "$tmp/r0.csv" > "$tmp/a"
grep -v '^# \(cpu_\|params:\)' "$tmp/r3.csv" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "without loss unpaired=3 changed the output"
grep -q "unpaired_check" "$tmp/r3.csv" && fail "without loss the check ran"
"$B/sniffer" -q -p "$LOSS" --seed 7 "$tmp/t.csv" > "$tmp/p.csv" || fail "sniffer"
strip_callids "$tmp/p.csv" > "$tmp/pb.csv"
for u in 0 3; do
    "$B/infer" --algo joint -s unpaired=$u $U0 -o "$tmp/u$u.csv" "$tmp/pb.csv" 2> "$tmp/log" ||
        fail "infer -s unpaired=$u under loss: $(tail -1 "$tmp/log")"
done
ck=$(sed -n 's/^# unpaired_check=//p' "$tmp/u3.csv")
[ -n "$ck" ] || fail "under loss: no unpaired_check line"
case "$ck" in *chosen=with) ;; *) fail "the check did not take the choice: $ck" ;; esac
grep -q "^# unpaired_link=client>frontend .*chosen=priced" "$tmp/u3.csv" ||
    fail "client>frontend: no priced choice reported"
e0=$(awk -f "$SP" "$tmp/t.csv" "$tmp/p.csv" "$tmp/r0.csv" "$tmp/u0.csv" | sed 's/.*exact_loss=\([0-9]*\).*/\1/')
e3=$(awk -f "$SP" "$tmp/t.csv" "$tmp/p.csv" "$tmp/r0.csv" "$tmp/u3.csv" | sed 's/.*exact_loss=\([0-9]*\).*/\1/')
[ "$e3" -gt "$e0" ] || fail "intact requests exact: $e3 with unpaired=3, $e0 with unpaired=0"
echo "intact requests exact under loss: $e0 (unpaired=0) -> $e3 (unpaired=3; $ck)"
