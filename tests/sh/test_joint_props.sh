#!/bin/sh
# The joint algorithm: (1) with one path in flight it agrees with the
# oracle on every shipped call-view config; (2) shuffled rows (read back
# with --sort), stripped truth columns and renamed nodes change nothing;
# (3) the same trace gives the same result twice, byte for byte.
set -u
B="$PB_BIN"; R="$PB_ROOT"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
body() { grep -v -e '^# algo=' -e '^# cpu_' -e '^# trace: ' "$1"; }
exact() { "$B/score" --truth "$1" "$2" | awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{print $c["exact_accuracy"]}'; }

# (1) one path in flight: every config whose messages are calls
n=0
for conf in "$R"/maketrace/configs/*.conf; do
    c=$(basename "$conf" .conf)
    "$B/maketrace" "$conf" -D instances=1 -D duration=20s > "$tmp/one.csv" 2>/dev/null || fail "maketrace $c"
    grep -q ",call," "$tmp/one.csv" || continue
    # one-way messages have no place in the call view
    grep -q ",msg," "$tmp/one.csv" && continue
    # configs whose tracelets run their own loops keep several paths in flight
    grep -q 'instances=[2-9]' "$conf" && continue
    "$B/infer" --algo joint "$tmp/one.csv" > "$tmp/one.res" || fail "joint on $c"
    e=$(exact "$tmp/one.csv" "$tmp/one.res")
    [ "$e" = 1 ] || fail "$c with one path in flight: exact accuracy $e, expected 1"
    n=$((n + 1))
done
[ "$n" -ge 8 ] || fail "only $n configs checked"

# (2) invariance
"$B/maketrace" "$R/maketrace/configs/multitier.conf" -s 5 -D duration=30s > "$tmp/t.csv" || fail maketrace
awk 'BEGIN { srand(11) } /^#/ || !h { print; if (!/^#/) h = 1; next }
     { printf "%.12f\t%s\n", rand(), $0 }' "$tmp/t.csv" > "$tmp/keyed"
{ grep -v "$(printf '\t')" "$tmp/keyed"; grep "$(printf '\t')" "$tmp/keyed" | sort -k1,1 | cut -f2-; } > "$tmp/s.csv"
cmp -s "$tmp/t.csv" "$tmp/s.csv" && fail "shuffle changed nothing"
awk -F, '/^#/ { print; next } { NF -= 2; print }' OFS=, "$tmp/t.csv" > "$tmp/bare.csv"
head -n 5 "$tmp/bare.csv" | grep -q ',path' && fail "truth columns not stripped"
# renamed nodes: every name gets a prefix that reverses their byte order
sed -e '/^#/!s/\bWS1\b/z_web1/g; /^#/!s/\bAUTH\b/a_auth/g; /^#/!s/\bDB\b/m_db/g' "$tmp/t.csv" > "$tmp/r.csv"
cmp -s "$tmp/t.csv" "$tmp/r.csv" && fail "renaming changed nothing"

"$B/infer" --algo joint "$tmp/t.csv" > "$tmp/a.res" || fail "joint on the trace"
"$B/infer" --algo joint "$tmp/t.csv" > "$tmp/a2.res" || fail "joint again"
"$B/infer" --algo joint --sort "$tmp/s.csv" > "$tmp/b.res" || fail "joint on the shuffled trace"
"$B/infer" --algo joint "$tmp/bare.csv" > "$tmp/c.res" || fail "joint on the bare trace"
"$B/infer" --algo joint "$tmp/r.csv" > "$tmp/d.res" || fail "joint on the renamed trace"
body "$tmp/a.res" > "$tmp/a.body"
body "$tmp/a2.res" > "$tmp/a2.body"
body "$tmp/b.res" > "$tmp/b.body"
body "$tmp/c.res" > "$tmp/c.body"
cmp -s "$tmp/a.body" "$tmp/a2.body" || fail "two runs differ"
cmp -s "$tmp/a.body" "$tmp/b.body" || { diff "$tmp/a.body" "$tmp/b.body" | head; fail "shuffled rows changed the result"; }
cmp -s "$tmp/a.body" "$tmp/c.body" || { diff "$tmp/a.body" "$tmp/c.body" | head; fail "stripping truth changed the result"; }
# renaming: same assignment table (ids -> instances) and the same scores
sed -n '/^# table=assignment/,$p' "$tmp/a.res" | cut -d, -f1-2 > "$tmp/a.asg"
sed -n '/^# table=assignment/,$p' "$tmp/d.res" | cut -d, -f1-2 > "$tmp/d.asg"
[ "$(wc -l < "$tmp/a.asg")" -gt 1000 ] || fail "no assignment table"
cmp -s "$tmp/a.asg" "$tmp/d.asg" || fail "renaming nodes changed the assignment"
[ "$(exact "$tmp/t.csv" "$tmp/a.res")" = "$(exact "$tmp/r.csv" "$tmp/d.res")" ] || fail "renaming changed the score"
grep '^# log_likelihood=' "$tmp/a.res" > "$tmp/la"; grep '^# log_likelihood=' "$tmp/d.res" > "$tmp/ld"
cmp -s "$tmp/la" "$tmp/ld" || fail "renaming changed the likelihood"
# the optional parts (flow rounds, order term) keep the same properties
"$B/infer" --algo joint -s matching=flow -s service_order=1 "$tmp/t.csv" > "$tmp/e.res" || fail "joint flow+order"
"$B/infer" --algo joint -s matching=flow -s service_order=1 --sort "$tmp/s.csv" > "$tmp/f.res" || fail "joint flow+order shuffled"
body "$tmp/e.res" > "$tmp/e.body"; body "$tmp/f.res" > "$tmp/f.body"
cmp -s "$tmp/e.body" "$tmp/f.body" || fail "flow+order: shuffled rows changed the result"
cmp -s "$tmp/e.body" "$tmp/a.body" && fail "flow+order changed nothing (options ignored?)"
echo ok
