#!/bin/sh
# experiments/regress.sh: --update writes a baseline, an unchanged rerun
# passes, a baseline better than now fails with a WORSE line, a baseline
# worse than now passes and says "better".  Uses a scratch baseline, so the
# test does not depend on the committed numbers.
set -u
: "${PB_ROOT:?}" "${PB_BIN:?}"
cd "$PB_ROOT" || exit 1
for p in maketrace infer score skewer sniffer; do
    [ -x "$PB_BIN/$p" ] || { echo "SKIP: $PB_BIN/$p missing"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
b="$tmp/base.dat"

sh experiments/regress.sh -j 2 --baseline "$b" --update --save "$tmp/cur.csv" 2>"$tmp/log" || { cat "$tmp/log"; fail "--update failed"; }
[ "$(grep -vc '^#' "$b")" -gt 20 ] || fail "baseline has too few lines"
grep -q '^multitier/truth,instance_fp_rate,0,lower$' "$b" || fail "baseline lacks the oracle's perfect score"
grep -q '^added_delay/nesting,added_delay_error,' "$b" || fail "baseline lacks the added-delay point"

# the same programs give the same numbers: a second computation passes,
# nothing moved (the remaining cases compare the saved values)
sh experiments/regress.sh -j 2 --baseline "$b" >"$tmp/same" 2>&1 || { cat "$tmp/same"; fail "unchanged rerun failed"; }
grep -q ' 0 better, 0 worse' "$tmp/same" || { cat "$tmp/same"; fail "unchanged rerun reports movement"; }

# baseline better than now (nesting claimed an FP rate of -1): fails
sed -e 's/^\(multitier\/nesting,instance_fp_rate,\)[^,]*/\1-1/' "$b" >"$tmp/better.dat"
sh experiments/regress.sh --current "$tmp/cur.csv" --baseline "$tmp/better.dat" >"$tmp/worse" 2>&1 && { cat "$tmp/worse"; fail "a worse result passed"; }
grep -q 'multitier/nesting .*instance_fp_rate .*WORSE' "$tmp/worse" || { cat "$tmp/worse"; fail "no WORSE line for the changed metric"; }

# baseline worse than now: passes and says how to keep the improvement
sed -e 's/^\(multitier\/nesting,instance_fp_rate,\)[^,]*/\12/' "$b" >"$tmp/worse.dat"
sh experiments/regress.sh --current "$tmp/cur.csv" --baseline "$tmp/worse.dat" >"$tmp/better" 2>&1 || { cat "$tmp/better"; fail "an improvement failed"; }
grep -q 'instance_fp_rate .*better' "$tmp/better" && grep -q -- '--update' "$tmp/better" || { cat "$tmp/better"; fail "improvement not reported"; }

# a metric missing from the run fails
printf 'gone/case,instance_fp_rate,0.1,lower\n' >>"$tmp/worse.dat"
sh experiments/regress.sh --current "$tmp/cur.csv" --baseline "$tmp/worse.dat" >"$tmp/gone" 2>&1 && fail "a missing metric passed"
grep -q 'MISSING' "$tmp/gone" || fail "no MISSING line"
echo ok
