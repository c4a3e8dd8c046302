# flag_check.awk - is a precise tracer ever silently wrong?  Reads, in
# order: the result's text report (lines "flagged instance N"), the result
# file (its assignment table: id,instance,rank) and the truth trace (CSV
# with id and path columns).  A true request (path) is exact when all its
# messages sit in one inferred instance that holds nothing else.  Prints
# "requests=N wrong=W wrong_unflagged=U flagged_instances=F" and exits 1
# when U > 0 (a wrong request none of whose messages lies in a flagged
# instance).
#   awk -F, -f experiments/flag_check.awk REPORT RESULT TRACE
FNR == 1 { file = FILENAME == ARGV[1] ? 1 : FILENAME == ARGV[2] ? 2 : 3 }
file == 1 && /^flagged instance / { flagged[substr($0, 18) + 0] = 1; nf++; next }
file == 2 && /^# table=assignment/ { inassign = 1; next }
file == 2 && /^#/ { inassign = 0; next }
file == 2 && inassign && $1 != "id" { inst[$1] = $2; size[$2]++; next }
file == 3 && /^#/ { next }
file == 3 && !hdr { for (i = 1; i <= NF; i++) col[$i] = i; hdr = 1; next }
file == 3 {
    p = $(col["path"]); id = $(col["id"])
    if (p == "") next
    if (!(p in n)) { order[++np] = p }
    n[p]++
    k = (id in inst) ? inst[id] : "none"
    if (!(p in first)) first[p] = k
    else if (first[p] != k) split_[p] = 1
    if (k != "none" && (k in flagged)) anyflag[p] = 1
}
END {
    wrong = 0; unf = 0
    for (i = 1; i <= np; i++) {
        p = order[i]
        ok = !(p in split_) && first[p] != "none" && size[first[p]] == n[p]
        if (!ok) { wrong++; if (!(p in anyflag)) { unf++; if (unf <= 5) print "unflagged wrong request: " p > "/dev/stderr" } }
    }
    printf "requests=%d wrong=%d wrong_unflagged=%d flagged_instances=%d\n", np, wrong, unf, nf
    exit unf > 0
}
