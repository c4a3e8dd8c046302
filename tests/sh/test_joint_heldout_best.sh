#!/bin/sh
# experiments/joint_heldout_drop.py --best (evaluation only; docs/joint/
# audits_late.md, "Thirty-third wave", seeds 59-60): joint against the
# best other method on each row of hand-made fresh tables.  Row a: joint
# 0.50 of 200 (100 requests), fcfs 0.51 and arrival 0.51 (102): below by
# 2 requests (-1.00 point), the best others named "arrival=fcfs".  Row b:
# joint 0.300 of 1000, fcfs 0.3004 (0.4 requests, rounds to 0): equal.
# Row c: joint 0.9, nesting 0.1: above.  Row d: joint 0.05 against vpath
# 0.6 of 100: below by 55 and a collapse (under 10 % of the best other).
# Row e: joint alone: not compared.  Expected: "4 rows; ... below 2,
# equal 1, above 1; collapsed 1", d listed before a (largest margin
# first), one COLLAPSE line.
set -u
command -v python3 > /dev/null 2>&1 || { echo "SKIP: python3 missing"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
h=config,seed,variant,mode,algo,exact_accuracy,set_accuracy,requests,cpu_s,cpu_s_per_1000,infer_args
cat > "$tmp/fresh.csv" <<CSV
$h
a,59,x2:ns,blackbox,joint,0.50,0.50,200,0.1,1,""
a,59,x2:ns,blackbox,fcfs,0.51,0.51,200,0.1,1,""
a,59,x2:ns,blackbox,arrival,0.51,0.51,200,0.1,1,""
a,59,x2:ns,blackbox,nesting,0.2,0.2,200,0.1,1,""
b,60,x1:1ms,blackbox,joint,0.300,0.300,1000,0.1,1,""
b,60,x1:1ms,blackbox,fcfs,0.3004,0.3004,1000,0.1,1,""
c,59,x1:ns,ids,joint,0.9,0.9,100,0.1,1,""
c,59,x1:ns,ids,nesting,0.1,0.1,100,0.1,1,""
d,60,x1:ns,ids,joint,0.05,0.05,100,0.1,1,""
d,60,x1:ns,ids,vpath,0.6,0.6,100,0.1,1,""
e,59,x1:ns,ids,joint,0.7,0.7,100,0.1,1,""
CSV
P="python3 $PB_ROOT/experiments/joint_heldout_drop.py"
$P --best "$tmp/fresh.csv" > "$tmp/out" || fail "the script failed"
grep -q '^fresh: 4 rows; joint below the best other 2, equal 1, above 1; collapsed 1$' "$tmp/out" ||
    { cat "$tmp/out"; fail "counts"; }
grep -q '^  BELOW a,59,x2:ns,blackbox  *joint  50.00  arrival=fcfs  51.00  -2 of 200 (-1.00)$' "$tmp/out" ||
    { cat "$tmp/out"; fail "row a"; }
[ "$(grep -c BELOW "$tmp/out")" = 2 ] || { cat "$tmp/out"; fail "two rows below"; }
grep BELOW "$tmp/out" | head -1 | grep -q 'BELOW d,60,.*vpath  60.00  -55 of 100' || { cat "$tmp/out"; fail "order"; }
grep -q '^  COLLAPSE d,60,x1:ns,ids$' "$tmp/out" || { cat "$tmp/out"; fail "collapse"; }
$P --best > /dev/null 2>&1 && fail "no CSV accepted"
echo PASS
