# concat_points.awk - the body of a figure's .dat from its point files
# (experiments/lib.sh pb_concat).  Input: the list of point files, one
# path a line; files that do not exist are skipped.
#   -v what=commits   the commit of each point (from its first line
#                     "# commit=C point=FIG ..."), one a line
#   -v what=rows      "# parameters: k=v1,v2 ..." (every key of the points'
#                     first lines, in first-seen order, with its values),
#                     then the CSV rows: the first point's header and rows,
#                     and the rows of every other point whose header is the
#                     same (else a message on stderr and the point skipped)
#   -v fig=NAME       the figure's name for that message
# A point file is "# ..." comment lines, then a CSV header and its rows.
function exists(f,    r, l) {
    r = (getline l < f)
    if (r < 0) return 0
    close(f)
    return 1
}
{
    f = $0
    if (!exists(f)) next
    files[++nf] = f
}
END {
    if (what == "commits") {
        for (i = 1; i <= nf; i++) {
            if ((getline l < files[i]) > 0 && sub(/^# commit=/, "", l)) {
                sub(/ .*/, "", l)
                print l
            }
            close(files[i])
        }
        exit 0
    }
    # the parameters line: every "# commit=C point=F k=v ..." line
    for (i = 1; i <= nf; i++) {
        while ((getline l < files[i]) > 0) {
            if (l !~ /^# commit=[^ ]* point=[^ ]* /) continue
            sub(/^# commit=[^ ]* point=[^ ]* /, "", l)
            n = split(l, w, " ")
            for (j = 1; j <= n; j++) {
                k = w[j]; sub(/=.*/, "", k); v = substr(w[j], length(k) + 2)
                if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
                if (!((k, v) in have)) { have[k, v] = 1; vals[k] = vals[k] (vals[k] == "" ? "" : ",") v }
            }
        }
        close(files[i])
    }
    printf "# parameters:"
    for (i = 1; i <= nk; i++) printf " %s=%s", keys[i], vals[keys[i]]
    print ""
    # the rows
    for (i = 1; i <= nf; i++) {
        first = 1; n = 0
        while ((getline l < files[i]) > 0) {
            if (l ~ /^#/) continue
            if (i == 1) { if (first) hdr = l; print l; first = 0; continue }
            if (first) {
                first = 0
                if (l != hdr) { printf "%s: %s: header differs from the others; skipped\n", fig, files[i] > "/dev/stderr"; break }
                continue
            }
            print l
        }
        close(files[i])
    }
}
