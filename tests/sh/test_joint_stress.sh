#!/bin/sh
# The stress audit's trace edits (experiments/stress_edit.awk, used by
# experiments/joint_stress.sh) and joint's invariance on a small real
# subset: (1) the halves of a real minute split its requests; folding them
# onto each other keeps every message, id and request, starts both at one
# instant, leaves more calls with several candidate parents than the
# halves apart, and the oracle still scores 100 %; (2) renamed services
# (names in the reverse of their byte order) and shuffled rows (read with
# --sort) give joint's same parent links and confidences, with call ids
# and as a black box.
set -u
B="$PB_BIN"; R="$PB_ROOT"
ED="$R/experiments/stress_edit.awk"
F="$R/data/nezha/trainticket/construct_2023-01-29_08_50.csv.gz"
[ -f "$F" ] || { echo "FAIL: $F missing (data/ is part of the repository)"; exit 1; }
for p in importtrace infer score; do [ -x "$B/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
TAB=$(printf '\t')
col() { awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{print $(c[n])}' "$2"; }
rows() { grep -v '^#' "$1" | tail -n +2; }
"$B/importtrace" -q --callid "$F" > "$tmp/t.csv" || fail "importtrace"

# (1) halves, fold
awk -v op=select -v lo=0 -v hi=0.5 -f "$ED" "$tmp/t.csv" "$tmp/t.csv" > "$tmp/h1.csv" || fail "select"
awk -v op=select -v lo=0.5 -v hi=1 -f "$ED" "$tmp/t.csv" "$tmp/t.csv" > "$tmp/h2.csv" || fail "select"
n=$(rows "$tmp/t.csv" | wc -l); n1=$(rows "$tmp/h1.csv" | wc -l); n2=$(rows "$tmp/h2.csv" | wc -l)
[ "$n1" -gt 0 ] && [ "$n2" -gt 0 ] && [ $((n1 + n2)) -eq "$n" ] || fail "halves: $n1 + $n2 rows of $n"
# no request in both halves (path is the 8th column of an importtrace --callid trace)
p1=$(rows "$tmp/h1.csv" | cut -d, -f8 | sort -u | wc -l)
p2=$(rows "$tmp/h2.csv" | cut -d, -f8 | sort -u | wc -l)
p=$(rows "$tmp/t.csv" | cut -d, -f8 | sort -u | wc -l)
[ $((p1 + p2)) -eq "$p" ] || fail "halves: $p1 + $p2 requests of $p"
read s1 ns1 <<EOF
$(awk -v op=first -f "$ED" "$tmp/h1.csv")
EOF
read s2 ns2 <<EOF
$(awk -v op=first -f "$ED" "$tmp/h2.csv")
EOF
awk -v op=shift -v sec=$((s1 - s2)) -v ns=$((ns1 - ns2)) -v idoff=0 -v pre=o2: -f "$ED" \
    "$tmp/h2.csv" > "$tmp/h2s.csv" || fail "shift"
[ "$(awk -v op=first -f "$ED" "$tmp/h2s.csv")" = "$s1 $ns1" ] || fail "the shifted half does not start with the first"
{ grep '^#' "$tmp/h1.csv"; grep -v '^#' "$tmp/h1.csv" | head -1
  for f in "$tmp/h1.csv" "$tmp/h2s.csv"; do awk -v op=key -f "$ED" "$f"; done | grep -v '^#' |
      LC_ALL=C sort -t "$TAB" -k1,1 | cut -f2-; } > "$tmp/fold.csv"
[ "$(rows "$tmp/fold.csv" | wc -l)" -eq "$n" ] || fail "fold lost rows"
[ "$(rows "$tmp/fold.csv" | cut -d, -f8 | sort -u | wc -l)" -eq "$p" ] || fail "fold merged requests"
"$B/infer" --algo truth -o "$tmp/o.res" "$tmp/fold.csv" 2> "$tmp/log" || fail "oracle on the fold: $(tail -1 "$tmp/log")"
"$B/score" --truth "$tmp/fold.csv" "$tmp/o.res" > "$tmp/s" || fail "score the fold"
[ "$(col exact_accuracy "$tmp/s")" = 1 ] || fail "the oracle is not exact on the folded trace"
# more requests in flight: more calls with several candidate parents than
# in the two halves apart
amb() { "$B/infer" --algo joint -o "$tmp/j.res" "$1" 2>/dev/null || fail "joint on $1"; sed -n 's/^# ambiguous_pairs=//p' "$tmp/j.res"; }
a1=$(amb "$tmp/h1.csv"); a2=$(amb "$tmp/h2.csv"); af=$(amb "$tmp/fold.csv")
[ "$af" -gt $((a1 + a2)) ] || fail "folding did not add ambiguity ($a1 + $a2 -> $af calls with several candidates)"

# (2) invariance on the first half (36 requests), both modes
strip() {
    awk -F, 'BEGIN { OFS = "," } /^#/ { print; next }
        !h { for (i = 1; i <= NF; i++) if ($i == "callid") c = i; h = 1; print; next }
        { if (c) $c = ""; print }' "$1"
}
links() { sed -n '/^# table=assignment/,$p' "$1" | awk -F, 'NR <= 2 || /^#/ { next } { print $1 "," $4 "," $5 }' | LC_ALL=C sort; }
strip "$tmp/h1.csv" > "$tmp/h1b.csv"
for m in ids bb; do
    t=$tmp/h1.csv; [ $m = bb ] && t=$tmp/h1b.csv
    awk -v op=rename -v seed=7 -f "$ED" "$t" "$t" > "$tmp/keyed" || fail "rename"
    { grep -v "$TAB" "$tmp/keyed"; grep "$TAB" "$tmp/keyed" | LC_ALL=C sort -k1,1 | cut -f2-; } > "$tmp/r.csv"
    rows "$tmp/r.csv" | cut -d, -f4 | grep -q '^ts-gateway-service$' && fail "$m: services not renamed"
    rows "$tmp/t.csv" | cut -d, -f1 > "$tmp/ida"; rows "$tmp/r.csv" | cut -d, -f1 > "$tmp/idb"
    cmp -s "$tmp/ida" "$tmp/idb" && fail "$m: rows not shuffled"
    "$B/infer" --algo joint -o "$tmp/a.res" "$t" 2>/dev/null || fail "$m: joint"
    "$B/infer" --algo joint --sort -o "$tmp/b.res" "$tmp/r.csv" 2>/dev/null || fail "$m: joint on the renamed trace"
    links "$tmp/a.res" > "$tmp/la"; links "$tmp/b.res" > "$tmp/lb"
    [ "$(wc -l < "$tmp/la")" -gt 800 ] || fail "$m: no assignment table"
    cmp -s "$tmp/la" "$tmp/lb" || { diff "$tmp/la" "$tmp/lb" | head -5; fail "$m: renamed services and shuffled rows changed joint's links"; }
    "$B/score" --truth "$t" "$tmp/a.res" > "$tmp/sa" || fail "score"
    "$B/score" --sort --truth "$tmp/r.csv" "$tmp/b.res" > "$tmp/sb" || fail "score"
    [ "$(col exact_accuracy "$tmp/sa")" = "$(col exact_accuracy "$tmp/sb")" ] || fail "$m: the score changed"
done
echo ok
