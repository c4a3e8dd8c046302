#!/bin/sh
# experiments/regress.sh on its own engine (bin/compare) with a scratch
# baseline, 3 seeds: --update writes a per-seed baseline with its commit;
# an unchanged rerun is "no detectable change" on every row and exits 0; a
# planted degradation of every algorithm (experiments/plant_worse.sh, an
# exec: wrapper; the programs are untouched) exits 1 with a WORSE row at
# every point; a baseline worse than now exits 3 (a change to explain); a
# missing value exits 1; a scorer case that no longer holds exits 1.
set -u
: "${PB_ROOT:?}" "${PB_BIN:?}"
cd "$PB_ROOT" || exit 1
for p in maketrace infer score skewer sniffer importtrace compare; do
    [ -x "$PB_BIN/$p" ] || { echo "SKIP: $PB_BIN/$p missing"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
b="$tmp/base.dat"
R="sh experiments/regress.sh --seeds 3 --baseline $b"

$R --update --save "$tmp/cur.csv" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "--update failed"; }
grep -q '^# commit=[0-9a-f]* *.*seeds=3' "$b" || fail "baseline without its commit and seeds"
grep -q '^syn:multitier:3000/truth,,,exact_accuracy,higher,3,1$' "$b" || fail "baseline lacks the oracle's perfect score"
grep -q '^syn:multitier:3000/joint:callids=0,' "$b" || fail "baseline lacks joint without call ids"
grep -q '^syn:multitier:3000:instances=4/convolution,' "$b" || fail "baseline lacks convolution's automatic mu"
grep -q '^delay:20000/nesting,,,added_delay_error,lower,1,' "$b" || fail "baseline lacks the added-delay error"
grep -q 'passes its [0-9]* fixed hand-worked values' "$tmp/log" || { cat "$tmp/log"; fail "no scorer check"; }
# the points a planted degradation must show at: all but the oracle's and
# the added-delay ones (hotel ones only with the hotel traces)
npts=$(grep -v '^#' experiments/regress.points | grep -v '^$' | awk -F'|' -v h="$( [ -f "${PB_DATA:-$PB_ROOT/../shared/data/deathstarbench-hotel}/hotel_load100.tar.xz" ] && echo 1 || echo 0)" '(h || $3 !~ /^hotel:/) && $3 !~ /^delay:/ && $4 != "truth"' | wc -l)

# the same programs: nothing moved, every row "no detectable change"
$R -v >"$tmp/same" 2>&1 || { cat "$tmp/same"; fail "unchanged rerun exited non-zero"; }
grep -q ' 0 worse, 0 better, 0 changed, 0 undecided (0 of them worse than 0, 0 better), 0 within tolerance, [0-9]* no detectable change, 0 missing' "$tmp/same" ||
    { cat "$tmp/same"; fail "unchanged rerun reports movement"; }
grep -q '^regress: baseline commit=' "$tmp/same" || fail "baseline commit not printed"

# a planted degradation of every algorithm: exit 1, a WORSE row at every point but the oracle's
$R --wrap "sh $PB_ROOT/experiments/plant_worse.sh" >"$tmp/worse" 2>&1
[ $? -eq 1 ] || { cat "$tmp/worse"; fail "a planted degradation did not exit 1"; }
awk '/^[a-z]+:[^ ]*\/[^ ]* / { p = $1 } / WORSE$| WORSE than 0$/ { w[p] = 1 } END { for (k in w) print k }' "$tmp/worse" | sort >"$tmp/worse.pts"
nw=$(wc -l <"$tmp/worse.pts")
[ "$nw" -eq "$npts" ] || { cat "$tmp/worse"; fail "planted degradation caught at $nw of $npts points"; }
grep -q '/truth\|^delay:' "$tmp/worse.pts" && fail "the oracle (not wrapped) or an added-delay point reported worse"

# a baseline worse than now (nesting's exact accuracy 0.1 lower on every seed): exit 3
awk -F, -v OFS=, '$1 == "syn:multitier:3000/nesting" && $4 == "exact_accuracy" { $7 = $7 - 0.1 } { print }' "$b" >"$tmp/low.dat"
sh experiments/regress.sh --seeds 3 --baseline "$tmp/low.dat" --current "$tmp/cur.csv" >"$tmp/better" 2>&1
[ $? -eq 3 ] || { cat "$tmp/better"; fail "an improvement did not exit 3"; }
grep -q 'exact_accuracy .*BETTER' "$tmp/better" && grep -q 'a change to explain' "$tmp/better" ||
    { cat "$tmp/better"; fail "improvement not reported as a change to explain"; }

# a value missing now: exit 1
grep -v '^syn:multitier:3000/joint,,,exact_accuracy' "$tmp/cur.csv" >"$tmp/gone.csv"
sh experiments/regress.sh --seeds 3 --baseline "$b" --current "$tmp/gone.csv" >"$tmp/gone" 2>&1
[ $? -eq 1 ] || { cat "$tmp/gone"; fail "a missing value did not exit 1"; }
grep -q 'MISSING' "$tmp/gone" || fail "no MISSING line"

# the scorer guarded: a hand-worked value that does not hold fails
sed 's/^\(p751,.*,exact_accuracy,\)0.5$/\10.4/' experiments/regress_scorer.csv >"$tmp/sc.csv"
sh experiments/regress.sh --seeds 3 --baseline "$b" --current "$tmp/cur.csv" --scorer-cases "$tmp/sc.csv" >"$tmp/sc" 2>&1
[ $? -eq 1 ] || { cat "$tmp/sc"; fail "a failing scorer case did not exit 1"; }
grep -q "scorer case p751: exact_accuracy = '0.5', expected 0.4" "$tmp/sc" || { cat "$tmp/sc"; fail "scorer case not named"; }
echo ok
