#!/bin/sh
# ll_share (joint_llshare.c; docs/joint/speed_w21.md, "Speed, twenty-first
# wave (h167)"): without call ids the free and held searches' scores with
# the order terms start from the log-likelihoods the choice between them
# just computed.  The same output byte for byte (but the params and cpu
# lines) as ll_share=0 on maketrace black-box traces: the fan-out and
# repeated-call shapes at two seeds each, where both searches run and
# their scores are printed (pair_order= line).  Fails on a tree without
# the option.
. "$PB_ROOT/tests/sh/joint_lib.sh"
for c in shape-fanout shape-types; do
    for seed in 3 11; do
        "$B/maketrace" "$PB_ROOT/maketrace/configs/$c.conf" -s seed=$seed > "$tmp/m.csv" ||
            fail "maketrace $c seed $seed"
        strip_ids "$tmp/m.csv" > "$tmp/bb.csv"
        run_nocal "$tmp/bb.csv" "$tmp/r0.csv" -s ll_share=0
        run_nocal "$tmp/bb.csv" "$tmp/r1.csv"
        grep -q '^# pair_order=' "$tmp/r1.csv" ||
            fail "$c seed $seed: no pair_order line (the two searches did not run)"
        for v in 0 1; do
            grep -v '^# params:\|^# cpu_' "$tmp/r$v.csv" > "$tmp/x$v"
        done
        cmp -s "$tmp/x0" "$tmp/x1" || fail "$c seed $seed: ll_share=1 differs from ll_share=0"
    done
done
echo "shape-fanout, shape-types (seeds 3, 11) black box: ll_share on and off the same output"
echo "PASS"
