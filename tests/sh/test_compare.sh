#!/bin/sh
# bin/compare on hand-worked numbers (the five seeds of tests/unit/test_pstat.c:
# B - A = 0.03 0.02 0.02 0.04 0.01, mean 0.024, 95 % interval
# [0.0098429, 0.0381571], mdc 0.0189551), its verdicts and exit statuses
# (an interval straddling the tolerance is undecided), its errors; then
# experiments/compare.sh on the tiny points (every algorithm and mode,
# multitier at 2,000 messages, 3 seeds): a no-op (the same programs on both
# sides) is "no detectable change" on every row, a planted degradation of
# every algorithm (experiments/plant_worse.sh) is caught at every point, an
# exec: side (examples/fcfs.py) against infer's fcfs is no change.
set -u
: "${PB_ROOT:?}" "${PB_BIN:?}"
cd "$PB_ROOT" || exit 1
for p in maketrace infer score skewer sniffer compare; do
    [ -x "$PB_BIN/$p" ] || { echo "SKIP: $PB_BIN/$p missing"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
C="$PB_BIN/compare"

printf 'point,metric,better,seed,value\n' >"$tmp/a.csv"
printf 'point,metric,better,seed,value\n' >"$tmp/b.csv"
i=0
for pair in 0.50:0.53 0.52:0.54 0.48:0.50 0.51:0.55 0.49:0.50; do
    i=$((i + 1))
    echo "p,acc,higher,$i,${pair%:*}" >>"$tmp/a.csv"
    echo "p,acc,higher,$i,${pair#*:}" >>"$tmp/b.csv"
    echo "p,err,lower,$i,${pair%:*}" >>"$tmp/a.csv"
    echo "p,err,lower,$i,${pair#*:}" >>"$tmp/b.csv"
done
"$C" --csv "$tmp/o.csv" --html "$tmp/o.html" "$tmp/a.csv" "$tmp/b.csv" >"$tmp/t1"
rc=$?
[ $rc -eq 1 ] || { cat "$tmp/t1"; fail "a worse err row: exit $rc, expected 1"; }
grep -q '^p  *acc  *5  *0.5  *0.524  *+0.024  *\[+0.009843, +0.03816\]  *5/0/0  *0  *0.019  *BETTER$' "$tmp/t1" ||
    { cat "$tmp/t1"; fail "hand-worked interval of acc"; }
grep -q ' err .*WORSE$' "$tmp/t1" || fail "err (lower is better) not WORSE"
grep -q '^p,,,acc,higher,5,0.5,0.524,.*,0.024,0.01140175425,0.00984285223,0.03815714777,nan,nan,5,0,0,0,0.01895514451,0,better$' "$tmp/o.csv" ||
    { cat "$tmp/o.csv"; fail "CSV row of acc"; }
grep -q '<svg' "$tmp/o.html" || fail "no interval plot in the HTML page"
# the same input, the same bytes
"$C" --csv "$tmp/o2.csv" "$tmp/a.csv" "$tmp/b.csv" >/dev/null
cmp -s "$tmp/o.csv" "$tmp/o2.csv" || fail "two runs differ"
# a seeded bootstrap interval instead: inside the range of the differences,
# the same for the same seed
"$C" -s bootstrap=2000 -s seed=7 --csv "$tmp/b1.csv" "$tmp/a.csv" "$tmp/b.csv" >"$tmp/tb" 2>&1
"$C" -s bootstrap=2000 -s seed=7 --csv "$tmp/b2.csv" "$tmp/a.csv" "$tmp/b.csv" >/dev/null 2>&1
cmp -s "$tmp/b1.csv" "$tmp/b2.csv" || fail "bootstrap not deterministic"
awk -F, '$4 == "acc" { exit !($15 >= 0.01 && $15 < 0.024 && $16 > 0.024 && $16 <= 0.04 && $NF == "better") }' "$tmp/b1.csv" ||
    { cat "$tmp/b1.csv"; fail "bootstrap interval of acc"; }
# tolerance 0.01: the interval [0.0098, 0.0382] straddles it: undecided
"$C" -s tol_min=0.01 "$tmp/a.csv" "$tmp/b.csv" >"$tmp/t2"
grep -q ' acc .*undecided, BETTER than 0$' "$tmp/t2" || { cat "$tmp/t2"; fail "straddling interval not undecided"; }
grep -q ' err .*undecided, WORSE than 0$' "$tmp/t2" || { cat "$tmp/t2"; fail "straddling interval not undecided (err)"; }
# tolerance 0.05: within
"$C" -s tol_min=0.05 "$tmp/a.csv" "$tmp/b.csv" >"$tmp/t3"; rc=$?
[ $rc -eq 0 ] && grep -q ' acc .*changed within tolerance$' "$tmp/t3" || { cat "$tmp/t3"; fail "within tolerance (exit $rc)"; }
# only the better row: exit 3
grep -v ',err,' "$tmp/a.csv" >"$tmp/a2.csv"; grep -v ',err,' "$tmp/b.csv" >"$tmp/b2.csv"
"$C" "$tmp/a2.csv" "$tmp/b2.csv" >/dev/null; rc=$?
[ $rc -eq 3 ] || fail "a better row alone: exit $rc, expected 3"
# a change both ways that straddles a tolerance: undecided, exit 0
printf 'point,metric,better,seed,value\nq,acc,higher,1,0.5\nq,acc,higher,2,0.5\nq,acc,higher,3,0.5\nq,acc,higher,4,0.5\n' >"$tmp/a3.csv"
printf 'point,metric,better,seed,value\nq,acc,higher,1,0.51\nq,acc,higher,2,0.49\nq,acc,higher,3,0.52\nq,acc,higher,4,0.48\n' >"$tmp/b3.csv"
"$C" -s tol_min=0.005 "$tmp/a3.csv" "$tmp/b3.csv" >"$tmp/t4"; rc=$?
[ $rc -eq 0 ] && grep -q '^q  *acc .*\[-0.02905, +0.02905\]  *2/2/0 .* undecided$' "$tmp/t4" || { cat "$tmp/t4"; fail "both ways, straddling (exit $rc)"; }
"$C" "$tmp/a3.csv" "$tmp/b3.csv" >"$tmp/t5"
grep -q ' no detectable change$' "$tmp/t5" || { cat "$tmp/t5"; fail "both ways without tolerance"; }
# a seed missing on one side: MISSING for a row with none paired, exit 1
printf 'point,metric,better,seed,value\nr,acc,higher,1,0.5\n' >"$tmp/a4.csv"
printf 'point,metric,better,seed,value\nr,acc,higher,2,0.5\n' >"$tmp/b4.csv"
"$C" "$tmp/a4.csv" "$tmp/b4.csv" >"$tmp/t6"; rc=$?
[ $rc -eq 1 ] && grep -q 'MISSING' "$tmp/t6" || { cat "$tmp/t6"; fail "missing (exit $rc)"; }
# bad input: located error, exit 4
printf 'point,metric,better,seed,value\np,acc,higher,1,abc\n' >"$tmp/bad.csv"
"$C" "$tmp/a.csv" "$tmp/bad.csv" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 4 ] && grep -q 'bad.csv:2:16: value .abc.; expected a finite number' "$tmp/err" || { cat "$tmp/err"; fail "bad value (exit $rc)"; }
printf 'point,metric,seed,value\np,acc,1,0.5\np,acc,1,0.6\n' >"$tmp/dup.csv"
"$C" "$tmp/dup.csv" "$tmp/a.csv" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 4 ] && grep -q 'dup.csv:3:.*a second time' "$tmp/err" || { cat "$tmp/err"; fail "duplicate seed (exit $rc)"; }
"$C" "$tmp/a.csv" >/dev/null 2>&1; [ $? -eq 2 ] || fail "one file: expected usage error 2"

# --- experiments/compare.sh on the tiny points ---------------------------
CS="sh experiments/compare.sh --points tiny --seeds 3 --no-time"
$CS --out "$tmp/noop" "$PB_BIN" "$PB_BIN" >"$tmp/noop.txt" 2>&1; rc=$?
[ $rc -eq 0 ] || { cat "$tmp/noop.txt"; fail "no-op: exit $rc"; }
grep -q ' 0 worse, 0 better, 0 changed, 0 undecided (0 of them worse than 0, 0 better), 0 within tolerance, [0-9]* no detectable change, 0 missing' "$tmp/noop.txt" ||
    { cat "$tmp/noop.txt"; fail "no-op not 'no detectable change' everywhere"; }
cmp -s "$tmp/noop/a.csv" "$tmp/noop/b.csv" || fail "the same programs gave different values"
npts=$(awk -F, 'NR > 1 { print $1 }' "$tmp/noop/a.csv" | sort -u | wc -l)
[ "$npts" -ge 12 ] || fail "only $npts tiny points"
for it in joint:callids=0 convolution fcfs arrival vpath wap5tw linking; do
    grep -q "^syn:multitier[^/]*/$it," "$tmp/noop/a.csv" || fail "no tiny point for $it"
done
[ -s "$tmp/noop/compare.html" ] && [ -s "$tmp/noop/compare.csv" ] || fail "no HTML or CSV"

$CS --out "$tmp/plant" --wrap-b "sh $PB_ROOT/experiments/plant_worse.sh" "$PB_BIN" "$PB_BIN" >"$tmp/plant.txt" 2>&1; rc=$?
[ $rc -eq 1 ] || { cat "$tmp/plant.txt"; fail "planted degradation: exit $rc, expected 1"; }
nw=$(awk -F, '$NF == "worse" || $NF == "undecided_worse" { print $1 }' "$tmp/plant/compare.csv" | sort -u | wc -l)
[ "$nw" -eq "$npts" ] || { cat "$tmp/plant.txt"; fail "planted degradation caught at $nw of $npts points"; }

if command -v python3 >/dev/null 2>&1; then
    $CS --algos fcfs,fcfs:callids=0 --out "$tmp/exec" "$PB_BIN" "exec:python3 $PB_ROOT/examples/fcfs.py" >"$tmp/exec.txt" 2>&1; rc=$?
    [ $rc -eq 0 ] || { cat "$tmp/exec.txt"; fail "fcfs vs exec: fcfs.py: exit $rc"; }
fi
echo ok
