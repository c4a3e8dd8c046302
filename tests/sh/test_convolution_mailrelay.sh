#!/bin/sh
# The mail relay config (maketrace/configs/mailrelay.conf, the e-mail trace
# of seed 000, 7.5.7) parses, and convolution recovers its paths as the
# paper says it does on mail:
# - one path in flight (one pool instance, no spam campaigns; 5 x 10^7 s,
#   about 67,000 messages): the oracle is exact in the path view, and
#   convolution at mu = 30 s reports no false path and misses none of the
#   true paths with at least 100 instances; its roots are the four senders
# - the busy trace (the config as shipped, about 84,000 messages over two
#   months): at mu = 5 s the roots are still only the senders (the
#   spontaneous rule made BOUNCE and MB4 roots there), and ignoring paths
#   with fewer than 100 instances leaves no false path (the paper's
#   "drops to zero"), with no frequent true path missed
set -u
: "${PB_ROOT:?}" "${PB_BIN:?}"
cd "$PB_ROOT" || exit 1
for p in maketrace infer score; do [ -x "$PB_BIN/$p" ] || { echo "SKIP: $PB_BIN/$p missing"; exit 77; }; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
conf=maketrace/configs/mailrelay.conf
meta() { grep -v '^# params:\|^# trace:' "$2" | sed -n "s/^# \(.* \)\{0,1\}$1=\([^ ]*\).*/\2/p" | head -n 1; }
col() { awk -F, -v n="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 2 { print $(c[n]) }' "$2"; }
# missed TRUTH RESULT: "frequent missed": true path-view patterns with >= 100
# instances, and how many of them the result does not report
missed() {
    awk -F, 'FNR == 1 { f++ } /^#/ || /^rank,/ { next } /^id,/ { skip[f] = 1 } skip[f] { next }
        { p = $2; gsub(/"/, "", p) }
        f == 1 && $3 >= 100 { freq[p] = 1; nf++ }
        f == 2 { got[p] = 1 }
        END { for (p in freq) if (!(p in got)) miss++; printf "%d %d\n", nf, miss }' "$1" "$2"
}

"$PB_BIN/maketrace" "$conf" --parse-only 2>"$tmp/err" || { cat "$tmp/err"; fail "mailrelay.conf does not parse"; }
grep -q ',call,\|,return,' "$conf" && fail "mailrelay.conf has calls; it is a message trace"

# one path in flight
"$PB_BIN/maketrace" "$conf" -D instances=1 -D campaign.think=1000000000s -D duration=50000000s >"$tmp/o.csv" ||
    fail "maketrace one path in flight"
grep -q ',call,\|,return,' "$tmp/o.csv" && fail "the trace has calls"
"$PB_BIN/infer" --algo truth -s view=path --no-assign "$tmp/o.csv" >"$tmp/otp.csv" || fail "infer truth"
"$PB_BIN/score" --truth "$tmp/o.csv" "$tmp/otp.csv" >"$tmp/os.csv" || fail "score truth"
[ "$(col pattern_fp "$tmp/os.csv")" = 0 ] && [ "$(col pattern_fn "$tmp/os.csv")" = 0 ] || fail "oracle not exact"
[ "$(col true_patterns "$tmp/os.csv")" -ge 50 ] || fail "only $(col true_patterns "$tmp/os.csv") true path patterns"
"$PB_BIN/infer" --algo convolution -s mu=30s --no-assign "$tmp/o.csv" >"$tmp/or.csv" || fail "infer convolution"
[ "$(meta roots "$tmp/or.csv")" = S1,S2,S3,S4 ] || fail "one in flight: roots $(meta roots "$tmp/or.csv"), expected S1,S2,S3,S4"
"$PB_BIN/score" --truth "$tmp/o.csv" "$tmp/or.csv" >"$tmp/ocs.csv" || fail "score convolution"
[ "$(col pattern_fp "$tmp/ocs.csv")" = 0 ] || fail "one in flight: $(col pattern_fp "$tmp/ocs.csv") false paths"
set -- $(missed "$tmp/otp.csv" "$tmp/or.csv")
[ "$1" -ge 20 ] || fail "one in flight: only $1 true paths with >= 100 instances"
[ "$2" = 0 ] || fail "one in flight: $2 of $1 frequent true paths missed"

# the busy trace, small quantum
"$PB_BIN/maketrace" "$conf" >"$tmp/t.csv" || fail "maketrace"
n=$(grep -c '^[0-9]' "$tmp/t.csv")
[ "$n" -ge 70000 ] && [ "$n" -le 100000 ] || fail "$n messages, expected about 84,000 (the paper's 81,044)"
"$PB_BIN/infer" --algo truth -s view=path --no-assign "$tmp/t.csv" >"$tmp/tp.csv" || fail "infer truth"
"$PB_BIN/infer" --algo convolution -s mu=5s --no-assign "$tmp/t.csv" >"$tmp/r.csv" || fail "infer convolution mu=5s"
[ "$(meta roots "$tmp/r.csv")" = S1,S2,S3,S4 ] && [ "$(meta root_rule "$tmp/r.csv")" = senders ] ||
    fail "busy, mu=5s: roots $(meta roots "$tmp/r.csv") by $(meta root_rule "$tmp/r.csv"), expected S1,S2,S3,S4 by senders"
"$PB_BIN/score" --truth "$tmp/t.csv" --min-instances 100 "$tmp/r.csv" >"$tmp/s100.csv" || fail "score -m 100"
[ "$(col inferred_patterns "$tmp/s100.csv")" -gt 10 ] || fail "busy: only $(col inferred_patterns "$tmp/s100.csv") paths with >= 100 instances"
[ "$(col pattern_fp "$tmp/s100.csv")" = 0 ] || fail "busy, mu=5s: $(col pattern_fp "$tmp/s100.csv") false paths with >= 100 instances"
set -- $(missed "$tmp/tp.csv" "$tmp/r.csv")
[ "$2" = 0 ] || fail "busy, mu=5s: $2 of $1 frequent true paths missed"
echo PASS
