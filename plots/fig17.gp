# Figure 17: false-negative pattern rate vs N (top-N pruning) at 0, 2 and
# 6 % tolerance, with the 1/N bound; one panel per algorithm.
load system("dirname ".ARG0)."/common.gp"
atitles = "'nesting' 'nesting-low' 'nesting-sd1' 'convolution' 'linking' 'truth (oracle)'"
algos = "nesting nesting-low nesting-sd1 convolution linking truth"
# panel titles with each series' measured per-node parallelism (Table 1's
# measure), written by experiments/fig17.sh collect
if (fexists(datadir."/fig17_series.gp")) load datadir."/fig17_series.gp"
tols = "0 2 6"
do for [ext in "png svg"] {
    eval set_term(ext, 1200, 680)
    set output sprintf("%s/fig17.%s", outdir, ext)
    set multiplot layout 2, 3 title "Figure 17: false-negative pattern rate vs pattern pruning (multi-tier, 200,000 messages)"
    do for [ai = 1:words(algos)] {
        a = word(algos, ai)
        set title word(atitles, ai)
        set xlabel "N (top-N patterns kept)"
        set ylabel "false-negative pattern rate"
        set yrange [0:1.05]
        set xrange [1:*]
        set key top right
        cmd = "1/x with lines dt 2 lc rgb '#555555' title '1/N'"
        do for [ti = 1:words(tols)] {
            f = sprintf("%s/fig17_%s-t%s.dat", datadir, a, word(tols, ti))
            if (fexists(f)) {
                cmd = cmd . sprintf(", '%s' index 0 using 2:3 with linespoints ls %d title '%s%% tolerance'", f, ti, word(tols, ti))
            }
        }
        set samples 200
        eval "plot ".cmd
    }
    unset multiplot
    unset output
}
