#!/bin/sh
# scripts/readme_tables.sh: splices a generated table between its markers
# (make bench rewrites the README's speed table with it) and refuses files
# without exactly one pair of markers in order.
set -u
: "${PB_ROOT:?}"
cd "$PB_ROOT" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
printf 'intro\n<!-- speed:begin -->\nold 1\nold 2\n<!-- speed:end -->\nafter\n' >"$tmp/R.md"
printf '| a | b |\n|---|---|\n| 1 | 2 |\n' >"$tmp/t.md"
sh scripts/readme_tables.sh speed "$tmp/t.md" "$tmp/R.md" || fail "splice failed"
printf 'intro\n<!-- speed:begin -->\n| a | b |\n|---|---|\n| 1 | 2 |\n<!-- speed:end -->\nafter\n' | cmp -s - "$tmp/R.md" ||
    { cat "$tmp/R.md"; fail "wrong splice"; }
# again: idempotent
sh scripts/readme_tables.sh speed "$tmp/t.md" "$tmp/R.md" || fail "second splice failed"
[ "$(grep -c '^| 1 | 2 |$' "$tmp/R.md")" = 1 ] || fail "second splice duplicated the table"
# other names untouched, missing or reversed markers refused
sh scripts/readme_tables.sh figures "$tmp/t.md" "$tmp/R.md" 2>/dev/null && fail "missing markers accepted"
printf '<!-- speed:end -->\nx\n<!-- speed:begin -->\n' >"$tmp/B.md"
cp "$tmp/B.md" "$tmp/B0.md"
sh scripts/readme_tables.sh speed "$tmp/t.md" "$tmp/B.md" 2>/dev/null && fail "reversed markers accepted"
cmp -s "$tmp/B.md" "$tmp/B0.md" || fail "a refused file was changed"
# the README has its speed markers
[ "$(grep -c '^<!-- speed:begin -->$' README.md)" = 1 ] && [ "$(grep -c '^<!-- speed:end -->$' README.md)" = 1 ] ||
    fail "README.md lacks the speed markers"
echo PASS
