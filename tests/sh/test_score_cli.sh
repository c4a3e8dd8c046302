#!/bin/sh
# bin/score end to end: the 7.5.1 example, the text form, the top-N curve,
# the min-instances filter and bad input (file and line in the message).
set -u
S="$PB_BIN/score"
D="$PB_ROOT/tests/data/score"
[ -x "$S" ] || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

# col NAME FILE: the value of column NAME in the first row of a CSV file
col() { awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{print $(c[n])}' "$2"; }

"$S" --truth "$D/p751.csv" "$D/p751.result" > "$tmp/row" || fail "score exited $?"
[ "$(wc -l < "$tmp/row")" -eq 2 ] || fail "expected a header and one row"
for kv in algo=handmade view=message true_patterns=1 inferred_patterns=3 \
          pattern_fp=2 pattern_fn=0 true_instances=2 inferred_instances=3 \
          instance_fp=2 instance_fn=1 instance_fn_rate=0.5 \
          message_error_rate=0.5 exact_accuracy=0.5 messages=6 \
          messages_wrong=3; do
    k=${kv%%=*}; v=${kv#*=}
    got=$(col "$k" "$tmp/row")
    [ "$got" = "$v" ] || fail "$k = '$got', expected '$v'"
done

"$S" --truth "$D/p751.csv" --text "$D/p751.result" > "$tmp/text" || fail "--text"
grep -q "3 of 6 wrongly ascribed" "$tmp/text" || fail "text form lacks the message count"
grep -q "2 false positive, 0 false negative" "$tmp/text" || fail "text form lacks the pattern counts"

# stdin result, no header
"$S" --truth "$D/p751.csv" --no-header < "$D/p751.result" > "$tmp/nohead" || fail "stdin"
sed -n 2p "$tmp/row" | cmp -s - "$tmp/nohead" || fail "--no-header row differs"

# -m 2 drops every inferred pattern (each has one instance)
"$S" --truth "$D/p751.csv" -m 2 "$D/p751.result" > "$tmp/m2" || fail "-m 2"
[ "$(col inferred_patterns "$tmp/m2")" = 0 ] || fail "-m 2 kept patterns"
[ "$(col dropped_patterns "$tmp/m2")" = 3 ] || fail "-m 2 dropped_patterns"
[ "$(col pattern_fn "$tmp/m2")" = 1 ] || fail "-m 2 pattern_fn"

# the curve: at N=1 the true pattern ties (count 1) with A>B, which wins
# by text order, so it is missing without tolerance and forgiven with it
"$S" --truth "$D/p751.csv" -t 2,6 --topn-curve "$tmp/curve" "$D/p751.result" >/dev/null || fail "curve"
printf 'n,missing,fn_rate,missing_t2,fn_rate_t2,missing_t6,fn_rate_t6\n1,1,1,0,0,0,0\n' > "$tmp/curve.want"
cmp -s "$tmp/curve" "$tmp/curve.want" || { cat "$tmp/curve"; fail "curve differs"; }

# bad input: a message id missing from the truth trace
sed 's/^6,3,3$/66,3,3/' "$D/p751.result" > "$tmp/badid.result"
"$S" --truth "$D/p751.csv" "$tmp/badid.result" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] || fail "missing id: expected exit 1"
grep -q "badid.result:15:.*66" "$tmp/err" || { cat "$tmp/err"; fail "missing id: message lacks file:line"; }

# bad input: a malformed pattern
sed 's/^3,C>D,/3,C>D[E,/' "$D/p751.result" > "$tmp/badpat.result"
"$S" --truth "$D/p751.csv" "$tmp/badpat.result" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] || fail "malformed pattern: expected exit 1"
grep -q "badpat.result:8:.*character" "$tmp/err" || { cat "$tmp/err"; fail "malformed pattern: message lacks file:line:character"; }

# a trace without truth
grep -v '^#' "$D/p751.csv" | awk -F, 'BEGIN{OFS=","}{NF=6; print}' > "$tmp/notruth.csv"
"$S" --truth "$tmp/notruth.csv" "$D/p751.result" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] || fail "no truth: expected exit 1"
grep -q "no path column" "$tmp/err" || { cat "$tmp/err"; fail "no truth: message"; }

# usage errors
"$S" "$D/p751.result" > /dev/null 2>&1
[ $? -eq 2 ] || fail "missing --truth: expected exit 2"
"$S" --truth "$D/p751.csv" --rank-by size "$D/p751.result" > /dev/null 2>&1
[ $? -eq 2 ] || fail "bad --rank-by: expected exit 2"
exit 0
