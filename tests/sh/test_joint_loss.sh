#!/bin/sh
# joint under capture loss without call ids (docs/joint/shapes.md "Robustness"):
# on the hotel-like trace at 1 % loss, first in, first out pairing shifts
# every pair of a link after a lost message and ruins most requests; the
# in-order alignment (-s align=1, the default) keeps joint's accuracy on
# the surviving messages (score --kept) near its accuracy without loss.
set -u
B="$PB_BIN"
for p in maketrace sniffer infer score; do [ -x "$B/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
col() { awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{print $(c[n])}' "$2"; }
"$B/maketrace" "$PB_ROOT/maketrace/configs/hotel-like.conf" -D messages=24000 -D duration=0 \
    > "$tmp/t.csv" || fail "maketrace"
"$B/sniffer" --quiet --loss 0.01 -s 3 "$tmp/t.csv" > "$tmp/p.csv" || fail "sniffer"
acc() { # trace align -> survivors' exact accuracy
    "$B/infer" --algo joint -s callids=0 -s align="$2" -o "$tmp/r.csv" "$1" 2> "$tmp/log" ||
        fail "infer align=$2: $(cat "$tmp/log")"
    "$B/score" --truth "$tmp/t.csv" --kept "$1" "$tmp/r.csv" > "$tmp/s" || fail "score"
    col exact_accuracy "$tmp/s"
}
clean=$(acc "$tmp/t.csv" 1)
fifo=$(acc "$tmp/p.csv" 0)
al=$(acc "$tmp/p.csv" 1)
echo "no loss $clean; 1 % loss: first in, first out $fifo, aligned $al"
awk -v c="$clean" -v f="$fifo" -v a="$al" 'BEGIN { exit !(a > c - 0.05 && a > f + 0.3) }' ||
    fail "aligned $al should be within 5 points of $clean and far above first in, first out $fifo"
grep -q "letting messages be lost" "$tmp/log" || fail "no warning naming the in-order pairing"
# without loss the alignment changes nothing
"$B/infer" --algo joint -s callids=0 -s align=0 -o "$tmp/a0" "$tmp/t.csv" 2>/dev/null || fail "infer"
"$B/infer" --algo joint -s callids=0 -s align=1 -o "$tmp/a1" "$tmp/t.csv" 2>/dev/null || fail "infer"
awk -F, '/^# table=assignment/ { on = 1 } on' "$tmp/a0" > "$tmp/x0"
awk -F, '/^# table=assignment/ { on = 1 } on' "$tmp/a1" > "$tmp/x1"
cmp -s "$tmp/x0" "$tmp/x1" || fail "align=1 changed the assignment of a trace without loss"
# first in, first out across a loss can pair a return before its call, so
# a call's "trigger" can be called after it: the confidence's walk down
# the triggers must not read rows it has not filled (it crashed on these)
"$B/maketrace" --seed 2 "$PB_ROOT/maketrace/configs/hotel-like.conf" -D messages=20000 -D duration=0 \
    > "$tmp/t2.csv" || fail "maketrace seed 2"
for sd in 4 5 6; do
    "$B/sniffer" --quiet --loss 0.01 --seed $sd "$tmp/t2.csv" > "$tmp/p2.csv" || fail "sniffer seed $sd"
    "$B/infer" --algo joint -s callids=0 -s align=0 -o "$tmp/r2.csv" "$tmp/p2.csv" 2> "$tmp/log2" ||
        fail "infer -s callids=0 -s align=0 on the 1 % loss trace (maketrace seed 2, sniffer seed $sd): $(tail -3 "$tmp/log2")"
done
exit 0
