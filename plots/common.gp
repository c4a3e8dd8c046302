# common.gp - loaded by every figure script: defaults for datadir/outdir,
# a file test, and the two terminals.  Nothing here computes.
if (!exists("datadir")) datadir = "out/figures"
if (!exists("outdir")) outdir = datadir
fexists(f) = int(system(sprintf("test -s '%s' && echo 1 || echo 0", f)))
# set_term(ext, w, h): PNG (cairo) or SVG of the given size
set_png(w, h) = sprintf("set terminal pngcairo size %d,%d font 'sans,10' enhanced", w, h)
set_svg(w, h) = sprintf("set terminal svg size %d,%d font 'sans,10' enhanced dynamic background '#ffffff'", w, h)
set_term(ext, w, h) = (ext eq "png") ? set_png(w, h) : set_svg(w, h)
set style line 1 lc rgb '#1f77b4' lw 1.5 pt 7 ps 0.8
set style line 2 lc rgb '#d62728' lw 1.5 pt 5 ps 0.8
set style line 3 lc rgb '#2ca02c' lw 1.5 pt 9 ps 0.9
set style line 4 lc rgb '#9467bd' lw 1.5 pt 11 ps 0.9
set style line 5 lc rgb '#ff7f0e' lw 1.5 pt 13 ps 0.9
set style line 6 lc rgb '#8c564b' lw 1.5 pt 3 ps 0.8
set style line 7 lc rgb '#7f7f7f' lw 1.5 pt 2 ps 0.8
set grid lc rgb '#dddddd'
set key top left Left reverse noautotitle font ",8" samplen 1.5 spacing 0.9
