# Table 1 as a picture: user CPU seconds and peak memory per workload and
# algorithm (log scale), from table1_bars.dat.  The table itself, with the
# paper's numbers beside ours, is table1.md.
load system("dirname ".ARG0)."/common.gp"
f = datadir."/table1_bars.dat"
do for [ext in "png svg"] {
    eval set_term(ext, 1100, 440)
    set output sprintf("%s/table1.%s", outdir, ext)
    set multiplot layout 1, 2 title "Table 1: execution costs per workload (our machine)"
    set style data histograms
    set style histogram clustered gap 1
    set style fill solid 0.8 border -1
    set boxwidth 0.9
    set logscale y
    set xtics rotate by -30 nomirror
    set key top left
    set title "user CPU seconds"
    set ylabel "CPU s (log)"
    if (fexists(f)) {
        plot f using 2:xtic(1) ls 1 title "nesting", '' using 3 ls 2 title "linking", '' using 4 ls 3 title "convolution"
    } else { set label 1 "no data" at graph 0.5, 0.5 center; plot [0:1] [1:2] NaN notitle; unset label 1 }
    set title "peak RSS (MB)"
    set ylabel "MB (log)"
    if (fexists(f)) {
        plot f using 5:xtic(1) ls 1 title "nesting", '' using 6 ls 2 title "linking", '' using 7 ls 3 title "convolution"
    } else { set label 1 "no data" at graph 0.5, 0.5 center; plot [0:1] [1:2] NaN notitle; unset label 1 }
    unset multiplot
    unset output
}
