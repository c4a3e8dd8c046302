# added_delay.awk - Figures 12/13: compare one pattern between the result
# of a normal trace and of an added-delay trace.
#   awk -v node=WS2 -v with=AUTH -v with2='AP1|AP2' -v ctl=WS1 -f added_delay.awk NORMAL.tsv DELAY.tsv
# (the .tsv files from result_tsv.awk).  Picks, in the normal result, the
# highest-ranked pattern that visits `node`, `with` and one of the
# '|'-separated `with2` (target "delayed": the delay sits between the
# calls to AUTH and to an application server, so a login path through WS2
# and AUTH alone must not be picked)
# and the highest-ranked one that visits `ctl` but not `node` (target
# "control", where nothing was added), finds the same pattern text in the
# delay result and prints CSV rows:
#   target,count_normal,count_delay,latency_normal,latency_delay,
#   added_latency,node_latency_normal,node_latency_delay,added_node_latency,
#   pattern (last, as it is quoted and holds commas)
# node_latency_* is the sum over the pattern's `node` positions of their
# node latency (empty where the algorithm reports none).
function has(p, name,    t, n, i) {
    n = split(p, t, /[][>,]/)
    for (i = 1; i <= n; i++) if (t[i] == name) return 1
    return 0
}
function nodesum(p, lat,    t, n, i, k, l, m, s, any) {
    n = split(p, t, /[][>,]/)
    m = split(lat, l, ";")
    k = 0; s = 0; any = 0
    for (i = 1; i <= n; i++) {
        if (t[i] == "") continue
        k++
        if (t[i] == node && k <= m && l[k] != "" && l[k] != "nan") { s += l[k]; any = 1 }
    }
    return any ? sprintf("%.6f", s) : ""
}
function hasany(p, alts,    a, n, i) {
    if (alts == "") return 1
    n = split(alts, a, "|")
    for (i = 1; i <= n; i++) if (has(p, a[i])) return 1
    return 0
}
function fmt(x) { return x == "" ? "" : sprintf("%.6f", x) }
BEGIN { FS = "\t" }
FNR == 1 { file++; for (i = 1; i <= NF; i++) c[$i] = i; next }
file == 1 {
    p = $(c["pattern"])
    if (!tp && has(p, node) && has(p, with) && hasany(p, with2)) { tp = p; tn = $(c["count"]); tl = $(c["mean_latency"]); tnode = nodesum(p, $(c["node_latency"])) }
    if (!cp && has(p, ctl) && !has(p, node)) { cp = p; cn = $(c["count"]); cl = $(c["mean_latency"]); cnode = nodesum(p, $(c["node_latency"])) }
}
file == 2 {
    p = $(c["pattern"])
    if (p == tp && !td) { td = 1; dn = $(c["count"]); dl = $(c["mean_latency"]); dnode = nodesum(p, $(c["node_latency"])) }
    if (p == cp && !cd) { cd = 1; en = $(c["count"]); el = $(c["mean_latency"]); enode = nodesum(p, $(c["node_latency"])) }
}
function row(target, p, n1, n2, l1, l2, x1, x2) {
    printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,\"%s\"\n", target, n1, n2, fmt(l1), fmt(l2),
        (l1 != "" && l2 != "") ? fmt(l2 - l1) : "", x1, x2,
        (x1 != "" && x2 != "") ? fmt(x2 - x1) : "", p
}
END {
    print "target,count_normal,count_delay,latency_normal,latency_delay,added_latency,node_latency_normal,node_latency_delay,added_node_latency,pattern"
    if (tp) row("delayed", tp, tn, dn, tl, dl, tnode, dnode)
    if (cp) row("control", cp, cn, en, cl, el, cnode, enode)
}
