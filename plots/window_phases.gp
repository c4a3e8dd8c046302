# Sliding-window nesting exposes a phase (seed 000, section 8): instances
# per 10 s window of the report job that runs for one minute of the hour,
# against the pattern the whole-trace ranking puts first.  Reads
# window_phases.dat (experiments/window_phases.sh); its first line names the
# whole-trace ranks.
load system("dirname ".ARG0)."/common.gp"
f = datadir."/window_phases.dat"
info = fexists(f) ? system(sprintf("head -1 '%s' | sed 's/^# //'", f)) : ""
do for [ext in "png svg"] {
    eval set_term(ext, 900, 420)
    set output sprintf("%s/window_phases.%s", outdir, ext)
    set title "Sliding-window nesting (-s window=10s): a one-minute phase\n{/*0.8 ".info."}"
    set xlabel "time (minutes)"
    set ylabel "path instances per 10 s window"
    set yrange [0:*]
    set key below
    if (fexists(f)) {
        plot f using 1:3 with steps ls 3 title "top pattern of the whole trace", \
             '' using 1:2 with steps ls 2 title "report job C3>RPT[ARCH[DB,DB,DB]]"
    } else { set label 1 "no data" at graph 0.5, 0.5 center; plot [0:1] [0:1] NaN notitle; unset label 1 }
}
