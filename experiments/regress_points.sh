#!/bin/sh
# regress_points.sh - the fixed accuracy points `make regress` checks
# (experiments/regress.sh compares them with experiments/baseline.dat).
# Small traces, fixed seeds; each point prints rows case,metric,value,better
# where better is "lower" or "higher".
FIG=regress_points
FIG_TITLE="regression points"
FIG_HOW="see experiments/regress_points.sh"
. "$(dirname "$0")/lib.sh"

fig_points() {
    for c in multitier children-parallel children-0-2 children-d-cc penalty-breaker; do
        for a in nesting linking convolution truth; do
            point "$c-$a" case=plain cfg=$c algo=$a
        done
    done
    point "idle-linking" case=plain cfg=multitier+idle algo=linking
    point "idle-nesting" case=plain cfg=multitier+idle algo=nesting
    point "skew30-compsmooth" case=skew cfg=multitier algo=nesting
    point "skew30-linking" case=skew cfg=multitier algo=linking
    point "drop-nesting" case=drop cfg=multitier algo=nesting
    point "delay-nesting" case=delay cfg=multitier algo=nesting
    point "delay-convolution" case=delay cfg=multitier algo=convolution
}

# emit NAME < score CSV: the tracked metrics of one run
emit() {
    awk -F, -v n="$1" '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        function out(m, b) { if ((m in c) && $(c[m]) != "") printf "%s,%s,%s,%s\n", n, m, $(c[m]), b }
        { out("instance_fp_rate", "lower"); out("instance_fn_rate", "lower"); out("exact_accuracy", "higher")
          out("pattern_fn", "lower"); out("topn_missing_tol", "lower") }'
}

fig_run() {
    P_seed=7
    echo "case,metric,value,better"
    case "$P_case" in
    plain)
        gen_cfg "$P_cfg" -D messages=10000 >t.csv || return 1
        infer "$P_algo" t.csv >r.csv || return 1
        score t.csv r.csv | emit "$P_cfg/$P_algo" ;;
    skew)
        gen "$P_cfg" -D instances=6 -D messages=10000 >t.csv || return 1
        "$PB_BIN/skewer" --node "*=+100ms" --node "WS2=+130ms" t.csv >k0.csv || return 1
        strip_truth <k0.csv >k.csv
        if [ "$P_algo" = nesting ]; then
            infer nesting k.csv -s skew_window=30ms -s smooth=1 >r.csv || return 1
        else
            infer "$P_algo" k.csv >r.csv || return 1
        fi
        score t.csv r.csv | emit "skew30/$P_algo" ;;
    drop)
        gen "$P_cfg" -D messages=10000 >t.csv || return 1
        "$PB_BIN/sniffer" --quiet --loss 0.05 --seed 7 t.csv >s0.csv || return 1
        strip_truth <s0.csv >s.csv
        infer "$P_algo" s.csv >r.csv || return 1
        score t.csv r.csv | emit "drop5/$P_algo" ;;
    delay)
        set --
        [ "$P_algo" = convolution ] && set -- -s mu=10ms
        for c in multitier multitier-delay; do
            gen "$c" -D messages=20000 >t.csv || return 1
            infer "$P_algo" t.csv "$@" --no-assign >r.csv || return 1
            awk -f "$EXP/result_tsv.awk" r.csv >"$c.tsv"
        done
        # error of the measured added delay (0.2 s), lower is better
        awk -v node=WS2 -v with=AUTH -v with2='AP1|AP2' -v ctl=WS1 -f "$EXP/added_delay.awk" multitier.tsv multitier-delay.tsv |
            awk -F, -v n="added_delay/$P_algo" '$1 == "delayed" && $6 != "" { d = $6 - 0.2; printf "%s,added_delay_error,%.4f,lower\n", n, (d < 0 ? -d : d) }' ;;
    esac
}

pb_main "$@"
