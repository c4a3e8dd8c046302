#!/bin/sh
# experiments/joint_ebpf_toss.py (evaluation only; docs/joint/systems.md,
# "The eBPF capture as a black box, twenty-second wave (h181)"): a
# hand-made trace of two requests through a front service B.  B's calls
# 3 and 4 to D are sent 3 us apart and read by D the other way round; D
# answers in send order (3 first); B answers the client out of order (p2
# first).  Expected inversions of the truth's pairing: B>D 0 against send
# order, 1 against read order; client>B 1 and 1.  A result that pairs D's
# answers in read order: B>D 1 and 0.  `ids` gives each return the call
# of its request (truth) or of its instance (result) as call id.
set -u
command -v python3 > /dev/null 2>&1 || { echo "SKIP: python3 missing"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
P="python3 $PB_ROOT/experiments/joint_ebpf_toss.py"
. "$PB_ROOT/tests/sh/joint_lib.sh"
toss_trace > "$tmp/t.csv"
cat > "$tmp/r.csv" <<'CSV'
# pathbench-result 1
id,instance,rank,parent,confidence
1,1,1,,1
3,1,1,1,1
6,1,1,3,1
8,1,1,6,1
2,2,1,,1
4,2,1,2,1
5,2,1,4,1
7,2,1,5,1
CSV
$P order "$tmp/t.csv" "$tmp/r.csv" | sed "s|$tmp/||" > "$tmp/out" || fail "order"
cat > "$tmp/want" <<'EOF2'
truth link=B>D pairs=2 inverted_vs_send=0 inverted_vs_read=1
truth link=client>B pairs=2 inverted_vs_send=1 inverted_vs_read=1
r.csv link=B>D pairs=2 inverted_vs_send=1 inverted_vs_read=0
r.csv link=client>B pairs=2 inverted_vs_send=1 inverted_vs_read=1
EOF2
cmp -s "$tmp/out" "$tmp/want" || { cat "$tmp/out"; fail "inversions counted wrong"; }
$P ids "$tmp/t.csv" | awk -F, '$1 ~ /^[0-9]+$/ { printf "%s:%s ", $1, $7 }' > "$tmp/ids"
[ "$(cat "$tmp/ids")" = "1:k1 2:k2 3:k3 4:k4 5:k3 6:k4 7:k2 8:k1 " ] ||
    fail "truth's pairing as call ids: $(cat "$tmp/ids")"
$P ids "$tmp/t.csv" "$tmp/r.csv" | awk -F, '$1 ~ /^[0-9]+$/ { printf "%s:%s ", $1, $7 }' > "$tmp/ids"
[ "$(cat "$tmp/ids")" = "1:k1 2:k2 3:k3 4:k4 5:k4 6:k3 7:k2 8:k1 " ] ||
    fail "a result's pairing as call ids: $(cat "$tmp/ids")"
echo "ok: inversions and pairings counted by hand"
