#!/bin/sh
# With one path in flight at a time, the nesting algorithm recovers every
# path exactly on every shipped maketrace config: its pattern table (counts,
# per-node latencies and call delays) equals the truth oracle's, and score
# finds every instance reconstructed exactly.  Configs with one-way messages
# (`send`) or explicit interleavings are left out: nesting sees only RPCs;
# so are configs marked "# ambiguous alone:" (one path's parallel calls to
# one node, each with nested calls).
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
for p in maketrace infer; do [ -x "$PB_BIN/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
table() { awk '/^# table=/ { p = ($0 == "# table=patterns"); next } p' "$1"; }
n=0
for conf in "$PB_ROOT"/maketrace/configs/*.conf; do
    name=$(basename "$conf" .conf)
    if grep -Eq '^[[:space:]]*(send[[:space:]]|.*[[:space:]]interleave([[:space:]]|$))' "$conf" ||
       grep -Eq '[{;][[:space:]]*send[[:space:]]' "$conf"; then
        echo "skip $name (one-way messages or interleavings)"
        continue
    fi
    # a config whose one path calls one node several times at once, with
    # nested calls under each, is ambiguous for nesting even alone (which
    # of the overlapping visits made a nested call?); it says so in a line
    # "# ambiguous alone: REASON"
    if grep -q '^# ambiguous alone:' "$conf"; then
        echo "skip $name ($(sed -n 's/^# ambiguous alone: //p' "$conf" | head -1))"
        continue
    fi
    # one instance of every loop, 100 s of trace: a few hundred paths
    "$PB_BIN/maketrace" "$conf" -D instances=1 -D duration=100s >"$tmp/t.csv" ||
        fail "$name: maketrace failed"
    "$PB_BIN/infer" --algo nesting --no-assign "$tmp/t.csv" >"$tmp/n.res" ||
        fail "$name: infer nesting failed"
    "$PB_BIN/infer" --algo truth -s view=call --no-assign "$tmp/t.csv" >"$tmp/t.res" ||
        fail "$name: infer truth failed"
    table "$tmp/n.res" >"$tmp/n.tab"
    table "$tmp/t.res" >"$tmp/t.tab"
    [ "$(wc -l <"$tmp/t.tab")" -gt 1 ] || fail "$name: truth has no patterns"
    diff "$tmp/t.tab" "$tmp/n.tab" >"$tmp/d" || { head -20 "$tmp/d"; fail "$name: patterns differ from the truth"; }
    grep -q '^# unmatched_calls=0$' "$tmp/n.res" || fail "$name: unmatched calls"
    if [ -x "$PB_BIN/score" ]; then
        "$PB_BIN/infer" --algo nesting "$tmp/t.csv" >"$tmp/a.res" || fail "$name: infer failed"
        "$PB_BIN/score" --truth "$tmp/t.csv" "$tmp/a.res" >"$tmp/s.csv" || fail "$name: score failed"
        acc=$(awk -F, 'NR==1 { for (i = 1; i <= NF; i++) if ($i == "exact_accuracy") c = i }
                       NR==2 { print $c }' "$tmp/s.csv")
        mer=$(awk -F, 'NR==1 { for (i = 1; i <= NF; i++) if ($i == "message_error_rate") c = i }
                       NR==2 { print $c }' "$tmp/s.csv")
        [ "$acc" = 1 ] || fail "$name: exact_accuracy $acc, expected 1"
        [ "$mer" = 0 ] || fail "$name: message_error_rate $mer, expected 0"
    fi
    echo "ok $name: $(($(wc -l <"$tmp/n.tab") - 1)) patterns"
    n=$((n + 1))
done
[ "$n" -ge 5 ] || fail "only $n configs checked"
exit 0
