# Figure 17: false-negative pattern rate vs N (top-N pruning) at 0, 2 and
# 6 % tolerance, with the 1/N bound; one panel per algorithm.  Each point
# is the mean over the seeds (the title says how many); bars are the 95 %
# Student t interval of that mean (index 0 columns 7, 8; experiments/lib.sh
# aggregate).  Legends sit below the panels.
load system("dirname ".ARG0)."/common.gp"
atitles = "'nesting' 'nesting-low' 'nesting-sd1' 'convolution' 'linking' 'truth (oracle)'"
algos = "nesting nesting-low nesting-sd1 convolution linking truth"
# panel titles with each series' measured per-node parallelism (Table 1's
# measure), written by experiments/fig17.sh collect
if (fexists(datadir."/fig17_series.gp")) load datadir."/fig17_series.gp"
tols = "0 2 6"
seedrange = system(sprintf("awk 'FILENAME ~ /truth/ { nextfile } /^#/ { next } NF == 0 { nextfile } NF >= 6 { if (!k || $6 < lo) lo = $6; if (!k || $6 > hi) hi = $6; k = 1 } END { if (!k) print \"\"; else if (lo == hi) print lo \" seed\" (lo == 1 ? \"\" : \"s\"); else print lo \"-\" hi \" seeds\" }' %s/fig17_*-t*.dat 2>/dev/null", datadir))
subtitle = (strlen(seedrange) > 0) ? sprintf("\n{/*0.85 each point: mean of %s (oracle: 1); bars: 95 %% t interval of the mean (none with 1 seed)}", seedrange) : ""
do for [ext in "png svg"] {
    nrow = (words(algos) > 3 ? 2 : 1)
    eval set_term(ext, 1300, 60 + 380 * nrow)
    set output sprintf("%s/fig17.%s", outdir, ext)
    set multiplot layout nrow, 3 title "Figure 17: false-negative pattern rate vs pattern pruning (multi-tier trace)".subtitle
    do for [ai = 1:words(algos)] {
        a = word(algos, ai)
        set title word(atitles, ai)
        set xlabel "N (top-N patterns kept)"
        set ylabel "false-negative pattern rate"
        set yrange [0:1.05]
        set xrange [1:*]
        set key below horizontal maxcols 2
        cmd = "1/x with lines dt 3 lw 1.2 lc rgb '#555555' title '1/N (the paper''s bound)'"
        do for [ti = 1:words(tols)] {
            f = sprintf("%s/fig17_%s-t%s.dat", datadir, a, word(tols, ti))
            if (fexists(f)) {
                cmd = cmd . sprintf(", '%s' index 0 using 2:3:7:8 with yerrorlines ls %d title '%s%% tolerance'", f, ti, word(tols, ti))
            }
        }
        set samples 200
        eval "plot ".cmd
    }
    unset multiplot
    unset output
}
