#!/bin/sh
# joint_ebpf_gaps.sh - evaluation only (reads the truth's path and cause
# columns; infer is not run): on the DeepTrace eBPF capture, how often the
# front end (the callee of the requests' root calls) serves two requests
# out of the order it read them, by the gap between the two reads.  Per
# request, the front end's k-th input (its root call, then each child's
# answer, by read stamp) is followed by its k-th output (each child call,
# then its answer, by send stamp); for requests adjacent by the k-th
# input's read stamp, an overtake is the later-read one's k-th output
# sent first.  docs/joint/loss_late.md, "The eBPF capture as a black box,
# checked again".
#   sh experiments/joint_ebpf_gaps.sh [DATA_DIR]   (default ../shared/data)
set -e
R=$(cd "$(dirname "$0")/.." && pwd)
B=${PB_BIN:-$R/bin}
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
. "$R/experiments/trace_cols.sh"
ebpf_trace "${1:-$R/../shared/data}" "$W"
awk -F, '
/^#/ { next }
!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
{ n++; ts[n] = $c["ts"]; rs[n] = $c["recv_ts"] != "" ? $c["recv_ts"] : $c["ts"]
  src[n] = $c["src"]; dst[n] = $c["dst"]; ty[n] = $c["type"]; rq[n] = $c["path"]
  if ($c["cause"] == "" && $c["type"] == "call") front = $c["dst"] }
END {
    # inputs of the front end: calls to it, returns to it; outputs: calls
    # from it, returns from it (stamps: read for inputs, send for outputs)
    for (i = 1; i <= n; i++) {
        if (dst[i] == front) { k = ++nin[rq[i]]; in_t[rq[i], k] = rs[i] }
        else if (src[i] == front) { k = ++nout[rq[i]]; out_t[rq[i], k] = ts[i] }
    }
    for (r in nin) if (nin[r] > maxk) maxk = nin[r]
    split("10 30 100 300", edge, " ")
    for (k = 1; k <= maxk; k++) {
        m = 0
        for (r in nin) if (nin[r] >= k && nout[r] >= k) { m++; key[m] = in_t[r, k]; who[m] = r }
        # insertion sort by the k-th read stamp (a few hundred requests)
        for (i = 2; i <= m; i++) { kv = key[i]; wv = who[i]; j = i - 1
            while (j > 0 && key[j] > kv) { key[j + 1] = key[j]; who[j + 1] = who[j]; j-- }
            key[j + 1] = kv; who[j + 1] = wv }
        delete pairs; delete over
        for (i = 2; i <= m; i++) {
            g = (key[i] - key[i - 1]) * 1e6; b = 5
            for (e = 1; e <= 4; e++) if (g < edge[e]) { b = e; break }
            pairs[b]++
            if (out_t[who[i], k] < out_t[who[i - 1], k]) over[b]++
        }
        printf "step %d:", k
        split("<10us 10-30us 30-100us 100-300us >=300us", lab, " ")
        for (b = 1; b <= 5; b++) printf " %s %d/%d", lab[b], over[b] + 0, pairs[b] + 0
        printf "\n"
    }
}' "$W/bb.csv"
