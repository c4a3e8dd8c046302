# vpath_assumptions (issue 23): where vPath's rule is exact and where it
# breaks, beside every other method.  (a) exact accuracy against offered
# load on hotel.conf with pooled worker ids; (b) against the share of
# continuations handed to another worker (instances=22), with the truth's
# thread-pattern and immediacy meters (black, grey); (c) one group of bars
# per execution and connection model (instances=22); (d) the paper's case
# studies (vApp, TPC-W, RUBiS configs).  Reads vpath_assumptions_{load,
# handoff,model,case}.dat (experiments/vpath_assumptions.sh collect):
# columns x rate, then one per method (below), then immediacy
# thread_pattern; the points and bars from vpath_assumptions_{load,
# handoff,model,case}_ci.dat: each method's mean over the seeds and its
# 95 % t interval (columns x rate n, then mean lo hi per method); the title
# says how many seeds.
load system("dirname ".ARG0)."/common.gp"
methods = "vpath-paper vpath-artifact vpath-clean borderpatrol borderpatrol-node nesting joint joint-nocid linking fcfs arrival wap5tw"
set style line 9 lc rgb '#000000' lw 2.4 pt 7 ps 0.9 dt 1
set style line 10 lc rgb '#882255' lw 1.6 pt 9 ps 1.0 dt 1
set style line 11 lc rgb '#117733' lw 1.6 pt 3 ps 1.0 dt 2
set style line 12 lc rgb '#44AA99' lw 1.6 pt 1 ps 1.0 dt 4
set style line 13 lc rgb '#999933' lw 1.6 pt 12 ps 1.0 dt 1
# method i's style: vpath-paper bold black
mst(i) = word("9 2 7 3 6 4 5 8 10 11 12 13", i) + 0
mcol(i) = 2 + i
nm = words(methods)
fl = datadir."/vpath_assumptions_load.dat"
fh = datadir."/vpath_assumptions_handoff.dat"
fm = datadir."/vpath_assumptions_model.dat"
fc = datadir."/vpath_assumptions_case.dat"
flc = datadir."/vpath_assumptions_load_ci.dat"
fhc = datadir."/vpath_assumptions_handoff_ci.dat"
fmc = datadir."/vpath_assumptions_model_ci.dat"
fcc = datadir."/vpath_assumptions_case_ci.dat"
# method i's mean, lo, hi in a _ci file
cm(i) = 4 + 3 * (i - 1)
seedrange = system(sprintf("awk '/^#/ { next } { if (!k || $3 < lo) lo = $3; if (!k || $3 > hi) hi = $3; k = 1 } END { if (!k) print \"\"; else if (lo == hi) print lo \" seed\" (lo == 1 ? \"\" : \"s\"); else print lo \"-\" hi \" seeds\" }' %s/vpath_assumptions_*_ci.dat 2>/dev/null", datadir))
seedtxt = (strlen(seedrange) > 0) ? sprintf("\n{/*0.8 each point and bar: mean of %s; error bars: 95 %% t interval of the mean (none with 1 seed)}", seedrange) : ""
nodata = "set label 1 'no data' at graph 0.5, 0.5 center; plot [0:1] [0:1] NaN notitle; unset label 1"
do for [ext in "png svg"] {
    eval set_term(ext, 1200, 1000)
    set output sprintf("%s/vpath_assumptions.%s", outdir, ext)
    set multiplot layout 2, 2 title "vPath's thread assumption: exact reconstruction per method\n{/*0.8 hotel.conf with maketrace's thread models (docs/maketrace.md); bold black: vpath -s variant=paper}".seedtxt
    set ylabel "exact reconstruction (%)"
    set yrange [0:105]
    set key below horizontal maxrows 3 font ",8"
    set title "(a) offered load, pooled worker ids"
    set xlabel "requests per second (log)"
    set logscale x
    if (fexists(flc)) {
        plot for [i = 1:nm] flc using 2:(100 * column(cm(i))):(100 * column(cm(i) + 1)):(100 * column(cm(i) + 2)) with yerrorlines ls mst(i) title word(methods, i)
    } else { if (fexists(fl)) {
        plot for [i = 1:nm] fl using 2:(100 * column(mcol(i))) with linespoints ls mst(i) title word(methods, i)
    } else { eval nodata } }
    unset logscale x
    set title "(b) hand-off after a return (instances=22)"
    set xlabel "continuations handed to another worker (%)"
    if (fexists(fh) && fexists(fhc)) {
        plot for [i = 1:nm] fhc using (100 * $1):(100 * column(cm(i))):(100 * column(cm(i) + 1)):(100 * column(cm(i) + 2)) with yerrorlines ls mst(i) notitle, \
             fh using (100 * $1):(100 * column(nm + 4)) with lines lc rgb '#000000' lw 1 dt 3 title "thread-pattern meter", \
             fh using (100 * $1):(100 * column(nm + 3)) with lines lc rgb '#999999' lw 1 dt 3 title "immediacy meter"
    } else { if (fexists(fh)) {
        plot for [i = 1:nm] fh using (100 * $1):(100 * column(mcol(i))) with linespoints ls mst(i) notitle, \
             fh using (100 * $1):(100 * column(nm + 4)) with lines lc rgb '#000000' lw 1 dt 3 title "thread-pattern meter", \
             fh using (100 * $1):(100 * column(nm + 3)) with lines lc rgb '#999999' lw 1 dt 3 title "immediacy meter"
    } else { eval nodata } }
    set style data histograms
    set style histogram errorbars gap 2 lw 1
    set style fill solid 0.8 border -1
    set boxwidth 0.9
    set xtics rotate by -30 font ",8"
    unset xlabel
    set title "(c) execution and connection models (instances=22)"
    if (fexists(fmc)) {
        plot for [i = 1:nm] fmc using (100 * column(cm(i))):(100 * column(cm(i) + 1)):(100 * column(cm(i) + 2)):xtic(1) lc rgb word("#000000 #D55E00 #56B4E9 #0072B2 #CC79A7 #E69F00 #009E73 #7F7F7F #882255 #117733 #44AA99 #999933", i) title word(methods, i)
    } else { eval nodata }
    set title "(d) the papers' case studies (vApp, TPC-W, RUBiS)"
    if (fexists(fcc)) {
        plot for [i = 1:nm] fcc using (100 * column(cm(i))):(100 * column(cm(i) + 1)):(100 * column(cm(i) + 2)):xtic(1) lc rgb word("#000000 #D55E00 #56B4E9 #0072B2 #CC79A7 #E69F00 #009E73 #7F7F7F #882255 #117733 #44AA99 #999933", i) notitle
    } else { eval nodata }
    unset multiplot
    unset output
    set style data points
    set xtics norotate
}
