#!/bin/sh
# Figure 20 (seed 000, 7.5.4): false-positive path-instance rate against
# the standard deviation of the node delays, for the multi-tier trace and
# the four pathological cases, per algorithm.  Every delay's sd is set to
# the same value (-D delay_sd=SD).
FIG=fig20
FIG_TITLE="false-positive instance rate vs delay standard deviation"
FIG_HOW="maketrace CONF -s SEED -D messages=LEN -D delay_sd=SD | infer --algo ALGO | score"
. "$(dirname "$0")/lib.sh"

CONFIGS="multitier children-parallel children-0-2 children-d-cc penalty-breaker"

fig_points() {
    len=$(mode_pick 50000 6000 3000)
    sds=$(mode_pick "0 0.002 0.005 0.01 0.02 0.04" "0 0.005 0.02" "0.001 0.03")
    algos=$(mode_pick "nesting linking convolution" "nesting linking convolution" "nesting linking")
    for cfg in $CONFIGS; do
        for algo in $algos truth; do
            for sd in $sds; do
                for seed in $(seeds "$(mode_pick 3 2 1)"); do
                    [ "$algo" = truth ] && [ "$seed" != 1 ] && continue
                    point "$cfg-$algo-sd$sd-$seed" cfg=$cfg algo=$algo sd=$sd seed=$seed len=$len
                done
            done
        done
    done
}

fig_run() {
    gen "$P_cfg" -D messages="$P_len" -D delay_sd="$P_sd" >t.csv || return 1
    set -- $(trace_stats t.csv)
    par=$(nest_par t.csv)
    infer "$P_algo" t.csv >r.csv || return 1
    score t.csv r.csv | prefix_rows "config,delay_sd,seed,trace_messages,duration,parallelism,open_calls" \
        "$P_cfg,$P_sd,$P_seed,$1,$2,$par,$3"
}

fig_collect() {
    aggregate "$OUT/$FIG.dat" config,algo delay_sd instance_fp_rate
}

pb_main "$@"
