# What users compute from paths (Pivot Tracing, seed 004): per algorithm
# against load, exact reconstruction (left) beside the error of the answer
# to the case study's diagnosis query (middle: total-variation distance of
# the grouped answer, 0 = the truth's answer) and the per-request latency
# distribution (right: Kolmogorov-Smirnov distance, vPath Figure 11); top
# the HDFS replica-selection case (Q6), bottom the limplock case (slow
# requests' time per callee).  Reads query_error_ci.dat
# (experiments/query_error.sh): config load algo n, then the mean over
# the n seeds and its 95 % t interval (mean lo hi) of exact accuracy, of
# the answer's TV distance and of the latency KS distance; the bars are
# that interval, the title says how many seeds.
load system("dirname ".ARG0)."/common.gp"
f = datadir."/query_error_ci.dat"
algos = fexists(f) ? system("awk '!/^#/ && !s[$3]++ { printf \"%s \", $3 }' '".f."'") : ""
seedrange = fexists(f) ? system(sprintf("awk '/^#/ || ($1 != \"hdfs\" && $1 != \"limplock\") { next } { if (!k || $4 < lo) lo = $4; if (!k || $4 > hi) hi = $4; k = 1 } END { if (!k) print \"\"; else if (lo == hi) print lo \" seed\" (lo == 1 ? \"\" : \"s\"); else print lo \"-\" hi \" seeds\" }' '%s'", f)) : ""
seedtxt = (strlen(seedrange) > 0) ? sprintf("\n{/*0.8 each point: mean of %s; bars: 95 %% t interval of the mean (none with 1 seed)}", seedrange) : ""
# one algorithm's rows of one config, by load (so its line is unbroken)
rows(c, a) = sprintf("< awk '$1 == \"%s\" && $3 == \"%s\"' '%s' | sort -k2,2n", c, a, f)
do for [ext in "png svg"] {
    eval set_term(ext, 1200, 800)
    set output sprintf("%s/query_error.%s", outdir, ext)
    set multiplot layout 2, 3 title "What users compute from paths: exact reconstruction against the error of the answer".seedtxt
    set key below horizontal maxrows 3 font ",8" spacing 1.1
    set logscale x 2
    set xlabel "load (closed-loop instances per client)"
    do for [cfg in "hdfs limplock"] {
        q = cfg eq "hdfs" ? "Q6: reads per client and DataNode" : "slow requests' time per callee"
        set title cfg.": exact reconstruction"
        set ylabel "exact (%)"
        set yrange [0:105]
        if (fexists(f)) {
            plot for [i = 1:words(algos)] rows(cfg, word(algos, i)) using 2:(100 * $5):(100 * $6):(100 * $7) \
                with yerrorlines ls (i - 1) % 8 + 1 title word(algos, i) noenhanced
        }
        set title cfg.": answer error (".q.")"
        set ylabel "total-variation distance"
        set yrange [0:*]
        if (fexists(f)) {
            plot for [i = 1:words(algos)] rows(cfg, word(algos, i)) using 2:8:9:10 \
                with yerrorlines ls (i - 1) % 8 + 1 title word(algos, i) noenhanced
        }
        set title cfg.": request latency distribution"
        set ylabel "Kolmogorov-Smirnov distance"
        set yrange [0:*]
        if (fexists(f)) {
            plot for [i = 1:words(algos)] rows(cfg, word(algos, i)) using 2:11:12:13 \
                with yerrorlines ls (i - 1) % 8 + 1 title word(algos, i) noenhanced
        }
    }
    unset multiplot
}
