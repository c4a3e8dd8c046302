# compare_figs.sh - sourced by experiments/compare.sh for --figures: compare
# two `make figures` output folders (two builds' runs of the figure
# scripts), point by point, with bin/compare, and draw each paper figure
# with both folders' curves overlaid (docs/experiments.md, "Comparing two
# figure runs").  Not run on its own.
#
# FIGSPEC: which figures are read and how, one line each (the same
# columns the figure script's fig_collect gives `aggregate` in lib.sh):
#   FIG SERIESCOLS XCOL GROUPCOL METRIC BETTER PANELCOL SUFFIX XLOG
# A point is FIG/SERIES/GROUPCOL=GROUP (SERIES: the SERIESCOLS of a row
# joined by '-', then SUFFIX; the name of its series file FIG_SERIES.dat),
# paired over the `seed` column; PANELCOL ('-': one panel) gives the
# panel of the overlay plot.
FIGSPEC='fig17 series n n fn_rate_t0 lower series -t0 0
fig17 series n n fn_rate_t2 lower series -t2 0
fig17 series n n fn_rate_t6 lower series -t6 0
fig19 config,algo parallelism scale instance_fp_rate lower algo - 0
fig20 config,algo delay_sd delay_sd instance_fp_rate lower algo - 0
fig21 config,algo drop_rate rate_x instance_fn_rate lower algo - 1
fig22 curve skew skew instance_fn_rate lower - - 0
selftest series x x y lower - - 0'

# figs_csv DIR FIG SERIESCOLS XCOL GROUPCOL METRIC BETTER PANELCOL SUFFIX:
# the per-seed rows of DIR/FIG.dat as bin/compare input rows (no header);
# the series and their panels to $PAIRS_WORK/series.txt
# (FIG SERIES PANEL CURVE)
figs_csv() {
    awk -F, -v fig="$2" -v sc="$3" -v xc="$4" -v gc="$5" -v yc="$6" -v better="$7" -v pc="$8" -v sfx="$9" \
        -v sl="$PAIRS_WORK/series.txt" '
    /^#/ { next }
    !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; ns = split(sc, s, ",")
         for (i = 1; i <= ns; i++) if (!(s[i] in c)) bad = 1
         if (!(xc in c) || !(gc in c) || !(yc in c)) bad = 1
         if (bad) { print "compare: " FILENAME ": not the columns of " fig " (" sc ", " xc ", " gc ", " yc ")" > "/dev/stderr"; exit 1 }
         next }
    { name = ""; for (i = 1; i <= ns; i++) name = name (i > 1 ? "-" : "") $(c[s[i]]); name = name (sfx == "-" ? "" : sfx)
      y = $(c[yc]); x = $(c[xc]); g = $(c[gc]); seed = ("seed" in c ? $(c["seed"]) : 1)
      if (y == "" || y == "nan") next
      printf "%s/%s/%s=%s,%s,%s,%s,%s,%s_%s,%s\n", fig, name, gc, g, yc, seed, y, better, fig, name, (x == "" || x == "nan" ? "" : x)
      if (!(name in seen)) { seen[name] = 1
          pn = (pc == "-" ? "-" : $(c[pc])); cu = name
          if (pc != "-" && sfx != "-") cu = substr(sfx, 2); else if (pc != "-") { cu = "-" name; sub("-" pn "$", "", cu); cu = substr(cu, 2) }
          printf "%s %s %s %s\n", fig, name, pn, cu >> sl } }' "$1/$2.dat"
}

# figs_plot FIG XLOG XLABEL YLABEL: the gnuplot overlay of FIG, both folders' series
# files (index 0: group x y ... lo hi), side A solid, B dashed, one colour
# per curve; writes $out/overlay_FIG.svg
figs_plot() {
    _f=$1 _xlog=$2
    awk -v fig="$_f" -v A="$dirA" -v B="$dirB" -v out="$out" -v xlog="$_xlog" -v la="$labA" -v lb="$labB" \
        -v xl="$3" -v yl="$4" '
    function q(s) { gsub(/\047/, "", s); return "\047" s "\047" }
    function ok(f,    l) { l = (getline _l < f) > 0; close(f); return l }
    $1 == fig { if (!($3 in pn)) { pn[$3] = ++np; pl[np] = $3 } p = pn[$3]; k[p]++; S[p, k[p]] = $2; CU[p, k[p]] = $4
                if (!($4 in col)) col[$4] = ++nc }
    END {
        if (!np) exit
        split("#000000 #D55E00 #0072B2 #E69F00 #009E73 #CC79A7 #56B4E9 #7F7F7F", C, " ")
        w = (np > 3 ? 3 : np); hgt = int((np + w - 1) / w)
        printf "set terminal svg size %d,%d font \"sans,9\" background \"#ffffff\"\n", 400 * w, (320 + 12 * int((2 * nc + 1) / 2)) * hgt
        printf "set output %s\n", q(out "/overlay_" fig ".svg")
        print "set grid lc rgb \"#dddddd\"; set key below horizontal maxcols 2 font \",8\" samplen 3"
        printf "set xlabel %s; set ylabel %s\n", q(xl), q(yl)
        if (xlog) print "set logscale x"
        printf "set multiplot layout %d,%d title %s\n", hgt, w, q(fig ": " la " solid, " lb " dashed; bars: 95 % t interval over the seeds")
        for (p = 1; p <= np; p++) {
            printf "set title %s\n", q(pl[p] == "-" ? fig : pl[p])
            s = ""
            for (i = 1; i <= k[p]; i++) { cc = C[(col[CU[p, i]] - 1) % 8 + 1]
                fa = A "/" fig "_" S[p, i] ".dat"; fb = B "/" fig "_" S[p, i] ".dat"
                if (ok(fa)) s = s (s == "" ? "" : ", ") sprintf("%s index 0 using 2:3:7:8 with yerrorlines lc rgb \"%s\" dt 1 pt 7 ps 0.5 title %s", q(fa), cc, q(CU[p, i] " " la))
                if (ok(fb)) s = s (s == "" ? "" : ", ") sprintf("%s index 0 using 2:3:7:8 with yerrorlines lc rgb \"%s\" dt 2 pt 6 ps 0.5 title %s", q(fb), cc, q(CU[p, i] " " lb)) }
            if (s != "") print "plot " s; else print "set label 1 \"no data\" at graph 0.4,0.5; plot NaN notitle; unset label 1"
        }
        print "unset multiplot"
    }' "$PAIRS_WORK/series.txt" >"$PAIRS_WORK/overlay_$_f.gp"
    [ -s "$PAIRS_WORK/overlay_$_f.gp" ] || return 0
    gnuplot "$PAIRS_WORK/overlay_$_f.gp" 2>"$PAIRS_WORK/gnuplot_$_f.log" ||
        { echo "compare: the overlay of $_f failed (gnuplot):" >&2; tail -3 "$PAIRS_WORK/gnuplot_$_f.log" >&2; }
}

# figs_compare DIRA DIRB: the whole --figures run
figs_compare() {
    dirA=$(cd "$1" 2>/dev/null && pwd) || pairs_die "--figures: no folder $1"
    dirB=$(cd "$2" 2>/dev/null && pwd) || pairs_die "--figures: no folder $2"
    labA=${labels%%,*} labB=${labels#*,}
    [ -n "$labels" ] || { labA=A labB=B; labels="A,B"; }
    mkdir -p "$out" || pairs_die "cannot create $out"
    hdr='point,metric,seed,value,better,series,x'
    echo "$hdr" >"$out/a.csv"; echo "$hdr" >"$out/b.csv"
    : >"$PAIRS_WORK/series.txt"
    figs="" nfig=0
    while read -r f sc xc gc yc bt pc sfx xl; do
        [ -f "$dirA/$f.dat" ] || [ -f "$dirB/$f.dat" ] || continue
        if [ ! -f "$dirA/$f.dat" ] || [ ! -f "$dirB/$f.dat" ]; then
            echo "compare: note: $f.dat in one folder only: its points are MISSING on the other side" >&2
        fi
        [ -f "$dirA/$f.dat" ] && { figs_csv "$dirA" "$f" "$sc" "$xc" "$gc" "$yc" "$bt" "$pc" "$sfx" >>"$out/a.csv" || exit 2; }
        [ -f "$dirB/$f.dat" ] && { figs_csv "$dirB" "$f" "$sc" "$xc" "$gc" "$yc" "$bt" "$pc" "$sfx" >>"$out/b.csv" || exit 2; }
        case " $figs " in *" $f "*) ;; *) figs="$figs $f"; nfig=$((nfig + 1)); eval "xlog_$f=$xl xlab_$f=$xc ylab_$f=$(echo "$yc" | sed "s/_t[0-9]*$//")" ;; esac
    done <<EOF
$FIGSPEC
EOF
    [ $nfig -gt 0 ] || pairs_die "--figures: no figure data (FIG.dat of $(echo "$FIGSPEC" | awk '{ print $1 }' | sort -u | tr '\n' ' ')) in $1 or $2"
    # dedupe the series list (both folders added theirs)
    awk '!s[$0]++' "$PAIRS_WORK/series.txt" >"$PAIRS_WORK/s2" && mv "$PAIRS_WORK/s2" "$PAIRS_WORK/series.txt"
    commits() { for f in $figs; do sed -n 's/^# commits: //p' "$1/$f.dat" 2>/dev/null; done | tr ' ' '\n' | sed '/^$/d' | sort -u | tr '\n' ' '; }
    echo "compare: figures$figs; A = $1 (commits $(commits "$dirA")), B = $2 (commits $(commits "$dirB"))" >&2
    # shellcheck disable=SC2086
    "$cmp" -q $cargs --labels "$labels" --title "pathbench compare: figures of $1 vs $2" \
        --csv "$out/compare.csv" --html "$out/compare.html" -o "$out/compare.txt" "$out/a.csv" "$out/b.csv"
    rc=$?
    # the paper figures with both runs' curves, into the page
    if command -v gnuplot >/dev/null 2>&1; then
        for f in $figs; do eval "figs_plot $f \$xlog_$f \$xlab_$f \$ylab_$f"; done
        {
            echo "<h2>The figures: $labA solid, $labB dashed</h2>"
            echo "<p>Each figure's curves from both folders' series files, the same colour per curve; bars: the 95 % t interval of the mean over the seeds.</p>"
            for f in $figs; do
                [ -s "$out/overlay_$f.svg" ] || continue
                echo "<figure>"; sed '1{/^<?xml/d}' "$out/overlay_$f.svg"; echo "<figcaption>$f</figcaption></figure>"
            done
        } >"$PAIRS_WORK/ov.html"
        awk -v f="$PAIRS_WORK/ov.html" '/<\/body>/ && !d { while ((getline l < f) > 0) print l; d = 1 } { print }' \
            "$out/compare.html" >"$out/compare.html.tmp" && mv "$out/compare.html.tmp" "$out/compare.html"
    else
        echo "compare: note: no gnuplot: the figure overlays are left out of compare.html" >&2
    fi
    cat "$out/compare.txt"
    echo "compare: wrote $out/compare.txt, compare.csv, compare.html (with overlay_FIG.svg), a.csv, b.csv" >&2
    exit $rc
}
