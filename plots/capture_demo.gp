# The algorithms on real kernel threads and real TCP (issue 25): exact
# reconstruction against the offered load, one panel per execution model
# of the live test system (thread per request, hand-off pool, event loop);
# top captured by library interposition (threads observed), bottom by
# packets (no threads).  Reads capture_demo.dat (experiments/capture_demo.sh).
load system("dirname ".ARG0)."/common.gp"
f = datadir."/capture_demo.dat"
algos = fexists(f) ? system("awk '!/^#/ && !s[$4]++ { printf \"%s \", $4 }' '".f."'") : ""
rows(m, s, a) = sprintf("< awk '$1 == \"%s\" && $3 == \"%s\" && $4 == \"%s\" && $5 != \"nan\"' '%s' | sort -k2,2n", m, s, a, f)
do for [ext in "png svg"] {
    eval set_term(ext, 1200, 800)
    set output sprintf("%s/capture_demo.%s", outdir, ext)
    set multiplot layout 2, 3 title "Live test system: exact reconstruction by execution model and capture"
    set key below horizontal maxrows 4 font ",8" spacing 1.1
    set xlabel "offered load (requests/s)"
    set ylabel "exact (%)"
    set yrange [0:105]
    do for [src in "interposition packets"] {
        do for [m in "thread pool event"] {
            set title m.", ".src
            if (fexists(f)) {
                plot for [i = 1:words(algos)] rows(m, src, word(algos, i)) using 2:(100 * $5) \
                    with linespoints ls (i - 1) % 8 + 1 title word(algos, i) noenhanced
            }
        }
    }
    unset multiplot
}
