#!/bin/sh
# joint's calls that outlive their request (docs/joint/model.md, "Calls that
# outlive their request"; algorithms/joint/late/joint_late.c): on a deep
# synchronous chain (experiments/joint_late.conf) whose gateway stamps its
# response 10 us before the return it waited for in every third request,
# the gateway's calls in those requests lie in no request; the gateway
# passes the test and they are given back to their requests (exact
# accuracy 100 % against 67 % with -s late_calls=0).  On the same trace
# unchanged no service has such calls: the metadata has no late_service
# line and the result is byte for byte that of -s late_calls=0.
set -u
B="$PB_BIN"
for p in maketrace infer score; do [ -x "$B/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
col() { awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{print $(c[n])}' "$2"; }
"$B/maketrace" "$PB_ROOT/experiments/joint_late.conf" > "$tmp/t.csv" || fail "maketrace"
# the gateway's response 10 us before the return it waited for, every third request
awk 'BEGIN { FS = OFS = "," }
     FNR == NR { if ($0 !~ /^#/ && $1 != "id" && $5 == "gateway" && $6 == "return") back[$8] = $3; next }
     /^#/ || $1 == "id" { print; next }
     $4 == "gateway" && $6 == "return" && $8 % 3 == 0 && ($8 in back) {
         t = sprintf("%.9f", back[$8] - 0.00001); $2 = t; $3 = t }
     { print }' "$tmp/t.csv" "$tmp/t.csv" > "$tmp/l0.csv" || fail "awk"
{ grep '^#\|^id' "$tmp/l0.csv"; grep -v '^#\|^id' "$tmp/l0.csv" | sort -s -t, -k2,2g; } > "$tmp/l.csv"
acc() { # trace late_calls -> exact accuracy; the result in $tmp/r.$1.$2
    "$B/infer" --algo joint -s late_calls="$2" -o "$tmp/r.$1.$2" "$tmp/$1.csv" 2> "$tmp/log" ||
        fail "infer $1 late_calls=$2: $(cat "$tmp/log")"
    "$B/score" --truth "$tmp/$1.csv" "$tmp/r.$1.$2" > "$tmp/s" || fail "score"
    col exact_accuracy "$tmp/s"
}
a0=$(acc l 0)
a1=$(acc l 1)
echo "gateway answering before its last return: late_calls=0 $a0, late_calls=1 $a1"
awk -v x="$a0" 'BEGIN { exit !(x < 0.8) }' || fail "late_calls=0 should lose the late calls' requests ($a0)"
awk -v x="$a1" 'BEGIN { exit !(x >= 0.99) }' || fail "late_calls=1 should reconstruct them ($a1)"
grep -q "^# late_service=gateway late=on .* gap_ns=10000 " "$tmp/r.l.1" ||
    fail "no late_service=gateway late=on gap_ns=10000 line: $(grep late_service "$tmp/r.l.1")"
# unchanged trace: no call outlives its request, nothing changes
acc t 0 > /dev/null
acc t 1 > /dev/null
! grep -q "late_service=" "$tmp/r.t.1" || fail "late_service line on the unchanged trace"
for r in 0 1; do grep -v '^# cpu_\|^# params:\|^# program=' "$tmp/r.t.$r" > "$tmp/x$r"; done
cmp -s "$tmp/x0" "$tmp/x1" || fail "late_calls changed the result on a trace without late calls"
echo "PASS"
