#!/bin/sh
# joint's pair_window (algorithms/joint/held/joint_pwin.c; docs/joint/speed.md
# "Speed, fourteenth wave: the free/held choice on a window", off by
# default): the choice between the free and the held search made on a
# window of the trace, then only the chosen search on the whole trace.
#   - the window is whole requests: cut at quiet points (no request open),
#     every request whose rows fall in it lies wholly inside (checked
#     against the truth, which the algorithm never sees);
#   - a trace under twice the window falls back (reason=trace_small), and
#     a window whose likelihood is close does too (reason=likelihood_close,
#     experiments/joint_slow.conf seed 2): both searches run, the result is
#     byte for byte that of pair_window=0 but for the metadata line;
#   - with call ids no choice is made: no pair_window line, same result;
#   - where the window decides and agrees with the whole trace's choice
#     (pair_window_check reports agree=1: the DeathStarBench hotel trace at
#     load 100, free, when data/ holds it), the one search gives the same
#     assignments and log-likelihood as the two.
. "$PB_ROOT/tests/sh/joint_lib.sh"
R=$PB_ROOT
body() { grep -v '^# cpu_\|^# params:\|^# program=\|^# algo=\|^# pair_window=' "$1"; }
"$B/maketrace" "$R/experiments/joint_slow.conf" -D seed=2 > "$tmp/m.csv" || fail "maketrace"
strip_callids "$tmp/m.csv" > "$tmp/s.csv"
"$B/infer" --algo joint -q -o "$tmp/r0.res" "$tmp/s.csv" 2> "$tmp/log" || fail "infer: $(cat "$tmp/log")"
grep -q '^# pair_window=' "$tmp/r0.res" && fail "pair_window=0 wrote a pair_window line"
# the window: whole requests
"$B/infer" --algo joint -q -s pair_window=100 -s pair_window_check=1 -o "$tmp/c.res" \
    "$tmp/s.csv" 2> "$tmp/log" || fail "infer check: $(cat "$tmp/log")"
line=$(grep '^# pair_window=' "$tmp/c.res") || fail "no pair_window line"
echo "joint_slow seed 2, window 100: $line"
first=$(echo "$line" | sed -n 's/.* window_first=\([0-9]*\) .*/\1/p')
nmsg=$(echo "$line" | sed -n 's/.* window_messages=\([0-9]*\) .*/\1/p')
nreq=$(echo "$line" | sed -n 's/.* window_requests=\([0-9]*\) .*/\1/p')
[ -n "$first" ] && [ "${nmsg:-0}" -gt 0 ] || fail "no window cut: $line"
awk -F, -v a="$first" -v m="$nmsg" -v want="$nreq" '/^#/ { next }
    !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
    { n++; p = $c["path"]; if (n > a && n <= a + m) in_[p]++; else out[p]++ }
    END { k = 0; for (p in in_) { k++; if (p in out) { print "request " p " cut by the window"; exit 1 } }
          if (k != want) { print k " requests in the window, metadata says " want; exit 1 } }' \
    "$tmp/m.csv" || fail "the window is not whole requests"
# pair_window_check keeps the whole trace's choice: the result of pair_window=0
body "$tmp/r0.res" > "$tmp/a"
body "$tmp/c.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "pair_window_check changed the result"
# fallbacks: a close likelihood on the window, a trace under twice the window
for w in 100 5000; do
    "$B/infer" --algo joint -q -s pair_window=$w -o "$tmp/w.res" "$tmp/s.csv" 2> /dev/null ||
        fail "infer pair_window=$w"
    l=$(grep '^# pair_window=' "$tmp/w.res")
    case $w in
    100) echo "$l" | grep -q '^# pair_window=fallback reason=likelihood_close ' ||
             fail "window 100: expected a close likelihood: $l" ;;
    5000) echo "$l" | grep -q '^# pair_window=fallback reason=trace_small ' ||
             fail "window 5000: expected trace_small: $l" ;;
    esac
    body "$tmp/w.res" > "$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" || fail "pair_window=$w (fallback) changed the result"
done
# with call ids: one search, no choice, no line, same result
"$B/infer" --algo joint -q -o "$tmp/i0.res" "$tmp/m.csv" 2> /dev/null || fail "infer ids"
"$B/infer" --algo joint -q -s pair_window=100 -o "$tmp/i1.res" "$tmp/m.csv" 2> /dev/null ||
    fail "infer ids pair_window"
grep -q '^# pair_window=' "$tmp/i1.res" && fail "a pair_window line with call ids"
body "$tmp/i0.res" > "$tmp/a"
body "$tmp/i1.res" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "pair_window changed a result with call ids"
# decided on the window and agreeing: one search, the same assignments
H="$R/data/deathstarbench-hotel/hotel_load100.tar.xz"
if [ -f "$H" ] && [ -x "$B/importtrace" ]; then
    "$B/importtrace" -q "$H" > "$tmp/h.csv" 2> /dev/null || fail "importtrace hotel"
    "$B/infer" --algo joint -q -s pair_window=200 -s pair_window_check=1 -o "$tmp/hc.res" \
        "$tmp/h.csv" 2> /dev/null || fail "infer hotel check"
    l=$(grep '^# pair_window=' "$tmp/hc.res")
    echo "hotel load 100, window 200: $l"
    echo "$l" | grep -q '^# pair_window=decided reason=window .* window_chose=free .* full=free agree=1$' ||
        fail "hotel: expected a window decided free and agreeing: $l"
    "$B/infer" --algo joint -q -s pair_window=200 -o "$tmp/h1.res" "$tmp/h.csv" 2> /dev/null ||
        fail "infer hotel pair_window"
    grep -q '^# pair_order=auto chosen=free decided_on=window ' "$tmp/h1.res" ||
        fail "hotel: not decided on the window"
    grep -v '^#' "$tmp/hc.res" > "$tmp/a"
    grep -v '^#' "$tmp/h1.res" > "$tmp/b"
    cmp -s "$tmp/a" "$tmp/b" || fail "hotel: one search gave other assignments than two"
    l0=$(sed -n 's/^# log_likelihood=//p' "$tmp/hc.res")
    l1=$(sed -n 's/^# log_likelihood=//p' "$tmp/h1.res")
    [ "$l0" = "$l1" ] || fail "hotel: log-likelihood $l1, the two searches' $l0"
else
    echo "hotel load 100 not in data/: the decided case not checked"
fi
echo "PASS"
