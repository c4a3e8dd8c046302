# Convolution on the mail relay trace (7.5.7): pattern false-positive rate
# (all paths, and paths with at least 100 instances) and the frequent true
# paths missed, against the time quantum mu; solid: the default
# computation (lags 0..L), dashed: the paper's (mode=exact lag_bound=full,
# the whole-signal correlation).  Reads conv_mail_accuracy.dat and
# conv_mail_paper_accuracy.dat.
load system("dirname ".ARG0)."/common.gp"
fa = datadir."/conv_mail_accuracy.dat"
fp = datadir."/conv_mail_paper_accuracy.dat"
hp = fexists(fp)
do for [ext in "png svg"] {
    eval set_term(ext, 1000, 460)
    set output sprintf("%s/conv_mail.%s", outdir, ext)
    set multiplot layout 1, 2 title "Convolution on the mail relay trace (7.5.7): accuracy vs time quantum"
    set logscale x
    set xrange [4:900]
    set xlabel "time quantum mu (s)"
    set key below
    set title "false-positive paths (paper: 0.21-0.29)"
    set ylabel "fraction of inferred paths"
    set yrange [0:1.05]
    # the paper's range, 21-29 %
    set object 1 rect from graph 0, first 0.21 to graph 1, first 0.29 fc rgb '#e8e8e8' fs solid noborder behind
    set label 2 "paper" at graph 0.02, first 0.25 left font ",8" tc rgb '#666666'
    if (fexists(fa)) {
        plot fa using 1:2 with linespoints ls 1 title "all inferred paths", \
             '' using 1:3 with linespoints ls 2 title "paths with >= 100 instances", \
             (hp ? fp : fa) using 1:(hp ? $2 : NaN) with linespoints ls 1 dt 2 pt 6 title (hp ? "all, whole-signal correlation" : ""), \
             (hp ? fp : fa) using 1:(hp ? $3 : NaN) with linespoints ls 2 dt 2 pt 4 title (hp ? ">= 100, whole-signal correlation" : "")
    } else { set label 1 "no data" at graph 0.5, 0.5 center; plot [1:2] [0:1] NaN notitle; unset label 1 }
    unset object 1
    unset label 2
    set title "frequent true paths missed (paper: none)"
    set ylabel "paths"
    set yrange [0:*]
    set key below
    if (fexists(fa)) {
        plot fa using 1:4 with linespoints ls 3 title "missed", \
             (hp ? fp : fa) using 1:(hp ? $4 : NaN) with linespoints ls 3 dt 2 pt 8 title (hp ? "missed, whole-signal correlation" : ""), \
             fa using 1:5 with lines lc rgb '#7f7f7f' dt 3 title "frequent true paths (>= 100 instances)"
    } else { set label 1 "no data" at graph 0.5, 0.5 center; plot [1:2] [0:1] NaN notitle; unset label 1 }
    unset logscale
    unset multiplot
    unset output
}
