#!/bin/sh
# Property: shuffling the rows of a trace (read back with --sort) changes no
# algorithm's result, and neither does stripping the truth columns; checked
# for nesting, convolution, linking and the oracle on generated traces.
set -u
B="$PB_BIN"; R="$PB_ROOT"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# result files without the lines that name the input or time the run
body() { grep -v -e '^# algo=' -e '^# cpu_' "$1"; }

"$B/maketrace" "$R/maketrace/configs/multitier.conf" -s 3 -D duration=40s -D net_delay=1ms > "$tmp/t.csv" || fail maketrace
n=$(grep -vc '^#' "$tmp/t.csv")
[ "$n" -gt 1000 ] || fail "trace too small ($n lines)"
# a seeded shuffle of the data rows, header and metadata first
awk 'BEGIN { srand(7) } /^#/ || !h { print; if (!/^#/) h = 1; next }
     { printf "%.12f\t%s\n", rand(), $0 }' "$tmp/t.csv" > "$tmp/keyed"
{ grep -v "$(printf '\t')" "$tmp/keyed"; grep "$(printf '\t')" "$tmp/keyed" | sort -k1,1 | cut -f2-; } > "$tmp/s.csv"
cmp -s "$tmp/t.csv" "$tmp/s.csv" && fail "shuffle changed nothing"
"$B/infer" --algo nesting "$tmp/s.csv" > /dev/null 2>&1 && fail "a shuffled trace was accepted without --sort"
# the same trace without truth columns (path, cause are the last two)
awk -F, '/^#/ { print; next } { NF -= 2; print }' OFS=, "$tmp/t.csv" > "$tmp/bare.csv"
head -n 5 "$tmp/bare.csv" | grep -q ',path' && fail "truth columns not stripped"

for a in nesting convolution linking; do
    "$B/infer" --algo "$a" "$tmp/t.csv" > "$tmp/a.res" || fail "$a on the trace"
    "$B/infer" --algo "$a" --sort "$tmp/s.csv" > "$tmp/b.res" || fail "$a on the shuffled trace"
    "$B/infer" --algo "$a" "$tmp/bare.csv" > "$tmp/c.res" || fail "$a on the bare trace"
    body "$tmp/a.res" > "$tmp/a.body"
    body "$tmp/b.res" > "$tmp/b.body"
    body "$tmp/c.res" | grep -v '^# trace: ' > "$tmp/c.body"
    grep -v '^# trace: ' "$tmp/a.body" > "$tmp/a.nometa"
    cmp -s "$tmp/a.body" "$tmp/b.body" || { diff "$tmp/a.body" "$tmp/b.body" | head; fail "$a: shuffled rows changed the result"; }
    cmp -s "$tmp/a.nometa" "$tmp/c.body" || { diff "$tmp/a.nometa" "$tmp/c.body" | head; fail "$a: stripping truth changed the result"; }
    [ "$(grep -c '^[0-9]' "$tmp/a.body")" -gt 0 ] || fail "$a found nothing"
done
"$B/infer" --algo truth -s view=call "$tmp/t.csv" > "$tmp/a.res" || fail "truth"
"$B/infer" --algo truth -s view=call --sort "$tmp/s.csv" > "$tmp/b.res" || fail "truth shuffled"
body "$tmp/a.res" > "$tmp/a.body"; body "$tmp/b.res" > "$tmp/b.body"
cmp -s "$tmp/a.body" "$tmp/b.body" || fail "truth: shuffled rows changed the result"
echo ok
