#!/bin/sh
# repair_incr (joint_rpinc.c; docs/joint/speed_late.md "Speed,
# twenty-fourth wave (h197)"): a re-pairing round after the first
# re-splits, in its solves' first pass, only the pairs of requests changed
# since the solve of the same kind in the round before.  Not exact in
# general (the model is refitted between the rounds), so this checks what
# the rule promises on inputs where it fires: as a black box, on maketrace
# shapes (fan-in, retries, hotel), repair_incr=0 prints no line (the
# output is main's); repair_incr=1 and 2 leave re-splits out (the
# metadata line says how many; 2 at least as many as 1) and give the same
# output (every line but the parameters, the CPU and the work counters)
# and warnings (but the re-split counts); and with shuffled rows the
# option's assignment is the same.  With call ids (no re-pairing) the
# option leaves nothing out.  On main there is no repair_incr option:
# infer refuses it.
. "$PB_ROOT/tests/sh/joint_lib.sh"
cd "$tmp" || exit 1
R=$PB_ROOT
F='^# \(params\|program\|cpu\|resplit_\|order_bound\|ls_open_fresh\|repair_incr\|bnb_row_keep\|warning: joint: [0-9]* re-splits\)'

for c in shape-fanin shape-retry hotel; do
    "$B/maketrace" "$R/maketrace/configs/$c.conf" -D duration=2s > ids.csv || fail "maketrace $c"
    strip_callids ids.csv > bb.csv
    "$B/infer" --algo joint -s repair_incr=0 -o off.out bb.csv 2> off.err ||
        fail "$c: infer -s repair_incr=0: $(tail -1 off.err)"
    grep -q '^# repair_incr=' off.out && fail "$c: repair_incr=0 printed a line"
    grep -q '^# end patterns=[0-9]* assignments=[1-9]' off.out || fail "$c: nothing assigned"
    prev=0
    for m in 1 2; do
        "$B/infer" --algo joint -s repair_incr=$m -o on.out bb.csv 2> on.err ||
            fail "$c: infer -s repair_incr=$m: $(tail -1 on.err)"
        n=$(sed -n "s/^# repair_incr=$m resplits_left_out=\([0-9]*\).*/\1/p" on.out)
        [ -n "$n" ] || fail "$c: no repair_incr line"
        [ "$n" -gt 0 ] || fail "$c: repair_incr=$m left no re-split out"
        [ "$n" -ge "$prev" ] || fail "$c: repair_incr=$m left out fewer ($n) than 1 ($prev)"
        prev=$n
        grep -v "$F" off.out > a
        grep -v "$F" on.out > b
        cmp -s a b || fail "$c: the output differs with repair_incr=$m ($(diff a b | grep -c '^<') lines)"
        grep -v 're-splits' off.err > a
        grep -v 're-splits' on.err > b
        cmp -s a b || fail "$c: the warnings differ with repair_incr=$m"
        echo "# $c: repair_incr=$m left $n re-splits out, the same output"
    done
    "$B/infer" --algo joint -s conf_selfcal=0 -s repair_incr=2 -o r2.out bb.csv 2> /dev/null ||
        fail "$c: infer without the copy"
    check_shuffled_same bb.csv r2.out -s repair_incr=2
    "$B/infer" --algo joint -s repair_incr=2 -o ids.out ids.csv 2> /dev/null || fail "$c: infer ids"
    grep -q '^# repair_incr=2 resplits_left_out=0$' ids.out || fail "$c: with call ids it left re-splits out"
done
exit 0
