#!/bin/sh
# Run every test: the unit test binaries (each prints PASS/FAIL lines) and
# the shell tests tests/sh/test_*.sh (exit 0 = pass, 77 = skip).
# Ends with the line "N passed, N failed" (", N skipped" when any).
# PB_BIN: programs; PB_TESTBIN: unit test binaries; TESTS=pattern to filter.
set -u
cd "$(dirname "$0")/.."
: "${PB_BIN:=$(pwd)/bin}"
: "${PB_TESTBIN:=$(pwd)/build/tests}"
export PB_BIN PB_TESTBIN
export PB_ROOT="$(pwd)"
filter="${TESTS:-}"
pass=0; fail=0; skip=0
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT INT TERM
for t in "$PB_TESTBIN"/test_*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    case "$name" in *"$filter"*) ;; *) continue ;; esac
    "$t" >"$log/out" 2>&1
    rc=$?
    p=$(grep -c '^PASS ' "$log/out")
    f=$(grep -c '^FAIL ' "$log/out")
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1; echo "FAIL $name (exit $rc)"
    fi
    grep -E '^(FAIL|SKIP) ' "$log/out"
    if [ "$f" -ne 0 ] || [ "$rc" -ne 0 ]; then tail -20 "$log/out" | grep -v '^PASS '; fi
    s=$(grep -c '^SKIP ' "$log/out")
    pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
    echo "$name: $p passed, $f failed"
done
for t in tests/sh/test_*.sh; do
    [ -f "$t" ] || continue
    name=$(basename "$t" .sh)
    case "$name" in *"$filter"*) ;; *) continue ;; esac
    sh "$t" >"$log/out" 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then pass=$((pass + 1)); echo "PASS $name"
    elif [ $rc -eq 77 ]; then skip=$((skip + 1)); echo "SKIP $name"
    else fail=$((fail + 1)); echo "FAIL $name (exit $rc)"; tail -30 "$log/out"; fi
done
if [ $skip -gt 0 ]; then
    echo "$pass passed, $fail failed, $skip skipped"
else
    echo "$pass passed, $fail failed"
fi
[ $fail -eq 0 ]
