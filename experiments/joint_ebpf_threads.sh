#!/bin/sh
# joint_ebpf_threads.sh - evaluation only (the truth decides nothing in
# infer): could the receiving thread decide the eBPF capture's call
# crossings?  Per callee, with the truth's pairs (a return's `cause` is
# its call): how often a thread's next read comes after its previous
# call was answered (one call at a time per thread), and, at each call
# crossing (two calls of one link adjacent by send stamp, read in the
# other order), whether either thread reads again between the two
# answers (the only way the one-call-per-thread rule could tell the two
# pairings apart).  At the caller: how many returns are read on the
# thread that read their request's call.  docs/joint/systems.md, "The
# eBPF capture: what the receiving thread and a chain exchange say".
#   sh experiments/joint_ebpf_threads.sh [DATA_DIR]   (default ../shared/data)
set -e
R=$(cd "$(dirname "$0")/.." && pwd)
B=${PB_BIN:-$R/bin}
DATA=${1:-$R/../shared/data}
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
. "$R/experiments/trace_cols.sh"
ebpf_trace "$DATA" "$W"
# per call: callee, thread, read, answer (truth), id
awk -F, '/^#/ || $1 == "id" { next }
    $6 == "call" { rd[$1] = $3; th[$1] = $9; dst[$1] = $5 }
    $6 == "return" { ans[$8] = $2 }
    END { for (i in rd) print dst[i], th[i], rd[i], ans[i], i }' "$W/bb.csv" |
    sort -k1,1 -k2,2 -k3,3g > "$W/calls"
awk '{ k = $1 " " $2; if (k == pk) { n[$1]++; if (pa < $3) ok[$1]++; nx[pid] = $3 }
       pk = k; pa = $4; pid = $5 }
     END { for (s in n) printf "callee %s: consecutive reads on one thread %d, answered before the next read %d\n", s, n[s], ok[s]
           for (i in nx) print "next", i, nx[i] > "/dev/stderr" }' "$W/calls" 2> "$W/next" | sort
awk -F, '/^#/ || $1 == "id" { next } $3 != "" && $6 == "call" { print $4 ">" $5, $2, $3, $1 }' "$W/bb.csv" |
    sort -k1,1 -k2,2g |
    awk '{ if ($1 == pl && $3 < pr) print pid, $4, $1; pl = $1; pr = $3; pid = $4 }' > "$W/cross"
while read a b link; do
    awk -v a="$a" -v b="$b" -v link="$link" -v nf="$W/next" '
        BEGIN { while ((getline l < nf) > 0) { split(l, f, " "); nx[f[2]] = f[3] } }
        $5 == a || $5 == b { ans[$5] = $4 }
        END { lo = ans[a] < ans[b] ? ans[a] : ans[b]; hi = ans[a] < ans[b] ? ans[b] : ans[a]
              d = 0; for (i in ans) if ((i in nx) && nx[i] > lo && nx[i] < hi) d = 1
              printf "crossing %s %s/%s: answers %.0f us apart; a thread reads again between them: %s\n",
                     link, a, b, (hi - lo) * 1e6, d ? "yes" : "no" }' "$W/calls"
done < "$W/cross"
awk -F, '/^#/ || $1 == "id" { next }
    $6 == "call" && $3 != "" { rt[$7 SUBSEP $5] = $9 }
    $6 == "return" && $3 != "" { n[$5]++; if ($9 == rt[$7 SUBSEP $5]) same[$5]++ }
    END { for (s in n) printf "caller %s: returns read on the thread that read their request %d of %d\n", s, same[s], n[s] }' "$W/bb.csv"
