#!/bin/sh
# Convolution's root rule (docs/convolution.md, Roots).  On a message
# trace (no call/return) only nodes that only send are roots: on freeform
# at 20 ms quanta the relays (MX, R1, R2, LIST) used to qualify as
# "spontaneous" and gave high-count false paths such as MX>MBOX.  On an RPC
# trace the clients receive returns, so the spontaneous rule stays.
# root_rule=senders|spontaneous forces one rule.
set -u
: "${PB_ROOT:?}" "${PB_BIN:?}"
cd "$PB_ROOT" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
# meta KEY FILE: KEY's value in the result's metadata (not the params line)
meta() { grep -v '^# params:\|^# trace:' "$2" | sed -n "s/^# \(.* \)\{0,1\}$1=\([^ ]*\).*/\2/p" | head -n 1; }

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

# a hand-made message trace: A only sends (A>R, R forwards to B one second
# later); the relay R also sends to C at times nothing explains, so half of
# what R sends is unexplained and the spontaneous rule makes it a root.
# The senders rule (auto on a message trace): A is the only root and the
# one path is A>R[B]; forced spontaneous: R is a root too, with the false
# paths R>B and R>C.
awk 'BEGIN { print "id,ts,recv_ts,src,dst,type,callid,path,cause"; id = 0
    for (i = 0; i < 300; i++) { t = 10 * i + (i * 7 % 5) * 0.1
        printf "%d,%.3f,%.3f,A,R,msg,,%d,\n", id, t, t, 2 * i + 1; a = id++
        printf "%d,%.3f,%.3f,R,B,msg,,%d,%d\n", id, t + 1, t + 1, 2 * i + 1, a; id++
        u = 10 * i + 5.3 + (i * 37 % 11) * 0.1
        printf "%d,%.3f,%.3f,R,C,msg,,%d,\n", id, u, u, 2 * i + 2; id++ } }' >"$tmp/h.csv"
pats() { awk -F, '/^#/ { next } /^rank,/ { p = 1; next } p { printf "%s%s:%s", s, $2, $3; s = " " } END { print "" }' "$1"; }
"$PB_BIN/infer" --algo convolution -s mu=100ms "$tmp/h.csv" >"$tmp/hr.csv" || fail "infer hand-made"
[ "$(meta roots "$tmp/hr.csv")" = A ] && [ "$(meta root_rule "$tmp/hr.csv")" = senders ] ||
    fail "hand-made: roots $(meta roots "$tmp/hr.csv") by $(meta root_rule "$tmp/hr.csv"), expected A by senders"
[ "$(pats "$tmp/hr.csv")" = '"A>R[B]":300' ] || fail "hand-made: paths $(pats "$tmp/hr.csv"), expected A>R[B] x 300"
"$PB_BIN/infer" --algo convolution -s mu=100ms -s root_rule=spontaneous "$tmp/h.csv" >"$tmp/hs.csv" ||
    fail "infer hand-made spontaneous"
[ "$(meta roots "$tmp/hs.csv")" = A,R ] || fail "hand-made, spontaneous: roots $(meta roots "$tmp/hs.csv"), expected A,R"
pats "$tmp/hs.csv" | grep -q '"R>C":300' || fail "hand-made, spontaneous: no R>C path"
# the same relay renamed to sort first changes nothing
sed 's/,R,/,AAR,/g' "$tmp/h.csv" >"$tmp/h2.csv"
"$PB_BIN/infer" --algo convolution -s mu=100ms "$tmp/h2.csv" >"$tmp/hr2.csv" || fail "infer hand-made renamed"
[ "$(meta roots "$tmp/hr2.csv")" = A ] || fail "hand-made renamed: roots $(meta roots "$tmp/hr2.csv")"
# freeform with the spontaneous rule forced: the relays are roots again (the old behaviour)
"$PB_BIN/infer" --algo convolution -s mu=10ms -s root_rule=spontaneous "$tmp/f.csv" >"$tmp/fs.csv" || fail "infer freeform spontaneous"
[ "$(meta roots "$tmp/fs.csv")" = LIST,MX,R1,R2,S1,S2,S3 ] || fail "freeform, spontaneous: roots $(meta roots "$tmp/fs.csv")"
# a bad value is refused, naming the option
"$PB_BIN/infer" --algo convolution -s root_rule=relays "$tmp/h.csv" >/dev/null 2>"$tmp/err" && fail "root_rule=relays accepted"
grep -q 'root_rule' "$tmp/err" || fail "root_rule=relays: error does not name the option"

# RPC: the spontaneous rule; the clients are the roots
"$PB_BIN/maketrace" -D duration=0 -D messages=20000 maketrace/configs/multitier.conf >"$tmp/m.csv" || fail maketrace
"$PB_BIN/infer" --algo convolution "$tmp/m.csv" >"$tmp/rm.csv" || fail "infer multitier"
[ "$(meta root_rule "$tmp/rm.csv")" = spontaneous ] || fail "multitier: root_rule $(meta root_rule "$tmp/rm.csv")"
[ "$(meta roots "$tmp/rm.csv")" = C1,C2 ] || fail "multitier: roots $(meta roots "$tmp/rm.csv")"
# root= still overrides
"$PB_BIN/infer" --algo convolution -s root=MX -s mu=20ms "$tmp/f.csv" >"$tmp/r3.csv" || fail "infer root=MX"
[ "$(meta roots "$tmp/r3.csv")" = MX ] && [ "$(meta root_rule "$tmp/r3.csv")" = given ] || fail "root=MX not honoured"
echo PASS
