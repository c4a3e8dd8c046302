# Table 1 as a picture: CPU seconds and peak memory per workload and
# algorithm (log scale), ours (solid) beside the paper's (hatched), from
# table1_bars.dat.  Every bar carries its value; a run this mode did not do
# is marked "not run" at the floor instead of leaving a gap.  The paper ran
# convolution only on the "normal" and "added-delay" rows and linking on
# none (WAP5's Table 5 is on other traces), so those bars are ours alone.
# The three algorithms differ in lightness (blue, light orange, black) as
# well as colour, so that a grey-scale print keeps them apart.
# The table itself is table1.md.
load system("dirname ".ARG0)."/common.gp"
f = datadir."/table1_bars.dat"
# bars: column of the value, x offset, line style, fill, legend
# (ours: nesting 2, linking 3, convolution 4; paper: nesting 10, conv 12;
#  memory columns: +3 for ours, +1 for the paper's)
nb = 5
bw = 0.15
boff(j) = (j - 3) * 0.17
do for [ext in "png svg"] {
    eval set_term(ext, 1300, 560)
    set output sprintf("%s/table1.%s", outdir, ext)
    set multiplot layout 1, 2 title "Table 1: execution costs per workload, ours (solid) beside the paper's (hatched; 2003 hardware)"
    set logscale y
    set xtics rotate by -30 nomirror
    set key below horizontal maxcols 3 font ",9"
    set style fill solid 0.85 border -1
    set boxwidth bw absolute
    set grid ytics
    if (fexists(f)) {
        do for [panel = 1:2] {
            if (panel == 1) {
                set title "CPU seconds (ours: infer's own CPU clock)"
                set ylabel "CPU s (log scale)"
                c1 = 2; c2 = 3; c3 = 4; p1 = 10; p3 = 12
            } else {
                set title "peak memory (MB; ours: max RSS)"
                set ylabel "MB (log scale)"
                c1 = 5; c2 = 6; c3 = 7; p1 = 11; p3 = 13
            }
            # the floor: a decade under the smallest bar, room for labels above the largest
            # (awk, not stats: stats stops on a column with no valid number)
            cols = sprintf("%d %d %d %d %d", c1, c2, c3, p1, p3)
            mm = system(sprintf("awk -v cols='%s' 'BEGIN { n = split(cols, c, \" \") } /^#/ { next } { for (i = 1; i <= n; i++) { v = $(c[i]); if (v != \"NaN\" && v + 0 > 0) { if (!k || v + 0 < lo) lo = v + 0; if (!k || v + 0 > hi) hi = v + 0; k = 1 } } } END { if (k) print lo, hi; else print 0.01, 1 }' '%s'", cols, f))
            lo = real(word(mm, 1)); hi = real(word(mm, 2))
            if (hi < lo) { lo = 0.01; hi = 1 }
            ylo = 10 ** floor(log10(lo) - 0.7)
            yhi = 10 ** ceil(log10(hi) + 0.8)
            set yrange [ylo:yhi]
            set xrange [-0.6:*]
            # a value of 0 (too small for the clock) cannot go on a log axis:
            # it is written at the floor instead of drawn
            nr(c) = valid(c) ? (column(c) > 0 ? "" : "0 (too small to time)") : "not run"
            lab(c) = valid(c) && column(c) > 0 ? (column(c) >= 1000 ? sprintf("%.0f", column(c)) : sprintf("%.3g", column(c))) : ""
            pos(c) = valid(c) && column(c) > 0 ? column(c) : NaN
            plot f using ($0 + boff(1)):(pos(c1)):xtic(1) with boxes lc rgb '#0072B2' title "nesting (ours)", \
                 '' using ($0 + boff(2)):(pos(p1)) with boxes lc rgb '#0072B2' fs pattern 4 border lc rgb '#000000' title "nesting (paper)", \
                 '' using ($0 + boff(3)):(pos(c2)) with boxes lc rgb '#E69F00' title "linking (ours; no paper value)", \
                 '' using ($0 + boff(4)):(pos(c3)) with boxes lc rgb '#222222' title "convolution (ours)", \
                 '' using ($0 + boff(5)):(pos(p3)) with boxes lc rgb '#222222' fs pattern 5 border lc rgb '#000000' title "convolution (paper)", \
                 '' using ($0 + boff(1)):(pos(c1)):(lab(c1)) with labels rotate left offset 0, 0.3 font ",7" notitle, \
                 '' using ($0 + boff(2)):(pos(p1)):(lab(p1)) with labels rotate left offset 0, 0.3 font ",7" notitle, \
                 '' using ($0 + boff(3)):(pos(c2)):(lab(c2)) with labels rotate left offset 0, 0.3 font ",7" notitle, \
                 '' using ($0 + boff(4)):(pos(c3)):(lab(c3)) with labels rotate left offset 0, 0.3 font ",7" notitle, \
                 '' using ($0 + boff(5)):(pos(p3)):(lab(p3)) with labels rotate left offset 0, 0.3 font ",7" notitle, \
                 '' using ($0 + boff(1)):(ylo * 1.3):(nr(c1)) with labels rotate left font ",7" tc rgb '#555555' notitle, \
                 '' using ($0 + boff(3)):(ylo * 1.3):(nr(c2)) with labels rotate left font ",7" tc rgb '#555555' notitle, \
                 '' using ($0 + boff(4)):(ylo * 1.3):(nr(c3)) with labels rotate left font ",7" tc rgb '#555555' notitle
        }
    } else {
        set label 1 "no data" at graph 0.5, 0.5 center
        plot [0:1] [1:2] NaN notitle
        set title "peak memory"
        plot [0:1] [1:2] NaN notitle
        unset label 1
    }
    unset multiplot
    unset output
}

# The scaling plot: CPU seconds and peak memory against trace length
# (log-log), one curve per algorithm of the list (palgos: the labels of
# PB_ALGOS / --algos, exec: commands included; default the papers' three),
# from table1_ALGO.dat (messages cpu_s maxrss_mb parallelism workload),
# every workload run for that algorithm.
salgos = (exists("palgos") && strlen(palgos) > 0) ? palgos : "nesting linking convolution"
sfile(a) = sprintf("%s/table1_%s.dat", datadir, a)
do for [ext in "png svg"] {
    eval set_term(ext, 1100, 480)
    set output sprintf("%s/table1_scaling.%s", outdir, ext)
    set multiplot layout 1, 2 title "Table 1 workloads: cost against trace length, per algorithm (one run per workload, seed 1)"
    unset logscale; set logscale xy
    unset boxwidth; set style fill empty
    set xtics norotate mirror
    set xrange [*:*]; set yrange [*:*]
    set key below horizontal maxcols 3 font ",9"
    set xlabel "messages (log scale)" offset 0, 0.5
    do for [panel = 1:2] {
        if (panel == 1) { set title "CPU seconds (infer's own CPU clock)"; set ylabel "CPU s (log scale)"; yc = 2 } else { set title "peak memory (MB, max RSS)"; set ylabel "MB (log scale)"; yc = 3 }
        have = 0
        do for [a in salgos] { if (fexists(sfile(a))) { have = 1 } }
        if (have) {
            plot for [i = 1:words(salgos)] (fexists(sfile(word(salgos, i))) ? sfile(word(salgos, i)) : NaN) \
                     using 1:(valid(yc) && column(yc) > 0 ? column(yc) : NaN) with linespoints ls i title word(salgos, i)
        } else {
            set label 1 "no data" at graph 0.5, 0.5 center
            plot [1:2] [1:2] NaN notitle
            unset label 1
        }
    }
    unset multiplot
    unset output
}
