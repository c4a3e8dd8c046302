# Robustness of joint (issue 15): exact reconstruction against sniffer
# loss (left) and against a clock offset at one node (right), on the
# multi-tier trace at Table 1's parallelism (top) and the hotel-like trace
# (bottom); joint (also without call ids, with its in-order pairing and
# with first-in-first-out pairing), nesting and the baselines fcfs and
# arrival.  Solid:
# against the survivors' truth (score --kept); thin dashed: against the
# whole truth, which a request that lost a message can never match.
# Reads joint_robust_ci.dat (experiments/joint_robust.sh): columns config
# kind value n (seeds), then per algorithm (below) and measure (whole kept
# intact) the mean over the seeds and its 95 % t interval (mean lo hi);
# the bars are that interval, the title says how many seeds.
load system("dirname ".ARG0)."/common.gp"
f = datadir."/joint_robust_ci.dat"
seedrange = system(sprintf("awk '/^#/ { next } { if (!k || $4 < lo) lo = $4; if (!k || $4 > hi) hi = $4; k = 1 } END { if (!k) print \"\"; else if (lo == hi) print lo \" seed\" (lo == 1 ? \"\" : \"s\"); else print lo \"-\" hi \" seeds\" }' %s 2>/dev/null", f))
seedtxt = (strlen(seedrange) > 0) ? sprintf("; each point: mean of %s, bars: 95 %% t interval (none with 1 seed)", seedrange) : ""
# the .dat's order: joint nesting joint_nocid joint_fifo fcfs arrival
algos = "joint nesting joint_nocid joint_fifo fcfs arrival"
titles = "'joint' 'nesting' 'joint, no call ids' 'joint, no call ids, FIFO pairing' 'fcfs' 'arrival'"
styles = "3 2 6 8 4 5"
sel(c, k) = (strcol(1) eq c && strcol(2) eq k)
# column of algorithm i's measure m (0 whole, 1 kept, 2 intact): the
# mean; + 1, + 2: the interval
col(i, m) = 5 + 9 * (i - 1) + 3 * m
set style line 11 lc rgb '#0072B2' lw 1.0 pt 8 ps 0.6 dt 3
set style line 12 lc rgb '#D55E00' lw 1.0 pt 5 ps 0.5 dt 3
do for [ext in "png svg"] {
    eval set_term(ext, 1000, 880)
    set output sprintf("%s/joint_robust.%s", outdir, ext)
    set multiplot layout 2, 2 title "Robustness: exact reconstruction under capture loss and clock offset\n{/*0.8 solid: against the survivors' truth (score --kept); dotted: against the whole truth".seedtxt."}"
    set ylabel "exact reconstruction (%)"
    set yrange [0:100]
    set key below horizontal maxrows 2 font ",8" spacing 1.2 height 1
    do for [cfg in "multitier hotel-like"] {
        node = cfg eq "multitier" ? "WS2" : "search"
        mcd = cfg eq "multitier" ? "50 ms" : "0.5 ms"
        par = cfg eq "multitier" ? " (instances=6)" : ""
        set title cfg.par.": sniffer loss"
        set xlabel "independent loss (% of messages)"
        if (fexists(f)) {
            plot for [i = 1:words(algos)] f using (sel(cfg, "loss") ? 100 * $3 : NaN):(100 * column(col(i, 1))):(100 * column(col(i, 1) + 1)):(100 * column(col(i, 1) + 2)) \
                     with yerrorlines ls word(styles, i) + 0 title word(titles, i), \
                 for [i = 1:2] f using (sel(cfg, "loss") ? 100 * $3 : NaN):(100 * column(col(i, 0))) \
                     with linespoints ls 10 + i title word(titles, i)." (whole truth)"
        } else { set label 1 "no data" at graph 0.5, 0.5 center; plot [0:1] [0:1] NaN notitle; unset label 1 }
        set title cfg.par.": clock offset at ".node
        set xlabel "offset of ".node."'s clock (ms; mean call delay ".mcd.")"
        if (fexists(f)) {
            plot for [i = 1:words(algos)] f using (sel(cfg, "offset") ? $3 : NaN):(100 * column(col(i, 1))):(100 * column(col(i, 1) + 1)):(100 * column(col(i, 1) + 2)) \
                     with yerrorlines ls word(styles, i) + 0 title word(titles, i)
        } else { set label 1 "no data" at graph 0.5, 0.5 center; plot [0:1] [0:1] NaN notitle; unset label 1 }
    }
    unset multiplot
    unset output
}
