# Figure 22: false-negative instance rate vs clock skew at WS2, one curve
# per compensation setting / algorithm, vertical marks at the mean call and
# return delays (fig22_marks.dat).
load system("dirname ".ARG0)."/common.gp"
curves = "nocomp comp compsmooth revcompsmooth linking linking-idle convolution"
titles = "'no comp' 'comp' 'comp+smooth' 'rev, comp+smooth' 'linking (no comp)' 'linking, idle trace' 'convolution (no comp)'"
marks = datadir."/fig22_marks.dat"
do for [ext in "png svg"] {
    eval set_term(ext, 900, 480)
    set output sprintf("%s/fig22.%s", outdir, ext)
    set title "Figure 22: effect of clock skew at WS2 (multi-tier)"
    set xlabel "skew at WS2 (s; WS2 fast, or slow for 'rev')"
    set ylabel "false-negative path instances (fraction)"
    set yrange [0:*]
    set offsets 0, graph 0.02, graph 0.05, 0
    set key outside right top
    unset arrow
    unset label
    if (fexists(marks)) {
        # first line: mean call delay, second: mean return delay
        mlab = "'mean call delay' 'mean return delay'"
        do for [i = 0:1] {
            STATS_records = 0
            stats marks every ::i::i using 1 nooutput
            if (STATS_records > 0) {
                set arrow (10 + i) from first STATS_min, graph 0 to first STATS_min, graph 1 nohead dt 2 lc rgb '#555555'
                set label (10 + i) word(mlab, i + 1) at first STATS_min, graph 0.97 rotate by 90 right offset -0.8, 0 font ',8'
            }
        }
    }
    cmd = ""
    do for [ci = 1:words(curves)] {
        f = sprintf("%s/fig22_%s.dat", datadir, word(curves, ci))
        if (fexists(f)) {
            cmd = cmd . (strlen(cmd) > 0 ? ", " : "") . \
                sprintf("'%s' index 0 using 2:3 with linespoints ls %d title \"%s\", '%s' index 1 using 1:2 with points ls %d pt 7 ps 0.3 notitle", \
                        f, ci, word(titles, ci), f, ci)
        }
    }
    if (strlen(cmd) > 0) { eval "plot ".cmd } else { set label 1 "no data" at graph 0.5, 0.5 center; plot [0:1] [0:1] NaN notitle; unset label 1 }
    unset output
}
