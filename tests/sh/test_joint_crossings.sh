#!/bin/sh
# experiments/joint_crossings.awk (evaluation only; docs/joint/systems.md,
# "The stress audit's eBPF and TrainTicket quarter rows"): a hand-made
# trace with two links.  B>D: calls 3 and 4 sent 3 us apart, read by D in
# the other order, answered in send order (3 first); B>C: calls 1 and 2
# cross too, answered in receive order; a later call 9 that crosses
# nothing.  Expected: B>D 1 crossing, send order; B>C 1, receive order.
# Then experiments/joint_goread.conf parses and draws calls that cross.
set -u
for p in maketrace; do [ -x "$PB_BIN/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
A="$PB_ROOT/experiments/joint_crossings.awk"
cat > "$tmp/t.csv" <<'CSV'
id,ts,recv_ts,src,dst,type,callid,path,cause
1,1.000000,1.000050,B,C,call,,p1,
2,1.000002,1.000030,B,C,call,,p2,
5,1.000200,1.000210,C,B,return,,p2,2
6,1.000300,1.000310,C,B,return,,p1,1
3,1.001000,1.001030,B,D,call,,p1,
4,1.001003,1.001010,B,D,call,,p2,
7,1.001200,1.001210,D,B,return,,p1,3
8,1.001300,1.001310,D,B,return,,p2,4
9,1.002000,1.002010,B,D,call,,p3,
10,1.002100,1.002110,D,B,return,,p3,9
CSV
awk -f "$A" "$tmp/t.csv" | LC_ALL=C sort > "$tmp/out"
printf '%s\n' "B>C crossings=1 answered_in_send_order=0 in_receive_order=1" \
    "B>D crossings=1 answered_in_send_order=1 in_receive_order=0" > "$tmp/want"
cmp -s "$tmp/out" "$tmp/want" || { cat "$tmp/out"; fail "crossings counted wrong"; }
# answered the other way round at D: receive order there
sed 's/^7,1.001200,1.001210/7,1.001400,1.001410/' "$tmp/t.csv" > "$tmp/r.csv"
awk -f "$A" "$tmp/r.csv" | grep -qx 'B>D crossings=1 answered_in_send_order=0 in_receive_order=1' ||
    fail "an answer order by receipt not counted"
"$PB_BIN/maketrace" "$PB_ROOT/experiments/joint_goread.conf" > "$tmp/g.csv" ||
    fail "maketrace joint_goread.conf"
n=$(awk -f "$A" "$tmp/g.csv" | awk '{ split($2, a, "="); s += a[2] } END { print s + 0 }')
[ "$n" -gt 0 ] || fail "joint_goread.conf drew no call that crossed in flight"
echo "ok: crossings counted by hand; joint_goread.conf draws $n"
