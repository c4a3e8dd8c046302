#!/bin/sh
# Properties of the nesting algorithm on an overlapping multi-tier trace:
# stripping the truth columns, renaming every node, and adding unmatched
# noise messages (calls that never return, returns without a call) leave
# the pattern table unchanged; the noise is counted.  Also: the dot and
# report files are written, --rank-by latency ranks by total latency, and
# bad parameters or a trace without call/return marks get a clear error.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
for p in maketrace infer; do [ -x "$PB_BIN/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
table() { awk '/^# table=/ { p = ($0 == "# table=patterns"); next } p' "$1"; }

"$PB_BIN/maketrace" "$PB_ROOT/maketrace/configs/multitier.conf" -D duration=40s >"$tmp/t.csv" ||
    fail "maketrace failed"
"$PB_BIN/infer" --algo nesting --no-assign "$tmp/t.csv" >"$tmp/base.res" || fail "infer failed"
table "$tmp/base.res" >"$tmp/base.tab"
[ "$(wc -l <"$tmp/base.tab")" -gt 5 ] || fail "too few patterns"
# the trace is no trivial case: calls overlap
awk -F= '/^# mean_parallelism=/ { exit !($2 > 1.5) }' "$tmp/base.res" || fail "mean parallelism too low"

# 1. without the truth columns (and with the columns in another order)
awk -F, 'BEGIN { OFS = "," }
    /^#/ { print; next }
    !h { for (i = 1; i <= NF; i++) col[$i] = i; h = 1; print "type,dst,src,callid,ts,id"; next }
    { print $col["type"], $col["dst"], $col["src"], $col["callid"], $col["ts"], $col["id"] }' \
    "$tmp/t.csv" >"$tmp/strip.csv"
grep -q path "$tmp/strip.csv" && fail "truth columns not stripped"
"$PB_BIN/infer" --algo nesting --no-assign "$tmp/strip.csv" >"$tmp/strip.res" || fail "infer (stripped) failed"
table "$tmp/strip.res" | cmp -s - "$tmp/base.tab" || fail "stripping truth changed the patterns"

# 2. every node renamed (prefix kept order-preserving so canonical text
# maps back by deleting it; the unit test renames out of order)
awk -F, 'BEGIN { OFS = "," } /^#/ { print; next }
    !h { h = 1; print; next } { $2 = "n_" $2; $3 = "n_" $3; print }' \
    "$tmp/strip.csv" >"$tmp/ren.csv"
"$PB_BIN/infer" --algo nesting --no-assign "$tmp/ren.csv" >"$tmp/ren.res" || fail "infer (renamed) failed"
table "$tmp/ren.res" | sed 's/n_\([A-Z]\)/\1/g' | cmp -s - "$tmp/base.tab" || fail "renaming changed the patterns"

# 3. noise: before every 37th message an unmatched call or return between
# the same nodes, with a call id nobody else uses
awk -F, 'BEGIN { OFS = "," } /^#/ { print; next }
    !h { h = 1; print; next }
    { k++
      if (k % 37 == 0) { nz++; print ($1 == "call" ? "return" : "call"), $2, $3, "noise" nz, $5, 900000000 + nz }
      print }
    END { print nz > "/dev/stderr" }' "$tmp/strip.csv" >"$tmp/noise.csv" 2>"$tmp/nz"
"$PB_BIN/infer" --algo nesting --no-assign "$tmp/noise.csv" >"$tmp/noise.res" || fail "infer (noise) failed"
table "$tmp/noise.res" | cmp -s - "$tmp/base.tab" || fail "noise changed the patterns"
nz=$(cat "$tmp/nz")
um=$(awk -F= '/^# unmatched_(calls|returns)=/ { s += $2 } END { print s + 0 }' "$tmp/noise.res")
[ "$um" -eq "$nz" ] || fail "unmatched count $um, expected $nz noise messages"

# 4. dot, report, ranking by total latency
"$PB_BIN/infer" --algo nesting --dot "$tmp/g.dot" --report "$tmp/r.txt" --rank-by latency \
    -s top=3 "$tmp/t.csv" >"$tmp/lat.res" || fail "infer --dot failed"
grep -q '^digraph nesting {' "$tmp/g.dot" || fail "no digraph"
[ "$(grep -c 'subgraph cluster_' "$tmp/g.dot")" -eq 3 ] || fail "top=3 should draw 3 patterns"
grep -q 'label="count [0-9]*\\ntotal ' "$tmp/g.dot" || fail "first edge lacks count and total latency"
grep -q '^#1 ' "$tmp/r.txt" || fail "no report"
table "$tmp/lat.res" | awk -F, 'NR > 1 { if (NR > 2 && $(NF - 3) > prev + 1e-9) bad = 1; prev = $(NF - 3) } END { exit bad + 0 }' ||
    fail "--rank-by latency: not sorted by total latency"

# 5. errors
"$PB_BIN/infer" --algo nesting -s hist_base=1 "$tmp/t.csv" >/dev/null 2>"$tmp/e1" && fail "hist_base=1 accepted"
grep -q hist_base "$tmp/e1" || fail "hist_base error does not name the option"
"$PB_BIN/infer" --algo nesting -s x=-1 "$tmp/t.csv" >/dev/null 2>&1 && fail "x=-1 accepted"
awk -F, 'BEGIN { OFS = "," } /^#/ { next } !h { h = 1; print "ts,src,dst"; next } { print $5, $3, $2 }' \
    "$tmp/strip.csv" >"$tmp/msgs.csv"
"$PB_BIN/infer" --algo nesting "$tmp/msgs.csv" >/dev/null 2>"$tmp/e2" && fail "trace without types accepted"
grep -q 'call/return' "$tmp/e2" || { cat "$tmp/e2"; fail "no clear error for a trace without types"; }

# 6. the Project 5 whitespace format (6.5), Figure 3 by hand: B's own time
# 10 - 2 - 2 = 6, call delays 2 and 6
printf '1 CALL_SENT A B 1\n3 CALL_SENT B C 2\n5 RET_SENT C B 2\n7 CALL_SENT B D 3\n9 RET_SENT D B 3\n11 RET_SENT B A 1\n' >"$tmp/f3.p5"
"$PB_BIN/infer" --algo nesting "$tmp/f3.p5" >"$tmp/f3.res" || fail "infer on P5 format failed"
table "$tmp/f3.res" | sed -n 2p | grep -qx '1,"A>B\[C,D\]",1,1,1,10,10,;6;2;2,;;2;6' ||
    { table "$tmp/f3.res"; fail "Figure 3 row wrong"; }
exit 0
