#!/bin/sh
# rs_memo (joint_rsmemo.c; docs/joint/speed_late.md "Speed, twenty-sixth
# wave (h218)"): a re-split whose inputs and whose model (per incoming
# link) are those of the same pair's last re-split, which kept its split,
# is left out.  Speed only: on shapes where it fires, as black boxes and
# with call ids, the output is rs_memo=0's but the parameters, the CPU,
# the new metadata line and the three work counters that depend on the
# caches other re-splits leave (resplit_memo_hits, resplit_wcache_hits,
# bnb_row_keep's rows_kept);
# the warnings (with their counts) are the same; shuffled rows give the
# same assignment.  On main there is no rs_memo option: infer refuses it.
. "$PB_ROOT/tests/sh/joint_lib.sh"
cd "$tmp" || exit 1
R=$PB_ROOT
F='^# \(params\|program\|cpu\|rs_memo=\|resplit_memo_hits\|resplit_wcache_hits\|bnb_row_keep=\)'

for c in shape-retry shape-fanin hotel; do
    "$B/maketrace" "$R/maketrace/configs/$c.conf" -D duration=2s > ids.csv || fail "maketrace $c"
    strip_callids ids.csv > bb.csv
    for mode in bb ids; do
        "$B/infer" --algo joint -s rs_memo=0 -o off.out $mode.csv 2> off.err ||
            fail "$c $mode: infer -s rs_memo=0: $(tail -1 off.err)"
        grep -q '^# rs_memo=' off.out && fail "$c $mode: rs_memo=0 printed a line"
        grep -q '^# end patterns=[0-9]* assignments=[1-9]' off.out || fail "$c $mode: nothing assigned"
        "$B/infer" --algo joint -s rs_memo=1 -o on.out $mode.csv 2> on.err ||
            fail "$c $mode: infer -s rs_memo=1: $(tail -1 on.err)"
        n=$(sed -n 's/^# rs_memo=1 resplits_left_out=\([0-9]*\)$/\1/p' on.out)
        if [ "$c" != hotel ] && [ "$mode" = bb ]; then
            [ -n "$n" ] && [ "$n" -gt 0 ] || fail "$c $mode: rs_memo left no re-split out"
        fi
        grep -v "$F" off.out > a
        grep -v "$F" on.out > b
        cmp -s a b || fail "$c $mode: the output differs with rs_memo=1 ($(diff a b | grep -c '^<') lines)"
        cmp -s off.err on.err || fail "$c $mode: the warnings differ with rs_memo=1"
        echo "# $c $mode: rs_memo left ${n:-0} re-splits out, the same output"
    done
    "$B/infer" --algo joint -s conf_selfcal=0 -o r.out bb.csv 2> /dev/null ||
        fail "$c: infer without the copy"
    check_shuffled_same bb.csv r.out
done
exit 0
