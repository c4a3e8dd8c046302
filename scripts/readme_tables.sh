#!/bin/sh
# readme_tables.sh NAME FILE [TARGET]: replace the lines between
# "<!-- NAME:begin -->" and "<!-- NAME:end -->" in TARGET (default
# README.md) with the contents of FILE, in place (atomically).  Exit 1 when
# the markers are missing or out of order, 2 on bad usage.  Used by
# `make bench` (NAME speed) so that the README's figures are measured, not
# typed.
set -u
[ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: readme_tables.sh NAME FILE [TARGET]" >&2; exit 2; }
name=$1 file=$2 target=${3:-README.md}
[ -r "$file" ] || { echo "readme_tables: $file: cannot read" >&2; exit 1; }
[ -r "$target" ] || { echo "readme_tables: $target: cannot read" >&2; exit 1; }
b="<!-- $name:begin -->" e="<!-- $name:end -->"
nb=$(grep -cxF "$b" "$target") ne=$(grep -cxF "$e" "$target")
[ "$nb" = 1 ] && [ "$ne" = 1 ] ||
    { echo "readme_tables: $target: expected one line '$b' and one '$e'" >&2; exit 1; }
tmp="$target.tmp.$$"
awk -v b="$b" -v e="$e" -v f="$file" '
    $0 == b { print; while ((getline l < f) > 0) print l; skip = 1; next }
    $0 == e { if (!skip) { bad = 1 } skip = 0; print; next }
    !skip { print }
    END { exit bad }' "$target" >"$tmp" ||
    { rm -f "$tmp"; echo "readme_tables: $target: '$e' comes before '$b'" >&2; exit 1; }
mv "$tmp" "$target"
