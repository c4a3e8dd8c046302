#!/bin/sh
# Properties of the four baselines (fcfs, arrival, vpath, wap5tw) on a
# generated multi-tier trace with overlapping requests: stripping the truth
# columns (and reordering the others), renaming every node, and shuffling
# the rows (read back with --sort) change neither the pattern table nor
# the assignment; and each baseline finds a different answer there.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
for p in maketrace infer score; do [ -x "$PB_BIN/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
# the result without the lines naming the input, the params or the timing
body() { grep -v -e '^# algo=' -e '^# cpu_' -e '^# trace: ' -e '^# fingerprint:' "$1"; }

"$PB_BIN/maketrace" "$PB_ROOT/maketrace/configs/multitier.conf" -s 5 -D duration=20s > "$tmp/t.csv" ||
    fail "maketrace failed"
awk -F, 'BEGIN { OFS = "," }
    /^#/ { print; next }
    !h { for (i = 1; i <= NF; i++) col[$i] = i; h = 1; print "type,dst,src,callid,recv_ts,ts,id"; next }
    { print $col["type"], $col["dst"], $col["src"], $col["callid"], $col["recv_ts"], $col["ts"], $col["id"] }' \
    "$tmp/t.csv" > "$tmp/strip.csv"
grep -q ',path' "$tmp/strip.csv" && fail "truth columns not stripped"
awk -F, 'BEGIN { OFS = "," } /^#/ { print; next } !h { h = 1; print; next }
    { $2 = "n_" $2; $3 = "n_" $3; print }' "$tmp/strip.csv" > "$tmp/ren.csv"
awk 'BEGIN { srand(11) } /^#/ || !h { print; if (!/^#/) h = 1; next }
     { printf "%.12f\t%s\n", rand(), $0 }' "$tmp/t.csv" > "$tmp/keyed"
{ grep -v "$(printf '\t')" "$tmp/keyed"; grep "$(printf '\t')" "$tmp/keyed" | sort -k1,1 | cut -f2-; } > "$tmp/s.csv"
cmp -s "$tmp/t.csv" "$tmp/s.csv" && fail "shuffle changed nothing"

for a in fcfs arrival vpath wap5tw; do
    "$PB_BIN/infer" --algo "$a" -o "$tmp/$a.res" "$tmp/t.csv" 2>/dev/null || fail "$a"
    body "$tmp/$a.res" > "$tmp/a.body"
    [ "$(grep -c '^[0-9]' "$tmp/a.body")" -gt 3 ] || fail "$a found too little"
    "$PB_BIN/infer" --algo "$a" -o "$tmp/b.res" "$tmp/strip.csv" 2>/dev/null || fail "$a stripped"
    body "$tmp/b.res" | cmp -s - "$tmp/a.body" || fail "$a: stripping truth changed the result"
    "$PB_BIN/infer" --algo "$a" -o "$tmp/c.res" "$tmp/ren.csv" 2>/dev/null || fail "$a renamed"
    body "$tmp/c.res" | sed 's/n_\([A-Z]\)/\1/g' | cmp -s - "$tmp/a.body" ||
        fail "$a: renaming nodes changed the result"
    "$PB_BIN/infer" --algo "$a" --sort -o "$tmp/d.res" "$tmp/s.csv" 2>/dev/null || fail "$a shuffled"
    body "$tmp/d.res" | cmp -s - "$tmp/a.body" || fail "$a: shuffled rows changed the result"
    "$PB_BIN/score" --truth "$tmp/t.csv" "$tmp/$a.res" > "$tmp/$a.score" || fail "score $a"
    awk '/^# table=assignment/ { p = 1; next } p' "$tmp/$a.res" | md5sum > "$tmp/$a.md5"
done
# four different answers
[ "$(sort -u "$tmp"/*.md5 | wc -l)" -eq 4 ] || fail "two baselines gave the same assignment"
exit 0
