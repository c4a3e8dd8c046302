#!/bin/sh
# Timestamp resolution (issue 13 item 3).  Property: a trace with
# microsecond stamps and the same trace rounded to whole milliseconds
# (skewer --round 1ms, which keeps the order of the rows) give nesting
# exact_accuracy within 2 points of each other, on three maketrace configs
# whose calls are a few ms apart (so 40-45 % of the rows tie with a
# neighbour at 1 ms).  The property fails with -s same_tick=0 (the strict
# "called earlier" of Figure 4, today's rule before this test) on at least
# one config, so it can fail.  Also: infer prints the tick in the result
# metadata and warns about the ties on stderr; skewer --round rounds down
# and keeps the row order.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
for p in maketrace infer skewer score; do [ -x "$PB_BIN/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
exact() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "exact_accuracy") c = i; next }
                   NR == 2 { print $c }' "$1"; }
within() { awk -v a="$1" -v b="$2" -v d="$3" 'BEGIN { x = a - b; if (x < 0) x = -x; exit !(x <= d) }'; }

strict_fails=0
for c in children-0-2 penalty-breaker children-d-cc; do
    "$PB_BIN/maketrace" "$PB_ROOT/maketrace/configs/$c.conf" -D instances=2 \
        -D call_delay=2ms,1ms -D ret_delay=1ms,0.5ms -D think=0..20ms -D duration=20s |
        "$PB_BIN/skewer" --round 1us >"$tmp/us.csv" 2>/dev/null || fail "$c: maketrace | skewer failed"
    "$PB_BIN/skewer" --round 1ms "$tmp/us.csv" >"$tmp/ms.csv" 2>/dev/null || fail "$c: skewer --round 1ms failed"
    # rounding keeps every row in place, and rounds down
    cut -d, -f1 "$tmp/us.csv" | grep -v '^#' >"$tmp/us.ids"
    cut -d, -f1 "$tmp/ms.csv" | grep -v '^#' | cmp -s - "$tmp/us.ids" || fail "$c: rounding moved rows"
    "$PB_BIN/infer" --algo nesting "$tmp/us.csv" >"$tmp/us.res" 2>"$tmp/us.err" || fail "$c: infer (us) failed"
    "$PB_BIN/infer" --algo nesting "$tmp/ms.csv" >"$tmp/ms.res" 2>"$tmp/ms.err" || fail "$c: infer (ms) failed"
    "$PB_BIN/infer" --algo nesting -s same_tick=0 "$tmp/ms.csv" >"$tmp/st.res" 2>/dev/null ||
        fail "$c: infer (same_tick=0) failed"
    grep -q '^# tick=1us ' "$tmp/us.res" || fail "$c: tick 1us not in the metadata"
    grep -q '^# tick=1ms ' "$tmp/ms.res" || fail "$c: tick 1ms not in the metadata"
    grep -q 'coarse_ties=1' "$tmp/ms.res" || fail "$c: ties not flagged"
    grep -q 'share their ts' "$tmp/ms.err" || fail "$c: no warning about ties on stderr"
    for r in us ms st; do
        "$PB_BIN/score" --truth "$tmp/us.csv" "$tmp/$r.res" >"$tmp/$r.score" || fail "$c: score $r failed"
    done
    a=$(exact "$tmp/us.score"); b=$(exact "$tmp/ms.score"); s=$(exact "$tmp/st.score")
    echo "# $c: exact_accuracy us $a, ms $b, ms with same_tick=0 $s"
    awk -v a="$a" 'BEGIN { exit !(a > 0.5) }' || fail "$c: accuracy $a too low to mean anything"
    within "$a" "$b" 0.02 || fail "$c: 1 ms stamps give $b, microsecond stamps $a"
    within "$a" "$s" 0.02 || strict_fails=$((strict_fails + 1))
done
[ "$strict_fails" -ge 1 ] || fail "the strict rule (same_tick=0) passes the property too: the test cannot fail"

# few ties at a fine tick: no warning
"$PB_BIN/maketrace" "$PB_ROOT/maketrace/configs/multitier.conf" -D duration=20s |
    "$PB_BIN/skewer" --round 1us >"$tmp/mt.csv" 2>/dev/null || fail "multitier trace"
"$PB_BIN/infer" --algo nesting --no-assign "$tmp/mt.csv" >"$tmp/mt.res" 2>"$tmp/mt.err" || fail "infer multitier"
grep -q 'share their ts' "$tmp/mt.err" && fail "warning about ties on a multitier trace at 1us"
grep -q 'coarse_ties=0' "$tmp/mt.res" || fail "coarse_ties not 0 on multitier at 1us"

# skewer --round: rounds down (floor), recv_ts too, and says so in the metadata
printf 'id,ts,recv_ts,src,dst,type\n1,0.0019,0.0021,A,B,call\n2,0.0019,0.0029,B,A,return\n' >"$tmp/r.csv"
"$PB_BIN/skewer" --round 1ms "$tmp/r.csv" >"$tmp/r.out" 2>/dev/null || fail "skewer --round on a small trace"
grep -q '^1,0.001000000,0.002000000,' "$tmp/r.out" || fail "round down: $(cat "$tmp/r.out")"
grep -q '^2,0.001000000,0.002000000,' "$tmp/r.out" || fail "round down (row 2)"
grep -q 'round=1ms' "$tmp/r.out" || fail "rounding not in the metadata"
# a trace already at the tick: skewer says it changed nothing
"$PB_BIN/skewer" --round 1ms "$tmp/r.out" >/dev/null 2>"$tmp/r.err" || fail "skewer on a rounded trace"
grep -q 'changed no timestamp' "$tmp/r.err" || fail "no 'changed nothing' note"
exit 0
