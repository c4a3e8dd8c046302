#!/bin/sh
# experiments/joint_parjoin_toss.py (evaluation only; docs/joint/audits.md,
# "The parjoin rows, twenty-second wave (h185)"): a hand-made trace of two
# requests through a front service B calling D.  Result r pairs D's
# answers the wrong way round (5 with 4, 6 with 3): both its requests
# wrong, and D>B's two returns get the wrong parent call.  Result f is
# the truth's grouping: both right.  Expected: exact r 0, f 2; right
# alone r 0, f 2; the one differing link D>B, parents right r 0, f 2.
set -u
command -v python3 > /dev/null 2>&1 || { echo "SKIP: python3 missing"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
. "$PB_ROOT/tests/sh/joint_lib.sh"
toss_trace > "$tmp/t.csv"
res() {   # res FILE ID:INSTANCE...
    f=$1; shift
    { echo "# pathbench-result 1"; echo "id,instance,rank,parent,confidence"
      for x in "$@"; do echo "${x%%:*},${x#*:},1,,1"; done; } > "$f"
}
res "$tmp/r.csv" 1:1 3:1 6:1 8:1 2:2 4:2 5:2 7:2
res "$tmp/f.csv" 1:1 3:1 5:1 8:1 2:2 4:2 6:2 7:2
python3 "$PB_ROOT/experiments/joint_parjoin_toss.py" "$tmp/t.csv" "$tmp/r.csv" \
    "$tmp/f.csv" > "$tmp/out" || fail "script failed"
cat > "$tmp/want" <<'EOF2'
requests=2 exact joint=0 fcfs=2 joint_only=0 fcfs_only=2 differ_one_right=2
link=D>B return n=2 parent_right joint=0 fcfs=2 differ=2
EOF2
cmp -s "$tmp/out" "$tmp/want" || { cat "$tmp/out"; fail "counted wrong"; }
echo "ok: requests and parents counted by hand"
