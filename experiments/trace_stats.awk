# trace_stats.awk - summary of a pathbench trace (CSV with header):
#   messages duration_s parallelism call_delay_s return_delay_s
# parallelism: mean per-node parallelism, the number of calls a node is
#   serving (received, not yet returned; pairs matched by caller, callee
#   and callid) counted at each call's arrival, averaged over all calls;
#   "nan" without call/return marks.
# call_delay / return_delay: mean time from a message's cause being
#   received (recv_ts, else ts) to the message being sent, over calls and
#   over returns (needs the truth column `cause`); "nan" when unknown.
# Quoted fields are not expected (pathbench writes node names bare).
BEGIN { FS = "," }
/^#/ { next }
!hdr {
    for (i = 1; i <= NF; i++) c[$i] = i
    hdr = 1; next
}
{
    n++
    ts = $(c["ts"]) + 0
    if (n == 1) t0 = ts
    t1 = ts
    ty = ("type" in c) ? $(c["type"]) : "msg"
    rt = ("recv_ts" in c) ? $(c["recv_ts"]) : ""
    if ("id" in c) { id = $(c["id"]); at[id] = (rt != "" ? rt + 0 : ts) }
    if ("cause" in c && $(c["cause"]) != "" && ($(c["cause"]) in at)) {
        d = ts - at[$(c["cause"])]
        if (ty == "call") { cd += d; ncd++ } else if (ty == "return") { rd += d; nrd++ }
    }
    if (("callid" in c) && ty == "call") {
        k = $(c["src"]) SUBSEP $(c["dst"]) SUBSEP $(c["callid"])
        b = $(c["dst"])
        open[b]++; opened[k]++
        psum += open[b]; pn++
    } else if (("callid" in c) && ty == "return") {
        k = $(c["dst"]) SUBSEP $(c["src"]) SUBSEP $(c["callid"])
        if (opened[k] > 0) { opened[k]--; open[$(c["src"])]-- }
    }
}
END {
    printf "%d %.9f %s %s %s\n", n, (n ? t1 - t0 : 0),
        (pn ? sprintf("%.4f", psum / pn) : "nan"),
        (ncd ? sprintf("%.6f", cd / ncd) : "nan"),
        (nrd ? sprintf("%.6f", rd / nrd) : "nan")
}
