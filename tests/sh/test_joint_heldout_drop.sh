#!/bin/sh
# experiments/joint_heldout_drop.py (evaluation only; docs/joint/
# shapes_late.md, "Held-out seeds 57-58 of all four generated audits,
# every method (h273)"): hand-made baseline and fresh tables.  Baseline
# (seeds 1-3, joint): a ids 50 / 60 / 70 %, b blackbox 20 / 30 %.  Fresh
# (seeds 57-58): a ids 40 (below the range by 10: listed) and 65 (inside);
# b blackbox 28 (inside) and 31 (above); c ids 10 (no baseline row); the
# other methods' rows are ignored.  Expected: "1 below ..., 2 inside, 1
# above, 1 with no baseline row", one row listed past 5 points (a s57,
# -10.00), none past 20.
set -u
command -v python3 > /dev/null 2>&1 || { echo "SKIP: python3 missing"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
h=config,seed,variant,mode,algo,exact_accuracy,set_accuracy,requests,cpu_s,cpu_s_per_1000,infer_args
cat > "$tmp/base.csv" <<CSV
$h
a,1,x1:ns,ids,joint,0.5,0.5,100,0.1,1,""
a,2,x1:ns,ids,joint,0.6,0.6,100,0.1,1,""
a,3,x1:ns,ids,joint,0.7,0.7,100,0.1,1,""
a,3,x1:ns,ids,fcfs,0.9,0.9,100,0.1,1,""
b,1,x2:1ms,blackbox,joint,0.2,0.2,100,0.1,1,""
b,2,x2:1ms,blackbox,joint,0.3,0.3,100,0.1,1,""
CSV
cat > "$tmp/fresh.csv" <<CSV
$h
a,57,x1:ns,ids,joint,0.4,0.4,100,0.1,1,""
a,57,x1:ns,ids,fcfs,0.01,0.01,100,0.1,1,""
a,58,x1:ns,ids,joint,0.65,0.65,100,0.1,1,""
b,57,x2:1ms,blackbox,joint,0.28,0.28,100,0.1,1,""
b,58,x2:1ms,blackbox,joint,0.31,0.31,100,0.1,1,""
c,57,x1:ns,ids,joint,0.1,0.1,100,0.1,1,""
CSV
python3 "$PB_ROOT/experiments/joint_heldout_drop.py" "$tmp/base.csv" "$tmp/fresh.csv" > "$tmp/out" || fail "the script failed"
grep -q '^fresh joint rows: 1 below the baseline seeds. range, 2 inside, 1 above, 1 with no baseline row$' "$tmp/out" ||
    { cat "$tmp/out"; fail "counts"; }
grep -q 'more than 5 points below the baseline.s lowest seed: 1$' "$tmp/out" || { cat "$tmp/out"; fail "drops"; }
grep -q '^  a  *s57 .*joint  40.00 of   100 .*50.00 ..  70.00   (-10.00)$' "$tmp/out" || { cat "$tmp/out"; fail "the row"; }
python3 "$PB_ROOT/experiments/joint_heldout_drop.py" --points 20 "$tmp/base.csv" "$tmp/fresh.csv" |
    grep -q 'more than 20 points below the baseline.s lowest seed: 0$' || fail "--points"
python3 "$PB_ROOT/experiments/joint_heldout_drop.py" "$tmp/base.csv" > /dev/null 2>&1 && fail "one CSV accepted"
echo PASS
