#!/bin/sh
# experiments/joint_margins.py (evaluation only; docs/joint/shapes_late.md,
# "Held-out shapes against every method"): a hand-made audit table of
# three rows.  Row a: joint 0.50 of 200 requests, fcfs 0.505 (one request
# more): below by 1.  Row b: joint = fcfs = 0.25 of 100: equal.  Row c:
# joint 0.9 of 10, nesting 0.5: above by 4.  A key with joint alone is
# skipped.  Expected: "1 below, equal 1, above 1"; least margins listed
# below first (a -1, then b +0, then c +4), the tie named fcfs=nesting.
set -u
command -v python3 > /dev/null 2>&1 || { echo "SKIP: python3 missing"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
cat > "$tmp/a.csv" <<'CSV'
config,seed,variant,mode,algo,exact_accuracy,set_accuracy,requests,cpu_s,cpu_s_per_1000,infer_args
a,1,x1:ns,blackbox,joint,0.5,0.5,200,0.1,0.5,""
a,1,x1:ns,blackbox,fcfs,0.505,0.505,200,0.1,0.5,""
a,1,x1:ns,blackbox,nesting,0.1,0.1,200,0.1,0.5,""
b,1,x1:ns,ids,joint,0.25,0.25,100,0.1,1,""
b,1,x1:ns,ids,fcfs,0.25,0.25,100,0.1,1,""
b,1,x1:ns,ids,nesting,0.25,0.25,100,0.1,1,""
c,2,x2:1ms,ids,joint,0.9,0.9,10,0.1,10,""
c,2,x2:1ms,ids,nesting,0.5,0.5,10,0.1,10,""
d,1,x1:ns,ids,joint,0.7,0.7,10,0.1,10,""
CSV
python3 "$PB_ROOT/experiments/joint_margins.py" "$tmp/a.csv" > "$tmp/out" || fail "the script failed"
grep -q '^a: 3 rows; joint below the best other 1, equal 1, above 1$' "$tmp/out" ||
    { cat "$tmp/out"; fail "counts"; }
sed -n '/^least margins/,$p' "$tmp/out" | sed 1d | awk '{ print $1 == "BELOW" ? $3 : $2 }' > "$tmp/order"
printf 'a,1,x1:ns,blackbox\nb,1,x1:ns,ids\nc,2,x2:1ms,ids\n' | cmp -s - "$tmp/order" ||
    { cat "$tmp/out"; fail "order of the least margins"; }
grep '^BELOW' "$tmp/out" | grep -q 'fcfs  50.50     -1 of 200' || { cat "$tmp/out"; fail "row a"; }
grep 'b,1,x1:ns,ids' "$tmp/out" | grep -q 'fcfs=nesting  25.00     +0 of 100' || { cat "$tmp/out"; fail "row b"; }
grep 'c,2,x2:1ms,ids' "$tmp/out" | grep -q '+4 of 10' || { cat "$tmp/out"; fail "row c"; }
exit 0
