# Convolution against the time quantum mu: accuracy (7.5.7) and CPU time
# against S = duration / mu with the fitted c0 + a*S*ln(S) curve (Figure
# 23).  Reads conv_mu_accuracy.dat, conv_mu_time.dat and the parameters
# line of conv_mu.dat (trace length).  The title names the trace and the
# range of mu; a CPU time of 0 is never put on the log axis.
load system("dirname ".ARG0)."/common.gp"
fa = datadir."/conv_mu_accuracy.dat"
ft = datadir."/conv_mu_time.dat"
fd = datadir."/conv_mu.dat"
len = system(sprintf("sed -n 's/^# parameters:.* len=\\([0-9,]*\\).*/\\1/p' '%s' 2>/dev/null | head -n 1", fd))
murange = system(sprintf("awk '/^#/ || NF < 2 { next } { m = $1 * 1000; if (!k || m < lo) lo = m; if (!k || m > hi) hi = m; k = 1 } END { if (k) printf \"%%g-%%g ms\", lo, hi }' '%s' 2>/dev/null", fa))
ntime = int(system(sprintf("awk '/^#/ { next } NF == 0 { exit } $2 + 0 > 0 { n++ } END { print n + 0 }' '%s' 2>/dev/null", ft)))
trace = "multi-tier trace" . (strlen(len) > 0 ? " (".len." messages)" : "")
do for [ext in "png svg"] {
    eval set_term(ext, 1100, 470)
    set output sprintf("%s/conv_mu.%s", outdir, ext)
    set multiplot layout 1, 2 title sprintf("Convolution on the %s, time quantum mu = %s: accuracy (7.5.7) and run time (Figure 23)", trace, (strlen(murange) > 0 ? murange : "(no data)"))
    set title "accuracy vs mu"
    set logscale x
    set xlabel "time quantum mu (s, log scale)"
    set ylabel "rate (false positives: of the inferred patterns;\nfalse negatives: of the true patterns)"
    set yrange [0:1.05]
    set key below vertical height 1.2
    set xlabel offset 0, 0.4
    if (fexists(fa)) {
        plot fa using 1:2 with linespoints ls 1 title "false-positive patterns", \
             '' using 1:3 with linespoints ls 2 title "false-positive patterns, ignoring those under 100 instances", \
             '' using 1:4 with linespoints ls 3 title "false-negative patterns"
    } else { set label 1 "no data" at graph 0.5, 0.5 center; plot [1:2] [0:1] NaN notitle; unset label 1 }
    set title "Figure 23: CPU time vs S = duration / mu"
    set logscale xy
    set xlabel "S = trace duration / mu (log scale)"
    set ylabel "CPU seconds (infer's own CPU clock, log scale)"
    set yrange [*:*]
    if (fexists(ft) && ntime > 0) {
        plot ft index 0 using 1:($2 > 0 ? $2 : NaN) with points ls 1 title "measured", \
             '' index 1 using 1:($2 > 0 ? $2 : NaN) with lines ls 2 title "fit c_0 + a S ln S"
    } else { set label 1 "no CPU time above 0 measured" at graph 0.5, 0.5 center; plot [1:2] [1:2] NaN notitle; unset label 1 }
    unset logscale
    unset multiplot
    unset output
}
