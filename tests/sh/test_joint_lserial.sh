#!/bin/sh
# joint under loss with call ids: a lost return in the middle of a link
# costs only the request it touches (loss_serial; docs/joint/loss.md,
# "Loss with call ids: a request's calls one at a time"; issue 28,
# "Robust to loss").  On experiments/joint_loss_repeat.conf (4,000
# messages, seed 1) one catalog return of the front end is dropped by hand
# (message 1062, mid-trace): the request that lost it keeps no trigger for
# its next calls, and without the term the search stacks them onto
# neighbours that have a call of their own out (3 untouched requests lose
# their exactness); with it none does.  Also: without loss the option
# changes nothing (the same assignment, no metadata); a held-out draw
# (maketrace seed 20, instances 6, sniffer seed 7, 2 %) is not worse; rows
# shuffled give the same result and renamed nodes the same accuracy.
# Fails on a tree without loss_serial (the option is unknown).
. "$PB_ROOT/tests/sh/joint_lib.sh"
for p in sniffer; do [ -x "$B/$p" ] || exit 77; done
SP="$PB_ROOT/experiments/intact_spill.awk"
run() { # trace out [options]: joint with call ids
    t=$1; o=$2; shift 2
    "$B/infer" --algo joint -s conf_selfcal=0 "$@" -o "$o" "$t" 2> "$tmp/log" ||
        fail "infer $*: $(tail -2 "$tmp/log")"
}
lost() { # truth lossy r0 res: intact requests exact only without loss
    awk -f "$SP" "$1" "$2" "$3" "$4" | sed 's/.* lost=\([0-9]*\) .*/\1/'
}
"$B/maketrace" "$PB_ROOT/experiments/joint_loss_repeat.conf" -D messages=4000 -D duration=0 \
    > "$tmp/t.csv" || fail "maketrace"
# the message dropped: a return of catalog to the front end
awk -F, '$1 == 1062 && $4 == "catalog" && $5 == "frontend" && $6 == "return" { f = 1 }
         END { exit !f }' "$tmp/t.csv" || fail "message 1062 is not a catalog>frontend return"
awk -F, '$1 != 1062' "$tmp/t.csv" > "$tmp/p.csv"
run "$tmp/t.csv" "$tmp/r0.csv" -s loss_serial=1 # the term-free lossless search (7 is 1 under loss)
run "$tmp/p.csv" "$tmp/u0.csv" -s loss_serial=0
run "$tmp/p.csv" "$tmp/u1.csv" -s loss_serial=1
l0=$(lost "$tmp/t.csv" "$tmp/p.csv" "$tmp/r0.csv" "$tmp/u0.csv")
l1=$(lost "$tmp/t.csv" "$tmp/p.csv" "$tmp/r0.csv" "$tmp/u1.csv")
echo "one return lost: untouched requests no longer exact: loss_serial=0 $l0, loss_serial=1 $l1"
[ "$l0" -ge 2 ] || fail "the class is gone: loss_serial=0 costs $l0 untouched requests (the test shows nothing)"
[ "$l1" -eq 0 ] || fail "the lost return still costs $l1 untouched requests"
grep -q '^# loss_serial=on serial_links=[1-9]' "$tmp/u1.csv" ||
    fail "no loss_serial= metadata (or no serial link) under loss: $(grep '^# loss_serial' "$tmp/u1.csv")"
grep -q '^# loss_serial=' "$tmp/u0.csv" && fail "loss_serial metadata with the option off"
# without loss: nothing changes
run "$tmp/t.csv" "$tmp/n1.csv" -s loss_serial=1
grep -q '^# loss_serial=' "$tmp/n1.csv" && fail "loss_serial metadata without loss"
awk '/^# table=assignment/ { on = 1 } on' "$tmp/r0.csv" > "$tmp/a0"
awk '/^# table=assignment/ { on = 1 } on' "$tmp/n1.csv" > "$tmp/a1"
cmp -s "$tmp/a0" "$tmp/a1" || fail "loss_serial changed the assignment of a trace without loss"
# a held-out draw (seeds not used to build the rule): not worse
"$B/maketrace" "$PB_ROOT/experiments/joint_loss_repeat.conf" -D seed=20 -D instances=6 \
    -D messages=12000 -D duration=0 > "$tmp/h.csv" || fail "maketrace (held out)"
"$B/sniffer" --quiet --loss 0.02 --seed 7 "$tmp/h.csv" > "$tmp/hp.csv" || fail "sniffer"
run "$tmp/h.csv" "$tmp/h0.csv" -s loss_serial=1
run "$tmp/hp.csv" "$tmp/hu0.csv" -s loss_serial=0
run "$tmp/hp.csv" "$tmp/hu1.csv" -s loss_serial=1
e0=$(awk -f "$SP" "$tmp/h.csv" "$tmp/hp.csv" "$tmp/h0.csv" "$tmp/hu0.csv" | sed 's/.*exact_loss=\([0-9]*\) .*/\1/')
e1=$(awk -f "$SP" "$tmp/h.csv" "$tmp/hp.csv" "$tmp/h0.csv" "$tmp/hu1.csv" | sed 's/.*exact_loss=\([0-9]*\) .*/\1/')
echo "held out (seed 20, instances 6, 2 %): intact requests exact $e0 -> $e1"
[ "$e1" -ge "$e0" ] || fail "held-out draw worse with loss_serial: $e0 -> $e1"
# invariances under loss: shuffled rows (read back sorted), renamed nodes
check_shuffled_same "$tmp/p.csv" "$tmp/u1.csv" -s loss_serial=1
ren() { sed -e '/^#/!s/\bfrontend\b/zz_front/g; /^#/!s/\bcatalog\b/aa_cat/g' "$1"; }
ren "$tmp/p.csv" > "$tmp/pr.csv"
cmp -s "$tmp/p.csv" "$tmp/pr.csv" && fail "renaming changed nothing"
run "$tmp/pr.csv" "$tmp/ur.csv" -s loss_serial=1
# the same intact requests exact (intact_spill reads ids and the path column only)
s1=$(awk -f "$SP" "$tmp/t.csv" "$tmp/p.csv" "$tmp/r0.csv" "$tmp/u1.csv")
s2=$(awk -f "$SP" "$tmp/t.csv" "$tmp/pr.csv" "$tmp/r0.csv" "$tmp/ur.csv")
[ "$s1" = "$s2" ] || fail "renamed nodes changed the result under loss: $s1 / $s2"
exit 0
