# panels.gp - used by fig19/fig20/fig21: one panel per algorithm (word of
# `algos`), one curve per configuration (word of `configs`), from
# datadir/FIG_CONFIG-ALGO.dat (index 0: group x y ymin ymax n; index 1:
# x y).  Set fig, configs, algos, xlab, ylab (and optionally xlog) first.
if (!exists("xlog")) xlog = 0
if (!exists("ftitle")) ftitle = fig
set offsets 0, graph 0.03, graph 0.05, 0
nal = 0
do for [a in algos] { nal = nal + 1 }
do for [ext in "png svg"] {
    eval set_term(ext, 420 * (nal > 2 ? 2 : nal), 340 * (nal > 2 ? 2 : 1))
    set output sprintf("%s/%s.%s", outdir, fig, ext)
    if (nal > 2) { set multiplot layout 2, 2 title ftitle } else { set multiplot layout 1, nal title ftitle }
    do for [ai = 1:nal] {
        a = word(algos, ai)
        set title a
        set xlabel xlab
        set ylabel ylab
        set yrange [0:*]
        if (xlog) { set logscale x } else { unset logscale x }
        cmd = ""
        do for [ci = 1:words(configs)] {
            f = sprintf("%s/%s_%s-%s.dat", datadir, fig, word(configs, ci), a)
            if (fexists(f)) {
                cmd = cmd . (strlen(cmd) > 0 ? ", " : "") . \
                    sprintf("'%s' index 0 using 2:3 with linespoints ls %d title '%s', '%s' index 1 using 1:2 with points ls %d pt 7 ps 0.3 notitle", \
                            f, ci, word(configs, ci), f, ci)
            }
        }
        if (strlen(cmd) > 0) {
            eval "plot ".cmd
        } else {
            set label 1 "no data" at graph 0.5, 0.5 center
            plot [0:1] [0:1] NaN notitle
            unset label 1
        }
    }
    unset multiplot
    unset output
}
