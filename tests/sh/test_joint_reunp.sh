#!/bin/sh
# joint -s reunp=1 (docs/joint/loss.md, "Which calls keep no return"): without
# call ids, under loss, the re-pairing weighs which calls keep no return.
# On experiments/joint_loss_order.conf (a front end answering far out of
# arrival order) at instances=3, 6000 messages, 2 % sniffer loss (seed 1),
# ids emptied: the option is read and reported, it moves some calls, and
# the requests the loss did not touch are at least as often exact as
# without it (473 against 471 of 719 when written; evaluation only, with
# experiments/intact_spill.awk); without loss the output is the same with
# and without it (nothing runs).  Fails on the tree before the option (an
# unknown option is an error).
# reunp=2 (checked: used only where a copy of the trace shows it helping;
# joint_reunpck.c): at instances=6 (sniffer seed 2), where reunp=1 costs
# intact requests (226 -> 206 of 720 when written), the check is reported
# and no intact request is lost against reunp=0.  Fails on the tree before
# it (reunp=2 out of range).  Both against the first search (-s unpaired=0:
# since h199 the default unpaired=1 leaves the lost answers' calls unpaired
# itself, and reunp then has nothing to move).
. "$PB_ROOT/tests/sh/joint_lib.sh"
[ -x "$B/sniffer" ] || exit 77
C="$PB_ROOT/experiments/joint_loss_order.conf"
SP="$PB_ROOT/experiments/intact_spill.awk"
"$B/maketrace" "$C" -D instances=3 -D messages=6000 -D duration=0 > "$tmp/t.csv" ||
    fail "maketrace"
strip_callids "$tmp/t.csv" > "$tmp/tb.csv"
for u in 0 1; do
    "$B/infer" --algo joint -s unpaired=0 -s reunp=$u -o "$tmp/r$u.csv" "$tmp/tb.csv" 2> "$tmp/log" ||
        fail "infer -s reunp=$u without loss: $(tail -1 "$tmp/log")"
done
grep -q "reunp=1" "$tmp/r1.csv" || fail "reunp=1 not in the params line"
grep -v '^# \(cpu_\|params:\)' "$tmp/r0.csv" > "$tmp/a"
grep -v '^# \(cpu_\|params:\)' "$tmp/r1.csv" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "without loss reunp=1 changed the output"
grep -q "reunp_moved" "$tmp/r1.csv" && fail "without loss reunp reported moves"
"$B/sniffer" -q -p 0.02 --seed 1 "$tmp/t.csv" > "$tmp/p.csv" || fail "sniffer"
strip_callids "$tmp/p.csv" > "$tmp/pb.csv"
for u in 0 1; do
    "$B/infer" --algo joint -s unpaired=0 -s reunp=$u -o "$tmp/u$u.csv" "$tmp/pb.csv" 2> "$tmp/log" ||
        fail "infer -s reunp=$u under loss: $(tail -1 "$tmp/log")"
done
m=$(sed -n 's/^# reunp_moved=\([0-9]*\).*/\1/p' "$tmp/u1.csv")
[ -n "$m" ] && [ "$m" -gt 0 ] || fail "under loss reunp moved nothing (reunp_moved='$m')"
e0=$(awk -f "$SP" "$tmp/t.csv" "$tmp/p.csv" "$tmp/r0.csv" "$tmp/u0.csv" | sed 's/.*exact_loss=\([0-9]*\).*/\1/')
e1=$(awk -f "$SP" "$tmp/t.csv" "$tmp/p.csv" "$tmp/r0.csv" "$tmp/u1.csv" | sed 's/.*exact_loss=\([0-9]*\).*/\1/')
[ "$e1" -ge "$e0" ] || fail "intact requests exact: $e1 with reunp, $e0 without"
echo "intact requests exact under loss: $e0 -> $e1 (reunp_moved=$m)"
"$B/maketrace" "$C" -D instances=6 -D messages=6000 -D duration=0 > "$tmp/t6.csv" ||
    fail "maketrace (instances 6)"
strip_callids "$tmp/t6.csv" > "$tmp/t6b.csv"
"$B/infer" --algo joint -s unpaired=0 -s reunp=0 -o "$tmp/r6.csv" "$tmp/t6b.csv" 2> "$tmp/log" ||
    fail "infer without loss (instances 6): $(tail -1 "$tmp/log")"
"$B/sniffer" -q -p 0.02 --seed 2 "$tmp/t6.csv" > "$tmp/p6.csv" || fail "sniffer"
strip_callids "$tmp/p6.csv" > "$tmp/p6b.csv"
for u in 0 2; do
    "$B/infer" --algo joint -s unpaired=0 -s reunp=$u -o "$tmp/v$u.csv" "$tmp/p6b.csv" 2> "$tmp/log" ||
        fail "infer -s reunp=$u (instances 6): $(tail -1 "$tmp/log")"
done
grep -q "^# reunp_check=copy " "$tmp/v2.csv" || fail "reunp=2: no reunp_check line"
f0=$(awk -f "$SP" "$tmp/t6.csv" "$tmp/p6.csv" "$tmp/r6.csv" "$tmp/v0.csv" | sed 's/.*exact_loss=\([0-9]*\).*/\1/')
f2=$(awk -f "$SP" "$tmp/t6.csv" "$tmp/p6.csv" "$tmp/r6.csv" "$tmp/v2.csv" | sed 's/.*exact_loss=\([0-9]*\).*/\1/')
[ "$f2" -ge "$f0" ] || fail "instances 6: intact requests exact $f2 with reunp=2, $f0 with reunp=0"
echo "instances 6: intact requests exact $f0 (reunp=0) -> $f2 (reunp=2; $(sed -n 's/^# reunp_check=copy //p' "$tmp/v2.csv"))"
