#!/bin/sh
# Sliding-window nesting (-s window=...) equals whole-trace nesting, pattern
# table, assignment and metadata counters (mean_parallelism, tick, ...) byte
# for byte, on every shipped maketrace config, with call ids and without
# (callids=0, FIFO pairing), when the window is longer than the longest call
# pair (and the trace spans several windows); with a window shorter than
# some calls it says so on stderr.  Only the header lines (params, cpu_
# times, trace name) and the window's own counters (windows=,
# window_buffer_peak=, expired_calls=) differ.  Also: duplicate ids within
# two windows, the coarse tick, the temporary file of stdin.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
for p in maketrace infer; do [ -x "$PB_BIN/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
body() { grep -v '^#' "$1"; }
# the metadata both modes share: all but the 4 header lines and the window's
meta() { grep '^#' "$1" | sed 1,4d | grep -Ev '^# (windows|window_buffer_peak|expired_calls)='; }
n=0
for conf in "$PB_ROOT"/maketrace/configs/*.conf; do
    name=$(basename "$conf" .conf)
    "$PB_BIN/maketrace" "$conf" -D duration=30s >"$tmp/t.csv" 2>/dev/null ||
        fail "$name: maketrace failed"
    # the longest call pair in ms (ts in seconds), paired as nesting pairs:
    # by sender, receiver and callid, and (callids=0) FIFO by sender and
    # receiver; the window must be longer than both
    maxc=$(awk -F, '/^#/ || $1 == "id" { next }
        $6 == "call" { c[$4 SUBSEP $5 SUBSEP $7] = $2
                       k = $4 SUBSEP $5; q[k, t[k]++] = $2 }
        $6 == "return" { k = $5 SUBSEP $4 SUBSEP $7
                         if (k in c) { d = $2 - c[k]; if (d > m) m = d; delete c[k] }
                         k = $5 SUBSEP $4
                         if (h[k] < t[k]) { d = $2 - q[k, h[k]]; delete q[k, h[k]++]; if (d > m) m = d } }
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
    meta "$tmp/a.res" >"$tmp/am.txt"
    meta "$tmp/b.res" >"$tmp/bm.txt"
    grep -q '^# mean_parallelism=' "$tmp/bm.txt" && grep -q '^# tick=' "$tmp/bm.txt" ||
        fail "$name: window metadata lacks mean_parallelism or tick"
    diff "$tmp/am.txt" "$tmp/bm.txt" >"$tmp/d" ||
        { cat "$tmp/d"; fail "$name: window=${w}ms: metadata differs from whole-trace nesting"; }
    # without call ids: FIFO pairing over the whole stream, so the same
    "$PB_BIN/infer" --algo nesting -s callids=0 "$tmp/t.csv" >"$tmp/a0.res" 2>/dev/null ||
        fail "$name: infer -s callids=0 failed"
    "$PB_BIN/infer" --algo nesting -s callids=0 -s window=${w}ms "$tmp/t.csv" >"$tmp/b0.res" 2>"$tmp/b0.err" ||
        fail "$name: infer -s callids=0 -s window=${w}ms failed: $(cat "$tmp/b0.err")"
    body "$tmp/a0.res" >"$tmp/a.txt"
    body "$tmp/b0.res" >"$tmp/b.txt"
    diff "$tmp/a.txt" "$tmp/b.txt" >"$tmp/d" ||
        { head -10 "$tmp/d"; fail "$name: callids=0 window=${w}ms differs from whole-trace nesting"; }
    meta "$tmp/a0.res" >"$tmp/am.txt"
    meta "$tmp/b0.res" >"$tmp/bm.txt"
    diff "$tmp/am.txt" "$tmp/bm.txt" >"$tmp/d" ||
        { cat "$tmp/d"; fail "$name: callids=0 window=${w}ms: metadata differs"; }
    r0=$(sed -n 's/^# repeated_key_matches=//p' "$tmp/b0.res")
    echo "ok $name: window=${w}ms, $nw windows, $(wc -l <"$tmp/a.txt") lines and the counters equal (also callids=0: $r0 FIFO guesses)"
    n=$((n + 1))
done
[ "$n" -ge 10 ] || fail "only $n configs compared"
# the same through stdin (read once, spooled for the second pass)
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
# a window shorter than the calls, without call ids: FIFO pairing is done
# once for the stream, so it cannot differ from window to window; only
# calls longer than the window are reported (no other warning)
"$PB_BIN/infer" --algo nesting -s callids=0 -s window=300ms --no-assign "$tmp/t.csv" >"$tmp/b.res" 2>"$tmp/b.err" ||
    fail "callids=0 window=300ms failed"
grep -v 'calls lasted longer than the window\|found no open call' "$tmp/b.err" | grep . &&
    fail "callids=0 window=300ms: unexpected warning"

# a call whose return was lost: whole-trace FIFO (callids=0) pairs it with
# the next return of its key, 5 s later; the window drops it after two
# windows (memory follows the window), counts it and says so
printf 'id,ts,src,dst,type,callid\n1,0.0,A,B,call,1\n2,5.0,A,B,call,2\n3,5.1,B,A,return,2\n' >"$tmp/x.csv"
"$PB_BIN/infer" --algo nesting -s callids=0 "$tmp/x.csv" 2>/dev/null | grep -q '^1,"A>B",1,1,1,5.1,' ||
    fail "expiry: whole-trace FIFO should pair the 5.1 s call"
"$PB_BIN/infer" --algo nesting -s callids=0 -s window=1s "$tmp/x.csv" >"$tmp/x.res" 2>"$tmp/e" || fail "expiry run failed"
grep -q '^1,"A>B",1,1,1,0.1,' "$tmp/x.res" || fail "expiry: expected the 0.1 s pair: $(grep -v '^#' "$tmp/x.res")"
grep -q '^# expired_calls=1$' "$tmp/x.res" || fail "expiry: expired_calls=1 expected"
grep -q '1 calls had no return within two windows' "$tmp/e" || fail "expiry: no stderr note: $(cat "$tmp/e")"

# coarse timestamps (1 ms, many ties, same-tick candidates): the tick line
# and the counters measured while streaming equal the whole trace's
"$PB_BIN/maketrace" "$PB_ROOT/maketrace/configs/children-0-2.conf" -D duration=20s -D instances=2 \
    -D call_delay=2ms,1ms -D ret_delay=1ms,0.5ms -D think=0..20ms >"$tmp/f.csv" 2>/dev/null &&
"$PB_BIN/skewer" --round 1ms "$tmp/f.csv" >"$tmp/c.csv" || fail "coarse trace not made"
"$PB_BIN/infer" --algo nesting "$tmp/c.csv" >"$tmp/a.res" 2>"$tmp/a.err" || fail "coarse whole run failed"
"$PB_BIN/infer" --algo nesting -s window=1s <"$tmp/c.csv" >"$tmp/b.res" 2>"$tmp/b.err" || fail "coarse window run failed"
grep -q '^# tick=1ms tied_ts=[1-9]' "$tmp/b.res" || fail "coarse: no 1 ms tick with ties: $(grep tick= "$tmp/b.res")"
grep -q '^# same_tick_candidates=[1-9]' "$tmp/b.res" || fail "coarse: no same-tick candidates counted"
meta "$tmp/a.res" >"$tmp/am.txt"
meta "$tmp/b.res" >"$tmp/bm.txt"
diff "$tmp/am.txt" "$tmp/bm.txt" || fail "coarse: metadata differs"
body "$tmp/a.res" >"$tmp/a.txt"
body "$tmp/b.res" | cmp -s - "$tmp/a.txt" || fail "coarse: result differs"
grep -q 'share their ts' "$tmp/b.err" || fail "coarse: no tick warning on stderr in window mode"

# duplicate message ids while streaming: caught (both lines named) when the
# two rows are in the same or the previous window; two windows apart they
# are not (memory bounded by the window: docs/nesting.md)
printf 'id,ts,src,dst,type,callid\n1,1.0,A,B,call,1\n2,1.1,B,A,return,1\n3,1.5,A,B,call,2\n1,1.6,B,A,return,2\n' >"$tmp/d1.csv"
"$PB_BIN/infer" --algo nesting -s window=1s "$tmp/d1.csv" >/dev/null 2>"$tmp/e" && fail "duplicate id in one window accepted"
grep -q 'd1.csv:5: duplicate message id 1 (first on line 2)' "$tmp/e" || fail "duplicate id: unclear error: $(cat "$tmp/e")"
"$PB_BIN/infer" --algo nesting -s window=1s <"$tmp/d1.csv" >/dev/null 2>"$tmp/e" && fail "duplicate id accepted on stdin"
grep -q 'line 2' "$tmp/e" || fail "duplicate id on stdin: $(cat "$tmp/e")"
printf 'id,ts,src,dst,type,callid\n7,1.0,A,B,call,1\n2,1.1,B,A,return,1\n3,2.5,A,B,call,2\n7,2.6,B,A,return,2\n' >"$tmp/d2.csv"
"$PB_BIN/infer" --algo nesting -s window=1s "$tmp/d2.csv" >/dev/null 2>"$tmp/e" && fail "duplicate id one window on accepted"
grep -q 'duplicate message id 7 (first on line 2)' "$tmp/e" || fail "duplicate id in the previous window: $(cat "$tmp/e")"
printf 'id,ts,src,dst,type,callid\n7,1.0,A,B,call,1\n2,1.1,B,A,return,1\n3,3.5,A,B,call,2\n7,3.6,B,A,return,2\n' >"$tmp/d3.csv"
"$PB_BIN/infer" --algo nesting -s window=1s "$tmp/d3.csv" >/dev/null 2>&1 ||
    fail "ids two windows apart: expected not caught (as documented)"
"$PB_BIN/infer" --algo nesting "$tmp/d3.csv" >/dev/null 2>&1 && fail "whole-trace nesting accepted a duplicate id"
# ids that do not grow (every row looked up in the hash sets of two 10 s
# windows, thousands of rows each): no false alarm, and a duplicate
# 40 rows back is caught
awk -F, -v OFS=, '/^#/ || $1 == "id" { print; next } { $1 = 9000000 - $1; print }' "$tmp/t.csv" >"$tmp/r.csv"
"$PB_BIN/infer" --algo nesting -s window=10s --no-assign "$tmp/r.csv" >/dev/null 2>"$tmp/e" ||
    fail "decreasing ids: $(cat "$tmp/e")"
awk -F, -v OFS=, '/^#/ || $1 == "id" { print; next } { n++; id[n] = $1; if (n == 3000) $1 = id[n - 40]; print }' "$tmp/r.csv" >"$tmp/r2.csv"
"$PB_BIN/infer" --algo nesting -s window=10s --no-assign "$tmp/r2.csv" >/dev/null 2>"$tmp/e" &&
    fail "decreasing ids: duplicate 40 rows back accepted"
grep -q 'duplicate message id' "$tmp/e" || fail "decreasing ids: unclear error $(cat "$tmp/e")"

# stdin is read once: the parsed rows go to a file in TMPDIR that is
# unlinked at once (nothing left there during the run, after it, or after
# an error); a TMPDIR that does not exist is a clear error
mkdir "$tmp/td"
(cat "$tmp/t.csv"; sleep 1) | TMPDIR="$tmp/td" "$PB_BIN/infer" --algo nesting -s window=1s >"$tmp/s.res" 2>"$tmp/e" &
sleep 0.5
[ -z "$(ls -A "$tmp/td")" ] || fail "a temporary file is visible in TMPDIR during the run: $(ls "$tmp/td")"
wait $! || fail "stdin run with TMPDIR failed: $(cat "$tmp/e")"
grep -q '^# end patterns' "$tmp/s.res" || fail "stdin run with TMPDIR: incomplete result"
TMPDIR="$tmp/td" "$PB_BIN/infer" --algo nesting -s window=1s <"$tmp/d1.csv" >/dev/null 2>&1 && fail "duplicate accepted"
[ -z "$(ls -A "$tmp/td")" ] || fail "temporary files left in TMPDIR: $(ls "$tmp/td")"
TMPDIR="$tmp/nowhere" "$PB_BIN/infer" --algo nesting -s window=1s <"$tmp/t.csv" >/dev/null 2>"$tmp/e" &&
    fail "missing TMPDIR accepted"
grep -q 'TMPDIR' "$tmp/e" || fail "missing TMPDIR: unclear error: $(cat "$tmp/e")"

# skew windows are refused, clearly
"$PB_BIN/infer" --algo nesting -s window=1s -s skew_window=1ms "$tmp/t.csv" >/dev/null 2>"$tmp/e" &&
    fail "window with skew_window accepted"
grep -q 'needs skew_window=0' "$tmp/e" || fail "unclear error: $(cat "$tmp/e")"
echo "PASS: $n configs"
