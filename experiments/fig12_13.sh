#!/bin/sh
# Figures 12 and 13 (seed 000, 7.2): the added-delay experiment.  The same
# multi-tier workload with and without 200 ms added at WS2 between its
# serial calls to AUTH and to an application server
# (multitier-delay.conf); each algorithm (and the oracle in each view) is
# run on both, and for the highest-ranked pattern through WS2, AUTH and an
# application server we report its mean latency and WS2's node latency in
# both, and the difference (the added delay as measured: 0.2 s is right).  A pattern
# through WS1 only is the control (nothing added: about 0).  linking-idle
# runs linking on the idle variant of both traces (lib.sh gen_cfg).
FIG=fig12_13
FIG_TITLE="added delay at WS2 (200 ms) as measured by each algorithm"
FIG_HOW="maketrace multitier{,-delay}.conf --seed SEED -D messages=LEN | infer --algo ALGO; the same pattern compared (added_delay.awk)"
. "$(dirname "$0")/lib.sh"

fig_points() {
    len=$(mode_pick 200000 40000 6000)
    algos=$(mode_pick "nesting convolution linking linking-idle truth-call truth-path truth-message" \
        "nesting convolution linking linking-idle truth-call truth-path truth-message" "nesting linking truth-call")
    for algo in $algos; do
        for seed in $(seeds "$(mode_pick 2 1 1)"); do
            point "$algo-$seed" algo=$algo seed=$seed len=$len
        done
    done
}

fig_run() {
    set --
    algo=$P_algo sfx=
    case "$algo" in
    linking-idle) algo=linking; sfx=+idle ;;
    truth-*) set -- -s view="${algo#truth-}"; algo=truth ;;
    convolution) set -- -s mu=10ms ;;
    esac
    for c in multitier multitier-delay; do
        gen_cfg_to t.csv "$c$sfx" -D messages="$P_len" || return 1
        infer "$algo" t.csv "$@" --no-assign >r.csv || return 1
        awk -f "$EXP/result_tsv.awk" r.csv >"$c.tsv"
        view=$(meta_get r.csv view)
    done
    awk -v node=WS2 -v with=AUTH -v with2='AP1|AP2' -v ctl=WS1 -f "$EXP/added_delay.awk" multitier.tsv multitier-delay.tsv |
        prefix_rows "algo,view,seed,trace_messages" "$P_algo,$view,$P_seed,$P_len"
}

fig_collect() {
    # the bar chart's data, one line per algorithm (means over seeds):
    # algo added_latency added_node_latency control_added_latency points
    awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        { a = $(c["algo"]); t = $(c["target"]); k = a SUBSEP t
          if (!(a in seen)) { seen[a] = 1; ord[++m] = a }
          if (t == "delayed") n[a]++
          if ($(c["added_latency"]) != "") { s[k] += $(c["added_latency"]); ns[k]++ }
          if ($(c["added_node_latency"]) != "") { x[k] += $(c["added_node_latency"]); nx[k]++ } }
        function mean(v, k, cnt) { return (k in cnt) && cnt[k] > 0 ? sprintf("%.6f", v[k] / cnt[k]) : "NaN" }
        END { print "# algo added_latency_s added_node_latency_s control_added_latency_s points (delayed pattern through WS2 and AUTH; control through WS1)"
              for (i = 1; i <= m; i++) { a = ord[i]
                  printf "%s %s %s %s %d\n", a, mean(s, a SUBSEP "delayed", ns), mean(x, a SUBSEP "delayed", nx),
                      mean(s, a SUBSEP "control", ns), n[a] } }' \
        "$OUT/$FIG.dat" >"$OUT/${FIG}_bars.dat"
}

pb_main "$@"
