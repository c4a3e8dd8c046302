# baselines.gp - every method against offered load, added parallelism,
# clock skew and capture loss on the hotel config (hotel.conf)
# (experiments/baselines_sweep.sh): four panels, one curve per method,
# exact reconstruction of whole requests.  Data: datadir/baselines_{load,
# par,skew,loss}.dat (x, then one column per method, named in the header).
load system("dirname ".ARG0)."/common.gp"
fig = "baselines"
sweeps = "load par skew loss"
xlabs = "'offered load (requests/s, log scale)' 'share of requests with parallel calls' 'clock offset of search (ms)' 'capture loss probability (log scale; 0 kept)'"
titles = "'rising offered load' 'added parallelism (about 100 requests/s)' 'clock skew (about 22 requests/s)' 'capture loss (about 22 requests/s)'"
set offsets 0, 0, graph 0.05, 0
set autoscale xfix
do for [ext in "png svg"] {
    eval set_term(ext, 1000, 820)
    set output sprintf("%s/%s.%s", outdir, fig, ext)
    # room at the bottom of the page for the one legend, off every panel's data
    set multiplot layout 2, 2 title "The field's baselines and pathbench's methods on the hotel config, hotel.conf (exact reconstruction)" margins screen 0.08, 0.97, 0.14, 0.91 spacing 0.09, 0.12
    do for [si = 1:4] {
        s = word(sweeps, si)
        f = sprintf("%s/baselines_%s.dat", datadir, s)
        set title word(titles, si)
        set xlabel word(xlabs, si)
        set ylabel "requests reconstructed exactly (fraction)"
        set yrange [0:1.05]
        # the loss panel: its interesting region is below 1 %, so a log axis
        # that keeps 0 on it (log10(x + 0.1 %)), as Figure 21's drop rates
        if (s eq "loss") {
            set nonlinear x via log10(x + 0.001) inverse 10**x - 0.001
            set xtics ("0" 1e-9, "0.1 %%" 0.001, "0.5 %%" 0.005, "1 %%" 0.01, "5 %%" 0.05, "10 %%" 0.1)
        } else {
            unset nonlinear x
            set xtics autofreq
        }
        # (after `unset nonlinear x`, which also resets a log scale)
        if (s eq "load") { set logscale x } else { unset logscale x }
        # one legend, below the panels (drawn with the first)
        if (si == 1) { set key at screen 0.5, 0.01 center bottom horizontal maxrows 2 } else { unset key }
        if (fexists(f)) {
            ncol = int(system(sprintf("awk '!/^#/ { print NF; exit }' '%s'", f)))
            plot for [c = 2:ncol] f using 1:c with linespoints ls (c - 1) title columnhead(c)
        } else {
            set label 1 "no data" at graph 0.5, 0.5 center
            plot [0:1] [0:1] NaN notitle
            unset label 1
        }
    }
    unset multiplot
    unset output
}
unset nonlinear x
