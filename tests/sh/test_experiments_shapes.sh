#!/bin/sh
# The figure experiments end to end on tiny traces (run_all.sh --tiny):
# every point runs, the .dat files say how they were made, the plots and the
# report are written, and the results have the shapes that must hold
# whatever the algorithms' exact accuracy (never exact floats):
#   - the oracle is perfect (Figures 17, 19; added delay measured exactly)
#   - nesting makes ~no false positives at parallelism 1, and no fewer at
#     high parallelism (Figure 19)
#   - no loss is not worse than heavy loss; the drop rate is 0 at the top
#     capture rate and large at the lowest (Figure 21)
#   - more tolerance never misses more patterns (Figure 17)
#   - no skew is not worse than 60 ms skew without compensation, and an
#     offset does not change linking on the idle trace (Figure 22)
set -u
: "${PB_ROOT:?}" "${PB_BIN:?}"
cd "$PB_ROOT" || exit 1
for p in maketrace infer score skewer sniffer; do
    [ -x "$PB_BIN/$p" ] || { echo "SKIP: $PB_BIN/$p missing"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
out="$tmp/out"
fail() { echo "FAIL: $*"; exit 1; }

PB_OUT="$out" sh experiments/run_all.sh --tiny --only fig17,fig19,fig21,fig22,fig12_13 -j 2 \
    >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "run_all.sh --tiny failed"; }

# get DAT COLUMN [KEY=VALUE ...]: the COLUMN of the rows matching every KEY=VALUE
get() {
    _d=$1 _c=$2; shift 2
    awk -F, -v c="$_c" -v conds="$*" '
        BEGIN { nc = split(conds, cs, " ") }
        /^#/ { next }
        !h { for (i = 1; i <= NF; i++) ix[$i] = i; h = 1; if (!(c in ix)) { print "no column " c > "/dev/stderr"; exit 1 } next }
        { ok = 1
          for (k = 1; k <= nc; k++) { split(cs[k], kv, "="); if (!(kv[1] in ix) || $(ix[kv[1]]) != kv[2]) ok = 0 }
          if (ok) print $(ix[c]) }' "$_d"
}
# every value printed is within [lo, hi]
all_in() { awk -v lo="$1" -v hi="$2" '{ n++; if ($1 == "" || $1 + 0 < lo || $1 + 0 > hi) bad++ } END { exit (n == 0 || bad) ? 1 : 0 }'; }

for f in fig17 fig19 fig21 fig22 fig12_13; do
    [ -s "$out/$f.dat" ] || fail "$f.dat missing"
    grep -q '^# commits: ' "$out/$f.dat" || fail "$f.dat: no commit line"
    grep -q '^# parameters: .*seed=' "$out/$f.dat" || fail "$f.dat: no parameters line"
    if command -v gnuplot >/dev/null 2>&1; then
        [ -s "$out/$f.png" ] || fail "$f.png not made"
        [ -s "$out/$f.svg" ] || fail "$f.svg not made"
    fi
done

# Figure 19: the oracle is perfect; nesting at parallelism 1; more parallelism not better
get "$out/fig19.dat" instance_fp_rate algo=truth | all_in 0 0 || fail "fig19: oracle has false positives"
get "$out/fig19.dat" instance_fn_rate algo=truth | all_in 0 0 || fail "fig19: oracle has false negatives"
get "$out/fig19.dat" parallelism algo=nesting scale=0.04 | all_in 0.99 1.05 || fail "fig19: one instance is not parallelism 1"
get "$out/fig19.dat" instance_fp_rate algo=nesting scale=0.04 | all_in 0 0.02 ||
    fail "fig19: nesting has false positives at parallelism 1"
lo=$(get "$out/fig19.dat" instance_fp_rate algo=nesting scale=0.04 config=multitier)
hi=$(get "$out/fig19.dat" instance_fp_rate algo=nesting scale=4 config=multitier)
awk -v a="$lo" -v b="$hi" 'BEGIN { exit !(a <= b) }' || fail "fig19: nesting better at high parallelism ($hi) than at 1 ($lo)"
[ -s "$out/fig19_multitier-nesting.dat" ] || fail "fig19: no per-series file"

# Figure 21: drop rate measured; no loss not worse than heavy loss
get "$out/fig21.dat" drop_rate rate_x=10 | all_in 0 0 || fail "fig21: messages lost at 10x the mean rate"
get "$out/fig21.dat" drop_rate rate_x=0.7 | all_in 0.1 1 || fail "fig21: under 10% loss at 0.7x the mean rate"
for a in nesting linking; do
    z=$(get "$out/fig21.dat" instance_fn_rate algo=$a rate_x=10)
    h=$(get "$out/fig21.dat" instance_fn_rate algo=$a rate_x=0.7)
    awk -v a="$z" -v b="$h" 'BEGIN { exit !(a != "" && b != "" && a <= b) }' ||
        fail "fig21: $a worse without loss ($z) than with heavy loss ($h)"
done

# Figure 17: the oracle misses nothing; tolerance never hurts; N runs 1..true patterns
get "$out/fig17.dat" fn_rate_t0 algo=truth | all_in 0 0 || fail "fig17: oracle misses patterns"
awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
    { if ($(c["missing_t6"]) > $(c["missing_t2"]) || $(c["missing_t2"]) > $(c["missing_t0"])) bad++
      if ($(c["series"]) == "nesting") { n++; if ($(c["n"]) > max) max = $(c["n"]); tp = $(c["true_patterns"]) } }
    END { exit (bad || n == 0 || max != tp) ? 1 : 0 }' "$out/fig17.dat" ||
    fail "fig17: more tolerance missed more, or N does not run to the number of true patterns"

# Figure 22: no compensation: no skew not worse than 60 ms
z=$(get "$out/fig22.dat" instance_fn_rate curve=nocomp skew=0)
h=$(get "$out/fig22.dat" instance_fn_rate curve=nocomp skew=0.06)
awk -v a="$z" -v b="$h" 'BEGIN { exit !(a != "" && b != "" && a <= b) }' || fail "fig22: nesting better with 60 ms skew ($h) than without ($z)"
# linking on the idle trace it is built for: offset changes nothing (WAP5)
z=$(get "$out/fig22.dat" instance_fn_rate curve=linking-idle skew=0)
h=$(get "$out/fig22.dat" instance_fn_rate curve=linking-idle skew=0.06)
awk -v a="$z" -v b="$h" 'BEGIN { d = a - b; exit !(a != "" && b != "" && d < 0.02 && d > -0.02) }' ||
    fail "fig22: linking on the idle trace changes with WS2's offset ($z at 0, $h at 60 ms)"
[ -s "$out/fig22_marks.dat" ] && grep -q ' call$' "$out/fig22_marks.dat" || fail "fig22: no call-delay mark"
awk '$2 == "call" { exit !($1 > 0.04 && $1 < 0.06) }' "$out/fig22_marks.dat" || fail "fig22: mean call delay not about 50 ms"

# Figures 12/13: the oracle measures the added 200 ms; nothing added to the control
get "$out/fig12_13.dat" added_latency algo=truth-call target=delayed | all_in 0.19 0.21 ||
    fail "fig12_13: oracle does not see the 200 ms"
get "$out/fig12_13.dat" added_latency algo=truth-call target=control | all_in -0.01 0.01 ||
    fail "fig12_13: oracle sees delay added to the WS1 pattern"
get "$out/fig12_13.dat" added_latency algo=nesting target=delayed | all_in 0.1 0.3 ||
    fail "fig12_13: nesting does not see the added delay"

# the report puts every figure beside the paper
# (report.sh exits 1 without pandoc; the page is checked by test_report_page.sh)
PB_OUT="$out" sh experiments/report.sh 2>/dev/null
[ -s "$out/report.md" ] || fail "report.sh wrote no report.md"
for h in "Figure 17" "Figure 19" "Figure 21" "Figure 22" "Figures 12 and 13"; do
    grep -q "^## $h" "$out/report.md" || fail "report.md has no section $h"
done
grep -q '| truth .*exact (oracle)' "$out/report.md" || fail "report.md does not show the oracle as exact"
grep -q '\*\*Paper' "$out/report.md" || fail "report.md quotes no paper text"
echo ok
