#!/bin/sh
# Figure 21 (seed 000, 7.5.5): false-negative path-instance rate against
# message drop rate.  The sniffer's queue is fixed at 64 messages and its
# peak capture rate is varied, as a multiple of the trace's mean message
# rate (densely around 1, where the loss goes from about 10 % to none), up
# to where no message is lost; both the drop rate and the
# false-negative rate are measured (dependent variables), as in the paper.
FIG=fig21
FIG_TITLE="false-negative instance rate vs message drop rate (sniffer queue 64)"
FIG_HOW="maketrace CONF --seed SEED -D messages=LEN | sniffer --queue 64 --rate R | infer --algo ALGO | score --truth (unperturbed trace)"
# multitier+idle is the idle variant linking is built for (lib.sh gen_cfg).
. "$(dirname "$0")/lib.sh"

fig_points() {
    len=$(mode_pick 50000 6000 3000)
    cfgs=$(mode_pick "multitier children-parallel children-0-2 children-d-cc penalty-breaker multitier+idle" "multitier children-d-cc multitier+idle" "multitier")
    rates=$(mode_pick "0.6 0.75 0.85 0.9 0.95 0.97 0.98 0.99 1 1.01 1.02 1.05 1.1 1.25 2 10" "0.7 0.9 0.97 1 1.05 10" "0.7 10")
    algos=$(algo_list "$(mode_pick "nesting linking convolution" "nesting linking convolution" "nesting linking")")
    for cfg in $cfgs; do
        for algo in $algos; do
            for r in $rates; do
                for seed in $(seeds "$(mode_pick 3 2 1)"); do
                    point "$cfg-$algo-r$r-$seed" cfg=$cfg algo=$algo ratex=$r seed=$seed len=$len
                done
            done
        done
    done
}

fig_run() {
    # one trace per config and seed, whatever the capture rate or algorithm
    gen_cfg_to t.csv "$P_cfg" -D messages="$P_len" || return 1
    set -- $(trace_len t.csv)
    n0=$1
    rate=$(awk -v n="$1" -v d="$2" -v x="$P_ratex" 'BEGIN { printf "%.3f", x * n / d }')
    # the captured trace keeps the truth columns: infer never reads them
    # (algorithms see a truth-free view), and score reads the truth from t.csv
    "$PB_BIN/sniffer" --queue 64 --rate "$rate" --seed "$P_seed" t.csv >s.csv || return 1
    n1=$(meta_get s.csv kept)
    [ -n "$n1" ] || n1=$(count_msgs s.csv)
    drop=$(awk -v a="$n0" -v b="$n1" 'BEGIN { printf "%.6f", 1 - b / a }')
    infer "$P_algo" s.csv >r.csv || return 1
    score t.csv r.csv | prefix_rows "config,rate_x,capture_rate,seed,trace_messages,captured,drop_rate" \
        "$P_cfg,$P_ratex,$rate,$P_seed,$n0,$n1,$drop"
}

fig_collect() {
    aggregate "$OUT/$FIG.dat" config,algo drop_rate instance_fn_rate rate_x
}

pb_main "$@"
