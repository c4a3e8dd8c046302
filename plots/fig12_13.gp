# Figures 12/13: the added 200 ms at WS2 as each algorithm measures it:
# the rise of the mean latency of the top pattern through WS2 and AUTH, of
# WS2's own node latency in it, and of a WS1-only pattern (control, should
# be 0).  Reads fig12_13_bars.dat.
load system("dirname ".ARG0)."/common.gp"
f = datadir."/fig12_13_bars.dat"
do for [ext in "png svg"] {
    eval set_term(ext, 760, 460)
    set output sprintf("%s/fig12_13.%s", outdir, ext)
    set title "Figures 12/13: 200 ms added at WS2, as measured (normal vs added-delay trace)"
    set ylabel "measured added delay (s)"
    set style data histograms
    set style histogram clustered gap 1
    set style fill solid 0.8 border -1
    set boxwidth 0.9
    set yrange [-0.05:0.3]
    set xtics rotate by -20 nomirror
    set key top right
    set arrow 1 from graph 0, first 0.2 to graph 1, first 0.2 nohead dt 2 lc rgb '#555555'
    set label 1 "dashed: the 0.2 s added" at graph 0.02, graph 0.95 left
    if (fexists(f)) {
        plot f using 2:xtic(1) ls 1 title "pattern mean latency", \
             '' using 3 ls 2 title "WS2 node latency", \
             '' using 4 ls 3 title "control pattern (WS1)"
    } else { set label 2 "no data" at graph 0.5, 0.5 center; plot [0:1] [0:1] NaN notitle; unset label 2 }
    unset arrow 1
    unset label 1
    unset output
}
