#!/bin/sh
# Table 1 with a user's algorithm list (run_all.sh --algos, PB_ALGOS): an
# exec: command (examples/fcfs.py) runs on every tiny workload (infer
# refuses --no-assign for exec:, so the script must not pass it), its rows
# carry a CPU time (the run's user time) and a peak memory, table1.md lists
# it under "Other algorithms" with the command behind its exec- label, and
# the scaling plot table1_scaling is drawn.
set -u
: "${PB_ROOT:?}" "${PB_BIN:?}"
cd "$PB_ROOT" || exit 1
for p in maketrace infer; do [ -x "$PB_BIN/$p" ] || { echo "SKIP: $PB_BIN/$p missing"; exit 77; }; done
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 missing"; exit 77; }
[ -x /usr/bin/time ] || { echo "SKIP: /usr/bin/time missing"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
sh experiments/run_all.sh --tiny --only table1 --out "$tmp/o" -j1 --no-report \
    --algos "nesting,exec:python3 $PB_ROOT/examples/fcfs.py" >"$tmp/log" 2>&1 || { tail -20 "$tmp/log"; fail "run_all exited non-zero"; }
ls "$tmp"/o/points/table1/*.fail >/dev/null 2>&1 && { cat "$tmp"/o/points/table1/*.fail; fail "a point failed"; }
f=$(ls "$tmp"/o/table1_exec-*.dat 2>/dev/null | head -1)
[ -n "$f" ] || fail "no table1_exec-*.dat"
[ "$(grep -vc '^#' "$f")" -eq 2 ] || { cat "$f"; fail "expected the two tiny workloads in $f"; }
awk '!/^#/ && !($2 > 0 && $3 > 0) { bad = 1 } END { exit bad }' "$f" || { cat "$f"; fail "an exec: row without CPU or memory"; }
grep -q '^Other algorithms of the list' "$tmp/o/table1.md" || fail "no other-algorithms table in table1.md"
grep -q '^exec-[0-9a-f]\{8\} = `exec:python3 ' "$tmp/o/table1.md" || fail "the exec- label is not explained in table1.md"
if command -v gnuplot >/dev/null 2>&1; then
    [ -s "$tmp/o/table1_scaling.png" ] || { cat "$tmp/o/run/gnuplot-table1.log"; fail "no table1_scaling.png"; }
fi
echo "PASS table1 with an exec: algorithm"
