#!/bin/sh
# A real (tiny) sweep run through GNU parallel gives byte-identical .dat
# files to the built-in driver's: the job list (run_all.sh --list-jobs, --list-tsv) is
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

# GNU parallel over the job list, both documented forms (docs/experiments.md,
# Many machines): the first jobs of --list-jobs as 'sh -c {}', then what is
# still pending from --list-tsv as 'sh -c {2}'; then collect only
PB_OUT="$tmp/b" sh experiments/run_all.sh --tiny --only $figs --list-all-jobs >"$tmp/all.txt" ||
    fail "--list-all-jobs failed"
n=$(wc -l <"$tmp/all.txt")
[ "$n" -ge 4 ] || fail "expected at least 4 jobs, got $n"
grep -q "$tmp" "$tmp/all.txt" || fail "the job list does not name the output folder"
PB_OUT="$tmp/b" sh experiments/run_all.sh --tiny --only $figs --list-jobs >"$tmp/jobs.txt" ||
    fail "--list-jobs failed"
cmp -s "$tmp/all.txt" "$tmp/jobs.txt" || fail "--list-jobs differs from --list-all-jobs before any job ran"
h=$((n / 2))
head -n "$h" "$tmp/jobs.txt" | parallel --will-cite -j 2 'sh -c {}' >"$tmp/log_p1" 2>&1 ||
    { cat "$tmp/log_p1"; fail "GNU parallel run of --list-jobs failed"; }
PB_OUT="$tmp/b" sh experiments/run_all.sh --tiny --only $figs --list-tsv >"$tmp/jobs.tsv" ||
    fail "--list-tsv failed"
[ "$(wc -l <"$tmp/jobs.tsv")" -eq $((n - h)) ] ||
    fail "--list-tsv lists $(wc -l <"$tmp/jobs.tsv") pending jobs after $h of $n ran, expected $((n - h))"
[ "$(cut -f2- "$tmp/jobs.tsv")" = "$(tail -n $((n - h)) "$tmp/all.txt")" ] ||
    fail "--list-tsv commands are not the pending lines of the job list"
parallel --will-cite -j 2 --colsep '\t' 'sh -c {2}' <"$tmp/jobs.tsv" >"$tmp/log_p2" 2>&1 ||
    { cat "$tmp/log_p2"; fail "GNU parallel run of --list-tsv failed"; }
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
