# Figure 22: false-negative instance rate vs clock skew at WS2, one curve
# per compensation setting / algorithm (mean over the seeds, bars the 95 %
# t interval of the mean), vertical marks at the mean call
# and return delays (fig22_marks.dat), labelled above the plot so that no
# label crosses a curve; the x axis ends at the largest skew run.
load system("dirname ".ARG0)."/common.gp"
curves = "nocomp comp compsmooth revcompsmooth linking linking-idle convolution"
titles = "'nesting, no comp' 'nesting, comp' 'nesting, comp+smooth' 'nesting, rev, comp+smooth' 'linking (no comp)' 'linking, idle trace' 'convolution (no comp)'"
marks = datadir."/fig22_marks.dat"
do for [ext in "png svg"] {
    eval set_term(ext, 1000, 500)
    set output sprintf("%s/fig22.%s", outdir, ext)
    nseed = system(sprintf("awk '/^#/ { next } NF == 0 { nextfile } NF >= 6 { if (!k || $6 < lo) lo = $6; if (!k || $6 > hi) hi = $6; k = 1 } END { if (k) print (lo == hi ? lo : lo \"-\" hi) }' %s/fig22_*.dat 2>/dev/null", datadir))
    set title "Figure 22: effect of clock skew at WS2 (multi-tier)".(strlen(nseed) > 0 ? "\n{/*0.85 each point: mean of ".nseed." seed(s); bars: 95 % t interval of the mean (none with 1 seed)}" : "") offset 0, 1.5
    set xlabel "skew at WS2 (s; WS2 fast, or slow for 'rev')"
    set ylabel "false-negative path instances (fraction)"
    set yrange [0:1.05]
    set offsets 0, 0, 0, 0
    set autoscale xfix
    set tmargin 6
    set key outside right top vertical font ",9"
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
                set label (10 + i) sprintf("%s\n%.0f ms", word(mlab, i + 1), STATS_min * 1000) at first STATS_min, graph 1 center offset 0, 1.2 font ',8' tc rgb '#555555'
            }
        }
    }
    cmd = ""
    do for [ci = 1:words(curves)] {
        f = sprintf("%s/fig22_%s.dat", datadir, word(curves, ci))
        if (fexists(f)) {
            cmd = cmd . (strlen(cmd) > 0 ? ", " : "") . \
                sprintf("'%s' index 0 using 2:3:7:8 with yerrorlines ls %d title \"%s\"", f, ci, word(titles, ci))
        }
    }
    if (strlen(cmd) > 0) { eval "plot ".cmd } else { set label 1 "no data" at graph 0.5, 0.5 center; plot [0:1] [0:1] NaN notitle; unset label 1 }
    unset output
}
