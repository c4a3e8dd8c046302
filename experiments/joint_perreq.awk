# joint_perreq.awk - evaluation only (reads the truth's path and cause
# columns): per request of TRACE, 1 when RESULT (infer's output) puts
# exactly its messages in one instance with the truth's parents, else 0
# (the request-level count behind score's exact accuracy on a trace
# without loss).  Never an input of an algorithm.
#   awk -F, -f experiments/joint_perreq.awk TRACE.csv RESULT.csv
# prints "request 0|1" per request.
FNR == 1 { f++ }
/^#/ { next }
f == 1 && !h1 { for (i = 1; i <= NF; i++) c[$i] = i; h1 = 1; next }
f == 1 { req[$c["id"]] = $c["path"]; cause[$c["id"]] = $c["cause"]; n[$c["path"]]++; next }
f == 2 && $1 == "id" { inasg = 1; next }
f == 2 && inasg { inst[$1] = $2; par[$1] = $4; next }
END {
    for (m in req) {
        r = req[m]
        if (!(r in first)) first[r] = inst[m]
        else if (first[r] != inst[m]) bad[r] = 1
        if (par[m] != cause[m]) bad[r] = 1
        cnt[inst[m]]++
    }
    for (r in n) print r, (!(r in bad) && cnt[first[r]] == n[r]) ? 1 : 0
}
