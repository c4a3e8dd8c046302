#!/bin/sh
# rs_census (joint_rsmemo.c; docs/joint/speed_w29.md "Which re-splits
# repeat (h275)"): a measurement.  Every re-split where rs_memo's hashes
# cover what it reads is counted by what changed since the same pair's
# last re-split that kept its split (nothing; only the model; its inputs)
# and whether it moved a call.  It leaves nothing out: the output is
# rs_census=0's but the parameters, the CPU and its own line, the warnings
# the same.  The counts hold together (each class at most the whole, its
# moves at most the class's, the re-splits rs_memo would leave out never
# move), and with rs_memo=1 the repeats it counts are the re-splits
# rs_memo leaves out.  On main there is no rs_census option: infer refuses
# it (so this test fails there).
. "$PB_ROOT/tests/sh/joint_lib.sh"
cd "$tmp" || exit 1
R=$PB_ROOT
F='^# \(params\|program\|cpu\|rs_census=\)'
num() { sed -n "s/^# rs_census=1 .*$1=\([0-9]*\).*/\1/p" "$2"; }

for c in shape-retry shape-fanin; do
    "$B/maketrace" "$R/maketrace/configs/$c.conf" -D duration=2s > ids.csv || fail "maketrace $c"
    strip_callids ids.csv > bb.csv
    "$B/infer" --algo joint -o off.out bb.csv 2> off.err || fail "$c: infer: $(tail -1 off.err)"
    grep -q '^# rs_census=' off.out && fail "$c: rs_census=0 printed a line"
    "$B/infer" --algo joint -s rs_census=1 -o on.out bb.csv 2> on.err ||
        fail "$c: infer -s rs_census=1: $(tail -1 on.err)"
    line=$(grep '^# rs_census=1 ' on.out) || fail "$c: no rs_census line"
    set -- $(echo "$line" | sed 's/[a-z_]*=//g; s/^# //')
    [ $# -eq 11 ] || fail "$c: the line has $# numbers: $line"
    all=$2 mv=$3 rep=$4 repmv=$5 mod=$6 modmv=$7 fp=${10} fpmv=${11}
    [ "$fp" -gt 0 ] && [ "$fp" -le "$all" ] && [ "$fpmv" -le "$mv" ] && [ "$fpmv" -le "$fp" ] ||
        fail "$c: the first passes' counts do not hold together: $line"
    [ "$all" -gt 0 ] || fail "$c: no re-split counted: $line"
    [ "$rep" -gt 0 ] || fail "$c: no repeated re-split counted: $line"
    [ "$repmv" -eq 0 ] || fail "$c: a re-split rs_memo leaves out moved: $line"
    [ $((rep + mod)) -le "$all" ] && [ "$mv" -le "$all" ] && [ "$modmv" -le "$mod" ] &&
        [ $((repmv + modmv)) -le "$mv" ] || fail "$c: the counts do not hold together: $line"
    grep -v "$F" off.out > a
    grep -v "$F" on.out > b
    cmp -s a b || fail "$c: the output differs with rs_census=1 ($(diff a b | grep -c '^<') lines)"
    cmp -s off.err on.err || fail "$c: the warnings differ with rs_census=1"
    # with rs_memo=1 the repeats are left out: as many as the census counts
    "$B/infer" --algo joint -s rs_memo=1 -o memo.out bb.csv 2> /dev/null || fail "$c: rs_memo=1"
    left=$(sed -n 's/^# rs_memo=1 resplits_left_out=\([0-9]*\)$/\1/p' memo.out)
    [ "${left:-0}" -eq "$rep" ] || fail "$c: rs_memo left ${left:-0} out, the census counts $rep"
    echo "# $c bb: $all re-splits, $mv moved; $rep repeats (rs_memo leaves $left out), 0 moved; $mod under a refitted model only, $modmv moved"
done
exit 0
