#!/bin/sh
# The thread column derived from the truth (experiments/thread_from_truth.awk)
# names, for every message, the visit that handled it; vpath's clean
# variant, which gives every call to the request its thread serves, then
# rebuilds every request exactly, on the hotel-like config (sequential and
# parallel calls, about 100 requests/s) and on the multi-tier config
# (load-balanced, several callers).  The artifact's variant (one register)
# does worse where requests overlap, and without the column vpath guesses.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
for p in maketrace infer score; do [ -x "$PB_BIN/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
field() { awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++) if($i==n) c=i} NR==2{print $c}' "$2"; }
C="$PB_ROOT/maketrace/configs"
"$PB_BIN/maketrace" "$C/hotel.conf" -D duration=20s -D instances=22 -D parallel=1 > "$tmp/h.csv" || fail maketrace
"$PB_BIN/maketrace" "$C/multitier.conf" -D duration=40s > "$tmp/m.csv" || fail maketrace
for t in h m; do
    awk -F, -f "$PB_ROOT/experiments/thread_from_truth.awk" "$tmp/$t.csv" > "$tmp/$t.t.csv" || fail "awk $t"
    head -n 5 "$tmp/$t.t.csv" | grep -q '^id,.*,thread$' || fail "$t: no thread column"
    "$PB_BIN/infer" --algo vpath -s variant=clean -o "$tmp/c.res" "$tmp/$t.t.csv" || fail "vpath clean $t"
    "$PB_BIN/score" --truth "$tmp/$t.csv" "$tmp/c.res" > "$tmp/c.score" || fail "score $t"
    [ "$(field exact_accuracy "$tmp/c.score")" = 1 ] || fail "$t: vpath clean with threads not exact: $(field exact_accuracy "$tmp/c.score")"
done
"$PB_BIN/infer" --algo vpath -o "$tmp/a.res" "$tmp/h.t.csv" 2> "$tmp/a.err" || fail "vpath"
"$PB_BIN/score" --truth "$tmp/h.csv" "$tmp/a.res" > "$tmp/a.score" || fail "score"
a=$(field exact_accuracy "$tmp/a.score")
awk -v a="$a" 'BEGIN { exit !(a > 0.2 && a < 0.99) }' || fail "vpath (artifact) exact $a: expected between 0.2 and 0.99"
[ -s "$tmp/a.err" ] && { cat "$tmp/a.err"; fail "vpath with threads warned"; }
"$PB_BIN/infer" --algo vpath -o "$tmp/n.res" "$tmp/h.csv" 2> "$tmp/n.err" || fail "vpath without threads"
grep -q 'no thread column' "$tmp/n.err" || fail "no fallback warning"
# the perturbers carry the column through (and ids with it)
"$PB_BIN/skewer" -n 'search=+1ms' "$tmp/h.t.csv" 2>/dev/null | "$PB_BIN/sniffer" --quiet --loss 0.001 > "$tmp/p.csv" ||
    fail "skewer | sniffer"
grep -v '^#' "$tmp/p.csv" | head -n 1 | grep -q ',thread$' || fail "thread column lost by skewer/sniffer"
[ "$(grep -v '^#' "$tmp/p.csv" | awk -F, 'NR > 1 && $NF != ""' | wc -l)" -gt 1000 ] || fail "thread labels lost"
"$PB_BIN/infer" --algo vpath -s variant=clean -o "$tmp/p.res" "$tmp/p.csv" 2>/dev/null || fail "vpath on perturbed"
# one node's clock does not matter to vpath; losing 0.1 % of the messages
# loses about 1 % of the requests
"$PB_BIN/score" --truth "$tmp/h.csv" "$tmp/p.res" > "$tmp/p.score" || fail "score perturbed"
a=$(field set_accuracy "$tmp/p.score")
awk -v a="$a" 'BEGIN { exit !(a > 0.95 && a < 1) }' || fail "vpath clean after skew and 0.1 % loss: set_accuracy $a"
exit 0
