# Convolution against the time quantum mu: accuracy (7.5.7) and CPU time
# against S = duration / mu with the fitted a*S*ln(S) curve (Figure 23).
# Reads conv_mu_accuracy.dat and conv_mu_time.dat.
load system("dirname ".ARG0)."/common.gp"
fa = datadir."/conv_mu_accuracy.dat"
ft = datadir."/conv_mu_time.dat"
do for [ext in "png svg"] {
    eval set_term(ext, 1000, 420)
    set output sprintf("%s/conv_mu.%s", outdir, ext)
    set multiplot layout 1, 2 title "Convolution: accuracy (7.5.7) and run time (Figure 23) vs time quantum"
    set title "accuracy vs mu"
    set logscale x
    set xlabel "time quantum mu (s)"
    set ylabel "fraction"
    set yrange [0:1.05]
    set key bottom left
    if (fexists(fa)) {
        plot fa using 1:2 with linespoints ls 1 title "false-positive patterns", \
             '' using 1:3 with linespoints ls 2 title "false-positive patterns (>= 100 msgs)", \
             '' using 1:4 with linespoints ls 3 title "false-negative patterns"
    } else { set label 1 "no data" at graph 0.5, 0.5 center; plot [1:2] [0:1] NaN notitle; unset label 1 }
    set title "Figure 23: CPU time vs S = duration / mu"
    set logscale xy
    set xlabel "S = trace duration / mu"
    set ylabel "CPU seconds"
    set yrange [*:*]
    if (fexists(ft)) {
        plot ft index 0 using 1:2 with points ls 1 title "measured", \
             '' index 1 using 1:2 with lines ls 2 title "fit c_0 + a S ln S"
    } else { set label 1 "no data" at graph 0.5, 0.5 center; plot [1:2] [1:2] NaN notitle; unset label 1 }
    unset logscale
    unset multiplot
    unset output
}
