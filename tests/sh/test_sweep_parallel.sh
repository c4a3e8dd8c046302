#!/bin/sh
# A real (tiny) sweep run through GNU parallel gives byte-identical .dat
# files to the built-in driver's: the job list (run_all.sh --list-tsv) is
# everything an outside engine needs (docs/experiments.md, Many machines).
# Skipped when GNU parallel is not installed (make test installs it).
set -u
: "${PB_ROOT:?}" "${PB_BIN:?}"
cd "$PB_ROOT" || exit 1
command -v parallel >/dev/null 2>&1 && parallel --version 2>/dev/null | grep -q 'GNU parallel' ||
    { echo "SKIP: GNU parallel not installed (apt-get install parallel)"; exit 77; }
for p in maketrace infer score; do
    [ -x "$PB_BIN/$p" ] || { echo "SKIP: $PB_BIN/$p missing"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
figs=fig17,conv_mail

# the built-in driver
PB_OUT="$tmp/a" sh experiments/run_all.sh --tiny --only $figs -j 2 --no-plots --no-report \
    >"$tmp/log_a" 2>&1 || { cat "$tmp/log_a"; fail "built-in driver failed"; }

# GNU parallel over the job list, then collect only
PB_OUT="$tmp/b" sh experiments/run_all.sh --tiny --only $figs --list-tsv >"$tmp/jobs.tsv" ||
    fail "--list-tsv failed"
n=$(wc -l <"$tmp/jobs.tsv")
[ "$n" -ge 4 ] || fail "expected at least 4 jobs, got $n"
parallel --will-cite -j 2 --colsep '\t' 'sh -c {2}' <"$tmp/jobs.tsv" >"$tmp/log_p" 2>&1 ||
    { cat "$tmp/log_p"; fail "GNU parallel run failed"; }
while IFS='	' read -r p c; do
    [ -s "$p" ] || fail "GNU parallel did not make $p"
done <"$tmp/jobs.tsv"
PB_OUT="$tmp/b" sh experiments/run_all.sh --tiny --only $figs --collect-only --no-plots --no-report \
    >"$tmp/log_b" 2>&1 || { cat "$tmp/log_b"; fail "collect after GNU parallel failed"; }
[ -z "$(PB_OUT="$tmp/b" sh experiments/run_all.sh --tiny --only $figs --list-jobs)" ] ||
    fail "jobs still pending after the GNU parallel run"

# every .dat byte-identical
(cd "$tmp/a" && ls *.dat) >"$tmp/list_a"
(cd "$tmp/b" && ls *.dat) >"$tmp/list_b"
cmp -s "$tmp/list_a" "$tmp/list_b" || { diff "$tmp/list_a" "$tmp/list_b"; fail "different .dat files made"; }
[ "$(wc -l <"$tmp/list_a")" -ge 4 ] || fail "too few .dat files"
while read -r f; do
    cmp -s "$tmp/a/$f" "$tmp/b/$f" || { diff "$tmp/a/$f" "$tmp/b/$f" | head; fail "$f differs between the built-in driver and GNU parallel"; }
done <"$tmp/list_a"
echo PASS
