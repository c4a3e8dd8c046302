#!/bin/sh
# experiments/joint_loss_cross.sh --blackbox (docs/joint/loss.md, "Loss with
# call ids: crossed chains", the black box's spill-over): the same loss
# draws as with call ids, inferred as a black box.  On the synthetic class
# only (--data an empty folder), sniffer seed 1: both tables have the two
# synthetic rows; the intact requests are the same in both (the same
# draw); the black box has one setting (its two columns equal); and the
# callid column was really emptied (the black box is less exact without
# loss than joint with call ids on this class: 47.5 against 75.1 %).
# Fails on the tree before the option (an unknown option is an error).
set -u
B="$PB_BIN"
for p in maketrace sniffer importtrace infer score; do [ -x "$B/$p" ] || exit 77; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$tmp/empty"
S="$PB_ROOT/experiments/joint_loss_cross.sh"
PB_BIN="$B" sh "$S" --data "$tmp/empty" --seeds 1 --out "$tmp/ids" > "$tmp/log" 2>&1 ||
    fail "joint_loss_cross.sh: $(tail -2 "$tmp/log")"
PB_BIN="$B" sh "$S" --blackbox --data "$tmp/empty" --seeds 1 --out "$tmp/bb" > "$tmp/log" 2>&1 ||
    fail "joint_loss_cross.sh --blackbox: $(tail -2 "$tmp/log")"
for f in joint_loss_cross_bb.csv joint_loss_cross_bb.md; do
    [ -f "$tmp/bb/$f" ] || fail "--blackbox wrote no $f"
done
[ -f "$tmp/bb/joint_loss_cross.csv" ] && fail "--blackbox wrote the call-id table"
grep -q "^| set | intact requests | exact without loss | at 2 % loss | lost |" \
    "$tmp/bb/joint_loss_cross_bb.md" || fail "the black-box table's header"
n=$(grep -c "^synthetic/joint_loss_repeat-i[46],1," "$tmp/bb/joint_loss_cross_bb.csv")
[ "$n" = 2 ] || fail "black-box rows: $n, expected 2"
# the same draws: the same intact requests; one setting; less exact without call ids
awk -F, 'NR == FNR { if (FNR > 1) { n[$1] = $3; e[$1] = $4 } next }
    FNR > 1 { if (!($1 in n)) { print "no ids row for " $1; bad = 1; next }
              if ($3 != n[$1]) { print $1 ": intact " $3 " against " n[$1]; bad = 1 }
              if ($5 != $6 || $7 != $8) { print $1 ": two settings differ"; bad = 1 }
              if ($4 >= e[$1]) { print $1 ": black box " $4 " not below " e[$1] " with ids"; bad = 1 } }
    END { exit bad }' "$tmp/ids/joint_loss_cross.csv" "$tmp/bb/joint_loss_cross_bb.csv" > "$tmp/chk" ||
    fail "$(cat "$tmp/chk")"
echo "black box at 2 % loss, seed 1: $(cut -d, -f1,3-5,7 "$tmp/bb/joint_loss_cross_bb.csv" | tr '\n' ' ')"
