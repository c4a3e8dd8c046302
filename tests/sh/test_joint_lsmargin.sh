#!/bin/sh
# ls_margin (joint_lsmargin.c; docs/joint/speed_w21.md "Speed, twenty-third
# wave (h194)"): a re-split of two requests that kept its split, every
# other split it looked at at least T nats less likely, is not made again
# in the same search and kind of solve while the two requests stay as they
# were.  Not exact in general (the model is refitted in between), so this
# checks what the rule promises on inputs where it fires: as a black box,
# on three maketrace shapes (fan-in, retries, the multi-tier shape at four
# times the load) and the hotel shape, the output with ls_margin=10 (every
# line but the parameters, the CPU and the work counters) and the warnings
# but the re-split counts are those of ls_margin=0, and re-splits were
# left out (the metadata line says how many).  A margin of 0 must print no
# line (the output is main's).
# bnb_row_keep (joint_bnb.c, default 1, exact) is checked on the same
# traces: bnb_row_keep=0's output is the default's, and some run kept rows.
# On main there is no ls_margin option: infer refuses it.
. "$PB_ROOT/tests/sh/joint_lib.sh"
cd "$tmp" || exit 1
R=$PB_ROOT
F='^# \(params\|program\|cpu\|resplit_\|order_bound\|ls_open_fresh\|ls_margin\|bnb_row_keep\|warning: joint: [0-9]* re-splits\)'
kept=0

for c in shape-fanin:1 shape-retry:1 multitier:4 hotel:1; do
    "$B/maketrace" "$R/maketrace/configs/${c%:*}.conf" -D duration=2s -D instances_scale="${c#*:}" \
        > ids.csv || fail "maketrace $c"
    strip_callids ids.csv > bb.csv
    "$B/infer" --algo joint -s ls_margin=0 -o off.out bb.csv 2> off.err ||
        fail "$c: infer -s ls_margin=0: $(tail -1 off.err)"
    grep -q '^# ls_margin=' off.out && fail "$c: ls_margin=0 printed a line"
    grep -q '^# end patterns=[0-9]* assignments=[1-9]' off.out || fail "$c: nothing assigned"
    "$B/infer" --algo joint -s ls_margin=10 -o on.out bb.csv 2> on.err ||
        fail "$c: infer -s ls_margin=10: $(tail -1 on.err)"
    n=$(sed -n 's/^# ls_margin=10 resplits_left_out=\([0-9]*\).*/\1/p' on.out)
    [ -n "$n" ] || fail "$c: no ls_margin line"
    [ "$n" -gt 0 ] || fail "$c: no re-split left out"
    grep -v "$F" off.out > a
    grep -v "$F" on.out > b
    cmp -s a b || fail "$c: the output differs with ls_margin=10 ($(diff a b | grep -c '^<') lines)"
    grep -v 're-splits' off.err > a
    grep -v 're-splits' on.err > b
    cmp -s a b || fail "$c: the warnings differ with ls_margin=10"
    echo "# $c: $n re-splits left out, the same output"
    "$B/infer" --algo joint -s bnb_row_keep=0 -o rk0.out bb.csv 2> rk0.err ||
        fail "$c: infer -s bnb_row_keep=0: $(tail -1 rk0.err)"
    grep -q '^# bnb_row_keep=' rk0.out && fail "$c: bnb_row_keep=0 printed a line"
    grep -v "$F" rk0.out > a
    grep -v "$F" off.out > b
    cmp -s a b || fail "$c: the output differs with bnb_row_keep=0"
    k=$(sed -n 's/^# bnb_row_keep=1 rows_kept=\([0-9]*\).*/\1/p' off.out)
    kept=$((kept + ${k:-0}))
done
[ "$kept" -gt 0 ] || fail "bnb_row_keep kept no row on any input"
echo "# bnb_row_keep: $kept rows kept, the same output"
exit 0
