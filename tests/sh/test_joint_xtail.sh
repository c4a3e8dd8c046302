#!/bin/sh
# swap_tail_tree (joint_xtail.c; docs/joint/speed.md "Wide requests: the
# exchange's tail"): one request of a black box calling one service N
# times, ~5 calls open at once (experiments/joint_wide1.awk).  Each
# exchange of two returns is scored from the request's record; the
# record's remaining terms are now summed from per-binade trees instead of
# one by one.  The bound is not a timing: the output must equal
# swap_tail_tree=0's (every line but params, and the warnings), and the
# metadata must say the trees made most of the tail sums (swap_tail_sums,
# a line only where they fired).  Fails on main: no such option.
. "$PB_ROOT/tests/sh/joint_lib.sh" # B, tmp, fail
cd "$tmp" || exit 1
n=1500
awk -v N=$n -f "$PB_ROOT/experiments/joint_wide1.awk" > w.csv
"$B/infer" --algo joint -o on.out w.csv 2> on.err || fail "infer: $(tail -1 on.err)"
"$B/infer" --algo joint -s swap_tail_tree=0 -o off.out w.csv 2> off.err ||
    fail "infer swap_tail_tree=0: $(tail -1 off.err)"
grep -v '^# \(params\|program\|cpu\|swap_tail_sums\)' on.out > a
grep -v '^# \(params\|program\|cpu\)' off.out > b
cmp -s a b || fail "output differs from swap_tail_tree=0: $(diff a b | head -5)"
cmp -s on.err off.err || fail "warnings differ from swap_tail_tree=0"
grep -q '^# swap_tail_sums=' off.out && fail "swap_tail_tree=0 still summed by trees"
line=$(grep '^# swap_tail_sums=' on.out) || fail "no swap_tail_sums metadata"
ts=$(echo "$line" | sed 's/.*swap_tail_sums=\([0-9]*\).*/\1/')
xr=$(sed -n 's/^# swap_top_resumed=\([0-9]*\).*/\1/p' on.out)
# both passes' exchanges (the swap pass and the confidence's) are ~2 n
[ "$ts" -ge $((n * 3 / 2)) ] || fail "only $ts tail sums by the trees (of $xr exchanges)"
exit 0
