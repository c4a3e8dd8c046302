#!/bin/sh
# Convolution's root rule (docs/convolution.md, Roots).  On a message
# trace (no call/return) only nodes that only send are roots: on freeform
# at 20 ms quanta the relays (MX, R1, R2, LIST) used to qualify as
# "spontaneous" and gave high-count false paths such as MX>MBOX.  On an RPC
# trace the clients receive returns, so the spontaneous rule stays.
set -u
: "${PB_ROOT:?}" "${PB_BIN:?}"
cd "$PB_ROOT" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
meta() { sed -n "s/^# .*$1=\([^ ]*\).*/\1/p" "$2" | head -n 1; }

"$PB_BIN/maketrace" maketrace/configs/freeform.conf >"$tmp/f.csv" || fail maketrace
for mu in 5ms 20ms; do
    "$PB_BIN/infer" --algo convolution -s mu=$mu "$tmp/f.csv" >"$tmp/r.csv" || fail "infer mu=$mu"
    [ "$(meta roots "$tmp/r.csv")" = S1,S2,S3 ] || fail "freeform mu=$mu: roots $(meta roots "$tmp/r.csv"), expected the senders S1,S2,S3"
    [ "$(meta root_rule "$tmp/r.csv")" = senders ] || fail "freeform: root_rule $(meta root_rule "$tmp/r.csv")"
    # no inferred path starts at a relay, and every one scores as true
    grep -v '^#' "$tmp/r.csv" | awk -F, 'NR > 1 && $2 !~ /^"S[123]>/ { bad = 1 } END { exit bad }' ||
        fail "freeform mu=$mu: a path starts at a relay"
    fp=$("$PB_BIN/score" --truth "$tmp/f.csv" "$tmp/r.csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["pattern_fp"] }')
    [ "$fp" = 0 ] || fail "freeform mu=$mu: $fp false-positive paths"
done
# renaming nodes changes nothing: the rule is about sending and receiving
awk -F, 'BEGIN { OFS = "," } /^#/ || /^id,/ { print; next } { gsub(/^S/, "Zsrc", $4); print }' "$tmp/f.csv" >"$tmp/f2.csv"
"$PB_BIN/infer" --algo convolution -s mu=20ms "$tmp/f2.csv" >"$tmp/r2.csv" || fail "infer renamed"
[ "$(meta roots "$tmp/r2.csv")" = Zsrc1,Zsrc2,Zsrc3 ] || fail "renamed senders: roots $(meta roots "$tmp/r2.csv")"

# RPC: the spontaneous rule; the clients are the roots
"$PB_BIN/maketrace" -D duration=0 -D messages=20000 maketrace/configs/multitier.conf >"$tmp/m.csv" || fail maketrace
"$PB_BIN/infer" --algo convolution "$tmp/m.csv" >"$tmp/rm.csv" || fail "infer multitier"
[ "$(meta root_rule "$tmp/rm.csv")" = spontaneous ] || fail "multitier: root_rule $(meta root_rule "$tmp/rm.csv")"
[ "$(meta roots "$tmp/rm.csv")" = C1,C2 ] || fail "multitier: roots $(meta roots "$tmp/rm.csv")"
# root= still overrides
"$PB_BIN/infer" --algo convolution -s root=MX -s mu=20ms "$tmp/f.csv" >"$tmp/r3.csv" || fail "infer root=MX"
[ "$(meta roots "$tmp/r3.csv")" = MX ] && [ "$(meta root_rule "$tmp/r3.csv")" = given ] || fail "root=MX not honoured"
echo PASS
