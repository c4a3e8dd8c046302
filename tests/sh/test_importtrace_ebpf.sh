#!/bin/sh
# importtrace on syscall captures (--format ebpf), through the capture
# path of pbcapture and pcap files (docs/capture.md): a hand-made capture
# (tests/data/ebpf/small.json: two processes A and B, an uncaptured load
# generator, a DNS look-up, a persistent A-B connection whose second of
# three calls lost both of B's events -- the third is lined up by TCP
# sequence number past the gap --, a request without request id, counted
# and left out) imports to the hand-checked rows and counters (the capture path's:
# requests = HTTP requests, paths = distinct request ids; a receipt nobody
# observed has no recv_ts); the request id never reaches an
# algorithm; --request-header traceparent takes the trace id; bad entries are
# located.  Then the real capture (../shared/data/deeptrace-ebpf, skipped
# without it): counts checked by hand with a JSON reader (1604 entries,
# 166 DNS entries, 288 requests, 3 x 288 calls, one call to C lost at A's
# side and one at C's side), the oracle scores 1 in both views, and vpath's
# paper variant says its thread assumption fails (Go moves goroutines
# between OS threads) and is never silently wrong.
set -u
: "${PB_BIN:?}" "${PB_ROOT:?}"
for p in importtrace infer score; do [ -x "$PB_BIN/$p" ] || exit 77; done
D="$PB_ROOT/tests/data/ebpf"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
field() { awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++) if($i==n) c=i} NR==2{print $c}' "$2"; }
meta() { grep -o " $1=[0-9][0-9]*" "$2" | head -n 1 | cut -d= -f2; }

"$PB_BIN/importtrace" -o "$tmp/s.csv" "$D/small.json" 2> "$tmp/s.err" || fail "import small"
cmp -s "$tmp/s.csv" "$D/small.csv" || { diff "$D/small.csv" "$tmp/s.csv"; fail "small: rows differ"; }
for kv in entries=9 events=16 skipped_dns=1 messages=10 paths=2 requests=6 responses=6 pairs=6 \
          uncaptured_sender=2 uncaptured_receiver=2 lost_at_sender=1 lost_at_receiver=1 \
          lost_calls=1 gaps=2 no_request_id=1 processes=2 threads=5 connections=4; do
    [ "$(meta "${kv%%=*}" "$tmp/s.csv")" = "${kv#*=}" ] || fail "small: expected $kv"
done
grep -q 'skipped_dns=1: DNS look-ups' "$tmp/s.err" || fail "small: no summary on stderr"
# the truth's request ids sit in the path column only
grep -v '^#' "$tmp/s.csv" | cut -d, -f1-6,8- | grep -q 'r1\|r2' && fail "a request id outside the path column"
"$PB_BIN/infer" --algo truth -o "$tmp/t.res" "$tmp/s.csv" || fail "oracle small"
"$PB_BIN/score" --truth "$tmp/s.csv" "$tmp/t.res" > "$tmp/t.score" || fail "score small"
[ "$(field exact_accuracy "$tmp/t.score")" = 1 ] || fail "small: oracle not exact"
"$PB_BIN/importtrace" -q --request-header traceparent -o "$tmp/tp.csv" "$D/small.json" || fail "traceparent"
[ "$(grep -c ',4bf92f3577b34da6a3ce929d0e0e4736,' "$tmp/tp.csv")" = 6 ] || fail "traceparent: expected r2's 6 messages on its trace id"
[ "$(meta no_request_id "$tmp/tp.csv")" = 3 ] || fail "traceparent: expected 3 pairs without it"
# bad input: located
sed 's/"tgid": 200/"tgid": "x"/' "$D/small.json" > "$tmp/bad.json"
"$PB_BIN/importtrace" -q "$tmp/bad.json" > /dev/null 2> "$tmp/bad.err" && fail "bad tgid accepted"
grep -q 'spans\[2\].req: "tgid": expected a process id' "$tmp/bad.err" || { cat "$tmp/bad.err"; fail "bad tgid not located"; }
"$PB_BIN/importtrace" -q --format ebpf "$PB_ROOT/tests/data/importtrace/ties.json" > /dev/null 2> "$tmp/f.err" && fail "--format ebpf on Jaeger accepted"
grep -q 'expected a syscall capture' "$tmp/f.err" || fail "--format ebpf: no clear error"

DATA="${PB_SHARED:-$PB_ROOT/../shared}/data/deeptrace-ebpf/rps100-spans.json.gz"
[ -f "$DATA" ] || { echo "no shared data: the real capture skipped"; exit 0; }
"$PB_BIN/importtrace" -q -o "$tmp/e.csv" "$DATA" || fail "import the capture"
for kv in entries=1604 skipped_dns=166 skipped_other=0 paths=288 requests=864 responses=864 \
          pairs=864 messages=1728 uncaptured_sender=288 uncaptured_receiver=288 \
          lost_at_sender=2 lost_at_receiver=2 lost_calls=2 gaps=2 unanswered=0 \
          no_request_id=0 processes=3 threads=28 connections=59; do
    [ "$(meta "${kv%%=*}" "$tmp/e.csv")" = "${kv#*=}" ] || fail "capture: expected $kv, got $(meta "${kv%%=*}" "$tmp/e.csv")"
done
for view in call message; do
    "$PB_BIN/infer" --algo truth -s view=$view -o "$tmp/t.res" "$tmp/e.csv" || fail "oracle $view"
    "$PB_BIN/score" --truth "$tmp/e.csv" "$tmp/t.res" > "$tmp/t.score" || fail "score oracle"
    [ "$(field exact_accuracy "$tmp/t.score")" = 1 ] || fail "capture: oracle ($view) not exact"
done
"$PB_BIN/infer" --algo vpath -s variant=paper --report "$tmp/rep" -o "$tmp/v.res" "$tmp/e.csv" 2> "$tmp/v.err" || fail "vpath paper"
grep -q 'received by another thread than the one that sent it' "$tmp/v.err" || fail "vpath paper does not say its thread assumption fails"
awk -F, -f "$PB_ROOT/experiments/flag_check.awk" "$tmp/rep" "$tmp/v.res" "$tmp/e.csv" > /dev/null ||
    fail "vpath paper silently wrong on the capture"
exit 0
