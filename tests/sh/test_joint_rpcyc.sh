#!/bin/sh
# greedy_cycle (joint_rpcyc.c; docs/joint/speed_late.md "Re-pairing
# rounds that settle (h207)"): a solve's greedy rounds that put every call
# back on the request it had two rounds before stop on the solution the
# rounds left would leave.  Speed only: on the shapes where it fires
# (shape-retry as a black box) the output is the same as greedy_cycle=0's
# but the parameters, the CPU and the fit's work counters, the matching
# rounds and changes counted as if the rounds ran, and the metadata line
# says how many solves it cut; where it does not fire (shape-fanin,
# hotel) no line and the same output; with shuffled rows the same
# assignment.  On main there is no greedy_cycle option: infer refuses it.
. "$PB_ROOT/tests/sh/joint_lib.sh"
cd "$tmp" || exit 1
R=$PB_ROOT
F='^# \(params\|program\|cpu\|greedy_cycle=\|fit_walks\|parallel_sweeps\)'

for c in shape-retry shape-fanin hotel; do
    "$B/maketrace" "$R/maketrace/configs/$c.conf" -D duration=2s > ids.csv || fail "maketrace $c"
    strip_callids ids.csv > bb.csv
    "$B/infer" --algo joint -s greedy_cycle=0 -o off.out bb.csv 2> off.err ||
        fail "$c: infer -s greedy_cycle=0: $(tail -1 off.err)"
    grep -q '^# greedy_cycle=' off.out && fail "$c: greedy_cycle=0 printed a line"
    grep -q '^# end patterns=[0-9]* assignments=[1-9]' off.out || fail "$c: nothing assigned"
    "$B/infer" --algo joint -s greedy_cycle=1 -o on.out bb.csv 2> on.err ||
        fail "$c: infer -s greedy_cycle=1: $(tail -1 on.err)"
    n=$(sed -n 's/^# greedy_cycle=1 solves_cut=\([0-9]*\) rounds_left_out=[0-9]*$/\1/p' on.out)
    if [ "$c" = shape-retry ]; then
        [ -n "$n" ] && [ "$n" -gt 0 ] || fail "$c: greedy_cycle cut no solve"
    else
        [ -z "$n" ] || fail "$c: greedy_cycle cut $n solves (none expected)"
    fi
    grep -v "$F" off.out > a
    grep -v "$F" on.out > b
    cmp -s a b || fail "$c: the output differs with greedy_cycle=1 ($(diff a b | grep -c '^<') lines)"
    cmp -s off.err on.err || fail "$c: the warnings differ with greedy_cycle=1"
    echo "# $c: greedy_cycle cut ${n:-0} solves, the same output"
    "$B/infer" --algo joint -s conf_selfcal=0 -o r.out bb.csv 2> /dev/null ||
        fail "$c: infer without the copy"
    check_shuffled_same bb.csv r.out
done
exit 0
