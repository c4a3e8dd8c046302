#!/bin/sh
# Every sort and binary search of the project goes through pb_sort /
# pb_search (core/pb_sort.h): qsort and bsearch declare their array
# non-null even for an empty one, and an empty growable array is NULL, so
# a direct call is undefined behaviour waiting for the input that empties
# the array.  This fails on any direct call in the library, the programs
# or the tests (examples/ are programs of the installed API and keep their
# own guards), and checks that the guard itself holds (a sanitizer build
# of test_pb_sort runs the guard on NULL).
set -u
ROOT=${PB_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$ROOT" || exit 1
bad=$(grep -rnE '(^|[^_[:alnum:]])(qsort|bsearch)[[:space:]]*\(' \
          --include='*.c' --include='*.h' \
          core maketrace skewer sniffer algorithms metrics importer programs capture testbed tests \
          2>/dev/null | grep -v '^core/pb_sort.h:')
if [ -n "$bad" ]; then
    echo "FAIL: direct qsort/bsearch (use pb_sort/pb_search of core/pb_sort.h):"
    echo "$bad"
    exit 1
fi
# the check can fail: a direct call planted in a copy is found
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/core"
printf 'void f(int *a, unsigned n) { qsort(a, n, sizeof *a, 0); }\n' > "$tmp/core/x.c"
grep -rqE '(^|[^_[:alnum:]])(qsort|bsearch)[[:space:]]*\(' --include='*.c' "$tmp/core" ||
    { echo "FAIL: the pattern misses a planted qsort call"; exit 1; }
echo "ok: no direct qsort or bsearch"
