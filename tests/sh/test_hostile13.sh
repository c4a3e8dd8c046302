#!/bin/sh
# Hostile input, round 12b (issue 28, h203): what users feed the programs
# other than the readers (score, compare, maketrace configs, skewer and
# sniffer specs, every program's options).  One block per class, each able
# to fail on the tree before it.
set -u
for p in score maketrace skewer sniffer infer compare; do
    [ -x "$PB_BIN/$p" ] || exit 77
done
B="$PB_BIN"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
cd "$tmp" || exit 1

# --- 1. maketrace: delays that add up past the largest time a generated
# trace can hold (2^61 ns, about 73 years) saturated there silently: with a
# messages limit (no duration limit to drop such paths) every later row had
# the same clamped stamp.  Now refused, in both the plain generator and the
# execution-model simulator, saying why.
cat > long.conf <<'CONF'
call_delay = 1000000000s,0s
tracelet a from client { call b { call c { call d { call e { call f { call g { call h { call i { call j { call k } } } } } } } } } }
CONF
for ex in "" "-s exec=pool"; do
    # shellcheck disable=SC2086
    "$B/maketrace" -q -s messages=200 $ex -o long.tr long.conf 2> long.err && fail "time overflow ($ex): accepted"
    grep -q "^maketrace: long.conf: a message's time reaches 2305843009s" long.err ||
        { cat long.err; fail "time overflow ($ex): not said"; }
done
# long delays below the limit are not refused (ten hops of 10^7 s a path)
sed 's/1000000000s,0s/10000000s,0s/' long.conf > ok.conf
"$B/maketrace" -q -s messages=200 -o ok.tr ok.conf 2> ok.err || { cat ok.err; fail "long but valid delays refused"; }

echo "ok"
