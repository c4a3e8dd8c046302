# panels.gp - used by fig19/fig20/fig21: one panel per algorithm (word of
# `algos`), one curve per configuration (word of `configs`), from
# datadir/FIG_CONFIG-ALGO.dat (index 0: group x y ymin ymax n ylo yhi; index 1:
# x y).  Set fig, configs, algos, xlab, ylab first; optionally
#   atitles   one quoted panel title per algorithm (default: its name)
#   ctitles   one quoted legend entry per configuration
#   xsymlog   1: x axis log(x + 0.1 %) with marks at 1 % and 10 % (drop rates,
#             where 0 must stay on the axis)
# Each point is the mean over the seeds of its level; the bars are the 95 %
# Student t interval of that mean (index 0 columns 7, 8: y_lo, y_hi); the
# title says how many seeds.
if (!exists("xsymlog")) xsymlog = 0
if (!exists("ftitle")) ftitle = fig
if (!exists("atitles")) atitles = algos
if (!exists("ctitles")) ctitles = configs
set offsets 0, 0, graph 0.05, 0
nal = words(algos)
# seeds per point over every series of the figure (column 6 of index 0)
seedrange = system(sprintf("awk 'FILENAME ~ /-truth[.]dat$/ { nextfile } /^#/ { next } NF == 0 { nextfile } NF >= 6 { if (!k || $6 < lo) lo = $6; if (!k || $6 > hi) hi = $6; k = 1 } END { if (!k) print \"\"; else if (lo == hi) print lo \" seed\" (lo == 1 ? \"\" : \"s\"); else print lo \"-\" hi \" seeds\" }' %s/%s_*.dat 2>/dev/null", datadir, fig))
hastruth = int(system(sprintf("ls %s/%s_*-truth.dat 2>/dev/null | wc -l", datadir, fig)))
subtitle = (strlen(seedrange) > 0) ? sprintf("each point: mean of %s%s; bars: 95 %% t interval of the mean (none with 1 seed)", seedrange, (hastruth > 0 ? " (the oracle: 1)" : "")) : ""
symlog_c = 0.001
do for [ext in "png svg"] {
    # two panels a row; more than four algorithms (an algorithm list) add rows
    nrow = (nal > 2 ? int((nal + 1) / 2) : 1)
    eval set_term(ext, 580 * (nal > 2 ? 2 : nal), 470 * nrow)
    set output sprintf("%s/%s.%s", outdir, fig, ext)
    mtitle = ftitle . (strlen(subtitle) > 0 ? "\n{/*0.85 ".subtitle."}" : "")
    if (nal > 2) { set multiplot layout nrow, 2 title mtitle } else { set multiplot layout 1, nal title mtitle }
    do for [ai = 1:nal] {
        a = word(algos, ai)
        set title word(atitles, ai)
        set xlabel xlab
        set ylabel ylab
        set yrange [0:1.05]
        unset arrow
        unset label
        if (xsymlog) {
            set nonlinear x via log10(x + symlog_c) inverse 10**x - symlog_c
            set xrange [0:*]
            set xtics ("0" 1e-9, "0.1 %%" 0.001, "1 %%" 0.01, "10 %%" 0.1, "30 %%" 0.3, "60 %%" 0.6)
            set mxtics default
            set arrow 1 from first 0.01, graph 0 to first 0.01, graph 1 nohead dt 2 lc rgb '#555555'
            set arrow 2 from first 0.1, graph 0 to first 0.1, graph 1 nohead dt 2 lc rgb '#555555'
            set label 1 "1 %" at first 0.01, graph 1 center offset 0, 0.6 font ",8" tc rgb '#555555'
            set label 2 "10 %" at first 0.1, graph 1 center offset 0, 0.6 font ",8" tc rgb '#555555'
        } else {
            unset nonlinear x
            set xrange [*:*]
            set xtics autofreq
        }
        cmd = ""
        do for [ci = 1:words(configs)] {
            f = sprintf("%s/%s_%s-%s.dat", datadir, fig, word(configs, ci), a)
            if (fexists(f)) {
                cmd = cmd . (strlen(cmd) > 0 ? ", " : "") . \
                    sprintf("'%s' index 0 using 2:3:7:8 with yerrorlines ls %d title '%s'", f, ci, word(ctitles, ci))
            }
        }
        if (strlen(cmd) > 0) {
            eval "plot ".cmd
        } else {
            set label 3 "no data" at graph 0.5, 0.5 center
            plot [0:1] [0:1] NaN notitle
            unset label 3
        }
    }
    unset multiplot
    unset output
}
unset nonlinear x
