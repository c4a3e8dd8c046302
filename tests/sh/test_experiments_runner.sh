#!/bin/sh
# The experiment driver's job list, parallel run, failure handling, resume
# and collection, on the self-test figure (needs no pathbench program).
set -u
: "${PB_ROOT:?}"
cd "$PB_ROOT" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
out="$tmp/out"
fail() { echo "FAIL: $*"; exit 1; }
run() { PB_OUT="$out" sh experiments/run_all.sh --only selftest --tiny --no-report --no-plots "$@"; }

# 1. the job list: 2 series x 3 x x 2 seeds, one command line each
run --list-all-jobs >"$tmp/all" || fail "--list-all-jobs failed"
n=$(wc -l <"$tmp/all")
[ "$n" -eq 12 ] || fail "expected 12 jobs, got $n"
grep -v '^PB_BIN=[^ ]* sh experiments/selftest.sh point [^ ]*\.row series=[ab] x=[0-9] seed=[12]$' "$tmp/all" &&
    fail "job lines not of the documented form"
[ "$(sort -u "$tmp/all" | wc -l)" -eq 12 ] || fail "duplicate jobs"
# --seeds changes the list
n=$(run --seeds 3 --list-all-jobs | wc -l)
[ "$n" -eq 18 ] || fail "--seeds 3: expected 18 jobs, got $n"

# 2. a run where two points fail: the others finish, the driver says so
printf 'a-x2-s1\nb-x3-s2\n' >"$tmp/failkeys"
PB_SELFTEST_FAIL="$tmp/failkeys" run -j 2 >"$tmp/log1" 2>&1 && fail "run with failing points exited 0"
grep -q '2 failed' "$tmp/log1" || { cat "$tmp/log1"; fail "no failure count in the output"; }
grep -q 'points done' "$tmp/log1" || grep -q 'ran 12 points' "$tmp/log1" || fail "no progress lines"
nrow=$(ls "$out/points/selftest/"*.row | wc -l)
[ "$nrow" -eq 10 ] || fail "expected 10 finished points, got $nrow"
[ -e "$out/points/selftest/series=a_x=2_seed=1.row.fail" ] || fail "no .fail file for a failed point"
ls "$out/points/selftest/" | grep -q 'tmp' && fail "temporary files left behind"
# the .dat has the 10 finished points and a header saying how it was made
[ "$(grep -v '^#' "$out/selftest.dat" | wc -l)" -eq 11 ] || fail "selftest.dat should have a header and 10 rows"
grep -q '^# commits: ' "$out/selftest.dat" || fail "no commit in the .dat header"
grep -q '^# parameters: .*seed=1,2' "$out/selftest.dat" || fail "no parameters in the .dat header"

# 3. pending jobs are exactly the failed ones
run --list-jobs >"$tmp/pending"
[ "$(wc -l <"$tmp/pending")" -eq 2 ] || fail "expected 2 pending jobs"
grep -q 'series=a_x=2_seed=1.row' "$tmp/pending" && grep -q 'series=b_x=3_seed=2.row' "$tmp/pending" || fail "wrong pending jobs"

# 4. resume: finished points are not redone, the failed ones are
echo '# marker' >>"$out/points/selftest/series=a_x=1_seed=1.row"
run -j 2 >"$tmp/log2" 2>&1 || { cat "$tmp/log2"; fail "resumed run failed"; }
grep -q 'running 2 ' "$tmp/log2" || { cat "$tmp/log2"; fail "resume did not run just the 2 missing points"; }
grep -q '^# marker' "$out/points/selftest/series=a_x=1_seed=1.row" || fail "a finished point was redone"
[ -e "$out/points/selftest/series=a_x=2_seed=1.row.fail" ] && fail "stale .fail file kept after success"
[ "$(grep -v '^#' "$out/selftest.dat" | wc -l)" -eq 13 ] || fail "selftest.dat should have 12 rows after resume"
[ -z "$(run --list-jobs)" ] || fail "jobs pending after a complete run"

# 5. aggregation: mean over seeds 1,2 of x*x+seed, sorted by x, with the
# 95 % t interval: sd 0.7071 over two seeds, mean +- 12.706205 * 0.5 (experiments/judge.awk)
awk 'NF == 8 && $1 !~ /^#/' "$out/selftest_a.dat" | head -n 3 >"$tmp/agg"
printf '1 1 2.5 2 3 2 -3.8531 8.8531\n2 2 5.5 5 6 2 -0.853103 11.8531\n3 3 10.5 10 11 2 4.1469 16.8531\n' | cmp -s - "$tmp/agg" ||
    { cat "$tmp/agg"; fail "selftest_a.dat index 0 is not the per-x mean/min/max/interval"; }

# 6. one job run by itself, as a Slurm array task would (line N of the list)
rm "$out/points/selftest/series=b_x=2_seed=2.row"
run --list-all-jobs >"$tmp/jobs.txt"
k=$(grep -n 'series=b_x=2_seed=2.row' "$tmp/jobs.txt" | cut -d: -f1)
sh experiments/runjob.sh "$tmp/jobs.txt" "$k" || fail "runjob.sh failed"
[ -e "$out/points/selftest/series=b_x=2_seed=2.row" ] || fail "runjob.sh did not make the point"
sh experiments/runjob.sh "$tmp/jobs.txt" "$k" || fail "rerunning a done job failed"

# 7. GNU parallel, when installed, runs the same list
if command -v parallel >/dev/null 2>&1 && parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
    rm "$out/points/selftest/"*.row
    parallel --will-cite -j 2 <"$tmp/jobs.txt" || fail "GNU parallel run failed"
    [ "$(ls "$out/points/selftest/"*.row | wc -l)" -eq 12 ] || fail "GNU parallel did not make every point"
fi

# 8. chunks of K lines, as the array script experiments/sweep.sbatch runs
#    them (task I: lines I*K+1 .. I*K+K, the last chunk short)
rm -f "$out/points/selftest/"*.row
sh experiments/runjob.sh --chunk 5 "$tmp/jobs.txt" 2 || fail "runjob.sh --chunk 5 ... 2 failed"
ls "$out/points/selftest/" | grep '\.row$' >"$tmp/made"
sed -n '11,12p' "$tmp/jobs.txt" | sed 's|.* point [^ ]*/\([^ /]*\.row\) .*|\1|' | sort >"$tmp/want"
cmp -s "$tmp/made" "$tmp/want" || { diff "$tmp/want" "$tmp/made"; fail "chunk 2 of 5 lines did not run exactly lines 11-12"; }
sh experiments/runjob.sh --chunk 5 "$tmp/jobs.txt" 3 2>"$tmp/err" && fail "a chunk past the end of the list exited 0"
grep -q 'past the end' "$tmp/err" || fail "no message for a chunk past the end"
sh experiments/runjob.sh --chunk 0 "$tmp/jobs.txt" 0 2>/dev/null; [ $? -eq 2 ] || fail "--chunk 0 not a usage error"
for i in 0 1 2; do
    SLURM_ARRAY_TASK_ID=$i sh experiments/sweep.sbatch "$tmp/jobs.txt" 5 || fail "sweep.sbatch task $i failed"
done
[ "$(ls "$out/points/selftest/"*.row | wc -l)" -eq 12 ] || fail "sweep.sbatch tasks 0-2 of 5 lines did not make every point"
sh experiments/sweep.sbatch "$tmp/jobs.txt" 2>/dev/null && fail "sweep.sbatch outside an array task exited 0"
echo "ok"
