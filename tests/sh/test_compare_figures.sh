#!/bin/sh
# experiments/compare.sh --figures on small figure folders (the selftest
# figure: y = x^2 + seed, 4 seeds, no pathbench program run): a folder
# against a copy of itself is "no detectable change" at every point (exit
# 0); against a copy with a planted degradation (series b at x = 2: y + 5
# on every seed) only that point is WORSE (exit 1); a change on one seed of
# four (series a at x = 3, +1 on seed 2) is no detectable change (the
# interval holds 0); a point on one side only is MISSING; the page carries
# the overlaid figure (side A solid, B dashed).
set -u
: "${PB_ROOT:?}" "${PB_BIN:?}"
cd "$PB_ROOT" || exit 1
[ -x "$PB_BIN/compare" ] || { echo "SKIP: $PB_BIN/compare missing"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
sh experiments/run_all.sh --tiny --seeds 4 --only selftest --out "$tmp/A" -j1 --no-report --no-plots >"$tmp/run.log" 2>&1 ||
    { cat "$tmp/run.log"; fail "selftest figure run"; }
[ -s "$tmp/A/selftest.dat" ] || fail "no selftest.dat"
cp -r "$tmp/A" "$tmp/B"

# a no-op: every point no detectable change
sh experiments/compare.sh --figures --out "$tmp/c0" "$tmp/A" "$tmp/B" >"$tmp/t0" 2>"$tmp/e0"
rc=$?
[ $rc -eq 0 ] || { cat "$tmp/t0" "$tmp/e0"; fail "folder vs its copy: exit $rc, expected 0"; }
n=$(grep -c '^selftest/' "$tmp/t0")
[ "$n" -eq 6 ] || { cat "$tmp/t0"; fail "expected 6 points (2 series x 3 x), got $n"; }
[ "$(grep '^selftest/' "$tmp/t0" | grep -vc 'no detectable change$')" -eq 0 ] || { cat "$tmp/t0"; fail "a no-op row is not 'no detectable change'"; }
grep -q '^selftest/a/x=2  *y  *4  *6.5  *6.5  *+0  *\[+0, +0\]  *0/0/4 ' "$tmp/t0" || { cat "$tmp/t0"; fail "paired row of a at x=2 (y = 4 + seed, mean 6.5)"; }

# plant: series b at x = 2, y + 5 on every seed; series a at x = 3, +1 on seed 2 only
for f in "$tmp"/B/points/selftest/*.row; do
    case "$f" in
    */series=b_x=2_*) awk -F, -v OFS=, '/^#/ || !/^b/ { print; next } { $4 += 5; print }' <"$f" >"$f.t" && mv "$f.t" "$f" ;;
    */series=a_x=3_seed=2*) awk -F, -v OFS=, '/^#/ || !/^a/ { print; next } { $4 += 1; print }' <"$f" >"$f.t" && mv "$f.t" "$f" ;;
    esac
done
PB_OUT="$tmp/B" PB_MODE=tiny PB_SEEDS=4 sh experiments/selftest.sh collect 2>>"$tmp/run.log" || fail "collect of the planted copy"
sh experiments/compare.sh --figures --labels before,planted --out "$tmp/c1" "$tmp/A" "$tmp/B" >"$tmp/t1" 2>"$tmp/e1"
rc=$?
[ $rc -eq 1 ] || { cat "$tmp/t1" "$tmp/e1"; fail "planted degradation: exit $rc, expected 1"; }
grep -q '^selftest/b/x=2  *y  *4  *.*+5  *\[+5, +5\]  *4/0/0 .*WORSE$' "$tmp/t1" || { cat "$tmp/t1"; fail "planted point not WORSE by 5"; }
grep -q '^selftest/a/x=3  *y  *4  .*+0.25  *\[-0.5456, +1.046\]  *1/0/3 .*no detectable change$' "$tmp/t1" ||
    { cat "$tmp/t1"; fail "one seed of four +1: mean 0.25, interval 0.25 +- 3.1824 * 0.5 / 2"; }
[ "$(grep '^selftest/' "$tmp/t1" | grep -c 'WORSE')" -eq 1 ] || { cat "$tmp/t1"; fail "WORSE beyond the planted point"; }
grep -q ',before,planted\|before' "$tmp/c1/compare.html" || fail "labels not in the page"
if command -v gnuplot >/dev/null 2>&1; then
    [ -s "$tmp/c1/overlay_selftest.svg" ] || { cat "$tmp/e1"; fail "no overlay figure"; }
    grep -q 'The figures: before solid, planted dashed' "$tmp/c1/compare.html" || fail "overlay section missing from the page"
    [ "$(grep -c '<svg' "$tmp/c1/compare.html")" -ge 2 ] || fail "overlay svg not in the page"
fi

# a point on one side only: MISSING, exit 1
rm "$tmp"/B/points/selftest/series=a_x=1_*
PB_OUT="$tmp/B" PB_MODE=tiny PB_SEEDS=4 sh experiments/selftest.sh collect 2>>"$tmp/run.log"
sh experiments/compare.sh --figures --out "$tmp/c2" "$tmp/A" "$tmp/B" >"$tmp/t2" 2>&1
[ $? -eq 1 ] && grep -q '^selftest/a/x=1 .*MISSING' "$tmp/t2" || { cat "$tmp/t2"; fail "a point on one side only is not MISSING"; }
# bad usage
sh experiments/compare.sh --figures "$tmp/A" "$tmp/nonexistent" >/dev/null 2>&1
[ $? -eq 2 ] || fail "a missing folder: expected exit 2"
echo "PASS compare --figures: no-op, planted, one-seed change, missing point"
