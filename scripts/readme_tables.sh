#!/bin/sh
# Replace a generated table of README.md with the content of a file.
#
#   scripts/readme_tables.sh [--check] [--keep-rows] [--readme FILE] [--from-table PREFIX] NAME SOURCE [TARGET]
#
# The table sits between two marker lines of the README:
#     <!-- NAME:begin -->
#     ...generated, never edited by hand...
#     <!-- NAME:end -->
# Everything between them is replaced by SOURCE (or, with --from-table
# PREFIX, by the first Markdown table of SOURCE whose header row starts
# with PREFIX, e.g. '| figure |').  The README is rewritten only if that
# changes it (atomically: temporary file, then rename).  Used by `make
# readme` (figures) and `make bench` (speed), so that the README's tables
# are computed, not typed.
#   --check   write nothing; exit 1 if the README is not up to date
#   --keep-rows  a row of the README's table whose first cell names no row
#             of SOURCE stays (after SOURCE's rows, in its old order): a
#             section this run did not make (joint_robust, made by its own
#             script) keeps its last verdict instead of vanishing
#   --readme FILE, or TARGET: the file to edit (default README.md)
# Exit status: 0 done (or up to date), 1 stale (--check) or bad input
# (markers missing, twice or out of order, no such table, SOURCE
# unreadable; the file is then left as it was), 2 bad usage.
set -u
prog=readme_tables.sh
check=0
keep=0
readme=README.md
prefix=""
while [ $# -gt 0 ]; do
    case "$1" in
    --check) check=1; shift ;;
    --keep-rows) keep=1; shift ;;
    --readme) [ $# -ge 2 ] || { echo "$prog: --readme needs a FILE" >&2; exit 2; }; readme=$2; shift 2 ;;
    --from-table) [ $# -ge 2 ] || { echo "$prog: --from-table needs a PREFIX" >&2; exit 2; }; prefix=$2; shift 2 ;;
    -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "$prog: unknown option $1 (try $prog --help)" >&2; exit 2 ;;
    *) break ;;
    esac
done
[ $# -eq 2 ] || [ $# -eq 3 ] || { echo "$prog: expected NAME SOURCE [TARGET], got $# arguments (try $prog --help)" >&2; exit 2; }
name=$1 src=$2
[ $# -eq 3 ] && readme=$3
case "$name" in *[!A-Za-z0-9_-]*|"") echo "$prog: NAME \"$name\": expected letters, digits, - or _" >&2; exit 2 ;; esac
[ -r "$src" ] || { echo "$prog: $src: cannot read" >&2; exit 1; }
[ -r "$readme" ] || { echo "$prog: $readme: cannot read" >&2; exit 1; }
begin="<!-- $name:begin -->" end="<!-- $name:end -->"
nb=$(grep -cxF -- "$begin" "$readme")
ne=$(grep -cxF -- "$end" "$readme")
if [ "$nb" -ne 1 ] || [ "$ne" -ne 1 ]; then
    echo "$prog: $readme: expected one line \"$begin\" and one \"$end\", found $nb and $ne" >&2
    exit 1
fi

tmp=$(mktemp "$readme.XXXXXX") || exit 1
body=$(mktemp) || { rm -f "$tmp"; exit 1; }
trap 'rm -f "$tmp" "$body"' EXIT INT TERM
if [ -n "$prefix" ]; then
    awk -v p="$prefix" '
        !done && !intab && index($0, p) == 1 { intab = 1 }
        intab && /^\|/ { print; n++; next }
        intab { intab = 0; done = 1 }
        END { exit n < 2 }' "$src" >"$body" ||
        { echo "$prog: $src: no Markdown table whose header starts with \"$prefix\"" >&2; exit 1; }
else
    cat "$src" >"$body" || exit 1
fi

if [ "$keep" -eq 1 ]; then
    # the old rows SOURCE has no row for, kept after SOURCE's table rows
    awk -v b="$begin" -v e="$end" '$0 == b { p = 1; next } $0 == e { p = 0 } p' "$readme" >"$body.old"
    awk -v oldf="$body.old" '
        function key(l,   f) { split(l, f, "|"); gsub(/^ +| +$/, "", f[2]); return f[2] }
        /^\|/ { seen[key($0)] = 1; last = NR }
        { line[NR] = $0 }
        END {
            for (i = 1; i <= NR; i++) {
                print line[i]
                if (i == last)
                    while ((getline l < oldf) > 0)
                        if (l ~ /^\|/ && l !~ /^\|-/ && !(key(l) in seen)) print l
            }
        }' "$body" >"$body.new" && mv "$body.new" "$body"
    rm -f "$body.old"
fi

awk -v b="$begin" -v e="$end" -v bodyf="$body" '
    $0 == b { print; while ((getline l < bodyf) > 0) print l; skip = 1; next }
    $0 == e { if (!skip) bad = 1; skip = 0 }
    !skip { print }
    END { exit bad }' "$readme" >"$tmp" ||
    { echo "$prog: $readme: \"$end\" comes before \"$begin\"" >&2; exit 1; }

if cmp -s "$tmp" "$readme"; then
    exit 0
fi
if [ "$check" -eq 1 ]; then
    echo "$prog: $readme: the \"$name\" table is not up to date with $src (run without --check)" >&2
    exit 1
fi
chmod --reference="$readme" "$tmp" 2>/dev/null || chmod 644 "$tmp"
mv "$tmp" "$readme" || exit 1
echo "$prog: $readme: \"$name\" table updated from $src" >&2
