# Table 1 as a picture: CPU seconds and peak memory against trace length
# per algorithm (log-log), from table1_ALGO.dat (messages cpu_s maxrss_mb
# parallelism workload).  The table itself is table1.md.
load system("dirname ".ARG0)."/common.gp"
algos = "nesting linking convolution"
do for [ext in "png svg"] {
    eval set_term(ext, 1000, 420)
    set output sprintf("%s/table1.%s", outdir, ext)
    set multiplot layout 1, 2 title "Table 1: execution costs (labels: workload)"
    set logscale xy
    set xlabel "trace length (messages)"
    set key top left
    do for [panel = 1:2] {
        set title (panel == 1 ? "user CPU seconds" : "peak RSS (MB)")
        set ylabel (panel == 1 ? "CPU s" : "MB")
        cmd = ""
        do for [ai = 1:words(algos)] {
            f = sprintf("%s/table1_%s.dat", datadir, word(algos, ai))
            if (fexists(f)) {
                cmd = cmd . (strlen(cmd) > 0 ? ", " : "") . \
                    sprintf("'%s' using 1:%d with points ls %d title '%s', '' using 1:%d:5 with labels offset 0,0.8 font ',7' tc ls %d notitle", \
                            f, panel + 1, ai, word(algos, ai), panel + 1, ai)
            }
        }
        if (strlen(cmd) > 0) { eval "plot ".cmd } else { set label 1 "no data" at graph 0.5, 0.5 center; plot [1:2] [1:2] NaN notitle; unset label 1 }
    }
    unset multiplot
    unset output
}
