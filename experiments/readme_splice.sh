#!/bin/sh
# readme_splice.sh - replace the lines between "<!-- NAME:begin -->" and
# "<!-- NAME:end -->" of a Markdown file with the contents of FILE.
#
#   sh experiments/readme_splice.sh NAME FILE [TARGET]   (TARGET default README.md)
#
# The marker lines stay; everything between them is replaced.  Fails (and
# changes nothing) when the markers are missing or out of order.
set -u
[ $# -ge 2 ] || { echo "usage: readme_splice.sh NAME FILE [TARGET]" >&2; exit 2; }
name=$1; file=$2
target=${3:-$(cd "$(dirname "$0")/.." && pwd)/README.md}
[ -f "$file" ] || { echo "readme_splice: $file: no such file" >&2; exit 1; }
[ -f "$target" ] || { echo "readme_splice: $target: no such file" >&2; exit 1; }
b="<!-- $name:begin -->"; e="<!-- $name:end -->"
nb=$(grep -cxF "$b" "$target"); ne=$(grep -cxF "$e" "$target")
if [ "$nb" -ne 1 ] || [ "$ne" -ne 1 ]; then
    echo "readme_splice: $target: expected one line \"$b\" and one \"$e\"" >&2; exit 1
fi
lb=$(grep -nxF "$b" "$target" | cut -d: -f1); le=$(grep -nxF "$e" "$target" | cut -d: -f1)
[ "$lb" -lt "$le" ] || { echo "readme_splice: $target: \"$e\" before \"$b\"" >&2; exit 1; }
tmp="$target.splice.$$"
{ head -n "$lb" "$target"; cat "$file"; tail -n "+$le" "$target"; } > "$tmp" && mv "$tmp" "$target"
