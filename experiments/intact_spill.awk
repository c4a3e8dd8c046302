# intact_spill.awk - does a lost message cost more than the requests it
# touches?  (docs/joint/loss.md, "Loss with call ids: crossed chains";
# evaluation only: it reads the truth)
#
#   awk -f experiments/intact_spill.awk TRUTH LOSSY RESULT_NOLOSS RESULT_LOSS
#
# TRUTH: the unperturbed trace (path column); LOSSY: the sniffer copy the
# second result was inferred from; the results: infer's on TRUTH and on
# LOSSY.  A request (truth path) is intact when it lost no message, and
# exact in a result when its messages are one inferred instance with
# nothing else in it.  Prints one line:
#   intact=N exact_noloss=A exact_loss=B still=C lost=D gained=E
# N intact requests, A of them exact without loss, B under loss, C exact
# in both, D exact only without loss, E only under loss.
BEGIN { FS = "," }
FNR == 1 { f++; h = 0; on = 0 }
/^#/ { if (f >= 3 && $0 ~ /^# table=assignment/) on = 1; next }
f >= 3 && !on { next }
!h { delete c; for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
{ split($0, a, FS) }
f == 1 { path[a[c["id"]]] = a[c["path"]]; n[a[c["path"]]]++; next }
f == 2 { k[path[a[c["id"]]]]++; next }
{ p = path[a[c["id"]]]; x = a[c["instance"]]
  if (f == 3) { cnt0[x]++; if (p in i0 && i0[p] != x) i0[p] = "X"; else i0[p] = x }
  else { cnt1[x]++; if (p in i1 && i1[p] != x) i1[p] = "X"; else i1[p] = x } }
END {
    for (p in n) {
        if (k[p] != n[p])
            continue
        m++
        e0 = (p in i0) && i0[p] != "X" && cnt0[i0[p]] == n[p]
        e1 = (p in i1) && i1[p] != "X" && cnt1[i1[p]] == n[p]
        a0 += e0; a1 += e1; both += e0 && e1; lost += e0 && !e1; gained += e1 && !e0
    }
    printf "intact=%d exact_noloss=%d exact_loss=%d still=%d lost=%d gained=%d\n", m, a0, a1, both, lost, gained
}
