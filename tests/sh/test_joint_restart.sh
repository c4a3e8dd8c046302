#!/bin/sh
# joint's second start (docs/joint/search.md "The search", step 1, -s restart=1):
# on children-0-2 at high load half the requests call C twice and half
# never, so the rank start (one C call per request, ranked) is refuted by
# its own solution; the search from start=earliest reaches a likelier
# solution, which is kept, and more requests are exact.  On a trace where
# every ranked endpoint is called once per request (hotel-like) no second
# start runs and the assignment is byte for byte the same.
set -u
B="$PB_BIN"
for p in maketrace infer score; do [ -x "$B/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
col() { awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{print $(c[n])}' "$2"; }
"$B/maketrace" "$PB_ROOT/maketrace/configs/children-0-2.conf" -D duration=10s \
    -D instances_scale=4 > "$tmp/t.csv" || fail "maketrace"
acc() { # restart -> exact accuracy; the result in $tmp/r$1.csv
    "$B/infer" --algo joint -s restart="$1" -o "$tmp/r$1.csv" "$tmp/t.csv" 2> "$tmp/log" ||
        fail "infer restart=$1: $(cat "$tmp/log")"
    "$B/score" --truth "$tmp/t.csv" "$tmp/r$1.csv" > "$tmp/s" || fail "score"
    col exact_accuracy "$tmp/s"
}
a0=$(acc 0)
a1=$(acc 1)
echo "children-0-2 high load: rank start only $a0, with the second start $a1"
grep -q "second_start=none" "$tmp/r0.csv" || fail "restart=0 still tried a second start"
line=$(grep -a -o "second_start=kept log_likelihood_rank=[-0-9.]* log_likelihood_earliest=[-0-9.]*" \
    "$tmp/r1.csv") || fail "the second start was not kept"
echo "$line" | awk '{ split($2, r, "="); split($3, e, "="); exit !(e[2] > r[2] + 10) }' ||
    fail "kept a second start that is not likelier by 10 nats: $line"
awk -v x="$a0" -v y="$a1" 'BEGIN { exit !(y > x + 0.01) }' ||
    fail "second start $a1 should beat the rank start alone $a0 by a point"
# a trace that does not refute the rank start: no second start, same result
"$B/maketrace" "$PB_ROOT/maketrace/configs/hotel-like.conf" -D duration=5s \
    -D instances_scale=4 > "$tmp/h.csv" || fail "maketrace hotel-like"
for r in 0 1; do
    "$B/infer" --algo joint -s restart=$r -o "$tmp/h$r" "$tmp/h.csv" 2>/dev/null || fail "infer"
    awk -F, '/^# table=assignment/ { on = 1 } on' "$tmp/h$r" > "$tmp/x$r"
done
grep -q "second_start=none" "$tmp/h1" || fail "hotel-like refuted the rank start"
cmp -s "$tmp/x0" "$tmp/x1" || fail "restart=1 changed hotel-like's assignment"
exit 0
