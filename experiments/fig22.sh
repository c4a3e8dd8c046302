#!/bin/sh
# Figure 22 (seed 000, 7.5.6): false-negative path-instance rate against
# clock skew at WS2 (its clock 0-60 ms fast) on the multi-tier trace.
# Curves: nesting without compensation ("no comp"), with a 30 ms skew
# window ("comp"), with the window and scoreboard smoothing
# ("comp+smooth"), the same with WS2's clock slow ("rev, comp+smooth");
# message linking, which uses both timestamps of a message and should be
# immune to a constant offset, on the same trace ("linking") and on the
# idle variant linking is built for ("linking-idle": one request loop,
# think 2.5-3 s, 1 ms network delay; see lib.sh gen_cfg); and
# convolution.  The vertical marks are
# the trace's measured mean call and return delays.  The trace runs 6
# parallel instances (-D instances=6), which gives the mean per-node
# parallelism of Table 1's "normal" multi-tier trace (1.7 as nesting measures it), so that
# skew, not parallelism, dominates.
FIG=fig22
FIG_TITLE="false-negative instance rate vs clock skew at WS2"
FIG_HOW="maketrace multitier.conf --seed SEED -D instances=6 -D messages=LEN | skewer --node WS2=+-SKEW | infer (curve's parameters) | score --truth (unskewed trace)"
. "$(dirname "$0")/lib.sh"

fig_points() {
    len=$(mode_pick 50000 6000 3000)
    skews=$(mode_pick "0 0.005 0.01 0.015 0.02 0.03 0.04 0.05 0.06" "0 0.01 0.03 0.06" "0 0.06")
    curves=$(mode_pick "nocomp comp compsmooth revcompsmooth linking linking-idle convolution" \
        "nocomp comp compsmooth revcompsmooth linking linking-idle convolution" "nocomp linking linking-idle")
    for c in $curves; do
        for sk in $skews; do
            for seed in $(seeds "$(mode_pick 3 1 1)"); do
                point "$c-k$sk-$seed" curve=$c skew=$sk seed=$seed len=$len inst=6
            done
        done
    done
}

fig_run() {
    # the unskewed trace is the same for every skew and curve of a seed
    if [ "$P_curve" = linking-idle ]; then
        gen_cfg_to t.csv multitier+idle -D messages="$P_len" || return 1
    else
        gen_to t.csv multitier -D instances="$P_inst" -D messages="$P_len" || return 1
    fi
    set -- $(memo stats trace_stats t.csv)
    cd_=$4 rd_=$5
    off=$P_skew algo=nesting
    set --
    case "$P_curve" in
    nocomp) ;;
    comp) set -- -s skew_window=30ms ;;
    compsmooth) set -- -s skew_window=30ms -s smooth=1 ;;
    revcompsmooth) set -- -s skew_window=30ms -s smooth=1; off=-$P_skew ;;
    linking|convolution) algo=$P_curve ;;
    linking-idle) algo=linking ;;
    *) echo "unknown curve $P_curve" >&2; return 1 ;;
    esac
    # every clock is set 100 ms ahead so that a slow WS2 never makes a
    # timestamp negative; a common offset changes nothing else
    ms=$(awk -v s="$off" 'BEGIN { printf "%+.3fms", 100 + s * 1000 }')
    # the skewed trace keeps the truth columns: infer never reads them
    "$PB_BIN/skewer" --node "*=+100ms" --node "WS2=$ms" t.csv >k.csv || return 1
    infer "$algo" k.csv "$@" >r.csv || return 1
    score t.csv r.csv | prefix_rows "curve,skew,offset,seed,call_delay,return_delay" \
        "$P_curve,$P_skew,$off,$P_seed,$cd_,$rd_"
}

fig_collect() {
    aggregate "$OUT/$FIG.dat" curve skew instance_fn_rate
    # the vertical marks: mean call and return delays over the points of
    # the main trace
    awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        $(c["curve"]) != "linking-idle" { if ($(c["call_delay"]) != "nan") { sc += $(c["call_delay"]); nc++ }
          if ($(c["return_delay"]) != "nan") { sr += $(c["return_delay"]); nr++ } }
        END { print "# mean call and return delay of the traces (seconds): x label"
              if (nc) printf "%.6f call\n", sc / nc
              if (nr) printf "%.6f return\n", sr / nr }' "$OUT/$FIG.dat" >"$OUT/${FIG}_marks.dat"
}

pb_main "$@"
