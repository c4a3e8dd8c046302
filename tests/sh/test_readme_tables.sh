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

# --from-table, --check, --readme (make readme: the figures table)
cd "$tmp" || exit 1

printf '# T\n\nbefore\n<!-- figures:begin -->\nold stuff\n<!-- figures:end -->\nmiddle\n<!-- other:begin -->\nkeep\n<!-- other:end -->\nafter\n' > R.md
cat > report.md <<'EOR'
# report

| figure | verdicts |
|---|---|
| 17 | nesting: agrees |
| 21 | linking: differs (fails at every point) |

| other | table |
|---|---|
| x | y |
EOR
sh "$PB_ROOT/scripts/readme_tables.sh" --readme R.md --check --from-table '| figure |' figures report.md 2>err && fail "--check passes a stale table"
cmp -s R.md R.orig 2>/dev/null
cp R.md R.before
sh "$PB_ROOT/scripts/readme_tables.sh" --readme R.md --from-table '| figure |' figures report.md 2>err || fail "splice: $(cat err)"
grep -q '^| 21 | linking: differs (fails at every point) |$' R.md || fail "table not spliced: $(cat R.md)"
grep -q 'old stuff' R.md && fail "old table kept"
grep -q '| x | y |' R.md && fail "the second table of the report was copied too"
# everything outside the markers is untouched
grep -v -e '^|' R.md > a; grep -v -e 'old stuff' R.before > b
cmp -s a b || fail "text outside the markers changed: $(diff a b)"
# idempotent, and --check now passes
cp R.md R.once
sh "$PB_ROOT/scripts/readme_tables.sh" --readme R.md --from-table '| figure |' figures report.md 2>/dev/null || fail "second splice"
cmp -s R.md R.once || fail "not idempotent"
sh "$PB_ROOT/scripts/readme_tables.sh" --readme R.md --check --from-table '| figure |' figures report.md || fail "--check fails on an up-to-date table"
# a whole file, into another marker pair
printf '| a | b |\n|---|---|\n| 1 | 2 |\n' > rt.md
sh "$PB_ROOT/scripts/readme_tables.sh" --readme R.md other rt.md 2>/dev/null || fail "whole-file splice"
grep -q '^| 1 | 2 |$' R.md && ! grep -q '^keep$' R.md || fail "other table: $(cat R.md)"
grep -q '^| 21 |' R.md || fail "splicing one table disturbed another"
# errors
sh "$PB_ROOT/scripts/readme_tables.sh" --readme R.md nosuch rt.md 2>err; [ $? -eq 1 ] || fail "missing markers: exit not 1"
grep -q 'nosuch:begin' err || fail "missing markers message: $(cat err)"
sh "$PB_ROOT/scripts/readme_tables.sh" --readme R.md --from-table '| nope |' figures report.md 2>err; [ $? -eq 1 ] || fail "no such table: exit not 1"
sh "$PB_ROOT/scripts/readme_tables.sh" --readme R.md figures 2>/dev/null; [ $? -eq 2 ] || fail "one argument: exit not 2"
printf '<!-- x:begin -->\n<!-- x:begin -->\n<!-- x:end -->\n' > D.md
sh "$PB_ROOT/scripts/readme_tables.sh" --readme D.md x rt.md 2>/dev/null && fail "doubled marker accepted"
# --keep-rows (make readme): a row this run did not make keeps its last
# verdict; the rows it did make are replaced; without it the old row goes
printf 'x\n<!-- figures:begin -->\n| figure | verdicts |\n|---|---|\n| 17 | old |\n| joint_robust | agrees |\n<!-- figures:end -->\ny\n' > K.md
printf '| figure | verdicts |\n|---|---|\n| 17 | new |\n| 19 | new |\n' > new.md
cp K.md K2.md
sh "$PB_ROOT/scripts/readme_tables.sh" --keep-rows --readme K.md figures new.md 2>/dev/null || fail "--keep-rows failed"
[ "$(grep '^|' K.md | tr '\n' '/')" = "| figure | verdicts |/|---|---|/| 17 | new |/| 19 | new |/| joint_robust | agrees |/" ] ||
    fail "--keep-rows: $(cat K.md)"
sh "$PB_ROOT/scripts/readme_tables.sh" --readme K2.md figures new.md 2>/dev/null || fail "replace failed"
grep -q joint_robust K2.md && fail "without --keep-rows the old row stays"
# the README has the figures markers make readme fills
cd "$PB_ROOT" || exit 1
grep -qx '<!-- figures:begin -->' README.md && grep -qx '<!-- figures:end -->' README.md ||
    fail "README.md lacks the figures markers"
cd "$PB_ROOT" || exit 1
exit 0
