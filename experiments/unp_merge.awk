# unp_merge.awk - is the second search of `unpaired=1|3` worth taking
# where it changed something, request group by request group?
# (docs/joint/loss.md, "Which messages stay unpaired: the second search
# taken piece by piece, measured"; evaluation only: it reads the truth)
#
#   awk -f experiments/unp_merge.awk TRUTH LOSSY RESULT_FIRST RESULT_SECOND
#
# TRUTH: the unperturbed trace (path column); LOSSY: the sniffer copy both
# results were inferred from; RESULT_FIRST: infer's with `-s unpaired=0`
# (the first search); RESULT_SECOND: with `-s unpaired=1` (the second
# search wherever the priced choice changed a link; its metadata lines
# `unpaired_moved=A>B ids=...` name the messages whose state the choice
# changed).  The messages fall into groups closed under both results'
# instances (union of "same instance in the first" and "same instance in
# the second"); a group whose two partitions differ is a *piece*, and
# either result's partition of it can be taken without touching the rest.
# Prints one line:
#   intact=N first=A second=B local=L conf=C conf_small=D pieces=P
#   pieces_moved=M msgs_moved=K of=T
# intact requests (they lost nothing) exact with the first result, the
# second, and three merges, each taking the second's partition on a piece
# only when: local, the piece holds a moved message; conf, the sum of
# log(confidence) of its messages is higher in the second result (the
# results' own confidence column: no truth); conf_small, as conf on a
# piece of at most SMALL (default 0.1, `-v small=S`) of the messages, the
# rest the first's (a piece that is most of the trace is no local
# change: OnlineBoutique 07:11, where the whole minute is two pieces).  P pieces,
# M of them with a moved message, K messages in those of T.
BEGIN { FS = ","; if (small == "") small = 0.1 }
FNR == 1 { f++; h = 0; on = 0 }
f == 4 && /^# unpaired_moved=/ {
    s = $0; sub(/.* ids=/, "", s); n = split(s, ids, ",")
    for (i = 1; i <= n; i++) moved[ids[i]] = 1
}
/^#/ { if (f >= 3 && $0 ~ /^# table=assignment/) on = 1; next }
f >= 3 && !on { next }
!h { delete c; for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
f == 1 { path[$c["id"]] = $c["path"]; np[$c["path"]]++; next }
f == 2 { kept[$c["id"]] = 1; next }
{
    m = $c["id"]; x = $c["instance"]; v = $c["confidence"]
    lc = v == "" ? 0 : log(v > 1e-6 ? v : 1e-6)
    if (f == 3) { ia[m] = x; la[m] = lc } else { ib[m] = x; lb[m] = lc }
    msg[m] = 1
    if (x == "") next
    k = f SUBSEP x
    if (k in first) union(m, first[k]); else first[k] = m
}
function find(a,   r) {
    r = a
    while ((r in up) && up[r] != r) r = up[r]
    while ((a in up) && up[a] != a) { t = up[a]; up[a] = r; a = t }
    return r
}
function union(a, b) { a = find(a); b = find(b); if (a != b) up[a] = b }
END {
    for (m in msg) nmsg++
    for (m in msg) {
        g = find(m); grp[m] = g; size[g]++
        sa[g] += la[m]; sb[g] += lb[m]
        if (m in moved) gm[g] = 1
        # a piece: one instance of one result meets two of the other
        xa = "A" ia[m]; xb = "B" ib[m]
        if (ia[m] == "" || ib[m] == "") { differ[g] = 1; continue }
        if ((xa in toB) && toB[xa] != xb) differ[g] = 1
        if ((xb in toA) && toA[xb] != xa) differ[g] = 1
        toB[xa] = xb; toA[xb] = xa
    }
    for (g in differ) {
        pieces++
        if (g in gm) { pm++; km += size[g] }
    }
    for (m in msg) {
        g = grp[m]; d = g in differ
        lab[1, m] = "A" ia[m]; lab[2, m] = "B" ib[m]
        lab[3, m] = d && (g in gm) ? "B" ib[m] : "A" ia[m]
        lab[4, m] = d && sb[g] > sa[g] ? "B" ib[m] : "A" ia[m]
        lab[5, m] = d && sb[g] > sa[g] && size[g] <= small * nmsg ? "B" ib[m] : "A" ia[m]
        for (r = 1; r <= 5; r++)
            if (lab[r, m] != "A" && lab[r, m] != "B") cnt[r, lab[r, m]]++
        tot++
    }
    for (m in path) { p = path[m]; if (!(m in kept)) broken[p] = 1; mem[p] = m }
    for (p in np) {
        if (p in broken) continue
        intact++
    }
    for (m in path) {
        p = path[m]
        if (p in broken) continue
        for (r = 1; r <= 5; r++) {
            l = lab[r, m]
            if (!((r, p) in pl)) pl[r, p] = l
            else if (pl[r, p] != l) pl[r, p] = "X"
        }
    }
    for (p in np) {
        if (p in broken) continue
        for (r = 1; r <= 5; r++) {
            l = pl[r, p]
            if (l != "X" && l != "A" && l != "B" && cnt[r, l] == np[p]) ex[r]++
        }
    }
    printf "intact=%d first=%d second=%d local=%d conf=%d conf_small=%d pieces=%d pieces_moved=%d msgs_moved=%d of=%d\n",
        intact, ex[1], ex[2], ex[3], ex[4], ex[5], pieces, pm, km, tot
}
