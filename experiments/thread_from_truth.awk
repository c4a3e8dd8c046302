# thread_from_truth.awk - add the `thread` column (docs/formats.md) to a
# generated trace, from its truth, as vPath's kernel observation would
# give it: one worker per visit of a request to a node.  A call (or
# one-way message) starts a visit at its receiver: its thread is "v<id>".
# A return's thread is the visit of its receiver that made the call it
# answers.  The visit a message is sent from is the one its cause opened
# (a call or message received), or, when the cause is a return, the visit
# that made that return's call; a message without a cause is sent from
# "r<path>".  Needs the columns id, src, dst, type, callid, cause, path;
# calls pair with returns by (caller, callee, callid) first in, first out.
#   awk -F, -f experiments/thread_from_truth.awk trace.csv > with-thread.csv
BEGIN { OFS = "," }
/^#/ && !hdr { print; next }
!hdr {
    hdr = 1
    for (i = 1; i <= NF; i++) col[$i] = i

    split("id src dst type callid cause path", need, " ")
    for (k in need) if (!(need[k] in col)) { print "thread_from_truth: no column " need[k] > "/dev/stderr"; exit 1 }
    print $0, "thread"
    next
}
{
    id = $col["id"]; s = $col["src"]; d = $col["dst"]; t = $col["type"]
    c = $col["cause"]; key = s SUBSEP d SUBSEP $col["callid"]
    # the visit of the sender this message leaves from
    if (c == "") from = "r" $col["path"]
    else if (kind[c] == "return") from = sendctx[answered[c]]
    else from = "v" c
    sendctx[id] = from; kind[id] = t
    if (t == "return") {
        rk = d SUBSEP s SUBSEP $col["callid"]
        cid = ""
        h = qh[rk] + 0
        if (h < qt[rk] + 0) { cid = q[rk, h]; delete q[rk, h]; qh[rk] = h + 1 }
        answered[id] = cid
        th = cid == "" ? "" : sendctx[cid]
    } else {
        if (t == "call") { q[key, qt[key]++] = id }
        th = "v" id
    }
    print $0, th
}
