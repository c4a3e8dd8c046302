# Figures 12/13: the added 200 ms at WS2 as each algorithm measures it:
# the rise of the mean latency of the top pattern through WS2 and AUTH, of
# WS2's own node latency in it, and of a WS1-only pattern (control, should
# be 0).  Reads fig12_13_bars.dat.  Every bar carries its value (a control
# bar at 0 is invisible otherwise); "not measured" where an algorithm found
# no comparable pattern.
load system("dirname ".ARG0)."/common.gp"
f = datadir."/fig12_13_bars.dat"
bw = 0.26
boff(j) = (j - 2) * 0.28
lab(c) = valid(c) ? sprintf("%+.3f", column(c)) : "not measured"
ylab(c) = valid(c) ? column(c) : 0
do for [ext in "png svg"] {
    eval set_term(ext, 900, 500)
    set output sprintf("%s/fig12_13.%s", outdir, ext)
    set title "Figures 12/13: 200 ms added at WS2, as measured (added-delay trace minus normal trace)"
    set ylabel "measured added delay (s)"
    set style fill solid 0.85 border -1
    set boxwidth bw absolute
    set yrange [-0.08:0.32]
    set xrange [-0.6:*]
    set xtics rotate by -20 nomirror
    set grid ytics
    set key below horizontal
    set arrow 2 from graph 0, first 0 to graph 1, first 0 nohead lc rgb '#000000'
    if (fexists(f)) {
        plot f using ($0 + boff(1)):2:xtic(1) with boxes lc rgb '#0072B2' title "top WS2 pattern: mean latency", \
             '' using ($0 + boff(2)):3 with boxes lc rgb '#E69F00' fs pattern 4 border lc rgb '#000000' title "WS2 node latency in it", \
             '' using ($0 + boff(3)):4 with boxes lc rgb '#7F7F7F' fs pattern 2 border lc rgb '#000000' title "control pattern (WS1 only; should be 0)", \
             '' using ($0 + boff(1)):(ylab(2)):(lab(2)) with labels rotate left offset 0, 0.4 font ",7" notitle, \
             '' using ($0 + boff(2)):(ylab(3)):(lab(3)) with labels rotate left offset 0, 0.4 font ",7" notitle, \
             '' using ($0 + boff(3)):(ylab(4)):(lab(4)) with labels rotate left offset 0, 0.4 font ",7" notitle, \
             0.2 with lines dt 2 lc rgb '#555555' title "the 0.2 s added"
    } else { set label 2 "no data" at graph 0.5, 0.5 center; plot [0:1] [0:1] NaN notitle; unset label 2 }
    unset arrow 2
    unset output
}
