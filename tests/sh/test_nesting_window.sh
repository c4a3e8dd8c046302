#!/bin/sh
# Sliding-window nesting (-s window=...) equals whole-trace nesting, pattern
# table and assignment byte for byte, on every shipped maketrace config when
# the window is longer than the longest call (and the trace spans several
# windows); with a window shorter than some calls it says so on stderr.
# Metadata lines (# ...) differ by design (cpu_ times, params, counters).
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
for p in maketrace infer; do [ -x "$PB_BIN/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
body() { grep -v '^#' "$1"; }
n=0
for conf in "$PB_ROOT"/maketrace/configs/*.conf; do
    name=$(basename "$conf" .conf)
    "$PB_BIN/maketrace" "$conf" -D duration=30s >"$tmp/t.csv" 2>/dev/null ||
        fail "$name: maketrace failed"
    # the longest call (ts in seconds; pairs by sender, receiver, callid)
    maxc=$(awk -F, '/^#/ || $1 == "id" { next }
        $6 == "call" { c[$4 SUBSEP $5 SUBSEP $7] = $2 }
        $6 == "return" { k = $5 SUBSEP $4 SUBSEP $7
                         if (k in c) { d = $2 - c[k]; if (d > m) m = d; delete c[k] } }
        END { printf "%d\n", m * 1000 + 1 }' "$tmp/t.csv")
    w=$((maxc * 2 + 10))
    if ! "$PB_BIN/infer" --algo nesting "$tmp/t.csv" >"$tmp/a.res" 2>"$tmp/a.err"; then
        # no RPCs (or no rows in 30 s): both modes must refuse it alike
        grep -Eq 'no call or return|no messages' "$tmp/a.err" ||
            fail "$name: infer failed: $(cat "$tmp/a.err")"
        "$PB_BIN/infer" --algo nesting -s window=1s "$tmp/t.csv" >/dev/null 2>"$tmp/b.err" &&
            fail "$name: window mode accepted what whole-trace nesting refused"
        [ "$(cat "$tmp/a.err")" = "$(cat "$tmp/b.err")" ] ||
            fail "$name: different errors: $(cat "$tmp/a.err") / $(cat "$tmp/b.err")"
        echo "skip $name (refused by both: $(cat "$tmp/a.err"))"
        continue
    fi
    "$PB_BIN/infer" --algo nesting -s window=${w}ms "$tmp/t.csv" >"$tmp/b.res" 2>"$tmp/b.err" ||
        fail "$name: infer -s window=${w}ms failed: $(cat "$tmp/b.err")"
    nw=$(sed -n 's/^# windows=//p' "$tmp/b.res")
    [ "${nw:-0}" -ge 3 ] || { echo "skip $name (calls up to ${maxc} ms: the 30 s trace spans ${nw:-0} windows)"; continue; }
    body "$tmp/a.res" >"$tmp/a.txt"
    body "$tmp/b.res" >"$tmp/b.txt"
    [ "$(grep -c . "$tmp/a.txt")" -gt 3 ] || fail "$name: whole-trace result is empty"
    diff "$tmp/a.txt" "$tmp/b.txt" >"$tmp/d" ||
        { head -10 "$tmp/d"; fail "$name: window=${w}ms (longest call ${maxc} ms, $nw windows) differs from whole-trace nesting"; }
    grep -q 'lasted longer than the window' "$tmp/b.err" &&
        fail "$name: window=${w}ms warns about long calls"
    echo "ok $name: window=${w}ms, $nw windows, $(wc -l <"$tmp/a.txt") lines equal"
    n=$((n + 1))
done
[ "$n" -ge 10 ] || fail "only $n configs compared"
# the same through stdin (copied to a temporary file for the second pass)
# and in memory (--sort loads the trace whole); per-window counts add up
# to the paths, and every window start is a multiple of the window
"$PB_BIN/maketrace" "$PB_ROOT/maketrace/configs/multitier.conf" -D duration=20s >"$tmp/t.csv"
"$PB_BIN/infer" --algo nesting "$tmp/t.csv" | grep -v '^#' >"$tmp/a.txt"
"$PB_BIN/infer" --algo nesting -s window=1s <"$tmp/t.csv" | grep -v '^#' >"$tmp/b.txt" ||
    fail "stdin run failed"
cmp -s "$tmp/a.txt" "$tmp/b.txt" || fail "stdin window run differs"
"$PB_BIN/infer" --algo nesting -s window=1s --sort --per-window "$tmp/pw.csv" "$tmp/t.csv" >"$tmp/c.res" ||
    fail "in-memory run failed"
grep -v '^#' "$tmp/c.res" | cmp -s "$tmp/a.txt" - || fail "in-memory window run differs"
paths=$(sed -n 's/^# paths=//p' "$tmp/c.res")
sum=$(awk -F, 'NR > 1 { s += $NF; if ($1 != int($1)) bad = 1 } END { print bad ? -1 : s }' "$tmp/pw.csv")
[ "$sum" = "$paths" ] || fail "per-window counts add up to $sum, not $paths paths"
[ "$(cut -d, -f1 "$tmp/pw.csv" | sort -u | wc -l)" -ge 15 ] || fail "too few windows in --per-window"
"$PB_BIN/infer" --algo nesting --per-window "$tmp/x.csv" "$tmp/t.csv" >/dev/null 2>&1 &&
    fail "--per-window accepted without a window"
# a window shorter than the longest calls must say so (and may differ)
"$PB_BIN/maketrace" "$PB_ROOT/maketrace/configs/multitier.conf" -D duration=10s >"$tmp/t.csv"
"$PB_BIN/infer" --algo nesting -s window=100ms --no-assign "$tmp/t.csv" >"$tmp/b.res" 2>"$tmp/b.err" ||
    fail "window=100ms failed"
grep -q 'calls lasted longer than the window' "$tmp/b.err" || fail "no stderr note on long calls"
# by hand: timestamps near the reader's limit (no overflow), a 1.3 s call
# under a 1 s window (paired through the look-ahead, and said on stderr)
printf 'id,ts,src,dst,type,callid\n1,9199999998.5,A,B,call,1\n2,9199999998.6,B,C,call,2\n3,9199999998.7,C,B,return,2\n4,9199999999.8,B,A,return,1\n5,9199999999.85,A,B,call,3\n6,9199999999.854,B,A,return,3\n' >"$tmp/h.csv"
"$PB_BIN/infer" --algo nesting -s window=1s "$tmp/h.csv" >"$tmp/h.res" 2>"$tmp/h.err" || fail "hand trace failed"
grep -q '^2,"A>B\[C\]",1,' "$tmp/h.res" || fail "hand trace: A>B[C] not found: $(cat "$tmp/h.res")"
grep -q '^# windows=2$' "$tmp/h.res" || fail "hand trace: expected 2 windows"
grep -q '1 calls lasted longer than the window' "$tmp/h.err" || fail "hand trace: no note on the 1.3 s call"
# skew windows are refused, clearly
"$PB_BIN/infer" --algo nesting -s window=1s -s skew_window=1ms "$tmp/t.csv" >/dev/null 2>"$tmp/e" &&
    fail "window with skew_window accepted"
grep -q 'needs skew_window=0' "$tmp/e" || fail "unclear error: $(cat "$tmp/e")"
echo "PASS: $n configs"
