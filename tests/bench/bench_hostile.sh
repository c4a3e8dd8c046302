#!/bin/sh
# Cost of hostile inputs (issue 16): wall time and max RSS of the cases
# that once ran for minutes or crashed.  Each should stay linear in the
# input (O(m p) for nesting) or stop at its documented cap:
#   deep      a call chain D levels deep: infer truth, score, nesting
#   fanout    one call with K sequential children while a second caller is
#             open (every child has two candidate parents): nesting with
#             all three penalties
#   linking   k=24 on an 8,000-message trace (capped at 50,000 instances)
#   nesting   hist_bins=100000 smooth_width=100 on 8,000 messages
#   alt       a chain alternating two nodes (A->B->A->B ...) D levels
#             deep, with call ids (issue 29): half the chain is open at
#             every node, max_candidates (1024) caps the candidates, and
#             the sweep reads them from an ordered open set, so CPU per
#             level stays flat from D=20,000 to 100,000 (whole trace and
#             -s window=1s)
#   parallel  one call into B makes K calls into C, all open at once, while
#             a second caller of B is open (every child has two candidate
#             parents, and the overlap penalty counts the K siblings given
#             before it: by binary search now, K^2 before); and the same
#             with -s skew_window=1us (a persistent count tree now, K^2
#             before)
#   loop      one thread (an event loop) holds K requests open and sends
#             K calls: vpath's paper variant flagged every open request at
#             each send, K^2 (now a count per thread: linear)
#   nodes     K RPCs between K distinct node pairs, one a second, with
#             -s window=1ms (K windows, 2K nodes): each window's segment
#             once cost O(nodes), K^2 in all (and --per-window O(patterns)
#             a window)
# PB_BENCH_QUICK=1 divides the sizes by 10.
set -u
: "${PB_BIN:?}"
dir="${PB_BENCH_DIR:-/tmp}/hostile"
mkdir -p "$dir" || exit 0
div=1
[ "${PB_BENCH_QUICK:-0}" = 1 ] && div=10
for p in maketrace infer score; do
    [ -x "$PB_BIN/$p" ] || { echo "bench_hostile: $PB_BIN/$p missing, skipped"; exit 0; }
done
command -v /usr/bin/time > /dev/null 2>&1 || { echo "bench_hostile: /usr/bin/time missing, skipped"; exit 0; }

# run LABEL CMD...: one row "label  seconds  max-RSS-MB  exit"
run() {
    label=$1
    shift
    /usr/bin/time -f "%e %M" -o "$dir/time" "$@" > "$dir/out" 2> "$dir/err"
    rc=$?
    awk -v l="$label" -v rc=$rc '{ printf "%-44s %8.2f s %8.1f MB  exit %d\n", l, $1, $2 / 1024, rc }' "$dir/time"
}

D=$((100000 / div))
awk -v D=$D 'BEGIN {
    print "id,ts,recv_ts,src,dst,type,callid,path,cause"; id = 0
    for (i = 0; i < D; i++) {
        printf "%d,%.6f,%.6f,N%d,N%d,call,%d,1,%s\n", id, i*1e-6, i*1e-6+5e-7, i, i+1, i+1, (i ? id-1 : ""); id++ }
    for (i = D-1; i >= 0; i--) { t = (2*D-i)*1e-6
        printf "%d,%.6f,%.6f,N%d,N%d,return,%d,1,%d\n", id, t, t+5e-7, i+1, i, i+1, id-1; id++ }
}' > "$dir/deep.csv"
echo "case                                         wall         max RSS"
run "deep D=$D: infer --algo truth" "$PB_BIN/infer" --algo truth -o "$dir/deep.r" "$dir/deep.csv"
run "deep D=$D: score" "$PB_BIN/score" --truth "$dir/deep.csv" "$dir/deep.r"
run "deep D=$D: infer --algo nesting --report" "$PB_BIN/infer" --algo nesting --report "$dir/rep.txt" "$dir/deep.csv"

K=$((100000 / div))
awk -v K=$K 'BEGIN { print "id,ts,src,dst,type,callid"; id = 0
    printf "%d,%.6f,A,B,call,1\n", id++, 0; printf "%d,%.6f,D,B,call,0\n", id++, 1e-4
    for (i = 0; i < K; i++) {
        printf "%d,%.7f,B,C,call,%d\n", id++, 1e-3 + i*1e-6, i + 2
        printf "%d,%.7f,C,B,return,%d\n", id++, 1e-3 + i*1e-6 + 5e-7, i + 2 }
    printf "%d,%.6f,B,D,return,0\n", id++, 1; printf "%d,%.6f,B,A,return,1\n", id++, 1.1 }' > "$dir/fanout.csv"
run "fanout K=$K: nesting x=2 y=1 z=1" "$PB_BIN/infer" --algo nesting -s y=1 -s z=1 "$dir/fanout.csv"

M=$((8000 / div))
"$PB_BIN/maketrace" "$PB_ROOT/maketrace/configs/multitier.conf" -D messages=$M -o "$dir/m.csv" 2> /dev/null
run "$M messages: linking k=24" "$PB_BIN/infer" --algo linking -s k=24 "$dir/m.csv"
run "$M messages: nesting hist_bins=1e5 smooth_width=100" "$PB_BIN/infer" --algo nesting \
    -s hist_bins=100000 -s smooth=1 -s smooth_width=100 "$dir/m.csv"
run "$M messages: convolution, every filter off" "$PB_BIN/infer" --algo convolution \
    -s filter_count=0 -s filter_depth=0 -s filter_cycle=0 -s filter_negative=0 -s filter_chance=0 "$dir/m.csv"

# runc LABEL N CMD...: a row with CPU (user + sys) and CPU per 1000 levels
# (chain) or calls (parallel)
runc() {
    label=$1 lv=$2
    shift 2
    /usr/bin/time -f "%e %M %U %S" -o "$dir/time" "$@" > "$dir/out" 2> "$dir/err"
    rc=$?
    awk -v l="$label" -v rc=$rc -v lv="$lv" '{ printf "%-44s %8.2f s %8.1f MB  exit %d  CPU %.2f s, %.3f s per 1000 levels (calls)\n",
        l, $1, $2 / 1024, rc, $3 + $4, 1000 * ($3 + $4) / lv }' "$dir/time"
}
for A in $((20000 / div)) $((100000 / div)); do
    awk -v D=$A 'BEGIN { print "id,ts,recv_ts,src,dst,type,callid"; id = 0
        for (i = 0; i < D; i++) { s = i % 2 ? "B" : "A"; d = i % 2 ? "A" : "B"
            printf "%d,%.6f,%.6f,%s,%s,call,%d\n", id++, i * 1e-6, i * 1e-6 + 5e-7, s, d, i + 1 }
        for (i = D - 1; i >= 0; i--) { t = (2 * D - i) * 1e-6; s = i % 2 ? "B" : "A"; d = i % 2 ? "A" : "B"
            printf "%d,%.6f,%.6f,%s,%s,return,%d\n", id++, t, t + 5e-7, d, s, i + 1 } }' > "$dir/alt.csv"
    runc "alt D=$A: nesting" $A "$PB_BIN/infer" --algo nesting "$dir/alt.csv"
    runc "alt D=$A: nesting -s window=1s" $A "$PB_BIN/infer" --algo nesting -s window=1s "$dir/alt.csv"
done
for K in $((20000 / div)) $((100000 / div)); do
    awk -v K=$K 'BEGIN { print "id,ts,src,dst,type,callid"; id = 0
        printf "%d,%.6f,A,B,call,1\n", id++, 0; printf "%d,%.6f,D,B,call,0\n", id++, 1e-4
        for (i = 0; i < K; i++) printf "%d,%.7f,B,C,call,%d\n", id++, 1e-3 + i * 1e-6, i + 2
        for (i = 0; i < K; i++) printf "%d,%.7f,C,B,return,%d\n", id++, 1 + i * 1e-6, i + 2
        printf "%d,%.6f,B,D,return,0\n", id++, 2; printf "%d,%.6f,B,A,return,1\n", id++, 2.1 }' > "$dir/par.csv"
    runc "parallel K=$K: nesting" $K "$PB_BIN/infer" --algo nesting "$dir/par.csv"
    runc "parallel K=$K: nesting -s skew_window=1us" $K "$PB_BIN/infer" --algo nesting \
        -s skew_window=1us "$dir/par.csv"
done
for K in $((20000 / div)) $((100000 / div)); do
    awk -v K=$K 'BEGIN { print "id,ts,src,dst,type,callid"; id = 0
        for (i = 0; i < K; i++) {
            printf "%d,%d.000000,U%d,V%d,call,%d\n", id++, i, i, i, i + 1
            printf "%d,%d.000100,V%d,U%d,return,%d\n", id++, i, i, i, i + 1 } }' > "$dir/nodes.csv"
    runc "nodes K=$K: nesting -s window=1ms --per-window" $K "$PB_BIN/infer" --algo nesting \
        -s window=1ms --per-window "$dir/pw.csv" "$dir/nodes.csv"
done
for K in $((20000 / div)) $((100000 / div)); do
    awk -v K=$K 'BEGIN { print "id,ts,recv_ts,src,dst,type,callid,path,cause,thread,sthread,conn"; id = 0
        for (i = 0; i < K; i++) { printf "%d,%.7f,%.7f,C,S,call,r%d,%d,,S:t,C:c%d,C>S:%d\n", id, i*1e-5, i*1e-5, i, i, i, i; rc[i] = id++ }
        for (i = 0; i < K; i++) { t = 1 + i*1e-5
            printf "%d,%.7f,%.7f,S,D,call,d%d,%d,%d,D:t,S:t,S>D:0\n", id, t, t, i, i, rc[i]; dc = id++
            printf "%d,%.7f,%.7f,D,S,return,d%d,%d,%d,S:t,D:t,S>D:0\n", id, t+5e-6, t+5e-6, i, i, dc; dr[i] = id++ }
        for (i = 0; i < K; i++) { t = 2 + i*1e-5
            printf "%d,%.7f,%.7f,S,C,return,r%d,%d,%d,C:c%d,S:t,C>S:%d\n", id, t, t, i, i, dr[i], i, i; id++ } }' > "$dir/loop.csv"
    runc "loop K=$K: vpath -s variant=paper" $K "$PB_BIN/infer" --algo vpath -s variant=paper "$dir/loop.csv"
    runc "loop K=$K: borderpatrol" $K "$PB_BIN/infer" --algo borderpatrol "$dir/loop.csv"
done
rm -f "$dir/out" "$dir/alt.csv" "$dir/par.csv" "$dir/nodes.csv" "$dir/pw.csv" "$dir/loop.csv"
