# What users compute from paths (Pivot Tracing, seed 004): per algorithm
# against load, exact reconstruction (left) beside the error of the answer
# to the case study's diagnosis query (middle: total-variation distance of
# the grouped answer, 0 = the truth's answer) and the per-request latency
# distribution (right: Kolmogorov-Smirnov distance, vPath Figure 11); top
# the HDFS replica-selection case (Q6), bottom the limplock case (slow
# requests' time per callee).  Reads query_error.dat
# (experiments/query_error.sh): config load algo exact tv maxrel top_same
# root_cause latency_ks.
load system("dirname ".ARG0)."/common.gp"
f = datadir."/query_error.dat"
algos = fexists(f) ? system("awk '!/^#/ && !s[$3]++ { printf \"%s \", $3 }' '".f."'") : ""
# one algorithm's rows of one config, by load (so its line is unbroken)
rows(c, a) = sprintf("< awk '$1 == \"%s\" && $3 == \"%s\"' '%s' | sort -k2,2n", c, a, f)
do for [ext in "png svg"] {
    eval set_term(ext, 1200, 800)
    set output sprintf("%s/query_error.%s", outdir, ext)
    set multiplot layout 2, 3 title "What users compute from paths: exact reconstruction against the error of the answer"
    set key below horizontal maxrows 3 font ",8" spacing 1.1
    set logscale x 2
    set xlabel "load (closed-loop instances per client)"
    do for [cfg in "hdfs limplock"] {
        q = cfg eq "hdfs" ? "Q6: reads per client and DataNode" : "slow requests' time per callee"
        set title cfg.": exact reconstruction"
        set ylabel "exact (%)"
        set yrange [0:105]
        if (fexists(f)) {
            plot for [i = 1:words(algos)] rows(cfg, word(algos, i)) using 2:(100 * $4) \
                with linespoints ls (i - 1) % 8 + 1 title word(algos, i) noenhanced
        }
        set title cfg.": answer error (".q.")"
        set ylabel "total-variation distance"
        set yrange [0:*]
        if (fexists(f)) {
            plot for [i = 1:words(algos)] rows(cfg, word(algos, i)) using 2:5 \
                with linespoints ls (i - 1) % 8 + 1 title word(algos, i) noenhanced
        }
        set title cfg.": request latency distribution"
        set ylabel "Kolmogorov-Smirnov distance"
        set yrange [0:*]
        if (fexists(f)) {
            plot for [i = 1:words(algos)] rows(cfg, word(algos, i)) using 2:9 \
                with linespoints ls (i - 1) % 8 + 1 title word(algos, i) noenhanced
        }
    }
    unset multiplot
}
