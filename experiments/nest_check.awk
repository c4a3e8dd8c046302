# nest_check.awk - check nesting's parent choices one by one against the
# truth, and show the scoreboard of the most frequent call triple.
#
#   awk -f nest_check.awk RESULT TRACE
#
# RESULT is `infer --algo nesting` output WITH its message table (no
# --no-assign); TRACE is the trace it ran on, with the truth columns
# (path) and call ids.  Candidates are listed as nesting lists them
# (5.1.1.1; algorithms/nesting.c sweep): for a call pair B->C, every call
# into B sent before it and still open when it returns.  The true parent is
# the candidate on the same true path; nesting's choice is the candidate in
# the same inferred instance.  Prints one line of key=value:
#   nested            calls with a true parent among their candidates
#   right_parent      share of those whose chosen parent is the true one
#   wrong_older       share of the wrong choices that took an older parent
#                     (a longer call delay) than the true one
#   triple            the (A,B,C) triple with the most nested calls
#   peak_ms peak      the scoreboard's highest bin in that triple (its lower
#                     edge in ms, and its value: the sum over children of
#                     1/number of candidates)
#   bg_ms bg          the background: the bin where wrong candidates (calls
#                     into B on other true paths) weigh most, and that weight
#   bg_over_peak      bg / peak: near 1, the true delay barely stands out
# Scoreboard bins as nesting's defaults: ratio 1.05 from 1 ms (override
# with -v base=... -v lowest_s=...).
BEGIN {
    FS = ","
    if (base == "") base = 1.05
    if (lowest_s == "") lowest_s = 0.001
    lb = log(base); ll = log(lowest_s)
}
function bin(d) { return d <= lowest_s ? 0 : int((log(d) - ll) / lb) }
# the result: the message table after the "id,instance,rank" header
FNR == 1 { file++ }
file == 1 {
    if ($0 ~ /^id,instance/) { intab = 1; next }
    if (intab && $0 !~ /^#/) inst[$1] = $2
    next
}
/^#/ { next }
!th {
    for (i = 1; i <= NF; i++) c[$i] = i
    if (!("path" in c) || !("callid" in c)) { print "nest_check: the trace needs path and callid columns" > "/dev/stderr"; bad = 1; exit 1 }
    th = 1; next
}
$(c["type"]) == "call" {
    k = $(c["src"]) SUBSEP $(c["dst"]) SUBSEP $(c["callid"])
    p = ++np
    pid[k] = p; pmsg[p] = $(c["id"]); pts[p] = $(c["ts"]) + 0
    psrc[p] = $(c["src"]); pdst[p] = $(c["dst"]); ppath[p] = $(c["path"])
    # the inferred instance, "" when the message has none ("i" + it else)
    pinst[p] = ($(c["id"]) in inst) ? "i" inst[$(c["id"])] : ""
    d = pdst[p]; slot[p] = ++nopen[d]; open[d, nopen[d]] = p
    next
}
$(c["type"]) == "return" {
    k = $(c["dst"]) SUBSEP $(c["src"]) SUBSEP $(c["callid"])
    if (!(k in pid)) next
    p = pid[k]; delete pid[k]
    b = psrc[p]; n = 0; tp = 0; ip = 0
    # (the loops below run once per candidate, millions of times on the
    # busiest traces: what does not change with the candidate is read once)
    ts = pts[p]; pa = ppath[p]; pi = pinst[p]; nb = nopen[b]; dp = pdst[p]
    for (j = 1; j <= nb; j++) {
        q = open[b, j]
        if (pts[q] < ts && q != p) {
            cand[++n] = q
            if (ppath[q] == pa) tp = q
            if (pi != "" && pinst[q] == pi) ip = q
        }
    }
    if (n > 0) {
        w = 1.0 / n
        for (j = 1; j <= n; j++) {
            q = cand[j]; k = psrc[q] SUBSEP b SUBSEP dp SUBSEP bin(ts - pts[q])
            sb[k] += w
            if (ppath[q] != pa) sbw[k] += w
        }
        if (tp) {
            nested++
            tr = psrc[tp] SUBSEP b SUBSEP pdst[p]; ntr[tr]++
            if (ip == tp) right++
            else { wrong++; if (ip && pts[ip] < pts[tp]) older++ }
        }
    }
    # close the pair: swap the last open call into its slot
    d = pdst[p]; s = slot[p]; last = open[d, nopen[d]]
    open[d, s] = last; slot[last] = s; delete open[d, nopen[d]]; nopen[d]--
    next
}
END {
    if (bad) exit 1
    best = ""; for (t in ntr) if (best == "" || ntr[t] > ntr[best]) best = t
    pk = -1; pv = 0
    for (i = 0; i < 2000; i++) if (((best, i) in sb) && sb[best, i] > pv) { pv = sb[best, i]; pk = i }
    bv = 0; bk = -1
    if (pk >= 0) {
        for (i = 0; i < 2000; i++) if (((best, i) in sbw) && sbw[best, i] > bv) { bv = sbw[best, i]; bk = i }
    }
    split(best, tn, SUBSEP)
    edge = function_ms(pk); bedge = function_ms(bk)
    printf "nested=%d right_parent=%.4f wrong_older=%.4f triple=%s>%s>%s peak_ms=%.1f peak=%.1f bg_ms=%.1f bg=%.1f bg_over_peak=%.3f\n",
        nested, nested ? right / nested : 0, wrong ? older / wrong : 0, tn[1], tn[2], tn[3],
        edge, pv, bedge, bv, (pv > 0 ? bv / pv : 0)
}
function function_ms(i) { return i < 0 ? 0 : 1000 * exp(ll + i * lb) }
