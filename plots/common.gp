# common.gp - loaded by every figure script: defaults for datadir/outdir,
# a file test, and the two terminals.  Nothing here computes.
if (!exists("datadir")) datadir = "out/figures"
if (!exists("outdir")) outdir = datadir
fexists(f) = int(system(sprintf("test -s '%s' && echo 1 || echo 0", f)))
# set_term(ext, w, h): PNG (cairo) or SVG of the given size
set_png(w, h) = sprintf("set terminal pngcairo size %d,%d font 'sans,10' enhanced", w, h)
set_svg(w, h) = sprintf("set terminal svg size %d,%d font 'sans,10' enhanced dynamic background '#ffffff'", w, h)
set_term(ext, w, h) = (ext eq "png") ? set_png(w, h) : set_svg(w, h)
# Line styles: colours of the Okabe-Ito palette (distinct for colour-blind
# readers) AND a distinct point type and dash pattern for each, so that
# every curve can still be told apart on a grey-scale print.
set style line 1 lc rgb '#000000' lw 1.6 pt 7 ps 0.8 dt 1
set style line 2 lc rgb '#D55E00' lw 1.6 pt 5 ps 0.8 dt 2
set style line 3 lc rgb '#0072B2' lw 1.6 pt 8 ps 1.0 dt 1
set style line 4 lc rgb '#E69F00' lw 1.6 pt 13 ps 1.0 dt 4
set style line 5 lc rgb '#009E73' lw 1.6 pt 6 ps 1.0 dt (8, 4)
set style line 6 lc rgb '#CC79A7' lw 1.6 pt 11 ps 1.0 dt 5
set style line 7 lc rgb '#56B4E9' lw 1.6 pt 4 ps 0.9 dt (2, 3)
set style line 8 lc rgb '#7F7F7F' lw 1.6 pt 2 ps 0.9 dt 3
set grid lc rgb '#dddddd'
# legends go outside the data (below each panel unless a script says otherwise)
set key below horizontal Left reverse noautotitle font ",8" samplen 3 spacing 1.0 width 1
