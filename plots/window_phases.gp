# Sliding-window nesting exposes a phase (seed 000, section 8): instances
# per 10 s window of the report job that runs for one minute of the hour,
# against the pattern the whole-trace ranking puts first.  Reads
# window_phases.dat (experiments/window_phases.sh); its first line names the
# whole-trace ranks (seed 1), its third the number of seeds; each step is
# the mean over the seeds, the bars its 95 % t interval (columns 5-8).
load system("dirname ".ARG0)."/common.gp"
f = datadir."/window_phases.dat"
info = fexists(f) ? system(sprintf("head -1 '%s' | sed 's/^# //; s/^whole trace/whole trace (seed 1)/'", f)) : ""
nseeds = fexists(f) ? system(sprintf("sed -n 's/^# \\([0-9]*\\) seeds .*/\\1/p' '%s'", f)) : ""
seedtxt = strlen(nseeds) > 0 ? sprintf("\n{/*0.8 each step: the mean of %s seed%s; bars: 95 %% t interval of the mean%s}", nseeds, nseeds eq "1" ? "" : "s", nseeds eq "1" ? " (none with 1 seed)" : "") : ""
do for [ext in "png svg"] {
    eval set_term(ext, 900, 420)
    set output sprintf("%s/window_phases.%s", outdir, ext)
    set title "Sliding-window nesting (-s window=10s): a one-minute phase\n{/*0.8 ".info."}".seedtxt
    set xlabel "time (minutes)"
    set ylabel "path instances per 10 s window"
    set yrange [0:*]
    set key below
    if (fexists(f)) {
        plot f using 1:3 with steps ls 3 title "top pattern of the whole trace", \
             '' using 1:2 with steps ls 2 title "report job C3>RPT[ARCH[DB,DB,DB]]", \
             '' using ($1 + 1.0 / 12):3:7:8 with yerrorbars ls 3 pt 0 notitle, \
             '' using ($1 + 1.0 / 12):2:5:6 with yerrorbars ls 2 pt 0 notitle
    } else { set label 1 "no data" at graph 0.5, 0.5 center; plot [0:1] [0:1] NaN notitle; unset label 1 }
}
