#!/bin/sh
# query_error.sh - what users compute from paths (Pivot Tracing, seed 004):
# per algorithm and load, exact reconstruction beside the error of the
# *answer* to the diagnosis queries of the paper's two case studies, and
# whether the method still finds the root cause.
#
#   sh experiments/query_error.sh [--out DIR] [--quick] [--algos LIST] [--seeds N]
#
#   hdfs.conf (6.1, HDFS-6268): Q6, "reads per client and DataNode", the
#     query that showed the replica-selection affinity.  Root cause found:
#     for every client the DataNode it reads most is the truth's.
#   limplock.conf (6.2, Figure 9b): "time per callee of the region server
#     in slow requests (end-to-end over 100 ms)".  Root cause found: the
#     callee with the most time in slow requests is the truth's (DN2).
#   Both: latency_ks, the per-request latency distribution (vPath Fig. 11).
#   hotel_load100 (real, DeathStarBench; data/ or ../shared/data): time per
#     callee of the slowest 1 % of requests (Figure 9b's question); root
#     cause found: the callee with the most of it is the truth's.
#   onlineboutique (real, Nezha's fault-free minute, call ids): product
#     look-ups (GetProduct calls) per page; root cause found: the page with
#     the most look-ups is the truth's.
#
# --algos: comma-separated infer algorithms (default: truth, nesting,
# linking, fcfs, arrival, wap5tw, joint, joint without call ids written
# joint_nocid); an exec:COMMAND item runs a user's algorithm (no commas in
# it).  Loads: closed-loop instances per client (hdfs 1 2 4 8, limplock
# 1 3 6; --quick: 1 4 and 1 6, shorter traces).
#
# Environment: PB_BIN (default <repo>/bin), PB_OUT (default
# <repo>/out/figures, where experiments/report.d/query_error.sh looks).
# --seeds N: the synthetic configs on seeds 1..N (maketrace --seed k;
# default 3, --quick 2); the real traces are fixed, one run each (their
# rows carry seed "real").
#
# Writes $PB_OUT/query_error.dat (one row per config, load, algorithm and
# seed; the seed is the last column), query_error_ci.dat (per config,
# load and algorithm the number of seeds and the mean and 95 % t interval
# of exact accuracy, answer TV distance and latency KS; experiments/
# judge.awk), query_error.md (the means), and with gnuplot
# query_error.png/.svg (plots/query_error.gp).  Deterministic.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${PB_BIN:=$ROOT/bin}"
: "${PB_OUT:=$ROOT/out/figures}"
quick=0
NS=
ALGOS="truth,nesting,linking,fcfs,arrival,wap5tw,joint,joint_nocid"
while [ $# -gt 0 ]; do
    case "$1" in
    --out) [ $# -ge 2 ] || { echo "query_error: --out needs a directory" >&2; exit 2; }
           PB_OUT=$2; shift ;;
    --quick) quick=1 ;;
    --algos) [ $# -ge 2 ] || { echo "query_error: --algos needs a list" >&2; exit 2; }
           ALGOS=$2; shift ;;
    --seeds) [ $# -ge 2 ] || { echo "query_error: --seeds needs a number" >&2; exit 2; }
           NS=$2; shift ;;
    -h|--help) sed -n '2,40p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "query_error: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done
die() { echo "query_error: $*" >&2; exit 1; }
[ -n "$NS" ] || { if [ $quick -eq 1 ]; then NS=2; else NS=3; fi; }
case "$NS" in 0|*[!0-9]*) die "--seeds: '$NS' is not a positive count" ;; esac
for p in maketrace infer score; do
    [ -x "$PB_BIN/$p" ] || die "$PB_BIN/$p missing (run make)"
done
mkdir -p "$PB_OUT" || die "cannot create $PB_OUT"
W=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$W"' EXIT INT TERM
if [ $quick -eq 1 ]; then
    dur=15s; HL="1 4"; LL="1 6"
else
    dur=30s; HL="1 2 4 8"; LL="1 3 6"
fi
cat > "$W/hdfs.q" <<'Q'
Q6: From dnop In Recv[host=DN*, type=call]
    Join st In First(Send) On st -> dnop
    GroupBy st.host, dnop.host Select st.host, dnop.host, Count
Q
cat > "$W/limp.q" <<'Q'
slow: From r In Recv[host=RS, type=return]
    Join root In First(Send[type=call]) On root -> r
    Where root.latency > 0.1
    GroupBy r.peer Select r.peer, SUM(r.latency)
Q
# infer arguments of one algorithm item
args() {
    case $1 in
    joint_nocid) echo "--algo joint -s callids=0" ;;
    exec:*) echo "--algo" ;;
    *) echo "--algo $1" ;;
    esac
}
dat="$PB_OUT/query_error.dat"
{
    echo "# query_error: experiments/query_error.sh$([ $quick -eq 1 ] && echo ' --quick'); duration $dur; seeds 1-$NS; configs hdfs.conf (Q6) and limplock.conf (slow requests' time per callee)"
    echo "# config load algo exact_accuracy tv_distance max_rel_error top_same root_cause latency_ks seed"
} > "$dat.tmp"
# every algorithm on trace $1 with query file $2: one .dat row each
# (config $3, load $4, seed $5); score's columns are found by name in its
# header
run_algos() {
    t=$1 q=$2 conf=$3 n=$4 sd=$5
    echo "$ALGOS" | tr ',' '\n' | while IFS= read -r a; do
        [ -n "$a" ] || continue
        r="$W/res"
        case $a in
        exec:*) "$PB_BIN/infer" --algo "$a" "$t" > "$r" 2>"$W/err" ;;
        *) "$PB_BIN/infer" $(args "$a") "$t" > "$r" 2>"$W/err" ;;
        esac || { echo "query_error: $a on $conf load $n failed: $(tail -1 "$W/err")" >&2; continue; }
        name=$(echo "$a" | tr ' ,' '__')
        "$PB_BIN/score" --truth "$t" "$r" > "$W/row" || die "score $a failed"
        qrow=$("$PB_BIN/score" --truth "$t" --no-header --query "$q" "$r") || die "score --query $a failed"
        # root cause: hdfs: every client's most-read DataNode is the
        # truth's; elsewhere: the top group is the truth's
        if [ "$conf" = hdfs ]; then
            "$PB_BIN/score" --truth "$t" --text --query "$q" "$r" > "$W/text" || die "score --text failed"
            rc=$(awk '/^ST[0-9]/ && NF == 4 {
                    t = $3 == "-" ? 0 : $3; r = $4 == "-" ? 0 : $4
                    if (t > bt[$1]) { bt[$1] = t; at[$1] = $2 }
                    if (r > br[$1]) { br[$1] = r; ar[$1] = $2 }
                    c[$1] = 1 }
                END { ok = 1; k = 0; for (x in c) { k++; if (at[x] != ar[x]) ok = 0 }
                      print (k && ok) ? 1 : 0 }' "$W/text")
        else
            rc=$(echo "$qrow" | awk -F, '{ print $13 }')
        fi
        awk -F, -v c="$conf" -v n="$n" -v a="$name" -v q="$qrow" -v rc="$rc" -v sd="$sd" '
            NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
            { split(q, f, ","); ex = $(col["exact_accuracy"]); ks = $(col["latency_ks"])
              printf "%s %s %s %s %s %s %s %s %s %s\n", c, n, a, ex == "" ? "nan" : ex,
                  f[9], f[10], f[13], rc, ks == "" ? "nan" : ks, sd }' "$W/row" >> "$dat.tmp"
    done
}
run_config() {
    conf=$1 q=$2 loads=$3
    for n in $loads; do
      for sd in $(awk -v n="$NS" 'BEGIN { for (i = 1; i <= n; i++) print i }'); do
        t="$W/$conf.$n.csv"
        "$PB_BIN/maketrace" --seed "$sd" "$ROOT/maketrace/configs/$conf.conf" -s instances="$n" \
            -s duration="$dur" > "$t" || die "maketrace $conf failed"
        run_algos "$t" "$q" "$conf" "$n" "$sd"
      done
    done
}
run_config hdfs "$W/hdfs.q" "$HL"
run_config limplock "$W/limp.q" "$LL"
# a real trace: the DeathStarBench hotel at load 100 (imported with call
# ids), Figure 9b's question: where do the slowest 1 % of requests spend
# their time?  The threshold is the 99th percentile of the client's
# end-to-end latency in the truth.
hotel=""
for h in "$ROOT/data/deathstarbench-hotel/hotel_load100.tar.xz" \
         "$ROOT/../shared/data/deathstarbench-hotel/hotel_load100.tar.xz"; do
    [ -f "$h" ] && { hotel=$h; break; }
done
if [ -n "$hotel" ]; then
    t="$W/hotel100.csv"
    "$PB_BIN/importtrace" -q --callid "$hotel" > "$t" || die "import of $hotel failed"
    thr=$(awk -F, '!/^#/ && $1 != "id" && $4 == "client" && $6 == "call" { s[$7] = $2 }
                   !/^#/ && $1 != "id" && $5 == "client" && $6 == "return" && ($7 in s) { print $3 - s[$7] }' "$t" |
          sort -g | awk '{ v[NR] = $1 } END { print v[int(0.99 * NR)] }')
    cat > "$W/hotel.q" <<Q
slow1pct: From r In Recv[type=return]
    Join root In First(Send[type=call]) On root -> r
    Where root.latency > $thr
    GroupBy r.peer Select r.peer, SUM(r.latency)
Q
    run_algos "$t" "$W/hotel.q" hotel100 100 real
else
    echo "query_error: the hotel traces are not in data/ nor ../shared/data: no real-trace row" >&2
fi
# Online Boutique (Nezha, the fault-free minute, with call ids and the
# operation as attr): how many product look-ups each page made (GetProduct
# calls per request, keyed by the request's first call)
ob="$ROOT/data/nezha/onlineboutique/construct_2022-08-23_17_00.csv.gz"
if [ -f "$ob" ]; then
    t="$W/ob.csv"
    "$PB_BIN/importtrace" -q --callid --attr "$ob" > "$t" || die "import of $ob failed"
    cat > "$W/ob.q" <<'Q'
getproduct_per_page: From g In Recv[host=productcatalogservice, type=call, attr=hipstershop.ProductCatalogService/GetProduct]
    Join page In First(Send[type=call]) On page -> g
    GroupBy page.id Select page.id, Count
Q
    run_algos "$t" "$W/ob.q" onlineboutique 500 real
else
    echo "query_error: the Online Boutique minute is not in data/: no row for it" >&2
fi
mv "$dat.tmp" "$dat"
# the means over the seeds and their 95 % t intervals (experiments/judge.awk)
ci="$PB_OUT/query_error_ci.dat"
awk "$(cat "$ROOT/experiments/judge.awk")"'
    /^#/ { next }
    { k = $1 " " $2 " " $3; if (!(k in seen)) { seen[k] = 1; key[++n] = k }
      if ($4 != "nan") judge_add(k SUBSEP 4, $4); judge_add(k SUBSEP 5, $5); if ($9 != "nan") judge_add(k SUBSEP 9, $9)
      judge_add(k SUBSEP 8, $8); ns[k]++ }
    END { print "# query_error: per config, load and algorithm the seeds, then the mean and 95 % t interval of exact accuracy, answer TV distance, latency KS, and the share of seeds that found the root cause"
          print "# config load algo n exact exact_lo exact_hi tv tv_lo tv_hi ks ks_lo ks_hi root_cause"
          for (r = 1; r <= n; r++) { k = key[r]; line = k " " ns[k]
              for (i = split("4 5 9", C, " "); i >= 1; i--) cc[4 - i] = C[4 - i]
              for (i = 1; i <= 3; i++) line = line (judge_ci(k SUBSEP cc[i]) ? sprintf(" %.4f %.4f %.4f", JM, JLO, JHI) : " nan nan nan")
              judge_ci(k SUBSEP 8); print line sprintf(" %.4f", JM) } }' "$dat" > "$ci" || die "cannot write $ci"
# the table (the means over the seeds)
awk 'BEGIN { print "| config | load | algorithm | seeds | exact | answer error (TV) | root cause found (share of seeds) | latency KS |"; print "|---|---|---|---|---|---|---|---|" }
     /^#/ { next }
     { printf "| %s | %s | %s | %s | %s | %.3f | %s | %s |\n", $1, $2, $3, $4,
         $5 == "nan" ? "-" : sprintf("%.1f %%", 100 * $5), $8,
         $14 == 1 ? "yes" : ($14 == 0 ? "no" : sprintf("%.2f", $14)), $11 == "nan" ? "-" : sprintf("%.3f", $11) }' "$ci" > "$PB_OUT/query_error.md"
if command -v gnuplot >/dev/null 2>&1; then
    gnuplot -e "datadir='$PB_OUT'; outdir='$PB_OUT'" "$ROOT/plots/query_error.gp" ||
        echo "query_error: gnuplot failed" >&2
fi
echo "query_error: wrote $dat and query_error.md" >&2
