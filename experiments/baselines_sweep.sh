#!/bin/sh
# baselines_sweep.sh - every method against offered load, added
# parallelism, clock skew and capture loss, on the hotel synthetic
# config (maketrace/configs/hotel.conf: the six services of the
# DeathStarBench hotel traces, one caller each):
#   load   -D instances=N (closed loop), x = requests per second offered
#   par    share of requests whose calls go in parallel (frontend's three,
#          search's two), at instances=22 (about 100 requests/s)
#   skew   clock offset of search (skewer -n search=+X), at instances=5
#   loss   independent capture loss (sniffer --loss P, seeds 1-3), at instances=5
# Methods: nesting, linking (entry=client), joint (when built) and the
# baselines fcfs, arrival, vpath, wap5tw (docs/baselines.md); the trace
# carries call ids, and a thread column derived from the truth
# (experiments/thread_from_truth.awk) that only vpath reads.
#
#   sh experiments/baselines_sweep.sh [--quick] [--out DIR]
#
# Writes $PB_OUT/baselines_{load,par,skew,loss}.dat (x, then one exact
# accuracy column per method), $PB_OUT/baselines_sweep.csv (every score
# column of every run) and, when gnuplot is there, baselines.png/.svg
# (plots/baselines.gp).  Deterministic (fixed seeds) apart from CPU times.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${PB_BIN:=$ROOT/bin}"
: "${PB_OUT:=$ROOT/out/figures}"
quick=0
while [ $# -gt 0 ]; do
    case "$1" in
    --quick|--tiny) quick=1 ;;
    --out) [ $# -ge 2 ] || { echo "baselines_sweep: --out needs a directory" >&2; exit 2; }
           PB_OUT=$2; shift ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "baselines_sweep: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done
die() { echo "baselines_sweep: $*" >&2; exit 1; }
for p in maketrace infer score skewer sniffer; do
    [ -x "$PB_BIN/$p" ] || die "$PB_BIN/$p missing (run make)"
done
CONF="$ROOT/maketrace/configs/hotel.conf"
W="$PB_OUT/baselines_sweep"
rm -rf "$W"
mkdir -p "$W" || die "cannot create $W"

METHODS="nesting linking fcfs arrival vpath wap5tw"
"$PB_BIN/infer" --help 2>/dev/null | grep -q '^joint (' && METHODS="$METHODS joint"
args_of() {
    case "$1" in
    linking) echo "--algo linking -s entry=client" ;;
    *) echo "--algo $1" ;;
    esac
}
if [ $quick = 1 ]; then
    DUR=20s; LOADS="1 5 22"; PARS="0 0.5 1"; SKEWS="0 1 5"; LOSSES="0 0.01 0.05"
else
    DUR=60s; LOADS="1 2 5 10 22 44"; PARS="0 0.25 0.5 0.75 1"
    SKEWS="0 0.5 1 2 5 10 20"; LOSSES="0 0.001 0.005 0.01 0.02 0.05"
fi

# gen NAME [maketrace -D options]: the truth trace and the one with threads
gen() {
    gname=$1; shift
    "$PB_BIN/maketrace" "$CONF" -D duration=$DUR "$@" -o "$W/$gname.csv" ||
        die "maketrace $* failed"
    awk -F, -f "$ROOT/experiments/thread_from_truth.awk" "$W/$gname.csv" > "$W/$gname.t.csv" ||
        die "thread_from_truth failed"
}
# run SWEEP X TRUTH INPUT [SEED]: one score row per method into the CSV
CSV="$PB_OUT/baselines_sweep.csv"
: > "$CSV.tmp"
run() {
    for m in $METHODS; do
        tag="$1-$2${5:+-$5}-$m"
        # shellcheck disable=SC2046
        "$PB_BIN/infer" $(args_of "$m") --sort -o "$W/$tag.res" "$4" 2> "$W/$tag.log" ||
            die "infer $m ($1 = $2) failed: $(tail -2 "$W/$tag.log")"
        "$PB_BIN/score" --truth "$3" "$W/$tag.res" > "$W/$tag.score" 2>> "$W/$tag.log" ||
            die "score $m ($1 = $2) failed: $(tail -2 "$W/$tag.log")"
        [ -f "$W/header" ] || awk 'NR==1 { print "sweep,x,method," $0 }' "$W/$tag.score" > "$W/header"
        awk -v s="$1" -v x="$2" -v m="$m" 'NR==2 { print s "," x "," m "," $0 }' "$W/$tag.score" >> "$CSV.tmp"
    done
}
# offered load: requests per second actually generated
rate() {
    grep -v '^#' "$1" | awk -F, -v d="${DUR%s}" 'NR==1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { seen[$c["path"]] = 1 } END { n = 0; for (k in seen) n++; printf "%.1f", n / d }'
}

for n in $LOADS; do
    gen "load$n" -D instances="$n"
    run load "$(rate "$W/load$n.csv")" "$W/load$n.csv" "$W/load$n.t.csv"
done
for p in $PARS; do
    pw=$(awk -v p="$p" 'BEGIN { printf "%d", 100 * p + 0.5 }')
    gen "par$pw" -D instances=22 -D parallel="$pw" -D sequential=$((100 - pw))
    run par "$p" "$W/par$pw.csv" "$W/par$pw.t.csv"
done
gen base -D instances=5
for s in $SKEWS; do
    "$PB_BIN/skewer" -n "search=+${s}ms" -o "$W/skew$s.t.csv" "$W/base.t.csv" 2>> "$W/skewer.log" ||
        die "skewer $s failed"
    run skew "$s" "$W/base.csv" "$W/skew$s.t.csv"
done
# loss: three sniffer seeds per point (FCFS-like methods cascade from the
# first lost call, so where it falls matters), averaged in the .dat
for l in $LOSSES; do
    for sd in 1 2 3; do
        [ "$l" = 0 ] && [ $sd -gt 1 ] && continue
        "$PB_BIN/sniffer" --quiet --loss "$l" -s $sd -o "$W/loss$l-$sd.t.csv" "$W/base.t.csv" ||
            die "sniffer $l failed"
        run loss "$l" "$W/base.csv" "$W/loss$l-$sd.t.csv" "$sd"
    done
done
cat "$W/header" "$CSV.tmp" > "$CSV" && rm -f "$CSV.tmp"

# one wide .dat per sweep: x, then exact accuracy per method
for s in load par skew loss; do
    case $s in
    load) what="offered load (requests/s; -D instances=1..44)" ;;
    par) what="share of requests with parallel calls (instances=22)" ;;
    skew) what="clock offset of search, ms (instances=5)" ;;
    loss) what="capture loss probability (instances=5)" ;;
    esac
    awk -F, -v s="$s" -v what="$what" -v methods="$METHODS" '
    NR==1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $1 == s { x = $2; if (!(x in seen)) { seen[x] = 1; xs[++nx] = x }
              if ($c["exact_accuracy"] != "") { sum[x, $3] += $c["exact_accuracy"]; cnt[x, $3]++ } }
    END {
        nm = split(methods, ms, " ")
        print "# baselines_sweep.sh: exact_accuracy against " what
        print "# config maketrace/configs/hotel.conf; columns: x, then one per method (mean over seeds where several)"
        line = "x"; for (k = 1; k <= nm; k++) line = line " " ms[k]; print line
        for (i = 1; i <= nx; i++) {
            line = xs[i]
            for (k = 1; k <= nm; k++) line = line " " (cnt[xs[i], ms[k]] ? sprintf("%.4f", sum[xs[i], ms[k]] / cnt[xs[i], ms[k]]) : "NaN")
            print line
        }
    }' "$CSV" > "$PB_OUT/baselines_$s.dat"
done
if command -v gnuplot > /dev/null 2>&1; then
    for ext in png svg; do
        gnuplot -e "datadir='$PB_OUT'; ext='$ext'" "$ROOT/plots/baselines.gp" ||
            echo "baselines_sweep: warning: gnuplot failed ($ext)" >&2
    done
fi
# the traces and results of the sweep (hundreds of MB in a full run) are not
# kept: the tables and .dat files above hold what they showed; logs stay.
# PB_KEEP_WORK=1 keeps them (docs/experiments.md).
[ "${PB_KEEP_WORK:-0}" = 1 ] || find "$W" -type f \( -name '*.csv' -o -name '*.res' \) -exec rm -f {} +
echo "baselines_sweep: wrote $CSV and $PB_OUT/baselines_{load,par,skew,loss}.dat"
