#!/bin/sh
# experiments/joint_perreq.awk (evaluation only; docs/joint/systems.md,
# "The eBPF capture as a black box: the crossings, request by request"):
# per request, 1 when the result puts exactly its messages in one
# instance with the truth's parents.  Hand-made: request p1 right, p2 with
# one wrong parent, p3 split over two instances, p4 sharing its instance
# with a message of another request.  Then on a drawn trace the per-request
# sum is score's instances_exact (fcfs and joint).
set -u
for p in maketrace infer score; do [ -x "$PB_BIN/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
A="$PB_ROOT/experiments/joint_perreq.awk"
cat > "$tmp/t.csv" <<'CSV'
id,ts,src,dst,type,path,cause
1,1.0,A,B,call,p1,
2,1.1,B,A,return,p1,1
3,1.2,A,B,call,p2,
4,1.3,B,A,return,p2,3
5,1.4,A,B,call,p3,
6,1.5,B,A,return,p3,5
7,1.6,A,B,call,p4,
8,1.7,B,A,return,p4,7
9,1.8,A,B,call,p5,
CSV
cat > "$tmp/r.csv" <<'CSV'
# pathbench-result 1
rank,pattern,count
id,instance,rank,parent
1,1,1,
2,1,1,1
3,2,1,
4,2,1,1
5,3,1,
6,4,1,5
7,5,1,
8,5,1,7
9,5,1,
CSV
awk -F, -f "$A" "$tmp/t.csv" "$tmp/r.csv" | LC_ALL=C sort > "$tmp/out"
printf '%s\n' "p1 1" "p2 0" "p3 0" "p4 0" "p5 0" > "$tmp/want"
cmp -s "$tmp/out" "$tmp/want" || { cat "$tmp/out"; fail "requests judged wrong"; }
"$PB_BIN/maketrace" -s seed=2 -s duration=0.075s "$PB_ROOT/experiments/joint_goread.conf" \
    > "$tmp/g.csv" || fail "maketrace joint_goread.conf"
for a in fcfs joint; do
    "$PB_BIN/infer" --algo $a -s callids=0 -o "$tmp/$a.csv" "$tmp/g.csv" 2> /dev/null ||
        fail "infer $a"
    want=$("$PB_BIN/score" --truth "$tmp/g.csv" "$tmp/$a.csv" |
           awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                    { print $c["instances_exact"] }')
    got=$(awk -F, -f "$A" "$tmp/g.csv" "$tmp/$a.csv" | awk '{ s += $2 } END { print s + 0 }')
    [ "$got" = "$want" ] || fail "$a: per-request sum $got, score's instances_exact $want"
done
echo "ok: requests judged by hand; per-request sums equal score's ($got for joint)"
