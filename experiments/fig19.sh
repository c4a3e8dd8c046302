#!/bin/sh
# Figure 19 (seed 000, 7.5.3): false-positive path-instance rate against
# trace parallelism, for the multi-tier trace and the four pathological
# cases, per algorithm.  Parallelism is raised by scaling the number of
# parallel tracelet instances (-D instances_scale=S); the x axis is the
# measured mean per-node parallelism of each trace as Table 1 defines it
# (mean candidate parents per nested call, computed by a nesting run: the
# same x for every algorithm), a dependent variable, as in the paper.
# open_calls (trace_stats.awk) is a second, algorithm-free measure.
FIG=fig19
FIG_TITLE="false-positive instance rate vs mean per-node parallelism"
FIG_HOW="maketrace CONF -s SEED -D messages=LEN -D instances_scale=S | infer --algo ALGO | score"
. "$(dirname "$0")/lib.sh"

CONFIGS="multitier children-parallel children-0-2 children-d-cc penalty-breaker"

fig_points() {
    len=$(mode_pick 50000 6000 3000)
    scales=$(mode_pick "0.04 0.25 0.5 1 2 4 8" "0.04 0.25 1 4" "0.04 4")
    algos=$(mode_pick "nesting linking convolution" "nesting linking convolution" "nesting linking")
    for cfg in $CONFIGS; do
        for algo in $algos truth; do
            for s in $scales; do
                for seed in $(seeds "$(mode_pick 3 2 1)"); do
                    # the oracle once per level is enough to show it is exact
                    [ "$algo" = truth ] && [ "$seed" != 1 ] && continue
                    point "$cfg-$algo-s$s-$seed" cfg=$cfg algo=$algo scale=$s seed=$seed len=$len
                done
            done
        done
    done
}

fig_run() {
    gen "$P_cfg" -D messages="$P_len" -D instances_scale="$P_scale" >t.csv || return 1
    set -- $(trace_stats t.csv)
    par=$(nest_par t.csv)
    infer "$P_algo" t.csv >r.csv || return 1
    score t.csv r.csv | prefix_rows "config,scale,seed,trace_messages,duration,parallelism,open_calls" \
        "$P_cfg,$P_scale,$P_seed,$1,$2,$par,$3"
}

fig_collect() {
    aggregate "$OUT/$FIG.dat" config,algo parallelism instance_fp_rate scale
}

pb_main "$@"
