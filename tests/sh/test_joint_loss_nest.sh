#!/bin/sh
# joint without call ids when loss takes as many calls as returns from a
# link (docs/joint/shapes.md "Robustness", the nesting test): first in, first out
# then shifts every pair between the lost call and the lost return.  The
# nesting test (-s align_nest=8, the default) finds the shifted pairs as
# pairs spanning a moment their caller served no request and aligns the
# link again.  media-like at 0.5 % loss, sniffer seed 4: about 22 % of the
# surviving requests exact with align_nest=0 (the old pairing), about 89 %
# with the test; without loss the test changes nothing.
set -u
B="$PB_BIN"
for p in maketrace sniffer infer score; do [ -x "$B/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
col() { awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{print $(c[n])}' "$2"; }
"$B/maketrace" "$PB_ROOT/maketrace/configs/media-like.conf" -D messages=12000 \
    > "$tmp/t.csv" || fail "maketrace"
"$B/sniffer" --quiet --loss 0.005 -s 4 "$tmp/t.csv" > "$tmp/p.csv" || fail "sniffer"
acc() { # trace align_nest -> survivors' exact accuracy
    "$B/infer" --algo joint -s callids=0 -s align_nest="$2" -o "$tmp/r.csv" "$1" 2> "$tmp/log" ||
        fail "infer align_nest=$2: $(cat "$tmp/log")"
    "$B/score" --truth "$tmp/t.csv" --kept "$1" "$tmp/r.csv" > "$tmp/s" || fail "score"
    col exact_accuracy "$tmp/s"
}
old=$(acc "$tmp/p.csv" 0)
new=$(acc "$tmp/p.csv" 8)
grep -q "^# align_link=.* chosen=aligned" "$tmp/r.csv" || fail "no align_link=... chosen=aligned in the metadata"
echo "0.5 % loss: align_nest=0 $old, align_nest=8 $new"
awk -v o="$old" -v n="$new" 'BEGIN { exit !(n > 0.8 && n > o + 0.3) }' ||
    fail "with the nesting test $new should be above 0.8 and 30 points above $old"
# without loss nothing changes (the test finds no crossing pair)
"$B/infer" --algo joint -s callids=0 -s align_nest=0 -o "$tmp/a0" "$tmp/t.csv" 2>/dev/null || fail "infer"
"$B/infer" --algo joint -s callids=0 -o "$tmp/a1" "$tmp/t.csv" 2>/dev/null || fail "infer"
grep -q "^# align_link=" "$tmp/a1" && fail "a crossing pair without loss"
awk -F, '/^# table=assignment/ { on = 1 } on' "$tmp/a0" > "$tmp/x0"
awk -F, '/^# table=assignment/ { on = 1 } on' "$tmp/a1" > "$tmp/x1"
cmp -s "$tmp/x0" "$tmp/x1" || fail "the nesting test changed the assignment of a trace without loss"
exit 0
