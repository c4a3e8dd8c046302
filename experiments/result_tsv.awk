# result_tsv.awk - the patterns table of a pathbench result file as
# tab-separated columns (the header line first), for the other scripts.
# Handles CSV quoting (patterns are always quoted; "" is a quote).
function csvsplit(s, f,    n, i, c, q, cur) {
    n = 0; cur = ""; q = 0
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (q) {
            if (c == "\"") {
                if (substr(s, i + 1, 1) == "\"") { cur = cur "\""; i++ } else q = 0
            } else cur = cur c
        } else if (c == "\"") q = 1
        else if (c == ",") { f[++n] = cur; cur = "" }
        else cur = cur c
    }
    f[++n] = cur
    return n
}
/^# table=/ { intab = ($0 ~ /^# table=patterns/); hdr = 0; next }
/^#/ { next }
intab {
    sub(/\r$/, "")
    n = csvsplit($0, f)
    line = f[1]
    for (i = 2; i <= n; i++) line = line "\t" f[i]
    print line
}
