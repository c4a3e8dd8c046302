# isolation (issue 23): BorderPatrol's event isolation on dearinter.net
# (maketrace/configs/dearinter.conf, a single-process event-driven Apache).
# (a) exact accuracy per method against offered load with isolation, (b)
# with batched reads (up to 4 inputs per read), (c) the mean page latency
# with each and what isolation costs.  Reads isolation_{iso,batch,
# latency}.dat (experiments/isolation.sh collect) and the bars, each
# method's mean over the seeds and its 95 % t interval, from
# isolation_{iso,batch}_ci.dat (columns x rate n, then mean lo hi per
# method); the title says how many seeds.
load system("dirname ".ARG0)."/common.gp"
methods = "vpath-paper vpath-artifact vpath-clean borderpatrol borderpatrol-node nesting joint joint-nocid linking fcfs arrival wap5tw"
set style line 9 lc rgb '#000000' lw 2.4 pt 7 ps 0.9 dt 1
set style line 10 lc rgb '#882255' lw 1.6 pt 9 ps 1.0 dt 1
set style line 11 lc rgb '#117733' lw 1.6 pt 3 ps 1.0 dt 2
set style line 12 lc rgb '#44AA99' lw 1.6 pt 1 ps 1.0 dt 4
set style line 13 lc rgb '#999933' lw 1.6 pt 12 ps 1.0 dt 1
set style line 14 lc rgb '#0072B2' lw 3.0 pt 8 ps 1.2 dt 1
set style line 15 lc rgb '#CC79A7' lw 3.0 pt 11 ps 1.2 dt 1
# borderpatrol (thread, node) bold
mst(i) = word("9 2 7 14 15 4 5 8 10 11 12 13", i) + 0
mcol(i) = 2 + i
nm = words(methods)
fi = datadir."/isolation_iso.dat"
fb = datadir."/isolation_batch.dat"
fl = datadir."/isolation_latency.dat"
fic = datadir."/isolation_iso_ci.dat"
fbc = datadir."/isolation_batch_ci.dat"
# method i's mean, lo, hi in a _ci file
cm(i) = 4 + 3 * (i - 1)
seedrange = system(sprintf("awk '/^#/ { next } { if (!k || $3 < lo) lo = $3; if (!k || $3 > hi) hi = $3; k = 1 } END { if (!k) print \"\"; else if (lo == hi) print lo \" seed\" (lo == 1 ? \"\" : \"s\"); else print lo \"-\" hi \" seeds\" }' %s/isolation_*_ci.dat 2>/dev/null", datadir))
seedtxt = (strlen(seedrange) > 0) ? sprintf("; each point: mean of %s, bars: 95 %% t interval of the mean (none with 1 seed)", seedrange) : ""
nodata = "set label 1 'no data' at graph 0.5, 0.5 center; plot [0:1] [0:1] NaN notitle; unset label 1"
do for [ext in "png svg"] {
    eval set_term(ext, 1500, 560)
    set output sprintf("%s/isolation.%s", outdir, ext)
    set multiplot layout 1, 3 title "Event isolation (BorderPatrol 3.2) on dearinter.net (6.1): exact reconstruction and latency\n{/*0.8 maketrace dearinter.conf: single-process event-driven Apache, 50 us per read; bold: borderpatrol by thread (blue) and by node (pink)".seedtxt."}"
    set ylabel "exact reconstruction (%)"
    set yrange [0:105]
    set xlabel "pages per second (log)"
    set logscale x
    set key below horizontal maxrows 4 font ",8"
    set title "(a) with isolation (one input per read)"
    if (fexists(fic)) {
        plot for [i = 1:nm] fic using 2:(100 * column(cm(i))):(100 * column(cm(i) + 1)):(100 * column(cm(i) + 2)) with yerrorlines ls mst(i) title word(methods, i)
    } else { if (fexists(fi)) {
        plot for [i = 1:nm] fi using 2:(100 * column(mcol(i))) with linespoints ls mst(i) title word(methods, i)
    } else { eval nodata } }
    set title "(b) batched reads (up to 4 inputs per read)"
    if (fexists(fbc) && fexists(fb)) {
        plot for [i = 1:nm] fbc using 2:(100 * column(cm(i))):(100 * column(cm(i) + 1)):(100 * column(cm(i) + 2)) with yerrorlines ls mst(i) notitle, \
             fb using 2:(100 * column(nm + 3)) with lines lc rgb '#000000' lw 1 dt 3 title "immediacy meter"
    } else { if (fexists(fb)) {
        plot for [i = 1:nm] fb using 2:(100 * column(mcol(i))) with linespoints ls mst(i) notitle, \
             fb using 2:(100 * column(nm + 3)) with lines lc rgb '#000000' lw 1 dt 3 title "immediacy meter"
    } else { eval nodata } }
    set title "(c) mean page latency and what isolation costs"
    set ylabel "mean page latency (ms)"
    set autoscale y
    set y2label "isolation's cost (%)"
    set y2tics
    if (fexists(fl) && fexists(fic) && fexists(fbc)) {
        plot fic using 2:(column(cm(nm + 1))):(column(cm(nm + 1) + 1)):(column(cm(nm + 1) + 2)) with yerrorlines ls 14 title "isolation", \
             fbc using 2:(column(cm(nm + 1))):(column(cm(nm + 1) + 1)):(column(cm(nm + 1) + 2)) with yerrorlines ls 2 title "batched reads", \
             fl using 2:5 axes x1y2 with linespoints ls 8 title "cost (%, right; of the means)"
    } else { if (fexists(fl)) {
        plot fl using 2:3 with linespoints ls 14 title "isolation", \
             fl using 2:4 with linespoints ls 2 title "batched reads", \
             fl using 2:5 axes x1y2 with linespoints ls 8 title "cost (%, right)"
    } else { eval nodata } }
    unset y2tics
    unset y2label
    unset multiplot
    unset output
}
