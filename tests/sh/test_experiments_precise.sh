#!/bin/sh
# The issue-23 figures end to end on tiny traces (run_all.sh --tiny --only
# vpath_assumptions,isolation): every point runs, the .dat files hold the
# sweeps, and the numbers the papers' claims rest on come out: vpath's
# paper rule exact with pooled worker ids and on vApp, borderpatrol exact
# with event isolation and not with batched reads; the report sections
# write their verdict rows.
set -u
ROOT=${PB_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
[ -x "$PB_BIN/maketrace" ] && [ -x "$PB_BIN/infer" ] && [ -x "$PB_BIN/score" ] || { echo "no programs"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
out="$tmp/out"
cd "$ROOT" || exit 1
PB_OUT="$out" sh experiments/run_all.sh --tiny --only vpath_assumptions,isolation -j 2 --no-plots \
    >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "run_all.sh --tiny failed"; }
for f in vpath_assumptions_load vpath_assumptions_handoff vpath_assumptions_model vpath_assumptions_case \
         isolation_iso isolation_batch isolation_latency; do
    [ -s "$out/$f.dat" ] || fail "$f.dat missing"
done
# column 3 is vpath-paper, 6 borderpatrol
awk '!/^#/ && $3 != 1.0000 { exit 1 }' "$out/vpath_assumptions_load.dat" || fail "vpath paper not exact with pooled threads"
awk '!/^#/ && $1 == "vapp" && $3 != 1.0000 { exit 1 }' "$out/vpath_assumptions_case.dat" || fail "vpath paper not exact on vApp"
awk '!/^#/ && $1 == "event1" && $3 + 0 > 0.5 { exit 1 }' "$out/vpath_assumptions_model.dat" || fail "vpath paper handles an event loop"
awk '!/^#/ && $6 != 1.0000 { exit 1 }' "$out/isolation_iso.dat" || fail "borderpatrol not exact with isolation"
awk '!/^#/ && $6 + 0 >= 1 { exit 1 }' "$out/isolation_batch.dat" || fail "borderpatrol exact with batched reads"
grep -q '^vpath_assumptions	' "$out/verdicts.tsv" || fail "no vpath_assumptions verdicts"
grep -q '^isolation	' "$out/verdicts.tsv" || fail "no isolation verdicts"
exit 0
