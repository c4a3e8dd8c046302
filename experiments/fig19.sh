#!/bin/sh
# Figure 19 (seed 000, 7.5.3): false-positive path-instance rate against
# trace parallelism, for the multi-tier trace and the four pathological
# cases, per algorithm.  Parallelism is raised by scaling the number of
# parallel tracelet instances (-D instances_scale=S); the x axis is the
# measured mean per-node parallelism of each trace as Table 1 defines it
# (mean candidate parents per nested call, computed by a nesting run: the
# same x for every algorithm), a dependent variable, as in the paper.
FIG=fig19
FIG_TITLE="false-positive instance rate vs mean per-node parallelism"
FIG_HOW="maketrace CONF --seed SEED -D messages=LEN -D instances_scale=S | infer --algo ALGO | score"
. "$(dirname "$0")/lib.sh"

fig_points() { sweep_points scale s "0.04 0.25 0.5 1 2 4 8" "0.04 0.25 1 4" "0.04 4"; }
fig_run() { sweep_run scale instances_scale scale; }

fig_collect() {
    aggregate "$OUT/$FIG.dat" config,algo parallelism instance_fp_rate scale
}

pb_main "$@"
