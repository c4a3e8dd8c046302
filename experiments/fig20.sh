#!/bin/sh
# Figure 20 (seed 000, 7.5.4): false-positive path-instance rate against
# the standard deviation of the node delays, for the multi-tier trace and
# the four pathological cases, per algorithm.  Every delay's sd is set to
# the same value (-D delay_sd=SD).
FIG=fig20
FIG_TITLE="false-positive instance rate vs delay standard deviation"
FIG_HOW="maketrace CONF --seed SEED -D messages=LEN -D delay_sd=SD | infer --algo ALGO | score"
. "$(dirname "$0")/lib.sh"

fig_points() { sweep_points sd sd "0 0.002 0.005 0.01 0.02 0.04" "0 0.005 0.02" "0.001 0.03"; }
fig_run() { sweep_run sd delay_sd delay_sd s; }   # SD in seconds

fig_collect() {
    aggregate "$OUT/$FIG.dat" config,algo delay_sd instance_fp_rate
}

pb_main "$@"
