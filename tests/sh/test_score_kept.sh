#!/bin/sh
# score --kept: scoring a result inferred from a lossy copy of the truth
# trace against the survivors' truth (docs/metrics.md "Lossy traces").
# Hand-worked: tests/data/score/kept.csv holds A>B[C[E],D] and A>B[D];
# kept-lossy.csv lost the call B>C and its return, so what survives of the
# first request is A>B[D,E]; kept.result groups both right.
set -u
S="$PB_BIN/score"
D="$PB_ROOT/tests/data/score"
[ -x "$S" ] || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
col() { awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{print $(c[n])}' "$2"; }
want() { # FILE NAME=VALUE...
    f=$1; shift
    for kv in "$@"; do
        k=${kv%%=*}; v=${kv#*=}
        got=$(col "$k" "$f")
        [ "$got" = "$v" ] || fail "$f: $k = '$got', expected '$v'"
    done
}

# against the whole truth the damaged request can never be exact
"$S" --truth "$D/kept.csv" "$D/kept.result" > "$tmp/whole" || fail "score exited $?"
want "$tmp/whole" true_instances=2 exact_accuracy=0.5 messages=12 messages_wrong=8 \
    pattern_fp=1 pattern_fn=1 lost_messages= intact_instances= intact_exact_accuracy=
# against the survivors' truth both requests are right
"$S" --truth "$D/kept.csv" --kept "$D/kept-lossy.csv" "$D/kept.result" > "$tmp/kept" ||
    fail "score --kept exited $?"
want "$tmp/kept" true_instances=2 exact_accuracy=1 set_accuracy=1 messages=10 \
    messages_wrong=0 pattern_fp=0 pattern_fn=0 lost_messages=2 intact_instances=1 \
    intact_exact_accuracy=1
"$S" --truth "$D/kept.csv" --kept "$D/kept-lossy.csv" --text "$D/kept.result" > "$tmp/text" ||
    fail "--text"
grep -q "2 messages of true instances lost; 1 of 1 instances" "$tmp/text" ||
    fail "text form lacks the kept line"

# grouped as the whole truth draws it (C under B, no E): wrong for the survivors
sed 's/"A>B\[D,E\]",1,1,1,,,;;;,;;;/"A>B[C[E],D]",1,1,1,,,;;;;,;;;;/' "$D/kept.result" > "$tmp/whole.result"
"$S" --truth "$D/kept.csv" --kept "$D/kept-lossy.csv" "$tmp/whole.result" > "$tmp/k2" ||
    fail "score --kept (whole pattern) exited $?"
want "$tmp/k2" exact_accuracy=0.5 set_accuracy=1 intact_exact_accuracy=1

# the truth itself as the kept copy changes nothing
"$PB_BIN/infer" --algo truth -o "$tmp/oracle" "$D/kept.csv" 2>/dev/null || fail "infer truth"
"$S" --truth "$D/kept.csv" "$tmp/oracle" | cut -d, -f1-30 > "$tmp/a" || fail "oracle score"
"$S" --truth "$D/kept.csv" --kept "$D/kept.csv" "$tmp/oracle" > "$tmp/b" || fail "oracle --kept"
cut -d, -f1-30 "$tmp/b" | cmp -s - "$tmp/a" || fail "--kept with the truth itself changed the row"
want "$tmp/b" lost_messages=0 intact_instances=2 intact_exact_accuracy=1

# bad kept copies: an id the truth lacks, a message that differs
sed 's/^12,1.030,1.031,B,A/99,1.030,1.031,B,A/' "$D/kept-lossy.csv" > "$tmp/bad1.csv"
"$S" --truth "$D/kept.csv" --kept "$tmp/bad1.csv" "$D/kept.result" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] || fail "a foreign id: expected exit 1"
grep -q "bad1.csv.*message 99 is not in the truth trace" "$tmp/err" || fail "foreign id: $(cat "$tmp/err")"
sed 's/^10,1.010,1.011,B,D/10,1.010,1.011,B,E/' "$D/kept-lossy.csv" > "$tmp/bad2.csv"
"$S" --truth "$D/kept.csv" --kept "$tmp/bad2.csv" "$D/kept.result" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] || fail "a changed message: expected exit 1"
grep -q "message 10 differs" "$tmp/err" || fail "changed message: $(cat "$tmp/err")"

# a sniffed maketrace trace: the survivors' accuracy of joint is at least
# its accuracy against the whole truth, and the result's fingerprint must
# be the kept copy's
M="$PB_BIN/maketrace"; I="$PB_BIN/infer"; N="$PB_BIN/sniffer"
[ -x "$M" ] && [ -x "$N" ] || exit 0
"$M" "$PB_ROOT/maketrace/configs/multitier.conf" -D instances=6 -D messages=4000 \
    -D duration=0 > "$tmp/t.csv" || fail "maketrace"
"$N" --quiet --loss 0.02 -s 5 "$tmp/t.csv" > "$tmp/p.csv" || fail "sniffer"
"$I" --algo joint -o "$tmp/r.csv" "$tmp/p.csv" 2>/dev/null || fail "infer joint"
"$S" --truth "$tmp/t.csv" "$tmp/r.csv" > "$tmp/w" || fail "score whole"
"$S" --truth "$tmp/t.csv" --kept "$tmp/p.csv" "$tmp/r.csv" > "$tmp/s" || fail "score --kept"
awk -v w="$(col exact_accuracy "$tmp/w")" -v s="$(col exact_accuracy "$tmp/s")" \
    'BEGIN { exit !(s >= w && s > 0.5) }' || fail "survivors' exact $(col exact_accuracy "$tmp/s") < whole $(col exact_accuracy "$tmp/w")"
[ "$(col lost_messages "$tmp/s")" -gt 0 ] || fail "no message lost at 2 %"
"$S" --truth "$tmp/t.csv" --kept "$tmp/t.csv" "$tmp/r.csv" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] || fail "--kept naming another trace than the result's: expected exit 1"
grep -q "expected --kept to name the trace the result was inferred from" "$tmp/err" ||
    fail "fingerprint: $(cat "$tmp/err")"
exit 0
