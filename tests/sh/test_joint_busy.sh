#!/bin/sh
# joint's busy test (docs/joint/search.md, "Order of answers, without call ids",
# the busy test; algorithms/joint/busy/joint_pick.c), black box.  On an event
# loop of one thread in front of two services (experiments/joint_event.conf,
# 2 s) the free search exchanges calls between queued requests; B's calls
# land busy far less often than copies of the free solution predict, so
# B serialises, most of what the two searches assign differently is at
# B, and the held search is kept: exact accuracy at least first come,
# first served's and 2 points above -s busy_test=0 (the old choice).  On a
# pool of four workers with independent delays (experiments/joint_pool.conf,
# 1 s) no service serialises and the result is byte for byte that of
# -s busy_test=0 (apart from the busy_ lines and the params line).
set -u
B="$PB_BIN"
for p in maketrace infer score; do [ -x "$B/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
col() { awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++)c[$i]=i} NR==2{print $(c[n])}' "$2"; }
strip() { # the callid column emptied: a black box
    awk 'BEGIN { FS = OFS = "," } /^#/ { print; next }
         !h { for (i = 1; i <= NF; i++) if ($i == "callid") c = i; h = 1; print; next }
         { if (c) $c = ""; print }' "$1"
}
for c in event:2s pool:1s; do
    "$B/maketrace" "$PB_ROOT/experiments/joint_${c%:*}.conf" -s duration="${c#*:}" > "$tmp/m.csv" ||
        fail "maketrace $c"
    strip "$tmp/m.csv" > "$tmp/${c%:*}.csv"
done
acc() { # trace algo [option] -> exact accuracy; the result in $tmp/r.$1.$2$3
    "$B/infer" --algo "$2" ${3:+-s busy_test=$3} -o "$tmp/r.$1.$2$3" "$tmp/$1.csv" 2> "$tmp/log" ||
        fail "infer $1 $2 $3: $(cat "$tmp/log")"
    "$B/score" --truth "$tmp/$1.csv" "$tmp/r.$1.$2$3" > "$tmp/s" || fail "score"
    col exact_accuracy "$tmp/s"
}
e0=$(acc event joint 0)
e1=$(acc event joint 1)
ef=$(acc event fcfs)
echo "event loop, black box: busy_test=0 $e0, busy_test=1 $e1, fcfs $ef"
awk -v a="$e1" -v b="$ef" 'BEGIN { exit !(a >= b) }' || fail "busy_test=1 below fcfs ($e1 < $ef)"
awk -v a="$e1" -v b="$e0" 'BEGIN { exit !(a >= b + 0.02) }' ||
    fail "busy_test=1 should gain 2 points over busy_test=0 ($e1, $e0)"
grep -q '^# busy_service=B .* serialising=yes ' "$tmp/r.event.joint1" ||
    fail "B not found serialising: $(grep busy_service "$tmp/r.event.joint1")"
grep -q '^# busy_test=on .* held=yes chosen_by=busy_test' "$tmp/r.event.joint1" ||
    fail "held search not chosen by the busy test: $(grep busy_test= "$tmp/r.event.joint1")"
acc pool joint 0 > /dev/null
acc pool joint 1 > /dev/null
grep -q '^# busy_test=on .* held=no ' "$tmp/r.pool.joint1" ||
    fail "the busy test fired on the pool: $(grep 'busy_' "$tmp/r.pool.joint1")"
! grep -q 'serialising=yes' "$tmp/r.pool.joint1" || fail "a pool service found serialising"
for r in 0 1; do grep -v '^# cpu_\|^# params:\|^# program=\|^# busy_' "$tmp/r.pool.joint$r" > "$tmp/x$r"; done
cmp -s "$tmp/x0" "$tmp/x1" || fail "busy_test changed the pool's result"
echo "PASS"
